"""The public history, recorded compactly while a game is played and turned into
:class:`~sdk.game.core.Event` objects only when someone reads it.

An engine appends records to ``self._log`` in its hot loops: a plain tuple of ints
``(kind, seat, card, row, side, round)`` for the small events (REVEAL, PLACE, DRAFT, ...),
a triple ``(card, seat, round)`` for a REVEAL (so an engine can record a whole turn's
reveals with one ``extend`` of its sorted picks) and a pair ``((card, seat, round), row)``
for a PLACE at a row's right end (6 nimmt! reuses the REVEAL record), a longer tuple
``(kind, seat, card, row, side, round, cards[, target[, specials]])`` for
the others, or an :class:`Event` itself. Reading ``state.history`` (a view does) converts
the records not converted yet, in order, onto an append-only list of events: every view's
:class:`~sdk.game.history.History` is a window on that list, as before. A record costs a
tuple; an Event (a frozen dataclass) costs several times more, and simulations never
read the history.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from sdk.game.core import Event, EventKind, Side

Record = tuple[Any, ...] | Event
"""One entry of the compact log (see the module docstring)."""

KINDS: tuple[EventKind, ...] = (EventKind.ROUND_START, *EventKind)
"""KINDS[k]: the EventKind of value k (values are 1, 2, ...; index 0 is never used)."""
assert all(kind.value == k for k, kind in enumerate(KINDS) if k)
SIDES: tuple[Side, ...] = tuple(Side)
_TAKE = int(EventKind.TAKE)
_REVEAL = int(EventKind.REVEAL)
_PLACE = int(EventKind.PLACE)

_SHARED: dict[tuple[int, ...], Event] = {}
_SHARED_LIMIT = 200_000  # small events repeat across games: share them, within a bound


def event_of(record: Record) -> Event:
    """The Event a record stands for (small events are shared: they are immutable)."""
    if type(record) is not tuple:
        assert isinstance(record, Event)
        return record
    if len(record) == 3:  # a REVEAL: (card, seat, round)
        card, seat, rnd = record
        record = (_REVEAL, seat, card, -1, 0, rnd)
    elif len(record) == 2:  # a PLACE at the right end: ((card, seat, round), row)
        (card, seat, rnd), row = record
        record = (_PLACE, seat, card, row, 0, rnd)
    if len(record) == 6:
        event = _SHARED.get(record)
        if event is None:
            kind, seat, card, row, side, rnd = record
            event = Event(KINDS[kind], seat, card, row, SIDES[side], round=rnd)
            if len(_SHARED) < _SHARED_LIMIT:
                _SHARED[record] = event
        return event
    kind, seat, card, row, side, rnd, cards, *rest = record
    return Event(
        KINDS[kind],
        seat,
        card,
        row,
        SIDES[side],
        rest[0] if rest else -1,
        cards,
        rnd,
        rest[1] if len(rest) > 1 else (),
    )


class EventLog:
    """A mixin for a GameState: ``history`` read from the compact ``_log``.

    Both lists are append-only; a clone copies both (list them in ``COPY_LISTS``).
    """

    LOG_LISTS: ClassVar[tuple[str, str]] = ("_log", "_events")

    if TYPE_CHECKING:
        _log: list[Record]
        _events: list[Event]

    def _reset_log(self, events: Iterable[Event] = ()) -> None:
        """Start the history afresh with `events` (already Event objects)."""
        self._events = list(events)
        self._log = list(self._events)

    def _last_event(self) -> Event | None:
        """The last event, without converting the records before it."""
        return event_of(self._log[-1]) if self._log else None

    def _last_take(self) -> tuple[int, int]:
        """The card and row of the last TAKE event (it must exist), read from its record."""
        for record in reversed(self._log):
            if isinstance(record, Event):
                if record.kind == _TAKE:
                    return record.card, record.row
            elif record[0] == _TAKE:
                return record[2], record[3]
        raise LookupError("no TAKE event")

    @property
    def history(self) -> list[Event]:
        """The public history so far, as Event objects (append-only: views hold windows on
        this list; never change it)."""
        events = self._events
        log = self._log
        done = len(events)
        if done < len(log):
            events.extend(map(event_of, log[done:]))
        return events

    @history.setter
    def history(self, events: Iterable[Event]) -> None:
        self._reset_log(events)
