"""The referee's side of the codec: :class:`MatchEncoder` writes a match's Decide
requests straight to the wire, reusing what it encoded for the match's earlier requests.

The views of one match repeat the same few things: the match's variant, options and
player count, a history that only grows, and options drawn from one small set. So a
match's encoder encodes each history event, each option and the match fields once, and
each request is assembled from those pieces. The caches belong to the encoder, and the
match runner owns one encoder per match (``MatchRunner.encoder``): they live as long as
the match and no longer, and nothing is shared between matches or keyed by a global id.

The bytes parse to exactly the message :func:`sdk.wire.codec.decide_request` builds. This
module builds on the shared conversions (:mod:`sdk.wire.codec`) and never on the bot's
decoder (:mod:`sdk.wire.view_decoder`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

from google.protobuf.message import Message

from referee.match.wire import header_fields, six_nimmt_fields
from sdk.game.core import Event, Option, ViewHeader
from sdk.game.views import SixNimmtView, View
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire.codec import (
    GAME_FIELDS,
    CodecError,
    event_to_proto,
    field_tag,
    history_record,
    length_delimited,
    option_to_proto,
)

_VIEW_HEADER_TAG = field_tag(pb.View.HEADER_FIELD_NUMBER)
_REQUEST_VIEW_TAG = field_tag(pb.DecideRequest.VIEW_FIELD_NUMBER)
_OPTION_TAG = field_tag(pb.DecideRequest.OPTIONS_FIELD_NUMBER)


def _serialized(to_proto: Callable[[Any], Message]) -> Callable[[Any], bytes]:
    """A view's game fields on the wire through their protobuf message."""
    return lambda view: to_proto(view).SerializeToString()


# Each view type's View.game tag on the wire, and the function writing that field's bytes:
# 6 nimmt! views straight to the wire (the family most matches play), the others through
# their messages.
_GAME_ENCODERS: dict[type, tuple[bytes, Callable[[Any], bytes]]] = {
    kind: (field_tag(number), _serialized(to_proto))
    for kind, (number, to_proto) in GAME_FIELDS.items()
}
_GAME_ENCODERS[SixNimmtView] = (_GAME_ENCODERS[SixNimmtView][0], six_nimmt_fields)


class MatchEncoder:
    """Encodes the Decide requests of one match (one encoder per match)."""

    __slots__ = ("_histories", "_match_fields", "_option_records", "_records")

    def __init__(self) -> None:
        # (options, a copy of them, variant, players) -> those fields on the wire
        self._match_fields: tuple[Mapping[str, str], dict[str, str], str, int, bytes] | None
        self._match_fields = None
        # id(event) -> (the event, its history record): the entry holds the event, so its
        # id cannot be reused while the entry lives
        self._records: dict[int, tuple[Event, bytes]] = {}
        # id(first event) -> (the longest history seen that starts with it, its records)
        self._histories: dict[int, tuple[Sequence[Event], bytes]] = {}
        self._option_records: dict[Option, bytes] = {}

    def decide_request(
        self,
        match_id: str,
        seat: int,
        decision_index: int,
        view: View,
        options: Iterable[Option],
        deadline_ms: int,
        time_bank_ms: int,
        history_offset: int = 0,
    ) -> bytes:
        """The Decide request for one decision of `seat`, on the wire: the view's history
        from `history_offset` on (the session already has the events before it)."""
        decision = view.header.decision
        head = pb.DecideRequest(
            match_id=match_id,
            decision_index=decision_index,
            kind=cast(pb.DecisionKind.ValueType, 0 if decision is None else decision),
            deadline_ms=deadline_ms,
            time_bank_ms=time_bank_ms,
            seat=seat,
            history_offset=history_offset,
        ).SerializeToString()
        view_record = length_delimited(_REQUEST_VIEW_TAG, self.view_bytes(view, history_offset))
        return head + view_record + b"".join([self._option_record(o) for o in options])

    def view_bytes(self, view: View, history_offset: int = 0) -> bytes:
        """A View message on the wire, its history from index `history_offset` on."""
        encoder = _GAME_ENCODERS.get(type(view))
        if encoder is None:
            raise CodecError(f"not a view: {type(view).__name__}")
        game_tag, game_bytes = encoder
        header = view.header
        history = header.history
        if history_offset:
            records = b"".join([self._record(e) for e in history[history_offset:]])
        else:
            records = self._history_records(history)
        header_bytes = self._header_fields(header) + records
        return length_delimited(_VIEW_HEADER_TAG, header_bytes) + length_delimited(
            game_tag, game_bytes(view)
        )

    def _header_fields(self, header: ViewHeader) -> bytes:
        """The header without its history, on the wire: the fields a match never changes
        (variant, options, players; encoded once), then the others."""
        return self._match_fields_bytes(header) + header_fields(header)

    def _match_fields_bytes(self, header: ViewHeader) -> bytes:
        """Variant, options and players on the wire. A match's engine shares one options
        mapping between its views; the encoded fields are reused while the header holds
        that same mapping with the same values (anything else is encoded afresh)."""
        options = header.options
        known = self._match_fields
        if (
            known is not None
            and known[0] is options
            and known[2] == header.variant
            and known[3] == header.players
            and known[1] == options
        ):
            return known[4]
        data = pb.Header(
            variant=header.variant, options=options, players=header.players
        ).SerializeToString()
        self._match_fields = (options, dict(options), header.variant, header.players, data)
        return data

    def _history_records(self, history: Sequence[Event]) -> bytes:
        """The wire records of a whole history, reusing the longest known prefix.

        The views of one game repeat a growing history, so the records of the last
        history seen with the same first event are reused when they are a prefix of this
        one (checked by value: equal events have equal records; two windows on one
        engine's event log (sdk.game.history) compare in constant time), and only the
        new events are added.
        """
        if not history:
            return b""
        key = id(history[0])
        known = self._histories.get(key)
        if known is not None:
            prefix, records = known
            size = len(prefix)
            if size <= len(history) and prefix[0] is history[0] and history[:size] == prefix:
                if size < len(history):
                    records += b"".join([self._record(e) for e in history[size:]])
                    self._histories[key] = (history, records)
                return records
        records = b"".join([self._record(e) for e in history])
        self._histories[key] = (history, records)
        return records

    def _record(self, event: Event) -> bytes:
        """The wire record of a history event, encoded once: engines share their Event
        objects between the views they build, so a long history is encoded once, not
        once per decision."""
        hit = self._records.get(id(event))
        if hit is not None and hit[0] is event:
            return hit[1]
        record = history_record(event_to_proto(event).SerializeToString())
        self._records[id(event)] = (event, record)
        return record

    def _option_record(self, option: Option) -> bytes:
        """A DecideRequest.options entry on the wire, encoded once per value."""
        record = self._option_records.get(option)
        if record is None:
            record = length_delimited(_OPTION_TAG, option_to_proto(option).SerializeToString())
            self._option_records[option] = record
        return record
