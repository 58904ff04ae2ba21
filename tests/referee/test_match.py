"""Real matches between bot processes over gRPC: presets, replays, the pool, clean-up."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

import pytest

from referee.bots.manifest import load_manifest
from referee.bots.process import BotPool
from referee.league.config import load_league
from referee.league.runner import LeagueRunner
from referee.match.runner import play_match, run_match
from referee.replay import files as replay
from referee.replay.model import Replay, ReplayError
from referee.replay.resimulate import resimulate
from referee.spec import MatchSpec
from sdk.game import PRESETS, RulesError
from tests.referee.helpers import (
    FAST_CLOCK,
    RANDOM_BOT,
    ROOMY_CLOCK,
    bot_named,
    descendants,
    group_members,
    spy_records,
    spy_sandbox,
)

SHORT = {"6nimmt": {"rounds": "1"}}  # family -> options that keep a match short


def short_options(variant: str) -> dict[str, str]:
    return dict(SHORT.get(PRESETS[variant].family, {}))


@pytest.mark.parametrize("variant", list(PRESETS))
def test_every_preset_between_random_sdk_bots_replays_exactly(variant: str, tmp_path: Path) -> None:
    bot = load_manifest(RANDOM_BOT)
    players = max(3, PRESETS[variant].min_players)
    spec = MatchSpec("m-" + variant, variant, short_options(variant), 11, (bot,) * players)
    result = run_match(spec)
    assert result.faults == ()
    assert result.forfeited == (False,) * players
    assert len(result.scores) == players and result.decisions > 0
    assert resimulate(result.recorded_replay()) == list(result.scores)
    replay.save(result.recorded_replay(), tmp_path / "r.json.gz")
    assert resimulate(replay.load(tmp_path / "r.json.gz")) == list(result.scores)
    # Seeded bots: the same match again gives the same game, decision for decision.
    again = run_match(dataclasses.replace(spec, match_id="again"))
    assert [d.choice for d in again.recorded_replay().decisions] == [
        d.choice for d in result.recorded_replay().decisions
    ]
    assert descendants() == []


@pytest.mark.parametrize("variant", ["6nimmt", "xnimmt", "11nimmt", "hornochsen"])
def test_raw_random_bots_play_each_family(variant: str) -> None:
    bot = bot_named("seeded_random")
    spec = MatchSpec("raw", variant, short_options(variant), 3, (bot, bot, bot), ROOMY_CLOCK)
    result = run_match(spec)
    assert result.faults == ()
    assert resimulate(result.recorded_replay()) == list(result.scores)
    assert descendants() == []


def test_replay_detects_a_tampered_choice() -> None:
    bot = bot_named("seeded_random")
    result = run_match(MatchSpec("t", "6nimmt", {"rounds": "1"}, 4, (bot, bot), FAST_CLOCK))
    data = json.loads(json.dumps(result.recorded_replay().to_json()))
    record = next(d for d in data["decisions"] if len(d["options"]) > 1)
    record["choice"] = (record["choice"] + 1) % len(record["options"])
    with pytest.raises(ReplayError):
        resimulate(Replay.from_json(data))


def test_pool_reuses_processes_one_seat_each_and_kills_them_on_close() -> None:
    bot = bot_named("seeded_random")
    hang = bot_named("hang")

    async def scenario() -> tuple[int, int, list[int]]:
        async with BotPool() as pool:
            spec = MatchSpec("p1", "6nimmt", {"rounds": "1"}, 1, (bot, bot, bot), ROOMY_CLOCK)
            await play_match(spec, pool)
            first = pool.started  # three seats of one bot: three processes
            await play_match(dataclasses.replace(spec, match_id="p2", seed=2), pool)
            reused = pool.started  # all reused
            spec3 = dataclasses.replace(
                spec, match_id="p3", bots=(bot, hang, bot), clock=FAST_CLOCK
            )
            result = await play_match(spec3, pool)
            assert {f.kind.value for f in result.faults} == {"TIMEOUT"}
            await play_match(spec3, pool)  # the hung process was discarded: a new one
            assert pool.started == reused + 2
            pids = pool.pids()
        return first, reused, pids

    first, reused, pids = asyncio.run(scenario())
    assert (first, reused) == (3, 3)
    assert pids and all(group_members(pid) == [] for pid in pids)
    assert descendants() == []


def test_a_single_use_match_never_hands_its_processes_to_another_match() -> None:
    # A duplicate deal is played in several seatings: a process that saw it must be gone.
    bot = bot_named("seeded_random")

    async def scenario() -> list[int]:
        started = []
        async with BotPool() as pool:
            spec = MatchSpec("s1", "6nimmt", {"rounds": "1"}, 1, (bot, bot, bot), ROOMY_CLOCK)
            await play_match(spec, pool)  # pooled: its processes stay idle
            started.append(pool.started)
            single = dataclasses.replace(spec, match_id="s2", single_use=True)
            await play_match(single, pool)  # takes the idle ones, then ends them
            started.append(pool.started)
            assert pool.pids() == []
            await play_match(dataclasses.replace(single, match_id="s3"), pool)
            started.append(pool.started)
        return started

    assert asyncio.run(scenario()) == [3, 3, 6]
    assert descendants() == []


def test_a_duplicate_leagues_matches_are_single_use_and_others_are_not(tmp_path: Path) -> None:
    for league_format, single in (("duplicate", True), ("round-robin", False)):
        file = tmp_path / f"{league_format}.toml"
        file.write_text(
            f"""[league]
