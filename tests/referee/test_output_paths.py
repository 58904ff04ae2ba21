"""A file or folder the user names for output that cannot be written (its folder missing,
a file where a folder should be) is one line and exit code 2, never a traceback; and
`bullring play` and `league run` say so before they start a bot, so no match is lost."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bullring_cli.app import app
from tests.referee.helpers import BAD_BOTS
from tests.referee.league.leagues import REPO

FIRST = str(BAD_BOTS / "first_option.toml")
REPLAY = REPO / "tests" / "fixtures" / "replays" / "xnimmt.json.gz"
PLAY = ["play", "6nimmt:rounds=1", "--bot", FIRST, "--bot", FIRST, "--no-sandbox", "-q"]


def said_in_one_line(args: list[str], *words: str) -> str:
    """Run `bullring ARGS` in this process; check exit 2 and one line naming `words`."""
    result = CliRunner().invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    for word in words:
        assert word in result.stderr
    return result.stdout


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    file = tmp_path / "a_file"
    file.write_text("not a folder\n")
    return file


def test_play_refuses_a_replay_out_it_cannot_write_before_the_match(tmp_path: Path) -> None:
    out = tmp_path / "missing" / "m.json"
    shown = said_in_one_line([*PLAY, "--replay-out", str(out)], "--replay-out", str(out.parent))
    assert "result" not in shown  # refused before the match, not after it
    said_in_one_line([*PLAY, "--replay-out", str(tmp_path)], "--replay-out", "is a folder")


def test_play_refuses_a_log_dir_that_is_a_file(a_file: Path) -> None:
    said_in_one_line([*PLAY, "--log-dir", str(a_file)], "--log-dir", str(a_file))


def test_replay_export_to_a_missing_folder_is_one_line(tmp_path: Path, a_file: Path) -> None:
    out = tmp_path / "missing" / "x.json"
    said_in_one_line(["replay", "export", str(REPLAY), str(out)], str(out.parent))
    said_in_one_line(["replay", str(REPLAY), "--export", str(a_file / "x.json")], str(a_file))


def test_league_run_refuses_a_log_dir_that_is_a_file_and_writes_nothing(
    tmp_path: Path, a_file: Path
) -> None:
    league = tmp_path / "l.toml"
    league.write_text(
        '[league]\nname = "l"\nseats = 2\n[[variants]]\nid = "6nimmt"\n'
        f'[[bots]]\nmanifest = "{FIRST}"\nname = "a"\n[[bots]]\nmanifest = "{FIRST}"\nname = "b"\n'
        "[sandbox]\nenabled = false\n"
    )
    args = ["league", "run", str(league), "--no-progress", "--log-dir", str(a_file)]
    said_in_one_line(args, "--log-dir", str(a_file))
    assert sorted(tmp_path.iterdir()) == [a_file, league]  # no store, no key


def test_demo_into_a_file_is_one_line(a_file: Path) -> None:
    said_in_one_line(["demo", "--out", str(a_file), "--no-progress"], "--out", "not a folder")
