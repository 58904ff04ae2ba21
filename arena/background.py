"""What ``bullring arena serve`` runs beside its HTTP API: the ladder (a child process,
started again if it dies) and the site's rebuilds (a child process per build).

* :class:`LadderProcess` keeps ``python -m arena.ladder`` running: started with the server,
  started again (after 1, 2, 4... up to 60 s) if it ends on its own, and stopped with the
  signal the server got (SIGTERM: finish the matches in flight; SIGINT: abandon them).
* :class:`SitePublisher` rebuilds the static site (``python -m leaderboard.publish``, which
  swaps the new build in atomically) once ``site_every_matches`` matches were finished
  since the last build, or ``site_every_s`` seconds after the first of them, whichever
  comes first; and once at start. A build that fails or is killed leaves the published
  site as it was; the next is tried at the next due time.

Each child dies with the server (arena/lifeline.py), so ``kill -9`` of the server leaves
nothing running; a restart takes everything up where the store stands.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from arena.config import ArenaConfig
from leaderboard.from_store import variant_title

POLL_S = 1.0  # how often the publisher looks at the store
BUILD_TIMEOUT_S = 1800.0
RESTART_MAX_S = 60.0
STOP_WAIT_S = 900.0  # the longest a SIGTERM waits for the matches in flight


def log_line(text: str) -> None:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print(f"{stamp} {text}", file=sys.stderr, flush=True)


class LadderProcess:
    """The ladder child, kept running until :meth:`stop`."""

    def __init__(self, arena: ArenaConfig, log: Callable[[str], None] = log_line) -> None:
        self.arena = arena
        self.log = log
        self.child: subprocess.Popen[bytes] | None = None
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.starts = 0
        self.thread = threading.Thread(target=self._keep, name="arena-ladder", daemon=True)

    @property
    def state(self) -> str:
        child = self.child
        if self.stopping.is_set():
            return "stopping"
        return "running" if child is not None and child.poll() is None else "starting"

    def start(self) -> None:
        self.thread.start()

    def _spawn(self) -> subprocess.Popen[bytes]:
        argv = [sys.executable, "-m", "arena.ladder", str(self.arena.path), str(os.getpid())]
        # A session of its own: a Ctrl-C at the server's terminal reaches the server only,
        # which passes it on once (a second SIGINT would cut the ladder's clean-up short).
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, start_new_session=True)

    def _keep(self) -> None:
        pause = 1.0
        while not self.stopping.is_set():
            with self.lock:
                if self.stopping.is_set():
                    return
                self.child = self._spawn()
                self.starts += 1
            started = time.monotonic()
            code = self.child.wait()
            if self.stopping.is_set():
                return
            if time.monotonic() - started > 5 * RESTART_MAX_S:
                pause = 1.0  # it ran a good while: a fresh failure, not a loop
            self.log(f"ladder: ended on its own (exit {code}); started again in {pause:g} s")
            self.stopping.wait(pause)
            pause = min(pause * 2, RESTART_MAX_S)

    def stop(self, signum: int = signal.SIGTERM) -> int | None:
        """Stop the ladder with `signum` (SIGTERM or SIGINT) and wait; its exit code."""
        with self.lock:
            self.stopping.set()
            child = self.child
        if child is None or child.poll() is not None:
            return None if child is None else child.returncode
        with contextlib.suppress(ProcessLookupError):
            child.send_signal(signum)
        try:
            return child.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.log(f"ladder: still running {STOP_WAIT_S:g} s after the stop; killed")
            child.kill()
            return child.wait()


def about_site(arena: ArenaConfig) -> dict[str, Any]:
    """What the site's "how to submit" page says of this arena (leaderboard/publish.py)."""
    league = arena.league
    clock = league.clock
    url = arena.public_url
    return {
        "url": url,
        "variants": [
            {"id": v.id, "title": variant_title({"id": v.id, "preset": v.preset}), "seats": v.seats}
            for v in league.variants
        ],
        "clock": (
            f"{clock.decision_ms / 1000:g} s a decision, a bank of {clock.time_bank_ms / 1000:g} s"
            f" a match for overruns, {clock.setup_ms / 1000:g} s to start"
        ),
        "caps": {
            "packed_bytes": arena.caps.packed_bytes,
            "unpacked_bytes": arena.caps.unpacked_bytes,
            "files": arena.caps.files,
        },
        "commands": [
            f"bullring bot upload ./my_bot --arena {url}",
            f"bullring bot status my_bot --arena {url}",
        ],
        "public_logs": arena.public_logs,
        "play": f"{url}/play" if arena.human_games > 0 else "",
    }


