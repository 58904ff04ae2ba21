"""The JSON beside the pages: valid against the documented schemas, and equal to the store."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from leaderboard import paths
from leaderboard.build import BuildError, BuildReport, build_site
from leaderboard.jsondata import LEAGUE_SCHEMA, STANDINGS_SCHEMA, VIEWER_SCHEMA
from referee.league.store import LeagueStore
from tests.leaderboard.conftest import FAULTY_BOT, RETIRED_BOT

DOCS = Path(__file__).parents[2] / "docs" / "leaderboard.md"


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_league_json_is_valid_and_agrees_with_the_store(site_dir: Path, store_path: Path) -> None:
    league = load(site_dir / "league.json")
    jsonschema.validate(league, LEAGUE_SCHEMA)
    with LeagueStore.open_readonly(store_path) as store:
        assert league["name"] == store.meta()["name"]
        assert league["matches_played"] == store.counts()[0]
        assert [v["variant"] for v in league["variants"]] == [v["id"] for v in store.variants()]
        for entry in league["variants"]:
            finished = store.matches(variant=entry["variant"], status="finished")
            assert entry["matches"] == len(finished)
            assert (site_dir / entry["page"]).is_file() and (
                site_dir / entry["standings"]
            ).is_file()


def test_standings_json_is_valid_and_agrees_with_the_store(
    site_dir: Path, store_path: Path
) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        for variant in store.variants():
            data = load(site_dir / paths.standings_json(variant["id"]))
            jsonschema.validate(data, STANDINGS_SCHEMA)
            table = store.standings(variant["id"])
            assert [r["bot"] for r in data["rows"]] == [s.bot for s in table]
            assert [r["rank"] for r in data["rows"]] == list(range(1, len(table) + 1))
            for row, standing in zip(data["rows"], table, strict=True):
                assert row["mu"] == standing.mu and row["sigma"] == standing.sigma
                assert row["conservative"] == pytest.approx(standing.mu - 3 * standing.sigma)
                assert (row["matches"], row["wins"]) == (standing.matches, standing.wins)
                assert row["mean_score"] == pytest.approx(standing.mean_score)
                assert row["fault_rate"] == pytest.approx(standing.faults / standing.matches)
                assert row["retired"] == (row["bot"] == RETIRED_BOT)
                assert row["win_share"] == pytest.approx(standing.shared_wins / standing.matches)
            conservative = [r["conservative"] for r in data["rows"]]
            assert conservative == sorted(conservative, reverse=True)
            for series in data["series"]:
                history = store.rating_history(variant["id"], series["bot"])
                assert [(p[2], p[3]) for p in series["points"]] == [
                    (r.mu, r.sigma) for _, _, r in history
                ]
                assert [p[0] for p in series["points"]] == list(range(1, len(history) + 1))


def test_a_faulty_bot_has_a_nonzero_fault_rate(site_dir: Path) -> None:
    rows = [r for v in site_dir.glob("standings-*.json") for r in load(v)["rows"]]
    assert any(r["fault_rate"] > 0 for r in rows if r["name"] == FAULTY_BOT)
    assert all(r["fault_rate"] == 0 for r in rows if r["name"] != FAULTY_BOT)


def test_a_broken_file_is_rejected_by_the_schema(site_dir: Path) -> None:
    data = load(next(site_dir.glob("standings-*.json")))
    data["rows"][0]["mu"] = "high"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, STANDINGS_SCHEMA)


def test_the_docs_hold_the_schemas_the_code_uses() -> None:
    text = DOCS.read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S)]
    assert LEAGUE_SCHEMA in blocks and STANDINGS_SCHEMA in blocks and VIEWER_SCHEMA in blocks


def test_a_rebuild_writes_the_same_match_pages(
    built: BuildReport, store_path: Path, tmp_path: Path
) -> None:
    """Into a fresh folder, over an old site's leftovers (a data file per match and their
    cache, as builds wrote before the data moved into the pages), and again: the same
    pages, every one with its replay data, and the leftovers gone."""
    out = tmp_path / "site"
    (out / "matches").mkdir(parents=True)
    (out / "matches" / "old.replay.js").write_text("Bullring.replayLoaded({});\n")
    (out / "matches" / "replays.cache.json").write_text("{}")
    first = build_site(store_path, out)
    again = build_site(store_path, out)
    assert first.replays_made == again.replays_made == built.replays_made == built.matches
    assert first.files == again.files == built.files
    assert not list(out.glob("matches/*.replay.js")) and not list(out.glob("**/*.cache.json"))
    for page in sorted((built.out_dir / "matches").glob("*.html")):
        assert footless(page) == footless(out / "matches" / page.name), page.name


def footless(page: Path) -> str:
    """A page without its footer (which says when it was built)."""
    return re.sub(r"<footer>.*?</footer>", "", page.read_text(encoding="utf-8"))


def test_a_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="no league store"):
        build_site(tmp_path / "nope.sqlite", tmp_path / "out")
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    with pytest.raises(BuildError, match=r"junk\.sqlite"):
        build_site(junk, tmp_path / "out")
