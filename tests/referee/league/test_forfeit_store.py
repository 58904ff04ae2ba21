"""A league with a bot that never starts (its command does not exist): the bot is
forfeited at setup in every match and ranks last in each, in the store, the replays, the
ratings, `league status` and the site (issue 26); and a store recorded before that rule is
re-ranked by its next writer, read re-ranked by readers, its file unchanged.

fixtures/forfeit_tie/ holds the league (league.toml, its key) and the store that Bullring
recorded from it at commit 2bc9aae, before the rule: there, no_command won matches
ft-000002 and ft-000004 with fewer heads, tied for first place in ft-000005 (8 heads,
like bob) and was second in ft-000003 and ft-000006; only in ft-000001 was it last.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from leaderboard import paths
from leaderboard.build import build_site
from referee.league.config import load_league
from referee.league.ratings import replay_ratings
from referee.league.store import FORFEITS_RANKED_LAST, LeagueStore
from referee.replay.model import Replay
from referee.replay.resimulate import resimulate
from tests.referee.helpers import BAD_BOTS
from tests.referee.league.leagues import bullring

FIXTURE = Path(__file__).parent / "fixtures" / "forfeit_tie"
VARIANT = "6nimmt:rounds=1"
BROKEN = "no_command@1"
BEFORE = {  # match -> no_command's seat, its heads and rank in the store 2bc9aae recorded
    "ft-000001": (2, 17, 3),
    "ft-000002": (1, 8, 1),
    "ft-000003": (0, 10, 2),
    "ft-000004": (2, 2, 1),
    "ft-000005": (1, 8, 1),  # tied with bob, 8 heads each
    "ft-000006": (0, 10, 2),
}


def league_folder(folder: Path, old_store: bool) -> Path:
    """The fixture's league in `folder`: its file (manifests by absolute path), its key
    (mode 0600) and, with `old_store`, the store recorded before the rule."""
    text = (FIXTURE / "league.toml").read_text()
    (folder / "league.toml").write_text(text.replace('"../../../bad_bots/', f'"{BAD_BOTS}/'))
    key = folder / "league.sqlite.key"
    shutil.copyfile(FIXTURE / "store_2bc9aae.key", key)
    key.chmod(0o600)
    if old_store:
        shutil.copyfile(FIXTURE / "store_2bc9aae.sqlite3", folder / "league.sqlite")
    return folder / "league.toml"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture's league played by today's referee from a new store (same key)."""
    league = league_folder(tmp_path_factory.mktemp("played"), old_store=False)
    run = bullring("league", "run", str(league), cwd=league.parent)
    assert run.returncode == 0, run.stderr
    return league.parent / "league.sqlite"


def rows(store: Path, query: str) -> list[tuple[Any, ...]]:
    """Rows of the store's file, read without any of the store's code."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return db.execute(query).fetchall()
    finally:
        db.close()


def tables(store: Path) -> dict[str, list[tuple[Any, ...]]]:
    """What the rule changes, as the store's read API gives it."""
    with LeagueStore.open_readonly(store) as db:
        return {
            "results": db.db.execute(
                "SELECT match_id, seat, bot, score, rank, forfeited FROM results"
                " ORDER BY match_id, seat"
            ).fetchall(),
            "ratings": db.db.execute(
                "SELECT variant, seq, match_id, bot, mu, sigma FROM ratings"
                " ORDER BY variant, seq, bot"
            ).fetchall(),
            "replays": [
                (m.match_id, (db.replay(m.match_id) or {})["result"]) for m in db.matches()
            ],
        }


