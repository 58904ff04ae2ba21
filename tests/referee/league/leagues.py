"""League files for the league tests, written into a test's folder."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from referee.league.archive import archive_path
from referee.league.keyfile import key_path
from referee.league.store import LeagueStore

REPO = Path(__file__).resolve().parents[3]
FIRST_OPTION = REPO / "tests" / "referee" / "bad_bots" / "first_option.toml"


def bots_toml(names: list[str], manifest: Path = FIRST_OPTION) -> str:
    """[[bots]] entries: the same deterministic bot under several names."""
    return "".join(f'[[bots]]\nmanifest = "{manifest}"\nname = "{n}"\n\n' for n in names)


def write_league(folder: Path, body: str, bots: list[str] | None = None, name: str = "t") -> Path:
    """A league file `name`.toml in `folder` with `body` and the given bots."""
    file = folder / f"{name}.toml"
    file.write_text(body + "\n" + bots_toml(bots if bots is not None else ["a", "b", "c", "d"]))
    return file


def two_bot_league(folder: Path, name: str, games: int = 2, store: str = "") -> Path:
    """The smallest real league a CLI test runs: bots a and b in a 2-seat 6 nimmt!
    ``rounds=1``, `games` games (seed 5), its store `store` (default ``name``.sqlite)."""
    body = (
        f'[league]\nname = "{name}"\nseed = 5\nseats = 2\ngames = {games}\n'
        f'store = "{store or name + ".sqlite"}"\n\n'
        '[[variants]]\nid = "6nimmt"\noptions = { rounds = 1 }\n'
    )
    return write_league(folder, body, bots=["a", "b"])


# Run a command with SIGINT at its default and unblocked, as a terminal's foreground job
# gets it: a disposition of SIG_IGN and a blocked mask are inherited across exec, and the
# test process (a pytest worker that other tests ran in) must not pass either on.
AS_FROM_A_TERMINAL = (
    "import os, signal, sys;"
    "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT});"
    "signal.signal(signal.SIGINT, signal.SIG_DFL);"
    "os.execv(sys.argv[1], sys.argv[1:])"
)


def start_as_from_a_terminal(argv: list[str], cwd: Path) -> subprocess.Popen[str]:
    """Start `argv` in a process group of its own, as a terminal starts a foreground job
    (see AS_FROM_A_TERMINAL), its output captured."""
    return subprocess.Popen(
        [sys.executable, "-c", AS_FROM_A_TERMINAL, *argv],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


SMALL = """
[league]
name = "small"
seed = 11
seats = 3
games = 3
parallel = 2
store = "small.sqlite"

[clock]
decision_ms = 5000
setup_ms = 20000

[[variants]]
id = "6nimmt"
options = { rounds = 1 }

[[variants]]
id = "xnimmt"
seats = 2
games = 1
format = "duplicate"
"""


def bullring_argv(*args: str) -> list[str]:
    """The argv of the installed ``bullring`` console script."""
    return [str(Path(sys.executable).with_name("bullring")), *args]


def bullring(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``bullring ARGS`` to the end."""
    return subprocess.run(
        bullring_argv(*args), cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


def share_key(source: Path, target: Path) -> None:
    """Give the league store `target` (not created yet) the key of the store `source`:
    the same league file and key deal the same matches (referee/league/keyfile.py)."""
    shutil.copy2(key_path(source), key_path(target))


def share_archive(source: Path, target: Path) -> None:
    """Give the league store `target` a copy of the bot archive of the store `source`
    (a store copied without its archive runs none of its bots: docs/store.md)."""
    shutil.copytree(archive_path(source), archive_path(target), symlinks=True)


def snapshot(store: Path) -> dict[str, list[tuple[object, ...]]]:
    with LeagueStore.open_readonly(store) as db:
        return {
            "matches": db.db.execute(
                "SELECT seq, match_id, slot, seed, seats, status FROM matches ORDER BY seq"
            ).fetchall(),
            "results": db.db.execute(
                "SELECT match_id, seat, bot, score, rank FROM results ORDER BY match_id, seat"
            ).fetchall(),
            "ratings": db.db.execute(
                "SELECT variant, seq, bot, mu, sigma FROM ratings ORDER BY variant, seq, bot"
            ).fetchall(),
            "replays": db.db.execute("SELECT match_id FROM replays ORDER BY match_id").fetchall(),
        }
