"""What an 11 nimmt! table shows: one seat's view (the referee's all-seeing one for seat
-1) and where every card is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sdk.game.engine.support import make_header, require_seat
from sdk.game.views import ElevenNimmtView

if TYPE_CHECKING:  # the state's view() and card_locations() call this module
    from sdk.game.elevennimmt.rules import ElevenNimmtState


def view_of(state: ElevenNimmtState, seat: int) -> ElevenNimmtView:
    """What `seat` may see of the table (seat -1: the referee\'s all-seeing view)."""
    require_seat(state.players, seat)
    to_move = state.pending()
    return ElevenNimmtView(
        header=make_header(
            state.variant,
            state.players,
            seat,
            state.round,
            state.totals,
            to_move,
            state.decision_kind(seat) if seat in to_move else None,
            state.history,
        ),
        hand=tuple(state.hands[seat]) if seat >= 0 else (),
        pile_tops=tuple(p[-1] for p in state.piles),
        hand_sizes=tuple(len(h) for h in state.hands),
        bulls=tuple(state.bulls),
        supply=state.supply,
        deck_size=len(state.deck),
        starter=state.starter,
        turn_plays=tuple(state.plays),
        turn_start_tops=tuple(state.start_tops),
        all_hands=tuple(tuple(h) for h in state.hands) if seat < 0 else (),
    )


def card_locations_of(state: ElevenNimmtState) -> dict[str, list[int]]:
    """Where every card is, by place name (what ``from_position`` takes back)."""
    places = {f"hand {s}": list(h) for s, h in enumerate(state.hands)}
    places.update({f"pile {p}": list(pile) for p, pile in enumerate(state.piles)})
    places["deck"] = state.deck[::-1]  # top card first, as from_position takes it
    places["unused"] = list(state.unused)
    return places
