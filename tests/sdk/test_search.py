"""sdk.search: seen cards from a view, typed state accessors, the cheapest-row playout
policy and the count-bounded evaluate."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from sdk import Bot, play_local, seen_cards
from sdk.game.core import DecisionKind, GameState, Option, OptionKind
from sdk.game.sixnimmt import SixNimmtState
from sdk.game.variants import new_game
from sdk.game.views import SixNimmtView
from sdk.search import (
    cheapest_row,
    elevennimmt_state,
    evaluate_deals,
    hornochsen_state,
    sixnimmt_state,
    xnimmt_state,
)


@pytest.mark.parametrize("variant", ["6nimmt", "6nimmt-tactics", "6nimmt-pro"])
def test_seen_cards_holds_everything_visible_and_no_hidden_card(variant: str) -> None:
    rng = random.Random(2)
    checked = 0
    for game in range(3):
        state = sixnimmt_state(new_game(variant, 4, game, {"rounds": "2"}))
        while not state.is_terminal():
            for seat in state.pending():
                view = state.view(seat)
                assert isinstance(view, SixNimmtView)
                seen = seen_cards(view)
                hidden = {c for s, h in enumerate(state.hands) if s != seat for c in h}
                hidden -= {c for _, c in view.revealed}  # revealed picks are face up
                assert not seen & hidden
                assert set(view.hand) <= seen
                assert {c for row in state.rows for c in row} <= seen
                assert {c for pile in state.piles for c in pile} <= seen  # taken this round
                checked += 1
            for seat in state.pending():
                state.apply(seat, rng.choice(state.legal_options(seat)))
    assert checked > 100


def test_each_accessor_gives_its_familys_state_and_refuses_the_others() -> None:
    accessors: dict[str, Callable[[GameState], GameState]] = {
        "6nimmt": sixnimmt_state,
        "xnimmt": xnimmt_state,
        "11nimmt": elevennimmt_state,
        "hornochsen": hornochsen_state,
    }
    for variant, accessor in accessors.items():
        state = new_game(variant, 4, 1)
        assert accessor(state) is state
        for other, refuse in accessors.items():
            if other != variant:
                with pytest.raises(TypeError):
                    refuse(state)


def last_option(
    state: GameState, seat: int, options: Sequence[Option], rng: random.Random
) -> Option:
    return options[-1]


def test_cheapest_row_takes_the_row_with_fewest_heads_and_delegates_the_rest() -> None:
    rows = [[33, 34], [20], [44], [66]]  # 6, 3, 5 and 5 heads
    state = SixNimmtState.from_position(
        "6nimmt", [[2, 90], [91, 92]], rows, revealed=[(0, 1), (1, 93)]
    )
    assert state.decision_kind(0) == DecisionKind.TAKE_ROW
    policy = cheapest_row(last_option)
    chosen = policy(state, 0, state.legal_options(0), random.Random(0))
    assert chosen == Option(OptionKind.ROW, row=1)
    picking = sixnimmt_state(new_game("6nimmt", 2, 1))
    options = picking.legal_options(0)
    assert policy(picking, 0, options, random.Random(0)) == options[-1]
    # A whole playout with it runs to the end of the game.
    for seed in range(5):
        game = new_game("6nimmt:rounds=1", 4, seed)
        assert len(game.playout(random.Random(seed), cheapest_row())) == 4


def test_evaluate_deals_samples_exactly_that_many_deals_reproducibly() -> None:
    state = new_game("6nimmt:rounds=1", 4, 7)
    view = state.view(0)
    options = state.legal_options(0)
    first = evaluate_deals(view, options, random.Random(3), deals=5, policy=cheapest_row())
    again = evaluate_deals(view, options, random.Random(3), deals=5, policy=cheapest_row())
    assert first.deals == 5 and first.samples == (5,) * len(options)
    assert first == again
    with pytest.raises(ValueError):
        evaluate_deals(view, options, random.Random(3), deals=0)


def test_the_documented_monte_carlo_bot_plays_a_local_game() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "montecarlo.md").read_text()
    found = re.search(r"<!-- doc-test: bot -->\n```python\n(.*?)```", doc, re.DOTALL)
    assert found is not None
    namespace: dict[str, object] = {"__name__": "docs_montecarlo"}  # not run(): no server
    exec(compile(found.group(1), "docs/montecarlo.md", "exec"), namespace)
    bot = namespace["MyBot"]
    assert isinstance(bot, type) and issubclass(bot, Bot)
    result = play_local("6nimmt:rounds=1", [bot, bot], seed=1, clock=True, decision_ms=100)
    assert result.faults == (0, 0) and len(result.decisions) >= 20  # 10 cards each, at least


def test_the_documented_custom_determinization_runs_and_matches_the_view(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "montecarlo.md").read_text()
    found = re.search(r"<!-- doc-test: determinization -->\n```python\n(.*?)```", doc, re.DOTALL)
    assert found is not None
    namespace: dict[str, object] = {}
    exec(compile(found.group(1), "docs/montecarlo.md", "exec"), namespace)
    printed = capsys.readouterr().out.split()
    assert printed[-1] == "20" and printed[0] == "card"  # e.g. "card 47 20"
    sample = namespace["my_sample"]
    assert callable(sample)
    # Mid-game, with rows taken: the sampled state shows the seat exactly its view.
    rng = random.Random(4)
    for seed in range(3):
        state = sixnimmt_state(new_game("6nimmt", 4, seed, {"rounds": "1"}))
        while not state.is_terminal():
            seats = state.pending()
            if state.decision_kind(seats[0]) == DecisionKind.PICK_CARD and len(seats) == 4:
                view = state.view(1)
                assert isinstance(view, SixNimmtView)
                sampled = sample(view, rng)
                assert isinstance(sampled, SixNimmtState)
                again = sampled.view(1)
                assert again.hand == view.hand and again.rows == view.rows
                assert again.header.scores == view.header.scores
                assert again.round_penalties == view.round_penalties
                assert tuple(again.header.history) == tuple(view.header.history)
            for seat in seats:
                state.apply(seat, rng.choice(state.legal_options(seat)))
