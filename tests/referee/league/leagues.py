"""League files for the league tests, written into a test's folder."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

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
