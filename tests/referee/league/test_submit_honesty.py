"""Submission that cannot be gamed cheaply: `bot submit`'s check matches look like the
league's own to the bot (Hello, match ids, clock, seats, opponents, keyed deals), so a
two-faced bot that plays fair only when checked is caught; a bot whose Hello lies about
who it is, or claims a variant it faults in, is refused with one line."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from referee.bots.client import REFEREE_NAME
from referee.bots.manifest import load_manifest
from referee.bots.process import BotPool
from referee.faults import FaultKind
from referee.match.runner import play_match
from referee.spec import ClockSpec, MatchSpec
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.seeding import match_seeds, new_key
from tests.referee.helpers import RANDOM_BOT, bad_bots_copy, spy_records
from tests.referee.league.leagues import FIRST_OPTION, bullring, write_league

pytestmark = pytest.mark.slow
CLOCK = ClockSpec(decision_ms=1500, time_bank_ms=4000, setup_ms=15000)
LEAGUE = f"""
[league]
name = "arena"
seed = 5
seats = 3
games = 1
parallel = 1
store = "arena.sqlite"

[clock]
decision_ms = {CLOCK.decision_ms}
time_bank_ms = {CLOCK.time_bank_ms}
setup_ms = {CLOCK.setup_ms}

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}
"""
TWO_FACED_ENV = {
    "TWO_FACED_LEAGUE": "arena",
    "TWO_FACED_CLOCK": f"{CLOCK.decision_ms},{CLOCK.time_bank_ms},{CLOCK.setup_ms}",
    "TWO_FACED_SEATS": "3",
    "TWO_FACED_ROSTER": "a,b",
}


def manifest(folder: Path, name: str, module: str, env: dict[str, str]) -> Path:
    """A manifest of tests/referee/bad_bots/`module` named `name`, with `env`, in a copy of
    the bots' code (a sandboxed bot sees its manifest's folder, not the checkout)."""
    file = bad_bots_copy(folder) / f"{name}.toml"
    table = "".join(f'{key} = "{value}"\n' for key, value in env.items())
    file.write_text(
        f'name = "{name}"\nversion = "1"\n'
        f'command = ["{{python}}", "-m", "tests.referee.bad_bots.{module}"]\n'
        f'workdir = "../../.."\n[env]\n{table}'
    )
    return file


def submit(file: Path, bot: Path) -> tuple[int, list[str]]:
    done = bullring("bot", "submit", str(bot), "--league", str(file), cwd=file.parent)
    assert "Traceback" not in done.stderr
    return done.returncode, done.stderr.strip().splitlines()


@pytest.fixture(scope="module")
def pool() -> Iterator[BotPool]:
    bots = BotPool()
    try:
        yield bots
    finally:
        asyncio.run(bots.close())


def league_match(two_faced: Path) -> MatchSpec:
    """A match as the league `arena` deals it: the two-faced bot at seat 0."""
    a = dataclasses.replace(load_manifest(FIRST_OPTION), name="a")
    b = dataclasses.replace(a, name="b")
    seeds = match_seeds(new_key(), "arena", 11, 3)
    bots = (load_manifest(two_faced), a, b)
    return MatchSpec("arena-000007", "6nimmt", {"rounds": "1"}, 11, bots, CLOCK, seeds)


TELLS: dict[str, Callable[[MatchSpec], MatchSpec]] = {
    "the old check's id": lambda m: dataclasses.replace(
        m, match_id="check-two_faced-6nimmt:rounds=1-0"
    ),
    "another clock": lambda m: dataclasses.replace(m, clock=ClockSpec()),
    "the example bots": lambda m: dataclasses.replace(
        m, bots=(m.bots[0], load_manifest(RANDOM_BOT), load_manifest(RANDOM_BOT))
    ),
    "a public deal": lambda m: dataclasses.replace(m, seed=1, seeds=None),
    "another seat count": lambda m: dataclasses.replace(
        m, bots=(*m.bots, m.bots[1]), seeds=match_seeds(new_key(), "arena", 11, 4)
    ),
}


@pytest.mark.parametrize("tell", [None, *TELLS])
def test_the_two_faced_bot_cheats_in_league_matches_and_plays_fair_when_it_sees_a_tell(
    tell: str | None, tmp_path: Path, pool: BotPool
) -> None:
    """The bot is real: in a match as the league deals it, it cheats; in a match with any
    one tell the old check had (or another), it plays fair and would have passed."""
    two_faced = manifest(tmp_path, "two_faced", "two_faced", TWO_FACED_ENV)
    match = league_match(two_faced)
    if tell is not None:
        match = TELLS[tell](match)
    result = asyncio.run(play_match(match, pool))
    mine = {f.kind for f in result.faults if f.seat == 0}
    assert mine == (set() if tell else {FaultKind.ILLEGAL}), result.faults
    assert all(f.seat == 0 for f in result.faults)


def test_bot_submit_catches_the_two_faced_bot(tmp_path: Path) -> None:
    file = write_league(tmp_path, LEAGUE, bots=["a", "b"])
    two_faced = manifest(tmp_path, "two_faced", "two_faced", TWO_FACED_ENV)
    code, lines = submit(file, two_faced)
    assert code == 1, lines
    assert re.match(r"two_faced@1 not registered: 6nimmt:rounds=1 game 0 .*ILLEGAL", lines[0])
    assert not (tmp_path / "arena.sqlite").exists()


def test_a_bot_lying_in_hello_about_who_it_is_is_refused_in_one_line(tmp_path: Path) -> None:
    file = write_league(tmp_path, LEAGUE, bots=["a", "b"])
    liar = manifest(tmp_path, "liar", "liar", {})  # says it is rules_bot 9.9
    code, lines = submit(file, liar)
    assert code == 1
    assert len(lines) == 1, lines
    assert "liar@1 not registered: hello: the bot says it is 'rules_bot' version '9.9'" in lines[0]
    assert "says 'liar' version '1'" in lines[0]
    assert not (tmp_path / "arena.sqlite").exists()


def test_a_bot_that_faults_in_a_variant_it_claims_is_refused(tmp_path: Path) -> None:
    body = LEAGUE + '\n[[variants]]\nid = "xnimmt"\n'
    file = write_league(tmp_path, body, bots=["a", "b"])
    env = {
        "LIAR_NAME": "liar",
        "LIAR_VERSION": "1",
        "LIAR_VARIANTS": "6nimmt,xnimmt",
        "LIAR_BAD_VARIANT": "xnimmt",
    }
    code, lines = submit(file, manifest(tmp_path, "liar", "liar", env))
    assert code == 1
    assert re.match(r"liar@1 not registered: xnimmt game 0 .*ILLEGAL", lines[0]), lines


def calls(files: list[Path]) -> tuple[list[pb.HelloRequest], list[pb.StartMatchRequest]]:
    """The Hello and StartMatch requests spy processes recorded in `files`."""
    hellos, starts = [], []
    for file in files:
        for kind, data in spy_records(file):
            if kind == 1:
                hellos.append(pb.HelloRequest.FromString(data))
            elif kind == 2:
                starts.append(pb.StartMatchRequest.FromString(data))
    return hellos, starts


def looks(start: pb.StartMatchRequest) -> tuple[object, ...]:
    """What a bot could tell a check by, of one StartMatch (the seed hint aside)."""
    opponents = {n for s, n in enumerate(start.player_names) if s != start.seat}
    clock = (start.clock.decision_ms, start.clock.time_bank_ms, start.clock.setup_ms)
    shape = re.sub(r"\d", "9", start.match_id)
    options = tuple(sorted(start.options.items()))
    return shape, clock, start.players, frozenset(opponents), start.variant, options


def test_the_check_of_a_submission_looks_like_the_league_to_the_bot(tmp_path: Path) -> None:
    """A spy bot records what it is sent: in the check of its submission and then in the
    league's matches, Hello comes once per process from the same referee, and every
    StartMatch has the same shape (id, clock, seats, opponents, variant)."""
    out = tmp_path / "spied"
    out.mkdir()
    out.chmod(0o777)  # every spy process (a uid each) writes there, as the sandbox allows:
    file = write_league(tmp_path, LEAGUE + f'\n[sandbox]\nwritable = ["{out}"]\n', bots=["a", "b"])
    spy = manifest(tmp_path, "spy", "spy", {"SPY_DIR": str(out)})
    code, lines = submit(file, spy)
    assert code == 0, lines
    checked = sorted(out.glob("*.bin"))  # the check's spy process
    ran = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    played = sorted(set(out.glob("*.bin")) - set(checked))  # the league's

    check_hellos, check_starts = calls(checked)
    league_hellos, league_starts = calls(played)
    assert [h.referee for h in check_hellos] == [REFEREE_NAME]  # greeted once
    assert [h.referee for h in league_hellos] == [REFEREE_NAME]
    assert len(check_starts) == 1 and len(league_starts) == 1  # (a, b, spy): one set
    assert looks(league_starts[0]) == looks(check_starts[0])
    assert check_starts[0].seed_hint != league_starts[0].seed_hint
