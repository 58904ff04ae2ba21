"""Tools for bots that search (docs/montecarlo.md, "The search toolkit").

- :func:`seen_cards`: every number card a seat has seen face up this round, from its view.
- Typed state accessors (:func:`sixnimmt_state`, :func:`xnimmt_state`,
  :func:`elevennimmt_state`, :func:`hornochsen_state`): a playout policy is handed a
  :class:`~sdk.game.core.GameState`; these give it the family's own state class (its
  fields documented in docs/montecarlo.md) without an isinstance check of its own.
- :func:`cheapest_row`: a playout policy that takes the cheapest row on a forced take
  (6 nimmt! family) and plays any other decision with another policy (random by default).
- :func:`evaluate_deals`: :func:`sdk.montecarlo.evaluate` bounded by a count of sampled
  deals instead of a time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from sdk.game.cards import HEADS
from sdk.game.core import (
    DecisionKind,
    Event,
    EventKind,
    GameState,
    Option,
    OptionKind,
    Policy,
    random_policy,
)
from sdk.game.elevennimmt import ElevenNimmtState
from sdk.game.hornochsen import HornochsenState
from sdk.game.sixnimmt import SixNimmtState
from sdk.game.variants import from_view
from sdk.game.views import ElevenNimmtView, HornochsenView, SixNimmtView, View, XNimmtView
from sdk.game.xnimmt import XNimmtState
from sdk.montecarlo import Evaluation, Utility, evaluate, own_score

__all__ = [
    "cheapest_row",
    "elevennimmt_state",
    "evaluate_deals",
    "history_cards",
    "hornochsen_state",
    "seen_cards",
    "sixnimmt_state",
    "xnimmt_state",
]

StateT = TypeVar("StateT", bound=GameState)


def history_cards(history: Sequence[Event], round_number: int) -> set[int]:
    """Number cards the public history shows face up in round `round_number`: rows' and
    piles' starting cards, reveals, placements, new piles and taken rows."""
    seen: set[int] = set()
    for event in history:
        if event.round != round_number:
            continue
        if event.kind == EventKind.ROUND_START:
            seen.update(event.cards)
        elif event.kind in (EventKind.REVEAL, EventKind.PLACE, EventKind.NEW_PILE):
            seen.add(event.card)
        elif event.kind == EventKind.TAKE:
            seen.update(event.cards)
    return seen


def seen_cards(view: View) -> set[int]:
    """Every number card the seat has seen this round: its own hand, what lies face up on
    the table, and what the round's public history showed (:func:`history_cards`).

    In the 6 nimmt! family a card seen is never in another hand again, so the cards in an
    opponent's hand are among ``set(range(1, view.highest_card + 1)) - seen_cards(view)``
    (with the cards not in play this round). In X nimmt! a taken row goes back to a hand:
    a seen card may be held again.
    """
    seen = history_cards(view.header.history, view.header.round)
    seen.update(view.hand)
    if isinstance(view, SixNimmtView):
        for row in view.rows:
            seen.update(row)
        seen.update(card for _, card in view.revealed)
        seen.update(view.draft_pool)
        if view.public_hands:
            for hand in view.all_hands:
                seen.update(hand)
    elif isinstance(view, XNimmtView):
        for group in (*view.rows, *view.x_rows):
            seen.update(group)
        seen.update(view.own_x_pile)
        seen.update(card for _, card in view.revealed)
    elif isinstance(view, ElevenNimmtView):
        seen.update(card for card in view.pile_tops if card)
        seen.update(card for card, _ in view.turn_plays)
    elif isinstance(view, HornochsenView):
        for hornochsen_row in view.rows:
            seen.update(hornochsen_row.cards)
        seen.update(view.own_pile)
    return seen


def _narrow(state: GameState, cls: type[StateT]) -> StateT:
    if not isinstance(state, cls):
        raise TypeError(f"a {cls.__name__} was expected, not {type(state).__name__}")
    return state


def sixnimmt_state(state: GameState) -> SixNimmtState:
    """`state` as the 6 nimmt! family's state (TypeError if it is another family's)."""
    return _narrow(state, SixNimmtState)


def xnimmt_state(state: GameState) -> XNimmtState:
    """`state` as X nimmt!'s state (TypeError if it is another family's)."""
    return _narrow(state, XNimmtState)


def elevennimmt_state(state: GameState) -> ElevenNimmtState:
    """`state` as 11 nimmt!'s state (TypeError if it is another family's)."""
    return _narrow(state, ElevenNimmtState)


def hornochsen_state(state: GameState) -> HornochsenState:
    """`state` as Hornochsen!'s state (TypeError if it is another family's)."""
    return _narrow(state, HornochsenState)


def cheapest_row(otherwise: Policy = random_policy) -> Policy:
    """A playout policy: on a forced take in the 6 nimmt! family (a choice of rows) the row
    with the fewest heads (the lowest row on ties); every other decision, and every
    decision of another family, as `otherwise` plays it."""

    def policy(
        state: GameState,
        seat: int,
        options: Sequence[Option],
        rng: random.Random,
    ) -> Option:
        if (
            isinstance(state, SixNimmtState)
            and options
            and options[0].kind == OptionKind.ROW
            and state.decision_kind(seat) == DecisionKind.TAKE_ROW
        ):
            rows = state.rows
            return min(options, key=lambda o: sum(HEADS[c] for c in rows[o.row]))
        return otherwise(state, seat, options, rng)

    return policy


def evaluate_deals(
    view: View,
    options: Sequence[Option],
    rng: random.Random,
    *,
    deals: int,
    policy: Policy | None = None,
    utility: Utility = own_score,
    sample: Callable[[View, random.Random], GameState] = from_view,
    round_only: bool = False,
    horizon: Callable[[GameState, int], bool] | None = None,
) -> Evaluation:
    """:func:`sdk.montecarlo.evaluate` bounded by count, not time: exactly `deals` sampled
    deals, every option played out on each, however long it takes (mind the clock: see
    ``play_local(..., clock=True)``). The other parameters are evaluate's."""
    if deals < 1:
        raise ValueError("deals must be at least 1")
    return evaluate(
        view,
        options,
        math.inf,
        rng,
        policy=policy,
        utility=utility,
        max_deals=deals,
        sample=sample,
        round_only=round_only,
        horizon=horizon,
    )
