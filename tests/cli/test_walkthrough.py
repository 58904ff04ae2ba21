"""A bot author's walk-through, as issue 14 tells it, with the real command in a folder
outside the checkout: new-bot, play against the example bots with the bot's stderr
visible, replay the saved match, debug one of its decisions, then make decide() raise
and see the EXCEPTION fault name the bot's file and line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.referee.helpers import descendants

BULLRING = str(Path(sys.executable).with_name("bullring"))
EXAMPLES = Path(__file__).resolve().parents[2] / "example_bots"


def bullring(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BULLRING, *args], cwd=cwd, capture_output=True, text=True, timeout=600,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "160"},
    )  # fmt: skip


def test_a_bot_authors_day(tmp_path: Path) -> None:
    assert not tmp_path.is_relative_to(EXAMPLES.parent)
    made = bullring("new-bot", "my_bot", cwd=tmp_path)
    assert made.returncode == 0, made.stderr

    match = [
        "play", "6nimmt:rounds=1", "--seed", "3", "--setup-ms", "30000",
        "--bot", "my_bot", "--bot", str(EXAMPLES / "random_bot"),
        "--bot", str(EXAMPLES / "rules_bot"),
    ]  # fmt: skip
    played = bullring(*match, "--replay-out", "m.json.gz", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "[seat 0 my_bot] my_bot: seat 0 of 3 in 6nimmt" in played.stdout  # its stderr
    assert "FAULT" not in played.stdout and "result" in played.stdout

    shown = bullring("replay", "m.json.gz", "--seat", "0", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "view of seat 0" in shown.stdout and "result" in shown.stdout

    debugged = bullring(
        "debug", "m.json.gz", "--seat", "0", "--decision", "1", "--bot", "my_bot/bot.py",
        cwd=tmp_path,
    )  # fmt: skip
    assert debugged.returncode == 0, debugged.stderr
    assert "seat 0 decision 1: recorded " in debugged.stdout
    assert ", MyBot now " in debugged.stdout and "(same)" in debugged.stdout
    assert "my_bot: seat 0 of 3 in 6nimmt" in debugged.stderr  # in-process: its prints too

    code = tmp_path / "my_bot" / "bot.py"
    text = code.read_text()
    assert "        return 0\n" in text
    code.write_text(text.replace("        return 0\n", '        raise ValueError("oops")\n'))
    line = code.read_text().splitlines().index('        raise ValueError("oops")') + 1
    broken = bullring(*match, "-q", cwd=tmp_path)
    assert broken.returncode == 0, broken.stderr
    assert "FAULT seat 0 (my_bot) EXCEPTION at decision" in broken.stdout
    assert "ValueError: oops" in broken.stdout
    assert f'my_bot/bot.py", line {line}, in decide' in broken.stdout
    assert descendants() == []
