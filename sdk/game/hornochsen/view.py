"""Hornochsen!: what a seat sees of a state (its view), and where every card lies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sdk.game.core import DecisionKind, Special
from sdk.game.engine.support import make_header, require_seat
from sdk.game.views import HornochsenRow, HornochsenView

if TYPE_CHECKING:
    from sdk.game.hornochsen.rules import HornochsenState

SPECIALS_PER_KIND = 6
"""Special cards of each kind (x2, +5) in the game (sdk.game.hornochsen.rules re-exports it)."""


def view_of(state: HornochsenState, seat: int) -> HornochsenView:
    """What `seat` may see of `state`; seat -1: everything."""
    require_seat(state.players, seat)
    to_move = state.pending()
    own = seat >= 0
    return HornochsenView(
        header=make_header(
            state.variant,
            state.players,
            seat,
            1,
            state.scores(),
            to_move,
            DecisionKind.PLAY_STEP,
            state.history,
        ),
        hand=tuple(state.hands[seat]) if own else (),
        specials=tuple(state.specials[seat]) if own else (),
        rows=tuple(
            HornochsenRow(tuple(row), Special.X2 in held, Special.PLUS5 in held)
            for row, held in zip(state.rows, state.row_specials, strict=True)
        ),
        hand_sizes=tuple(len(h) for h in state.hands),
        special_counts=tuple(len(s) for s in state.specials),
        pile_sizes=tuple(
            len(p) + len(s) for p, s in zip(state.piles, state.pile_specials, strict=True)
        ),
        own_pile=tuple(state.piles[seat]) if own else (),
        own_pile_specials=tuple(state.pile_specials[seat]) if own else (),
        steps_this_turn=state.steps,
        all_hands=tuple(tuple(h) for h in state.hands) if not own else (),
        all_specials=tuple(tuple(s) for s in state.specials) if not own else (),
        all_piles=tuple(tuple(p) for p in state.piles) if not own else (),
        all_pile_specials=tuple(tuple(s) for s in state.pile_specials) if not own else (),
    )


def card_locations_of(state: HornochsenState) -> dict[str, list[int]]:
    """Where every bull card is: "hand i", "row r", "pile i" (collected), "unused"."""
    places = {f"hand {s}": list(h) for s, h in enumerate(state.hands)}
    places.update({f"row {r}": list(row) for r, row in enumerate(state.rows)})
    places.update({f"pile {s}": list(p) for s, p in enumerate(state.piles)})
    places["unused"] = list(state.unused)
    return places


def special_locations_of(state: HornochsenState) -> dict[str, list[int]]:
    """Where every special card is (Special values); the box holds the ones not dealt."""
    places = {f"hand {s}": list(h) for s, h in enumerate(state.specials)}
    places.update({f"row {r}": list(s) for r, s in enumerate(state.row_specials)})
    places.update({f"pile {s}": list(p) for s, p in enumerate(state.pile_specials)})
    in_play = [k for cards in places.values() for k in cards]
    places["box"] = [k for k in Special for _ in range(SPECIALS_PER_KIND - in_play.count(k))]
    return places
