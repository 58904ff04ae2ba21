"""The stage of the hostile-bot tests: data a bot must not reach, a match, and the checks.

A :class:`Scene` is a folder (``/tmp/bullring-scene-*``, world-readable, so that only the
sandbox, not file modes, keeps a bot out) holding a real league store (kept open by the
referee during the match, as ``league run`` does), a replay, and another bot's folder with
a secret in it; the referee's environment holds a secret too. It gives the sandbox of the
test: small limits, a uid range of its own (so that ``ps`` can tell its processes), and
private folders and logs of its own.

:func:`play` plays one match (by default ``good, hostile, good``) in that sandbox, in a
pool of its own that is closed before it returns; :func:`assert_contained` then checks
that the fault (if any) landed on the hostile seats only, that the match's result is the
one it would have been had the hostile seat only ever played the fallback (a forfeited
seat ranked last), that no data changed, and that nothing of the match outlives it: no
process (by uid, and as descendants of the test), no cgroup, no private folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import os
import random
import shutil
import sqlite3
import tempfile
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.bots.manifest import load_manifest
from referee.bots.process import BotPool, ProcessLimits
from referee.faults import FaultKind
from referee.league.store import LeagueStore
from referee.match.runner import play_match
from referee.replay.files import save
from referee.replay.model import Replay
from referee.replay.result import MatchResult
from referee.sandbox import cgroups
from referee.sandbox.config import SandboxConfig
from referee.spec import BotSpec, ClockSpec, MatchSpec
from sdk.game import forfeits_ranked_last
from tests.referee.helpers import REPO, bot_named, descendants
from tests.referee.hostile.common import REPORT_PREFIX

HOSTILE = Path(__file__).parent
SECRET_ENV = "BULLRING_TEST_SECRET"
# Roomy: a hostile seat may be slow on purpose, the good ones must never time out.
CLOCK = ClockSpec(decision_ms=5000, time_bank_ms=10_000, setup_ms=30_000, max_faults=3)
LIMITS = {"memory_mb": 256, "processes": 32, "cpus": 0.5, "tmp_mb": 64}
UID_BLOCK = 100
SHM = Path("/dev/shm")


def hostile_bot(name: str, **config: Any) -> BotSpec:
    """A hostile bot from its manifest, told its targets (HOSTILE_CONFIG)."""
    spec = load_manifest(HOSTILE / f"{name}.toml")
    return dataclasses.replace(spec, env={**spec.env, "HOSTILE_CONFIG": json.dumps(config)})


def good_bot() -> BotSpec:
    return bot_named("seeded_random")


def fallback_bot() -> BotSpec:
    """What a hostile seat's play amounts to: the first option every time."""
    return bot_named("first_option")


@dataclass
class Scene:
    """See the module docstring."""

    root: Path
    secret: str = field(default_factory=lambda: uuid.uuid4().hex)
    first_uid: int = field(default_factory=lambda: 70_000 + random.randrange(10_000) * UID_BLOCK)

    @property
    def store(self) -> Path:
        return self.root / "league" / "league.sqlite"

    @property
    def replay(self) -> Path:
        return self.root / "league" / "replays" / "m1.json"

    @property
    def other_bot(self) -> Path:
        return self.root / "other_bot"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def private(self) -> Path:
        """The bots' private folders: on a tmpfs, as the sandbox requires."""
        return SHM / f"{self.root.name}-private"

    def build(self, replay: Replay) -> None:
        (self.root / "league" / "replays").mkdir(parents=True)
        with LeagueStore.open(self.store) as store:
            store.init_league("hostile", "digest", {"secret": self.secret}, ())
        save(replay, self.replay)
        self.other_bot.mkdir()
        (self.other_bot / "secret.txt").write_text(self.secret)
        (self.other_bot / "bot.toml").write_text('name = "other"\ncommand = ["true"]\n')
        self.logs.mkdir()
        self.private.mkdir()
        for path in [self.root, *self.root.rglob("*")]:
            if path not in (self.private, self.logs):
                path.chmod(0o777 if path.is_dir() else 0o666)  # open wide: only the sandbox guards
        self.private.chmod(0o711)  # the bots' uids walk through it to their own folders

    def sandbox(self, **changes: Any) -> SandboxConfig:
        return SandboxConfig(
            **{**LIMITS, **changes},
            uids=(self.first_uid, self.first_uid + UID_BLOCK - 1),
            private_root=str(self.private),
        )

    def limits(self) -> ProcessLimits:
        return ProcessLimits(log_dir=str(self.logs))

    def targets(self) -> dict[str, Any]:
        """Everything a snooping bot is pointed at."""
        store_files = sorted(str(p) for p in self.store.parent.glob("league.sqlite*"))
        return {
            "read": [
                *store_files,
                str(self.replay),
                str(self.other_bot / "secret.txt"),
                str(REPO / "demo" / "league.sqlite"),
                str(REPO / "leagues" / "demo.toml"),
                "/etc/shadow",
                "/root/.bash_history",
            ],
            "list": [
                "/",
                "/tmp",
                "/root",
                "/work",
                str(REPO),
                str(self.root),
                str(self.other_bot),
                str(self.private),
                "/sys/fs/cgroup",
            ],
            "write": [*store_files, str(self.replay), str(self.other_bot / "secret.txt")],
            "create": [
                str(self.other_bot),
                str(self.store.parent),
                str(HOSTILE),
                "/",
                "/usr",
                "/run/bullring",
            ],
            "pids": [os.getpid(), os.getppid()],
        }

    def fingerprint(self) -> dict[str, str]:
        """A hash of every file a bot must not change (the store, replays, the other bot):
        the store's by its contents (SQLite's own -wal and -shm files come and go)."""
        found = {}
        for path in sorted(self.root.rglob("*")):
            if not path.is_file() or self.private in path.parents or self.logs in path.parents:
                continue
            if path.name.endswith(("-wal", "-shm")):
                continue
            if path.suffix == ".sqlite":
                with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
                    data = "\n".join(db.iterdump()).encode()
            else:
                data = path.read_bytes()
            found[str(path)] = hashlib.sha256(data).hexdigest()
        return found

    def log_text(self) -> str:
        return "".join(p.read_text(errors="replace") for p in sorted(self.logs.glob("*.log")))

    def reports(self, bot: str) -> list[dict[str, Any]]:
        """What the hostile bot named `bot` reported, one per process that reported."""
        found = []
        for path in sorted(self.logs.glob(f"{bot}-*.log")):
            for line in path.read_text(errors="replace").splitlines():
                if line.startswith(REPORT_PREFIX):
                    found.append(json.loads(line[len(REPORT_PREFIX) :]))
        return found


