"""The bot's side of the codec: :class:`ViewDecoder` decodes a session's views, decoding
only the history a view adds to the last one, and that only when the bot reads it.

It builds on the shared conversions (:mod:`sdk.wire.codec`) and never on the referee's
encoder (:mod:`referee.match.encoder`); the two agree only on the wire format of a history
record (:func:`sdk.wire.codec.history_record`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from typing import overload

from google.protobuf.message import DecodeError

from sdk.game.core import Event
from sdk.game.history import History
from sdk.game.views import View
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire.codec import (
    CodecError,
    check_event,
    event_from_proto,
    game_from_proto,
    header_from_proto,
)
from sdk.wire.codec import history_record as _record


class ViewDecoder:
    """Decodes the successive views of one session, decoding only the new history.

    A match's history only grows. With a nonzero ``history_offset`` (DecideRequest), the
    message holds only the events from that index on and the decoder prepends the first
    ``history_offset`` events it already has. With offset 0 the message holds the whole
    history, which repeats the previous view's: the decoder keeps the wire records of the
    history it decoded last, and when the new header's bytes are (fields without history)
    + (those records) + (records of the new entries), only the new entries are taken;
    any other header (a new match, a history that changed) is taken in full. So the
    result always equals :func:`sdk.wire.codec.view_from_proto` of the view with its whole
    history.

    The entries taken are checked at once (an unknown kind or side is a CodecError, as in
    full decoding) but their events are built only when the bot first reads the view's
    history (:class:`WireHistory`): a bot that never reads it never pays for it.
    """

    __slots__ = ("_building", "_events", "_records", "_wire")

    def __init__(self) -> None:
        # The session's history: _wire holds every entry's message, _events the events
        # built so far from its first entries. Both are append-only (a view's history is a
        # window on them); a resent delta starts new lists, so older views keep theirs.
        self._events: list[Event] = []
        self._wire: list[pb.Event] = []
        self._records: bytes | None = b""  # None: unknown (after a delta)
        self._building = threading.Lock()  # held by a view building events (WireHistory)

    def decode(self, msg: pb.View, history_offset: int = 0) -> View:
        header = msg.header
        if history_offset:
            history = self._extend(header.history, history_offset)
        else:
            history = self._history(header)
        return game_from_proto(msg, header_from_proto(header, history))

    def _extend(self, entries: Sequence[pb.Event], offset: int) -> History:
        """The events this session has before `offset`, then `entries` (checked now,
        built when read)."""
        known = len(self._wire)
        if offset > known:
            raise CodecError(
                f"history offset {offset} beyond the {known} events this session was sent"
            )
        for entry in entries:
            check_event(entry)
        if offset < known:  # new lists: older views keep theirs
            self._wire = self._wire[:offset]
            self._events = self._events[:offset]
        self._wire.extend(entries)
        self._records = None
        return WireHistory(self._events, self._wire, self._building)

    def _history(self, header: pb.Header) -> History:
        """The whole history of `header` (offset 0), taking only its new entries when it
        extends the history this session had (see the class docstring)."""
        entries = header.history
        known = len(self._wire)
        wire = header.SerializeToString()
        if known and self._records is not None and len(entries) >= known:
            tail = entries[known:]
            tail_records = b"".join([_record(e.SerializeToString()) for e in tail])
            if _is_history_suffix(wire, self._records + tail_records):
                for entry in tail:
                    check_event(entry)
                self._wire.extend(tail)
                self._records += tail_records
                return WireHistory(self._events, self._wire, self._building)
        for entry in entries:
            check_event(entry)
        records = b"".join([_record(e.SerializeToString()) for e in entries])
        if not _is_history_suffix(wire, records):  # not a plain history: no session log
            self._events, self._wire, self._records = [], [], b""
            return WireHistory([], list(entries), self._building)
        self._events, self._wire, self._records = [], list(entries), records
        return WireHistory(self._events, self._wire, self._building)


class WireHistory(History):
    """A decoded view's history whose events are built from their messages when first
    read: a window on a session's history (ViewDecoder), the first ``len(wire)`` entries.

    It is a :class:`History` in every way (equal to the same events in any sequence,
    hashed as their tuple, pickled as a plain History); reading any event builds every
    event of the window not built yet, once, for every view that shares them, under the
    session's lock (views of one session may be read from several threads at once).
    """

    __slots__ = ("_building", "_wire")

    def __init__(self, events: list[Event], wire: list[pb.Event], building: threading.Lock):
        """`events`: the events built so far from the first entries of `wire` (both
        append-only lists, shared with the decoder and its other views); `building`: the
        lock every view sharing `events` builds under."""
        self._events = events
        self._wire = wire
        self._length = len(wire)
        self._building = building

    def _fill(self) -> None:
        if len(self._events) < self._length:
            with self._building:
                events = self._events
                built = len(events)
                if built < self._length:
                    new = [event_from_proto(e) for e in self._wire[built : self._length]]
                    events.extend(new)

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | Sequence[Event]:
        self._fill()
        return super().__getitem__(index)

    def __iter__(self) -> Iterator[Event]:
        self._fill()
        return super().__iter__()

    def __reversed__(self) -> Iterator[Event]:
        self._fill()
        return super().__reversed__()

    def as_tuple(self) -> tuple[Event, ...]:
        self._fill()
        return super().as_tuple()

    def __eq__(self, other: object) -> bool:
        self._fill()
        return super().__eq__(other)

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    def __repr__(self) -> str:
        return f"History({list(self)!r})"

    def __reduce__(self) -> tuple[type[History], tuple[list[Event]]]:
        self._fill()
        return super().__reduce__()


def _is_history_suffix(wire: bytes, records: bytes) -> bool:
    """Whether header bytes `wire` are some history-free fields followed by `records`."""
    if not wire.endswith(records):
        return False
    try:
        head = pb.Header.FromString(wire[: len(wire) - len(records)])
    except DecodeError:
        return False
    return not head.history
