"""The site's match pages link each match's replay file with the commands that open it,
and show the log tail of a seat that faulted; a bot's output there is inert (escaped
markup, control characters shown escaped), in the HTML and in a real headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from leaderboard import paths
from leaderboard.build import build_site
from referee.league.store import LeagueStore
from tests.leaderboard.browser import Problems, launch
from tests.referee.league.leagues import bullring
from tests.referee.league.log_league import run_log_league


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The built site of a league whose bot prints and faults, and its store."""
    folder = tmp_path_factory.mktemp("logsite")
    run_log_league(folder)
    store = folder / "logs.sqlite"
    return build_site(store, folder / "site").out_dir, store


def test_every_match_page_links_its_replay_file_which_bullring_replay_opens(
    site: tuple[Path, Path],
) -> None:
    site_dir, store_path = site
    with LeagueStore.open_readonly(store_path) as store:
        matches = store.matches(status="finished")
        replays = {m.match_id: store.replay(m.match_id) for m in matches}
    for match_id, stored in replays.items():
        html = (site_dir / paths.match_page(match_id)).read_text()
        name = paths.replay_file(match_id).rsplit("/", 1)[-1]
        assert f'<a href="{name}" download>Download the replay</a>' in html
        assert f"<code>bullring replay {name}</code>" in html
        assert f"<code>bullring replay <var>LEAGUE.toml</var> {match_id}</code>" in html
        shown = bullring("replay", name, "--print-all", cwd=site_dir / paths.MATCHES_DIR)
        assert shown.returncode == 0, shown.stderr
        assert stored is not None and f"{len(stored['decisions'])} decisions in" in shown.stdout
    exported = site_dir.parent / "exported.json"
    first = next(iter(replays))
    done = bullring(
        "replay", str(site_dir / paths.replay_file(first)), "--export", str(exported), cwd=site_dir
    )
    assert done.returncode == 0, done.stderr


def test_a_faulted_seats_log_tail_is_on_its_match_page_escaped(site: tuple[Path, Path]) -> None:
    site_dir, store_path = site
    with LeagueStore.open_readonly(store_path) as store:
        match = store.matches(status="finished")[0]
    seat = match.seats.index("log_marker@1")
    html = (site_dir / paths.match_page(match.match_id)).read_text()
    assert '<details class="bot-log" open>' in html
    assert f"Seat {seat} · log_marker@1: what it printed during the match (1 fault)" in html
    assert "&lt;script&gt;alert(&#39;log&#39;)&lt;/script&gt;" in html
    assert "<script>alert" not in html and "</pre><b>bold" not in html
    assert "\\x1b[2J\\x07\\x00" in html
    assert not any(c in html for c in "\x1b\x07\x00")
    assert f"bullring league log <var>LEAGUE.toml</var> {match.match_id} --seat {seat}" in html
    text = (site_dir / paths.log_tail(match.match_id, seat)).read_text()
    assert f"ValueError: marker bug in {match.match_id}" in text
    # The bot's page links each of its faults to the log tail of that match.
    bot_page = (site_dir / paths.bot_page("log_marker@1")).read_text()
    link = f'<a class="log" href="../{paths.log_tail(match.match_id, seat)}">bot log</a>'
    assert link in bot_page
    assert "bot log" not in (site_dir / paths.bot_page("first_option@1")).read_text()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.mark.browser
def test_the_log_tail_stays_text_in_a_browser(browser: Any, site: tuple[Path, Path]) -> None:
    site_dir, store_path = site
    with LeagueStore.open_readonly(store_path) as store:
        match = store.matches(status="finished")[0]
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
        page.goto((site_dir / paths.match_page(match.match_id)).as_uri(), wait_until="load")
        page.wait_for_selector("#replay[data-perspective]")
        log = page.locator("details.bot-log pre").first
        assert log.is_visible()
        text = log.text_content() or ""
        assert "<script>alert('log')</script>" in text and "</pre><b>bold</b>" in text
        assert page.locator("details.bot-log pre b").count() == 0  # no element from the bot
        scripts = "[...document.scripts].some(s => s.textContent.includes('alert'))"
        assert page.evaluate(scripts) is False  # no script element from the bot's output
        link = page.locator(".replay-file a")
        assert link.get_attribute("href") == paths.replay_file(match.match_id).rsplit("/", 1)[-1]
        assert dialogs == [] and problems.items == []
    finally:
        context.close()