def new_scene(baseline_replay: Replay) -> Iterator[Scene]:
    """A fresh scene, removed (with anything left in it) afterwards."""
    root = Path(tempfile.mkdtemp(prefix="bullring-scene-"))
    try:
        scene = Scene(root)
        scene.build(baseline_replay)
        yield scene
    finally:
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(SHM / f"{root.name}-private", ignore_errors=True)


def match_spec(bots: Sequence[BotSpec], seed: int = 5, clock: ClockSpec = CLOCK) -> MatchSpec:
    return MatchSpec(
        f"hostile-{uuid.uuid4().hex[:8]}", "6nimmt", {"rounds": "1"}, seed, tuple(bots), clock
    )


def play(scene: Scene, spec: MatchSpec, sandbox: SandboxConfig | None = None) -> MatchResult:
    """Play `spec` in the scene's sandbox, with the store open as a league run holds it."""

    async def run() -> MatchResult:
        async with BotPool(scene.limits(), sandbox or scene.sandbox()) as pool:
            return await play_match(spec, pool)

    with LeagueStore.open_readonly(scene.store):
        return asyncio.run(run())


def baseline(spec: MatchSpec, hostile_seats: Sequence[int]) -> MatchResult:
    """`spec` with each hostile seat played by the first-option bot (no sandbox limits)."""
    bots = [fallback_bot() if i in hostile_seats else b for i, b in enumerate(spec.bots)]
    pool_spec = dataclasses.replace(spec, bots=tuple(bots))

    async def run() -> MatchResult:
        async with BotPool() as pool:
            return await play_match(pool_spec, pool)

    return asyncio.run(run())


def assert_contained(
    scene: Scene,
    result: MatchResult,
    expected: MatchResult,
    hostile_seats: Sequence[int],
    before: dict[str, str],
) -> None:
    """The checks every hostile test makes (see the module docstring)."""
    assert {f.seat for f in result.faults} <= set(hostile_seats), result.faults
    for seat in range(len(result.scores)):
        if seat not in hostile_seats:
            assert not result.forfeited[seat]
    assert result.scores == expected.scores
    # Ranked as the baseline, but a forfeited seat below every seat that was not.
    assert result.ranks == tuple(forfeits_ranked_last(expected.ranks, result.forfeited))
    assert scene.fingerprint() == before, "a file the bot must not touch changed"
    assert_nothing_left(scene)


def assert_nothing_left(scene: Scene) -> None:
    """No process, cgroup or private folder of the scene's bots is left."""
    assert leftover_descendants() == [], "a process of the test outlived its match"
    assert processes_of(scene) == [], "a bot process outlived its match"
    assert list(scene.private.iterdir()) == [], "a private folder outlived its bot"
    assert own_cgroups() == [], "a cgroup outlived its bot"


def leftover_descendants() -> list[str]:
    """Command lines of the test's live descendants, but multiprocessing's resource tracker
    (a league's worker pool starts it, and it lives as long as the test process)."""
    found = []
    for pid in descendants():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "multiprocessing.resource_tracker" not in command:
            found.append(command)
    return found


def processes_of(scene: Scene) -> list[int]:
    """Live processes on the host whose uid is in the scene's range."""
    first, last = scene.first_uid, scene.first_uid + UID_BLOCK - 1
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            uid = int(status.split("\nUid:", 1)[1].split()[0])
            if first <= uid <= last:
                found.append(int(entry))
    return found


def own_cgroups() -> list[Path]:
    """Per-bot cgroups made by this process that still exist."""
    mine = f"{cgroups.PREFIX}{os.getpid()}-"
    return [
        entry
        for _, base in cgroups.host().bases
        for entry in base.iterdir()
        if entry.name.startswith(mine)
    ]


def resource_fault(result: MatchResult, seat: int) -> str:
    """The detail of the seat's RESOURCE fault (AssertionError if it has none)."""
    kinds = [f.kind for f in result.faults if f.seat == seat]
    details = [f.detail for f in result.faults if f.seat == seat and f.kind == FaultKind.RESOURCE]
    assert details, f"no RESOURCE fault on seat {seat}: {kinds} {result.faults}"
    return details[0]
