"""Write the static site from the data model: pages, JSON files, charts, replay data.

Every link is relative (see paths.py); the only scripts and styles are the two files of
leaderboard/static/, copied into the site, and each match page's line of replay data.
Match pages (leaderboard/match_files.py) are written by worker processes while the other
pages are.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from leaderboard import charts, jsondata, paths, rules
from leaderboard.from_store import RECENT_CHANGE
from leaderboard.match_files import MatchFiles
from leaderboard.model import BotPage, MatchSummary, RatingSeries, Site, VariantStandings
from leaderboard.pages import PageRenderer
from referee.replay.digest import HTML_IN_JSON

RECENT_ON_INDEX = 20
STATIC_SOURCE = Path(__file__).parent / "static"


@dataclass
class Written:
    """What a render wrote."""

    pages: int = 0
    files: int = 0
    matches: int = 0
    replays_made: int = 0  # match pages holding replay data


class SiteWriter:
    """Renders templates into `out_dir`, counting what it writes."""

    def __init__(self, site: Site, out_dir: Path) -> None:
        self.site = site
        self.out = out_dir
        self.renderer = PageRenderer(site.league)
        self.written = Written()

    def page(self, name: str, template: str, **context: Any) -> None:
        self.text(name, self.renderer.render(name, template, **context))
        self.written.pages += 1

    def text(self, name: str, content: str) -> None:
        target = self.out / name
        target.write_text(content, encoding="utf-8")
        self.written.files += 1

    def json(self, name: str, data: Mapping[str, Any]) -> None:
        """Write `data` as JSON, its ``<``, ``>`` and ``&`` escaped (``\\u003c``): the same
        values to a JSON reader, inert HTML to a browser that takes the file for a page."""
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        self.text(name, text.translate(HTML_IN_JSON) + "\n")


def render_site(site: Site, out_dir: Path, workers: int = 0) -> Written:
    """Write every page of `site` into `out_dir` (created; old pages are overwritten)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for sub in (paths.STATIC_DIR, paths.BOTS_DIR, paths.MATCHES_DIR):
        (out_dir / sub).mkdir(exist_ok=True)
    writer = SiteWriter(site, out_dir)
    summaries = list(site.matches())
    match_files = MatchFiles(out_dir, site.league, site.load_replay, workers)
    match_files.start(summaries)
    _copy_static(writer)
    league = site.league
    writer.json("league.json", jsondata.league_json(league, site.standings))
    for standings in site.standings:
        writer.json(
            paths.standings_json(standings.variant),
            jsondata.standings_json(standings, league.built_at),
        )
        writer.page(
            paths.standings_page(standings.variant),
            "standings.html",
            s=standings,
            chart=_standings_chart(standings),
            rules=rules.BY_FAMILY.get(standings.family),
            h2h={(p.bot, p.opponent): p for p in standings.head_to_head},
            recent=RECENT_CHANGE,
        )
    writer.page(paths.rules_page(), "rules.html", summaries=rules.SUMMARIES)
    for bot in site.bots:
        writer.page(paths.bot_page(bot.bot), "bot.html", b=bot, charts=_bot_charts(bot))
    newest_first = summaries[::-1]
    _write_match_lists(writer, newest_first)
    recent = site.recent_matches or tuple(newest_first[:RECENT_ON_INDEX])
    writer.page("index.html", "index.html", standings=site.standings, bots=site.bots, recent=recent)
    match_files.finish()
    writer.written.pages += match_files.pages
    writer.written.matches = match_files.pages
    writer.written.files += match_files.files
    writer.written.replays_made = match_files.with_data
    return writer.written


def _copy_static(writer: SiteWriter) -> None:
    for source in sorted(STATIC_SOURCE.iterdir()):
        if source.suffix in (".js", ".css"):
            shutil.copyfile(source, writer.out / paths.STATIC_DIR / source.name)
            writer.written.files += 1


def _standings_chart(standings: VariantStandings) -> str:
    lines = [
        charts.Line(s.bot, [(p.league_match, p.conservative) for p in s.points])
        for s in standings.series
    ]
    return charts.line_chart(
        lines,
        title=f"{standings.title}: mu - 3 sigma over the variant's matches",
        x_label="matches played in the variant",
        y_label="mu - 3 sigma",
    )


def _bot_charts(bot: BotPage) -> list[tuple[str, str]]:
    return [(s.variant, _series_chart(s)) for s in bot.series]


def _series_chart(series: RatingSeries) -> str:
    lines = [
        charts.Line("mu", [(p.match_number, p.mu) for p in series.points]),
        charts.Line("mu - 3 sigma", [(p.match_number, p.conservative) for p in series.points]),
    ]
    return charts.line_chart(
        lines,
        title=f"{series.bot} in {series.variant}",
        x_label="the bot's matches",
        y_label="rating",
    )


def _write_match_lists(writer: SiteWriter, newest_first: list[MatchSummary]) -> None:
    size = paths.MATCH_LIST_PAGE_SIZE
    pages = max(1, -(-len(newest_first) // size))
    for number, chunk in enumerate(_chunks(newest_first, size, pages), start=1):
        writer.page(
            paths.match_list_page(number), "matches.html", matches=chunk, number=number, pages=pages
        )


def _chunks(items: list[MatchSummary], size: int, pages: int) -> Iterator[list[MatchSummary]]:
    for number in range(pages):
        yield items[number * size : (number + 1) * size]
