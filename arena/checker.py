"""The check queue: one at a time, off the request path, each upload's check in a child
process of its own (``python -m arena.checker``) with the arena's time limit.

The child runs the check as ``bot submit`` does (:func:`referee.check.check_for_league`: in
the league's sandbox, its matches looking like the league's own) on the uploaded folder,
registers a bot that passes (which archives it: referee/league/archive.py), and records
the outcome for the attempt it was given: a check taken again after a restart records
nothing twice (:meth:`arena.db.ArenaDb.finish`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from arena.config import ArenaConfig, load_arena
from arena.db import ArenaDb, Upload
from arena.events import first_line, log_event
from referee.bots.manifest import load_manifest
from referee.check import check_for_league
from referee.league.runner import register_submission
from referee.league.store import LeagueStore
from referee.sandbox.probe import available
from sdk.errors import BullringError
from sdk.lifeline import die_with_parent

MAX_OUTPUT = 64 * 1024  # of the check's report kept for the author
IDLE_S = 0.2  # how often an idle queue looks for work


def check_upload(arena: ArenaConfig, upload: Upload) -> tuple[str, str | None, str | None]:
    """Check one upload; register it if it passes. Its state, reason and output (where
    the server keeps the upload is left out of both: ``pybot/bot.toml``)."""
    state, reason, output = _check(arena, upload)
    here = str(Path(upload.folder).parent) + "/"
    return (
        state,
        None if reason is None else reason.replace(here, ""),
        None if output is None else output.replace(here, ""),
    )


def _check(arena: ArenaConfig, upload: Upload) -> tuple[str, str | None, str | None]:
    try:
        spec = load_manifest(Path(upload.folder))
        problem = available(arena.league.sandbox)
        if problem is not None or not arena.league.sandbox.enabled:
            return "queued", None, None  # no sandbox here now: leave it for later
        problems = check_for_league(spec, arena.league, arena.store)
        if problems:
            reason = problems[0].splitlines()[0]
            return "rejected", reason, "\n".join(problems)[:MAX_OUTPUT]
        register_submission(arena.league, spec, arena.store)
    except BullringError as error:
        return "rejected", str(error).splitlines()[0], str(error)[:MAX_OUTPUT]
    return "active", None, None


def main(argv: list[str]) -> int:
    """``python -m arena.checker ARENA_FILE UPLOAD_ID ATTEMPT SERVER_PID``: check one
    upload."""
    die_with_parent(parent=int(argv[3]))
    arena = load_arena(argv[0])
    with ArenaDb(arena.db_path) as db:
        upload = db.uploads_by_id(int(argv[1]))
        if upload.attempt != int(argv[2]) or upload.state != "checking":
            return 0  # taken again since (a restart): that attempt records the outcome
        state, reason, output = check_upload(arena, upload)
        if state == "queued":
            return 0
        recorded = db.finish(upload, state, reason, output)
        # Retired by its author while it was checked: registered, it is retired there too.
        if not recorded and state == "active" and db.uploads_by_id(upload.id).state == "retired":
            retire_in_store(arena, upload.key)
    return 0


def retire_in_store(arena: ArenaConfig, key: str) -> bool:
    """Retire version `key` in the arena's league store, if it is registered there (False
    if it is not, or there is no store yet); StoreError (StoreLocked) if it cannot be."""
    if not arena.store.is_file():
        return False
    with LeagueStore.open(arena.store) as store:
        return store.retire(key)


class CheckQueue:
    """The thread that takes queued uploads in order and checks each in a child process."""

    def __init__(self, arena: ArenaConfig) -> None:
        self.arena = arena
        self.stop = threading.Event()
        self.wake = threading.Event()
        self.thread = threading.Thread(target=self._run, name="arena-checks", daemon=True)
        self.child: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.wake.set()
        child = self.child
        if child is not None and child.poll() is None:
            child.kill()
        self.thread.join(timeout=10)

    def _run(self) -> None:
        with ArenaDb(self.arena.db_path) as db:
            while not self.stop.is_set():
                upload = db.take_next()
                if upload is None:
                    self.wake.wait(IDLE_S)
                    self.wake.clear()
                    continue
                self._check(db, upload)

    def _check(self, db: ArenaDb, upload: Upload) -> None:
        argv = [sys.executable, "-m", "arena.checker", str(self.arena.path)]
        self.child = subprocess.Popen(
            [*argv, str(upload.id), str(upload.attempt), str(os.getpid())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            _, err = self.child.communicate(timeout=self.arena.check_timeout_s)
        except subprocess.TimeoutExpired:
            self.child.kill()
            self.child.wait()
            db.finish(
                upload,
                "rejected",
                f"the check took longer than the arena's limit of {self.arena.check_timeout_s:g} s",
                None,
            )
            self._log(db.uploads_by_id(upload.id))
            return
        finally:
            self.child = None
        if self.stop.is_set():
            return  # stopped mid-check: the upload is checked again after a restart
        now = db.uploads_by_id(upload.id)
        if now.state == "checking" and now.attempt == upload.attempt:
            # The child ended without recording: no sandbox now (left queued), or a bug.
            text = err.decode("utf-8", "replace").strip()
            if text:
                db.finish(upload, "rejected", "the check itself failed", text[-MAX_OUTPUT:])
            else:
                with db.transaction() as conn:
                    conn.execute(
                        "UPDATE uploads SET state = 'queued' WHERE id = ? AND attempt = ?",
                        (upload.id, upload.attempt),
                    )
                log_event("check", bot=upload.key, upload=upload.id, state="queued",
                          reason="no sandbox now: checked again later")  # fmt: skip
                self.stop.wait(5)
                return
        self._log(db.uploads_by_id(upload.id))

    @staticmethod
    def _log(done: Upload) -> None:
        seconds = None if done.check_s is None else f"{done.check_s:.2f}"
        reason = first_line(done.reason) if done.state != "active" else None
        log_event("check", bot=done.key, upload=done.id, state=done.state, reason=reason,
                  seconds=seconds)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
