"""Conversions between the game model (sdk.game) and the protocol (bullring.v1 messages).

Every conversion is exact: ``view_from_proto(view_to_proto(v)) == v`` for every view, and
the same holds for options, events, match info and outcomes. Enum numbers are shared
between sdk/game/core.py and the .proto (three EventKind names differ: PLACE is
PLACE_CARD, SPECIAL is SPECIAL_CARD, END_TURN is TURN_END), so enums go over as numbers.

Decoding refuses what it cannot represent (an unknown enum number, a view with no game)
with :class:`CodecError`. The referee encodes a view for every decision, so the code is
written for speed: one function per view family, no reflection.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar, cast

from google.protobuf.message import DecodeError, Message

from sdk.errors import BullringError
from sdk.game.core import DecisionKind, Event, EventKind, Option, OptionKind, Side, ViewHeader
from sdk.game.history import History
from sdk.game.views import (
    ElevenNimmtView,
    HornochsenRow,
    HornochsenView,
    SixNimmtView,
    View,
    XNimmtView,
)
from sdk.match import MatchInfo, MatchOutcome
from sdk.protocol.bullring.v1 import bot_pb2 as pb

PROTOCOL_VERSION = 1
"""The protocol version this SDK speaks (bullring.v1 PROTOCOL_VERSION_1)."""


class CodecError(BullringError, ValueError):
    """A message that does not describe a valid game-model value."""


_E = TypeVar("_E", DecisionKind, OptionKind, Side, EventKind)


def _table(enum_type: type[_E]) -> dict[int, _E]:
    return {int(member): member for member in enum_type}


_DECISION_KINDS = _table(DecisionKind)
_OPTION_KINDS = _table(OptionKind)
_SIDES = _table(Side)
_EVENT_KINDS = _table(EventKind)


def _enum(table: Mapping[int, _E], number: int, what: str) -> _E:
    try:
        return table[number]
    except KeyError:
        raise CodecError(f"unknown {what} {number}") from None


# --- options -------------------------------------------------------------------------


def option_to_proto(option: Option) -> pb.Option:
    kind, card, row, side, target = option
    return pb.Option(
        kind=cast(pb.OptionKind.ValueType, kind),
        card=card,
        row=row,
        side=cast(pb.Side.ValueType, side),
        target=target,
    )


def option_from_proto(msg: pb.Option) -> Option:
    kind = _OPTION_KINDS.get(msg.kind)
    side = _SIDES.get(msg.side)
    if kind is None or side is None:
        raise CodecError(f"unknown option kind {msg.kind} or side {msg.side}")
    return Option(kind, msg.card, msg.row, side, msg.target)


def options_to_proto(options: Iterable[Option]) -> list[pb.Option]:
    return [option_to_proto(o) for o in options]


def options_from_proto(msgs: Iterable[pb.Option]) -> list[Option]:
    return [option_from_proto(m) for m in msgs]


# --- events and header ---------------------------------------------------------------


def event_to_proto(event: Event) -> pb.Event:
    return pb.Event(
        kind=cast(pb.EventKind.ValueType, event.kind),
        seat=event.seat,
        card=event.card,
        row=event.row,
        side=cast(pb.Side.ValueType, event.side),
        target=event.target,
        cards=event.cards,
        round=event.round,
        specials=event.specials,
    )


def event_from_proto(msg: pb.Event) -> Event:
    kind = _EVENT_KINDS.get(msg.kind)
    side = _SIDES.get(msg.side)
    if kind is None or side is None:
        raise CodecError(f"unknown event kind {msg.kind} or side {msg.side}")
    return Event(
        kind,
        msg.seat,
        msg.card,
        msg.row,
        side,
        msg.target,
        tuple(msg.cards),
        msg.round,
        tuple(msg.specials),
    )


def header_to_proto(header: ViewHeader) -> pb.Header:
    msg = _header_fields_to_proto(header)
    msg.MergeFromString(_history_records(header.history))
    return msg


def _header_fields_to_proto(header: ViewHeader) -> pb.Header:
    """The header message without its history."""
    decision = header.decision
    return pb.Header(
        variant=header.variant,
        options=header.options,
        players=header.players,
        seat=header.seat,
        round=header.round,
        scores=header.scores,
        to_move=header.to_move,
        decision=cast(pb.DecisionKind.ValueType, 0 if decision is None else decision),
    )


def _header_fields_bytes(header: ViewHeader) -> bytes:
    """The header without its history, on the wire: the same bytes for the fields a
    match never changes (variant, options, players; cached), then the others."""
    decision = header.decision
    return _match_fields_bytes(header) + (
        pb.Header(
            seat=header.seat,
            round=header.round,
            scores=header.scores,
            to_move=header.to_move,
            decision=cast(pb.DecisionKind.ValueType, 0 if decision is None else decision),
        ).SerializeToString()
    )


_MATCH_FIELDS_CACHE_LIMIT = 10_000
_match_fields_cache: dict[int, tuple[Mapping[str, str], dict[str, str], str, int, bytes]] = {}


def _match_fields_bytes(header: ViewHeader) -> bytes:
    """Variant, options and players on the wire, cached by the options mapping (engines
    share one per game); a hit is checked by identity and by value."""
    options = header.options
    hit = _match_fields_cache.get(id(options))
    if (
        hit is not None
        and hit[0] is options
        and hit[2] == header.variant
        and hit[3] == header.players
        and hit[1] == options
    ):
        return hit[4]
    data = pb.Header(
        variant=header.variant, options=options, players=header.players
    ).SerializeToString()
    if len(_match_fields_cache) >= _MATCH_FIELDS_CACHE_LIMIT:
        _match_fields_cache.clear()
    _match_fields_cache[id(options)] = (
        options,
        dict(options),
        header.variant,
        header.players,
        data,
    )
    return data


_HISTORY_TAG = bytes([(pb.Header.HISTORY_FIELD_NUMBER << 3) | 2])  # length-delimited
_RECORD_CACHE_LIMIT = 200_000
_record_cache: dict[int, tuple[Event, bytes]] = {}


def _record(event_bytes: bytes) -> bytes:
    """One Header.history entry on the wire: tag, length, the Event message."""
    return _length_delimited(_HISTORY_TAG, event_bytes)


def _length_delimited(tag: bytes, payload: bytes) -> bytes:
    """A length-delimited field on the wire: its tag, the payload's length, the payload."""
    size = len(payload)
    if size < 0x80:
        return tag + bytes((size,)) + payload
    prefix = bytearray(tag)
    while size >= 0x80:
        prefix.append((size & 0x7F) | 0x80)
        size >>= 7
    prefix.append(size)
    return bytes(prefix) + payload


