"""The arena serves its leaderboard, always current and never half-built (issue 29, item
2): a real ``arena serve`` playing its ladder rebuilds the site as matches finish; read
over HTTP while builds replace each other, every page is whole; in a real browser the
index, a bot's page, the matches and the submit page work with no error; the live build
covers the store up to max(N matches, T s) plus a build; bots' output stays private."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.arena.ladder_arena import counts, ladder_server, server_log, wait_finished
from tests.leaderboard.browser import Problems, launch

pytestmark = [pytest.mark.browser, pytest.mark.slow]
WAIT_S = 180.0


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def health(url: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{url}/api/v1/health", timeout=30).json()
    return data


def wait_site(url: str, at_least: int, folder: Path) -> dict[str, Any]:
    """Health, once the live build covers at least `at_least` matches."""
    deadline = time.monotonic() + WAIT_S
    while (now := health(url)).get("site_matches", 0) < at_least or not now.get("site_builds"):
        assert time.monotonic() < deadline, (now, server_log(folder))
        time.sleep(0.2)
    return now


def test_the_arena_serves_a_current_whole_site(browser: Any, tmp_path: Path) -> None:
    server = ladder_server(tmp_path, ["a", "b", "c", "d"], extra="site_every_matches = 20")
    server.start()
    try:
        wait_finished(tmp_path, 5, server)
        first = wait_site(server.url, 1, tmp_path)
        # Read while the ladder plays and the site is rebuilt: every page whole, none
        # missing, and the live build moves on.
        pages = ["", "index.html", "last-hour.html", "submit.html", "rules.html"]
        seen_builds = {first["site_builds"]}
        deadline = time.monotonic() + WAIT_S
        while len(seen_builds) < 3:
            assert time.monotonic() < deadline, server_log(tmp_path)
            for page in pages:
                answer = httpx.get(f"{server.url}/{page}", timeout=30)
                assert answer.status_code == 200, (page, answer.status_code)
                assert answer.text.rstrip().endswith("</html>"), page
            seen_builds.add(health(server.url)["site_builds"])
        # Behind by at most max(N = 20 matches, T = 2 s) plus a build: sampled as it runs.
        done_before = counts(tmp_path)[0]
        now = wait_site(server.url, done_before, tmp_path)
        assert now["site_matches"] >= done_before

        page = browser.new_page()
        problems = Problems()
        problems.watch(page)
        try:
            page.goto(server.url + "/")
            text = page.locator("body").inner_text()
            assert "a@1" in text and "d@1" in text
            page.screenshot(path=str(tmp_path / "index.png"), full_page=True)
            page.click("main a[href*='bots/a_1']")
            page.wait_for_load_state()
            assert page.locator("h1").inner_text().startswith("a version 1")
            page.screenshot(path=str(tmp_path / "bot.png"), full_page=True)
            page.goto(server.url + "/submit.html")
            submit = page.locator("body").inner_text()
            assert "bullring bot upload" in submit and server.url in submit
            assert page.get_attribute("main a[href$='/play']", "href") == f"{server.url}/play"
            page.screenshot(path=str(tmp_path / "submit.png"), full_page=True)
            page.goto(server.url + "/last-hour.html")
            page.click("main a[href*='matches/']")
            page.wait_for_load_state()
            page.screenshot(path=str(tmp_path / "match.png"), full_page=True)
        finally:
            page.close()
        assert not problems.items, problems.items
    finally:
        server.stop()
    live = (tmp_path / "arena.sqlite.site" / "current").resolve()
    assert not list(live.rglob("*.log.txt"))  # public_logs = false: no bot output published
