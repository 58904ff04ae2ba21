"""What the champion's two trainers (:mod:`.train`, :mod:`.finetune`) share about a run:
its settings as flags, the command line that made it, opening it (new or resumed) with its
folder locked, its metrics log, its checkpoint's record, and SIGTERM taken as an
interrupt."""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import shlex
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import IO, Any, Generic, Protocol, TypeVar, get_args, get_type_hints

import numpy as np

CHECKPOINT = "checkpoint.npz"  # in a run's folder: what --resume goes on from


class Terminated(Exception):
    """SIGTERM arrived: stop as on Ctrl-C."""


def raise_terminated(signum: int, frame: object) -> None:
    """A SIGTERM handler: raise :class:`Terminated` where the run is."""
    raise Terminated


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within: SIGTERM raises :class:`Terminated`. After: the caller's handler, as it was."""
    earlier = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, earlier)


class Refused(Exception):
    """A run that cannot start or go on; the message is for the user (the trainers print
    it as ``error: ...`` and exit with status 2)."""


class Resumable(Protocol):
    commands: list[str]  # the command lines that made the run, one per start or resume


R = TypeVar("R", bound=Resumable)


@dataclass
class Opened(Generic[R]):
    """A run to go on with; its folder is locked while `lock` is open."""

    run: R
    resumed: bool
    lock: IO[str]


def open_run(
    out: Path,
    *,
    resume: bool,
    given: dict[str, Any],
    command: str,
    start: Callable[[], R],
    restore: Callable[[Path], R],
    settings_of: Callable[[R], object],
) -> Opened[R]:
    """Without `resume`, a new run from `start`, which raises :class:`Refused` for settings
    it cannot use; it is called before the folder is made, so a refusal leaves nothing.
    With `resume`, the run `restore` reads from the folder (its :data:`CHECKPOINT`), which
    must have been made with the `given` settings; `command` joins its commands. Either
    way `out` is made and locked (one run at a time). Raises :class:`Refused` with the
    reason when it cannot."""
    checkpoint = out / CHECKPOINT
    fresh = start() if not resume else None
    if resume and not checkpoint.exists():
        raise Refused(f"no checkpoint in {out} to resume")
    lock = lock_folder(out)
    if lock is None:
        raise Refused(f"another run is using {out}")
    try:
        if fresh is not None:
            if checkpoint.exists():
                raise Refused(f"{out} holds a run; pass --resume to go on")
            return Opened(fresh, resumed=False, lock=lock)
        try:
            run = restore(out)
        except (OSError, ValueError) as bad:  # its start moved, or a damaged checkpoint
            raise Refused(f"cannot resume {out}: {bad}") from None
        changed = changed_settings(given, settings_of(run))
        if changed:
            raise Refused(f"the run was made with other settings: {changed}")
        run.commands.append(command)
        return Opened(run, resumed=True, lock=lock)
    except Refused:
        lock.close()
        raise


def add_settings(parser: argparse.ArgumentParser, settings: type) -> None:
    """One flag per field of the dataclass `settings` (``--field-name``), default None (a
    flag not given is not a setting given); a tuple field takes one or more values of its
    element type."""
    defaults = settings()
    hints = get_type_hints(settings)
    for f in fields(settings):
        flag = "--" + f.name.replace("_", "-")
        default = getattr(defaults, f.name)
        if isinstance(default, tuple):
            kind: Any = get_args(hints[f.name])[0]  # tuple[X, ...]: X
            parser.add_argument(flag, type=kind, nargs="+", default=None, help=f"default {default}")
        else:
            parser.add_argument(flag, type=type(default), default=None, help=f"default {default}")


def given_settings(args: argparse.Namespace, settings: type) -> dict[str, Any]:
    """The fields of `settings` given on the command line (lists made tuples)."""
    return {
        f.name: tuple(v) if isinstance(v, list) else v
        for f in fields(settings)
        if (v := getattr(args, f.name)) is not None
    }


def changed_settings(given: dict[str, Any], settings: object) -> dict[str, Any]:
    """The given settings that differ from a run's (a resumed run refuses them)."""
    return {k: v for k, v in given.items() if getattr(settings, k) != v}


def command_line(module: str, argv: Sequence[str] | None) -> str:
    """The command that ran `module` with `argv` (sys.argv's when None), for the records."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    return shlex.join(["python", "-m", module, *arguments])


def lock_folder(out: Path) -> IO[str] | None:
    """Make `out` and hold its ``.lock`` (for as long as the returned file is open); None
    when another run holds it."""
    out.mkdir(parents=True, exist_ok=True)
    lock = (out / ".lock").open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    return lock


def checkpoint_record(path: Path) -> dict[str, Any] | None:
    """The JSON record of the checkpoint at `path` (its arrays unread), or None without
    one."""
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as stored:
        record: dict[str, Any] = json.loads(str(stored["record"]))
    return record


def write_metrics(out: Path, metrics: Sequence[dict[str, Any]]) -> None:
    """``metrics.jsonl``, one record a line, through a temporary file and a rename."""
    temporary = out / "metrics.jsonl.tmp"
    temporary.write_text("".join(json.dumps(m, sort_keys=True) + "\n" for m in metrics))
    temporary.replace(out / "metrics.jsonl")
