"""Hostile: bots that try to re-derive the deal from everything they are given cannot
predict their opponents' hands better than chance in a league, and never see its key.

Four deal thieves (tests/referee/bad_bots/deal_thief.py, real processes started from
their manifest) play a real league (`bullring league run`, spawned workers, a real
store). Each tries the attack of tests/referee/bad_bots/deal_recovery.py at its first
decision of every match and predicts the opponents' hands; the test scores the
predictions against the deals the replays re-deal. The same thief process does find
every hand of a match played without a league (the public local key), so the attack is
not toothless (tests/referee/test_deal_recovery.py shows it on the old derivations).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.bots.manifest import load_manifest
from referee.league.keyfile import key_path
from referee.league.store import LeagueStore
from referee.replay.model import Replay
from referee.replay.resimulate import resimulate
from referee.spec import MatchSpec
from sdk.seeding import deal_seed, key_id
from tests.referee.bad_bots.deal_recovery import MAX_CANDIDATES
from tests.referee.helpers import ROOMY_CLOCK, run_spied
from tests.referee.league.leagues import bullring
from tests.referee.league.thieves import (
    judge,
    league_key,
    leaked_key_forms,
    report_folder,
    seen_by_thieves,
    store_replays,
    thief_league,
    thief_manifest,
)

pytestmark = pytest.mark.slow
GAMES = 6  # matches of the four thieves: 24 predictions of 30 cards each


def test_thieves_in_a_league_predict_no_better_than_chance(tmp_path: Path) -> None:
    file = thief_league(tmp_path, games=GAMES, parallel=2)
    store = tmp_path / "heist.sqlite"
    key = league_key(store)
    ran = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr

    replays = store_replays(store)
    assert len(replays) == GAMES
    verdict = judge(tmp_path / "reports", replays)
    assert verdict.predictions == 4 * GAMES
    assert verdict.found == 0
    assert verdict.least_tried == MAX_CANDIDATES  # every attack ran to the end
    assert verdict.hits <= verdict.bound, verdict

    # The league kept and used the key it was given, and the operator can re-deal.
    assert league_key(store) == key
    with LeagueStore.open_readonly(store) as db:
        assert db.meta()["key_id"] == key_id(key)
        for match in db.matches():
            assert replays[match.match_id]["deal_seed"] == deal_seed(key, "heist", match.seed)
            resimulate(Replay.from_json(replays[match.match_id]))

    # No process a thief could read showed the key. In the sandbox it reads only its own
    # processes: not the worker, not `bullring league run` (unsandboxed, it read them).
    seen = seen_by_thieves(tmp_path / "reports")
    assert seen and not any(b"league\x00run" in text for text in seen)
    for form in leaked_key_forms(key):
        assert not any(form in text for text in seen)
    # Nor is it in the store (only its fingerprint), in any form.
    data = store.read_bytes()
    assert not any(form in data for form in leaked_key_forms(key))
    assert oct(key_path(store).stat().st_mode & 0o777) == "0o600"


def test_the_same_thief_finds_every_hand_of_a_match_played_without_a_league(
    tmp_path: Path,
) -> None:
    out = report_folder(tmp_path)
    thief = load_manifest(thief_manifest(tmp_path, out))
    spec = MatchSpec("0f3c9a1b2d4e", "6nimmt", {"rounds": "1"}, 7, (thief,) * 4, ROOMY_CLOCK)
    result = run_spied(spec, out)
    assert result.faults == ()
    verdict = judge(out, {spec.match_id: result.recorded_replay().to_json()})
    assert verdict.predictions == 4
    assert verdict.found == 4 and verdict.hits == verdict.guesses == 4 * 30
