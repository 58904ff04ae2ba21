"""The 6 nimmt! family's constructors from outside a game: an explicit
:class:`~sdk.game.family.Position`, or a view with its hidden cards sampled
(determinization)."""

from __future__ import annotations

import random

from sdk.game.core import EventKind, RulesError
from sdk.game.engine.dealing import shuffle
from sdk.game.family import Position
from sdk.game.sixnimmt.rules import SixNimmtState
from sdk.game.sixnimmt.setup import CATALOG, Phase
from sdk.game.views import SixNimmtView, View


def from_position(position: Position) -> SixNimmtState:
    """A state from a family-independent :class:`Position` (places as ``card_locations``
    names them; ``turn`` is the seat to draft next while drafting)."""
    position.require_places(("hand", "row", "pile", "draft", "unused"), empty=("revealed",))
    players = position.players()
    draft = position.places.get("draft", ())
    unused = position.places.get("unused")
    return SixNimmtState.from_position(
        position.variant,
        position.indexed("hand", players),
        position.indexed("row"),
        totals=position.totals or None,
        piles=position.indexed("pile", players),
        unused=None if unused is None else list(unused),
        draft_pool=draft,
        drafter=position.turn if draft else -1,
        round_number=position.round,
        seed=position.seed,
    )


def from_view(view: View, rng: random.Random) -> SixNimmtState:
    """A full state consistent with `view`, hidden cards sampled uniformly (determinization).

    Every card the seat has not seen this round (the deck minus its hand, the rows, the
    draft pool and every card in this round's public history) is shuffled and dealt to the
    opponents' hands (their sizes as the view shows them); the rest is unused. Face-down
    picks are hidden, so in the returned state no seat has picked yet this turn; apart
    from ``picked`` its view for the seat equals `view`. Later rounds use a fresh seed
    drawn from `rng`.
    """
    if not isinstance(view, SixNimmtView):
        raise RulesError(f"not a 6 nimmt! view: {type(view).__name__}")
    header = view.header
    CATALOG.preset(header.variant)  # refuses a variant of another family
    seat = header.seat
    n = header.players
    highest = view.highest_card
    piles: list[list[int]] = [[] for _ in range(n)]
    seen = set(view.hand) | set(view.draft_pool) | {c for _, c in view.revealed}
    for row in view.rows:
        seen.update(row)
    for event in reversed(header.history):
        if event.round != header.round:
            break  # earlier rounds: their cards were shuffled back
        seen.add(event.card)
        seen.update(event.cards)
        if event.kind == EventKind.TAKE:
            piles[event.seat].extend(event.cards)
    if view.all_hands:
        hands = [list(h) for h in view.all_hands]
    else:
        unseen = [c for c in range(1, highest + 1) if c not in seen]
        shuffle(rng, unseen)  # rng.shuffle's order, quicker
        hands = []
        for other in range(n):
            if other == seat:
                hands.append(list(view.hand))
            else:
                size = view.hand_sizes[other]
                hands.append(unseen[:size])
                del unseen[:size]
    totals = [s - p for s, p in zip(header.scores, view.round_penalties, strict=True)]
    state = SixNimmtState.from_position(
        header.variant,
        hands,
        view.rows,
        options=header.options,
        totals=totals,
        piles=piles,
        revealed=view.revealed,
        draft_pool=view.draft_pool,
        drafter=header.to_move[0] if view.draft_pool else -1,
        round_number=header.round,
        seed=rng.getrandbits(63),
        history=header.history,
    )
    if not header.to_move:
        state.phase = Phase.OVER
        state.to_pick = set()
    return state
