"""``bullring replay`` and ``bullring debug`` on a recorded league match (a real league of
real bot processes, its store in SQLite): the replay prints from the league file or its
store, exports to a file, and ``debug`` re-decides the seat's decisions in-process: the
same deterministic bot chooses as recorded, another one is told where it differs."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bullring_cli.app import app
from referee.league.store import LeagueStore
from referee.replay.files import load
from tests.referee.league.leagues import bullring
from tests.referee.test_cli import GOOD

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "example_bots" / "rules_bot"
CHATTY = REPO / "tests" / "referee" / "bad_bots" / "chatty.py"

LEAGUE = f"""
[league]
name = "dbg"
seed = 5
seats = 3
games = 1
parallel = 1
store = "dbg.sqlite"

[clock]
decision_ms = 5000
setup_ms = 30000

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

[[bots]]
manifest = "{RULES / "bot.toml"}"
name = "r1"

[[bots]]
manifest = "{RULES / "bot.toml"}"
name = "r2"

[[bots]]
manifest = "{GOOD}"
"""


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The league file of a played league, and the id of one of its matches."""
    folder = tmp_path_factory.mktemp("dbg")
    file = folder / "dbg.toml"
    file.write_text(LEAGUE)
    ran = bullring("league", "run", str(file), "--no-progress", cwd=folder)
    assert ran.returncode == 0, ran.stderr
    with LeagueStore.open_readonly(folder / "dbg.sqlite") as db:
        match_id = db.matches(status="finished")[0].match_id
    return file, match_id


def test_replay_reads_a_league_match_and_exports_it(league: tuple[Path, str]) -> None:
    file, match_id = league
    for source in (file, file.with_suffix(".sqlite")):
        shown = bullring("replay", str(source), match_id, "--seat", "0", cwd=file.parent)
        assert shown.returncode == 0, shown.stderr
        assert "view of seat 0" in shown.stdout and "result" in shown.stdout
    out = file.parent / "m.json.gz"
    exported = bullring("replay", str(file), match_id, "--export", str(out), cwd=file.parent)
    assert exported.returncode == 0, exported.stderr
    assert load(out).match_id == match_id
    sub = file.parent / "sub.json"
    word = bullring("replay", "export", str(file), match_id, str(sub), cwd=file.parent)
    assert word.returncode == 0, word.stderr
    assert load(sub).to_json() == load(out).to_json()
    missing = bullring("replay", str(file), "dbg-999999", cwd=file.parent)
    assert missing.returncode == 2 and "no finished match 'dbg-999999'" in missing.stderr


def seat_of(file: Path, match_id: str, name: str) -> int:
    with LeagueStore.open_readonly(file.with_suffix(".sqlite")) as db:
        replay = db.replay(match_id)
    assert replay is not None
    return [b["name"] for b in replay["bots"]].index(name)


def test_debug_redecides_a_league_decision(league: tuple[Path, str]) -> None:
    file, match_id = league
    seat = seat_of(file, match_id, "r1")
    bot = f"{RULES / 'bot.py'}:RulesBot"
    one = bullring(
        "debug", str(file), match_id, "--seat", str(seat), "--decision", "2", "--bot", bot,
        cwd=file.parent,
    )  # fmt: skip
    assert one.returncode == 0, one.stderr
    assert f"{match_id} seat {seat} decision 2: recorded card " in one.stdout
    assert "(same)" in one.stdout
    every = bullring(
        "debug", str(file), match_id, "--seat", str(seat), "--all", "--bot", bot, cwd=file.parent
    )
    assert every.returncode == 0, every.stderr
    assert " 0 of " in every.stdout  # the same deterministic bot: every choice as recorded
    other = bullring(
        "debug", str(file), match_id, "--seat", str(seat), "--all", "--bot", str(CHATTY),
        cwd=file.parent,
    )  # fmt: skip
    assert other.returncode == 0, other.stderr
    differ = [line for line in other.stdout.splitlines() if line.startswith("  decision ")]
    assert differ, other.stdout  # always the first option: not what the rules bot chose
    assert all(", now card " in line or ", now take row " in line for line in differ)


def test_debug_user_errors_are_one_line(league: tuple[Path, str]) -> None:
    file, match_id = league
    for args, message in [
        (["--seat", "7", "--bot", str(CHATTY)], "--seat 7"),
        (["--bot", "/nonexistent/bot.py"], "no such file"),
        (["--decision", "999", "--bot", f"{RULES / 'bot.py'}:RulesBot"], "'s decisions are 0.."),
    ]:
        failed = bullring("debug", str(file), match_id, *args, cwd=file.parent)
        assert failed.returncode == 2, failed.stdout
        assert message in failed.stderr and "Traceback" not in failed.stderr
        assert len(failed.stderr.strip().splitlines()) == 1


def test_debug_notes_a_bot_other_than_the_one_that_played_the_seat() -> None:
    fixture = REPO / "tests" / "fixtures" / "replays" / "xnimmt.json.gz"  # rules, random, rules
    args = ["debug", str(fixture), "--seat", "1", "--all", "--bot", str(RULES)]
    other = CliRunner().invoke(app, args)
    assert other.exit_code == 0, other.output
    assert " 0 of " not in other.stdout  # it chose otherwise: a note says whose seat it was
    assert "note: seat 1 was played by random_bot; RulesBot is rules_bot" in other.stderr
    same = CliRunner().invoke(app, ["debug", str(fixture), "--seat", "0", "--bot", str(RULES)])
    assert same.exit_code == 0, same.output
    assert "note:" not in same.stderr and "(same)" in same.stdout
