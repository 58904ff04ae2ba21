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
    history.
    """

    __slots__ = ("_events", "_records")

    def __init__(self) -> None:
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
        known.extend([event_from_proto(e) for e in entries])
        self._records = None
        return History.window(known)

    def _history(self, header: pb.Header) -> History:
        entries = header.history
        known = len(self._events)
        wire = header.SerializeToString()
        if known and self._records is not None and len(entries) >= known:
            tail = entries[known:]
            tail_records = b"".join([_record(e.SerializeToString()) for e in tail])
            if _is_history_suffix(wire, self._records + tail_records):
                self._events.extend([event_from_proto(e) for e in tail])
                self._records += tail_records
                return History.window(self._events)
        events = [event_from_proto(e) for e in entries]
        records = b"".join([_record(e.SerializeToString()) for e in entries])
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
