"""The viewer's data in each match page: only what the viewer shows (no histories, no option lists),
small, valid against its schema, and the same table at every step as the stored replay;
an older replay is re-simulated into the same data; the digest the league stores with
each match, and the build's text path (no full parse) for a store without digests, make
the same JSON as the definition, whatever a fault's detail says."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import zlib
from pathlib import Path
from typing import Any

import jsonschema

from leaderboard import paths
from leaderboard.build import build_site
from leaderboard.jsondata import VIEWER_SCHEMA
from leaderboard.viewer_data import (
    DROPPED_FIELDS,
    packed_data,
    packed_from_digest,
    page_data,
    unpack,
    viewer_data,
)
from leaderboard.viewer_text import viewer_json
from referee.league.store import LeagueStore
from referee.replay.snapshots import expand
from referee.replay.values import option_from_json, option_to_json, option_to_replay

MAX_DATA_BYTES = 10_000  # issue: at most 10 kB of replay data per match
DATA_LINE = re.compile(r'<script type="application/octet-stream" id="replay-data">([^<]*)</script>')


def as_version_1(replay: dict[str, Any]) -> dict[str, Any]:
    """The replay as the referee recorded it before snapshots: no snapshots, dict options."""
    old = {k: v for k, v in replay.items() if k != "snapshots"}
    old["version"] = 1
    old["decisions"] = [
        {**d, "options": [option_to_json(option_from_json(o)) for o in d["options"]]}
        for d in replay["decisions"]
    ]
    return old


def expand_patched(snapshots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The viewer's expansion (bullring.js `expand`), in Python: an object value patches
    the previous list item by item."""
    full: list[dict[str, Any]] = []
    for k, change in enumerate(snapshots):
        if k == 0:
            full.append(dict(change))
            continue
        nxt = dict(full[-1])
        for key, value in change.items():
            if isinstance(value, dict):
                items = list(nxt[key])
                for index, item in value.items():
                    items[int(index)] = item
                nxt[key] = items
            else:
                nxt[key] = value
        full.append(nxt)
    return full


def check_against(data: dict[str, Any], replay: dict[str, Any]) -> None:
    jsonschema.validate(data, VIEWER_SCHEMA)
    assert data["match_id"] == replay["match_id"] and data["variant"] == replay["variant"]
    assert data["players"] == [f"{b['name']}@{b['version']}" for b in replay["bots"]]
    assert len(data["decisions"]) == len(replay["decisions"])
    for row, record in zip(data["decisions"], replay["decisions"], strict=True):
        chosen = option_to_replay(option_from_json(record["options"][record["choice"]]))
        assert row[0] == record["seat"] and data["kinds"][row[1]] == record["kind"]
        assert row[2] == chosen and row[4] == len(record["options"])
        assert (row[5].get("fault") if len(row) > 5 else None) == record.get("fault")
    tables = [
        {k: v for k, v in snap.items() if k not in DROPPED_FIELDS}
        for snap in expand(replay["snapshots"])
    ]
    assert expand_patched(data["snapshots"]) == tables
    assert "histories" not in data


def test_every_pages_data_is_lean_valid_and_the_replays_table(
    site_dir: Path, store_path: Path
) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        matches = store.matches(status="finished")
        for match in matches:
            replay = store.replay(match.match_id)
            assert replay is not None
            page = (site_dir / paths.match_page(match.match_id)).read_text(encoding="utf-8")
            packed = DATA_LINE.findall(page)
            assert len(packed) == 1 and len(packed[0]) <= MAX_DATA_BYTES, match.variant
            check_against(page_data(page), replay)


def test_an_old_replay_is_re_simulated_into_the_same_data(store_path: Path) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        for match in store.matches(status="finished")[::5]:
            replay = store.replay(match.match_id)
            assert replay is not None
            new = unpack(packed_data(json.dumps(replay).encode()))
            old = unpack(packed_data(json.dumps(as_version_1(replay)).encode()))
            assert old == new
            check_against(old, replay)


def test_log_tails_are_named_in_the_data(store_path: Path) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        match = store.matches(status="finished")[0]
        text = store.replay_text(match.match_id)
    assert text is not None
    data = unpack(packed_data(text, {1: "m.seat1.log.txt"}))
    jsonschema.validate(data, VIEWER_SCHEMA)
    assert data["logs"] == {"1": "m.seat1.log.txt"}
    assert "logs" not in unpack(packed_data(text))