class SitePublisher:
    """Rebuilds the site when due (see the module docstring), in a thread."""

    def __init__(self, arena: ArenaConfig, log: Callable[[str], None] = log_line) -> None:
        self.arena = arena
        self.log = log
        self.stopping = threading.Event()
        self.child: subprocess.Popen[str] | None = None
        self.published = -1  # finished matches the live build covers (-1: none yet)
        self.builds = 0
        self.last_report: dict[str, Any] = {}
        self.retry_at = 0.0  # after a failed build, the next is not tried before this
        self.thread = threading.Thread(target=self._run, name="arena-site", daemon=True)
        self.about = arena.store.absolute().with_name(arena.store.name + ".about.json")

    def start(self) -> None:
        self.about.write_text(json.dumps(about_site(self.arena), indent=2), encoding="utf-8")
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        child = self.child
        if child is not None and child.poll() is None:
            child.kill()  # the published site stays as it was (an atomic swap or nothing)
        self.thread.join(timeout=30)

    def finished(self) -> int | None:
        """The store's finished matches (None: no store yet)."""
        store = self.arena.store
        if not store.is_file():
            return None
        try:
            with contextlib.closing(
                sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=10)
            ) as db:
                row = db.execute("SELECT COUNT(*) FROM matches WHERE status = 'finished'")
                return int(row.fetchone()[0])
        except sqlite3.Error:
            return None

    def _run(self) -> None:
        behind_since: float | None = None
        while not self.stopping.wait(POLL_S):
            finished = self.finished()
            if finished is None:
                continue
            now = time.monotonic()
            if finished > self.published and behind_since is None:
                behind_since = now
            due = self.published < 0 or (
                finished > self.published
                and (
                    finished - self.published >= self.arena.site_every_matches
                    or (behind_since is not None and now - behind_since >= self.arena.site_every_s)
                )
            )
            if not due or now < self.retry_at:
                continue
            if self._build():
                behind_since = None  # set again at the next look if matches came meanwhile
            else:  # tried again after the slower of the two periods, not at every look
                self.retry_at = time.monotonic() + self.arena.site_every_s

    def _build(self) -> bool:
        # Through the lifeline, as every child of the server: a build outliving a killed
        # server would race the restarted one's (and nothing would stop it).
        argv = [
            sys.executable, "-m", "arena.lifeline", str(os.getpid()), "--",
            sys.executable, "-m", "leaderboard.publish",
            str(self.arena.store), str(self.arena.site), "--about", str(self.about),
        ]  # fmt: skip
        if not self.arena.public_logs:
            argv.append("--private-logs")
        started = time.monotonic()
        self.child = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        try:
            out, err = self.child.communicate(timeout=BUILD_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.child.kill()
            self.child.communicate()
            self.log(f"site: a build ran over {BUILD_TIMEOUT_S:g} s: killed, the site unchanged")
            return False
        finally:
            code = self.child.returncode
            self.child = None
        if self.stopping.is_set():
            return False
        if code != 0:
            why = (err.strip().splitlines() or [f"exit {code}"])[-1]
            self.log(f"site: the build failed ({why}); the site is as it was")
            return False
        try:
            report = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            self.log("site: the build said nothing readable; the site is as it was")
            return False
        self.published = int(report.get("matches", 0))
        self.builds += 1
        self.last_report = report
        self.log(
            f"site: build {report.get('build', '?')} published "
            f"({self.published} matches, {time.monotonic() - started:.1f} s)"
        )
        return True
