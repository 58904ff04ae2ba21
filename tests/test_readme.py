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
    bot_source, _ = blocks("python")[:2]
    (folder / "my_bot.py").write_text(bot_source)
    manifest = folder / "bot.toml"
    manifest.write_text(blocks("toml")[0])
    return manifest


def test_the_readme_bot_plays_locally(tmp_path: Path) -> None:
    write_readme_bot(tmp_path)
    local_example = blocks("python")[1]
    done = subprocess.run(
        [sys.executable, "-c", local_example], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    scores = re.fullmatch(r"\((\d+), (\d+), (\d+)\)\n", done.stdout)
    assert scores, done.stdout


def test_the_readme_bot_plays_a_refereed_match_from_its_manifest(tmp_path: Path) -> None:
    manifest = write_readme_bot(tmp_path)
    tmp_path.chmod(0o755)  # as a user's folder is: the sandboxed bot's uid reads its folder
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
