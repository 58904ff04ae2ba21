"""What the champion's two trainers (:mod:`.train`, :mod:`.finetune`) share about a run:
its settings as flags, the command line that made it, its folder's lock, its metrics log,
its checkpoint's record, and SIGTERM taken as an interrupt."""

from __future__ import annotations

import argparse
import fcntl
import json
import shlex
import sys
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import IO, Any, get_args, get_type_hints

import numpy as np


class Terminated(Exception):
    """SIGTERM arrived: stop as on Ctrl-C."""


def raise_terminated(signum: int, frame: object) -> None:
    """A SIGTERM handler: raise :class:`Terminated` where the run is."""
    raise Terminated


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
