"""One-line user errors for the CLI: no traceback, exit code 2."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer
from rich.console import Console

from referee.limits import LimitError
from referee.manifest import ManifestError
from referee.replay import ReplayError
from sdk.game import RulesError

USER_ERRORS = (ManifestError, RulesError, ReplayError, LimitError)

# The clock's fields as the commands' flags name them (for one-line errors).
CLOCK_FLAGS = {
    "decision_ms": "--decision-ms",
    "time_bank_ms": "--time-bank-ms",
    "setup_ms": "--setup-ms",
    "max_faults": "--max-faults",
}
_stderr = Console(stderr=True, highlight=False)


def fail(message: str) -> typer.Exit:
    """Print `message` as one error line; return the Exit(2) to raise."""
    _stderr.print(f"[red]error:[/red] {message}", soft_wrap=True)
    return typer.Exit(2)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the known user errors into one line and exit 2."""
    try:
        yield
    except USER_ERRORS as exc:
        raise fail(str(exc)) from None