def results_only(replays: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Each replay's scores, ranks and forfeits (its faults' details name paths)."""
    return [(m, r["scores"], r["ranks"], r["forfeited"]) for m, r in replays]


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_bot_that_never_starts_ranks_last_in_every_match(played: Path) -> None:
    with LeagueStore.open_readonly(played) as store:
        assert store.meta()[FORFEITS_RANKED_LAST] == "1"
        matches = store.matches()
        assert [m.match_id for m in matches] == list(BEFORE)
        for match in matches:
            results = store.results(match.match_id)
            seat, heads, _ = BEFORE[match.match_id]
            assert results[seat]["bot"] == BROKEN and results[seat]["score"] == heads
            assert [r["forfeited"] for r in results] == [r["bot"] == BROKEN for r in results]
            assert results[seat]["rank"] == 3, results  # last, whatever its score
            played_ranks = sorted(r["rank"] for r in results if not r["forfeited"])
            assert played_ranks in ([1, 2], [1, 1])
            faults = store.faults(match.match_id)
            assert [(f["bot"], f["kind"], f["decision"]) for f in faults] == [(BROKEN, "CRASH", -1)]
            replay = Replay.from_json(store.replay(match.match_id) or {})
            assert replay.final_result().ranks == [r["rank"] for r in results]
            assert resimulate(replay) == [r["score"] for r in results]
        # The ratings are those of the stored ranks, in schedule order.
        config = load_league(played.parent / "league.toml").rating
        final, _ = replay_ratings(config, store.rated_matches(VARIANT))
        assert {s.bot: (s.mu, s.sigma) for s in store.standings(VARIANT)} == {
            bot: (r.mu, r.sigma) for bot, r in final.items()
        }
    status = bullring("league", "status", "--json", str(played), cwd=played.parent)
    assert status.returncode == 0, status.stderr
    table = {row["bot"]: row for row in json.loads(status.stdout)["variants"][VARIANT]}
    assert table[BROKEN]["wins"] == 0 and table[BROKEN]["win_share"] == 0.0
    assert table[BROKEN]["mean_rank"] == 3.0
    assert list(table)[-1] == BROKEN  # rated below both bots that played
    assert table["alice@1"]["wins"] + table["bob@1"]["wins"] == len(BEFORE)


def test_the_site_never_shows_a_forfeited_seat_as_a_winner(played: Path, tmp_path: Path) -> None:
    build_site(played, tmp_path / "site", workers=1)
    standings = json.loads((tmp_path / "site" / paths.standings_json(VARIANT)).read_text())
    row = next(r for r in standings["rows"] if r["bot"] == BROKEN)
    assert (row["wins"], row["win_share"], row["mean_rank"]) == (0, 0.0, 3.0)
    # ft-000005: no_command tied bob for the fewest heads; only bob's row is the winner's.
    page = (tmp_path / "site" / paths.match_page("ft-000005")).read_text()
    winners = [line for line in page.splitlines() if 'class="winner"' in line]
    assert len(winners) == 1 and "bob@1" in winners[0] and BROKEN not in winners[0]


def test_a_store_recorded_before_the_rule_is_re_ranked_by_its_next_writer(
    played: Path, tmp_path: Path
) -> None:
    league_folder(tmp_path, old_store=True)
    old = tmp_path / "league.sqlite"
    # The fixture is what the docstring says: no_command shared first place in ft-000005.
    assert rows(old, f"SELECT 1 FROM meta WHERE key = '{FORFEITS_RANKED_LAST}'") == []
    stored = rows(
        old, "SELECT match_id, seat, score, rank FROM results WHERE forfeited ORDER BY match_id"
    )
    assert stored == [(m, *v) for m, v in BEFORE.items()]
    assert rows(old, "SELECT seat, score, rank FROM results WHERE match_id = 'ft-000005'") == [
        (0, 8, 1),
        (1, 8, 1),
        (2, 25, 3),
    ]
    untouched = rows(old, "SELECT data FROM replays WHERE match_id = 'ft-000001'")
    digests = rows(old, "SELECT match_id, data FROM digests ORDER BY match_id")
    expected = tables(played)

    # A reader sees the store re-ranked, and the file does not change.
    before = file_hash(old)
    seen = tables(old)
    assert file_hash(old) == before
    assert seen["results"] == expected["results"]
    assert seen["ratings"] == expected["ratings"]  # exactly: the same ranks, the same order
    assert results_only(seen["replays"]) == results_only(expected["replays"])

    # The next writer re-ranks it once: results, replays and ratings as today's league run
    # recorded them; everything else as it was.
    with LeagueStore.open(old) as store:
        assert store.meta()[FORFEITS_RANKED_LAST] == "1"
    assert file_hash(old) != before
    migrated = tables(old)
    assert migrated["results"] == expected["results"]
    assert migrated["ratings"] == expected["ratings"]
    assert results_only(migrated["replays"]) == results_only(expected["replays"])
    assert rows(old, "SELECT data FROM replays WHERE match_id = 'ft-000001'") == untouched
    assert rows(old, "SELECT match_id, data FROM digests ORDER BY match_id") == digests
    with LeagueStore.open_readonly(old) as store:
        for match in store.matches():
            assert resimulate(Replay.from_json(store.replay(match.match_id) or {}))
    assert rows(old, "PRAGMA integrity_check") == [("ok",)]
    # Once: a second writer changes nothing.
    with LeagueStore.open(old):
        pass
    assert tables(old) == migrated


def test_league_status_and_the_site_of_a_store_recorded_before_read_it_re_ranked(
    played: Path, tmp_path: Path
) -> None:
    league = league_folder(tmp_path, old_store=True)
    old = tmp_path / "league.sqlite"
    before = file_hash(old)
    status = bullring("league", "status", "--json", str(league), cwd=tmp_path)
    assert status.returncode == 0, status.stderr
    expected = bullring("league", "status", "--json", str(played), cwd=played.parent)
    assert json.loads(status.stdout)["variants"] == json.loads(expected.stdout)["variants"]
    build_site(old, tmp_path / "site", workers=1)
    standings = json.loads((tmp_path / "site" / paths.standings_json(VARIANT)).read_text())
    row = next(r for r in standings["rows"] if r["bot"] == BROKEN)
    assert (row["wins"], row["mean_rank"]) == (0, 3.0)
    assert file_hash(old) == before
