"""``bullring new-bot``: each template passes ``bullring bot check`` as generated, in a
folder outside the checkout (real processes, in the sandbox); bad names and folders in
the way are one-line errors (CliRunner)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bullring_cli.app import app
from bullring_cli.new_bot import TS_BOT

BULLRING = str(Path(sys.executable).with_name("bullring"))
runner = CliRunner()


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=900)


def test_the_python_template_passes_its_own_tests_and_the_check(tmp_path: Path) -> None:
    made = run(BULLRING, "new-bot", "my_bot", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    folder = tmp_path / "my_bot"
    assert sorted(p.name for p in folder.iterdir()) == [
        "README.md",
        "bot.py",
        "bot.toml",
        "test_bot.py",
    ]
    assert "class MyBot(Bot):" in (folder / "bot.py").read_text()
    # Its own tests: a local game and `bullring bot check` (6nimmt, one game).
    tested = run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=folder)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "2 passed" in tested.stdout


@pytest.mark.slow
def test_the_typescript_template_passes_the_check(tmp_path: Path) -> None:
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        pytest.skip("Node.js and npm are needed for the TypeScript template")
    made = run(BULLRING, "new-bot", "ts_one", "--lang", "typescript", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    folder = tmp_path / "ts_one"
    installed = TS_BOT / "node_modules"
    if installed.is_dir():  # the example's packages, as `npm ci` would install them
        shutil.copytree(installed, folder / "node_modules", symlinks=True)
        built = run(
            str(folder / "node_modules" / ".bin" / "tsc"), "-p", "tsconfig.json", cwd=folder
        )
    else:
        built = run(npm, "ci", "--no-audit", "--no-fund", cwd=folder)
    assert built.returncode == 0, built.stdout + built.stderr
    checked = run(BULLRING, "bot", "check", ".", "--games", "1", "--variant", "6nimmt", cwd=folder)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "hello: ts_one 0.1.0" in checked.stdout and "PASS ts_one" in checked.stdout


def test_a_bad_name_or_a_folder_in_the_way_is_one_line(tmp_path: Path) -> None:
    bad = runner.invoke(app, ["new-bot", "My Bot", "--dir", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "bot name 'My Bot'" in bad.stderr
    assert not (tmp_path / "x").exists()
    (tmp_path / "taken").mkdir()
    taken = runner.invoke(app, ["new-bot", "taken", "--dir", str(tmp_path / "taken")])
    assert taken.exit_code == 2 and "already exists" in taken.stderr
    lang = runner.invoke(app, ["new-bot", "ok", "--lang", "rust", "--dir", str(tmp_path / "y")])
    assert lang.exit_code == 2 and "--lang" in lang.stderr
