"""Executors: run a batch of matches and yield their outcomes as they complete.

An executor owns workers; each worker keeps one :class:`MatchRunner` (for the referee: a
:class:`~referee.process.BotPool` that starts each bot once) for the whole league, so
bots are not restarted per match. Executors never touch the store: the league runner
records outcomes in the main process, in schedule order for ratings.

* :class:`LocalExecutor`: worker processes on this machine (one match at a time each);
  with one worker it runs matches in the calling process.
* :class:`RayExecutor` (``--executor ray``): one Ray actor per worker, each with its own
  runner, on a local Ray instance or a cluster (``address``).

A runner is made by a :data:`RunnerFactory`, a picklable callable (a module-level
function or class) so that worker processes and Ray actors can build their own.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import ctypes
import multiprocessing
import multiprocessing.util
import os
import signal
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from referee.league.store import compress_replay
from referee.sandbox import SandboxConfig
from referee.spec import MatchResult, MatchSpec

if TYPE_CHECKING:
    from referee.process import ProcessLimits


class MatchRunner(Protocol):
    """Plays matches one at a time inside one worker (async: the referee is asyncio)."""

    async def run(self, spec: MatchSpec) -> MatchResult: ...

    async def close(self) -> None: ...

    def child_pids(self) -> list[int]:
        """Processes to kill if the worker is told to die at once (bots it started)."""
        ...


RunnerFactory = Callable[[], MatchRunner]


class RefereeRunner:
    """The real thing: :func:`referee.match.play_match` with one BotPool per worker, its
    bots in `sandbox` (default: the default sandbox) with `limits`. A factory for another
    sandbox: ``functools.partial(RefereeRunner, sandbox)`` (picklable)."""

    def __init__(
        self, sandbox: SandboxConfig | None = None, limits: ProcessLimits | None = None
    ) -> None:
        from referee.process import BotPool, ProcessLimits

        self.pool = BotPool(limits or ProcessLimits(), sandbox or SandboxConfig())

    async def run(self, spec: MatchSpec) -> MatchResult:
        from referee.match import play_match

        return await play_match(spec, self.pool)

    async def close(self) -> None:
        await self.pool.close()

    def child_pids(self) -> list[int]:
        return self.pool.pids()


@dataclass(frozen=True)
class MatchOutcome:
    """A match's result, or the error that kept the referee from finishing it."""

    spec: MatchSpec
    result: MatchResult | None  # its replay is moved to `replay_zlib` by the worker
    error: str | None
    started_at: float
    finished_at: float
    replay_zlib: bytes | None = None  # the replay, compressed where the match ran


class MatchWorker:
    """One runner and its event loop: runs matches one after another."""

    def __init__(self, factory: RunnerFactory) -> None:
        self.loop = asyncio.new_event_loop()
        self.runner = factory()

    def run(self, spec: MatchSpec) -> MatchOutcome:
        started = time.time()
        try:
            result = self.loop.run_until_complete(self.runner.run(spec))
        except Exception as error:  # a referee failure: report it, keep the worker
            detail = "".join(traceback.format_exception_only(error)).strip()
            return MatchOutcome(spec, None, detail, started, time.time())
        blob = compress_replay(result.replay)
        return MatchOutcome(spec, replace(result, replay={}), None, started, time.time(), blob)

    def close(self) -> None:
        try:
            self.loop.run_until_complete(self.runner.close())
        finally:
            self.loop.close()

    def kill_children(self) -> None:
        # SIGTERM: a sandboxed bot's watchdog then kills its tree and removes its cgroup
        # and files; an unsandboxed bot's watchdog kills its group once the worker is gone.
        for pid in self.runner.child_pids():
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGTERM)


class Executor(abc.ABC):
    """Runs matches; use as a context manager so workers are started and stopped once."""

    name = "executor"
    workers = 1

    def __enter__(self) -> Executor:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:  # noqa: B027 - optional hook
        """Start workers (called once, before the first :meth:`run`)."""

    @abc.abstractmethod
    def run(self, specs: Sequence[MatchSpec]) -> Iterator[MatchOutcome]:
        """Play every match; yield each outcome as soon as it is known."""

    @abc.abstractmethod
    def close(self) -> None:
        """Stop every worker and everything it started."""


# --- local -------------------------------------------------------------------------------

_worker: MatchWorker | None = None
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Linux: get SIGTERM when the league process dies (even by SIGKILL)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _on_term(signum: int, frame: Any) -> None:
    if _worker is not None:
        _worker.kill_children()
    os._exit(128 + signum)


