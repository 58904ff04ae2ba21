"""Hornochsen! states from explicit positions and from views: the family-independent
:class:`~sdk.game.family.Position` and determinization (a full state consistent with what
one seat may see)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sdk.game.core import (
    Event,
    EventKind,
    RulesError,
    Special,
)
from sdk.game.engine_support import (
    fill_hands,
    position_history,
    require_distinct,
)
from sdk.game.family import Position
from sdk.game.hornochsen_rules import (
    DECK,
    ROW_FULL,
    SPECIALS_PER_KIND,
    HornochsenState,
)
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


def from_position(position: Position) -> HornochsenState:
    """A state from a family-independent :class:`Position` (places as ``card_locations``
    names them, specials as ``special_locations``; a given ``unused`` must be every card
    found nowhere else)."""
    position.require_places(("hand", "row", "pile", "unused"))
    from sdk.game.hornochsen import FAMILY

    FAMILY.preset(position.variant)
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
