"""StopSignals: the bot runtime's wait for SIGTERM or SIGINT, in this (main) thread."""

from __future__ import annotations

import os
import signal
import threading

from sdk.stop_signals import StopSignals


def test_a_signal_sent_before_wait_is_not_missed() -> None:
    with StopSignals() as signals:
        os.kill(os.getpid(), signal.SIGTERM)  # the process survives: the handler is ours
        assert signals.wait() == signal.SIGTERM


def test_wait_returns_the_stop_signal_and_not_another_handled_one() -> None:
    seen: list[int] = []
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: seen.append(signum))
    try:
        with StopSignals() as signals:
            os.kill(os.getpid(), signal.SIGUSR1)
            os.kill(os.getpid(), signal.SIGINT)
            assert signals.wait() == signal.SIGINT
        assert seen == [signal.SIGUSR1]
    finally:
        signal.signal(signal.SIGUSR1, previous)


def test_a_signal_from_another_thread_wakes_the_waiting_main_thread() -> None:
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGTERM))
    with StopSignals() as signals:
        timer.start()
        assert signals.wait() == signal.SIGTERM
    timer.join()


def test_leaving_restores_the_handlers_and_the_wakeup_fd() -> None:
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    with StopSignals():
        assert signal.getsignal(signal.SIGTERM) is not before[signal.SIGTERM]
    assert {sig: signal.getsignal(sig) for sig in before} == before
    assert signal.set_wakeup_fd(-1) == -1  # none left behind
