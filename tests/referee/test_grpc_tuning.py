"""The referee's gRPC engine tuning (referee/bots/grpc_tuning.py): when it applies, that a user
setting wins, and that bot processes get the referee's setting."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.bots import grpc_tuning
from referee.bots.manifest import load_manifest
from referee.bots.process import BotPool
from tests.referee.helpers import RANDOM_BOT, REPO

PROBE = "import os, sys; {first}; print(os.environ.get('GRPC_EXPERIMENTS', '<unset>'))"


def probe(first: str, env_value: str | None = None) -> str:
    """GRPC_EXPERIMENTS in a fresh interpreter after running `first`."""
    env = {k: v for k, v in os.environ.items() if k != grpc_tuning.VARIABLE}
    if env_value is not None:
        env[grpc_tuning.VARIABLE] = env_value
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(first=first)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


@pytest.mark.parametrize(
    ("version", "tuned"),
    [((1, 84), False), ((1, 85), True), ((1, 89), True), ((1, 90), False), ((2, 0), False)],
)
def test_the_tuning_is_for_the_measured_grpcio_versions(
    version: tuple[int, int], tuned: bool
) -> None:
    value = grpc_tuning.tuned_value(version)
    assert (value == grpc_tuning.EXPERIMENTS) if tuned else value is None


def test_importing_the_referee_tunes_grpc_unless_too_late_or_set_by_the_user() -> None:
    expected = grpc_tuning.tuned_value() or "<unset>"
    assert probe("import referee.match.runner") == expected
    assert probe("import grpc; import referee.match.runner") == "<unset>"  # grpc already loaded
    assert probe("import referee.match.runner", env_value="") == ""  # yours wins, even empty


def test_bot_processes_get_the_referees_setting() -> None:
    async def bot_environ() -> dict[str, str]:
        async with BotPool() as pool:
            lease = await pool.lease(load_manifest(RANDOM_BOT), 30)
            assert lease.process is not None
            children = Path(f"/proc/{lease.process.pid}/task/{lease.process.pid}/children")
            bot_pid = int(children.read_text().split()[0])  # the launcher's one child
            raw = Path(f"/proc/{bot_pid}/environ").read_bytes()
            await pool.release(lease, discard=True)
        return dict(item.split("=", 1) for item in raw.decode().split("\0") if "=" in item)

    environ = asyncio.run(bot_environ())
    assert environ.get(grpc_tuning.VARIABLE) == os.environ.get(
        grpc_tuning.VARIABLE, grpc_tuning.tuned_value()
    )
