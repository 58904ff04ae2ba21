"""Referee tests: each test's leftover-process checks see only the processes it started."""

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
