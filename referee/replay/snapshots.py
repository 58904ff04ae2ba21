"""Table snapshots: the whole table after every decision, recorded in the replay at play time.

A snapshot is the referee's all-seeing view (``state.view(-1)``) as JSON, without what
never changes in a match or is re-derivable (the header's variant, options, players, seat,
decision and the public history; the empty ``hand`` of seat -1), plus what only each seat
knows of its own and the referee's view leaves empty (:data:`SEAT_OWN_FIELDS`: X nimmt!'s
X piles, Hornochsen!'s specials and collected piles), kept as one entry per seat::

    {"round": 1, "scores": [0, 0], "to_move": [0, 1],
     "rows": [[3], [17], ...], "all_hands": [[...], [...]], ...view fields...,
     # (enums as their number; a Hornochsen! row as [cards, x2, plus5])
     "own_x_pile": [[...seat 0's...], [...seat 1's...]]}     # only when the family has it

A replay stores ``snapshots[0]`` (the deal, before any decision) in full and
``snapshots[k]`` (after decision k) as the keys whose value changed (:func:`delta`), so a
replay grows by a few numbers per decision. From a snapshot, any seat's view of that moment
is exact: its hand is ``all_hands[seat]``, its own fields are entry ``seat``, and every
other field is public (the same in every view): :func:`seat_view`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from sdk.game import GameState, HornochsenRow, View

Json = Any
Snapshot = dict[str, Json]

SEAT_OWN_FIELDS = ("specials", "own_x_pile", "own_pile", "own_pile_specials")
"""View fields a seat fills with what only it knows of its own (empty for seat -1)."""
REFEREE_FIELDS = ("all_x_piles", "all_specials", "all_piles", "all_pile_specials")
"""Fields only the referee's view fills: every seat's own fields at once. A snapshot leaves
them out (it holds each seat's own fields already); a seat's view has them empty."""

_LEFT_OUT = frozenset({"header", "hand", *REFEREE_FIELDS})
_FIELDS: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _fields(kind: type[View]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(shared fields, seat-own fields) of a view type, cached."""
    if kind not in _FIELDS:
        names = [f.name for f in dataclasses.fields(kind) if f.name not in _LEFT_OUT]
        own = tuple(n for n in names if n in SEAT_OWN_FIELDS)
        _FIELDS[kind] = (tuple(n for n in names if n not in own), own)
    return _FIELDS[kind]


def _json(value: object) -> Json:
    """A view field as JSON: numbers and bools as they are (enums as their number), tuples
    as lists, a Hornochsen! row as ``[cards, x2, plus5]``."""
    kind = type(value)
    if kind is int or kind is bool:
        return value
    if isinstance(value, tuple):  # a view's tuples are plain tuples (no named tuples)
        if value and _plain(value):
            return list(value)
        return [_json(item) for item in value]
    if isinstance(value, HornochsenRow):
        return [list(value.cards), value.x2, value.plus5]
    if isinstance(value, int):  # an IntEnum (Hornochsen! specials)
        return int(value)
    return value


def _plain(items: tuple[object, ...]) -> bool:
    """Whether every item is a plain int, or every item a bool (their JSON is themselves)."""
    first = type(items[0])
    if first is not int and first is not bool:
        return False
    for item in items:  # noqa: SIM110 (a loop: faster than all() over a generator here)
        if type(item) is not first:
            return False
    return True


def snapshot(state: GameState) -> Snapshot:
    """The table of `state` right now (see the module docstring)."""
    return {name: _snapshot_json(name, value) for name, value in _table(state).items()}


def _table(state: GameState) -> dict[str, object]:
    """A snapshot's fields as the engine's values (before they are made JSON): the same
    keys in the same order as :func:`snapshot`, each seat-own field a tuple by seat."""
    view = state.view(-1)
    header = view.header
    shared, own = _fields(type(view))
    table: dict[str, object] = {
        "round": header.round,
        "scores": header.scores,
        "to_move": header.to_move,
    }
    for name in shared:
        table[name] = getattr(view, name)
    if own:
        views = [state.view(seat) for seat in range(state.players)]
        for name in own:
            table[name] = tuple(getattr(v, name) for v in views)
    return table


def _snapshot_json(name: str, value: Json) -> Json:
    """One field of :func:`_table` as its snapshot holds it."""
    if name == "scores" or name == "to_move":
        return list(value)
    if name in SEAT_OWN_FIELDS:
        return [_json(item) for item in value]
    return _json(value)


def delta(previous: Mapping[str, Json], current: Mapping[str, Json]) -> Snapshot:
    """The keys of `current` whose value differs from `previous`."""
    return {k: v for k, v in current.items() if previous.get(k) != v}


def expand(deltas: Sequence[Mapping[str, Json]]) -> list[Snapshot]:
    """Undo :func:`delta`: every full snapshot, in order (what the viewer's JavaScript
    does too)."""
    full: list[Snapshot] = []
    for change in deltas:
        full.append({**full[-1], **change} if full else dict(change))
    return full


def seat_view(snap: Mapping[str, Json], seat: int) -> Snapshot:
    """What `seat`'s own view holds at a snapshot's moment, in snapshot form (its own
    hand as ``hand``; every hand only where hands are public), as :func:`view_fields`
    gives it from the engine's ``state.view(seat)``. The replay viewer's JavaScript draws a
    seat's table by this same rule."""
    data: Snapshot = {}
    for name, value in snap.items():
        if name == "all_hands":
            data["hand"] = value[seat]
            data[name] = value if snap.get("public_hands") else []
        elif name in SEAT_OWN_FIELDS:
            data[name] = value[seat]
        else:
            data[name] = value
    return data


def view_fields(view: View) -> Snapshot:
    """A seat's view (seat >= 0) in snapshot form, without the header's constants (and
    the referee-only fields, always empty in a seat's view)."""
    header = view.header
    data: Snapshot = {
        "round": header.round,
        "scores": list(header.scores),
        "to_move": list(header.to_move),
    }
    for field in dataclasses.fields(view):
        if field.name != "header" and field.name not in REFEREE_FIELDS:
            data[field.name] = _json(getattr(view, field.name))
    return data


class SnapshotRecorder:
    """Keeps the last snapshot and turns each new one into its delta.

    The delta is :func:`delta` of the last and the new :func:`snapshot`, computed more
    cheaply: a field whose engine value equals the last one's (most of them, after one
    decision) is not made JSON again, since equal values make equal JSON.
    """

    def __init__(self) -> None:
        self.last: Snapshot | None = None
        self.deltas: list[Snapshot] = []
        self._table: dict[str, object] = {}

    def record(self, state: GameState) -> None:
        table = _table(state)
        last = self.last
        if last is None:
            current = {name: _snapshot_json(name, value) for name, value in table.items()}
            self.deltas.append(current)
            self.last, self._table = current, table
            return
        before = self._table
        change: Snapshot = {}
        for name, value in table.items():
            if name in before and before[name] == value:
                continue
            data = _snapshot_json(name, value)
            if last.get(name) != data:
                change[name] = data
        self.deltas.append(change)
        self.last = {**last, **change} if change else last
        self._table = table
