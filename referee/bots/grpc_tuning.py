"""gRPC's I/O engine, tuned for many small bot processes sharing a few cores.

Since grpcio 1.6x, every socket read and write runs on EventEngine threads, which hand
each event on to the thread that polls the completion queue (the Python server's serving
thread, or the asyncio client's loop). A refereed decision is one small call to one of
many bot processes, so those hand-offs (thread wake-ups and context switches) cost more
than the call's own work. With the EventEngine endpoints turned off, gRPC's poller does
the I/O in the polling thread itself. On the 2-core reference machine a 1,000-match league
of random bots (``python -m benchmarks.league --executor local``) ran in 43.7 s with the
tuning and 64.2 s without (22.9 and 15.6 matches/s); see docs/referee.md.

``GRPC_EXPERIMENTS`` is read once, when grpc is first imported, so :func:`apply` runs when
the ``referee`` package is imported (before any of its modules imports grpc), and the
referee passes the same setting to every bot process it starts (:func:`bot_env`; a
manifest's ``env`` can override it). A ``GRPC_EXPERIMENTS`` of your own always wins, and
the tuning applies only to the grpcio versions it was measured on (``TUNED_VERSIONS``),
whose experiment names are known: an unknown name would only log an error.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from importlib import metadata

VARIABLE = "GRPC_EXPERIMENTS"
EXPERIMENTS = "-event_engine_client,-event_engine_listener,-event_engine_for_all_other_endpoints"
# [from, to): grpcio versions known to have these experiments (measured on 1.85).
TUNED_VERSIONS = ((1, 85), (1, 90))


def grpcio_version() -> tuple[int, int] | None:
    """(major, minor) of the installed grpcio, without importing it; None if unknown."""
    try:
        major, minor = metadata.version("grpcio").split(".")[:2]
        return int(major), int(minor)
    except (metadata.PackageNotFoundError, ValueError):
        return None


def tuned_value(version: tuple[int, int] | None = None) -> str | None:
    """The ``GRPC_EXPERIMENTS`` value for this grpcio (`version`: the installed one), or
    None when it is outside ``TUNED_VERSIONS``."""
    version = grpcio_version() if version is None else version
    low, high = TUNED_VERSIONS
    return EXPERIMENTS if version is not None and low <= version < high else None


def bot_env() -> dict[str, str]:
    """What a bot process gets: the referee's own setting (yours, or the tuning)."""
    value = os.environ.get(VARIABLE, tuned_value())
    return {VARIABLE: value} if value is not None else {}


def apply() -> None:
    """Set the tuning in this process, unless ``GRPC_EXPERIMENTS`` is set already (yours
    wins) or grpc is already imported (too late to take effect)."""
    value = tuned_value()
    if VARIABLE not in os.environ and value is not None and "grpc" not in sys.modules:
        os.environ[VARIABLE] = value


@contextlib.contextmanager
def hidden_from_ray() -> Iterator[None]:
    """``GRPC_EXPERIMENTS`` out of this process's environment while Ray starts (put back
    after). Ray bundles its own, older gRPC core, which reads the same variable when Ray
    starts in this process and in every process Ray starts (its servers, its workers),
    and logs "Unknown experiment: event_engine_for_all_other_endpoints" for a name it does
    not know. Ray's gRPC keeps its defaults; the referee in a Ray worker still gets the
    setting (:func:`apply` on import, or the league's own value passed to the actor)."""
    saved = os.environ.pop(VARIABLE, None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ[VARIABLE] = saved