name = "{league_format}"
seed = 3
format = "{league_format}"
seats = 3
games = 1
store = "{league_format}.sqlite"

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

[[bots]]
manifest = "{RANDOM_BOT}"
name = "a"

[[bots]]
manifest = "{RANDOM_BOT}"
name = "b"

[[bots]]
manifest = "{RANDOM_BOT}"
name = "c"
"""
        )
        runner = LeagueRunner(load_league(file))
        with runner.prepare() as store:
            bots = store.bot_specs()
            specs = [runner.match_spec(m, bots) for m in store.matches(status="scheduled")]
        assert specs and all(spec.single_use is single for spec in specs), league_format


def test_bad_variant_and_player_count_fail_before_any_process_starts() -> None:
    bot = bot_named("seeded_random")
    with pytest.raises(RulesError, match="unknown variant"):
        run_match(MatchSpec("x", "7nimmt", {}, 1, (bot, bot)))
    with pytest.raises(RulesError, match="players"):
        run_match(MatchSpec("x", "xnimmt", {}, 1, (bot,) * 5))
    assert descendants() == []


def spy_calls(folder: Path) -> list[dict[int, int]]:
    """Per spy process (one .bin file each): how many calls of each kind it received
    (1 Hello, 2 StartMatch, 3 Decide, 4 EndMatch)."""
    counts = []
    for file in sorted(folder.glob("*.bin")):
        seen = dict.fromkeys((1, 2, 3, 4), 0)
        for kind, _ in spy_records(file):
            seen[kind] += 1
        counts.append(seen)
    return counts


def test_a_pooled_process_is_greeted_once_and_keeps_its_channel(tmp_path: Path) -> None:
    spy = dataclasses.replace(bot_named("spy"), env={"SPY_DIR": str(tmp_path)})
    spec = MatchSpec("g1", "6nimmt", {"rounds": "1"}, 1, (spy, spy, spy), ROOMY_CLOCK)
    pool = BotPool(sandbox=spy_sandbox(tmp_path))

    async def two_matches() -> None:
        for n in (1, 2):
            result = await play_match(dataclasses.replace(spec, match_id=f"g{n}", seed=n), pool)
            assert result.faults == ()

    try:
        asyncio.run(two_matches())
        # A new event loop (a new run_match) opens new channels to the same processes.
        assert run_match(dataclasses.replace(spec, match_id="g3", seed=3), pool).faults == ()
        assert pool.started == 3
    finally:
        asyncio.run(pool.close())
    calls = spy_calls(tmp_path)
    assert len(calls) == 3
    for seen in calls:
        assert (seen[1], seen[2], seen[4]) == (1, 3, 3)  # one Hello, then three matches
        assert seen[3] >= 3 * 10  # ten picks a match at least
    assert descendants() == []
