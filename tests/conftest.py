"""Test-suite wide settings.

Each test's leftover-process checks (``tests.referee.helpers.descendants``, used by the
referee, CLI and packaging tests) see only the processes it started.
A test of the local executor starts worker processes with multiprocessing's spawn
context, and that starts multiprocessing's resource tracker (`python -c "from
multiprocessing.resource_tracker import main; ..."`), a child that lives as long as the
test process does, by design, and exits when it does. A later test in the same xdist
worker must not count it as its own leftover: it once failed six test_match cases.
(So did a CLI test after a referee test had started a local executor in its worker.)
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.referee import helpers


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "serial: asserts wall-clock deadlines of real work (bots deciding within their clock); "
        "`make test` runs these after the parallel run, alone, so that the other xdist "
        "worker's CPU-bound tests cannot make them late",
    )


@pytest.fixture(autouse=True)
def _preexisting_descendants() -> Iterator[None]:
    helpers.PREEXISTING.clear()
    helpers.PREEXISTING.update(helpers.all_descendants(os.getpid()))
    yield
