"""The built site in headless Chromium: pages load cleanly, tables sort, the replay viewer
steps through the match exactly as the engine played it, and a seat sees no hidden card."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from leaderboard import paths
from referee.league.store import LeagueStore
from referee.replay.model import Replay
from referee.replay.resimulate import new_state
from referee.replay.values import option_from_json
from tests.leaderboard.browser import Problems, launch
from tests.leaderboard.tables import table_of

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    page = context.new_page()
    yield page
    context.close()


FAMILIES = ["6nimmt:", "xnimmt", "11nimmt", "hornochsen"]


def all_pages(site_dir: Path) -> list[str]:
    return sorted(str(p.relative_to(site_dir)) for p in site_dir.rglob("*.html"))


def open_clean(page: Any, url: str) -> Problems:
    problems = Problems()
    problems.watch(page)
    page.goto(url, wait_until="load")
    if page.locator("#replay").count():
        page.wait_for_selector("#replay[data-perspective]")
    return problems


@pytest.mark.parametrize("scheme", ["file", "http"])
def test_every_page_loads_without_errors(
    page: Any, site_dir: Path, http_root: str, scheme: str
) -> None:
    names = all_pages(site_dir)
    assert "index.html" in names and any(n.startswith("matches/") for n in names)
    root = site_dir.as_uri() + "/" if scheme == "file" else http_root
    for name in names:
        problems = open_clean(page, root + name)
        assert problems.items == [], f"{name}: {problems.items}"
        assert page.title(), name


def test_every_perspective_of_a_match_loads(page: Any, site_dir: Path, store_path: Path) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        match = store.matches(status="finished")[0]
    problems = open_clean(page, (site_dir / paths.match_page(match.match_id)).as_uri())
    values = page.eval_on_selector_all("#perspective option", "os => os.map(o => o.value)")
    assert values == ["referee", *(f"seat{s}" for s in range(len(match.seats)))]
    for value in values:
        page.select_option("#perspective", value)
        page.wait_for_selector(f"#replay[data-perspective='{value}']")
    assert problems.items == []


def column(page: Any, index: int) -> list[str]:
    return list(
        page.eval_on_selector_all(
            "#standings tbody tr",
            f"rows => rows.map(r => r.cells[{index}].getAttribute('data-value'))",
        )
    )


def test_sorting_a_standings_table_reorders_it(page: Any, site_dir: Path) -> None:
    variant = json.loads((site_dir / "league.json").read_text())["variants"][0]["variant"]
    open_clean(page, (site_dir / paths.standings_page(variant)).as_uri())
    headers = page.eval_on_selector_all("#standings th", "hs => hs.map(h => h.textContent)")
    mu, bot = headers.index("mu"), headers.index("Bot")
    before = [float(v) for v in column(page, mu)]
    page.click(f"#standings th:nth-child({mu + 1})")
    ascending = [float(v) for v in column(page, mu)]
    assert ascending == sorted(before)
    page.click(f"#standings th:nth-child({mu + 1})")
    assert [float(v) for v in column(page, mu)] == sorted(before, reverse=True)
    page.click(f"#standings th:nth-child({bot + 1})")
    names = column(page, bot)
    assert names == sorted(names, key=str.lower) and len(set(names)) == len(names)
    ranks = [int(v) for v in column(page, headers.index("Rank"))]
    assert ranks != sorted(ranks)  # the rows really moved


def engine_tables(replay: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The table of `seat` (-1: referee) before the first and after every decision,
    re-simulated here with the engine, independently of the site's data files."""
    state = new_state(Replay.from_json(replay))
    tables = [table_of(state.view(seat))]
    for record in replay["decisions"]:
        option = option_from_json(record["options"][record["choice"]])
        state.apply(int(record["seat"]), option)
        tables.append(table_of(state.view(seat)))
    return tables


def shown_table(page: Any) -> dict[str, Any]:
    """What the viewer shows: each area's label, cards and tags, each seat's hand (None:
    hidden) and extra lines, the notes, and the step."""
    return dict(
        page.evaluate(
            """() => ({
        areas: [...document.querySelectorAll('#table .area')].map(a => ({
            label: a.querySelector('.label').textContent,
            cards: [...a.querySelectorAll('.card')].map(c => Number(c.textContent)),
            tags: [...a.querySelectorAll('.tag')].map(t => t.textContent)})),
        hands: [...document.querySelectorAll('#table .seat-box')].map(b =>
            b.querySelector('.hidden-hand') ? null
            : [...b.querySelectorAll('.hand .card')].map(c => Number(c.textContent))),
        extra: [...document.querySelectorAll('#table .seat-box')].map(b =>
            [...b.querySelectorAll('.extra')].map(e => e.textContent)),
        notes: [...document.querySelectorAll('#table .note')].map(n => n.textContent),
        step: Number(document.getElementById('replay').getAttribute('data-step')),
    })"""
        )
    )


def expect(table: dict[str, Any]) -> dict[str, Any]:
    """What the viewer must show for an engine table (tests/leaderboard/tables.py)."""
    return {
        "areas": table["areas"],
        "hands": [s["hand"] for s in table["seats"]],
        "extra": [s["extra"] for s in table["seats"]],
        "notes": table["notes"],
    }


