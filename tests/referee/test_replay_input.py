"""Malformed replay files: ReplayError (one line, exit 2) for every kind of damage, and a
decompression that stops at the cap however small the file."""

from __future__ import annotations

import asyncio
import copy
import gzip
import json
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.decompress import DecompressError, inflate
from referee.limits import MAX_REPLAY_BYTES
from referee.match.runner import play_match
from referee.replay import files as replay
from referee.replay.model import Replay, ReplayError
from referee.replay.resimulate import verify
from referee.spec import MatchSpec
from tests.referee.helpers import ROOMY_CLOCK, bot_named
from tests.referee.league.leagues import REPO, bullring_argv

Json = dict[str, Any]


@pytest.fixture(scope="module")
def good() -> Json:
    """A real replay of a short match."""
    bot = bot_named("first_option")
    spec = MatchSpec("m-1", "6nimmt", {"rounds": "1"}, 7, (bot, bot, bot), ROOMY_CLOCK)
    result = asyncio.run(play_match(spec))
    return result.recorded_replay().to_json()


def mutate(change: Callable[[Json], object]) -> Callable[[Json], Json]:
    def apply(data: Json) -> Json:
        copied = copy.deepcopy(data)
        change(copied)
        return copied

    return apply


LONG_DETAIL = {"seat": 0, "kind": "CRASH", "decision": -1, "detail": "x" * 100_000}
LIST_TRACE = {"seat": 0, "kind": "CRASH", "decision": -1, "detail": "x", "traceback": ["x"]}
# (what is wrong, how to make it, what the error says)
DAMAGE: list[tuple[str, Callable[[Json], object], str]] = [
    ("no decisions", mutate(lambda d: d.pop("decisions")), "decisions: missing"),
    ("no result", mutate(lambda d: d.pop("result")), "result: missing"),
    ("players text", mutate(lambda d: d.update(players="3")), "players: must be a whole"),
    ("players huge", mutate(lambda d: d.update(players=10**9)), "players: 1000000000 is out"),
    ("bots short", mutate(lambda d: d["bots"].pop()), "bots: must hold 3"),
    ("choice text", mutate(lambda d: d["decisions"][2].update(choice="0")), "decisions[2].choice"),
    ("choice past", mutate(lambda d: d["decisions"][2].update(choice=99)), "decisions[2].choice"),
    ("seat past", mutate(lambda d: d["decisions"][0].update(seat=7)), "decisions[0].seat"),
    ("no options", mutate(lambda d: d["decisions"][0].update(options=[])), "at least one"),
    ("option text", mutate(lambda d: d["decisions"][0]["options"].__setitem__(0, "x")), "options"),
    ("option kind", mutate(lambda d: d["decisions"][0]["options"].__setitem__(0, [99])), "differ"),
    ("ms text", mutate(lambda d: d["decisions"][0].update(ms="fast")), "decisions[0].ms"),
    ("auto text", mutate(lambda d: d["decisions"][0].update(auto="no")), "decisions[0].auto"),
    ("n wrong", mutate(lambda d: d["decisions"][1].update(n=5)), "decisions[1].n"),
    ("fault kind", mutate(lambda d: d["setup_faults"].append({"seat": 0, "kind": "X"})), "setup"),
    ("history ref", mutate(lambda d: d["histories"].__setitem__(0, 2)), "histories[0]"),
    ("scores text", mutate(lambda d: d["result"].update(scores="1,2,3")), "result.scores"),
    ("forfeited", mutate(lambda d: d["result"].update(forfeited=[0, 0, 0])), "forfeited"),
    ("snapshot list", mutate(lambda d: d["snapshots"].__setitem__(1, [1])), "snapshots[1]"),
    ("snapshot keys", mutate(lambda d: d["snapshots"].__setitem__(1, {"x": 1})), "differs"),
    ("snapshot count", mutate(lambda d: d["snapshots"].pop()), "snapshots:"),
    ("variant", mutate(lambda d: d.update(variant="7nimmt")), "unknown variant"),
    ("options", mutate(lambda d: d["options"].update(rounds="x")), "whole number"),
    ("options type", mutate(lambda d: d.update(options=[1])), "options: must be an object"),
    ("deal seed", mutate(lambda d: d.update(deal_seed=d["deal_seed"] + 1)), "differs"),
    ("deal seed text", mutate(lambda d: d.update(deal_seed="7")), "deal_seed: must be"),
    ("not a dict", lambda d: [d], "not a Bullring replay"),
    ("format", mutate(lambda d: d.update(format="other")), "not a Bullring replay"),
    # Absurd sizes: text a terminal would print at every step (names: 64 characters).
    ("long name", mutate(lambda d: d["bots"][0].update(name="x" * 5000)), "bots[0].name: 5,000"),
    ("long match id", mutate(lambda d: d.update(match_id="x" * 2000)), "match_id: 2,000 char"),
    ("long option", mutate(lambda d: d["options"].update({"x" * 2000: "1"})), "options: a name"),
    ("long detail", mutate(lambda d: d["setup_faults"].append(LONG_DETAIL)), "more than 64,000"),
    ("traceback type", mutate(lambda d: d["setup_faults"].append(LIST_TRACE)), "traceback: must"),
]


