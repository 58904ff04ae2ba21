"""The parts of a Decide request that change at every decision, written straight to
protobuf's wire format: a 6 nimmt! view's game fields and a header's per-decision fields.

The referee writes a request at every decision, and building protobuf messages from
Python values only to serialize them is most of that request's cost. The wire format of
these messages is simple: a field is its tag (field number and wire type) and its value; a
number is a varint, one byte when it is below 128; a repeated number is packed (tag,
length, the numbers); a message is length-delimited (tag, length, its fields); a field at
its default is left out. In a 6 nimmt! view every card, count and length is below 128
(nearly always: the highest card is 104), so the message is a list of bytes written at
once. Where a number does not fit one byte (a seat of -1, a score of 128 or more), the
protobuf message is serialized instead. Either way the bytes are those
``SerializeToString`` gives (fields in number order), which
``tests/referee/test_view_wire.py`` checks over every 6 nimmt! preset and odd values.

Other families' views go through their protobuf messages (:mod:`sdk.wire.codec`): their
matches are fewer, and each writer here is one more thing to keep equal to the protocol.
"""

from __future__ import annotations

from typing import cast

from sdk.game.core import ViewHeader
from sdk.game.views import SixNimmtView
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire.codec import GAME_FIELDS

_VARINT, _LENGTH_DELIMITED = 0, 2  # wire types
_six_to_proto = GAME_FIELDS[SixNimmtView][1]


def _tag(field_number: int, wire_type: int) -> int:
    return field_number << 3 | wire_type


_SIX = pb.SixNimmtView
_HAND_TAG = _tag(_SIX.HAND_FIELD_NUMBER, _LENGTH_DELIMITED)
_ROWS_TAG = _tag(_SIX.ROWS_FIELD_NUMBER, _LENGTH_DELIMITED)
_HAND_SIZES_TAG = _tag(_SIX.HAND_SIZES_FIELD_NUMBER, _LENGTH_DELIMITED)
_PENALTIES_TAG = _tag(_SIX.ROUND_PENALTIES_FIELD_NUMBER, _LENGTH_DELIMITED)
_HIGHEST_TAG = _tag(_SIX.HIGHEST_CARD_FIELD_NUMBER, _VARINT)
_PICKED_TAG = _tag(_SIX.PICKED_FIELD_NUMBER, _LENGTH_DELIMITED)
_REVEALED_TAG = _tag(_SIX.REVEALED_FIELD_NUMBER, _LENGTH_DELIMITED)
_PENDING_TAG = _tag(_SIX.PENDING_CARD_FIELD_NUMBER, _VARINT)
_POOL_TAG = _tag(_SIX.DRAFT_POOL_FIELD_NUMBER, _LENGTH_DELIMITED)
_PUBLIC_TAG = _tag(_SIX.PUBLIC_HANDS_FIELD_NUMBER, _VARINT)
_ALL_HANDS_TAG = _tag(_SIX.ALL_HANDS_FIELD_NUMBER, _LENGTH_DELIMITED)
_CARDS_TAG = _tag(pb.Cards.CARDS_FIELD_NUMBER, _LENGTH_DELIMITED)
_SEAT_TAG = _tag(pb.SeatCard.SEAT_FIELD_NUMBER, _VARINT)
_CARD_TAG = _tag(pb.SeatCard.CARD_FIELD_NUMBER, _VARINT)

_HEADER_SEAT_TAG = _tag(pb.Header.SEAT_FIELD_NUMBER, _VARINT)
_HEADER_ROUND_TAG = _tag(pb.Header.ROUND_FIELD_NUMBER, _VARINT)
_HEADER_SCORES_TAG = _tag(pb.Header.SCORES_FIELD_NUMBER, _LENGTH_DELIMITED)
_HEADER_TO_MOVE_TAG = _tag(pb.Header.TO_MOVE_FIELD_NUMBER, _LENGTH_DELIMITED)
_HEADER_DECISION_TAG = _tag(pb.Header.DECISION_FIELD_NUMBER, _VARINT)


def six_nimmt_fields(view: SixNimmtView) -> bytes:
    """The ``SixNimmtView`` message of `view` on the wire (as ``sdk.wire.codec``'s
    conversion serializes it)."""
    # Nearly always every number of a 6 nimmt! view, and every length, is below 128: one
    # byte each. The message is then written as one list of bytes; anything else (a
    # number that needs more bytes) goes through the protobuf message.
    hand = view.hand
    out = [_HAND_TAG, len(hand), *hand] if hand else []
    for row in view.rows:
        out += (_ROWS_TAG, len(row) + 2, _CARDS_TAG, len(row), *row) if row else (_ROWS_TAG, 0)
    sizes = view.hand_sizes
    if sizes:
        out += (_HAND_SIZES_TAG, len(sizes), *sizes)
    penalties = view.round_penalties
    if penalties:
        out += (_PENALTIES_TAG, len(penalties), *penalties)
    if view.highest_card:
        out += (_HIGHEST_TAG, view.highest_card)
    picked = view.picked
    if picked:
        out += (_PICKED_TAG, len(picked), *picked)
    for seat, card in view.revealed:
        entry = ([_SEAT_TAG, seat] if seat else []) + ([_CARD_TAG, card] if card else [])
        out += (_REVEALED_TAG, len(entry), *entry)
    if view.pending_card:
        out += (_PENDING_TAG, view.pending_card)
    pool = view.draft_pool
    if pool:
        out += (_POOL_TAG, len(pool), *pool)
    if view.public_hands:
        out += (_PUBLIC_TAG, 1)
    for cards in view.all_hands:
        if cards:
            out += (_ALL_HANDS_TAG, len(cards) + 2, _CARDS_TAG, len(cards), *cards)
        else:
            out += (_ALL_HANDS_TAG, 0)
    return _one_byte_each(out) or _six_to_proto(view).SerializeToString()


def header_fields(header: ViewHeader) -> bytes:
    """A header's fields that change during a match (seat, round, scores, to_move,
    decision) on the wire, as ``pb.Header`` with only them set serializes them."""
    out = [_HEADER_SEAT_TAG, header.seat] if header.seat else []
    if header.round:
        out += (_HEADER_ROUND_TAG, header.round)
    scores = header.scores
    if scores:
        out += (_HEADER_SCORES_TAG, len(scores), *scores)
    to_move = header.to_move
    if to_move:
        out += (_HEADER_TO_MOVE_TAG, len(to_move), *to_move)
    decision = header.decision
    if decision:
        out += (_HEADER_DECISION_TAG, decision)
    return _one_byte_each(out) or _header_message(header)


def _one_byte_each(values: list[int]) -> bytes | None:
    """`values` as one byte each, if there are some and every one is below 128 (a varint
    of one byte); else None, and the caller serializes the protobuf message instead."""
    try:
        data = bytes(values)
    except ValueError:  # below 0 or above 255
        return None
    return data if data and max(data) < 0x80 else None


def _header_message(header: ViewHeader) -> bytes:
    decision = header.decision
    return pb.Header(
        seat=header.seat,
        round=header.round,
        scores=header.scores,
        to_move=header.to_move,
        decision=cast(pb.DecisionKind.ValueType, 0 if decision is None else decision),
    ).SerializeToString()
