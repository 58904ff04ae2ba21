"""Write the site's pages from the data model: pages, JSON files, charts.

Every link is relative (see paths.py); the only scripts and styles are the files of
leaderboard/static/, copied into the site, and each match page's line of replay data.
The bounded pages (:func:`render_pages`) are written at every build; the match pages
(leaderboard/match_files.py) and the full pages of the match list (:func:`write_match_list`)
once each (leaderboard/build.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from leaderboard import charts, files, jsondata, paths, rules
from leaderboard.from_store import RECENT_CHANGE
from leaderboard.model import (
    BotPage,
    LeagueInfo,
    MatchSummary,
    RatingSeries,
    Site,
    VariantStandings,
)
from leaderboard.pages import PageRenderer
from referee.replay.digest import HTML_IN_JSON

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

    def __init__(self, league: LeagueInfo, out_dir: Path) -> None:
        self.out = out_dir
        self.renderer = PageRenderer(league)
        self.written = Written()

    def page(self, name: str, template: str, **context: Any) -> None:
        self.text(name, self.renderer.render(name, template, **context))
        self.written.pages += 1

    def text(self, name: str, content: str) -> None:
        files.write_text(self.out / name, content)
        self.written.files += 1

    def json(self, name: str, data: Mapping[str, Any]) -> None:
        """Write `data` as JSON, its ``<``, ``>`` and ``&`` escaped (``\\u003c``): the same
        values to a JSON reader, inert HTML to a browser that takes the file for a page."""
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        self.text(name, text.translate(HTML_IN_JSON) + "\n")


def render_pages(site: Site, out_dir: Path) -> Written:
    """Write the site's bounded pages into `out_dir` (created): the index, the standings
    and their JSON, the rules, every bot's page, the match list's newest page, the last
    hour's matches and, with the arena's facts, the submit page. What they cost depends on
    the bots and variants, not on how many matches were played (the charts are thinned)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for sub in (paths.STATIC_DIR, paths.BOTS_DIR, paths.LISTS_DIR):
        (out_dir / sub).mkdir(exist_ok=True)
    writer = SiteWriter(site.league, out_dir)
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
        writer.page(
            paths.bot_page(bot.bot),
            "bot.html",
            b=bot,
            charts=_bot_charts(bot),
            version_charts=_version_charts(bot, league),
        )
    for name in (paths.match_list_page(site.latest_page), paths.latest_matches_page()):
        write_match_list(writer, name, site.latest_page, site.latest_matches, latest=True)
    writer.page(
        paths.last_hour_page(),
        "last_hour.html",
        matches=site.last_hour,
        total=site.last_hour_total,
    )
    if site.about is not None:
        writer.page(paths.submit_page(), "submit.html", about=site.about)
    writer.page(
        "index.html",
        "index.html",
        standings=site.standings,
        bots=site.bots,
        recent=site.recent_matches,
        last_hour=site.last_hour_total,
    )
    return writer.written


def write_match_list(
    writer: SiteWriter,
    name: str,
    number: int,
    newest_first: Sequence[MatchSummary],
    *,
    latest: bool = False,
) -> None:
    """Page `number` of the match list (its matches newest first) as `name`: a full page
    (not `latest`) never changes, so it links the next page by number."""
    size = paths.MATCH_LIST_PAGE_SIZE
    first = (number - 1) * size + 1
    writer.page(
        name,
        "matches.html",
        matches=newest_first,
        number=number,
        first=first,
        last=first + len(newest_first) - 1,
        latest=latest,
    )


def _copy_static(writer: SiteWriter) -> None:
    for source in sorted(STATIC_SOURCE.iterdir()):
        if source.suffix in (".js", ".css"):
            files.write_bytes(writer.out / paths.STATIC_DIR / source.name, source.read_bytes())
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


def _version_charts(bot: BotPage, league: LeagueInfo) -> list[tuple[str, str]]:
    """Per variant, one line per version of the bot's name: mu - 3 sigma over the
    variant's matches (only where two versions or more were rated in it)."""
    found = []
    for variant in league.variants:
        lines = [
            charts.Line(s.bot, [(p.league_match, p.conservative) for p in s.points])
            for s in bot.version_series
            if s.variant == variant and s.points
        ]
        if len(lines) > 1:
            chart = charts.line_chart(
                lines,
                title=f"{bot.name}: every version in {league.title_of(variant)}",
                x_label="matches played in the variant",
                y_label="mu - 3 sigma",
            )
            found.append((variant, chart))
    return found
