"""Every kind of decision of every family drawn for a person: the terminal's screen and
the page's data name the prompt and every option (Professional's two ends, 11 nimmt!'s
piles and steals, the X row, Logic's draft, Hornochsen!'s specials)."""

from __future__ import annotations

import io
import random

from rich.console import Console

from human_seat.table import Ask, table_of
from human_seat.terminal import TerminalDesk
from sdk.game import PRESETS, DecisionKind, driver, new_game
from sdk.match import DecisionClock

NAMES = ("human", "bot a", "bot b")


def asks_by_kind() -> dict[DecisionKind, Ask]:
    """A question of each decision kind, from seeded games played at random."""
    found: dict[DecisionKind, Ask] = {}
    for variant in sorted(PRESETS):
        for seed in range(40):  # (a steal needs an empty bull supply: deep in a game)
            if len(found) == len(DecisionKind):
                return found
            rng = random.Random(seed)
            state = new_game(variant, 3, seed)
            for _ in range(2000):  # bounded: the longest of these games is far shorter
                if state.is_terminal():
                    break
                step = driver.asks(state)
                for a in step:
                    kind = a.view.header.decision
                    if kind is not None and kind not in found:
                        clock = DecisionClock(0, 0)
                        found[kind] = Ask(a.seat, NAMES, a.view, a.options, clock, ("x",))
                choices = [rng.randrange(len(a.options)) for a in step]
                driver.apply_choices(state, step, choices)
    return found


def test_every_decision_kind_is_drawn_with_its_options() -> None:
    found = asks_by_kind()
    assert set(found) == set(DecisionKind)
    desk = TerminalDesk()
    for kind, ask in found.items():
        data = table_of(ask)
        assert data["prompt"] != "choose", kind
        labels = [o["label"] for o in data["options"]]
        assert len(labels) == len(ask.options)
        out = io.StringIO()
        console = Console(file=out, width=140, color_system=None)
        console.print(desk.render(ask, len(ask.options) - 1, "", "a message"))
        screen = out.getvalue()
        assert data["prompt"] in screen, kind
        for label in labels:
            assert label in screen, (kind, label)
        assert "a message" in screen
    assert "end" in table_of(found[DecisionKind.CHOOSE_PLACE])["options"][0]["label"]
    assert (
        "steal a bull card from" in table_of(found[DecisionKind.STEAL_BULL])["options"][0]["label"]
    )
