"""One-line user errors for the CLI: no traceback, exit code 2.

:data:`USER_ERRORS` is the one list of what counts as a user's mistake: every
:class:`~sdk.errors.BullringError` (each package's narrow errors derive from it) and the
few that do not derive from it yet. :class:`UserErrorGroup`, the root app's group, catches
them once for every command and sub-app; a command only catches an error itself to add a
hint to its line. Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console
from typer.core import TyperGroup

from referee.terminal_text import inert_markup
from sdk.errors import BullringError

USER_ERRORS: tuple[type[Exception], ...] = (BullringError,)

_stderr = Console(stderr=True, highlight=False)


def fail(message: str) -> typer.Exit:
    """Print `message` as one error line; return the Exit(2) to raise. The message is
    text, never console markup, and what it quotes from a bot or a file is shown inert
    (referee/terminal_text.py): its control characters escaped."""
    _stderr.print(f"[red]error:[/red] {inert_markup(message, keep_lines=True)}", soft_wrap=True)
    return typer.Exit(2)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the known user errors into one line and exit 2."""
    try:
        yield
    except USER_ERRORS as exc:
        raise fail(one_line(exc)) from None


def one_line(error: BaseException) -> str:
    """The error's message, or its type's name if it has none."""
    return str(error) or type(error).__name__


class UserErrorGroup(TyperGroup):
    """The root app's group: a user error from any command is one line and exit 2."""

    def invoke(self, ctx: Any) -> Any:  # Any: the Context is typer's private vendored click
        try:
            return super().invoke(ctx)
        except USER_ERRORS as error:
            raise fail(one_line(error)) from None
