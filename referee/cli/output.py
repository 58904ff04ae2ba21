"""Where the commands write: output files and folders checked before any work, and replays
saved with a one-line error for what the system refuses."""

from __future__ import annotations

from pathlib import Path

from referee.cli.errors import fail
from referee.replay import files as replay_file
from referee.replay.model import Replay


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
