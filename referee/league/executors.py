"""Executors: run a batch of matches and yield their outcomes as they complete.

An executor owns workers; each worker keeps one :class:`MatchPlayer` (for the referee: a
:class:`~referee.bots.process.BotPool` that starts each bot once) for the whole league, so
bots are not restarted per match. Executors never touch the store: the league runner
records outcomes in the main process, in schedule order for ratings.

* :class:`LocalExecutor`: worker processes on this machine (one match at a time each);
  with one worker it runs matches in the calling process.
* :class:`RayExecutor` (``--executor ray``): one Ray actor per worker, each with its own
  runner, on a local Ray instance or a cluster (``address``). Archived bots reach the
  actors through Ray's object store (:mod:`referee.league.shipping`), not a shared folder.

:meth:`Executor.run` pulls the matches it is given lazily: the next one only when a worker
is free (a match whose worker died goes first), so whoever makes them can decide each
match as late as possible.

A worker's player is made by a :data:`RunnerFactory`, a picklable callable (a module-level
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
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from referee.bots import grpc_tuning
from referee.league.archive import ArchiveError
from referee.league.local_pool import POLL_S, Done, ProcessPool
from referee.league.shipping import (
    ShipmentError,
    TreeCache,
    archived_entry,
    default_cache_root,
    localized,
    pack_tree,
)
from referee.league.store import compress_replay
from referee.replay.digest import packed_digest
from referee.replay.result import MatchResult
from referee.sandbox.config import SandboxConfig
from referee.spec import MatchSpec
from sdk.lifeline import die_with_parent

if TYPE_CHECKING:
    from referee.bots.process import ProcessLimits


class MatchPlayer(Protocol):
    """Plays matches one at a time inside one worker (async: the referee is asyncio).

    Not to be confused with :class:`referee.match.runner.MatchRunner`, which runs one match.
    """

    async def run(self, spec: MatchSpec) -> MatchResult: ...

    async def close(self) -> None: ...

    def child_pids(self) -> list[int]:
        """Processes to kill if the worker is told to die at once (bots it started)."""
        ...


RunnerFactory = Callable[[], MatchPlayer]


class RefereeRunner:
    """The real thing: :func:`referee.match.runner.play_match` with one BotPool per worker, its
    bots in `sandbox` (default: the default sandbox) with `limits`. A factory for another
    sandbox: ``functools.partial(RefereeRunner, sandbox)`` (picklable)."""

    def __init__(
        self, sandbox: SandboxConfig | None = None, limits: ProcessLimits | None = None
    ) -> None:
        # Bot processes and the match runner bring in grpc: imported when a runner is
        # made, so that reading a league (status, the site) does without it.
        from referee.bots.process import BotPool, ProcessLimits

        self.pool = BotPool(limits or ProcessLimits(), sandbox or SandboxConfig())

    async def run(self, spec: MatchSpec) -> MatchResult:
        from referee.match.runner import play_match

        return await play_match(spec, self.pool)

    async def close(self) -> None:
        await self.pool.close()

    def child_pids(self) -> list[int]:
        return self.pool.pids()


@dataclass(frozen=True)
class MatchAttempt:
    """A match's result, or the error that kept the referee from finishing it.

    The league's record of one try at a match (timings, compressed replay); the bots are
    told the scores through :class:`sdk.match.MatchOutcome`, a different thing.
    """

    spec: MatchSpec
    result: MatchResult | None  # its replay is moved to `replay_zlib` by the worker
    error: str | None
    started_at: float
    finished_at: float
    replay_zlib: bytes | None = None  # the replay, compressed where the match ran
    digest_zlib: bytes | None = None  # its digest for viewers (referee/replay/digest.py)


class MatchWorker:
    """One runner and its event loop: runs matches one after another."""

    def __init__(self, factory: RunnerFactory) -> None:
        self.loop = asyncio.new_event_loop()
        self.runner = factory()

    def run(self, spec: MatchSpec) -> MatchAttempt:
        started = time.time()
        try:
            result = self.loop.run_until_complete(self.runner.run(spec))
        except Exception as error:  # a referee failure: report it, keep the worker
            detail = "".join(traceback.format_exception_only(error)).strip()
            return MatchAttempt(spec, None, detail, started, time.time())
        assert result.replay is not None  # a match runner's result holds its replay
        replay = result.replay.to_json()
        blob, digest = compress_replay(replay), packed_digest(replay)
        done = time.time()
        return MatchAttempt(spec, replace(result, replay=None), None, started, done, blob, digest)

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
    deaths: Sequence[str] = ()  # a line for every worker that died mid-match, and what then

    def __enter__(self) -> Executor:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:  # noqa: B027 - optional hook
        """Start workers (called once, before the first :meth:`run`)."""

    @abc.abstractmethod
    def run(self, specs: Iterable[MatchSpec | None]) -> Iterator[MatchAttempt]:
        """Play every match; yield each outcome as soon as it is known.

        `specs` is pulled lazily, the next match only when a worker is free for it, so a
        caller (the ladder) can choose each match as late as possible; a None from it
        means "no match just now, ask again soon"."""

    @abc.abstractmethod
    def close(self) -> None:
        """Stop every worker and everything it started."""


# --- local -------------------------------------------------------------------------------

_worker: MatchWorker | None = None


_PR_SET_NAME = 15
BUSY_TITLE = "bullring-match"  # a worker's name in `ps -o comm` while it plays a match
IDLE_TITLE = "bullring-idle"


def set_title(title: str) -> None:
    """Linux: name this process in ps and /proc/PID/comm, so that an operator (or a test)
    can tell a worker playing a match from an idle one. The main thread is named, from
    whichever thread calls (a Ray actor runs its calls in another thread); threads started
    meanwhile keep their own names."""
    try:
        Path("/proc/self/comm").write_text(title[:15])
    except OSError:
        with contextlib.suppress(OSError, AttributeError):  # not Linux: the calling thread
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_NAME, ctypes.c_char_p(title.encode()[:15]), 0, 0, 0)


def _on_term(signum: int, frame: Any) -> None:
    if _worker is not None:
        _worker.kill_children()
    os._exit(128 + signum)


def _init_local_worker(factory: RunnerFactory, parent: int) -> None:
    global _worker
    # SIGTERM when the league process dies, even by SIGKILL (its handler below kills the
    # match's bots first); an exit at once if the league died before the request.
    die_with_parent(signal.SIGTERM, parent)
    signal.signal(signal.SIGTERM, _on_term)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the league process handles Ctrl-C
    _worker = MatchWorker(factory)
    multiprocessing.util.Finalize(None, _close_local_worker, exitpriority=10)


def _close_local_worker() -> None:
    global _worker
    if _worker is not None:
        worker, _worker = _worker, None
        worker.close()


def _run_in_local_worker(spec: MatchSpec) -> MatchAttempt:
    assert _worker is not None, "worker not initialised"
    return _worker.run(spec)


def _local_worker_main(connection: Connection, factory: RunnerFactory, parent: int) -> None:
    """A local worker process: play each match the league sends, answer its outcome."""
    _init_local_worker(factory, parent)
    try:
        while True:
            try:
                spec = connection.recv()
            except EOFError:  # the league process is gone
                break
            if spec is None:
                break
            set_title(BUSY_TITLE)
            outcome = _run_in_local_worker(spec)
            set_title(IDLE_TITLE)
            connection.send(outcome)
    finally:
        _close_local_worker()


class LocalExecutor(Executor):
    """Matches in worker processes on this machine (several at once, up to the cores).

    A worker that dies mid-match (killed from outside) is replaced, and only the match it
    was playing is affected: it is played again from the start on another worker, and if
    that worker dies too, it is reported as an error (no result, so it stays scheduled).
    Other matches go on. :attr:`deaths` lists every worker death (docs/leagues.md).
    """

    name = "local"
    attempts = 2  # times a match is started before its worker's death is an error

    def __init__(self, factory: RunnerFactory = RefereeRunner, workers: int = 0) -> None:
        self.factory = factory
        self.workers = workers or (os.cpu_count() or 1)
        self._pool: ProcessPool[MatchSpec, MatchAttempt] | None = None
        self._inline: MatchWorker | None = None
        self.deaths: list[str] = []

    def start(self) -> None:
        if self.workers == 1:
            self._inline = MatchWorker(self.factory)
            return
        self._pool = ProcessPool(
            multiprocessing.get_context("spawn"),
            self.workers,
            _local_worker_main,
            (self.factory, os.getpid()),
            self.attempts,
        )

    def run(self, specs: Iterable[MatchSpec | None]) -> Iterator[MatchAttempt]:
        if self._inline is not None:
            for spec in specs:
                if spec is None:
                    time.sleep(POLL_S)
                    continue
                yield self._inline.run(spec)
            return
        pool = self._pool
        assert pool is not None, "start() the executor first"
        seen = len(pool.deaths)
        for ended in pool.run(specs):
            for death in pool.deaths[seen:]:
                self.deaths.append(_death_note(death.task.match_id, death.how, death.retried))
            seen = len(pool.deaths)
            if isinstance(ended, Done):
                yield ended.result
            else:
                now = time.time()
                detail = (
                    f"its worker process died each of the {ended.attempts} times it played it"
                    f" (last {ended.how}); it stays scheduled"
                )
                yield MatchAttempt(ended.task, None, detail, now, now)

    def close(self) -> None:
        if self._inline is not None:
            self._inline.close()
            self._inline = None
        if self._pool is not None:
            self._pool.close()
            self._pool = None


def _death_note(match_id: str, how: str, retried: bool) -> str:
    then = "it is played again" if retried else "it is not played again in this run"
    return f"{match_id}: the worker process playing it died ({how}); {then}"


# --- ray ---------------------------------------------------------------------------------


class RayExecutor(Executor):
    """Matches on Ray actors, each with its own runner (its own bot pool).

    An actor whose process dies mid-match (killed, out of memory, its node lost) is
    replaced by a new actor, and only its match is affected, as on the local executor:
    it is played again once, and reported as an error if its actor dies again.

    Archived bots (a :class:`~referee.spec.BotSpec` with a ``tree_hash``) are shipped,
    never read from a shared folder: the league process packs each tree once
    (:func:`~referee.league.shipping.pack_tree`), puts it in Ray's object store, and sends
    each match with the refs of its bots' trees; an actor unpacks a tree into its node's
    bot cache (`cache`, default :func:`~referee.league.shipping.default_cache_root` on
    the node), checks its tree hash, and plays the match from there. A tree that arrives
    altered is refused: the match is reported as an error naming the bot and both hashes.

    ``address``: None starts a local Ray instance of its own with ``num_cpus`` CPUs, even
    when another is running on this machine (Ray would otherwise join the last one started
    here, another league's or a test's, and refuse the CPU count); ``"auto"`` or
    ``"ray://host:port"`` joins a cluster. Ray is initialised here only if
    it is not already, and shut down on close only if this executor started it.
    """

    name = "ray"
    attempts = 2  # times a match is started before its actor's death is an error

    def __init__(
        self,
        factory: RunnerFactory = RefereeRunner,
        workers: int = 0,
        address: str | None = None,
        num_cpus: int | None = None,
        cache: str | None = None,
    ) -> None:
        self.factory = factory
        self.workers = workers or (os.cpu_count() or 1)
        self.address = address
        self.num_cpus = num_cpus
        self.cache = cache  # each node's bot cache (None: the default there)
        self._actors: list[Any] = []
        self._actor_class: Any = None
        self._started_ray = False
        self._placed = 0  # actors placed so far (they go round the nodes)
        self._shipped: dict[str, Any] = {}  # tree hash -> the ref of its packed tree
        self.deaths: list[str] = []

    def start(self) -> None:
        import ray

        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address:
                kwargs["address"] = self.address
            else:
                kwargs["address"] = "local"  # a new instance, never one already running
                kwargs["num_cpus"] = self.num_cpus or self.workers
            with grpc_tuning.hidden_from_ray():
                ray.init(**kwargs)
            self._started_ray = True
        self._actor_class = ray.remote(num_cpus=0, max_restarts=0)(_RayWorker)
        self._actors = [self._new_actor() for _ in range(self.workers)]

    def _new_actor(self) -> Any:
        """An actor on the next live node in turn: actors ask for no CPU, so Ray itself
        would put them all on the node the league runs on (even with its SPREAD strategy,
        or a soft node affinity, which a loaded node passes on). If that node is gone
        by the time Ray places the actor, its first call fails as a dead actor's would:
        the match is played again on a new actor, on the next live node."""
        import ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        nodes_now: Callable[[], list[dict[str, Any]]] = ray.nodes  # (untyped in Ray)
        nodes = sorted(n["NodeID"] for n in nodes_now() if n.get("Alive"))
        options: dict[str, Any] = {}
        if nodes:
            node = nodes[self._placed % len(nodes)]
            options["scheduling_strategy"] = NodeAffinitySchedulingStrategy(node, soft=False)
        self._placed += 1
        actor_class = self._actor_class.options(**options)
        return actor_class.remote(self.factory, grpc_tuning.bot_env(), self.cache)

    def run(self, specs: Iterable[MatchSpec | None]) -> Iterator[MatchAttempt]:
        """Pull the next match from `specs` only when an actor is idle (a match whose
        actor died goes first), yield each outcome as it comes, and once `specs` is
        exhausted finish the matches in flight. A None from `specs` ("no match just now"):
        wait up to POLL_S for an outcome, then ask again."""
        import ray
        from ray import exceptions

        # RayActorError (the actor's process died, was killed or ran out of memory), or any
        # other Ray failure of the call: MatchWorker.run itself reports every exception.
        lost = exceptions.RayError
        pending = iter(specs)
        more = True  # `pending` may have more
        retries: deque[tuple[MatchSpec, int]] = deque()  # matches whose actor died, tries
        running: dict[Any, tuple[Any, MatchSpec, int]] = {}  # ref -> actor, match, tries
        idle = list(self._actors)
        while True:
            asked_none = False
            while idle and (retries or more) and not asked_none:
                if retries:
                    spec, tries = retries.popleft()
                else:
                    pulled = next(pending, _END)
                    if pulled is _END:
                        more = False
                        break
                    if pulled is None:
                        asked_none = True
                        break
                    assert isinstance(pulled, MatchSpec)
                    spec, tries = pulled, 0
                try:
                    shipments = self._shipments(spec)
                except ShipmentError as error:  # nothing of the match ran
                    now = time.time()
                    yield MatchAttempt(spec, None, str(error), now, now)
                    continue
                actor = idle.pop()
                running[actor.run.remote(spec, shipments)] = (actor, spec, tries + 1)
            if not running:
                if not more and not retries:
                    return
                if asked_none:
                    time.sleep(POLL_S)
                continue
            timeout = POLL_S if asked_none else None
            done, _ = ray.wait(list(running), num_returns=1, timeout=timeout)
            for ref in done:
                actor, spec, tries = running.pop(ref)
                try:
                    outcome: MatchAttempt = ray.get(ref)
                except lost as error:  # the actor's process died (killed, OOM, node lost)
                    idle.append(self._replace(actor))
                    how = str(error).strip().splitlines()[0][:160] if str(error) else ""
                    how = f"{type(error).__name__}: {how}".rstrip(": ")
                    retry = tries < self.attempts
                    self.deaths.append(_death_note(spec.match_id, how, retry))
                    if retry:
                        retries.append((spec, tries))
                    else:
                        now = time.time()
                        detail = (
                            f"its Ray actor died each of the {tries} times it played it"
                            f" (last {how}); it stays scheduled"
                        )
                        yield MatchAttempt(spec, None, detail, now, now)
                    continue
                idle.append(actor)
                yield outcome

    def _shipments(self, spec: MatchSpec) -> dict[str, Any]:
        """The object store refs of the archived trees of `spec`'s bots, by tree hash:
        each tree packed and put there once, the first time a match needs it."""
        import ray
        from ray import exceptions

        refs: dict[str, Any] = {}
        for bot in spec.bots:
            digest = bot.tree_hash
            if digest is None or digest in refs:
                continue
            if digest not in self._shipped:
                try:
                    self._shipped[digest] = ray.put(pack_tree(archived_entry(bot)))
                except (ArchiveError, OSError, exceptions.RayError) as error:
                    raise ShipmentError(
                        f"bot {bot.key}: its archived copy cannot be shipped: {error}"
                    ) from None
            refs[digest] = self._shipped[digest]
        return refs

    def _replace(self, actor: Any) -> Any:
        """A new actor in place of a dead one (the dead one is killed for good)."""
        import ray

        with contextlib.suppress(Exception):
            ray.kill(actor, no_restart=True)
        fresh = self._new_actor()
        self._actors = [fresh if a is actor else a for a in self._actors]
        return fresh

    def close(self) -> None:
        import ray

        for actor in self._actors:
            with contextlib.suppress(Exception):
                ray.get(actor.close.remote(), timeout=30)
            with contextlib.suppress(Exception):
                ray.kill(actor)
        self._actors = []
        self._shipped = {}
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False


class _RayWorker:
    """The body of a Ray actor: a :class:`MatchWorker`, and its node's bot cache
    (`cache`; None: the default there). `grpc_env`: the league process's gRPC setting
    (referee/bots/grpc_tuning.py), set here before the runner imports grpc: Ray starts
    its workers without it."""

    def __init__(
        self, factory: RunnerFactory, grpc_env: dict[str, str], cache: str | None = None
    ) -> None:
        os.environ.update(grpc_env)
        self.worker = MatchWorker(factory)
        self.trees = TreeCache(Path(cache) if cache else default_cache_root())

    def run(self, spec: MatchSpec, shipments: dict[str, Any] | None = None) -> MatchAttempt:
        """Play `spec` with its archived bots run from this node's copies of the trees in
        `shipments` (tree hash -> object ref); a tree that cannot be had here, or is not
        the one registered, is the match's error (nothing of the match runs)."""
        set_title(BUSY_TITLE)
        try:
            try:
                local = self._localized(spec, shipments or {})
            except (ShipmentError, ArchiveError) as error:
                now = time.time()
                return MatchAttempt(spec, None, str(error), now, now)
            return replace(self.worker.run(local), spec=spec)
        finally:
            set_title(IDLE_TITLE)

    def _localized(self, spec: MatchSpec, shipments: dict[str, Any]) -> MatchSpec:
        import ray
        from ray import exceptions

        entries: dict[str, Path] = {}
        for bot in spec.bots:
            digest = bot.tree_hash
            if digest is None or digest in entries:
                continue
            if digest not in shipments:
                raise ShipmentError(f"bot {bot.key}: its archived copy was not shipped")

            def fetch(ref: Any = shipments[digest], key: str = bot.key) -> bytes:
                try:
                    blob: bytes = ray.get(ref)
                except exceptions.RayError as error:
                    first = str(error).strip().splitlines()[:1]
                    raise ShipmentError(
                        f"bot {key}: its shipped copy could not be fetched: "
                        f"{type(error).__name__} {' '.join(first)[:160]}"
                    ) from None
                return blob

            entries[digest] = self.trees.entry(bot, fetch)
        return localized(spec, entries)

    def close(self) -> None:
        self.worker.close()


_END: Any = object()  # what next() gives once the matches are exhausted


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
