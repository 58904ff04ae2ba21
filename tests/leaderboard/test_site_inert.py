"""What a bot's author controls reaches the site inert: the site of a league whose bot's
manifest author and description, printed lines and exception message are hostile text
(tests/referee/bad_bots/hostile_text.py) runs no script of theirs and reads right, in the
HTML, in the JSON files and in a real headless Chromium; and every page has a
Content-Security-Policy that runs no inline script, which the site itself never needs."""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from leaderboard import paths
from leaderboard.build import build_site
from referee.league.store import LeagueStore
from tests.leaderboard.browser import Problems, launch
from tests.referee.bad_bots.hostile_text import HOSTILE, SHOWN
from tests.referee.league.hostile_league import run_hostile_league

CSP = (
    '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
    "script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'none'\">"
)
SCRIPT_TAG = re.compile(r"<script\b[^>]*>")
OWN_SCRIPT = re.compile(r'<script src="(?:\.\./)*static/bullring(?:_[a-z]+)?\.js">')
DATA_BLOCK = '<script type="application/octet-stream" id="replay-data">'
# The manifest's author and description as the pages show them: the hostile text, its
# control characters escaped as a terminal shows them.
AUTHOR = SHOWN


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The built site of the hostile bot's league, and its store."""
    folder = tmp_path_factory.mktemp("inertsite")
    run_hostile_league(folder)
    store = folder / "inert.sqlite"
    return build_site(store, folder / "site").out_dir, store


def pages(site_dir: Path) -> list[Path]:
    return sorted(site_dir.rglob("*.html"))


def test_every_page_has_the_policy_and_no_script_but_the_sites_own(
    site: tuple[Path, Path],
) -> None:
    site_dir, _ = site
    for page in pages(site_dir):
        html = page.read_text(encoding="utf-8")
        assert html.count(CSP) == 1, page
        for tag in SCRIPT_TAG.findall(html):
            assert OWN_SCRIPT.fullmatch(tag) or tag == DATA_BLOCK, (page, tag)
        assert "<img" not in html and "onerror=" not in html.replace("onerror=&#34;", ""), page
        assert "\x1b" not in html and "\x07" not in html, page


def test_the_authors_text_is_escaped_in_the_pages_and_json(site: tuple[Path, Path]) -> None:
    site_dir, _ = site
    bot_page = (site_dir / paths.bot_page("hostile_text@1")).read_text(encoding="utf-8")
    escaped = "&lt;script&gt;window.pwned = 1&lt;/script&gt; &#34;&gt;&lt;img src=x onerror="
    assert f'<p class="about">{escaped}' in bot_page
    index = (site_dir / "index.html").read_text(encoding="utf-8")
    assert f'<span class="muted">· {escaped}' in index
    (standings,) = site_dir.glob("standings-*.html")
    assert f'<div class="author" title="{escaped}' in standings.read_text(encoding="utf-8")
    # The JSON files: the same text (control characters escaped), no markup a browser reads.
    (data_file,) = site_dir.glob("standings-*.json")
    raw = data_file.read_text(encoding="utf-8")
    assert "<" not in raw and ">" not in raw and "&" not in raw
    rows = {row["bot"]: row for row in json.loads(raw)["rows"]}
    assert rows["hostile_text@1"]["author"] == AUTHOR == rows["hostile_text@1"]["description"]
    assert HOSTILE not in raw
    # The viewer's data in each match page: the faults' details as written, no markup.
    details = []
    with LeagueStore.open_readonly(site[1]) as store:
        match_ids = [m.match_id for m in store.matches(status="finished")]
    for match_id in match_ids:
        html = (site_dir / paths.match_page(match_id)).read_text(encoding="utf-8")
        packed = re.search(f"{DATA_BLOCK}([^<]*)</script>", html)
        assert packed is not None
        text = zlib.decompress(base64.b64decode(packed.group(1))).decode()
        assert "<" not in text and ">" not in text and "&" not in text
        decisions = json.loads(text)["decisions"]
        details += [d[5]["fault"]["detail"] for d in decisions if len(d) > 5 and "fault" in d[5]]
    assert details and all(detail == f"ValueError: {SHOWN}" for detail in details)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.mark.browser
def test_no_script_of_the_bots_runs_in_a_browser_and_the_pages_read_right(
    browser: Any, site: tuple[Path, Path]
) -> None:
    site_dir, store_path = site
    with LeagueStore.open_readonly(store_path) as store:
        faults = store.faults()
    context = browser.new_context()
    try:
        page = context.new_page()
        problems = Problems()
        problems.watch(page)
        dialogs: list[str] = []

        def on_dialog(dialog: Any) -> None:
            dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)
        for file in pages(site_dir):
            page.goto(file.as_uri(), wait_until="load")
            if page.locator("#replay").count():
                page.wait_for_selector("#replay[data-perspective]")
            assert page.evaluate("typeof window.pwned") == "undefined", file
            assert page.locator("img").count() == 0, file
        # The author's and the bot's text read as they were written (escapes shown).
        page.goto((site_dir / paths.bot_page("hostile_text@1")).as_uri(), wait_until="load")
        assert page.locator("p.about").text_content() == f"{AUTHOR} by {AUTHOR}"
        fault = faults[0]
        match_page = (site_dir / paths.match_page(fault["match_id"])).as_uri()
        page.goto(f"{match_page}#d={fault['decision'] + 1}", wait_until="load")
        page.wait_for_selector("#decision .fault")
        shown = page.locator("#decision .fault").text_content() or ""
        assert shown.startswith(f"fault EXCEPTION: ValueError: {SHOWN}")
        log = page.locator("details.bot-log pre").first.text_content() or ""
        assert f"decision 1 {SHOWN}\n" in log
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert dialogs == [] and problems.items == []
    finally:
        context.close()
