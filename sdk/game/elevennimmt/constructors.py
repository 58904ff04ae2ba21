"""11 nimmt! states from explicit positions and from views: the family-independent
:class:`~sdk.game.family.Position` and determinization (a full state consistent with what
one seat may see)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sdk.game.core import (
    Event,
    EventKind,
    RulesError,
)
from sdk.game.elevennimmt.rules import ElevenNimmtState
from sdk.game.elevennimmt.setup import CATALOG
from sdk.game.elevennimmt.table import BULL_PILE, DECK, Phase, stack, steal_targets
from sdk.game.engine.support import fill_hands
from sdk.game.family import Position
from sdk.game.views import ElevenNimmtView, View


def public_piles(events: Sequence[Event], players: int) -> tuple[list[list[int]], list[set[int]]]:
    """Replay one round's public history: every pile (bottom first), and for each seat the
    cards known to be in their hand (taken from piles and not played since)."""
    piles: list[list[int]] = []
    known: list[set[int]] = [set() for _ in range(players)]
    base: dict[int, tuple[int, int]] = {}  # pile -> (top at the turn's start, new cards)
    for event in events:
        kind = event.kind
        if kind == EventKind.ROUND_START:
            piles = [[card] for card in event.cards]
        elif kind == EventKind.PLACE:
            top, new_cards = base.get(event.row, (piles[event.row][-1], 0))
            stack(piles[event.row], event.card, new_cards, top)
            base[event.row] = (top, new_cards + 1)
            if event.seat >= 0:
                known[event.seat].discard(event.card)
        elif kind == EventKind.TAKE:
            piles.pop(event.row)
            known[event.seat].update(event.cards)
        elif kind == EventKind.NEW_PILE:
            piles.append([event.card])
        elif kind == EventKind.END_TURN:
            base = {}
    return piles, known


def from_position(position: Position) -> ElevenNimmtState:
    """A state from a family-independent :class:`Position` (places as ``card_locations``
    names them: piles bottom card first, the deck top card first; a given ``unused`` must
    be every card found nowhere else)."""
    position.require_places(("hand", "pile", "deck", "unused"))
    CATALOG.preset(position.variant)
    players = position.players()
    state = ElevenNimmtState.from_position(
        position.indexed("hand", players),
        position.indexed("pile"),
        position.places.get("deck", ()),
        turn=position.turn,
        bulls=position.bulls or None,
        totals=position.totals or None,
        round_number=position.round,
        starter=position.turn if position.starter is None else position.starter,
        seed=position.seed,
        variant=position.variant,
    )
    unused = position.places.get("unused")
    if unused is not None and sorted(unused) != state.unused:
        raise RulesError("the unused cards must be exactly the cards found in no other place")
    return state


def from_view(view: View, rng: random.Random) -> ElevenNimmtState:
    """A full state consistent with `view`: hidden hand cards and the deck order sampled.

    The public history tells every card beneath the pile tops and which taken cards are in
    each hand; everything else unseen is shuffled among the other hands and the deck.
    """
    if not isinstance(view, ElevenNimmtView):
        raise RulesError(f"not an 11 nimmt! view: {type(view).__name__}")
    header = view.header
    seat, players = header.seat, header.players
    events = [e for e in header.history if e.round == header.round]
    piles, known = public_piles(events, players)
    if tuple(p[-1] for p in piles) != view.pile_tops:
        raise RulesError("the view is inconsistent: the history does not give its piles")
    if seat >= 0:
        known[seat] = set(view.hand)
    else:
        known = [set(h) for h in view.all_hands]
    visible = {c for pile in piles for c in pile}
    for cards in known:
        visible.update(cards)
    pool = [c for c in DECK if c not in visible]
    hands = fill_hands(view.hand_sizes, [sorted(k) for k in known], pool, rng)
    if len(pool) < view.deck_size:
        raise RulesError("the view is inconsistent: the deck size does not fit the cards")
    # In a dealt game the rest is exactly the deck; explicit positions may leave cards out.
    unused = sorted(pool[view.deck_size :])
    del pool[view.deck_size :]

    state = ElevenNimmtState(players, rng.getrandbits(63), header.variant)
    state.round, state.starter = header.round, view.starter
    state.totals = list(header.scores)
    state.hands, state.deck, state.unused = hands, pool, unused
    state._set_piles(piles)
    state.bulls, state.supply = list(view.bulls), view.supply
    state.history = list(header.history)
    if not header.to_move:
        state.phase = Phase.OVER
        return state
    state.turn = header.to_move[0]
    state.start_tops = list(view.turn_start_tops)
    state.plays = list(view.turn_plays)
    last = header.history[-1]
    if last.kind == EventKind.TAKE and len(last.cards) >= BULL_PILE:
        state.phase = Phase.STEAL
        state.steal_targets = steal_targets(state.bulls, state.turn)
    return state
