"""Registered bots run from the store's archive: a copy of their folder, tied to its tree
hash (issue 28). The real ``bullring`` in a subprocess, real sandboxed bots, a real store."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from referee.league.archive import archive_path
from referee.league.keyfile import key_path
from referee.league.store import LeagueStore
from tests.referee.league.leagues import bullring, snapshot, write_league

pytestmark = pytest.mark.slow
LEAGUE = """
[league]
name = "arc"
seed = 5
seats = 2
games = 1
parallel = 1
store = "arc.sqlite"

[[variants]]
id = "6nimmt"
options = { rounds = 1 }
"""
RAISES = "        raise RuntimeError('changed after it was registered')\n"


def new_bot(folder: Path) -> Path:
    """`bullring new-bot mybot` in `folder`: its bot.toml."""
    made = bullring("new-bot", "mybot", cwd=folder)
    assert made.returncode == 0, made.stderr
    return folder / "mybot" / "bot.toml"


def break_decide(manifest: Path) -> None:
    """Edit the bot's code so that every decide() raises."""
    code = manifest.parent / "bot.py"
    text = code.read_text()
    assert "        return 0\n" in text
    code.write_text(text.replace("        return 0\n", RAISES, 1))


def one_line_error(done: object) -> str:
    assert getattr(done, "returncode", None) == 2, getattr(done, "stderr", "")
    lines = str(getattr(done, "stderr", "")).strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


