"""The human seat in the browser (issue 30): ``bullring play --bot human --web`` against a
real bot process, played in a real headless Chromium (Playwright) with the mouse: a whole
game with a reload mid-game, misclicks refused with a message and never sent, the page's
data never holding another seat's hand, and the end's link to the replay."""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sdk.game import new_game
from sdk.seeding import local_seeds
from tests.human_seat.terminal import RANDOM_BOT, bullring_argv
from tests.leaderboard.browser import Problems, launch

pytestmark = pytest.mark.browser

WAIT_MS = 120_000  # a bot's move on a loaded machine: generous, never a timing assertion
SEED = 5


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


class Match:
    """``bullring play ... --web`` running in the background, and its page's address."""

    def __init__(self, tmp_path: Path, variant: str, linger_s: int = 120, humans: int = 1) -> None:
        self.replay = tmp_path / "replay.json"
        self.out = (tmp_path / "out.txt").open("w")
        seats = ["--bot", "human"] * humans + ["--bot", RANDOM_BOT]
        argv = bullring_argv(
            "play", variant, *seats, "--seed", str(SEED),
            "--no-sandbox", "--setup-ms", "60000", "--web", "--no-browser",
            "--replay-out", str(self.replay), "--web-linger-s", str(linger_s),
        )  # fmt: skip
        self.process = subprocess.Popen(
            argv, cwd=tmp_path, stdout=self.out, stderr=subprocess.STDOUT, text=True
        )
        self.log = tmp_path / "out.txt"
        self.url = self._url()

    def _url(self) -> str:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            found = re.search(r"http://127\.0\.0\.1:\d+/", self.log.read_text())
            if found:
                return found.group(0)
            assert self.process.poll() is None, self.log.read_text()
            time.sleep(0.1)
        raise AssertionError("no page address printed")

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "state", timeout=30) as reply:
            data: dict[str, Any] = json.load(reply)
            return data

    def finish(self) -> int:
        try:
            return self.process.wait(timeout=300)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.out.close()


def wait_question(page: Any, after: int) -> int:
    """Wait until the page asks a question after question `after` (or the match ends);
    the question's number, or 0 at the end."""
    page.wait_for_function(
        f"""() => {{
            const body = document.body.dataset;
            return body.status === 'over' || (body.status === 'asking'
                && Number(body.version) > {after}
                && document.getElementById('status').textContent.startsWith('Your move'));
        }}""",
        timeout=WAIT_MS,
    )
    if page.evaluate("document.body.dataset.status") == "over":
        return 0
    return int(page.evaluate("Number(document.body.dataset.version)"))


def choose_first(page: Any) -> None:
    """Play the first legal option: a legal card in the hand or the draft, else a button."""
    legal = page.locator(".hand .card.legal, .draft .card.legal")
    if legal.count():
        legal.first.click()
    else:
        page.locator("#options button").first.click()


def posts_to_choose(page: Any) -> list[str]:
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/choose") else None)
    return sent


def cards_in(table: dict[str, Any]) -> set[int]:
    """Every card number the page's data shows."""
    found = set(table["hand"]) | set(table["draft"])
    for row in table["rows"]:
        found |= set(row["cards"])
    for player in table["players"]:
        found |= set(player["cards"])
    for line in table["happened"]:
        found |= {int(n) for n in re.findall(r"\d+", line)}
    return found


