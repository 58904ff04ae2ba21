"""The Jinja2 templates (leaderboard/templates/) and how a page is rendered from them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

from leaderboard import paths
from leaderboard.model import LeagueInfo


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=True,
        trim_blocks=False,
        undefined=jinja2.StrictUndefined,
    )
    env.globals["paths"] = paths
    return env


class PageRenderer:
    """Renders pages of one league; templates are loaded once."""

    def __init__(self, league: LeagueInfo) -> None:
        self.league = league
        self.env = environment()
        self._templates: dict[str, jinja2.Template] = {}
        self.env.globals["title_of"] = league.title_of

    def title_of(self, variant: str) -> str:
        """The readable title of a variant id."""
        return self.league.title_of(variant)

    def render(self, name: str, template: str, **context: Any) -> str:
        """The HTML of page `name` (a site-relative path: links are made relative to it)."""
        if template not in self._templates:
            self._templates[template] = self.env.get_template(template)
        root = "../" * name.count("/")
        return self._templates[template].render(league=self.league, root=root, **context)
