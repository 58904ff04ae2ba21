"""bullring demo over a store whose bots changed since: it starts afresh, archive and all
(the archive is a folder beside the store, referee/league/archive.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.referee.league.leagues import bullring

pytestmark = pytest.mark.slow
LEAGUE = """
[league]
name = "tinydemo"
seed = 3
seats = 2
games = 1

[[variants]]
id = "6nimmt"
options = { rounds = 1 }

[[bots]]
manifest = "mybot/bot.toml"
name = "a"

[[bots]]
manifest = "mybot/bot.toml"
name = "b"
"""


def test_a_demo_whose_bots_changed_starts_afresh(tmp_path: Path) -> None:
    assert bullring("new-bot", "mybot", cwd=tmp_path).returncode == 0
    league = tmp_path / "tiny.toml"
    league.write_text(LEAGUE)
    run = ("demo", "--out", "d", "--league", str(league), "--no-progress")
    first = bullring(*run, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    archive = tmp_path / "d" / "league.sqlite.bots"
    before = {p.name for p in archive.iterdir()}
    (tmp_path / "mybot" / "notes.txt").write_text("changed, same version\n")
    again = bullring(*run, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "is from another demo league: starting afresh" in again.stderr
    after = {p.name for p in archive.iterdir()}
    assert before - {".staging"} and after - {".staging"}
    assert not (before & after) - {".staging"}  # the old copy went with the old store