def _tag(field_number: int) -> bytes:
    """The one-byte tag of a length-delimited field numbered below 16."""
    assert 0 < field_number < 16
    return bytes([(field_number << 3) | 2])


_HISTORY_CACHE_LIMIT = 10_000
_history_cache: dict[int, tuple[Sequence[Event], bytes]] = {}


def _history_records(history: Sequence[Event]) -> bytes:
    """The wire records of a whole history, reusing the longest known prefix.

    The views of one game repeat a growing history, so the records of the last history
    seen with the same first event are reused when they are a prefix of this one (checked
    by value: equal events have equal records; two windows on one engine's event log
    (sdk.game.history) compare in constant time), and only the new events are added.
    """
    if not history:
        return b""
    key = id(history[0])
    known = _history_cache.get(key)
    if known is not None:
        prefix, records = known
        size = len(prefix)
        if size <= len(history) and prefix[0] is history[0] and history[:size] == prefix:
            if size < len(history):
                records += b"".join([_history_record(e) for e in history[size:]])
                _history_cache[key] = (history, records)
            return records
    records = b"".join([_history_record(e) for e in history])
    if len(_history_cache) >= _HISTORY_CACHE_LIMIT:
        _history_cache.clear()
    _history_cache[key] = (history, records)
    return records


def _history_record(event: Event) -> bytes:
    """The wire record of a history event, cached by identity.

    Engines share their Event objects between the views they build, so a long history is
    encoded once, not once per decision. The cache holds the event itself, so its id
    cannot be reused while the entry lives.
    """
    hit = _record_cache.get(id(event))
    if hit is not None and hit[0] is event:
        return hit[1]
    record = _record(event_to_proto(event).SerializeToString())
    if len(_record_cache) >= _RECORD_CACHE_LIMIT:
        _record_cache.clear()
    _record_cache[id(event)] = (event, record)
    return record


