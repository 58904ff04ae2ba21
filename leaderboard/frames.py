"""The replay viewer's data: the table after every decision, per perspective.

A match's replay (referee/replay.py) holds the variant, options, seed, seats and every
decision's choice. The builder re-simulates it with the game engine and records, after
each decision, the referee's view (seat -1) and every seat's own view, turned into plain
tables (leaderboard/tables.py). Each perspective becomes its own small data file, so a
seat's file is made from that seat's views only and never holds an opponent's hidden card.

Frames are delta-encoded to keep files small: ``frames[0]`` is the whole table before the
first decision; ``frames[k]`` holds only the top-level keys that changed with decision
``k``, and its ``seats`` list holds null for every seat whose entry did not change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from leaderboard.replay_input import ReplayDecision, decisions_of
from leaderboard.tables import Table, table_of
from sdk.game import DecisionKind, new_game

SECRET_DECISIONS = frozenset({DecisionKind.PICK_CARD.name})
"""Decisions whose choice stays hidden from the other seats when it is made."""


@dataclass(frozen=True)
class Perspective:
    """One data file of a match: "referee" (seat -1) or "seat<N>"."""

    name: str
    seat: int
    data: dict[str, Any]


def perspective_name(seat: int) -> str:
    return "referee" if seat < 0 else f"seat{seat}"


def delta(previous: Table, current: Table) -> dict[str, Any]:
    """The keys of `current` that differ from `previous` (seats compared one by one)."""
    changed: dict[str, Any] = {}
    for key, value in current.items():
        if previous.get(key) == value:
            continue
        if key == "seats" and len(previous.get("seats", [])) == len(value):
            changed[key] = [
                None if old == new else new for old, new in zip(previous[key], value, strict=True)
            ]
        else:
            changed[key] = value
    return changed


def _decision_entry(decision: ReplayDecision, seat: int) -> dict[str, Any]:
    """A decision as `seat` may see it (seat -1: everything)."""
    own = seat < 0 or decision.seat == seat
    hidden = not own and decision.kind in SECRET_DECISIONS
    return {
        "seat": decision.seat,
        "kind": decision.kind,
        "choice": None if hidden else decision.choice.describe(),
        "options": [o.describe() for o in decision.options] if own else None,
        "time_ms": decision.time_ms,
        "fault": dict(decision.fault) if decision.fault else None,
    }


def build_perspectives(replay: Mapping[str, Any]) -> list[Perspective]:
    """Re-simulate `replay`; one Perspective for the referee and one per seat."""
    players = len(replay["bots"])
    seats = [-1, *range(players)]
    state = new_game(str(replay["variant"]), players, int(replay["seed"]), replay.get("options"))
    decisions = decisions_of(replay)
    first = {s: table_of(state.view(s)) for s in seats}
    frames: dict[int, list[dict[str, Any]]] = {s: [first[s]] for s in seats}
    last = first
    for decision in decisions:
        state.apply(decision.seat, decision.choice)
        now = {s: table_of(state.view(s)) for s in seats}
        for s in seats:
            frames[s].append(delta(last[s], now[s]))
        last = now
    names = [_bot_key(b) for b in replay["bots"]]
    result = []
    for s in seats:
        data = {
            "match_id": str(replay["match_id"]),
            "variant": str(replay["variant"]),
            "perspective": perspective_name(s),
            "seat": s,
            "players": names,
            "decisions": [_decision_entry(d, s) for d in decisions],
            "frames": frames[s],
        }
        result.append(Perspective(perspective_name(s), s, data))
    return result


def _bot_key(bot: Any) -> str:
    if isinstance(bot, Mapping):
        return f"{bot.get('name', '?')}@{bot.get('version', '0')}"
    return str(bot)


def expand(frames: Sequence[Mapping[str, Any]]) -> list[Table]:
    """Undo :func:`delta` (what the viewer's JavaScript does); used by tests."""
    tables: list[Table] = []
    for frame in frames:
        if not tables:
            tables.append(dict(frame))
            continue
        table = dict(tables[-1])
        for key, value in frame.items():
            if key == "seats":
                table[key] = [
                    old if new is None else new for old, new in zip(table[key], value, strict=True)
                ]
            else:
                table[key] = value
        tables.append(table)
    return tables
