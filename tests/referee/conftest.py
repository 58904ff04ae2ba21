"""Referee tests: each test's leftover-process checks see only the processes it started.

A test of the local executor starts worker processes with multiprocessing's spawn
context, and that starts multiprocessing's resource tracker (`python -c "from
multiprocessing.resource_tracker import main; ..."`), a child that lives as long as the
test process does, by design, and exits when it does. A later test in the same xdist
worker must not count it as its own leftover: it once failed six test_match cases."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.referee import helpers


@pytest.fixture(autouse=True)
def _preexisting_descendants() -> Iterator[None]:
    helpers.PREEXISTING.clear()
    helpers.PREEXISTING.update(helpers.all_descendants(os.getpid()))
    yield
