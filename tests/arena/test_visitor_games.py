"""Visitors play the arena's active bots (issue 30, item 2): from the arena's /play page a
real browser starts a game against the ladder's bots and plays it to the end through the
arena (a reload mid-game included), its replay one click away; the game never reaches the
ladder's store; bad requests get a status and a sentence; a full house is 503."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from referee.league.store import LeagueStore
from tests.arena.ladder_arena import counts, ladder_server, wait_finished, wait_none_running
from tests.arena.servers import Server
from tests.human_seat.test_web_seat import WAIT_MS, choose_first, wait_question
from tests.leaderboard.browser import Problems, launch

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[Server]:
    server = ladder_server(tmp_path, ["a", "b", "c"], extra="human_games = 1")
    server.start()
    try:
        wait_finished(tmp_path, 1, server)  # the house bots are registered and active
        yield server
    finally:
        server.stop()


def test_a_visitor_plays_the_bots_through_the_arena(
    browser: Any, arena: Server, tmp_path: Path
) -> None:
    page = browser.new_page()
    problems = Problems()
    problems.watch(page)
    try:
        page.goto(f"{arena.url}/play")
        assert "a@1" not in page.content()  # names, not keys
        assert "Active bots: a, b, c" in page.locator("main").inner_text()
        page.click("button[type=submit]")
        page.wait_for_url(f"{arena.url}/play/*/", timeout=WAIT_MS)
        game = page.url.rstrip("/").rsplit("/", 1)[1]
        asked, moves = 0, 0
        while (asked := wait_question(page, asked)) != 0:
            if moves == 3:
                page.reload()  # the game lives in the server: the page finds it again
                asked = wait_question(page, 0)
            choose_first(page)
            moves += 1
        assert moves >= 10  # a whole 6 nimmt! round: ten cards
        assert "rank" in page.locator("#end").inner_text()
        page.screenshot(path=str(tmp_path / "end.png"), full_page=True)
        page.click("#replay-page-link")
        page.wait_for_url(f"{arena.url}/play/{game}/replay.html", timeout=WAIT_MS)
        page.wait_for_selector("#decisions li", state="attached", timeout=WAIT_MS)
        assert page.locator("#decisions li").count() >= moves
        page.screenshot(path=str(tmp_path / "replay.png"), full_page=True)
    finally:
        page.close()
    # A poll of the game's state in flight when the page navigates (the reload, the replay
    # link) is aborted by the browser: that is no fault of the page.
    aborted = re.compile(r"failed: .*/state net::ERR_ABORTED")
    assert not [p for p in problems.items if not aborted.fullmatch(p)], problems.items
    # The visitor's game is not the ladder's: no stored match has a human seat or its id.
    with LeagueStore.open_readonly(tmp_path / "arena.sqlite") as store:
        matches = store.matches()
        assert all("|ladder|" in m.slot for m in matches)
        assert all(not key.startswith("human") for m in matches for key in m.seats)
        assert {b.spec.name for b in store.bots()} == {"a", "b", "c"}


def test_bad_game_requests_are_refused_with_a_sentence(arena: Server) -> None:
    api = f"{arena.url}/api/v1/games"

    def refused(body: Any, status: int) -> str:
        answer = httpx.post(api, json=body, timeout=30)
        assert answer.status_code == status, answer.text
        return str(answer.json()["error"])

    assert "no variant" in refused({"variant": "11nimmt"}, 404)
    assert "no active bot 'zed'" in refused({"bots": ["a", "zed"]}, 404)
    assert "name 2 bots" in refused({"bots": ["a"]}, 400)
    assert "list of bot names" in refused({"bots": "a"}, 400)
    answer = httpx.post(api, content=b"{not json", timeout=30)
    assert answer.status_code == 400 and "send JSON" in answer.json()["error"]
    assert httpx.get(f"{arena.url}/play/{'0' * 32}/", timeout=30).status_code == 404
    assert httpx.get(f"{arena.url}/play/..%2f..%2fetc/", timeout=30).status_code == 404

    first = httpx.post(api, json={"bots": ["c", "b"]}, timeout=120)
    assert first.status_code == 201, first.text
    assert sorted(k for k in first.json()["seats"] if k != "human") == ["b@1", "c@1"]
    assert "every table is taken" in refused({}, 503)  # human_games = 1
    state = httpx.get(f"{arena.url}{first.json()['url']}state", timeout=30)
    assert state.status_code == 200 and "status" in state.json()
    # The ladder plays on beside it.
    done = counts(arena.folder)[0]
    deadline = time.monotonic() + 120
    while counts(arena.folder)[0] <= done:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    # A kill -9 of the server takes the game with it: the play command, its seat's page
    # and its bots (and the ladder), nothing left running.
    arena.kill()
    wait_none_running(arena.folder)


def test_stopping_the_arena_ends_its_games_cleanly(arena: Server) -> None:
    game = httpx.post(f"{arena.url}/api/v1/games", json={}, timeout=120)
    assert game.status_code == 201, game.text
    arena.stop()  # SIGTERM: the games are stopped as Ctrl-C stops bullring play
    assert arena.process is not None and arena.process.returncode == 0
    wait_none_running(arena.folder)