def full_parse(text: bytes, logs: dict[int, str] | None = None) -> str:
    """The viewer's data made the slow way: the whole replay parsed (the definition)."""
    data = viewer_data(json.loads(text), logs)
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def test_the_text_path_makes_the_same_json_as_a_full_parse(store_path: Path) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        texts = [store.replay_text(m.match_id) for m in store.matches(status="finished")]
    faulty = 0
    for text in texts:
        assert text is not None
        fast = viewer_json(text.decode(), {2: "m.seat2.log.txt"})
        assert fast is not None  # every replay the referee writes takes the text path
        assert fast == full_parse(text, {2: "m.seat2.log.txt"})
        faulty += '"fault":{' in text.decode()
    assert faulty > 0  # the league's illegal bot faults: those decisions are parsed one by one


def test_the_text_path_is_not_fooled_by_a_fault_detail(store_path: Path) -> None:
    """A fault's detail is text a bot can influence: one that spells out decision records
    and dropped fields stays a string."""
    with LeagueStore.open_readonly(store_path) as store:
        match = store.matches(status="finished")[0]
        replay = store.replay(match.match_id)
    assert replay is not None
    forged = (
        '},{"n":9,"seat":0,"kind":"PICK_CARD","history_len":1,"options":[[1,4]],'
        '"choice":0,"ms":1.0,"fault":null,"auto":false}],"histories":[],'
        '"setup_faults":[],"snapshots":[{"hand_sizes":[1],"rows":[]}]}'
    )
    replay["decisions"][0]["fault"] = {"seat": 0, "kind": "ILLEGAL", "detail": forged}
    replay["setup_faults"] = [{"seat": 1, "kind": "CRASH", "detail": forged}]
    text = json.dumps(replay, separators=(",", ":")).encode()
    fast = viewer_json(text.decode())
    assert fast is not None and fast == full_parse(text)
    assert json.loads(fast)["decisions"][0][5]["fault"]["detail"] == forged


def test_a_replay_not_in_the_referee_shape_is_parsed_in_full(store_path: Path) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        match = store.matches(status="finished")[0]
        replay = store.replay(match.match_id)
    assert replay is not None
    spaced = json.dumps(replay).encode()  # not compact: the text path declines it
    old = json.dumps(as_version_1(replay), separators=(",", ":")).encode()
    assert viewer_json(spaced.decode()) is None and viewer_json(old.decode()) is None
    compact = json.dumps(replay, separators=(",", ":")).encode()
    assert unpack(packed_data(spaced)) == unpack(packed_data(compact))


def test_the_digest_stored_with_each_match_is_the_viewer_data(store_path: Path) -> None:
    """The league's worker stores each match's digest as it is played; it is, byte for
    byte, the definition's JSON of the stored replay."""
    with LeagueStore.open_readonly(store_path) as store:
        matches = store.matches(status="finished")
        for match in matches:
            text, packed = store.replay_text(match.match_id), store.digest_zlib(match.match_id)
            assert text is not None and packed is not None, match.match_id
            assert zlib.decompress(packed).decode() == full_parse(text)


def test_log_links_are_added_to_a_stored_digest(store_path: Path) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        match = store.matches(status="finished")[0]
        text, packed = store.replay_text(match.match_id), store.digest_zlib(match.match_id)
    assert text is not None and packed is not None
    logs = {1: "m.seat1.log.txt"}
    assert unpack(packed_from_digest(packed, logs)) == unpack(packed_data(text, logs))
    assert unpack(packed_from_digest(packed)) == unpack(packed_data(text))
    assert "logs" not in unpack(packed_from_digest(packed))


def without_build_time(page: str) -> str:
    return re.sub(r"Built [0-9T:Z-]+", "Built", page)


def test_a_store_from_before_digests_builds_the_same_match_pages(
    site_dir: Path, store_path: Path, tmp_path: Path
) -> None:
    """A store written before digests existed (no table) is published from its replays,
    into the same pages; opened for writing, it gains the table."""
    old_store = tmp_path / "old.sqlite"
    shutil.copy(store_path, old_store)
    with sqlite3.connect(old_store) as db:
        db.execute("DROP TABLE digests")
    db.close()
    with LeagueStore.open_readonly(old_store) as store:
        first = store.matches(status="finished")[0].match_id
        assert store.digest_zlib(first) is None
    report = build_site(old_store, tmp_path / "site", workers=1)
    assert report.replays_made == report.matches > 0
    with LeagueStore.open_readonly(store_path) as store:
        for match in store.matches(status="finished"):
            page = paths.match_page(match.match_id)
            old = (report.out_dir / page).read_text(encoding="utf-8")
            new = (site_dir / page).read_text(encoding="utf-8")
            assert without_build_time(old) == without_build_time(new)
            assert DATA_LINE.findall(old) == DATA_LINE.findall(new)  # the very same bytes
    with LeagueStore.open(old_store) as store:
        assert store.digest_zlib(first) is None  # the table is back, empty for old matches