def test_a_bot_edited_after_submit_plays_the_code_that_passed_the_check(tmp_path: Path) -> None:
    """The issue's measurement: submit, then make decide() raise, then run the league.
    The league plays the archived copy: no EXCEPTION fault, and the copy is read-only."""
    manifest = new_bot(tmp_path)
    league = write_league(tmp_path, LEAGUE, bots=["a"], name="arc")
    submitted = bullring("bot", "submit", "mybot/bot.toml", "--league", str(league), cwd=tmp_path)
    assert submitted.returncode == 0, submitted.stderr
    break_decide(manifest)
    ran = bullring("league", "run", str(league), "--no-progress", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    store = tmp_path / "arc.sqlite"
    with LeagueStore.open_readonly(store) as db:
        finished, scheduled = db.counts()
        assert finished == scheduled == 1
        assert db.faults() == []
        mybot = next(b for b in db.bots() if b.spec.name == "mybot")
    assert mybot.tree_hash is not None
    copy = archive_path(store) / mybot.tree_hash
    assert Path(str(mybot.spec.manifest)).parent == copy / "mybot"
    assert "raise RuntimeError" not in (copy / "mybot" / "bot.py").read_text()
    assert (copy / "mybot" / "bot.py").stat().st_mode & 0o777 == 0o444
    assert (copy / "mybot").stat().st_mode & 0o777 == 0o555
    assert not any((archive_path(store) / ".staging").iterdir())  # no copy left behind


def test_a_league_file_bot_whose_folder_changed_is_refused_by_its_entry(tmp_path: Path) -> None:
    new_bot(tmp_path)
    body = LEAGUE + '\n[[bots]]\nmanifest = "mybot/bot.toml"\n'
    league = write_league(tmp_path, body, ["a"], name="arc")
    first = bullring("league", "run", str(league), "--no-progress", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    store = tmp_path / "arc.sqlite"
    before = snapshot(store)
    break_decide(tmp_path / "mybot" / "bot.toml")
    (tmp_path / "mybot" / "notes.txt").write_text("new\n")
    line = one_line_error(bullring("league", "run", str(league), "--no-progress", cwd=tmp_path))
    assert line == (
        f"error: {league}: [[bots]] entry 1 (mybot@0.1): its folder changed since it was "
        "registered (bot.py changed, notes.txt added); give the changed bot a new version "
        "in its bot.toml"
    )
    assert snapshot(store) == before


def test_the_same_version_with_other_contents_is_refused_naming_the_files(tmp_path: Path) -> None:
    manifest = new_bot(tmp_path)
    league = write_league(tmp_path, LEAGUE, bots=["a", "b"], name="arc")
    submit = ("bot", "submit", "mybot", "--league", str(league))
    assert bullring(*submit, cwd=tmp_path).returncode == 0
    (manifest.parent / "bot.py").chmod(0o755)
    (manifest.parent / "README.md").unlink()
    line = one_line_error(bullring(*submit, cwd=tmp_path))
    assert line == (
        "error: bot mybot@0.1 is already registered with other contents (README.md removed, "
        "bot.py changed mode); give the changed bot a new version"
    )
    # The same contents again is no change: it is already registered.
    (manifest.parent / "bot.py").chmod(0o644)
    (manifest.parent / "README.md").write_text(
        (Path(str(archive_copy(tmp_path / "arc.sqlite", "mybot@0.1"))) / "README.md").read_text()
    )
    again = bullring(*submit, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "already registered" in again.stdout


def archive_copy(store: Path, key: str) -> Path:
    """The folder of the archived copy of `key`."""
    with LeagueStore.open_readonly(store) as db:
        bot = next(b for b in db.bots() if b.spec.key == key)
    return Path(str(bot.spec.manifest)).parent


def test_an_altered_or_missing_archive_says_so_and_runs_nothing(tmp_path: Path) -> None:
    new_bot(tmp_path)
    league = write_league(tmp_path, LEAGUE, bots=["a"], name="arc")
    submit = ("bot", "submit", "mybot", "--league", str(league))
    assert bullring(*submit, cwd=tmp_path).returncode == 0
    store = tmp_path / "arc.sqlite"
    before = snapshot(store)
    code = archive_copy(store, "mybot@0.1") / "bot.py"
    os.chmod(code.parent, 0o755)
    os.chmod(code, 0o644)
    code.write_text(code.read_text().replace("        return 0\n", RAISES, 1))
    run = ("league", "run", str(league), "--no-progress")
    line = one_line_error(bullring(*run, cwd=tmp_path))
    assert "the archived copy of bot mybot@0.1" in line and "was altered" in line
    assert snapshot(store) == before

    os.chmod(code.parent, 0o755)
    shutil.rmtree(archive_path(store))
    line = one_line_error(bullring(*run, cwd=tmp_path))
    assert "the archived copy of bot" in line and "is missing" in line
    assert "travel together" in line
    assert snapshot(store) == before
    # bot submit, whose check plays the league's bots, refuses too.
    assert "is missing" in one_line_error(bullring(*submit, cwd=tmp_path))


def test_a_store_moved_with_its_key_and_archive_runs_without_the_bot_folders(
    tmp_path: Path,
) -> None:
    old = tmp_path / "old"
    old.mkdir()
    new_bot(old)
    league = write_league(old, LEAGUE, bots=["a", "b"], name="arc")
    assert bullring("league", "run", str(league), "--no-progress", cwd=old).returncode == 0
    submitted = bullring("bot", "submit", "mybot", "--league", str(league), cwd=old)
    assert submitted.returncode == 0, submitted.stderr
    moved = tmp_path / "moved"
    moved.mkdir()
    for name in ("arc.toml", "arc.sqlite"):
        shutil.move(old / name, moved / name)
    store = moved / "arc.sqlite"
    shutil.move(key_path(old / "arc.sqlite"), key_path(store))
    shutil.move(archive_path(old / "arc.sqlite"), archive_path(store))
    shutil.rmtree(old / "mybot")  # the bot's own folder is gone: only its copy is left
    ran = bullring("league", "run", "arc.toml", "--no-progress", cwd=moved)
    assert ran.returncode == 0, ran.stderr
    with LeagueStore.open_readonly(store) as db:
        finished, scheduled = db.counts()
        assert finished == scheduled > 1
        assert db.faults() == []
        assert archive_path(store) in Path(str(archive_copy(store, "mybot@0.1"))).parents
