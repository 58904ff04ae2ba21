"""Ray: a league on a local Ray instance gives the same results as the local executor; the
executor pulls each match only when an actor is free for it.

Run with ``pytest -m ray``. One Ray instance (num_cpus=2) is shared by the module.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from referee.bots import grpc_tuning
from referee.bots.manifest import load_manifest
from referee.league.config import load_league
from referee.league.executors import BUSY_TITLE, LocalExecutor, RayExecutor, RefereeRunner
from referee.league.runner import LeagueRunner
from referee.spec import ClockSpec, MatchSpec
from tests.referee.league.leagues import FIRST_OPTION, SMALL, share_key, snapshot, write_league
from tests.referee.league.test_resume import descendants, finished
from tests.referee.league.test_worker_death import TOTAL, league_file
from tests.referee.league.thieves import (
    judge,
    league_key,
    leaked_key_forms,
    seen_by_thieves,
    store_replays,
    thief_league,
)

ray = pytest.importorskip("ray")
pytestmark = [pytest.mark.ray, pytest.mark.slow]


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    with grpc_tuning.hidden_from_ray():  # as RayExecutor starts Ray (referee/bots/grpc_tuning.py)
        # "local": an instance of its own, not one another test or run started meanwhile
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.mark.usefixtures("ray_instance")
def test_ray_and_local_give_the_same_league(tmp_path: Path) -> None:
    config = load_league(write_league(tmp_path, SMALL))
    on_ray = LeagueRunner(config, RayExecutor(workers=2), tmp_path / "ray.sqlite").run()
    assert on_ray.errors == [] and on_ray.played == 24
    assert ray.is_initialized()  # the executor leaves a Ray instance it did not start
    share_key(tmp_path / "ray.sqlite", tmp_path / "local.sqlite")  # the same deals
    local = LeagueRunner(config, LocalExecutor(workers=2), tmp_path / "local.sqlite").run()
    assert local.played == 24
    assert snapshot(tmp_path / "ray.sqlite") == snapshot(tmp_path / "local.sqlite")


@pytest.mark.usefixtures("ray_instance")
def test_bots_on_ray_workers_never_see_the_league_key(tmp_path: Path) -> None:
    """Deal thieves (tests/referee/league/test_deal_secrecy.py) on Ray actors: the key
    stays in the league process; actors get only each match's derived seeds."""
    config = load_league(thief_league(tmp_path, games=2, parallel=2))
    store = tmp_path / "heist.sqlite"
    factory = functools.partial(RefereeRunner, config.sandbox)  # (reports are let through)
    summary = LeagueRunner(config, RayExecutor(factory, workers=2), store).run()
    assert summary.errors == [] and summary.played == 2
    verdict = judge(tmp_path / "reports", store_replays(store))
    assert verdict.predictions == 8 and verdict.found == 0
    seen = seen_by_thieves(tmp_path / "reports")
    assert seen and not any(b"ray::" in text for text in seen)  # nor the Ray worker
    for form in leaked_key_forms(league_key(store)):
        assert not any(form in text for text in seen)


def busy_workers() -> list[int]:
    """Processes below this one (Ray's actors are) that are playing a match: they carry
    the worker's busy title. A child the actor has just forked to start a bot carries it
    too until it execs (a window that a loaded machine widens): it is left out, since
    killing it would cost a bot start, not the actor."""

    def title(pid: int) -> str:
        with contextlib.suppress(OSError):
            return Path(f"/proc/{pid}/comm").read_text().strip()
        return ""

    def parent(pid: int) -> int:
        with contextlib.suppress(OSError, IndexError, ValueError):
            return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        return 0

    busy = [pid for pid in descendants(os.getpid()) if title(pid) == BUSY_TITLE]
    return [pid for pid in busy if parent(pid) not in busy]


@pytest.mark.usefixtures("ray_instance")
def test_a_ray_actor_killed_mid_match_costs_only_its_match(tmp_path: Path) -> None:
    config = load_league(league_file(tmp_path))
    store = tmp_path / "ray.sqlite"
    killed: list[int] = []

    def kill_one() -> None:
        deadline = time.monotonic() + 120
        while not killed and time.monotonic() < deadline:
            if finished(store) >= 1:
                for pid in busy_workers()[:1]:
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one)
    killer.start()
    try:
        on_ray = LeagueRunner(config, RayExecutor(workers=2), store).run()
    finally:
        killer.join()
    assert killed, "no Ray actor was found playing a match"
    assert on_ray.errors == [] and on_ray.finished == on_ray.scheduled == TOTAL
    [death] = on_ray.worker_deaths
    assert "ActorDiedError" in death and "played again" in death
    share_key(store, tmp_path / "local.sqlite")  # the same deals
    local = LeagueRunner(config, LocalExecutor(workers=2), tmp_path / "local.sqlite").run()
    assert local.played == TOTAL
    assert snapshot(store) == snapshot(tmp_path / "local.sqlite")


class Pulls:
    """Match specs handed out one `next()` at a time, each after a None ("no match just
    now", as a ladder says when it has none to draw), noting in `events` each pull (and
    the pull that found none left) among the outcomes the test notes there."""

    def __init__(self, specs: list[MatchSpec], events: list[str]) -> None:
        self.specs, self.events = iter(specs), events
        self.nones = 0
        self.said_none = False

    def __iter__(self) -> Pulls:
        return self

    def __next__(self) -> MatchSpec | None:
        if not self.said_none:
            self.said_none, self.nones = True, self.nones + 1
            return None
        self.said_none = False
        try:
            spec = next(self.specs)
        except StopIteration:
            self.events.append("end")
            raise
        self.events.append(f"pull {spec.match_id}")
        return spec


@pytest.mark.usefixtures("ray_instance")
def test_ray_pulls_a_match_only_when_an_actor_is_free_and_asks_again_after_a_none() -> None:
    bot = load_manifest(FIRST_OPTION)
    specs = [
        MatchSpec(f"lazy-{i}", "6nimmt", {"rounds": "1"}, i, (bot, bot), ClockSpec(setup_ms=30000))
        for i in range(6)
    ]
    events: list[str] = []
    pulls = Pulls(specs, events)
    with RayExecutor(workers=2) as executor:
        for outcome in executor.run(pulls):
            assert outcome.error is None and outcome.result is not None
            events.append(f"done {outcome.spec.match_id}")
    assert sorted(e for e in events if e.startswith("pull")) == [f"pull lazy-{i}" for i in range(6)]
    assert sorted(e for e in events if e.startswith("done")) == [f"done lazy-{i}" for i in range(6)]
    assert pulls.nones == 7  # asked again after each None, and the end found after one
    assert events.count("end") == 1 and events.index("end") > events.index("pull lazy-5")
    for at in range(1, len(events) + 1):  # never more pulled than actors, beyond the outcomes
        pulled = sum(e.startswith("pull") for e in events[:at])
        done = sum(e.startswith("done") for e in events[:at])
        assert pulled - done <= 2, events
    assert events[:2] == ["pull lazy-0", "pull lazy-1"] and events[2].startswith("done")


@pytest.mark.usefixtures("ray_instance")
def test_a_bot_whose_archived_copy_cannot_be_found_is_refused_before_any_actor(
    tmp_path: Path,
) -> None:
    """A spec naming a tree hash whose archive folder is not where its manifest lies: the
    league process cannot ship it, so the match is an error at once (no actor spent), and
    the next match plays."""
    bot = load_manifest(FIRST_OPTION)
    lost = replace(bot, tree_hash="f" * 64)
    clock = ClockSpec(setup_ms=30000)
    specs = [
        MatchSpec("lost-0", "6nimmt", {"rounds": "1"}, 1, (bot, lost), clock),
        MatchSpec("lost-1", "6nimmt", {"rounds": "1"}, 2, (bot, bot), clock),
    ]
    with RayExecutor(workers=1, cache=str(tmp_path / "cache")) as executor:
        refused, played = list(executor.run(specs))
    assert refused.spec.match_id == "lost-0" and refused.result is None
    assert refused.error == (
        f"bot {lost.key}: its manifest {lost.manifest} is not in an archive folder named by "
        f"its tree hash {'f' * 64}, so it cannot be shipped"
    )
    assert played.spec.match_id == "lost-1" and played.error is None
    assert not (tmp_path / "cache").exists()  # nothing was shipped
