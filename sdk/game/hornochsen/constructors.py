"""The Hornochsen! family's constructors from outside a game: an explicit
:class:`~sdk.game.family.Position`, or a view with its hidden cards sampled
(determinization), and the public table a history tells."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sdk.game.core import (
    Event,
    EventKind,
    RulesError,
    Special,
)
from sdk.game.engine.support import fill_hands
from sdk.game.family import Position
from sdk.game.hornochsen.rules import HornochsenState
from sdk.game.hornochsen.setup import CATALOG, DECK
from sdk.game.views import HornochsenView, View


def public_table(
    events: Sequence[Event], players: int
) -> tuple[list[list[int]], list[list[int]], list[list[int]], list[list[int]], list[list[int]]]:
    """Replay the public history of a dealt game: rows, row specials, each seat's collected
    cards and specials, and each seat's specials still in hand."""
    rows: list[list[int]] = []
    row_specials: list[list[int]] = []
    piles: list[list[int]] = [[] for _ in range(players)]
    pile_specials: list[list[int]] = [[] for _ in range(players)]
    in_hand: list[list[int]] = [[Special.X2, Special.PLUS5] for _ in range(players)]
    for event in events:
        kind = event.kind
        if kind == EventKind.ROUND_START:
            rows = [[card] for card in event.cards]
            row_specials = [[] for _ in rows]
        elif kind == EventKind.PLACE:
            rows[event.row].append(event.card)
        elif kind == EventKind.SPECIAL:
            if event.card in in_hand[event.seat]:
                in_hand[event.seat].remove(event.card)
            row_specials[event.row] = sorted([*row_specials[event.row], event.card])
        elif kind == EventKind.COLLECT:
            piles[event.seat].extend(rows.pop(event.row))
            pile_specials[event.seat] = sorted(
                pile_specials[event.seat] + row_specials.pop(event.row)
            )
    return rows, row_specials, piles, pile_specials, in_hand


def from_position(position: Position) -> HornochsenState:
    """A state from a family-independent :class:`Position` (places as ``card_locations``
    names them, specials as ``special_locations``; a given ``unused`` must be every card
    found nowhere else)."""
    position.require_places(("hand", "row", "pile", "unused"))
    CATALOG.preset(position.variant)
    if position.round != 1:
        raise RulesError("Hornochsen! is played in one round")
    players = position.players()
    rows = position.indexed("row")
    specials = position.specials
    if specials is not None:
        Position(position.variant, specials).require_places(("hand", "row", "pile", "box"))

    def kinds(prefix: str, count: int) -> list[list[int]] | None:
        if specials is None:
            return None
        return [list(specials.get(f"{prefix} {i}", ())) for i in range(count)]

    state = HornochsenState.from_position(
        position.indexed("hand", players),
        rows,
        specials=kinds("hand", players),
        row_specials=kinds("row", len(rows)),
        piles=position.indexed("pile", players),
        pile_specials=kinds("pile", players),
        turn=position.turn,
        variant=position.variant,
    )
    unused = position.places.get("unused")
    if unused is not None and sorted(unused) != state.unused:
        raise RulesError("the unused cards must be exactly the cards found in no other place")
    return state


def from_view(view: View, rng: random.Random) -> HornochsenState:
    """A full state consistent with `view`: the other hands' bull cards and the unused cards
    sampled. The public history tells every collected card and every special played."""
    if not isinstance(view, HornochsenView):
        raise RulesError(f"not a Hornochsen! view: {type(view).__name__}")
    header = view.header
    seat, players = header.seat, header.players
    rows, row_specials, piles, pile_specials, in_hand = public_table(header.history, players)
    known: list[list[int]] = [[] for _ in range(players)]
    if seat >= 0:
        known[seat] = list(view.hand)
        in_hand[seat] = [Special(k) for k in view.specials]
    else:
        known = [list(h) for h in view.all_hands]
    visible = {c for row in rows for c in row} | {c for pile in piles for c in pile}
    visible.update(c for hand in known for c in hand)
    pool = [c for c in DECK if c not in visible]
    state = HornochsenState(players, header.variant)
    state.set_hands(fill_hands(view.hand_sizes, known, pool, rng))
    state.specials = [sorted(Special(k) for k in s) for s in in_hand]
    state.rows, state.row_specials = rows, [[Special(k) for k in s] for s in row_specials]
    state.piles = piles
    state.pile_specials = [[Special(k) for k in s] for s in pile_specials]
    state.unused = sorted(pool)
    state.history = list(header.history)
    state.steps = view.steps_this_turn
    if header.to_move:
        state.turn = header.to_move[0]
    else:
        state.over = True
    return state
