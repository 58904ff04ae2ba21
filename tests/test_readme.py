"""The README's examples run as written: the bot, local play, its manifest and `play`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.DOTALL)


def write_readme_bot(folder: Path) -> Path:
    """The README's three files, where it says to save them (each block's first line):
    my_bot/my_bot.py, my_bot/debug.py and my_bot/bot.toml under `folder`."""
    bot_source, local_example = blocks("python")[:2]
    manifest_text = blocks("toml")[0]
    for text in (bot_source, local_example, manifest_text):
        name = re.match(r"# (my_bot/[\w.]+)\n", text)
        assert name, f"the README does not say where to save:\n{text}"
        (folder / name[1]).parent.mkdir(exist_ok=True)
        (folder / name[1]).write_text(text)
    return folder / "my_bot" / "bot.toml"


def test_the_readme_bot_plays_locally(tmp_path: Path) -> None:
    write_readme_bot(tmp_path)
    command = [sys.executable, "my_bot/debug.py"]  # as the README runs it: from the folder above
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    scores = re.fullmatch(r"\((\d+), (\d+), (\d+)\)\n", done.stdout)
    assert scores, done.stdout


def test_the_readme_bot_plays_a_refereed_match_from_its_manifest(tmp_path: Path) -> None:
    manifest = write_readme_bot(tmp_path)
    for folder in (tmp_path, manifest.parent):  # as a user's folders are: the sandboxed
        folder.chmod(0o755)  # bot's uid reads its own folder
    command = [
        str(Path(sys.executable).parent / "bullring"),
        "play",
        "6nimmt:rounds=1",
        "--bot",
        str(manifest),
        "--bot",
        str(REPO / "example_bots" / "rules_bot"),
        "--seed",
        "7",
    ]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "lowest-card" in done.stdout and "result" in done.stdout
    assert "TIMEOUT" not in done.stdout and "CRASH" not in done.stdout
