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
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from typer.core import TyperGroup

from referee import replay as replay_file
from referee.replay import ReplayError
from referee.replay_model import Replay
from referee.terminal_text import inert_markup
from sdk.errors import BullringError
from sdk.game import RulesError

# RulesError and ReplayError are listed until they derive from BullringError (the game
# model's and the replay's errors are moved under it on another branch).
USER_ERRORS: tuple[type[Exception], ...] = (BullringError, RulesError, ReplayError)

# The clock's fields as the commands' flags name them (for one-line errors).
CLOCK_FLAGS = {
    "decision_ms": "--decision-ms",
    "time_bank_ms": "--time-bank-ms",
    "setup_ms": "--setup-ms",
    "max_faults": "--max-faults",
}
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


def check_output_file(path: Path, name: str = "") -> None:
    """Fail (one line, exit 2) unless `path` can be made a file: its folder exists and it
    is not a folder itself. Called before the work whose result it keeps, so a typo in the
    path loses nothing. `name` is the flag that gave it (``--replay-out``), if any."""
    where = f"{name} {path}" if name else str(path)
    if path.is_dir():
        raise fail(f"{where}: is a folder, not a file")
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise fail(f"{where}: its folder {folder} {what}")


def make_output_folder(path: Path, name: str) -> None:
    """Make folder `path` (and its parents) for output, or fail in one line, exit 2."""
    if path.exists() and not path.is_dir():
        raise fail(f"{name} {path}: is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise fail(f"{name} {path}: cannot make the folder ({exc.strerror or exc})") from None


def save_replay(replay: Replay, path: Path, name: str = "") -> None:
    """Write `replay` to `path`; what the system refuses (a full disk, no permission) is
    one line, exit 2."""
    try:
        replay_file.save(replay, path)
    except OSError as exc:
        where = f"{name} {path}" if name else str(path)
        raise fail(f"{where}: cannot write the replay ({exc.strerror or exc})") from None


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
