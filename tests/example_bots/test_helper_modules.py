"""A bot may ship helper modules (and packages) beside its bot.py and import them without
touching sys.path: ``command = ["{python}", "bot.py"]`` runs the script, and Python puts
the script's folder first on sys.path; the sandbox shows the bot its manifest's folder.
Played for real, in the sandbox and outside it (tests/fixtures/helper_bot)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from referee.bots.manifest import load_manifest
from referee.bots.process import BotPool
from referee.check import run_check
from referee.match.runner import play_match
from referee.replay.result import MatchResult
from referee.sandbox.config import NO_SANDBOX, SandboxConfig, SandboxUnavailable
from referee.sandbox.probe import ensure_available
from referee.spec import ClockSpec, MatchSpec

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "helper_bot"
EXAMPLES = Path(__file__).resolve().parents[2] / "example_bots"
CLOCK = ClockSpec(decision_ms=10_000, time_bank_ms=30_000, setup_ms=30_000, max_faults=3)


def sandbox_or_skip() -> SandboxConfig:
    config = SandboxConfig()
    try:
        ensure_available(config)
    except SandboxUnavailable as error:
        pytest.skip(f"no sandbox here: {error}")
    return config


def play(sandboxed: bool) -> MatchResult:
    bots = (load_manifest(FIXTURE), load_manifest(EXAMPLES / "random_bot"))
    spec = MatchSpec("helpers", "6nimmt", {"rounds": "1"}, 3, bots, CLOCK)
    sandbox = sandbox_or_skip() if sandboxed else NO_SANDBOX

    async def run() -> MatchResult:
        async with BotPool(sandbox=sandbox) as pool:
            return await play_match(spec, pool)

    return asyncio.run(run())


@pytest.mark.parametrize("sandboxed", [False, True], ids=["outside", "sandbox"])
def test_a_bot_imports_the_modules_beside_its_bot_py(sandboxed: bool) -> None:
    result = play(sandboxed)
    assert result.faults == ()
    assert result.replay is not None
    mine = [d for d in result.replay.decisions if d.seat == 0]
    assert len(mine) >= 10
    # helpers.last_option chose every time: never the fallback (the first option).
    assert all(d.choice == len(d.options) - 1 and not d.auto for d in mine)


def test_bot_check_passes_a_bot_with_modules_beside_its_bot_py() -> None:
    """Through ``bullring bot check``, in the sandbox: the folder mounted read-only is
    enough for its imports."""
    report = run_check(
        load_manifest(FIXTURE),
        games=1,
        variants=["6nimmt:rounds=1"],
        clock=CLOCK,
        sandbox=sandbox_or_skip(),
    )
    assert report.passed, report.problems + report.environment
    assert report.healthy and report.hello["name"] == "helper_bot"
    (variant,) = report.variants
    assert variant.games == 1 and variant.faults == [] and len(variant.latency.samples) >= 10
