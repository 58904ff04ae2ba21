"""A pool of worker processes that survives the death of any of them.

``concurrent.futures.ProcessPoolExecutor`` treats a worker killed from outside (SIGKILL
by the OOM killer, an operator or a hostile bot) as a broken pool: every other running
and queued task fails with it, and the pool can run nothing more. This pool instead
knows which task each worker holds, so when a worker dies:

* the task it was running (only that one) is run again on a fresh worker, up to
  ``attempts`` times in all, and after that reported as :class:`Died`;
* a new worker replaces the dead one, and every other task goes on untouched.

A worker is a ``multiprocessing`` process running ``main(connection, *args)``: it
receives a task with ``connection.recv()``, answers it with ``connection.send(result)``,
and stops when it receives None. A task that never got its answer was not finished, so
running it again cannot count it twice.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import wait
from multiprocessing.context import SpawnContext, SpawnProcess
from typing import Any, Generic, TypeVar

from sdk.errors import BullringError

Task = TypeVar("Task")
Result = TypeVar("Result")

STOP_GRACE_S = 10.0  # a stopped worker's time to close its bots before SIGKILL
POLL_S = 0.25  # how soon a pool asks again after its tasks said "nothing just now"


@dataclass(frozen=True)
class Done(Generic[Task, Result]):
    """A task and the result its worker sent."""

    task: Task
    result: Result


@dataclass(frozen=True)
class Died(Generic[Task]):
    """A task whose worker died every time it ran it (``how``: the last death)."""

    task: Task
    how: str
    attempts: int


@dataclass(frozen=True)
class Death(Generic[Task]):
    """A worker that died while running `task` (kept as the pool's record)."""

    task: Task
    how: str
    retried: bool


def exit_text(code: int | None) -> str:
    """How a process ended: "killed by SIGKILL", "exited with code 1"."""
    if code is None:
        return "still running"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
        return f"killed by signal {-code}"
    return f"exited with code {code}"


class PoolError(BullringError, RuntimeError):
    """The pool cannot run tasks at all (its workers die as soon as they start)."""


def _worker_entry(main: Callable[..., None], *args: Any) -> None:
    """A worker: Ctrl-C is the parent's to handle (it stops every worker), so SIGINT
    stays ignored, as it was from the worker's start (see :class:`_Worker`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    main(*args)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored meanwhile (main thread only: elsewhere Python cannot change it)."""
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


class _Worker:
    """One worker process and the task it holds (None: idle).

    The process starts with SIGINT ignored (an ignored signal stays ignored across exec,
    and Python then leaves it so), so a Ctrl-C while it imports its modules does not
    print its KeyboardInterrupt traceback and kill it. The parent ignores SIGINT only
    for the few milliseconds it takes to start the process (a Ctrl-C in them is lost:
    signal masks do not reach a spawned worker, dispositions do)."""

    def __init__(self, context: SpawnContext, main: Callable[..., None], args: tuple[Any, ...]):
        self.connection, theirs = context.Pipe(duplex=True)
        self.process: SpawnProcess = context.Process(
            target=_worker_entry, args=(main, theirs, *args), daemon=True, name="bullring-worker"
        )
        with _sigint_ignored():
            self.process.start()
        theirs.close()
        self.task: Any = None  # the task it holds (None: idle)
        self.tries = 0  # the times that task has been started, this one included
        self.exitcode: int | None = None  # once reaped

    @property
    def busy(self) -> bool:
        return self.task is not None

    def stop(self) -> None:
        """Ask an idle worker to finish; SIGTERM a busy one (it then kills its bots)."""
        if self.busy:
            self.process.terminate()
        else:
            with contextlib.suppress(OSError, ValueError):
                self.connection.send(None)

    def reap(self, timeout: float) -> None:
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.exitcode = self.process.exitcode
        self.connection.close()
        self.process.close()


class ProcessPool(Generic[Task, Result]):
    """`size` worker processes running `main`; see the module docstring."""

    def __init__(
        self,
        context: SpawnContext,
        size: int,
        main: Callable[..., None],
        args: tuple[Any, ...] = (),
        attempts: int = 2,
    ) -> None:
        self.context = context
        self.size = size
        self.main = main
        self.args = args
        self.attempts = attempts
        self.workers: list[_Worker] = []
        self.deaths: list[Death[Task]] = []  # every worker that died holding a task
        self._idle_deaths = 0  # workers dead before their first task, since the last result

    def _spawn(self) -> _Worker:
        return _Worker(self.context, self.main, self.args)

    def _fill(self) -> None:
        """Replace workers that died while idle, and start missing ones (PoolError if
        workers keep dying before they could take any task: they cannot start)."""
        for worker in [w for w in self.workers if not w.busy and not w.process.is_alive()]:
            self.workers.remove(worker)
            worker.reap(0)
            self._idle_deaths += 1
            if self._idle_deaths > 2 * self.size + 2:
                raise PoolError(
                    f"worker processes die as soon as they start ({exit_text(worker.exitcode)})"
                )
        while len(self.workers) < self.size:
            self.workers.append(self._spawn())

    def run(self, tasks: Iterable[Task | None]) -> Iterator[Done[Task, Result] | Died[Task]]:
        """Run every task; yield each as it ends (Done, or Died after `attempts`).

        `tasks` is pulled lazily: the next task is taken only when a worker is free for
        it (a task to run again after its worker died goes first), so a caller can decide
        each task as late as possible. A None from `tasks` means "nothing to run just
        now": the pool waits up to POLL_S for an outcome, then asks again.
        """
        feed = iter(tasks)
        fed_all = False
        again: deque[tuple[Task, int]] = deque()  # tasks to run again, with their tries
        try:
            while True:
                self._fill()
                asked_none = False
                for worker in self.workers:
                    if worker.busy:
                        continue
                    if again:
                        task, tries = again.popleft()
                    elif fed_all or asked_none:
                        break
                    else:
                        item = next(feed, _END)
                        if item is _END:
                            fed_all = True
                            break
                        if item is None:
                            asked_none = True
                            break
                        task, tries = item, 0
                    try:
                        worker.connection.send(task)
                    except OSError:  # died since _fill: it never had the task
                        again.appendleft((task, tries))
                        break
                    worker.task = task
                    worker.tries = tries + 1
                busy = [w for w in self.workers if w.busy]
                if not busy:
                    if fed_all and not again:
                        return
                    if asked_none:
                        time.sleep(POLL_S)
                    continue
                ready = set(
                    wait(
                        [w.connection for w in busy] + [w.process.sentinel for w in busy],
                        POLL_S if asked_none else None,
                    )
                )
                for worker in busy:
                    if worker.connection not in ready and worker.process.sentinel not in ready:
                        continue
                    held, tries = worker.task, worker.tries
                    assert held is not None
                    result = self._receive(worker)
                    if result is not _NOTHING:
                        worker.task = None
                        self._idle_deaths = 0
                        yield Done(held, result)
                        continue
                    ended = self._bury(worker)
                    retry = tries < self.attempts
                    self.deaths.append(Death(held, ended, retry))
                    if retry:
                        again.appendleft((held, tries))  # first in line for a free worker
                    else:
                        yield Died(held, ended, tries)
        except KeyboardInterrupt:  # Ctrl-C: every worker goes at once, idle ones too
            self._stop_now([w for w in self.workers if w.process.is_alive()])
            raise
        finally:
            self._stop_now([w for w in self.workers if w.busy])  # abandoned mid-run

    def held(self) -> list[Task]:
        """The tasks the workers hold now (in flight)."""
        return [w.task for w in self.workers if w.task is not None]

    def _stop_now(self, workers: list[_Worker]) -> None:
        """SIGTERM `workers` (each kills its bots and exits), then reap them all."""
        for worker in workers:
            self.workers.remove(worker)
            worker.process.terminate()
        for worker in workers:
            worker.reap(STOP_GRACE_S)

    def _receive(self, worker: _Worker) -> Any:
        """The worker's answer, or _NOTHING if it died before sending one whole."""
        try:
            if worker.connection.poll():
                return worker.connection.recv()
        except (EOFError, OSError):
            return _NOTHING
        except Exception:  # a half-written answer that does not unpickle
            return _NOTHING
        return _NOTHING

    def _bury(self, worker: _Worker) -> str:
        """Remove a dead worker (its replacement starts on the next round); how it died."""
        self.workers.remove(worker)
        worker.process.join(STOP_GRACE_S)
        if worker.process.is_alive():  # its pipe broke but it lives on: make sure
            worker.process.kill()
            worker.process.join()
        ended = exit_text(worker.process.exitcode)
        worker.connection.close()
        worker.process.close()
        return ended

    def close(self) -> None:
        """Stop every worker (busy ones at once) and wait for them."""
        workers, self.workers = self.workers, []
        for worker in workers:
            worker.stop()
        for worker in workers:
            worker.reap(STOP_GRACE_S)


class _Nothing:
    """No answer was received (the worker died first)."""


_NOTHING: Any = _Nothing()


_END: Any = _Nothing()
"""The end of the tasks."""
