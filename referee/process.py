"""Bot processes: start, limit, wait until SERVING, kill; and a pool that leases them.

Each bot runs as a child process in its own process group (session), listening on a
private Unix socket in a private temporary folder (mode 0700), with its stdout and
stderr captured to a bounded log and resource limits applied before its code runs (see
:mod:`referee.launch`). :meth:`BotProcess.stop` kills the whole group (SIGTERM, a short
grace, SIGKILL) and reaps it, whatever happened.

A :class:`BotPool` starts bots on demand and leases a process to one seat of one match
at a time, so two seats of the same bot never share a process (no collusion through
shared memory). A process that faulted with CRASH, TIMEOUT or PROTOCOL is discarded and
replaced on the next lease; endpoints (already running bots) are leased as they are.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import grpc
import grpc.aio
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee import grpc_tuning
from referee.manifest import expand_command
from referee.spec import BotSpec, FaultKind
from sdk.errors import BullringError
from sdk.protocol.bullring.v1 import bot_pb2 as pb

MIB = 1 << 20
LAUNCHER = Path(__file__).with_name("launch.py")
ENV_PASSTHROUGH = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "OPENBLAS_CORETYPE")
BOT_ENV_DEFAULTS = {
    "PYTHONUNBUFFERED": "1",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
# gRPC options for every referee->bot channel; replies above this size are PROTOCOL faults.
MAX_REPLY_BYTES = 64 * 1024


def file_stem(name: str) -> str:
    """`name` made safe to start a file name inside a folder: no separators, no leading
    dot, ASCII only (names are checked when loaded; this holds whatever they are)."""
    return re.sub(r"[^A-Za-z0-9_.\-]", "_", name)[:64].lstrip(".") or "bot"


def channel_options() -> list[tuple[str, int]]:
    """Options of the referee's channels to bots."""
    return [
        ("grpc.max_receive_message_length", MAX_REPLY_BYTES),
        ("grpc.max_send_message_length", 16 * MIB),
        ("grpc.initial_reconnect_backoff_ms", 50),
        ("grpc.min_reconnect_backoff_ms", 50),
        ("grpc.max_reconnect_backoff_ms", 500),
        ("grpc.enable_retries", 0),
    ]


@dataclass(frozen=True)
class ProcessLimits:
    """Resource limits of a bot process (None: no limit) and how its output is kept.

    ``processes`` is RLIMIT_NPROC, which Linux counts per user (threads included) and does
    not apply to root; it is a fork-bomb guard, not an exact count.
    """

    address_space_mb: int | None = 2048
    file_size_mb: int | None = 64
    processes: int | None = 4096
    cpu_seconds: int | None = None
    log_bytes: int = 1 * MIB
    stop_grace_s: float = 0.5
    log_dir: str | None = None  # keep each bot's log there; default: deleted with the process