def _init_local_worker(factory: RunnerFactory, parent: int) -> None:
    global _worker
    _die_with_parent()
    if os.getppid() != parent:  # the league died before we could ask to follow it
        os._exit(1)
    signal.signal(signal.SIGTERM, _on_term)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the league process handles Ctrl-C
    _worker = MatchWorker(factory)
    multiprocessing.util.Finalize(None, _close_local_worker, exitpriority=10)


def _close_local_worker() -> None:
    global _worker
    if _worker is not None:
        worker, _worker = _worker, None
        worker.close()


def _run_in_local_worker(spec: MatchSpec) -> MatchOutcome:
    assert _worker is not None, "worker not initialised"
    return _worker.run(spec)


class LocalExecutor(Executor):
    """Matches in worker processes on this machine (several at once, up to the cores)."""

    name = "local"

    def __init__(self, factory: RunnerFactory = RefereeRunner, workers: int = 0) -> None:
        self.factory = factory
        self.workers = workers or (os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None
        self._inline: MatchWorker | None = None

    def start(self) -> None:
        if self.workers == 1:
            self._inline = MatchWorker(self.factory)
            return
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_init_local_worker,
            initargs=(self.factory, os.getpid()),
        )

    def run(self, specs: Sequence[MatchSpec]) -> Iterator[MatchOutcome]:
        if self._inline is not None:
            for spec in specs:
                yield self._inline.run(spec)
            return
        assert self._pool is not None, "start() the executor first"
        futures: list[Future[MatchOutcome]] = [
            self._pool.submit(_run_in_local_worker, spec) for spec in specs
        ]
        by_future = dict(zip(futures, specs, strict=True))
        try:
            for future in as_completed(futures):
                try:
                    yield future.result()
                except Exception as error:  # a worker died (BrokenProcessPool, ...)
                    now = time.time()
                    detail = f"worker failed: {type(error).__name__}: {error}"
                    yield MatchOutcome(by_future[future], None, detail, now, now)
        finally:
            for future in futures:
                future.cancel()

    def close(self) -> None:
        if self._inline is not None:
            self._inline.close()
            self._inline = None
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


# --- ray ---------------------------------------------------------------------------------


class RayExecutor(Executor):
    """Matches on Ray actors, each with its own runner (its own bot pool).

    ``address``: None starts (or joins) a local Ray instance with ``num_cpus`` CPUs;
    ``"auto"`` or ``"ray://host:port"`` joins a cluster. Ray is initialised here only if
    it is not already, and shut down on close only if this executor started it.
    """

    name = "ray"

    def __init__(
        self,
        factory: RunnerFactory = RefereeRunner,
        workers: int = 0,
        address: str | None = None,
        num_cpus: int | None = None,
    ) -> None:
        self.factory = factory
        self.workers = workers or (os.cpu_count() or 1)
        self.address = address
        self.num_cpus = num_cpus
        self._actors: list[Any] = []
        self._started_ray = False

    def start(self) -> None:
        import ray

        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address:
                kwargs["address"] = self.address
            else:
                kwargs["num_cpus"] = self.num_cpus or self.workers
            ray.init(**kwargs)
            self._started_ray = True
        actor_class = ray.remote(num_cpus=0)(_RayWorker)
        self._actors = [actor_class.remote(self.factory) for _ in range(self.workers)]

    def run(self, specs: Sequence[MatchSpec]) -> Iterator[MatchOutcome]:
        import ray

        queue = list(reversed(specs))
        running: dict[Any, Any] = {}
        idle = list(self._actors)
        while queue or running:
            while queue and idle:
                actor = idle.pop()
                running[actor.run.remote(queue.pop())] = actor
            done, _ = ray.wait(list(running), num_returns=1)
            for ref in done:
                idle.append(running.pop(ref))
                outcome: MatchOutcome = ray.get(ref)
                yield outcome

    def close(self) -> None:
        import ray

        for actor in self._actors:
            with contextlib.suppress(Exception):
                ray.get(actor.close.remote(), timeout=30)
            with contextlib.suppress(Exception):
                ray.kill(actor)
        self._actors = []
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False


class _RayWorker:
    """The body of a Ray actor: a :class:`MatchWorker`."""

    def __init__(self, factory: RunnerFactory) -> None:
        self.worker = MatchWorker(factory)

    def run(self, spec: MatchSpec) -> MatchOutcome:
        return self.worker.run(spec)

    def close(self) -> None:
        self.worker.close()


def make_executor(
    kind: str,
    workers: int,
    factory: RunnerFactory = RefereeRunner,
    address: str | None = None,
) -> Executor:
    """The executor named in a league file or on the command line."""
    if kind == "local":
        return LocalExecutor(factory, workers)
    if kind == "ray":
        return RayExecutor(factory, workers, address)
    raise ValueError(f"unknown executor {kind!r} (local or ray)")