@pytest.mark.parametrize(("what", "make", "says"), DAMAGE, ids=[d[0] for d in DAMAGE])
def test_every_damage_is_a_replay_error(
    good: Json, tmp_path: Path, what: str, make: Callable[[Json], object], says: str
) -> None:
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(make(good)))
    with pytest.raises(ReplayError) as error:
        verify(replay.load(file), str(file))
    assert str(error.value).startswith(f"{file}: ") and says in str(error.value)


def test_the_good_replay_loads_and_re_simulates(good: Json, tmp_path: Path) -> None:
    for name in ("good.json", "good.json.gz"):
        replay.save(Replay.from_json(good), tmp_path / name)
        assert verify(replay.load(tmp_path / name)) == good["result"]["scores"]


# A command's own peak memory. Linux carries the high-water mark of the memory a process
# replaced over exec(), and subprocess starts a child by vfork, in the parent's memory: a
# child of a pytest worker that holds 400 MiB reports at least 400 MiB whatever it does
# (seen in CI). This small Python process starts the command and reports its peak
# instead, so the command inherits only this process's few MiB.
PEAK_RUNNER = """
import os, subprocess, sys
process = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(process.pid, 0)
with open(sys.argv[1], "w") as peak:
    peak.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def bullring_replay(
    file: Path, *args: str, command: str = "replay"
) -> tuple[subprocess.CompletedProcess[str], int]:
    """`bullring replay FILE` (or `command`, with `args` after FILE), and the most memory
    it held (its peak RSS, in MiB)."""
    out, err = file.with_name("stdout.txt"), file.with_name("stderr.txt")
    peak = file.with_name("peak.txt")
    argv = bullring_argv(command, str(file), *args)
    with out.open("w") as stdout, err.open("w") as stderr:
        runner = [sys.executable, "-I", "-c", PEAK_RUNNER, str(peak), *argv]
        code = subprocess.run(runner, stdout=stdout, stderr=stderr).returncode
    done = subprocess.CompletedProcess(argv, code, out.read_text(), err.read_text())
    return done, int(peak.read_text()) // 1024


def gzip_bomb(path: Path, size: int) -> None:
    """`size` bytes of spaces as a gzip file of one 1 MiB member repeated (about 1,000:1;
    a reader must take every member of a gzip file)."""
    member = gzip.compress(b" " * (1 << 20), 9)
    path.write_bytes(member * (size >> 20))


BROKEN_FILES: list[tuple[str, Callable[[Path, Json], object], str]] = [
    ("wrong shape", lambda p, g: p.write_text(json.dumps({**g, "decisions": {}})), "decisions"),
    ("missing key", lambda p, g: p.write_text(json.dumps({**g, "bots": None})), "bots: must"),
    ("cut gzip", lambda p, g: p.write_bytes(gzip.compress(json.dumps(g).encode())[:500]), "cut"),
    ("bad gzip", lambda p, g: p.write_bytes(b"\x1f\x8b" + b"no gzip here" * 10), "not valid gzip"),
    ("not json", lambda p, g: p.write_bytes(b"\x00\xff garbage"), "cannot read replay"),
    ("deep", lambda p, g: p.write_text("[" * 200_000), "nested too deeply"),
    ("bomb", lambda p, g: gzip_bomb(p, 4 * MAX_REPLAY_BYTES), "more than 64 MiB"),
]


@pytest.mark.parametrize(("what", "make", "says"), BROKEN_FILES, ids=[b[0] for b in BROKEN_FILES])
def test_bullring_replay_of_a_broken_file_is_one_line(
    good: Json, tmp_path: Path, what: str, make: Callable[[Path, Json], object], says: str
) -> None:
    file = tmp_path / "broken.json.gz"
    make(file, good)
    done, _ = bullring_replay(file)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and says in done.stderr


def test_a_gzip_bomb_is_not_inflated_past_the_cap(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.json.gz"
    gzip_bomb(bomb, 1 << 30)  # 1 GiB of spaces in about 1 MB
    assert bomb.stat().st_size < 2 << 20
    with pytest.raises(DecompressError, match="more than 64 MiB"):
        inflate(bomb.read_bytes(), MAX_REPLAY_BYTES, gzip=True)
    done, peak_mib = bullring_replay(bomb)
    assert done.returncode == 2 and "more than 64 MiB once decompressed" in done.stderr
    assert peak_mib < 400  # the whole bomb would be 1,024 MiB, and took 2.1 GB before


def test_inflate_takes_every_gzip_member_and_refuses_what_follows() -> None:
    assert inflate(gzip.compress(b"ab") + gzip.compress(b"cd"), 4, gzip=True) == b"abcd"
    with pytest.raises(DecompressError, match="more than 3 bytes"):
        inflate(gzip.compress(b"abcd"), 3, gzip=True)
    with pytest.raises(DecompressError, match="trailing bytes"):
        inflate(gzip.compress(b"ab") + b"junk", 10, gzip=True)
    with pytest.raises(DecompressError, match="cut short"):
        inflate(zlib.compress(b"abcdef" * 100)[:-4], 1000)


def json_bomb(path: Path) -> None:
    """A replay of 57 MiB whose decisions are 20 million empty lists (parsed, 1.5 GB of
    memory), gzip-compressed to about 60 kB."""
    head = b'{"format":"bullring-replay","version":3,"match_id":"m","decisions":['
    path.write_bytes(gzip.compress(head + b"[]," * 20_000_000 + b"[]]}", 9))


@pytest.mark.parametrize("command", ["replay", "debug"])
def test_a_json_bomb_is_not_parsed(tmp_path: Path, command: str) -> None:
    bomb = tmp_path / "bomb.json.gz"
    json_bomb(bomb)
    assert bomb.stat().st_size < 1 << 20
    args = ("--bot", str(REPO / "example_bots" / "random_bot" / "bot.py")) * (command == "debug")
    done, peak_mib = bullring_replay(bomb, *args, command=command)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "JSON values or more, above the cap of 4,000,000" in done.stderr
    assert peak_mib < 400  # parsed, it took 1.5 GB


def test_a_replay_names_no_file_and_a_league_file_runs_nothing(good: Json, tmp_path: Path) -> None:
    # A match id that is a path: exporting writes OUT and nothing else.
    crafted = tmp_path / "crafted.json"
    crafted.write_text(json.dumps({**good, "match_id": "../../escaped"}))
    out = tmp_path / "out.json"
    done = subprocess.run(
        bullring_argv("replay", str(crafted), "--export", str(out)),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["crafted.json", "out.json"]
    # A league file from elsewhere: its bots are never started by replay or debug.
    marker = tmp_path / "ran"
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.toml").write_text(f'name = "b"\ncommand = ["/bin/sh", "-c", "touch {marker}"]\n')
    league = tmp_path / "stranger.toml"
    league.write_text(
        '[league]\nname = "s"\nseats = 2\nstore = "s.sqlite"\n\n[[variants]]\nid = "6nimmt"\n\n'
        + "".join(f'[[bots]]\nmanifest = "{bot}"\nname = "b{i}"\n\n' for i in range(2))
    )
    debugged = str(REPO / "example_bots" / "random_bot" / "bot.py")
    for args in (
        ("replay", str(league), "s-000001"),
        ("debug", str(league), "s-000001", "--bot", debugged),
    ):
        shown = subprocess.run(
            bullring_argv(*args), cwd=tmp_path, capture_output=True, text=True, timeout=120
        )
        assert shown.returncode == 2 and "no league store at" in shown.stderr, shown.stderr
        assert len(shown.stderr.strip().splitlines()) == 1
    assert not marker.exists()
