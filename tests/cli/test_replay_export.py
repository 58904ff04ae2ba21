"""``bullring replay export SOURCE [MATCH_ID] OUT`` (and its alias ``replay --export``),
through typer's CliRunner: the word ``export`` is a subcommand, any other first argument
is the replay to show; each writes a replay that loads back equal, and mistakes are one
line and exit code 2. (A league match as SOURCE: tests/cli/test_debug_replay.py.)"""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from bullring_cli.app import app
from referee.replay.files import load
from tests.referee.league.leagues import REPO

runner = CliRunner()
FIXTURE = REPO / "tests" / "fixtures" / "replays" / "xnimmt.json.gz"


def test_export_writes_a_replay_file_that_loads_back_equal(tmp_path: Path) -> None:
    out = tmp_path / "copy.json"
    result = runner.invoke(app, ["replay", "export", str(FIXTURE), str(out)])
    assert result.exit_code == 0, result.output
    original = load(FIXTURE)
    assert f"replay of {original.match_id} written to {out}" in result.stdout
    assert load(out).to_json() == original.to_json()
    assert out.read_bytes()[:1] == b"{"  # .json: plain
    packed = tmp_path / "copy.json.gz"
    assert runner.invoke(app, ["replay", "export", str(out), str(packed)]).exit_code == 0
    assert packed.read_bytes()[:2] == b"\x1f\x8b" and load(packed).to_json() == original.to_json()


def test_the_export_option_is_an_alias(tmp_path: Path) -> None:
    out = tmp_path / "alias.json.gz"
    result = runner.invoke(app, ["replay", str(FIXTURE), "--export", str(out)])
    assert result.exit_code == 0, result.output
    assert load(out).to_json() == load(FIXTURE).to_json()


def test_any_other_first_argument_is_the_replay_to_show(tmp_path: Path) -> None:
    shown = runner.invoke(app, ["replay", str(FIXTURE), "--print-all"])
    assert shown.exit_code == 0, shown.output
    assert "result" in shown.stdout
    named = tmp_path / "export"  # a replay file named like the word: given as a path
    shutil.copy(FIXTURE, named)
    opened = runner.invoke(app, ["replay", str(named), "--print-all"])
    assert opened.exit_code == 0, opened.output
    assert "result" in opened.stdout


def test_export_mistakes_are_one_line_and_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    too_many = runner.invoke(app, ["replay", "export", str(FIXTURE), "a", "b", "c"])
    assert too_many.exit_code == 2
    assert "replay export takes SOURCE [MATCH_ID] OUT: 4 arguments given" in too_many.output
    missing = runner.invoke(app, ["replay", "export", str(FIXTURE)])
    assert missing.exit_code == 2 and "Missing argument" in missing.output
    with_id = runner.invoke(app, ["replay", "export", str(FIXTURE), "m-1", str(out)])
    assert with_id.exit_code == 2
    assert "is a replay file: give no match id" in with_id.output and not out.exists()
    no_league = runner.invoke(app, ["replay", "export", str(tmp_path / "none.toml"), "m", str(out)])
    assert no_league.exit_code == 2 and "Traceback" not in no_league.output
    assert not out.exists()


def test_help_names_both_forms() -> None:
    shown = runner.invoke(app, ["replay", "--help"], env={"COLUMNS": "200"})
    assert "bullring replay export SOURCE [MATCH_ID] OUT" in shown.stdout
    export = runner.invoke(app, ["replay", "export", "--help"], env={"COLUMNS": "200"})
    assert export.exit_code == 0
    assert "Usage: bullring replay export [OPTIONS] SOURCE [MATCH_ID] OUT" in export.stdout
