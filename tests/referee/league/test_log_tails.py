"""A league keeps each seat's log tail per match: what the bot printed during that match
only (its process is pooled across matches), at most TAIL_BYTES of it; ``league log``
shows it (control characters escaped), ``league status`` lists the last faults with the
command that shows their log; a store made before the logs table is still read."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from pathlib import Path

import pytest

from referee.bots.log import TAIL_BYTES, LogSink, printable_log
from referee.league.config import load_league
from referee.league.runner import LeagueRunner
from referee.league.store import LeagueStore
from tests.referee.helpers import descendants
from tests.referee.league.leagues import bullring
from tests.referee.league.log_league import GAMES, run_log_league


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The played league's file and the folder of its processes' full logs."""
    folder = tmp_path_factory.mktemp("logs")
    logs = folder / "full-logs"
    return run_log_league(folder, logs), logs


def test_each_match_keeps_what_its_seat_printed_during_it_only(league: tuple[Path, Path]) -> None:
    file, full_logs = league
    with LeagueStore.open_readonly(file.parent / "logs.sqlite") as store:
        matches = store.matches(status="finished")
        assert len(matches) == GAMES
        for match in matches:
            seat = match.seats.index("log_marker@1")
            tails = store.log_tails(match.match_id)
            assert [t.seat for t in tails] == [seat]  # the quiet bot printed nothing
            text = tails[0].data.decode()
            # The process's first match also holds its start-up output (the SDK's line).
            before, _, _ = text.partition(f"marker start {match.match_id} seat {seat}\n")
            assert before == (
                "LISTENING unix:/run/bullring/bot.sock\n" if match is matches[0] else ""
            )
            assert set(re.findall(r"logs-\d+", text)) == {match.match_id}
            assert f"ValueError: marker bug in {match.match_id}" in text  # its traceback
            assert tails[0].total == len(tails[0].data) < TAIL_BYTES
            faults = store.faults(match.match_id)
            assert [(f["seat"], f["kind"]) for f in faults] == [(seat, "EXCEPTION")]
    # One process played every match: its full log holds them all.
    (full,) = full_logs.glob("log_marker-*.log")
    assert full.read_text().count("marker start ") == GAMES
    assert descendants() == []


def test_league_log_shows_a_seats_tail_with_control_characters_escaped(
    league: tuple[Path, Path],
) -> None:
    file, _ = league
    with LeagueStore.open_readonly(file.parent / "logs.sqlite") as store:
        match = store.matches(status="finished")[1]
    seat = match.seats.index("log_marker@1")
    shown = bullring(
        "league", "log", str(file), match.match_id, "--seat", str(seat), cwd=file.parent
    )
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert out.startswith(f"--- seat {seat} log_marker@1: all of ")
    assert f"marker start {match.match_id}" in out
    assert "<script>alert('log')</script>" in out  # as text: a terminal shows it as such
    assert "\\x1b[2J\\x07\\x00" in out
    assert not any(c in out for c in "\x1b\x07\x00")  # nothing a terminal would obey

    data = json.loads(
        bullring("league", "log", str(file), match.match_id, "--json", cwd=file.parent).stdout
    )
    assert [(d["seat"], d["bot"]) for d in data] == [(seat, "log_marker@1")]
    assert data[0]["kept_bytes"] == data[0]["total_bytes"] > 0
    assert "\\x1b[2J" in data[0]["text"] and "\x1b" not in data[0]["text"]

    quiet = bullring(
        "league", "log", str(file), match.match_id, "--seat", str(1 - seat), cwd=file.parent
    )
    assert quiet.returncode == 2 and "no bot log kept for seat" in quiet.stderr
    assert "its bot printed nothing" in quiet.stderr
    missing = bullring("league", "log", str(file), "logs-999999", cwd=file.parent)
    assert missing.returncode == 2 and "holds no match 'logs-999999'" in missing.stderr
    assert "Traceback" not in quiet.stderr + missing.stderr


