"""The web desk on its own (in-process, over real HTTP on loopback): what the page's data
holds for every family, a stale or bad choice refused, and a closed tab ending the seat."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from typing import Any

import pytest

from human_seat.bot import SeatClosed
from human_seat.table import Ask, table_of
from human_seat.web import WebDesk
from sdk.game import PRESETS, SixNimmtView, driver, new_game
from sdk.match import DecisionClock

NAMES = ("human", "bot a", "bot b")


def first_ask(variant: str, seat: int = 0) -> Ask:
    """The first question put to `seat` in a seeded 3-player game (all seats playing
    their first option until then)."""
    state = new_game(variant, 3, 11)
    for _ in range(500):
        step = driver.asks(state)
        mine = [a for a in step if a.seat == seat]
        if mine:
            return Ask(seat, NAMES, mine[0].view, mine[0].options, DecisionClock(0, 0))
        driver.apply_choices(state, step, [0] * len(step))
    raise AssertionError(f"seat {seat} is never asked in {variant}")


def cards_shown(table: dict[str, Any]) -> set[int]:
    found = set(table["hand"]) | set(table["draft"])
    for row in table["rows"]:
        found |= set(row["cards"])
    for player in table["players"]:
        found |= set(player["cards"])
    return found


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_the_page_data_never_holds_another_seats_hand(variant: str) -> None:
    ask = first_ask(variant)
    if isinstance(ask.view, SixNimmtView) and ask.view.public_hands:
        pytest.skip("Logic: every hand is public knowledge")
    table = table_of(ask)
    json.dumps(table)  # plain data
    state = new_game(variant, 3, 11)
    others: set[int] = set()
    for seat in (1, 2):
        others |= set(state.view(seat).hand)
    assert not cards_shown(table) & others
    assert set(table["hand"]) == set(ask.view.hand)


def post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> tuple[int, str]:
    sent = {"Content-Type": "application/json", **(headers or {})}
    data = json.dumps(body).encode()
    request = urllib.request.Request(url + "choose", data=data, method="POST", headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.load(reply)["message"]
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)["message"]


def test_choices_from_the_page() -> None:
    desk = WebDesk()
    desk.start()
    ask = first_ask("6nimmt")
    answer: list[int] = []
    asking = threading.Thread(target=lambda: answer.append(desk.choose(ask)))
    try:
        assert post(desk.url, {"version": 1, "index": 0})[0] == 409  # nothing asked yet
        asking.start()
        for _ in range(600):  # bounded wait for the question to open (no timing asserted)
            if desk.state()["status"] == "asking":
                break
            threading.Event().wait(0.05)
        assert post(desk.url, {"version": 0, "index": 0})[0] == 409  # a stale question
        # Not from a page of this server: a simple cross-origin POST, a rebound name.
        assert post(desk.url, {"version": 1, "index": 0}, {"Content-Type": "text/plain"})[0] == 415
        assert post(desk.url, {"version": 1, "index": 0}, {"Host": "evil.example:80"})[0] == 403
        assert post(desk.url, {"version": 1, "card": 999}) == (400, "999 is not in your hand")
        assert post(desk.url, {"version": 1, "index": 99})[0] == 400
        assert post(desk.url, {"version": 1, "index": True})[0] == 400
        card = ask.view.hand[-1]
        assert post(desk.url, {"version": 1, "card": card}) == (200, "")
        asking.join(60)
        assert ask.options[answer[0]].card == card
    finally:
        desk.stop()


def test_a_page_gone_for_too_long_leaves_the_seat() -> None:
    desk = WebDesk(gone_after_s=0.5)
    desk.start()
    try:
        with pytest.raises(SeatClosed):
            desk.choose(first_ask("xnimmt"))  # nobody polls the page
        with pytest.raises(SeatClosed):
            desk.choose(first_ask("xnimmt"))  # and every later question too
    finally:
        desk.stop()


def test_a_bots_name_is_shown_inert() -> None:
    from human_seat.bot import HumanBot
    from sdk.match import MatchInfo

    bot = HumanBot(WebDesk())
    bot.start_match(MatchInfo("m", "6nimmt", {}, 0, 2, ("human", "evil\x1b[2J\r")))
    assert bot.names[1] == "evil\\x1b[2J\\r"
