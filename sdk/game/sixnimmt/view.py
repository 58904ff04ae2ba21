"""What a 6 nimmt! state shows: a seat's view and where every card lies."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from sdk.game.core import Option, RulesError, ViewHeader
from sdk.game.history import History
from sdk.game.sixnimmt.setup import Phase
from sdk.game.views import SixNimmtView

if TYPE_CHECKING:
    from sdk.game.sixnimmt.rules import SixNimmtState

_CHOOSE = Phase.CHOOSE
_add = operator.add


def view_of(state: SixNimmtState, seat: int) -> SixNimmtView:
    """What `seat` may see of `state` (seat -1: everything); see SixNimmtState.view."""
    if not -1 <= seat < state.players:
        raise RulesError(f"no seat {seat} in a {state.players}-player game")
    pending = state.pending()
    rules = state.rules
    hands = state.hands
    queue = state.queue
    header = ViewHeader(
        variant=state.variant,
        options=rules.options,
        players=state.players,
        seat=seat,
        round=state.round,
        scores=tuple(map(_add, state.totals, state.penalties)),  # as state.scores()
        to_move=pending,
        decision=state.decision_kind(seat) if seat in pending else None,
        history=History.window(state.history),
    )
    public = rules.draft
    # (map and list comprehensions: a generator expression costs more per item)
    return SixNimmtView(
        header=header,
        hand=tuple(hands[seat]) if seat >= 0 else (),
        rows=tuple(map(tuple, state.rows)),
        hand_sizes=tuple(map(len, hands)),
        round_penalties=tuple(state.penalties),
        highest_card=rules.highest,
        picked=tuple([p != 0 for p in state.picks]),
        revealed=tuple([(s, c) for c, s, _ in queue]),
        pending_card=queue[0][0] if state.phase is _CHOOSE else 0,
        draft_pool=tuple(state.pool),
        public_hands=public,
        all_hands=tuple(map(tuple, hands)) if public or seat < 0 else (),
    )


def card_locations_of(state: SixNimmtState) -> dict[str, list[int]]:
    """Places: "hand i" (a face-down pick included), "row r", "pile i" (taken this
    round), "revealed" (this turn's cards still to resolve), "draft", "unused"."""
    places: dict[str, list[int]] = {}
    for seat, hand in enumerate(state.hands):
        places[f"hand {seat}"] = list(hand)
    for r, row in enumerate(state.rows):
        places[f"row {r}"] = list(row)
    for seat, pile in enumerate(state.piles):
        places[f"pile {seat}"] = list(pile)
    places["revealed"] = [c for c, _, _ in state.queue]
    places["draft"] = list(state.pool)
    places["unused"] = list(state.unused)
    return places


def pending_text(state: SixNimmtState) -> str:
    """The seats a decision is pending for, for messages."""
    pending = state.pending()
    return ", ".join(f"seat {s}" for s in pending) if pending else "none, the game is over"


def illegal_option(state: SixNimmtState, seat: int, option: Option) -> RulesError:
    """The error for an option that is not legal for a pending `seat`."""
    kind = state.decision_kind(seat)
    legal = ", ".join(o.describe() for o in state.legal_options(seat))
    described = option.describe() if isinstance(option, Option) else repr(option)
    return RulesError(
        f"{described} is not a legal {kind.name} option for seat {seat}; legal: {legal}"
    )
