"""Conversions between the game model (sdk.game) and the protocol (bullring.v1 messages).

This is the codec's shared part, used by both ends of the protocol: every conversion
is exact: ``view_from_proto(view_to_proto(v)) == v`` for every view, and the same holds
for options, events, match info, outcomes and Decide requests. Enum numbers are shared
between sdk/game/core.py and the .proto (three EventKind names differ: PLACE is
PLACE_CARD, SPECIAL is SPECIAL_CARD, END_TURN is TURN_END), so enums go over as numbers.

Decoding refuses what it cannot represent (an unknown enum number, a view with no game)
with :class:`CodecError`. The two ends' fast paths build on this module and never on each
other: the referee's per-match wire encoder is :mod:`referee.match.encoder`, the bot's
incremental view decoder :mod:`sdk.wire.view_decoder` (tests/test_codec_split.py checks the
imports). The wire helpers at the end (:func:`length_delimited`, :func:`history_record`)
are the bytes both fast paths agree on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar, cast

from google.protobuf.message import Message

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


def check_event(msg: pb.Event) -> None:
    """Refuse what :func:`event_from_proto` would refuse, without building the event."""
    if msg.kind not in _EVENT_KINDS or msg.side not in _SIDES:
        raise CodecError(f"unknown event kind {msg.kind} or side {msg.side}")


def header_to_proto(header: ViewHeader, history_offset: int = 0) -> pb.Header:
    """The header message, its history from index `history_offset` on."""
    decision = header.decision
    history = header.history[history_offset:] if history_offset else header.history
    return pb.Header(
        variant=header.variant,
        options=header.options,
        players=header.players,
        seat=header.seat,
        round=header.round,
        scores=header.scores,
        to_move=header.to_move,
        decision=cast(pb.DecisionKind.ValueType, 0 if decision is None else decision),
        history=[event_to_proto(e) for e in history],
    )


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


GAME_FIELDS: Mapping[type, tuple[int, Callable[[Any], Message]]] = {
    SixNimmtView: (pb.View.SIX_NIMMT_FIELD_NUMBER, _six_to_proto),
    XNimmtView: (pb.View.X_NIMMT_FIELD_NUMBER, _x_to_proto),
    ElevenNimmtView: (pb.View.ELEVEN_NIMMT_FIELD_NUMBER, _eleven_to_proto),
    HornochsenView: (pb.View.HORNOCHSEN_FIELD_NUMBER, _hornochsen_to_proto),
}
"""Each view type's View.game field number and the function making that field's message."""


_GAME_NAMES = {f.number: f.name for f in pb.View.DESCRIPTOR.oneofs_by_name["game"].fields}


def game_to_proto(view: View) -> tuple[int, Message]:
    """The view's family part: the number of its View.game field, and its message."""
    entry = GAME_FIELDS.get(type(view))
    if entry is None:
        raise CodecError(f"not a view: {type(view).__name__}")
    field_number, to_proto = entry
    return field_number, to_proto(view)


def view_to_proto(view: View, history_offset: int = 0) -> pb.View:
    """The protocol message for a view of any family, its history from index
    `history_offset` on."""
    field_number, game = game_to_proto(view)
    msg = pb.View(header=header_to_proto(view.header, history_offset))
    getattr(msg, _GAME_NAMES[field_number]).CopyFrom(game)
    return msg


def view_from_proto(msg: pb.View) -> View:
    """The game-model view a message describes."""
    return game_from_proto(msg, header_from_proto(msg.header))


def game_from_proto(msg: pb.View, header: ViewHeader) -> View:
    """The view `msg` describes, with `header` (already decoded) as its header."""
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
    """The Decide request for one decision of `seat`, the view's history from
    `history_offset` on (the session already has the events before it). The referee
    sends the same message, encoded faster (:class:`referee.match.encoder.MatchEncoder`)."""
    decision = view.header.decision
    return pb.DecideRequest(
        match_id=match_id,
        decision_index=decision_index,
        kind=cast(pb.DecisionKind.ValueType, 0 if decision is None else decision),
        deadline_ms=deadline_ms,
        time_bank_ms=time_bank_ms,
        seat=seat,
        history_offset=history_offset,
        view=view_to_proto(view, history_offset),
        options=options_to_proto(options),
    )


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


# --- wire pieces both fast paths share ------------------------------------------------

HISTORY_TAG = bytes([(pb.Header.HISTORY_FIELD_NUMBER << 3) | 2])
"""The tag of a Header.history entry on the wire (a length-delimited field)."""


def field_tag(field_number: int) -> bytes:
    """The one-byte tag of a length-delimited field numbered below 16."""
    if not 0 < field_number < 16:
        raise ValueError(f"field {field_number} has no one-byte tag")
    return bytes([(field_number << 3) | 2])


def length_delimited(tag: bytes, payload: bytes) -> bytes:
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


def history_record(event_bytes: bytes) -> bytes:
    """One Header.history entry on the wire (tag, length, the serialized Event). A
    header's bytes are its other fields, then its history records in order (history is
    the last field), which both the encoder and the decoder rely on."""
    return length_delimited(HISTORY_TAG, event_bytes)
