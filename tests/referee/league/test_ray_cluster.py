"""Ray: a league on a local multi-node Ray cluster (a head and two worker nodes, each a raylet
of its own on this machine, as ``ray start`` would run them) plays its matches on more than
one node and gives the same results as the local executor; Ray says nothing about gRPC
experiments it does not know.

Run with ``pytest -m ray``. One small league (24 matches) and one cluster: it costs the
cluster's start (Ray's processes) and a few seconds of matches.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.bots import grpc_tuning
from referee.league.config import load_league
from referee.league.executors import LocalExecutor, RayExecutor, RefereeRunner
from referee.league.runner import LeagueRunner
from referee.replay.result import MatchResult
from referee.spec import MatchSpec
from tests.referee.league.leagues import SMALL, share_key, snapshot, write_league

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")
pytestmark = [pytest.mark.ray, pytest.mark.slow]

NODE = {"num_cpus": 1, "object_store_memory": 80 * 1024 * 1024}  # matches send little
UNKNOWN_EXPERIMENT = "Unknown experiment"


class NodeNotingRunner:
    """The referee's runner, noting in `folder` which Ray node played each match (a file
    named after the match, holding the node's id)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.runner = RefereeRunner()

    async def run(self, spec: MatchSpec) -> MatchResult:
        result = await self.runner.run(spec)
        (self.folder / spec.match_id).write_text(ray.get_runtime_context().get_node_id())
        return result

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


def test_a_league_on_a_three_node_cluster_spreads_and_matches_local(
    cluster: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    config = load_league(write_league(tmp_path, SMALL))
    notes = tmp_path / "nodes"
    notes.mkdir()
    factory = functools.partial(NodeNotingRunner, notes)
    executor = RayExecutor(factory, workers=3, address=cluster.address)
    on_ray = LeagueRunner(config, executor, tmp_path / "ray.sqlite").run()
    assert on_ray.errors == [] and on_ray.played == 24
    assert on_ray.worker_deaths == []  # every actor started and lived, on every node
    nodes = {note.read_text() for note in notes.iterdir()}
    assert len(list(notes.iterdir())) == 24
    assert len(nodes) > 1, "every match ran on one node"
    assert {node.node_id for node in cluster.list_all_nodes()} >= nodes

    share_key(tmp_path / "ray.sqlite", tmp_path / "local.sqlite")  # the same deals
    local = LeagueRunner(config, LocalExecutor(workers=2), tmp_path / "local.sqlite").run()
    assert local.errors == [] and local.played == 24
    assert snapshot(tmp_path / "ray.sqlite") == snapshot(tmp_path / "local.sqlite")

    assert UNKNOWN_EXPERIMENT not in capfd.readouterr().err  # this process: Ray's driver
    logs = Path(cluster.head_node.get_logs_dir_path())
    for log in logs.glob("*"):  # every Ray process of the cluster: servers and workers
        if log.is_file():
            assert UNKNOWN_EXPERIMENT not in log.read_text(errors="replace"), log.name


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
