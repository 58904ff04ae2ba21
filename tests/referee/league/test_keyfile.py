"""The league key (referee/league/keyfile.py): made once, mode 0600, beside the store;
kept across runs; never in the store or the site; a lost or wrong key is one clear line."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

import pytest

from referee.league.config import load_league
from referee.league.executors import LocalExecutor
from referee.league.keyfile import (
    META_KEY_ID,
    LeagueKeyError,
    key_path,
    read_key,
    write_new_key,
)
from referee.league.runner import LeagueError, LeagueRunner
from referee.league.store import LeagueStore
from referee.replay.model import Replay
from referee.replay.resimulate import resimulate
from sdk.seeding import deal_seed, key_id
from tests.referee.league.leagues import bullring, write_league
from tests.referee.league.thieves import leaked_key_forms

# Endpoints nobody serves: enough to schedule (prepare) without playing.
UNPLAYED = """
[league]
name = "keys"
seed = 4
seats = 2
games = 2
parallel = 1
store = "keys.sqlite"

[[variants]]
id = "6nimmt"
options = { rounds = 1 }

[[bots]]
name = "a"
endpoint = "127.0.0.1:9"

[[bots]]
name = "b"
endpoint = "127.0.0.1:9"
"""
PLAYED = """
[league]
name = "played"
seed = 6
seats = 3
games = 2
parallel = 1
store = "played.sqlite"

[clock]
decision_ms = 5000
setup_ms = 20000

[[variants]]
id = "6nimmt"
options = { rounds = 1 }
"""


def prepare(file: Path, new_key: bool = False) -> LeagueRunner:
    runner = LeagueRunner(load_league(file), LocalExecutor(workers=1), new_key=new_key)
    runner.prepare().close()
    return runner


def recorded_id(store: Path) -> str | None:
    with LeagueStore.open_readonly(store) as db:
        return db.meta().get(META_KEY_ID)


def test_a_new_league_makes_a_private_key_once_and_keeps_it(tmp_path: Path) -> None:
    file = tmp_path / "keys.toml"
    file.write_text(UNPLAYED)
    store = tmp_path / "keys.sqlite"
    first = prepare(file)
    path = key_path(store)
    assert path == tmp_path / "keys.sqlite.key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert first.key is not None and read_key(path) == first.key
    assert recorded_id(store) == key_id(first.key)
    assert prepare(file).key == first.key  # resumed: the same key, the same deals
    assert not any(form in store.read_bytes() for form in leaked_key_forms(first.key))
    assert sorted(p.name for p in tmp_path.iterdir() if "tmp" in p.name) == []


def test_keys_differ_between_leagues(tmp_path: Path) -> None:
    made = {write_new_key(tmp_path / f"{n}.key") for n in range(4)}
    assert len(made) == 4
    with pytest.raises(LeagueKeyError, match="cannot create"):
        write_new_key(tmp_path / "0.key")  # an existing key is never overwritten


def run_bullring(file: Path, *extra: str) -> tuple[int, str]:
    done = bullring("league", "run", str(file), "--no-progress", *extra, cwd=file.parent)
    assert "Traceback" not in done.stderr
    return done.returncode, done.stderr


def test_a_lost_key_is_one_clear_line_and_nothing_is_written(tmp_path: Path) -> None:
    file = tmp_path / "keys.toml"
    file.write_text(UNPLAYED)
    store = tmp_path / "keys.sqlite"
    key = prepare(file).key
    assert key is not None
    key_path(store).unlink()
    before = store.read_bytes()
    code, err = run_bullring(file)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "keys.sqlite.key" in err and "missing" in err and "backup" in err
    assert store.read_bytes() == before and not key_path(store).exists()

    # --new-key replaces it: a new key, recorded; its deals differ from the lost key's.
    runner = prepare(file, new_key=True)
    assert runner.key is not None and runner.key != key
    assert recorded_id(store) == key_id(runner.key)
    assert deal_seed(runner.key, "keys", 1) != deal_seed(key, "keys", 1)
    with pytest.raises(LeagueError, match=r"--new-key: .* exists"):
        prepare(file, new_key=True)  # only a lost key is replaced


def test_a_wrong_or_open_key_file_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "keys.toml"
    file.write_text(UNPLAYED)
    store = tmp_path / "keys.sqlite"
    prepare(file)
    path = key_path(store)
    path.chmod(0o644)
    code, err = run_bullring(file)
    assert code == 2 and "chmod 600" in err, err
    path.unlink()
    write_new_key(path)  # another league's key
    code, err = run_bullring(file)
    assert code == 2 and "is not the key of" in err, err
    path.unlink()
    path.write_text("not a key\n")
    path.chmod(0o600)
    code, err = run_bullring(file)
    assert code == 2 and "is not a league key" in err, err


def test_a_store_from_before_keys_gets_one_and_an_operator_key_is_adopted(
    tmp_path: Path,
) -> None:
    file = tmp_path / "keys.toml"
    file.write_text(UNPLAYED)
    store = tmp_path / "keys.sqlite"
    prepare(file)
    with LeagueStore.open(store) as db, db.transaction() as sql:  # as stores were before
        sql.execute("DELETE FROM meta WHERE key = ?", (META_KEY_ID,))
    key_path(store).unlink()
    made = prepare(file).key
    assert made is not None and recorded_id(store) == key_id(made)

    # A key the operator puts beside a new store is used: the same deals again.
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy2(file, copy / "keys.toml")
    shutil.copy2(key_path(store), key_path(copy / "keys.sqlite"))
    assert prepare(copy / "keys.toml").key == made


@pytest.mark.slow
def test_the_site_never_holds_the_key_and_replays_re_deal(tmp_path: Path) -> None:
    from leaderboard.build import build_site

    file = write_league(tmp_path, PLAYED, bots=["a", "b", "c"])
    runner = LeagueRunner(load_league(file), LocalExecutor(workers=1))
    assert runner.run().played == 2
    assert runner.key is not None
    store = tmp_path / "played.sqlite"
    build_site(store, tmp_path / "site", workers=1)
    forms = leaked_key_forms(runner.key)
    published = [p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file()]
    assert published and not any(form in data for data in published for form in forms)
    with LeagueStore.open_readonly(store) as db:
        for match in db.matches():
            replay = db.replay(match.match_id)
            assert replay is not None
            assert replay["deal_seed"] == deal_seed(runner.key, "played", match.seed)
            resimulate(Replay.from_json(replay))