class BotStartError(BullringError):
    """A bot could not be made ready; `kind` is the fault to record."""

    def __init__(self, kind: FaultKind, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


class _LogSink:
    """Drains a pipe into a file, keeping at most `limit` bytes (the rest is counted)."""

    def __init__(self, pipe: IO[bytes], path: Path, limit: int) -> None:
        self.path = path
        self.limit = limit
        self.dropped = 0
        self._pipe = pipe
        self._thread = threading.Thread(target=self._run, name=f"botlog:{path.name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        written = 0
        with open(self.path, "wb") as out:
            while chunk := os.read(self._pipe.fileno(), 65536):
                keep = chunk[: max(0, self.limit - written)]
                if keep:
                    out.write(keep)
                    out.flush()
                    written += len(keep)
                self.dropped += len(chunk) - len(keep)
            if self.dropped:
                out.write(f"\n[bullring: {self.dropped} more bytes of output dropped]\n".encode())
        self._pipe.close()

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)


class BotProcess:
    """One running bot process (see the module docstring)."""

    def __init__(self, spec: BotSpec, limits: ProcessLimits) -> None:
        if not spec.command:
            raise ValueError(f"bot {spec.name} has no command to start")
        self.spec = spec
        self.limits = limits
        self.tmpdir = Path(tempfile.mkdtemp(prefix="bullring-bot-"))
        os.chmod(self.tmpdir, 0o700)
        self.socket_path = self.tmpdir / "bot.sock"
        self.address = f"unix:{self.socket_path}"
        log_dir = Path(limits.log_dir) if limits.log_dir else self.tmpdir
        log_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = log_dir / f"{file_stem(spec.name)}-{os.getpid()}-{id(self):x}.log"
        self.last_log = ""
        self._stopped = False
        # The referee's channel to this process, kept across leases (see channel()), and
        # the bot's Hello reply: a process's name, version and protocol never change.
        self._channel: grpc.aio.Channel | None = None
        self._channel_loop: asyncio.AbstractEventLoop | None = None
        self.hello: pb.HelloReply | None = None
        self.started_at = time.monotonic()
        self.popen = subprocess.Popen(
            self._argv(),
            cwd=spec.workdir,
            env=self._env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            close_fds=True,
        )
        assert self.popen.stdout is not None
        self._log = _LogSink(self.popen.stdout, self.log_path, limits.log_bytes)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def _argv(self) -> list[str]:
        lim = self.limits

        def num(value: int | None, scale: int = 1) -> str:
            return str(value * scale) if value else "0"

        return [
            sys.executable,
            "-I",
            "-S",
            str(LAUNCHER),
            num(lim.address_space_mb, MIB),
            num(lim.file_size_mb, MIB),
            num(lim.processes),
            num(lim.cpu_seconds),
            "--",
            *expand_command(self.spec.command),
        ]

    def _env(self) -> dict[str, str]:
        env = {k: os.environ[k] for k in ENV_PASSTHROUGH if k in os.environ}
        env.update(BOT_ENV_DEFAULTS)
        env.update(grpc_tuning.bot_env())
        env["TMPDIR"] = str(self.tmpdir)
        env.update(self.spec.env)
        env["BULLRING_LISTEN"] = self.address
        env["BULLRING_REFEREE_PID"] = str(os.getpid())  # for the launcher only (it removes it)
        return env

    def alive(self) -> bool:
        return self.popen.poll() is None

    def exit_description(self) -> str:
        """How the process ended, e.g. "exited with code 1" or "killed by SIGSEGV"."""
        code = self.popen.poll()
        if code is None:
            return "still running"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exited with code {code}"

    def exit_fault(self) -> tuple[FaultKind, str]:
        """The fault a dead process is recorded as, and why: CRASH with how it ended."""
        return FaultKind.CRASH, f"process {self.exit_description()}"

    def log_tail(self, max_chars: int = 2000) -> str:
        """The end of the bot's captured output (also after stop)."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = self.last_log
        return text[-max_chars:]

    async def wait_exit(self, timeout_s: float) -> bool:
        """Wait up to `timeout_s` for the process to exit by itself; True if it did."""
        end = time.monotonic() + timeout_s
        while self.alive():
            if time.monotonic() >= end:
                return False
            await asyncio.sleep(0.005)
        return True

    async def wait_ready(self, timeout_s: float) -> None:
        """Wait until the bot's health service reports SERVING (BotStartError if not)."""
        end = time.monotonic() + timeout_s
        while not self.socket_path.exists():
            if not self.alive():
                raise self._crash_error("before listening")
            if time.monotonic() >= end:
                raise BotStartError(FaultKind.UNAVAILABLE, f"not listening after {timeout_s:.1f}s")
            await asyncio.sleep(0.005)
        try:
            await wait_serving(self.address, end - time.monotonic())
        except BotStartError:
            if not await self.wait_exit(0.1):
                raise
            raise self._crash_error("before SERVING") from None

    def _crash_error(self, when: str) -> BotStartError:
        tail = self.log_tail(500).strip().replace("\n", " | ")
        return BotStartError(
            FaultKind.CRASH, f"{self.exit_description()} {when}" + (f": {tail}" if tail else "")
        )

    def stop(self) -> None:
        """Kill the process group (SIGTERM, grace, SIGKILL), reap it, remove its files."""
        if self._stopped:
            return
        self._stopped = True
        try:
            self._signal_group(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(self.limits.stop_grace_s)
            # The leader may be gone while others in its group live on: kill the group anyway.
            self._signal_group(signal.SIGKILL)
            self.popen.wait()
        finally:
            self._log.join(1.0)
            self.last_log = self.log_tail()
            if self.limits.log_dir is None:
                shutil.rmtree(self.tmpdir, ignore_errors=True)
            else:
                self.socket_path.unlink(missing_ok=True)
                shutil.rmtree(self.tmpdir, ignore_errors=True)

    def _signal_group(self, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, sig)

    def channel(self) -> grpc.aio.Channel:
        """The referee's channel to this process, opened on first use and kept for every
        later lease, so a match does not pay a connection per seat. An aio channel belongs
        to its event loop: a lease from another loop (a new ``run_match``) opens a new one."""
        loop = asyncio.get_running_loop()
        if self._channel is None or self._channel_loop is not loop:
            self._channel = grpc.aio.insecure_channel(self.address, options=channel_options())
            self._channel_loop = loop
        return self._channel

    async def close_channel(self) -> None:
        channel, self._channel = self._channel, None
        if channel is not None and self._channel_loop is asyncio.get_running_loop():
            await channel.close(None)

    async def astop(self) -> None:
        """:meth:`stop` without blocking the event loop (closing its channel first)."""
        await self.close_channel()
        await asyncio.to_thread(self.stop)


async def wait_serving(address: str, timeout_s: float) -> None:
    """Poll grpc.health.v1 at `address` until SERVING; BotStartError(UNAVAILABLE) if not."""
    end = time.monotonic() + max(timeout_s, 0.0)
    last = "no answer"
    async with grpc.aio.insecure_channel(address, options=channel_options()) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise BotStartError(
                    FaultKind.UNAVAILABLE, f"not SERVING after {timeout_s:.1f}s ({last})"
                )
            try:
                reply = await stub.Check(
                    health_pb2.HealthCheckRequest(service=""),
                    timeout=min(left, 1.0),
                    wait_for_ready=True,
                )
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
                last = f"health status {reply.status}"
            except grpc.aio.AioRpcError as exc:
                last = f"{exc.code().name}: {exc.details()}"
            await asyncio.sleep(0.01)


@dataclass
class BotLease:
    """A process (or endpoint) leased to one seat of one match."""

    spec: BotSpec
    address: str
    process: BotProcess | None  # None for an endpoint
    fresh: bool = True  # started for this lease (its start counts against setup time)

    def alive(self) -> bool:
        return self.process is None or self.process.alive()


@dataclass
class BotPool:
    """Starts bots on demand and leases each process to one match seat at a time.

    Use ``async with BotPool() as pool`` (or call :meth:`close`): every process it started
    is killed and reaped on close.
    """

    limits: ProcessLimits = field(default_factory=ProcessLimits)
    _idle: dict[str, list[BotProcess]] = field(default_factory=dict)
    _all: set[BotProcess] = field(default_factory=set)
    started: int = 0  # processes started so far (for tests and statistics)

    async def lease(self, spec: BotSpec, timeout_s: float) -> BotLease:
        """A ready process for `spec` (idle or newly started); BotStartError if none."""
        if spec.endpoint is not None:
            await wait_serving(spec.endpoint, timeout_s)
            return BotLease(spec, spec.endpoint, None, fresh=False)
        idle = self._idle.setdefault(_pool_key(spec), [])
        while idle:
            process = idle.pop()
            if process.alive():
                return BotLease(spec, process.address, process, fresh=False)
            await self._discard(process)
        process = await asyncio.to_thread(BotProcess, spec, self.limits)
        self._all.add(process)
        self.started += 1
        try:
            await process.wait_ready(timeout_s)
        except BaseException:
            await self._discard(process)
            raise
        return BotLease(spec, process.address, process, fresh=True)

    async def release(self, lease: BotLease, discard: bool) -> None:
        """Give a lease back; `discard` (or a dead process) kills the process instead."""
        process = lease.process
        if process is None:
            return
        if discard or not process.alive() or process not in self._all:
            await self._discard(process)
        else:
            self._idle.setdefault(_pool_key(lease.spec), []).append(process)

    async def _discard(self, process: BotProcess) -> None:
        self._all.discard(process)
        await process.astop()

    def pids(self) -> list[int]:
        """Pids of the processes the pool holds (leased or idle)."""
        return [p.pid for p in self._all]

    async def close(self) -> None:
        """Kill and reap every process the pool started."""
        processes = list(self._all)
        self._all.clear()
        self._idle.clear()
        await asyncio.gather(*(p.astop() for p in processes))

    async def __aenter__(self) -> BotPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def _pool_key(spec: BotSpec) -> str:
    return repr((spec.name, spec.version, spec.command, spec.workdir, sorted(spec.env.items())))
