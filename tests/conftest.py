"""Test-suite wide settings."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "serial: asserts wall-clock deadlines of real work (bots deciding within their clock); "
        "`make test` runs these after the parallel run, alone, so that the other xdist "
        "worker's CPU-bound tests cannot make them late",
    )
