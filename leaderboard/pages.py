"""The Jinja2 templates (leaderboard/templates/) and how a page is rendered from them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from leaderboard import paths
from leaderboard.model import LeagueInfo

_bytecode: jinja2.BytecodeCache | None = None


def keep_compiled_templates(folder: Path) -> None:
    """Keep the templates compiled in `folder` for the next process (a publish is a
    process of its own, and compiling the templates was most of what a small one cost).
    Jinja checks each cached template against its source, so an edited one is compiled
    again."""
    global _bytecode
    folder.mkdir(parents=True, exist_ok=True)
    _bytecode = jinja2.FileSystemBytecodeCache(str(folder))


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=True,
        trim_blocks=False,
        undefined=jinja2.StrictUndefined,
        bytecode_cache=_bytecode,
    )
    env.globals["paths"] = paths
    return env


_SLOT = re.compile(r"<!--slot:([a-z_]+)-->")


class Slots:
    """A frame template's ``slot``: ``slot.head`` renders as a marker (``<!--slot:head-->``)
    that no escaped value can spell (autoescape turns ``<`` into ``&lt;``)."""

    def __getattr__(self, name: str) -> Markup:
        return Markup(f"<!--slot:{name}-->")


class Frame:
    """A page rendered once with slots and filled for each page that differs from it only
    in them (every match page: the header, replay controls and help are the same)."""

    def __init__(self, html: str) -> None:
        self._pieces = _SLOT.split(html)  # text, slot name, text, ..., text

    @property
    def slots(self) -> frozenset[str]:
        return frozenset(self._pieces[1::2])

    def fill(self, values: Mapping[str, str]) -> str:
        """The page with each slot replaced by its value in `values` (already HTML)."""
        pieces = self._pieces.copy()
        for i in range(1, len(pieces), 2):
            pieces[i] = values[pieces[i]]
        return "".join(pieces)


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

    def frame(self, name: str, template: str, **context: Any) -> Frame:
        """Page `name` of `template` rendered once with ``slot`` markers, to fill per page
        (every page filled from it lives in the same folder as `name`)."""
        return Frame(self.render(name, template, slot=Slots(), **context))

    def macros(self, template: str) -> Any:
        """The macros of `template`, to call from Python (they return HTML)."""
        return self.env.get_template(template).make_module({"league": self.league})
