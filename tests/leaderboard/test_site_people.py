"""The site's controls for people, in headless Chromium: cards drawn with the heads and
colour the engine's card tables give them, links that restore a replay's decision and
seat, the last play highlighted, the head-to-head matrix equal to the store, the standings'
filter and retired toggle, keyboard help, the score graph, no horizontal scrolling at
phone width, and a seat's view that never shows an opponent's hidden card, whichever
control reached it."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from leaderboard import paths
from referee.league.store import LeagueStore
from referee.replay.snapshots import expand
from sdk.game.cards import hornochsen_points, nimmt_heads
from tests.leaderboard.browser import launch
from tests.leaderboard.conftest import RETIRED_BOT
from tests.leaderboard.test_site_browser import finished_match, open_clean, shown_table

pytestmark = pytest.mark.browser

FAMILIES = {
    "6nimmt:": "6nimmt",
    "xnimmt": "xnimmt",
    "11nimmt": "11nimmt",
    "hornochsen": "hornochsen",
}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    yield page
    context.close()


def match_url(site_dir: Path, match_id: str, fragment: str = "") -> str:
    return (site_dir / paths.match_page(match_id)).as_uri() + fragment


def shown_cards(page: Any) -> list[dict[str, Any]]:
    return list(
        page.eval_on_selector_all(
            "#table .card",
            """cs => cs.map(c => ({card: Number(c.textContent), heads: Number(c.dataset.heads),
                color: c.dataset.color, icons: c.querySelectorAll('svg.bull').length}))""",
        )
    )


@pytest.mark.parametrize("variant", list(FAMILIES))
def test_every_card_shows_the_heads_and_colour_of_the_engines_tables(
    page: Any, site_dir: Path, store_path: Path, variant: str
) -> None:
    match_id, replay = finished_match(store_path, variant)
    total = len(replay["decisions"])
    family = FAMILIES[variant]
    seen = 0
    for step in (0, total // 2, total):
        open_clean(page, match_url(site_dir, match_id, f"#d={step}"))
        assert page.get_attribute("#replay", "data-step") == str(step)
        for card in shown_cards(page):
            if family == "hornochsen":
                points = hornochsen_points(card["card"])
                assert card["heads"] == abs(points), card
                assert card["color"] == ("red" if points < 0 else "green"), card
            else:
                assert card["heads"] == nimmt_heads(card["card"]), card
                assert card["color"] == f"h{nimmt_heads(card['card'])}", card
            assert card["icons"] == card["heads"], card
            seen += 1
    assert seen > 10
    if family == "hornochsen":  # the specials on the rows are drawn as special cards
        rows = [r for snap in expand(replay["snapshots"]) for r in snap["rows"]]
        if any(r[1] or r[2] for r in rows):
            step = next(
                k
                for k, snap in enumerate(expand(replay["snapshots"]))
                if any(r[1] for r in snap["rows"]) or any(r[2] for r in snap["rows"])
            )
            open_clean(page, match_url(site_dir, match_id, f"#d={step}"))
            assert page.locator("#table .area .tag.special").count() >= 1


def test_the_url_fragment_restores_the_decision_and_the_seat(
    page: Any, site_dir: Path, store_path: Path
) -> None:
    match_id, _ = finished_match(store_path, "xnimmt")
    problems = open_clean(page, match_url(site_dir, match_id, "#d=7&seat=1"))
    assert page.get_attribute("#replay", "data-step") == "7"
    assert page.get_attribute("#replay", "data-perspective") == "seat1"
    assert page.input_value("#perspective") == "seat1"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#d=8&seat=1"
    page.select_option("#perspective", "referee")
    assert page.evaluate("location.hash") == "#d=8"
    page.evaluate("location.hash = '#d=3&seat=2'")  # a link followed within the page
    page.wait_for_selector("#replay[data-step='3'][data-perspective='seat2']")
    page.reload()
    page.wait_for_selector("#replay[data-step='3'][data-perspective='seat2']")
    assert problems.items == []


def rows_of(snap: dict[str, Any]) -> list[list[int]]:
    if "pile_tops" in snap:
        return [[t] for t in snap["pile_tops"]]
    return [r[0] if r and isinstance(r[0], list) else r for r in snap["rows"]]


@pytest.mark.parametrize("variant", list(FAMILIES))
def test_the_last_play_and_its_row_are_highlighted(
    page: Any, site_dir: Path, store_path: Path, variant: str
) -> None:
    match_id, replay = finished_match(store_path, variant)
    tables = expand(replay["snapshots"])
    checked = taken = 0
    open_clean(page, match_url(site_dir, match_id, "#d=0"))
    for step in range(1, len(tables)):
        before, after = rows_of(tables[step - 1]), rows_of(tables[step])
        if variant == "hornochsen":  # rows leave the circle: a row is known by its first card
            by_first = {row[0]: row for row in before if row}
            before = [by_first.get(row[0], []) if row else [] for row in after]
        changed = [i for i, row in enumerate(after) if i >= len(before) or row != before[i]]
        page.keyboard.press("ArrowRight")
        shown = page.eval_on_selector_all(
            "#table .area.changed", "as => as.map(a => Number(a.dataset.row))"
        )
        assert shown == changed, step
        new = sorted(
            {c for i in changed for c in after[i] if i >= len(before) or c not in before[i]}
        )
        marked = page.eval_on_selector_all(
            "#table .area .card.last", "cs => cs.map(c => Number(c.textContent))"
        )
        assert sorted(marked) == new, step
        seat = replay["decisions"][step - 1]["seat"]
        assert page.eval_on_selector_all(
            "#table .seat-box.last-mover", "bs => bs.map(b => Number(b.dataset.seat))"
        ) == [seat]
        checked += bool(changed)
        taken += page.locator("#table .area.taken").count()
    assert checked > 0
    if variant in ("6nimmt:", "xnimmt"):
        assert taken > 0  # some row was taken in a whole match


def test_action_text_is_in_words(page: Any, site_dir: Path, store_path: Path) -> None:
    match_id, replay = finished_match(store_path, "6nimmt:")
    open_clean(page, match_url(site_dir, match_id))
    listed = page.eval_on_selector_all("#decisions li", "ls => ls.map(l => l.textContent)")
    for record, text in zip(replay["decisions"], listed, strict=True):
        assert record["kind"] not in text and text.startswith(f"Seat {record['seat']} (")
        option = record["options"][record["choice"]]
        if record["kind"] == "PICK_CARD":
            assert f"picked {option[1]}" in text
        if record["kind"] == "TAKE_ROW":
            assert f"took row {option[2] + 1}" in text
    tables = expand(replay["snapshots"])
    step = next(
        k
        for k in range(1, len(tables))
        if tables[k]["round_penalties"] != tables[k - 1]["round_penalties"]
    )
    open_clean(page, match_url(site_dir, match_id, f"#d={step}"))
    seat = next(
        i
        for i, (a, b) in enumerate(
            zip(tables[step - 1]["round_penalties"], tables[step]["round_penalties"], strict=True)
        )
        if a != b
    )
    heads = tables[step]["round_penalties"][seat] - tables[step - 1]["round_penalties"][seat]
    assert f"Seat {seat} took {heads} head" in (page.text_content("#decision .then") or "")


def test_keyboard_help_and_the_score_graph(page: Any, site_dir: Path, store_path: Path) -> None:
    match_id, replay = finished_match(store_path, "hornochsen")
    problems = open_clean(page, match_url(site_dir, match_id))
    assert page.get_attribute("#keys", "open") is None
    page.keyboard.press("?")
    assert page.get_attribute("#keys", "open") is not None
    assert "#d=7&seat=1" in (page.text_content("#keys") or "")
    lines = page.locator("#score-graph polyline")
    assert lines.count() == replay["players"]
    points = lines.first.get_attribute("points") or ""
    assert len(points.split()) == len(replay["decisions"]) + 1
    page.keyboard.press("v")
    assert page.get_attribute("#replay", "data-perspective") == "seat0"
    assert problems.items == []


def test_head_to_head_cells_agree_with_the_store(
    page: Any, site_dir: Path, store_path: Path
) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        variants = [v["id"] for v in store.variants()]
        for variant in variants:
            tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
            for match in store.matches(variant=variant, status="finished"):
                results = store.results(match.match_id)
                for a in results:
                    for b in results:
                        if a["seat"] == b["seat"] or a["bot"] == b["bot"]:
                            continue
                        t = tally[(a["bot"], b["bot"])]
                        t[0] += 1
                        t[1 if a["rank"] < b["rank"] else 2 if a["rank"] > b["rank"] else 3] += 1
            open_clean(page, (site_dir / paths.standings_page(variant)).as_uri())
            cells = page.eval_on_selector_all(
                "#h2h tbody td[data-opponent]",
                """cs => cs.map(c => [c.closest('tr').dataset.bot, c.dataset.opponent,
                    Number(c.dataset.matches), Number(c.dataset.wins || 0),
                    Number(c.dataset.losses || 0), Number(c.dataset.ties || 0),
                    c.textContent])""",
            )
            shown = {(c[0], c[1]): c[2:6] for c in cells if c[2]}
            assert shown == {k: v for k, v in tally.items()}, variant
            for bot, opponent, n, wins, _, ties, text in cells:
                if n:
                    assert text.startswith(f"{100 * (wins + ties / 2) / n:.0f}%")
                assert (opponent, bot) in shown or not n


def test_standings_filter_retired_toggle_and_story_columns(page: Any, site_dir: Path) -> None:
    league = json.loads((site_dir / "league.json").read_text())
    variant = league["variants"][0]
    data = json.loads((site_dir / variant["standings"]).read_text())
    problems = open_clean(page, (site_dir / variant["page"]).as_uri())
    visible = "rs => rs.filter(r => !r.hidden).map(r => r.dataset.bot)"
    everyone = [r["bot"] for r in data["rows"]]
    assert page.eval_on_selector_all("#standings tbody tr", visible) == everyone
    top = page.eval_on_selector_all("#standings tbody tr.top", "rs => rs.map(r => r.dataset.bot)")
    assert top == everyone[:3]
    retired = [r["bot"] for r in data["rows"] if r["retired"]]
    assert retired == ([RETIRED_BOT] if RETIRED_BOT in everyone else [])
    if retired:
        assert page.locator(f"#standings tr[data-bot='{RETIRED_BOT}'] .retired-badge").count() == 1
        page.uncheck("#show-retired")
        assert page.eval_on_selector_all("#standings tbody tr", visible) == [
            b for b in everyone if b not in retired
        ]
        page.check("#show-retired")
    page.fill("#filter", "rules")
    assert page.eval_on_selector_all("#standings tbody tr", visible) == [
        b for b in everyone if "rules" in b
    ]
    page.fill("#filter", "Bullring examples")  # the author, from the manifest
    assert set(page.eval_on_selector_all("#standings tbody tr", visible)) == {
        r["bot"] for r in data["rows"] if r["author"] == "Bullring examples"
    }
    page.fill("#filter", "")
    headers = page.eval_on_selector_all("#standings th", "hs => hs.map(h => h.textContent)")
    for name in ("Win %", "Mean rank", "Δ"):
        assert name in headers
    arrows = page.eval_on_selector_all(
        "#standings td.change", "cs => cs.map(c => c.textContent.trim()[0])"
    )
    assert arrows == [
        "▲" if r["change"] > 0.005 else "▼" if r["change"] < -0.005 else "•" for r in data["rows"]
    ]
    rules = page.get_attribute(".lede a[href*='rules.html#']", "href") or ""
    assert rules.endswith(
        "#"
        + (
            "6nimmt"
            if variant["variant"].startswith("6nimmt")
            else variant["variant"].split(":")[0]
        )
    )
    assert problems.items == []


def test_phone_width_has_no_horizontal_scrolling(
    phone: Any, site_dir: Path, store_path: Path
) -> None:
    league = json.loads((site_dir / "league.json").read_text())
    names = ["index.html", paths.rules_page(), paths.match_list_page(1)]
    names += [v["page"] for v in league["variants"]]
    names += [
        f"{paths.BOTS_DIR}/{p.name}" for p in sorted((site_dir / paths.BOTS_DIR).glob("*.html"))
    ]
    for variant in FAMILIES:
        match_id, _ = finished_match(store_path, variant)
        names.append(paths.match_page(match_id))
    for name in names:
        open_clean(phone, (site_dir / name).as_uri())
        widths = phone.evaluate(
            "() => [document.documentElement.scrollWidth, document.body.scrollWidth,"
            " window.innerWidth]"
        )
        assert max(widths[:2]) <= widths[2] == PHONE["width"], (name, widths)


def test_a_seat_never_sees_an_opponents_hidden_card_through_any_control(
    page: Any, site_dir: Path, store_path: Path
) -> None:
    for variant in FAMILIES:
        match_id, replay = finished_match(store_path, variant)
        tables = expand(replay["snapshots"])
        seat = 1
        total = len(replay["decisions"])
        for step in sorted({1, total // 3, total // 2, total}):
            open_clean(page, match_url(site_dir, match_id, f"#d={step}&seat={seat}"))
            assert page.get_attribute("#replay", "data-perspective") == f"seat{seat}"
            check_no_hidden_card(page, tables[step], seat)
        page.keyboard.press("v")  # the next view is the next seat's
        assert page.get_attribute("#replay", "data-perspective") == f"seat{seat + 1}"
        check_no_hidden_card(page, tables[total], seat + 1)
        page.keyboard.press("Home")
        for step in range(1, min(total, 12) + 1):
            page.keyboard.press("ArrowRight")
            check_no_hidden_card(page, tables[step], seat + 1)


def check_no_hidden_card(page: Any, table: dict[str, Any], seat: int) -> None:
    """No opponent's hand is drawn, and no card held only in an opponent's hand appears
    anywhere in the table, the decision box or its highlights."""
    shown = shown_table(page)
    for other, hand in enumerate(shown["hands"]):
        if other != seat:
            assert hand is None, f"seat {other}'s hand is shown to seat {seat}"
    hidden = {c for i, h in enumerate(table["all_hands"]) if i != seat for c in h}
    drawn = set(
        page.eval_on_selector_all("#table .card", "cs => cs.map(c => Number(c.textContent))")
    )
    assert not (hidden & drawn), sorted(hidden & drawn)


LINES_OF_CELLS = """(table, columns) => [...table.querySelectorAll('tbody tr')].flatMap(tr =>
    columns.map(i => {
        const range = document.createRange();
        range.selectNodeContents(tr.children[i]);
        const tops = [...range.getClientRects()].map(r => Math.round(r.top));
        return [tr.children[i].textContent.trim(), new Set(tops).size];  // lines
    }))"""


def test_match_ids_and_times_stay_on_one_line(browser: Any, site_dir: Path) -> None:
    """In the match tables (the index, the match list, a bot's page), a match id or a
    finish time split over two lines at its hyphens reads as two things."""
    context = browser.new_context(viewport={"width": 1024, "height": 800})
    page = context.new_page()
    bot_pages = sorted((site_dir / paths.BOTS_DIR).glob("*.html"))
    try:
        for url in [
            (site_dir / "index.html").as_uri(),
            (site_dir / paths.match_list_page(1)).as_uri(),
            bot_pages[0].as_uri(),
        ]:
            open_clean(page, url)
            cells = page.eval_on_selector("table.matches", LINES_OF_CELLS, [0, 2])
            assert cells, url
            assert [cell for cell in cells if cell[1] != 1] == [], url
    finally:
        context.close()
