"""The public history a view holds: an immutable window on the game's append-only event log.

An engine appends events to one list for the whole game and never changes or removes an
event once appended. A view's history is a :class:`History`: that list and a length, so
building a view costs the same however long the game is, every view of a game shares the
events, and a view never changes (later events lie beyond its length). A History compares
equal to any sequence (tuple, list, History) holding the same events, so it behaves as the
tuple views held before; decoded views (sdk.wire.codec) hold one too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:
    from sdk.game.core import Event


class History(Sequence["Event"]):
    """The first `length` events of an append-only event list, read-only."""

    __slots__ = ("_events", "_length")

    def __init__(self, events: Iterable[Event] = (), length: int | None = None) -> None:
        """A history of `events`. Given a list and a `length`, the history is a window on
        that list (the caller promises never to change its first `length` events); given
        anything else, the events are copied."""
        if length is None:
            stored = list(events)
            length = len(stored)
        elif isinstance(events, list):
            stored = events
            if not 0 <= length <= len(stored):
                raise ValueError(f"a history of {length} events from a list of {len(stored)}")
        else:
            raise TypeError("a window needs the engine's event list")
        self._events: list[Event] = stored
        self._length = length

    @classmethod
    def window(cls, events: list[Event], length: int | None = None) -> History:
        """The first `length` events (default: all of them now) of an engine's append-only
        event list, without copying them."""
        history = cls.__new__(cls)
        history._events = events
        history._length = len(events) if length is None else length
        return history

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | Sequence[Event]:
        length = self._length
        if isinstance(index, slice):
            start, stop, step = index.indices(length)
            if start == 0 and step == 1:
                return self if stop == length else History.window(self._events, stop)
            return tuple(self._events[start:stop:step])
        if index < 0:
            index += length
        if not 0 <= index < length:
            raise IndexError("history index out of range")
        return self._events[index]

    def __iter__(self) -> Iterator[Event]:
        if self._length == len(self._events):
            return iter(self._events)  # nothing appended since: the list's own iterator
        return islice(self._events, self._length)

    def __reversed__(self) -> Iterator[Event]:
        events = self._events
        for index in range(self._length - 1, -1, -1):
            yield events[index]

    def shares(self, other: History) -> bool:
        """Whether `other` is a window on the same event list (so the shorter of the two
        is a prefix of the longer without comparing a single event)."""
        return self._events is other._events

    def as_tuple(self) -> tuple[Event, ...]:
        return tuple(self._events[: self._length])

    def _fill(self) -> None:
        """Make the first `_length` entries of `_events` real events (a history decoded
        on demand, sdk.wire.view_decoder, overrides this; an engine's history already is)."""

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            if other._length != self._length:
                return False
            if other._events is self._events:
                return True
            self._fill()
            other._fill()
            return self._events[: self._length] == other._events[: other._length]
        if isinstance(other, tuple):
            return len(other) == self._length and self.as_tuple() == other
        if isinstance(other, list):
            return len(other) == self._length and self._events[: self._length] == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.as_tuple())  # equal to the hash of the equal tuple

    def __repr__(self) -> str:
        return f"History({list(self)!r})"

    def __reduce__(self) -> tuple[type[History], tuple[list[Event]]]:
        return History, (self._events[: self._length],)


EMPTY = History()
"""The empty history."""
