"""Shared fixtures: a real tiny league and its site, built once per session.

The league is played by ``bullring league run`` in its own process, as a user would run
it: real bot processes (the example random and rule-based bots, and a bot that answers
with an option that was not offered) over gRPC, the real league runner, SQLite store,
ratings and replays, every game family.
"""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from leaderboard.build import BuildReport, build_site
from tests.referee.league.leagues import REPO, bullring

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
# (variant id, options): every game family; 6 nimmt! and Logic shortened to one round.
VARIANTS = (
    ("6nimmt", "{ rounds = 1 }"),
    ("6nimmt-logic", "{ rounds = 1 }"),
    ("xnimmt", "{}"),
    ("11nimmt", "{}"),
    ("hornochsen", "{}"),
)
GAMES = 4  # per variant
BOTS = (
    REPO / "example_bots" / "random_bot" / "bot.toml",
    REPO / "example_bots" / "rules_bot" / "bot.toml",
    REPO / "tests" / "referee" / "bad_bots" / "illegal.toml",  # ILLEGAL faults, forfeited
    REPO / "tests" / "leaderboard" / "bots" / "random_v2.toml",  # retires random_bot 1.0
)
RETIRED_BOT = "random_bot@1.0"
FAULTY_BOT = "illegal"
# The example bots answer in milliseconds: the clock is roomy enough that a loaded machine
# never makes them time out, while the faulty bot costs nothing (its faults are instant).
LEAGUE_TOML = """
[league]
name = "demo"
seed = 7
format = "random"
seats = 3
games = {games}
parallel = 2
store = "demo.sqlite"

[clock]
decision_ms = 2000
time_bank_ms = 5000
setup_ms = 30000
max_faults = 3
"""


def league_file(folder: Path) -> Path:
    """The demo league's file in `folder` (its store is written beside it)."""
    variants = "".join(f'[[variants]]\nid = "{v}"\noptions = {o}\n\n' for v, o in VARIANTS)
    bots = "".join(f'[[bots]]\nmanifest = "{path}"\n\n' for path in BOTS)
    file = folder / "demo.toml"
    file.write_text(f"{LEAGUE_TOML.format(games=GAMES)}\n{variants}{bots}", encoding="utf-8")
    return file


@pytest.fixture(scope="session")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    file = league_file(tmp_path_factory.mktemp("league"))
    run = bullring("league", "run", str(file), "--no-progress", "--json", cwd=file.parent)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["errors"] == [] and summary["finished"] == GAMES * len(VARIANTS), summary
    return file.parent / "demo.sqlite"


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
