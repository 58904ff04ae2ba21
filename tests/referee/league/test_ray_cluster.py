"""Ray: a league on a local multi-node Ray cluster (a head and two worker nodes, each a raylet
of its own on this machine, as ``ray start`` would run them) plays its matches on more than
one node and gives the same results as the local executor; its archived bots are shipped
to the nodes through Ray and run from each node's bot cache, and a tree altered after it
was registered is refused there; Ray says nothing about gRPC experiments it does not know.

A ladder (referee/league/ladder_runner.py) plays a fixed number of matches there too, each
drawn when an actor is free, with its bots shipped the same way.

Run with ``pytest -m ray``. Two small leagues (24 and 3 matches), a 6-match ladder and one
cluster: it costs the cluster's start (Ray's processes) and a few seconds of matches.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.bots import grpc_tuning
from referee.bots.manifest import load_manifest
from referee.league.archive import archive_path, live_tree
from referee.league.config import load_league
from referee.league.executors import LocalExecutor, RayExecutor, RefereeRunner
from referee.league.ladder_runner import LadderRunner
from referee.league.runner import LeagueRunner, Progress
from referee.league.store import LeagueStore
from referee.replay.result import MatchResult
from referee.spec import MatchSpec
from tests.referee.bad_bots.where_am_i import PREFIX
from tests.referee.league.leagues import (
    FIRST_OPTION,
    REPO,
    SMALL,
    bots_toml,
    share_key,
    snapshot,
)

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")
pytestmark = [pytest.mark.ray, pytest.mark.slow]

NODE = {"num_cpus": 1, "object_store_memory": 80 * 1024 * 1024}  # matches send little
UNKNOWN_EXPERIMENT = "Unknown experiment"


WHERE_AM_I = REPO / "tests" / "referee" / "bad_bots" / "where_am_i.toml"


class NodeNotingRunner:
    """The referee's runner, noting in `folder` which Ray node played each match and the
    manifests its bots ran from (a JSON file named after the match)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.runner = RefereeRunner()

    async def run(self, spec: MatchSpec) -> MatchResult:
        node = ray.get_runtime_context().get_node_id()
        manifests = [bot.manifest for bot in spec.bots]
        (self.folder / spec.match_id).write_text(json.dumps([node, manifests]))
        return await self.runner.run(spec)

    async def close(self) -> None:
        await self.runner.close()

    def child_pids(self) -> list[int]:
        return self.runner.child_pids()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A head and two worker nodes, started as an operator would: without the referee's
    gRPC setting in their environment (docs/leagues.md)."""
    with grpc_tuning.hidden_from_ray():
        made = cluster_utils.Cluster(
            initialize_head=True,
            head_node_args=NODE,
        )
        try:
            for _ in range(2):
                made.add_node(**NODE)
            made.wait_for_nodes()
        except BaseException:
            made.shutdown()
            raise
    try:
        yield made
    finally:
        if ray.is_initialized():
            ray.shutdown()
        made.shutdown()


def notes_of(folder: Path) -> dict[str, tuple[str, list[str]]]:
    """What NodeNotingRunner noted: match id -> (node id, its bots' manifests)."""
    return {note.name: tuple(json.loads(note.read_text())) for note in folder.iterdir()}


def test_a_league_on_a_three_node_cluster_spreads_and_matches_local(
    cluster: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """Its bots are archived (one tree: tests/, the package of both bot modules) and
    shipped: every match runs them from the node's cache, never from the archive, and
    the bot that prints its own file says so from inside every match."""
    league = tmp_path / "t.toml"
    league.write_text(SMALL + bots_toml(["a", "b", "c"]) + f'[[bots]]\nmanifest = "{WHERE_AM_I}"\n')
    config = load_league(league)
    notes = tmp_path / "nodes"
    notes.mkdir()
    cache = tmp_path / "node-cache"
    factory = functools.partial(NodeNotingRunner, notes)
    executor = RayExecutor(factory, workers=3, address=cluster.address, cache=str(cache))
    on_ray = LeagueRunner(config, executor, tmp_path / "ray.sqlite").run()
    assert on_ray.errors == [] and on_ray.played == 24
    assert on_ray.worker_deaths == []  # every actor started and lived, on every node
    noted = notes_of(notes)
    nodes = {node for node, _ in noted.values()}
    assert len(noted) == 24
    assert len(nodes) > 1, "every match ran on one node"
    assert {node.node_id for node in cluster.list_all_nodes()} >= nodes

    digest, _ = live_tree(load_manifest(WHERE_AM_I))
    assert digest == live_tree(load_manifest(FIRST_OPTION))[0]  # both bots: one tree
    shipped = cache / digest / "tests" / "referee" / "bad_bots"
    archived = archive_path(tmp_path / "ray.sqlite") / digest
    assert archived.is_dir() and sorted(p.name for p in cache.iterdir()) == [".staging", digest]
    for _, manifests in noted.values():
        assert {Path(m).parent for m in manifests} == {shipped}
    with LeagueStore.open_readonly(tmp_path / "ray.sqlite") as store:
        said = [
            log.data.decode()
            for match in noted
            for log in store.log_tails(match)
            if log.bot == "where_am_i@1"
        ]
    ran_from = {line for text in said for line in re.findall(f"{PREFIX}(.*)", text)}
    assert len(said) == 15 and ran_from == {str(shipped / "where_am_i.py")}

    share_key(tmp_path / "ray.sqlite", tmp_path / "local.sqlite")  # the same deals
    local = LeagueRunner(config, LocalExecutor(workers=2), tmp_path / "local.sqlite").run()
    assert local.errors == [] and local.played == 24
    assert snapshot(tmp_path / "ray.sqlite") == snapshot(tmp_path / "local.sqlite")

    assert UNKNOWN_EXPERIMENT not in capfd.readouterr().err  # this process: Ray's driver
    logs = Path(cluster.head_node.get_logs_dir_path())
    for log in logs.glob("*"):  # every Ray process of the cluster: servers and workers
        if log.is_file():
            assert UNKNOWN_EXPERIMENT not in log.read_text(errors="replace"), log.name


EVIL_BOT = """
from sdk.bot import Bot
from sdk.runtime import run


class Evil(Bot):
    name = "evil"
    version = "1"

    def decide(self, view, options, clock):
        return 0


if __name__ == "__main__":
    run(Evil)
"""

TWO_SEATS = """
[league]
name = "tamper"
seed = 3
seats = 2
games = 1
parallel = 2
store = "tamper.sqlite"

[clock]
decision_ms = 5000
setup_ms = 20000

[[variants]]
id = "6nimmt"
options = { rounds = 1 }
"""


def test_a_bot_tree_altered_after_it_was_registered_is_refused_on_the_node(
    cluster: Any, tmp_path: Path
) -> None:
    """The archived copy of bot evil is altered once the league has checked its archive
    (as it starts): the altered tree is shipped, the node finds another tree hash and
    refuses it, naming the bot and both hashes; its matches stay scheduled, the runner
    never gets them, and the match without it is played."""
    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "bot.py").write_text(EVIL_BOT)
    (evil / "bot.toml").write_text(
        'name = "evil"\nversion = "1"\ncommand = ["{python}", "bot.py"]\n'
    )
    registered, _ = live_tree(load_manifest(evil / "bot.toml"))
    league = tmp_path / "tamper.toml"
    league.write_text(TWO_SEATS + bots_toml(["a", "b"]) + f'[[bots]]\nmanifest = "{evil}"\n')
    store = tmp_path / "tamper.sqlite"

    def tamper(progress: Progress) -> None:
        copy = archive_path(store) / registered / "evil"
        if (copy / "bot.py").read_text() == EVIL_BOT:  # once, before any match is played
            copy.chmod(0o755)
            (copy / "bot.py").chmod(0o644)
            (copy / "bot.py").write_text(EVIL_BOT.replace("return 0", "return 1"))

    notes = tmp_path / "nodes"
    notes.mkdir()
    cache = tmp_path / "node-cache"
    factory = functools.partial(NodeNotingRunner, notes)
    executor = RayExecutor(factory, workers=2, address=cluster.address, cache=str(cache))
    summary = LeagueRunner(load_league(league), executor, store, progress=tamper).run()
    altered, _ = live_tree(load_manifest(archive_path(store) / registered / "evil" / "bot.toml"))
    assert altered != registered
    assert summary.played == 1 and len(summary.errors) == 2
    for error in summary.errors:
        assert (
            f"bot evil@1: the copy shipped to this node has tree hash {altered}, not "
            f"{registered} as registered; nothing of it runs"
        ) in error
    with LeagueStore.open_readonly(store) as db:
        unplayed = {m.match_id for m in db.matches(status="scheduled")}
        assert all("evil@1" in m.seats for m in db.matches(status="scheduled"))
    assert {e.split(":")[0] for e in summary.errors} == unplayed
    assert set(notes_of(notes)) == {"tamper-000001", "tamper-000002", "tamper-000003"} - unplayed
    assert registered not in {p.name for p in cache.iterdir()}  # nothing of it is kept
    assert list((cache / ".staging").iterdir()) == []


LADDER = """
[league]
name = "lad"
seed = 29
seats = 3
games = 1
parallel = 3
store = "lad.sqlite"

[clock]
decision_ms = 5000
setup_ms = 20000

[[variants]]
id = "6nimmt"
options = { rounds = 1 }
"""
LADDER_MATCHES = 6


def test_a_ladder_on_the_cluster_draws_as_actors_free_up_and_ships_its_bots(
    cluster: Any, tmp_path: Path
) -> None:
    league = tmp_path / "lad.toml"
    league.write_text(LADDER + bots_toml(["a", "b"]) + f'[[bots]]\nmanifest = "{WHERE_AM_I}"\n')
    notes = tmp_path / "nodes"
    notes.mkdir()
    cache = tmp_path / "node-cache"
    factory = functools.partial(NodeNotingRunner, notes)
    executor = RayExecutor(factory, workers=3, address=cluster.address, cache=str(cache))
    store = tmp_path / "lad.sqlite"
    lines: list[str] = []
    ladder = LadderRunner(
        load_league(league), executor=executor, store_path=store, log=lines.append
    )
    summary = ladder.run(limit=LADDER_MATCHES)
    assert summary.errors == [] and summary.played == LADDER_MATCHES, lines
    assert ladder.in_flight == {}
    with LeagueStore.open_readonly(store) as db:
        assert db.counts() == (LADDER_MATCHES, LADDER_MATCHES)  # finished, scheduled
        said = [
            log.data.decode()
            for match in db.matches()
            for log in db.log_tails(match.match_id)
            if log.bot == "where_am_i@1"
        ]
    noted = notes_of(notes)
    assert len(noted) == LADDER_MATCHES
    digest, _ = live_tree(load_manifest(WHERE_AM_I))
    shipped = cache / digest / "tests" / "referee" / "bad_bots"
    for _, manifests in noted.values():
        assert {Path(m).parent for m in manifests} == {shipped}
    ran_from = {line for text in said for line in re.findall(f"{PREFIX}(.*)", text)}
    assert len(said) == LADDER_MATCHES and ran_from == {str(shipped / "where_am_i.py")}


def test_a_league_without_an_address_starts_a_ray_of_its_own_beside_a_running_one(
    cluster: Any,
) -> None:
    """Ray would join the instance last started on this machine (here the cluster: another
    league's, or another test's) and then refuse the executor's CPU count."""
    if ray.is_initialized():
        ray.shutdown()
    executor = RayExecutor(workers=1)
    executor.start()
    try:
        assert ray.is_initialized()
        own = {node["NodeID"] for node in ray.nodes()}
        assert own.isdisjoint(node.node_id for node in cluster.list_all_nodes())
    finally:
        executor.close()
    assert not ray.is_initialized()  # it started this instance, so it shut it down
