"""What an X nimmt! table shows: one seat's view (the referee's all-seeing one for seat -1)
and where every card is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sdk.game.engine.support import make_header, require_seat
from sdk.game.views import XNimmtView
from sdk.game.xnimmt.setup import CAPACITIES, Phase

if TYPE_CHECKING:  # the state's view() and card_locations() call this module
    from sdk.game.xnimmt.rules import XNimmtState

_PICK = Phase.PICK  # an enum member as a global: quicker


def view_of(state: XNimmtState, seat: int) -> XNimmtView:
    """What `seat` may see of the table (seat -1: the referee\'s all-seeing view)."""
    require_seat(state.players, seat)
    to_move = state.pending()
    decision = state.decision_kind(seat) if seat in to_move else None
    return XNimmtView(
        header=make_header(
            state.variant,
            state.players,
            seat,
            state.round,
            state.totals,
            to_move,
            decision,
            state.history,
        ),
        hand=tuple(state.hands[seat]) if seat >= 0 else (),
        rows=tuple(tuple(r) for r in state.rows),
        capacities=CAPACITIES,
        hand_sizes=tuple(len(h) for h in state.hands),
        x_rows=tuple(tuple(r) for r in state.x_rows),
        x_pile_sizes=tuple(len(p) for p in state.x_piles),
        own_x_pile=tuple(state.x_piles[seat]) if seat >= 0 else (),
        picked=tuple(bool(p) for p in state.picks)
        if state.phase is _PICK
        else (False,) * state.players,
        revealed=tuple((s, c) for c, s in state.queue),
        pending_card=state.pending_card,
        taken=tuple(sorted(state.taken)),
        all_hands=tuple(tuple(h) for h in state.hands) if seat < 0 else (),
        all_x_piles=tuple(tuple(p) for p in state.x_piles) if seat < 0 else (),
    )


def card_locations_of(state: XNimmtState) -> dict[str, list[int]]:
    """Where every card is, by place name (what ``from_position`` takes back)."""
    places: dict[str, list[int]] = {}
    for seat in range(state.players):
        places[f"hand {seat}"] = list(state.hands[seat])
        places[f"x row {seat}"] = list(state.x_rows[seat])
        places[f"x pile {seat}"] = list(state.x_piles[seat])
    for index, row in enumerate(state.rows):
        places[f"row {index}"] = list(row)
    places["revealed"] = [card for card, _ in state.queue]
    places["pending"] = [state.pending_card] if state.pending_card else []
    places["taken"] = list(state.taken)
    places["unused"] = list(state.unused)
    return places
