"""The replay viewer's table for a typed view (sdk/game/views.py): the tests' oracle.

The viewer's JavaScript (leaderboard/static/bullring.js, ``tableOf``) draws a table from
the replay's snapshots; the browser tests check that what it shows equals this table made
from the engine's own view of the same seat at the same step::

    {"round": 1, "scores": [..], "to_move": [..],
     "areas": [{"label": "Row 1", "cards": [3, 17], "tags": ["x2"]}, ...],
     "seats": [{"hand": [..] or null, "hand_size": 10, "extra": ["X row: 4 9"]}, ...],
     "notes": ["Revealed: seat 1: 34"]}

A seat's hand is filled in only when the view itself holds it: the view's own hand, or
``all_hands`` (the referee's view, or a variant whose hands are public). So a table made
from a seat's view can never show an opponent's hidden card.
"""

from __future__ import annotations

from typing import Any

from sdk.game import (
    ElevenNimmtView,
    HornochsenView,
    SixNimmtView,
    Special,
    View,
    XNimmtView,
)

Table = dict[str, Any]

_SPECIAL_NAMES = {int(Special.X2): "x2", int(Special.PLUS5): "+5"}


def table_of(view: object) -> Table:
    """The viewer's table for any family's view."""
    if isinstance(view, SixNimmtView):
        return _six(view)
    if isinstance(view, XNimmtView):
        return _x(view)
    if isinstance(view, ElevenNimmtView):
        return _eleven(view)
    if isinstance(view, HornochsenView):
        return _hornochsen(view)
    raise TypeError(f"not a game view: {type(view).__name__}")


def _hand(view: View, seat: int) -> list[int] | None:
    """`seat`'s hand if the view shows it, else None."""
    if view.all_hands:
        return list(view.all_hands[seat])
    if view.header.seat == seat:
        return list(view.hand)
    return None


def _base(view: View, areas: list[dict[str, Any]], notes: list[str]) -> Table:
    header = view.header
    return {
        "round": header.round,
        "scores": list(header.scores),
        "to_move": list(header.to_move),
        "areas": areas,
        "seats": [],
        "notes": notes,
    }


def _revealed(pairs: tuple[tuple[int, int], ...]) -> list[str]:
    if not pairs:
        return []
    return ["Revealed: " + ", ".join(f"seat {seat}: {card}" for seat, card in pairs)]


def _six(view: SixNimmtView) -> Table:
    areas = [
        {"label": f"Row {i + 1}", "cards": list(r), "tags": []} for i, r in enumerate(view.rows)
    ]
    notes = _revealed(view.revealed)
    if view.pending_card:
        notes.append(f"Waiting to place: {view.pending_card}")
    if view.draft_pool:
        notes.append("Draft pool: " + " ".join(str(c) for c in view.draft_pool))
    if view.public_hands:
        notes.append("Hands are public in this variant")
    table = _base(view, areas, notes)
    table["seats"] = [
        {
            "hand": _hand(view, s),
            "hand_size": view.hand_sizes[s],
            "extra": [f"Heads this round: {view.round_penalties[s]}"]
            + (["Picked"] if view.picked[s] else []),
        }
        for s in range(view.header.players)
    ]
    return table


def _x(view: XNimmtView) -> Table:
    areas = [
        {"label": f"Row {i + 1}", "cards": list(r), "tags": [f"takes at {cap}"]}
        for i, (r, cap) in enumerate(zip(view.rows, view.capacities, strict=True))
    ]
    notes = _revealed(view.revealed)
    if view.pending_card:
        notes.append(f"Waiting to place: {view.pending_card}")
    if view.taken:
        notes.append("Just taken: " + " ".join(str(c) for c in view.taken))
    table = _base(view, areas, notes)
    seats = []
    for s in range(view.header.players):
        extra = ["X row: " + (" ".join(str(c) for c in view.x_rows[s]) or "-")]
        if s == view.header.seat:
            extra.append("X pile: " + (" ".join(str(c) for c in view.own_x_pile) or "-"))
        else:
            extra.append(f"X pile: {view.x_pile_sizes[s]} cards")
        if view.picked[s]:
            extra.append("Picked")
        seats.append({"hand": _hand(view, s), "hand_size": view.hand_sizes[s], "extra": extra})
    table["seats"] = seats
    return table


def _eleven(view: ElevenNimmtView) -> Table:
    areas = [
        {"label": f"Pile {i + 1}", "cards": [top], "tags": ["top"]}
        for i, top in enumerate(view.pile_tops)
    ]
    notes = [f"Deck: {view.deck_size} cards", f"Bull supply: {view.supply}"]
    notes.append(f"Round starter: seat {view.starter}")
    if view.turn_plays:
        plays = ", ".join(f"{card} on pile {pile + 1}" for card, pile in view.turn_plays)
        notes.append("This turn: " + plays)
    table = _base(view, areas, notes)
    table["seats"] = [
        {
            "hand": _hand(view, s),
            "hand_size": view.hand_sizes[s],
            "extra": [f"Bull cards: {view.bulls[s]}"],
        }
        for s in range(view.header.players)
    ]
    return table


def _hornochsen(view: HornochsenView) -> Table:
    areas = [
        {
            "label": f"Row {i + 1}",
            "cards": list(row.cards),
            "tags": (["x2"] if row.x2 else []) + (["+5"] if row.plus5 else []),
        }
        for i, row in enumerate(view.rows)
    ]
    notes = [f"Steps this turn: {view.steps_this_turn}"] if view.steps_this_turn else []
    table = _base(view, areas, notes)
    seats = []
    for s in range(view.header.players):
        extra = [f"Specials in hand: {view.special_counts[s]}"]
        if s == view.header.seat:
            names = [_SPECIAL_NAMES.get(c, str(c)) for c in view.specials]
            extra = ["Specials in hand: " + (" ".join(names) or "-")]
            extra.append("Collected: " + (" ".join(str(c) for c in view.own_pile) or "-"))
        extra.append(f"Scoring pile: {view.pile_sizes[s]} cards")
        seats.append({"hand": _hand(view, s), "hand_size": view.hand_sizes[s], "extra": extra})
    table["seats"] = seats
    return table
