"""A Hornochsen! state from an explicit position: the body of
:meth:`HornochsenState.from_position <sdk.game.hornochsen.rules.HornochsenState.from_position>`
(its checks and the state)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sdk.game.core import (
    RulesError,
    Special,
)
from sdk.game.engine.support import position_history, require_distinct
from sdk.game.hornochsen.setup import DECK, ROW_FULL
from sdk.game.hornochsen.view import SPECIALS_PER_KIND

if TYPE_CHECKING:  # the state's from_position calls this module
    from sdk.game.hornochsen.rules import HornochsenState


def state_from_position(
    cls: type[HornochsenState],
    hands: Sequence[Sequence[int]],
    rows: Sequence[Sequence[int]],
    *,
    specials: Sequence[Sequence[int]] | None,
    row_specials: Sequence[Sequence[int]] | None,
    piles: Sequence[Sequence[int]] | None,
    pile_specials: Sequence[Sequence[int]] | None,
    turn: int,
    variant: str,
) -> HornochsenState:
    """:meth:`HornochsenState.from_position` (see there): the checks and the state."""
    players = len(hands)
    if not 2 <= players <= 6:
        raise RulesError(f"Hornochsen! is for 2 to 6 players, not {players}")
    if not 0 <= turn < players:
        raise RulesError(f"seats are 0..{players - 1}")
    specials = specials if specials is not None else [[Special.X2, Special.PLUS5]] * players
    row_specials = row_specials if row_specials is not None else [[] for _ in rows]
    piles = piles if piles is not None else [[] for _ in range(players)]
    pile_specials = pile_specials if pile_specials is not None else [[]] * players
    if not len(specials) == len(piles) == len(pile_specials) == players:
        raise RulesError("give specials, piles and pile specials for every player")
    if len(row_specials) != len(rows):
        raise RulesError("give the specials of every row")
    for index, row in enumerate(rows):
        if not 1 <= len(row) < ROW_FULL:
            raise RulesError(f"row {index + 1} must hold 1 to 4 bull cards, not {len(row)}")
        kinds = list(row_specials[index])
        if len(set(kinds)) != len(kinds):
            raise RulesError(f"row {index + 1} holds at most one special of each kind")
    for kind in Special:
        count = sum(list(s).count(kind) for s in (*specials, *row_specials, *pile_specials))
        if count > SPECIALS_PER_KIND:
            raise RulesError(f"there are only {SPECIALS_PER_KIND} {kind.name} cards")
    places: dict[str, Sequence[int]] = {f"hand {s}": h for s, h in enumerate(hands)}
    places.update({f"row {r}": row for r, row in enumerate(rows)})
    places.update({f"pile {s}": p for s, p in enumerate(piles)})
    require_distinct(places, DECK)
    state = cls(players, variant)
    state.set_hands([sorted(h) for h in hands])
    state.specials = [sorted(Special(k) for k in s) for s in specials]
    state.rows = [list(r) for r in rows]
    state.row_specials = [sorted(Special(k) for k in s) for s in row_specials]
    state.piles = [list(p) for p in piles]
    state.pile_specials = [sorted(Special(k) for k in s) for s in pile_specials]
    placed = {c for cards in places.values() for c in cards}
    state.unused = [c for c in DECK if c not in placed]
    state.history = position_history(rows, 1)
    state.turn = turn
    if not state._can_play(turn):
        state._next_turn(turn)
    return state
