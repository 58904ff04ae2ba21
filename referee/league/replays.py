"""Where a replay comes from: a replay file, or a match of a league (its store, or the
league file naming the store). ``bullring replay`` and ``bullring debug`` read both."""

from __future__ import annotations

from pathlib import Path

from referee.league.config import load_league
from referee.league.store import LeagueStore
from referee.replay import files as replay_file
from referee.replay.model import Replay, ReplayError

STORE_SUFFIXES = (".sqlite", ".sqlite3", ".db")


def is_league_source(source: Path) -> bool:
    """Whether `source` names a league (its file or its store) rather than a replay file."""
    return source.suffix in (".toml", *STORE_SUFFIXES)


def load_replay(source: Path, match_id: str | None) -> Replay:
    """The replay in file `source`, or of match `match_id` in the league `source` (a
    league file or its store). ReplayError (a user error) for a missing match."""
    if not is_league_source(source):
        if match_id is not None:
            raise ReplayError(f"{source} is a replay file: give no match id (it holds one match)")
        return replay_file.load(source)
    store = load_league(source).store if source.suffix == ".toml" else source
    if match_id is None:
        raise ReplayError(f"{source} is a league: give the match id too (e.g. demo-000001)")
    if not store.is_file():
        raise ReplayError(f"no league store at {store} (has the league been run?)")
    with LeagueStore.open_readonly(store) as db:
        data = db.replay(match_id)
        if data is None:
            known = [m.match_id for m in db.matches(status="finished")][:3]
            hint = f"; finished matches include {', '.join(known)}" if known else ""
            raise ReplayError(f"{store}: no finished match {match_id!r}{hint}")
    return Replay.from_json(data, f"{store} match {match_id}")
