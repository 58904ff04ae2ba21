"""Shared fixtures: a real tiny league (synthetic bots, real runner and store) and its site."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from leaderboard.build import BuildReport, build_site
from leaderboard.synthetic import run_synthetic_league, synthetic_config

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VARIANTS = (
    ("6nimmt", "rounds=1", 4),
    ("6nimmt-logic", "rounds=1", 3),
    ("xnimmt", "", 3),
    ("11nimmt", "", 3),
    ("hornochsen", "", 3),
)


@pytest.fixture(scope="session")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("league") / "league.sqlite"
    config = synthetic_config(path, name="demo", variants=VARIANTS, games=6, seed=7)
    summary = run_synthetic_league(config)
    assert summary.errors == [] and summary.finished == 6 * len(VARIANTS)
    return path


@pytest.fixture(scope="session")
def built(store_path: Path, tmp_path_factory: pytest.TempPathFactory) -> BuildReport:
    return build_site(store_path, tmp_path_factory.mktemp("site") / "site")


@pytest.fixture(scope="session")
def site_dir(built: BuildReport) -> Path:
    return built.out_dir


@pytest.fixture(scope="module")
def http_root(site_dir: Path) -> Iterator[str]:
    """The site served by a threaded in-process HTTP server on a free port."""
    handler = functools.partial(QuietHandler, directory=str(site_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass
