"""A bot script that ends without serving (its `run(MyBot)` line forgotten) exits with
code 0 and prints nothing: the one-line refusal says what is missing."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from bullring_cli.app import app
from tests.referee.helpers import BAD_BOTS

BOT = """from sdk import Bot


class Forgetful(Bot):
    name = "forgetful"
    version = "1"

    def decide(self, view, options, clock):
        return 0
"""


def play_against_a_good_bot(folder: Path, name: str, script: str, *more: str) -> Result:
    """`bullring play` of the bot `script` (saved as `folder`/bot.py) against a good one,
    with the options `more`."""
    (folder / "bot.py").write_text(script)
    (folder / "bot.toml").write_text(
        f'name = "{name}"\nversion = "1"\ncommand = ["{{python}}", "bot.py"]\n'
    )
    other = str(BAD_BOTS / "first_option.toml")
    args = ["play", "6nimmt:rounds=1", "--bot", str(folder), "--bot", other, "--no-sandbox", *more]
    return CliRunner().invoke(app, args)


def test_a_bot_that_never_calls_run_is_told_to(tmp_path: Path) -> None:
    result = play_against_a_good_bot(tmp_path, "forgetful", BOT)
    assert result.exit_code == 2, result.output
    assert "exited with code 0 before listening" in result.stderr
    assert 'if __name__ == "__main__": run(' in result.stderr
    assert "Traceback" not in result.output


NODE_LIKE = """import sys

sys.stderr.write(
    "node:internal/modules/cjs/loader:1210\\n  throw err;\\n  ^\\n\\n"
    "Error: Cannot find module '/bots/ts/dist/bot.js'\\n"
    "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15) {\\n"
    "  code: 'MODULE_NOT_FOUND',\\n  requireStack: []\\n}\\n\\nNode.js v20.20.2\\n"
)
sys.exit(1)
"""


def test_a_start_up_crash_is_summed_up_by_its_error_line_not_a_version_line(
    tmp_path: Path,
) -> None:
    """Node.js ends a crash's output with its version: the one line names the error (a
    TypeScript bot run before `npm ci`); the whole output is shown live above it, or quoted
    below it with --quiet-bots."""
    error = "before listening: Error: Cannot find module '/bots/ts/dist/bot.js'"
    result = play_against_a_good_bot(tmp_path, "nodeish", NODE_LIKE)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [
        f"error: nodeish@1 is not ready: CRASH: process exited with code 1 {error}"
        " (its output is above)"
    ]
    assert "[nodeish] Node.js v20.20.2" in result.stdout.splitlines()  # shown live
    quiet = play_against_a_good_bot(tmp_path, "nodeish", NODE_LIKE, "--quiet-bots")
    assert quiet.exit_code == 2, quiet.output
    assert quiet.stderr.strip().splitlines()[0].endswith(error)
    assert "| Node.js v20.20.2" in quiet.stderr  # quoted, below
