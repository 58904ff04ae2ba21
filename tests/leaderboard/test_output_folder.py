"""`leaderboard build --out` naming a folder that cannot be made is one line and exit 2."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from bullring_cli.app import app


def test_an_out_folder_that_cannot_be_made_is_one_line(store_path: Path, tmp_path: Path) -> None:
    a_file = tmp_path / "a_file"
    a_file.write_text("not a folder\n")
    out = a_file / "site"
    result = CliRunner().invoke(
        app, ["leaderboard", "build", "--store", str(store_path), "--out", str(out)]
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and str(out) in result.stderr