def test_a_whole_game_in_the_browser_through_a_reload(browser: Any, tmp_path: Path) -> None:
    match = Match(tmp_path, "6nimmt:rounds=1")
    page = browser.new_page()
    problems = Problems()
    problems.watch(page)
    try:
        page.goto(match.url)
        # Hidden information: the page's data for seat 0 never holds seat 1's hand.
        wait_question(page, 0)
        other = set(new_game("6nimmt", 2, local_seeds(SEED, 2).deal, {"rounds": "1"}).view(1).hand)
        state = match.state()
        assert state["table"]["seat"] == 0
        assert not cards_in(state["table"]) & other
        assert "all_hands" not in json.dumps(state)
        # A card that is not in the hand is refused with a message, and nothing is played.
        refused = urllib.request.Request(
            match.url + "choose",
            data=json.dumps({"version": state["version"], "card": 999}).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(refused, timeout=30)
        assert json.load(error.value)["message"] == "999 is not in your hand"
        assert match.state()["version"] == state["version"]
        question, played = 0, 0
        for _ in range(200):  # bounded: a game of one round has 10 to 20 questions
            question = wait_question(page, question)
            if not question:
                break
            if played == 3:  # a reload mid-game: the game lives in the server
                hand = page.locator(".hand").inner_text()
                page.reload()
                assert wait_question(page, question - 1) == question
                assert page.locator(".hand").inner_text() == hand
            choose_first(page)
            played += 1
        assert page.evaluate("document.body.dataset.status") == "over"
        page.wait_for_selector("#replay-page-link", timeout=WAIT_MS)
        # The file; relative, so the page works behind the arena's /play/GAME/ too.
        assert page.get_attribute("#replay-link", "href") == "replay"
        assert "rank" in page.locator("#end").inner_text()
        page.screenshot(path=str(tmp_path / "end.png"), full_page=True)
        # The match's replay page: the leaderboard's viewer on this match's data.
        page.click("#replay-page-link")
        page.wait_for_selector("#decisions li", state="attached", timeout=WAIT_MS)
        assert page.locator("#decisions li").count() == len(
            json.loads(match.replay.read_text())["decisions"]
        )
        page.click("#last")
        page.screenshot(path=str(tmp_path / "replay.png"), full_page=True)
    finally:
        page.close()
        code = match.finish()
    output = match.log.read_text()
    assert code == 0, output
    assert "Traceback" not in output
    replay = json.loads(match.replay.read_text())
    human = [d for d in replay["decisions"] if d["seat"] == 0]
    assert len(human) == played
    assert not any(d["fault"] for d in replay["decisions"])
    assert not problems.items, problems.items


def test_a_misclick_is_refused_with_a_message_and_never_sent(browser: Any, tmp_path: Path) -> None:
    # Logic opens with a draft: from the second draft on, the hand holds cards that
    # cannot be played while drafting.
    match = Match(tmp_path, "6nimmt-logic:rounds=1", linger_s=1)
    page = browser.new_page()
    try:
        page.goto(match.url)
        question = wait_question(page, 0)
        choose_first(page)
        question = wait_question(page, question)
        assert page.locator(".draft .card.legal").count()
        sent = posts_to_choose(page)
        card = page.locator(".hand .card").first
        number = card.get_attribute("data-card")
        card.click()
        assert page.locator("#message").inner_text() == f"{number} cannot be played now"
        assert not sent
        assert match.state()["version"] == question
        for _ in range(300):  # play the match out
            choose_first(page)
            question = wait_question(page, question)
            if not question:
                break
        page.screenshot(path=str(tmp_path / "logic.png"), full_page=True)
    finally:
        page.close()
        code = match.finish()
    assert code == 0, match.log.read_text()


def test_professional_two_ends_and_two_human_seats_in_the_browser(
    browser: Any, tmp_path: Path
) -> None:
    """6 nimmt! Professional with two human seats at one page: both seats are asked in
    turn, the row ends are chosen with the page's buttons, and the whole game is played
    with no fault (the replay records both seats' decisions)."""
    match = Match(tmp_path, "6nimmt-pro:rounds=1", humans=2)
    page = browser.new_page()
    problems = Problems()
    problems.watch(page)
    seats_asked: set[int] = set()
    ends: list[str] = []
    try:
        page.goto(match.url)
        question = 0
        for _ in range(300):  # bounded: two seats of a round of ten cards and their ends
            question = wait_question(page, question)
            if not question:
                break
            seats_asked.add(int(match.state()["table"]["seat"]))
            buttons = page.locator("#options button")
            texts = [buttons.nth(i).inner_text() for i in range(buttons.count())]
            if not page.locator(".hand .card.legal, .draft .card.legal").count():
                ends += [t for t in texts if " end)" in t]
            choose_first(page)
        assert page.evaluate("document.body.dataset.status") == "over"
        page.wait_for_selector("#replay-page-link", timeout=WAIT_MS)
        page.click("#replay-page-link")  # its last screen: the command may then end
        page.wait_for_selector("#decisions li", state="attached", timeout=WAIT_MS)
    finally:
        page.close()
        code = match.finish()
    assert code == 0, match.log.read_text()
    assert seats_asked == {0, 1}
    replay = json.loads(match.replay.read_text())
    assert {d["seat"] for d in replay["decisions"]} >= {0, 1}
    assert not any(d["fault"] for d in replay["decisions"])
    assert not problems.items, problems.items
    assert ends, "no question offered a row's end"  # the deal (seed 5) makes one
