"""Bot processes: start, limit, wait until SERVING, kill; and a pool that leases them.

Each bot runs as a child process in the sandbox (:mod:`referee.sandbox.box`: bubblewrap, a uid
and a cgroup of its own), listening on a Unix socket in its private folder, with its
stdout and stderr captured to a bounded log and resource limits applied before its code
runs (see :mod:`referee.sandbox.launch`). :meth:`BotProcess.stop` kills the whole tree (every
process of its cgroup), reaps it and removes its cgroup and files, whatever happened.
Unsandboxed (``SandboxConfig(enabled=False)``, for bots you trust), it runs in a process
group of its own, which stop kills (SIGTERM, a short grace, SIGKILL).

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
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import grpc.aio
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.bots import grpc_tuning
from referee.bots.log import LogSink
from referee.bots.manifest import expand_command
from referee.faults import FaultKind, LogTail
from referee.sandbox.box import LAUNCHER, BotSandbox, BotStartRefused
from referee.sandbox.bubblewrap import bwrap_path
from referee.sandbox.config import SandboxConfig
from referee.sandbox.folders import private_folder
from referee.sandbox.probe import ensure_available
from referee.spec import BotSpec
from sdk.errors import BullringError
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire.error_status import clean
from sdk.wire.service import MAX_MESSAGE_BYTES

MIB = 1 << 20
ENV_PASSTHROUGH = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "OPENBLAS_CORETYPE")
BOT_ENV_DEFAULTS = {
    "PYTHONUNBUFFERED": "1",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
# gRPC options for every referee->bot channel; replies above this size are PROTOCOL faults.
MAX_REPLY_BYTES = 64 * 1024
# How much of the output of a bot that died starting its fault quotes (its last lines).
STARTUP_OUTPUT_CHARS = 4000


def file_stem(name: str) -> str:
    """`name` made safe to start a file name inside a folder: no separators, no leading
    dot, ASCII only (names are checked when loaded; this holds whatever they are)."""
    return re.sub(r"[^A-Za-z0-9_.\-]", "_", name)[:64].lstrip(".") or "bot"


def channel_options() -> list[tuple[str, int]]:
    """Options of the referee's channels to bots.

    Reconnects back off quickly (a bot's socket appears while it starts). gRPC's
    ``grpc.min_reconnect_backoff_ms`` is left at its default: despite its name it is the
    least time a connection attempt is given to finish its handshake (gRPC's subchannel
    reads it as the minimum connect timeout). Set to 50 ms, a bot process that a loaded
    machine kept off a core for 100 ms failed its Hello with "connection attempt timed
    out before receiving SETTINGS frame". Every call has its own deadline, which bounds
    a bot that accepts a connection and never answers.
    """
    return [
        ("grpc.max_receive_message_length", MAX_REPLY_BYTES),
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ("grpc.initial_reconnect_backoff_ms", 50),
        ("grpc.max_reconnect_backoff_ms", 500),
        ("grpc.enable_retries", 0),
    ]


@dataclass(frozen=True)
class ProcessLimits:
    """Resource limits of each bot process (None: no limit) and how its output is kept.

    ``processes`` is RLIMIT_NPROC, which Linux counts per user (threads included) and does
    not apply to root; sandboxed, each process has a uid of its own, so it binds, but the
    cgroup's process limit (``SandboxConfig.processes``) is the one that counts.
    """

    address_space_mb: int | None = 2048
    file_size_mb: int | None = 64
    processes: int | None = 4096
    cpu_seconds: int | None = None
    log_bytes: int = 1 * MIB
    stop_grace_s: float = 0.5
    log_dir: str | None = None  # keep each bot's log there; default: deleted with the process
    watchdog_exit_s: float = 5.0  # sandboxed: how long stop waits for the watchdog to go


# What a bot that exits 0, silent, before it serves has most likely left out.
NEVER_SERVED = (
    "it ended without serving; a Python bot's script must end with "
    '`if __name__ == "__main__": run(MyBot)` (docs/sdk.md)'
)


# An exception's last line ("ValueError: ...", "pkg.Bad: ..."), and any line naming an error.
_EXCEPTION_LINE = re.compile(r"[\w.]+: ")
_ERROR_LINE = re.compile(r"\s*(\w*Error|\w*Exception)\b.*: ")


def error_line(output: str) -> str:
    """The line that best sums up a crash's `output`: its last line, unless that names no
    error and an earlier one does (Node.js ends a crash with its version: "Node.js v20")."""
    lines = output.splitlines()
    last = lines[-1] if lines else ""
    if _EXCEPTION_LINE.match(last):
        return last
    errors = [line.strip() for line in lines if _ERROR_LINE.match(line)]
    return errors[-1] if errors else last


class BotStartError(BullringError):
    """A bot could not be made ready; `kind` is the fault to record, `output` the end of
    what the bot printed (its lines intact) when it died starting."""

    def __init__(self, kind: FaultKind, detail: str, output: str = "") -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.output = output


OutputEcho = Callable[["BotProcess", bytes], None]


class BotProcess:
    """One running bot process (see the module docstring)."""

    def __init__(
        self,
        spec: BotSpec,
        limits: ProcessLimits,
        sandbox: SandboxConfig | None = None,
        echo: OutputEcho | None = None,
    ) -> None:
        """Start `spec` in the sandbox `sandbox` (None or disabled: unsandboxed); `echo`
        gets each line of its output (stdout and stderr) as it comes.

        SandboxUnavailable if the sandbox cannot run here; BotStartError (UNAVAILABLE) if
        this bot cannot be sandboxed as its manifest says."""
        if not spec.command:
            raise ValueError(f"bot {spec.name} has no command to start")
        self.spec = spec
        self.limits = limits
        self.seat: int | None = None  # the seat of its current lease (for the echo)
        self.box: BotSandbox | None = None
        if sandbox is not None and sandbox.enabled:
            ensure_available(sandbox)
            bwrap = bwrap_path(sandbox)
            assert bwrap is not None  # ensure_available found it
            try:
                self.box = BotSandbox(spec, sandbox, bwrap)
            except BotStartRefused as exc:
                raise BotStartError(FaultKind.UNAVAILABLE, str(exc)) from None
            self.tmpdir = self.box.private
            self.socket_path = self.box.socket_link
        else:
            self.tmpdir = private_folder(tempfile.gettempdir())  # mode 0700
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
        # The process's Play stream (bot_client.py), kept across leases like the channel.
        self.play_stream: grpc.aio.StreamStreamCall[bytes, bytes] | None = None
        self.started_at = time.monotonic()
        try:
            self.popen = subprocess.Popen(
                self._argv(),
                cwd="/" if self.box is not None else spec.workdir,
                env=self._env(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                close_fds=True,
            )
        except BaseException:
            if self.box is not None:
                self.box.clean_up()
            raise
        assert self.popen.stdout is not None
        on_line = (lambda line: echo(self, line)) if echo is not None else None
        self._log = LogSink(self.popen.stdout, self.log_path, limits.log_bytes, on_line)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def _argv(self) -> list[str]:
        lim = self.limits
        options = ["--rlimit", "CORE", "0"]
        for name, value in (
            ("AS", lim.address_space_mb and lim.address_space_mb * MIB),
            ("FSIZE", lim.file_size_mb and lim.file_size_mb * MIB),
            ("NPROC", lim.processes),
            ("CPU", lim.cpu_seconds),
        ):
            if value:
                options += ["--rlimit", name, str(value)]
        command = expand_command(self.spec.command)
        if self.box is not None:
            return self.box.launch_argv(LAUNCHER, options, command)
        options += ["--private", str(self.tmpdir)]  # removed if the referee dies
        return [sys.executable, "-I", "-S", str(LAUNCHER), *options, "--", *command]

    def _env(self) -> dict[str, str]:
        env = {k: os.environ[k] for k in ENV_PASSTHROUGH if k in os.environ}
        env.update(BOT_ENV_DEFAULTS)
        env.update(grpc_tuning.bot_env())
        env["TMPDIR"] = str(self.tmpdir)
        env.update(self.spec.env)
        env["BULLRING_LISTEN"] = self.address
        env["BULLRING_REFEREE_PID"] = str(os.getpid())  # for the launcher only (it removes it)
        return self.box.env(env) if self.box is not None else env

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
        """The fault a dead process is recorded as, and why: RESOURCE if it ran into a
        limit (the sandbox's memory, process or /tmp limit, the file-size or CPU-time
        rlimit), else CRASH; with how it ended ("killed by SIGKILL", "exited with code 1")."""
        why = f"process {self.exit_description()}"
        hit = self.box.limit_hit() if self.box is not None else None
        if hit is not None:
            return FaultKind.RESOURCE, f"{hit}; {why}"
        code = self.popen.poll()
        if code == -signal.SIGXFSZ:
            mb = self.limits.file_size_mb
            return FaultKind.RESOURCE, f"disk: a file went over the {mb} MiB file-size limit; {why}"
        if code == -signal.SIGXCPU:
            seconds = self.limits.cpu_seconds
            return FaultKind.RESOURCE, f"cpu: it used up its {seconds} s of CPU time; {why}"
        return FaultKind.CRASH, why

    def log_tail(self, max_chars: int = 2000) -> str:
        """The end of the bot's captured output (also after stop). Its bytes as they are:
        a bare carriage return stays one (text mode would make it a line break)."""
        try:
            text = self.log_path.read_bytes().decode("utf-8", errors="replace")
        except OSError:
            text = self.last_log
        return text[-max_chars:]

    async def log_mark(self) -> int:
        """How many bytes the bot has printed so far (what is still in its pipe is read
        first); a match marks its start and end to keep what it printed in between."""
        if self._log.pending() == 0:
            return self._log.mark(0.0)
        return await asyncio.to_thread(self._log.mark)

    async def log_since(self, seat: int, start: int) -> LogTail | None:
        """The tail of what the bot printed since mark `start` (None: nothing)."""
        data, total = self._log.since(start, await self.log_mark())
        return LogTail(seat, data, total) if total else None

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
        while not self._listening():
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

    def _listening(self) -> bool:
        """Whether the bot's socket is there (sandboxed: bound by the bot itself)."""
        if self.box is None:
            return self.socket_path.exists()
        try:
            return self.box.socket_ready()
        except BotStartRefused as exc:
            raise BotStartError(FaultKind.UNAVAILABLE, str(exc)) from None

    def _crash_error(self, when: str) -> BotStartError:
        """The error of a bot that died starting: its last line in the detail, the end of
        its output (a traceback, say) with its lines intact in ``output``."""
        kind, why = self.exit_fault()
        self._log.join(0.5)  # the pipe closes with the process: its output is all there
        tail = clean(self.log_tail(STARTUP_OUTPUT_CHARS).strip(), STARTUP_OUTPUT_CHARS, True)
        last = error_line(tail)
        if not tail and self.popen.poll() == 0:  # it ended on its own, having said nothing
            last = NEVER_SERVED
        return BotStartError(kind, f"{why} {when}" + (f": {last}" if last else ""), tail)

    def stop(self) -> None:
        """Kill the process tree, reap it, remove its cgroup and files. Sandboxed: SIGKILL
        to every process of its cgroup; unsandboxed: to its process group (SIGTERM, grace,
        SIGKILL)."""
        if self._stopped:
            return
        self._stopped = True
        if self.box is not None:
            self._stop_sandboxed(self.box)
            return
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

    def _stop_sandboxed(self, box: BotSandbox) -> None:
        try:
            box.kill()
            try:  # the watchdog reaps the tree, then exits
                self.popen.wait(self.limits.watchdog_exit_s)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        finally:
            self._log.join(1.0)
            self.last_log = self.log_tail()
            box.clean_up()

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
            self.play_stream = None  # (a stream of the old channel)
        return self._channel

    def drop_play_stream(self) -> None:
        """Cancel the process's Play stream, if it has one (the next request opens one)."""
        stream, self.play_stream = self.play_stream, None
        if stream is not None:
            stream.cancel()

    async def close_channel(self) -> None:
        if self._channel_loop is asyncio.get_running_loop():
            self.drop_play_stream()
        self.play_stream = None
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
    is killed and reaped on close. It raises SandboxUnavailable if its sandbox cannot run
    here (fail closed: it never falls back to running bots unsandboxed).
    """

    limits: ProcessLimits = field(default_factory=ProcessLimits)
    # The sandbox of every process it starts (on by default; NO_SANDBOX: bots you trust).
    sandbox: SandboxConfig = field(default_factory=SandboxConfig)
    _idle: dict[str, list[BotProcess]] = field(default_factory=dict)
    _all: set[BotProcess] = field(default_factory=set)
    started: int = 0  # processes started so far (for tests and statistics)
    echo: OutputEcho | None = None  # gets every line its bots print (bullring play)

    def __post_init__(self) -> None:
        # Check the sandbox now (once per process), not within a match's setup time.
        if self.sandbox.enabled:
            ensure_available(self.sandbox)

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
        process = await asyncio.to_thread(BotProcess, spec, self.limits, self.sandbox, self.echo)
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
