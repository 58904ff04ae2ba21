"""Flags that several commands share, and what they resolve to."""

from __future__ import annotations

from collections.abc import Sequence

import typer

from referee.cli.errors import fail
from referee.sandbox.config import NO_SANDBOX, SandboxConfig
from referee.sandbox.probe import available
from referee.spec import BotSpec

LOCK_TIMEOUT_OPTION = typer.Option(
    "--lock-timeout",
    help="Seconds to wait for the store's write lock if another process holds it.",
)


NO_SANDBOX_HELP = "Run the bots without the sandbox (debugging a bot you trust: your own)"


def local_sandbox(no_sandbox: bool, bots: Sequence[BotSpec]) -> SandboxConfig:
    """The sandbox of a command run by hand: the default one, or none with --no-sandbox.
    Fail closed: exit 2 naming what is missing if a bot needs it and it cannot run here."""
    if no_sandbox or not any(bot.command for bot in bots):  # endpoints run outside it
        return NO_SANDBOX
    sandbox = SandboxConfig()
    problem = available(sandbox)
    if problem is not None:
        raise fail(f"{problem} (or --no-sandbox, for bots you trust)")
    return sandbox


# The clock's fields as the commands' flags name them (for one-line errors).
CLOCK_FLAGS = {
    "decision_ms": "--decision-ms",
    "time_bank_ms": "--time-bank-ms",
    "setup_ms": "--setup-ms",
    "max_faults": "--max-faults",
}
