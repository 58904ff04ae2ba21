"""The bot's side of the codec: :class:`ViewDecoder` decodes a session's views, decoding
only the history a view adds to the last one.

It builds on the shared conversions (:mod:`sdk.codec`) and never on the referee's
encoder (:mod:`referee.encoder`); the two agree only on the wire format of a history
record (:func:`sdk.codec.history_record`).
"""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf.message import DecodeError

from sdk.codec import CodecError, event_from_proto, game_from_proto, header_from_proto
from sdk.codec import history_record as _record
from sdk.game.core import Event
from sdk.game.history import History
from sdk.game.views import View
from sdk.protocol.bullring.v1 import bot_pb2 as pb


class EventCache:
    """Decoded history events by their wire bytes, shared by the sessions of one server.

    The same events come again and again across matches (a 6 nimmt! REVEAL or PLACE is a
    seat, a card and a row), and decoding one from its message costs several times looking
    its bytes up. Events are frozen, so sessions can share them. At most ``limit`` entries:
    it starts afresh when full.
    """

    __slots__ = ("_events", "limit")

    def __init__(self, limit: int = 8192) -> None:
        self._events: dict[bytes, Event] = {}
        self.limit = limit

    def __len__(self) -> int:
        return len(self._events)

    def event(self, msg: pb.Event, wire: bytes | None = None) -> Event:
        """The event `msg` describes (`wire`: its bytes, if known already)."""
        key = msg.SerializeToString() if wire is None else wire
        found = self._events.get(key)
        if found is None:
            found = event_from_proto(msg)
            if len(self._events) >= self.limit:
                self._events = {}
            self._events[key] = found
        return found


class ViewDecoder:
    """Decodes the successive views of one session, decoding only the new history.

    A match's history only grows. With a nonzero ``history_offset`` (DecideRequest), the
    message holds only the events from that index on and the decoder prepends the first
    ``history_offset`` events it already has. With offset 0 the message holds the whole
    history, which repeats the previous view's: the decoder keeps the wire records of the
    history it decoded last, and when the new header's bytes are (fields without history)
    + (those records) + (records of the new entries), only the new entries are decoded;
    any other header (a new match, a history that changed) is decoded in full. So the
    result always equals :func:`sdk.codec.view_from_proto` of the view with its whole
    history. Events are decoded through `cache` (a server shares one between its
    sessions; by default the decoder has its own).
    """

    __slots__ = ("_cache", "_events", "_records")

    def __init__(self, cache: EventCache | None = None) -> None:
        self._cache = EventCache() if cache is None else cache
        self._events: list[Event] = []  # append-only: decoded views hold windows on it
        self._records: bytes | None = b""  # None: unknown (after a delta)

    def decode(self, msg: pb.View, history_offset: int = 0) -> View:
        header = msg.header
        if history_offset:
            history = self._extend(header.history, history_offset)
        else:
            history = self._history(header)
        return game_from_proto(msg, header_from_proto(header, history))

    def _extend(self, entries: Sequence[pb.Event], offset: int) -> History:
        """The events this session has before `offset`, then the decoded `entries`."""
        known = self._events
        if offset > len(known):
            raise CodecError(
                f"history offset {offset} beyond the {len(known)} events this session was sent"
            )
        if offset < len(known):
            known = self._events = known[:offset]  # a new list: older views keep theirs
        event = self._cache.event
        known.extend([event(e) for e in entries])
        self._records = None
        return History.window(known)

    def _history(self, header: pb.Header) -> History:
        entries = header.history
        known = len(self._events)
        wire = header.SerializeToString()
        event = self._cache.event
        if known and self._records is not None and len(entries) >= known:
            tail = entries[known:]
            wires = [e.SerializeToString() for e in tail]
            tail_records = b"".join([_record(w) for w in wires])
            if _is_history_suffix(wire, self._records + tail_records):
                self._events.extend([event(e, w) for e, w in zip(tail, wires, strict=True)])
                self._records += tail_records
                return History.window(self._events)
        wires = [e.SerializeToString() for e in entries]
        events = [event(e, w) for e, w in zip(entries, wires, strict=True)]
        records = b"".join([_record(w) for w in wires])
        if _is_history_suffix(wire, records):
            self._events, self._records = events, records
        else:
            self._events, self._records = [], b""
        return History.window(events)


def _is_history_suffix(wire: bytes, records: bytes) -> bool:
    """Whether header bytes `wire` are some history-free fields followed by `records`."""
    if not wire.endswith(records):
        return False
    try:
        head = pb.Header.FromString(wire[: len(wire) - len(records)])
    except DecodeError:
        return False
    return not head.history