def header_from_proto(msg: pb.Header, history: Sequence[Event] | None = None) -> ViewHeader:
    """The header a message describes (`history`: already decoded, see ViewDecoder)."""
    return ViewHeader(
        variant=msg.variant,
        options=dict(msg.options),
        players=msg.players,
        seat=msg.seat,
        round=msg.round,
        scores=tuple(msg.scores),
        to_move=tuple(msg.to_move),
        decision=_enum(_DECISION_KINDS, msg.decision, "decision kind") if msg.decision else None,
        history=(
            History([event_from_proto(e) for e in msg.history]) if history is None else history
        ),
    )


# --- nested card lists ---------------------------------------------------------------


def _cards_list(groups: Sequence[Sequence[int]]) -> list[pb.Cards]:
    return [pb.Cards(cards=g) for g in groups]


def _cards_tuple(msgs: Iterable[pb.Cards]) -> tuple[tuple[int, ...], ...]:
    return tuple([tuple(m.cards) for m in msgs])


# --- per-family views ----------------------------------------------------------------


def _six_to_proto(v: SixNimmtView) -> pb.SixNimmtView:
    return pb.SixNimmtView(
        hand=v.hand,
        rows=_cards_list(v.rows),
        hand_sizes=v.hand_sizes,
        round_penalties=v.round_penalties,
        highest_card=v.highest_card,
        picked=v.picked,
        revealed=[pb.SeatCard(seat=s, card=c) for s, c in v.revealed],
        pending_card=v.pending_card,
        draft_pool=v.draft_pool,
        public_hands=v.public_hands,
        all_hands=_cards_list(v.all_hands),
    )


def _six_from_proto(header: ViewHeader, m: pb.SixNimmtView) -> SixNimmtView:
    return SixNimmtView(
        header=header,
        hand=tuple(m.hand),
        rows=_cards_tuple(m.rows),
        hand_sizes=tuple(m.hand_sizes),
        round_penalties=tuple(m.round_penalties),
        highest_card=m.highest_card,
        picked=tuple(m.picked),
        revealed=tuple([(r.seat, r.card) for r in m.revealed]),
        pending_card=m.pending_card,
        draft_pool=tuple(m.draft_pool),
        public_hands=m.public_hands,
        all_hands=_cards_tuple(m.all_hands),
    )


def _x_to_proto(v: XNimmtView) -> pb.XNimmtView:
    return pb.XNimmtView(
        hand=v.hand,
        rows=_cards_list(v.rows),
        capacities=v.capacities,
        hand_sizes=v.hand_sizes,
        x_rows=_cards_list(v.x_rows),
        x_pile_sizes=v.x_pile_sizes,
        own_x_pile=v.own_x_pile,
        picked=v.picked,
        revealed=[pb.SeatCard(seat=s, card=c) for s, c in v.revealed],
        pending_card=v.pending_card,
        taken=v.taken,
        all_hands=_cards_list(v.all_hands),
        all_x_piles=_cards_list(v.all_x_piles),
    )


def _x_from_proto(header: ViewHeader, m: pb.XNimmtView) -> XNimmtView:
    return XNimmtView(
        header=header,
        hand=tuple(m.hand),
        rows=_cards_tuple(m.rows),
        capacities=tuple(m.capacities),
        hand_sizes=tuple(m.hand_sizes),
        x_rows=_cards_tuple(m.x_rows),
        x_pile_sizes=tuple(m.x_pile_sizes),
        own_x_pile=tuple(m.own_x_pile),
        picked=tuple(m.picked),
        revealed=tuple([(r.seat, r.card) for r in m.revealed]),
        pending_card=m.pending_card,
        taken=tuple(m.taken),
        all_hands=_cards_tuple(m.all_hands),
        all_x_piles=_cards_tuple(m.all_x_piles),
    )


def _eleven_to_proto(v: ElevenNimmtView) -> pb.ElevenNimmtView:
    return pb.ElevenNimmtView(
        hand=v.hand,
        pile_tops=v.pile_tops,
        hand_sizes=v.hand_sizes,
        bulls=v.bulls,
        supply=v.supply,
        deck_size=v.deck_size,
        starter=v.starter,
        turn_plays=[pb.CardPile(card=c, pile=p) for c, p in v.turn_plays],
        turn_start_tops=v.turn_start_tops,
        all_hands=_cards_list(v.all_hands),
    )


