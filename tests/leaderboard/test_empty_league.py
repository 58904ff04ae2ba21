"""A site built before any match has finished (published as a league starts): each page
says that no match has finished yet, where it showed tables of headings alone and an
empty chart section."""

from __future__ import annotations

from pathlib import Path

from leaderboard import paths
from leaderboard.build import build_site
from referee.league.config import load_league
from referee.league.runner import LeagueRunner
from tests.leaderboard.conftest import league_file

NONE_YET = "No match has finished yet"


def test_a_site_of_a_league_with_no_finished_match_says_so(tmp_path: Path) -> None:
    file = league_file(tmp_path)
    LeagueRunner(load_league(file), store_path=tmp_path / "demo.sqlite").prepare().close()
    site = build_site(tmp_path / "demo.sqlite", tmp_path / "site").out_dir
    index = (site / "index.html").read_text()
    assert NONE_YET in index and "<table" not in index
    pages = sorted(site.glob("standings-*.html"))
    assert len(pages) == 5
    for page in pages:
        html = page.read_text()
        assert f"{NONE_YET} in this variant" in html, page.name
        assert "<table" not in html and "Rating over matches" not in html, page.name
        assert 'id="filter"' not in html
    assert NONE_YET in (site / paths.latest_matches_page()).read_text()
    assert NONE_YET in (site / paths.match_list_page(1)).read_text()
