"""A league's status as data: its standings and counts as ``bullring league status --json``
prints them (and ``bullring demo`` reads), and how many matches the next run will
schedule."""

from __future__ import annotations

from typing import Any

from referee.league.config import LeagueConfig
from referee.league.runner import (
    active_roster,
    plan_static,
)
from referee.league.store import LeagueStore


def unscheduled_count(config: LeagueConfig, store: LeagueStore) -> int:
    """How many matches of the league file's fixed schedule the store does not hold yet:
    those of bots submitted or added to the file since the last run, which the next
    ``league run`` schedules (the quality format's batches are scheduled as it plays)."""
    planned = plan_static(config, active_roster(config, store.path))
    known = {match.slot for match in store.matches()}
    return sum(1 for match in planned if match.slot not in known)


def standings_json(store: LeagueStore, config: LeagueConfig | None = None) -> dict[str, Any]:
    """The whole league's status, as ``bullring league status --json`` prints it (with
    the league file, also how many matches the next run will add: ``unscheduled``)."""
    finished, scheduled = store.counts()
    meta = store.meta()
    return {
        "league": meta.get("name", ""),
        "store": str(store.path),
        "finished": finished,
        "scheduled": scheduled,
        "unscheduled": unscheduled_count(config, store) if config is not None else None,
        "variants": {
            v["id"]: [s.to_json() for s in store.standings(v["id"])] for v in store.variants()
        },
    }