def test_league_status_lists_the_last_faults_with_the_command_for_their_log(
    league: tuple[Path, Path],
) -> None:
    file, _ = league
    status = bullring("league", "status", str(file), cwd=file.parent)
    assert status.returncode == 0, status.stderr
    with LeagueStore.open_readonly(file.parent / "logs.sqlite") as store:
        last = store.matches(status="finished")[-1]
    seat = last.seats.index("log_marker@1")
    command = f"bullring league log {file} {last.match_id} --seat {seat}"
    assert f"last {GAMES} faults (newest first):" in status.stdout
    assert f"{last.match_id} seat {seat} log_marker@1: EXCEPTION at decision" in status.stdout
    assert f"its log: {command}" in status.stdout
    data = json.loads(bullring("league", "status", str(file), "--json", cwd=file.parent).stdout)
    assert data["recent_faults"][0]["log_command"] == command
    assert len(data["recent_faults"]) == GAMES


def test_a_store_made_before_log_tails_is_read_and_gets_the_table(
    league: tuple[Path, Path], tmp_path: Path
) -> None:
    file, _ = league
    old = tmp_path / "old.sqlite"
    with LeagueStore.open_readonly(file.parent / "logs.sqlite") as store:
        store.db.execute(f"VACUUM INTO '{old}'")
    with sqlite3.connect(old) as db:
        db.execute("DROP TABLE logs")
    with LeagueStore.open_readonly(old) as store:
        match = store.matches()[0].match_id
        assert store.log_tails(match) == [] and store.bot_logs(match) == {}
        assert all(not f["has_log"] for f in store.recent_faults(10))
    status = bullring("league", "status", str(old), cwd=tmp_path)
    assert status.returncode == 0 and "its log:" not in status.stdout, status.stderr
    none = bullring("league", "log", str(old), match, cwd=tmp_path)
    assert none.returncode == 2 and "no bot log kept for" in none.stderr
    assert "no bot printed anything" in none.stderr  # no --seat: not "the bot"
    LeagueStore.open(old).close()  # a writer adds the table
    with sqlite3.connect(old) as db:
        assert db.execute("SELECT COUNT(*) FROM logs").fetchone() == (0,)


def test_the_sink_gives_what_was_printed_between_two_marks_at_most_tail_bytes(
    tmp_path: Path,
) -> None:
    read, write = os.pipe()
    sink = LogSink(os.fdopen(read, "rb"), tmp_path / "bot.log", 1 << 20, None)
    try:
        os.write(write, b"before\n")
        start = sink.mark()
        assert start == 7
        os.write(write, b"during\n")
        end = sink.mark()
        os.write(write, b"after\n")
        assert sink.since(start, end) == (b"during\n", 7)
        big = bytes(range(256)) * 80  # 20 KiB, every byte value
        start = sink.mark()
        os.write(write, big)
        end = sink.mark()
        data, total = sink.since(start, end)
        assert total == len(big) and data == big[-TAIL_BYTES:]
        assert "\x1b" not in printable_log(data) and "\\x1b" in printable_log(data)
    finally:
        os.close(write)
        sink.join(5)
    assert (tmp_path / "bot.log").read_bytes().startswith(b"before\nduring\nafter\n")


def test_league_log_of_a_seat_the_match_lacks_or_an_unplayed_match_says_so(
    league: tuple[Path, Path], tmp_path: Path
) -> None:
    file, _ = league
    beyond = bullring("league", "log", str(file), "logs-000001", "--seat", "2", cwd=file.parent)
    assert beyond.returncode == 2
    assert beyond.stderr.strip().splitlines() == ["error: logs-000001 has seats 0 to 1, not 2"], (
        beyond.stderr
    )
    # A match scheduled, not played yet: nothing printed yet, not "printed nothing".
    unplayed = tmp_path / "logs.toml"
    unplayed.write_text(file.read_text())
    LeagueRunner(load_league(unplayed), store_path=tmp_path / "logs.sqlite").prepare().close()
    shown = bullring("league", "log", str(unplayed), "logs-000001", cwd=tmp_path)
    assert shown.returncode == 2
    assert shown.stderr.strip().splitlines() == [
        "error: logs-000001 has not been played yet; `bullring league run` plays it"
    ], shown.stderr