def _eleven_from_proto(header: ViewHeader, m: pb.ElevenNimmtView) -> ElevenNimmtView:
    return ElevenNimmtView(
        header=header,
        hand=tuple(m.hand),
        pile_tops=tuple(m.pile_tops),
        hand_sizes=tuple(m.hand_sizes),
        bulls=tuple(m.bulls),
        supply=m.supply,
        deck_size=m.deck_size,
        starter=m.starter,
        turn_plays=tuple([(t.card, t.pile) for t in m.turn_plays]),
        turn_start_tops=tuple(m.turn_start_tops),
        all_hands=_cards_tuple(m.all_hands),
    )


def _hornochsen_to_proto(v: HornochsenView) -> pb.HornochsenView:
    return pb.HornochsenView(
        hand=v.hand,
        specials=v.specials,
        rows=[pb.HornochsenRow(cards=r.cards, x2=r.x2, plus5=r.plus5) for r in v.rows],
        hand_sizes=v.hand_sizes,
        special_counts=v.special_counts,
        pile_sizes=v.pile_sizes,
        own_pile=v.own_pile,
        own_pile_specials=v.own_pile_specials,
        steps_this_turn=v.steps_this_turn,
        all_hands=_cards_list(v.all_hands),
        all_specials=_cards_list(v.all_specials),
        all_piles=_cards_list(v.all_piles),
        all_pile_specials=_cards_list(v.all_pile_specials),
    )


def _hornochsen_from_proto(header: ViewHeader, m: pb.HornochsenView) -> HornochsenView:
    return HornochsenView(
        header=header,
        hand=tuple(m.hand),
        specials=tuple(m.specials),
        rows=tuple([HornochsenRow(tuple(r.cards), r.x2, r.plus5) for r in m.rows]),
        hand_sizes=tuple(m.hand_sizes),
        special_counts=tuple(m.special_counts),
        pile_sizes=tuple(m.pile_sizes),
        own_pile=tuple(m.own_pile),
        own_pile_specials=tuple(m.own_pile_specials),
        steps_this_turn=m.steps_this_turn,
        all_hands=_cards_tuple(m.all_hands),
        all_specials=_cards_tuple(m.all_specials),
        all_piles=_cards_tuple(m.all_piles),
        all_pile_specials=_cards_tuple(m.all_pile_specials),
    )


def view_to_proto(view: View) -> pb.View:
    """The protocol message for a view of any family."""
    return pb.View.FromString(view_bytes(view))


_VIEW_HEADER_TAG = _tag(pb.View.HEADER_FIELD_NUMBER)
_GAME_ENCODERS: dict[type, tuple[bytes, Callable[[Any], Message]]] = {
    SixNimmtView: (_tag(pb.View.SIX_NIMMT_FIELD_NUMBER), _six_to_proto),
    XNimmtView: (_tag(pb.View.X_NIMMT_FIELD_NUMBER), _x_to_proto),
    ElevenNimmtView: (_tag(pb.View.ELEVEN_NIMMT_FIELD_NUMBER), _eleven_to_proto),
    HornochsenView: (_tag(pb.View.HORNOCHSEN_FIELD_NUMBER), _hornochsen_to_proto),
}


def view_bytes(view: View, history_offset: int = 0) -> bytes:
    """A View message on the wire, its history from index `history_offset` on.

    Built from cached pieces: each history event and each known history prefix is
    encoded once (see :func:`_history_records`), so a long history costs little.
    """
    encoder = _GAME_ENCODERS.get(type(view))
    if encoder is None:
        raise CodecError(f"not a view: {type(view).__name__}")
    game_tag, game_to_proto = encoder
    header = view.header
    history = header.history
    if history_offset:
        records = b"".join([_history_record(e) for e in history[history_offset:]])
    else:
        records = _history_records(history)
    header_bytes = _header_fields_bytes(header) + records
    return _length_delimited(_VIEW_HEADER_TAG, header_bytes) + _length_delimited(
        game_tag, game_to_proto(view).SerializeToString()
    )


def view_from_proto(msg: pb.View) -> View:
    """The game-model view a message describes."""
    return _game_from_proto(msg, header_from_proto(msg.header))


def _game_from_proto(msg: pb.View, header: ViewHeader) -> View:
    game = msg.WhichOneof("game")
    if game == "six_nimmt":
        return _six_from_proto(header, msg.six_nimmt)
    if game == "x_nimmt":
        return _x_from_proto(header, msg.x_nimmt)
    if game == "eleven_nimmt":
        return _eleven_from_proto(header, msg.eleven_nimmt)
    if game == "hornochsen":
        return _hornochsen_from_proto(header, msg.hornochsen)
    raise CodecError("view message has no game")


