"""X nimmt! states from explicit positions and from views: the family-independent
:class:`~sdk.game.family.Position` and determinization (a full state consistent with what
one seat may see)."""

from __future__ import annotations

import random

from sdk.game.core import (
    EventKind,
    RulesError,
)
from sdk.game.engine.support import fill_hands
from sdk.game.family import Position
from sdk.game.views import View, XNimmtView
from sdk.game.xnimmt.rules import XNimmtState
from sdk.game.xnimmt.setup import CATALOG, DECK, Phase


def from_position(position: Position) -> XNimmtState:
    """A state from a family-independent :class:`Position` (places as ``card_locations``
    names them; a given ``unused`` must be every card found nowhere else)."""
    position.require_places(
        ("hand", "row", "x row", "x pile", "unused"), empty=("revealed", "pending", "taken")
    )
    CATALOG.preset(position.variant)
    players = position.players()
    state = XNimmtState.from_position(
        position.indexed("hand", players),
        position.indexed("row"),
        x_rows=position.indexed("x row", players),
        x_piles=position.indexed("x pile", players),
        totals=position.totals or None,
        round_number=position.round,
        seed=position.seed,
        variant=position.variant,
    )
    unused = position.places.get("unused")
    if unused is not None and sorted(unused) != state.unused:
        raise RulesError("the unused cards must be exactly the cards found in no other place")
    return state


def from_view(view: View, rng: random.Random) -> XNimmtState:
    """A full state consistent with `view`, hidden cards sampled uniformly.

    Public knowledge used: the current round's history tells which taken cards went to
    each hand (and were not played since) and what lies in every X pile.
    """
    if not isinstance(view, XNimmtView):
        raise RulesError(f"not an X nimmt! view: {type(view).__name__}")
    header = view.header
    seat, players = header.seat, header.players
    events = [e for e in header.history if e.round == header.round]
    known: list[set[int]] = [set() for _ in range(players)]
    x_piles: list[list[int]] = [[] for _ in range(players)]
    for event in events:
        if event.kind == EventKind.X_ROW:
            known[event.seat].update(event.cards)
        elif event.kind == EventKind.REVEAL:
            known[event.seat].discard(event.card)
        elif event.kind == EventKind.X_PILE:
            x_piles[event.seat].extend(event.cards)
    if seat >= 0:
        known[seat] = set(view.hand)
        x_piles[seat] = list(view.own_x_pile)
    else:
        known = [set(h) for h in view.all_hands]
    if [len(p) for p in x_piles] != list(view.x_pile_sizes):
        raise RulesError("the view is inconsistent: X piles do not match the history")
    visible = {c for row in view.rows for c in row}
    visible.update(c for row in view.x_rows for c in row)
    visible.update(c for pile in x_piles for c in pile)
    visible.update(c for _, c in view.revealed)
    visible.update(view.taken)
    if view.pending_card:
        visible.add(view.pending_card)
    for cards in known:
        visible.update(cards)
    pool = [c for c in DECK if c not in visible]
    hands = fill_hands(view.hand_sizes, [sorted(k) for k in known], pool, rng)

    state = XNimmtState(players, rng.getrandbits(63), header.variant)
    state.round = header.round
    state.totals = list(header.scores)
    state.hands = hands
    state.rows = [list(r) for r in view.rows]
    state.x_rows = [list(r) for r in view.x_rows]
    state.x_piles = x_piles
    state.unused = sorted(pool)
    state.history = list(header.history)
    state.queue = [(card, s) for s, card in view.revealed]
    if not header.to_move:
        state.phase = Phase.OVER
    elif view.pending_card:
        state.phase, state.chooser = Phase.TAKE_ROW, header.to_move[0]
        state.pending_card = view.pending_card
    elif view.taken:
        state.phase, state.chooser = Phase.X_ROW_CARD, header.to_move[0]
        state.taken = list(view.taken)
    else:
        # Face-down picks are left unmade (as in 6 nimmt!): a simulation lets those seats
        # choose again, with its own policy, instead of fixing a random card for them.
        state.phase = Phase.PICK
    return state
