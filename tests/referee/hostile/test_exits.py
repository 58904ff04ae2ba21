"""A bot's death is reported as it happened, sandboxed or not: killed by SIGKILL is never
"exited with code 137" (bubblewrap's init reports a death by signal N as code 128+N: the
watchdog turns it back into the signal), and an exit code is that code."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from referee.bots.manifest import load_manifest
from referee.bots.process import BotPool
from referee.faults import FaultKind
from referee.match.runner import play_match
from referee.replay.result import MatchResult
from referee.sandbox.config import NO_SANDBOX, SandboxConfig
from referee.spec import MatchSpec
from tests.referee.helpers import FAST_CLOCK, bot_named, descendants
from tests.referee.hostile.harness import HOSTILE


def play_dying(how: str, sandbox: SandboxConfig) -> MatchResult:
    dies = load_manifest(HOSTILE / "dies.toml")
    dies = dataclasses.replace(dies, env={"DIE_HOW": how})
    good = bot_named("seeded_random")
    spec = MatchSpec("dies", "6nimmt", {"rounds": "1"}, 3, (good, dies, good), FAST_CLOCK)

    async def run() -> MatchResult:
        async with BotPool(sandbox=sandbox) as pool:
            return await play_match(spec, pool)

    return asyncio.run(run())


@pytest.mark.parametrize("sandbox", [SandboxConfig(), NO_SANDBOX], ids=["sandboxed", "unsandboxed"])
@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("SIGKILL", "process killed by SIGKILL"),
        ("SIGSEGV", "process killed by SIGSEGV"),
        ("3", "process exited with code 3"),
    ],
)
def test_a_death_is_reported_as_it_happened(how: str, said: str, sandbox: SandboxConfig) -> None:
    result = play_dying(how, sandbox)
    (fault,) = result.faults
    assert fault.seat == 1 and fault.kind == FaultKind.CRASH
    assert fault.detail.startswith(said), fault.detail
    assert descendants() == []