class ViewDecoder:
    """Decodes the successive views of one session, decoding only the new history.

    A match's history only grows. With a nonzero ``history_offset`` (DecideRequest), the
    message holds only the events from that index on and the decoder prepends the first
    ``history_offset`` events it already has. With offset 0 the message holds the whole
    history, which repeats the previous view's: the decoder keeps the wire records of the
    history it decoded last, and when the new header's bytes are (fields without history)
    + (those records) + (records of the new entries), only the new entries are decoded;
    any other header (a new match, a history that changed) is decoded in full. So the
    result always equals :func:`view_from_proto` of the view with its whole history.
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
        return _game_from_proto(msg, header_from_proto(header, history))

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


# --- whole requests ------------------------------------------------------------------


def decide_request(
    match_id: str,
    seat: int,
    decision_index: int,
    view: View,
    options: Iterable[Option],
    deadline_ms: int,
    time_bank_ms: int,
    history_offset: int = 0,
) -> pb.DecideRequest:
    """The Decide request the referee sends for one decision of `seat` (as a message; see
    :func:`decide_request_bytes`)."""
    return pb.DecideRequest.FromString(
        decide_request_bytes(
            match_id,
            seat,
            decision_index,
            view,
            options,
            deadline_ms,
            time_bank_ms,
            history_offset,
        )
    )


_REQUEST_VIEW_TAG = _tag(pb.DecideRequest.VIEW_FIELD_NUMBER)
_OPTION_TAG = _tag(pb.DecideRequest.OPTIONS_FIELD_NUMBER)
_OPTION_CACHE_LIMIT = 100_000
_option_records: dict[Option, bytes] = {}


def decide_request_bytes(
    match_id: str,
    seat: int,
    decision_index: int,
    view: View,
    options: Iterable[Option],
    deadline_ms: int,
    time_bank_ms: int,
    history_offset: int = 0,
) -> bytes:
    """The Decide request the referee sends for one decision of `seat`, on the wire: the
    view's history from `history_offset` on (the session already has the events before
    it). The bytes parse to exactly the message :func:`decide_request` returns."""
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
    view_record = _length_delimited(_REQUEST_VIEW_TAG, view_bytes(view, history_offset))
    return head + view_record + b"".join([_option_record(o) for o in options])


def _option_record(option: Option) -> bytes:
    """A DecideRequest.options entry on the wire, cached by value (options repeat)."""
    record = _option_records.get(option)
    if record is None:
        record = _length_delimited(_OPTION_TAG, option_to_proto(option).SerializeToString())
        if len(_option_records) >= _OPTION_CACHE_LIMIT:
            _option_records.clear()
        _option_records[option] = record
    return record


def match_info_to_proto(info: MatchInfo) -> pb.StartMatchRequest:
    return pb.StartMatchRequest(
        match_id=info.match_id,
        variant=info.variant,
        options=info.options,
        seat=info.seat,
        players=info.players,
        player_names=info.player_names,
        clock=pb.Clock(
            decision_ms=info.decision_ms,
            time_bank_ms=info.time_bank_ms,
            setup_ms=info.setup_ms,
        ),
        seed_hint=info.seed_hint,
    )


def match_info_from_proto(msg: pb.StartMatchRequest) -> MatchInfo:
    return MatchInfo(
        match_id=msg.match_id,
        variant=msg.variant,
        options=dict(msg.options),
        seat=msg.seat,
        players=msg.players,
        player_names=tuple(msg.player_names),
        decision_ms=msg.clock.decision_ms,
        time_bank_ms=msg.clock.time_bank_ms,
        setup_ms=msg.clock.setup_ms,
        seed_hint=msg.seed_hint,
    )


def outcome_to_proto(match_id: str, seat: int, outcome: MatchOutcome) -> pb.EndMatchRequest:
    return pb.EndMatchRequest(
        match_id=match_id,
        seat=seat,
        scores=outcome.scores,
        ranks=outcome.ranks,
        faults=outcome.faults,
        forfeited=outcome.forfeited,
    )


def outcome_from_proto(msg: pb.EndMatchRequest) -> MatchOutcome:
    return MatchOutcome(
        scores=tuple(msg.scores),
        ranks=tuple(msg.ranks),
        faults=msg.faults,
        forfeited=msg.forfeited,
    )
