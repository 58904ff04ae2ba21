"""numpy is an extra: the rules, the SDK, the referee and the leaderboard load without it,
and only the batch simulator needs it, saying so in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NO_NUMPY = "import sys; sys.modules['numpy'] = None  # any import of numpy now fails\n"


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", NO_NUMPY + code], cwd=ROOT, capture_output=True, text=True
    )


def test_the_core_loads_and_plays_without_numpy() -> None:
    out = run(
        "import sdk, sdk.game, sdk.montecarlo, sdk.runtime, referee.match.runner, leaderboard\n"
        "from sdk.game import driver, new_game\n"
        "state = new_game('6nimmt', 3, 1)\n"
        "driver.play(state, lambda ask: 0)\n"
        "print(state.is_terminal())\n"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"


def test_the_batch_simulator_says_how_to_get_numpy() -> None:
    out = run("import sdk.game.sixnimmt.batch\n")
    assert out.returncode != 0
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError:")
    assert "pip install numpy" in last