def finished_match(store_path: Path, variant_prefix: str) -> tuple[str, dict[str, Any]]:
    with LeagueStore.open_readonly(store_path) as store:
        for match in store.matches(status="finished"):
            if match.variant.startswith(variant_prefix):
                replay = store.replay(match.match_id)
                assert replay is not None
                return match.match_id, replay
    raise AssertionError(f"no {variant_prefix} match")


@pytest.mark.parametrize("variant", FAMILIES)
def test_replay_viewer_steps_and_matches_the_engine(
    page: Any, site_dir: Path, store_path: Path, variant: str
) -> None:
    match_id, replay = finished_match(store_path, variant)
    expected = engine_tables(replay, -1)
    total = len(replay["decisions"])
    problems = open_clean(page, (site_dir / paths.match_page(match_id)).as_uri())
    shown = shown_table(page)
    assert shown == {**expect(expected[0]), "step": 0}
    for step in range(1, 8):  # forward with the arrow key
        page.keyboard.press("ArrowRight")
        assert shown_table(page) == {**expect(expected[step]), "step": step}
    for step in (6, 5):  # back with the button
        page.click("#prev")
        assert shown_table(page) == {**expect(expected[step]), "step": step}
    page.keyboard.press("ArrowLeft")
    assert shown_table(page)["step"] == 4
    page.fill("#jump", str(total - 3))  # jump to a decision
    page.dispatch_event("#jump", "change")
    assert shown_table(page) == {**expect(expected[total - 3]), "step": total - 3}
    page.click("#last")
    assert shown_table(page) == {**expect(expected[total]), "step": total}
    assert page.is_disabled("#next")  # already at the end
    page.keyboard.press("ArrowRight")
    assert shown_table(page)["step"] == total
    record = replay["decisions"][total - 1]
    text = page.text_content("#decision") or ""
    assert f"{record['ms']:.1f} ms" in text and record["kind"] not in text  # words, no enum
    assert text.startswith(f"Seat {record['seat']} (")
    assert page.get_attribute("#decision", "data-kind") == record["kind"]
    assert problems.items == []


def test_faults_are_shown_at_their_decision(page: Any, site_dir: Path, store_path: Path) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        fault = store.faults()[0]
        replay = store.replay(fault["match_id"])
    assert replay is not None
    open_clean(page, (site_dir / paths.match_page(fault["match_id"])).as_uri())
    page.fill("#jump", str(fault["decision"] + 1))
    page.dispatch_event("#jump", "change")
    assert f"fault {fault['kind']}" in (page.text_content("#decision") or "")


@pytest.mark.parametrize("variant", FAMILIES)
def test_a_seat_view_shows_what_the_seat_saw_and_no_hidden_card(
    page: Any, site_dir: Path, store_path: Path, variant: str
) -> None:
    match_id, replay = finished_match(store_path, variant)
    seat = 1
    own = engine_tables(replay, seat)
    referee = engine_tables(replay, -1)
    open_clean(page, (site_dir / paths.match_page(match_id)).as_uri())
    page.select_option("#perspective", f"seat{seat}")
    page.wait_for_selector(f"#replay[data-perspective='seat{seat}']")
    page.keyboard.press("Home")
    for step in range(len(replay["decisions"]) + 1):
        shown = shown_table(page)
        assert shown == {**expect(own[step]), "step": step}  # exactly the engine's view(seat)
        for other, hand in enumerate(shown["hands"]):
            if other != seat:
                assert hand is None, f"step {step}: seat {other}'s hand is shown to seat {seat}"
        assert shown["hands"][seat] == referee[step]["seats"][seat]["hand"]
        page.keyboard.press("ArrowRight")
    # an opponent's face-down pick, and its options (which list its hand), are not shown
    listed = page.eval_on_selector_all("#decisions li", "ls => ls.map(l => l.textContent)")
    for record, text in zip(replay["decisions"], listed, strict=True):
        if record["seat"] != seat and record["kind"] == "PICK_CARD":
            assert "picked a card face down" in text
    other = next(n for n, r in enumerate(replay["decisions"]) if r["seat"] != seat)
    page.fill("#jump", str(other + 1))
    page.dispatch_event("#jump", "change")
    assert page.locator("#decision .options").count() == 0
    page.fill(
        "#jump", str(next(n for n, r in enumerate(replay["decisions"]) if r["seat"] == seat) + 1)
    )
    page.dispatch_event("#jump", "change")
    assert page.locator("#decision .options").count() == 1


def test_public_hands_variant_shows_every_hand_to_a_seat(
    page: Any, site_dir: Path, store_path: Path
) -> None:
    match_id, replay = finished_match(store_path, "6nimmt-logic")
    own = engine_tables(replay, 0)
    open_clean(page, (site_dir / paths.match_page(match_id)).as_uri())
    page.select_option("#perspective", "seat0")
    page.wait_for_selector("#replay[data-perspective='seat0']")
    page.click("#last")
    assert shown_table(page)["hands"] == expect(own[-1])["hands"]
