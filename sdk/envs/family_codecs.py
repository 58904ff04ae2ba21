"""The codec of each game family: its observation segments, how a view fills them, and
its fixed action space (docs/rl.md lists them; :mod:`sdk.envs.encoding` is the module to
import)."""

from __future__ import annotations

from sdk.envs.codec_base import (
    FamilyCodec,
    Vector,
    no_action,
    relative,
    round_events,
    unknown_option,
)
from sdk.game.cards import HEADS, HORNOCHSEN_POINTS
from sdk.game.core import EventKind, Option, OptionKind, Side, Special
from sdk.game.views import ElevenNimmtView, HornochsenView, SixNimmtView, XNimmtView

ELEVEN_MAX_PILES = 48
"""11 nimmt! piles the action space has room for (a dealt game has at most 41)."""
HORNOCHSEN_MAX_ROWS = 15  # the most table cards dealt (5 and 6 players)

SIX_CARD_EVENTS = frozenset({EventKind.REVEAL, EventKind.PLACE, EventKind.DRAFT})
X_CARD_EVENTS = frozenset({EventKind.REVEAL, EventKind.PLACE, EventKind.X_ROW})


class SixNimmtCodec(FamilyCodec):
    """6 nimmt!, Tactics, Logic and Professional (one action space for the four)."""

    family = "6nimmt"
    max_players = 10
    deck = 104
    action_size = 104 + 4 + 8

    def _build(self) -> None:
        n, add = self.max_players, self.layout.add
        add("preset", 4, 0, 1, "one-hot: 6nimmt, 6nimmt-tactics, 6nimmt-logic, 6nimmt-pro")
        add("highest_card", 1, 0, 104, "cards in use are 1..highest_card")
        add("hand", 104, 0, 1, "card bits: own hand")
        add("rows", 4 * 5, 0, 104, "row r, position k (first card first) at 5r+k; 0 empty")
        add("row_lengths", 4, 0, 6, "cards in each row")
        add("row_heads", 4, 0, 40, "bull heads in each row")
        add("table", 104, 0, 1, "card bits: every card in a row")
        add("seen", 104, 0, 1, "card bits: every card this round's history showed")
        add("draft_pool", 104, 0, 1, "card bits: Logic's face-up cards still to draft")
        add("public_hands", n * 104, 0, 1, "Logic: per seat (relative) its hand's card bits")
        add("hand_sizes", n, 0, 104, "per seat (relative)")
        add("round_penalties", n, 0, 1000, "per seat (relative): heads taken this round")
        add("picked", n, 0, 1, "per seat (relative): has chosen face down this turn")
        add("revealed", n, 0, 104, "per seat (relative): its revealed card still to resolve")
        add("pending_card", 1, 0, 104, "the card waiting for a row or place choice; 0 none")

    def _encode(self, view: SixNimmtView, vector: Vector) -> None:
        s, seat, n = self.slices, view.header.seat, self.max_players
        presets = ("6nimmt", "6nimmt-tactics", "6nimmt-logic", "6nimmt-pro")
        vector[s["preset"].start + presets.index(view.header.variant)] = 1
        vector[s["highest_card"]] = view.highest_card
        self.set_cards(vector, "hand", view.hand)
        for r, row in enumerate(view.rows):
            base = s["rows"].start + 5 * r
            vector[base : base + len(row)] = row[:5]
            vector[s["row_lengths"].start + r] = len(row)
            vector[s["row_heads"].start + r] = sum(HEADS[c] for c in row)
            self.set_cards(vector, "table", row)
        self.set_seen(vector, view, SIX_CARD_EVENTS)
        self.set_cards(vector, "draft_pool", view.draft_pool)
        if view.public_hands and view.all_hands:
            for i, hand in enumerate(relative(view.all_hands, seat, n)):
                if hand:
                    self.set_cards(vector, "public_hands", hand, offset=104 * i)
        vector[s["hand_sizes"]] = relative(view.hand_sizes, seat, n)
        vector[s["round_penalties"]] = relative(view.round_penalties, seat, n)
        vector[s["picked"]] = relative([int(p) for p in view.picked], seat, n)
        revealed = [0] * view.header.players
        for who, card in view.revealed:
            revealed[who] = card
        vector[s["revealed"]] = relative(revealed, seat, n)
        vector[s["pending_card"]] = view.pending_card

    def action_of(self, option: Option) -> int:
        if option.kind == OptionKind.CARD and 1 <= option.card <= 104:
            return option.card - 1
        if option.kind == OptionKind.ROW and 0 <= option.row < 4:
            return 104 + option.row
        if option.kind == OptionKind.PLACE and 0 <= option.row < 4:
            return 108 + 2 * option.row + int(option.side)
        raise unknown_option(option, self.family)

    def decode(self, action: int) -> Option:
        if 0 <= action < 104:
            return Option(OptionKind.CARD, action + 1)
        if 104 <= action < 108:
            return Option(OptionKind.ROW, row=action - 104)
        if 108 <= action < 116:
            return Option(OptionKind.PLACE, row=(action - 108) // 2, side=Side((action - 108) % 2))
        raise no_action(action, self)

    def describe_actions(self) -> list[str]:
        return [
            "0..103: CARD(card = action + 1): pick or draft that card",
            "104..107: ROW(row = action - 104): take that row",
            "108..115: PLACE(row = (action - 108) // 2, side = (action - 108) % 2, "
            "0 right, 1 left): Professional's place choice",
        ]


class XNimmtCodec(FamilyCodec):
    """X nimmt!."""

    family = "xnimmt"
    max_players = 4
    deck = 100
    action_size = 100 + 3

    def _build(self) -> None:
        n, add = self.max_players, self.layout.add
        add("hand", 100, 0, 1, "card bits: own hand")
        add("rows", 3 * 5, 0, 100, "row r, position k at 5r+k (capacities 3, 4, 5); 0 empty")
        add("row_lengths", 3, 0, 5, "cards in each row")
        add("row_heads", 3, 0, 40, "bull heads in each row")
        add("seen", 100, 0, 1, "card bits: every card this round's history showed")
        add("x_row_last", n, 0, 100, "per seat (relative): last card of its X row; 0 empty")
        add("x_row_lengths", n, 0, 100, "per seat (relative): cards in its X row")
        add("x_row_heads", n, 0, 1000, "per seat (relative): heads in its X row")
        add("own_x_row", 100, 0, 1, "card bits: own X row")
        add("own_x_pile", 100, 0, 1, "card bits: own X pile")
        add("x_pile_sizes", n, 0, 100, "per seat (relative): cards in its X pile")
        add("hand_sizes", n, 0, 100, "per seat (relative)")
        add("picked", n, 0, 1, "per seat (relative): has chosen face down this turn")
        add("revealed", n, 0, 100, "per seat (relative): its revealed card still to resolve")
        add("pending_card", 1, 0, 100, "the card waiting for a row choice; 0 none")
        add("taken", 100, 0, 1, "card bits: cards just taken, one goes to the X row")

    def _encode(self, view: XNimmtView, vector: Vector) -> None:
        s, seat, n = self.slices, view.header.seat, self.max_players
        self.set_cards(vector, "hand", view.hand)
        for r, row in enumerate(view.rows):
            base = s["rows"].start + 5 * r
            vector[base : base + len(row)] = row[:5]
            vector[s["row_lengths"].start + r] = len(row)
            vector[s["row_heads"].start + r] = sum(HEADS[c] for c in row)
        self.set_seen(vector, view, X_CARD_EVENTS)
        x_rows = relative(view.x_rows, seat, n)
        for i, x_row in enumerate(x_rows):
            if x_row:
                vector[s["x_row_last"].start + i] = x_row[-1]
                vector[s["x_row_lengths"].start + i] = len(x_row)
                vector[s["x_row_heads"].start + i] = sum(HEADS[c] for c in x_row)
        self.set_cards(vector, "own_x_row", view.x_rows[seat])
        self.set_cards(vector, "own_x_pile", view.own_x_pile)
        vector[s["x_pile_sizes"]] = relative(view.x_pile_sizes, seat, n)
        vector[s["hand_sizes"]] = relative(view.hand_sizes, seat, n)
        vector[s["picked"]] = relative([int(p) for p in view.picked], seat, n)
        revealed = [0] * view.header.players
        for who, card in view.revealed:
            revealed[who] = card
        vector[s["revealed"]] = relative(revealed, seat, n)
        vector[s["pending_card"]] = view.pending_card
        self.set_cards(vector, "taken", view.taken)

    def action_of(self, option: Option) -> int:
        if option.kind == OptionKind.CARD and 1 <= option.card <= 100:
            return option.card - 1
        if option.kind == OptionKind.ROW and 0 <= option.row < 3:
            return 100 + option.row
        raise unknown_option(option, self.family)

    def decode(self, action: int) -> Option:
        if 0 <= action < 100:
            return Option(OptionKind.CARD, action + 1)
        if 100 <= action < 103:
            return Option(OptionKind.ROW, row=action - 100)
        raise no_action(action, self)

    def describe_actions(self) -> list[str]:
        return [
            "0..99: CARD(card = action + 1): pick that card, or put it in the X row",
            "100..102: ROW(row = action - 100): take that row",
        ]


def eleven_piles(view: ElevenNimmtView) -> list[list[int]]:
    """This round's piles (bottom card first), rebuilt from the public history."""
    piles: list[list[int]] = []
    place, take, new_pile, start = (
        EventKind.PLACE,
        EventKind.TAKE,
        EventKind.NEW_PILE,
        EventKind.ROUND_START,
    )
    for event in round_events(view):
        kind = event.kind
        if kind == place:
            if 0 <= event.row < len(piles):
                piles[event.row].append(event.card)
        elif kind == take:
            if 0 <= event.row < len(piles):
                del piles[event.row]
        elif kind == new_pile:
            piles.insert(event.row, [event.card])
        elif kind == start:
            piles = [[card] for card in event.cards]
    return piles


class ElevenNimmtCodec(FamilyCodec):
    """11 nimmt!."""

    family = "11nimmt"
    max_players = 7
    deck = 100
    P = ELEVEN_MAX_PILES
    action_size = 100 * P + P + 1 + 7

    def _build(self) -> None:
        n, p, add = self.max_players, self.P, self.layout.add
        add("hand", 100, 0, 1, "card bits: own hand")
        add("pile_tops", p, 0, 100, "each pile's top card; 0: no such pile")
        add("turn_start_tops", p, 0, 100, "the tops this turn's windows count from")
        add("pile_sizes", p, 0, 100, "cards in each pile (from the public history)")
        add("pile_heads", p, 0, 1000, "bull heads in each pile (from the public history)")
        add("hand_sizes", n, 0, 100, "per seat (relative)")
        add("bulls", n, 0, 10, "per seat (relative): bull cards in front of it")
        add("supply", 1, 0, 10, "bull cards left in the supply")
        add("deck_size", 1, 0, 100, "cards left in the draw deck")
        add("starter", n, 0, 1, "one-hot (relative): the seat that started this round")
        add("turn_piles", p, 0, 100, "cards played on each pile this turn")
        add("turn_cards", 1, 0, 100, "cards played this turn")

    def _encode(self, view: ElevenNimmtView, vector: Vector) -> None:
        s, seat, n, p = self.slices, view.header.seat, self.max_players, self.P
        self.set_cards(vector, "hand", view.hand)
        vector[s["pile_tops"].start : s["pile_tops"].start + len(view.pile_tops)] = view.pile_tops[
            :p
        ]
        starts = view.turn_start_tops[:p]
        vector[s["turn_start_tops"].start : s["turn_start_tops"].start + len(starts)] = starts
        for i, pile in enumerate(eleven_piles(view)[:p]):
            vector[s["pile_sizes"].start + i] = len(pile)
            vector[s["pile_heads"].start + i] = sum(map(HEADS.__getitem__, pile))
        vector[s["hand_sizes"]] = relative(view.hand_sizes, seat, n)
        vector[s["bulls"]] = relative(view.bulls, seat, n)
        vector[s["supply"]] = view.supply
        vector[s["deck_size"]] = view.deck_size
        vector[s["starter"].start + (view.starter - seat) % view.header.players] = 1
        for _, played_on in view.turn_plays:
            if 0 <= played_on < p:
                vector[s["turn_piles"].start + played_on] += 1
        vector[s["turn_cards"]] = len(view.turn_plays)

    def action_of(self, option: Option) -> int:
        p = self.P
        if option.kind == OptionKind.PLAY and 1 <= option.card <= 100 and 0 <= option.row < p:
            return (option.card - 1) * p + option.row
        if option.kind == OptionKind.ROW and 0 <= option.row < p:
            return 100 * p + option.row
        if option.kind == OptionKind.END_TURN:
            return 101 * p
        if option.kind == OptionKind.STEAL and 0 <= option.target < 7:
            return 101 * p + 1 + option.target
        raise unknown_option(option, self.family)

    def decode(self, action: int) -> Option:
        p = self.P
        if 0 <= action < 100 * p:
            return Option(OptionKind.PLAY, action // p + 1, action % p)
        if 100 * p <= action < 101 * p:
            return Option(OptionKind.ROW, row=action - 100 * p)
        if action == 101 * p:
            return Option(OptionKind.END_TURN)
        if 101 * p < action < self.action_size:
            return Option(OptionKind.STEAL, target=action - 101 * p - 1)
        raise no_action(action, self)

    def describe_actions(self) -> list[str]:
        p = self.P
        return [
            f"0..{100 * p - 1}: PLAY(card = action // {p} + 1, pile = action % {p})",
            f"{100 * p}..{101 * p - 1}: ROW(pile = action - {100 * p}): take that pile",
            f"{101 * p}: END_TURN",
            f"{101 * p + 1}..{101 * p + 7}: STEAL(target = action - {101 * p + 1})",
        ]


class HornochsenCodec(FamilyCodec):
    """Hornochsen!."""

    family = "hornochsen"
    max_players = 6
    deck = 98
    R = HORNOCHSEN_MAX_ROWS
    action_size = 98 + 2 * R + 1
    higher_is_better = True

    def _build(self) -> None:
        n, r, add = self.max_players, self.R, self.layout.add
        add("hand", 98, 0, 1, "card bits: own bull cards")
        add("specials", 2, 0, 6, "own special cards in hand: x2, +5")
        add("rows", r * 5, 0, 98, "row i (clockwise), position k at 5i+k; 0 empty")
        add("row_lengths", r, 0, 5, "cards in each row; 0: no such row")
        add("row_points", r, -100, 100, "signed points of each row's bull cards")
        add("row_x2", r, 0, 1, "the row holds an x2")
        add("row_plus5", r, 0, 1, "the row holds a +5")
        add("table", 98, 0, 1, "card bits: every card in a row")
        add("own_pile", 98, 0, 1, "card bits: own collected bull cards")
        add("own_pile_specials", 2, 0, 6, "own collected specials: x2, +5")
        add("hand_sizes", n, 0, 98, "per seat (relative): bull cards in hand")
        add("special_counts", n, 0, 12, "per seat (relative): specials in hand")
        add("pile_sizes", n, 0, 110, "per seat (relative): cards collected (specials too)")
        add("steps_this_turn", 1, 0, 3, "cards played so far this turn")

    def _encode(self, view: HornochsenView, vector: Vector) -> None:
        s, seat, n = self.slices, view.header.seat, self.max_players
        self.set_cards(vector, "hand", view.hand)
        vector[s["specials"].start] = view.specials.count(1)
        vector[s["specials"].start + 1] = view.specials.count(2)
        for i, row in enumerate(view.rows[: self.R]):
            base = s["rows"].start + 5 * i
            vector[base : base + len(row.cards)] = row.cards[:5]
            vector[s["row_lengths"].start + i] = len(row.cards)
            vector[s["row_points"].start + i] = sum(HORNOCHSEN_POINTS[c] for c in row.cards)
            vector[s["row_x2"].start + i] = int(row.x2)
            vector[s["row_plus5"].start + i] = int(row.plus5)
            self.set_cards(vector, "table", row.cards)
        self.set_cards(vector, "own_pile", view.own_pile)
        vector[s["own_pile_specials"].start] = view.own_pile_specials.count(1)
        vector[s["own_pile_specials"].start + 1] = view.own_pile_specials.count(2)
        vector[s["hand_sizes"]] = relative(view.hand_sizes, seat, n)
        vector[s["special_counts"]] = relative(view.special_counts, seat, n)
        vector[s["pile_sizes"]] = relative(view.pile_sizes, seat, n)
        vector[s["steps_this_turn"]] = view.steps_this_turn

    def action_of(self, option: Option) -> int:
        r = self.R
        if option.kind == OptionKind.PLAY and 1 <= option.card <= 98:
            return option.card - 1
        if option.kind == OptionKind.SPECIAL and option.card in (1, 2) and 0 <= option.row < r:
            return 98 + (option.card - 1) * r + option.row
        if option.kind == OptionKind.END_TURN:
            return 98 + 2 * r
        raise unknown_option(option, self.family)

    def decode(self, action: int) -> Option:
        r = self.R
        if 0 <= action < 98:
            return Option(OptionKind.PLAY, action + 1)
        if 98 <= action < 98 + 2 * r:
            kind, row = divmod(action - 98, r)
            return Option(OptionKind.SPECIAL, int(Special(kind + 1)), row)
        if action == 98 + 2 * r:
            return Option(OptionKind.END_TURN)
        raise no_action(action, self)

    def describe_actions(self) -> list[str]:
        r = self.R
        return [
            "0..97: PLAY(card = action + 1)",
            f"98..{97 + r}: SPECIAL(x2, row = action - 98)",
            f"{98 + r}..{97 + 2 * r}: SPECIAL(+5, row = action - {98 + r})",
            f"{98 + 2 * r}: END_TURN",
        ]
