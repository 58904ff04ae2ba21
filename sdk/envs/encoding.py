"""Numeric encodings of views and options, one per game family (docs/rl.md).

Everything an RL library needs of a seat's decision, as fixed-size numpy arrays:

* :meth:`FamilyCodec.encode` turns a seat's view into a flat ``float32`` vector laid out
  in named segments (:attr:`FamilyCodec.segments`: name, size, meaning). It reads the
  view only, so it holds nothing the seat may not see.
* Every option of the family has one fixed action index (:meth:`FamilyCodec.action_of`);
  :meth:`FamilyCodec.mask` marks the legal ones, :meth:`FamilyCodec.option_of` maps an
  action back to the legal option it stands for.

Seats are encoded **relative to the observing seat**: per-seat segments list the
observer first, then the next seats in seat order (``(seat + i) % players``), padded with
zeros to the family's most players. Card values are the card numbers themselves (0: no
card), counts are counts: nothing is scaled.

numpy only (no gymnasium or pettingzoo), so a bot can use it in the sandbox.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:  # numpy is an extra: the core install does without it
    raise ImportError("sdk.envs.encoding needs numpy: pip install 'bullring[rl]'") from missing

from sdk.game.cards import HEADS, HORNOCHSEN_POINTS
from sdk.game.core import DecisionKind, EventKind, Option, OptionKind, RulesError, Side, Special
from sdk.game.variants import family_of
from sdk.game.views import ElevenNimmtView, HornochsenView, SixNimmtView, View, XNimmtView

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

SCORE_BOUND = 100_000.0  # |score| never gets near this (Hornochsen!'s x2 cards multiply)
ELEVEN_MAX_PILES = 48
"""11 nimmt! piles the action space has room for (a dealt game has at most 41)."""
HORNOCHSEN_MAX_ROWS = 15  # the most table cards dealt (5 and 6 players)


@dataclass(frozen=True)
class Segment:
    """One named part of the observation vector."""

    name: str
    start: int
    size: int
    low: float
    high: float
    meaning: str

    @property
    def stop(self) -> int:
        return self.start + self.size


class Layout:
    """An observation vector built segment by segment."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.size = 0

    def add(self, name: str, size: int, low: float, high: float, meaning: str) -> None:
        self.segments.append(Segment(name, self.size, size, low, high, meaning))
        self.size += size

    def bounds(self) -> tuple[Vector, Vector]:
        low = np.empty(self.size, np.float32)
        high = np.empty(self.size, np.float32)
        for s in self.segments:
            low[s.start : s.stop] = s.low
            high[s.start : s.stop] = s.high
        return low, high

    def slices(self) -> dict[str, slice]:
        return {s.name: slice(s.start, s.stop) for s in self.segments}


def relative(values: Sequence[Any], seat: int, width: int) -> list[Any]:
    """`values` by seat, observer first, padded with zeros to `width`."""
    n = len(values)
    out: list[Any] = [values[(seat + i) % n] for i in range(n)]
    return out + [0] * (width - n)


def round_events(view: View) -> Sequence[Any]:
    """This round's public events, oldest first (events carry their round, in order)."""
    history = view.header.history
    current = view.header.round
    low, high = 0, len(history)
    while low < high:  # the first event of the current round
        middle = (low + high) // 2
        if history[middle].round < current:
            low = middle + 1
        else:
            high = middle
    return history[low:]


SIX_CARD_EVENTS = frozenset({EventKind.REVEAL, EventKind.PLACE, EventKind.DRAFT})
X_CARD_EVENTS = frozenset({EventKind.REVEAL, EventKind.PLACE, EventKind.X_ROW})


class FamilyCodec:
    """The observation layout and the action space of one family."""

    family: str
    max_players: int
    deck: int  # highest card number of the family
    action_size: int
    higher_is_better: bool = False

    def __init__(self) -> None:
        self._actions: dict[Option, int] = {}
        self._last: tuple[tuple[Option, ...], list[int]] = ((), [])
        self.layout = Layout()
        self._common()
        self._build()
        self.slices = self.layout.slices()
        self.low, self.high = self.layout.bounds()

    @property
    def segments(self) -> list[Segment]:
        return self.layout.segments

    @property
    def size(self) -> int:
        return self.layout.size

    def _common(self) -> None:
        n = self.max_players
        add = self.layout.add
        add("players", n, 0, 1, "one-hot: the number of players (index players-1)")
        add("decision", len(DecisionKind), 0, 1, "one-hot: this seat's pending DecisionKind - 1")
        add("round", 1, 0, 1000, "the round number, 1-based")
        add("scores", n, -SCORE_BOUND, SCORE_BOUND, "per seat (relative): running score")

    def _build(self) -> None:
        raise NotImplementedError

    def encode(self, view: View) -> Vector:
        """The seat's observation vector (only what `view` shows)."""
        vector = np.zeros(self.size, np.float32)
        h = view.header
        seat = h.seat
        vector[self.slices["players"].start + h.players - 1] = 1
        if h.decision is not None:
            vector[self.slices["decision"].start + int(h.decision) - 1] = 1
        vector[self.slices["round"]] = h.round
        vector[self.slices["scores"]] = relative(h.scores, seat, self.max_players)
        self._encode(view, vector)
        return vector

    def _encode(self, view: Any, vector: Vector) -> None:
        raise NotImplementedError

    def set_cards(self, vector: Vector, name: str, cards: Sequence[int], offset: int = 0) -> None:
        """Mark `cards` (1-based card numbers) in a card-bit segment."""
        start = self.slices[name].start + offset
        for card in cards:
            vector[start + card - 1] = 1

    def set_seen(self, vector: Vector, view: View, card_events: frozenset[EventKind]) -> None:
        """Mark in ``seen`` every card this round's events showed: the ``card`` of the
        kinds in `card_events` and the ``cards`` of every event but ROUND_END (scores)."""
        events = round_events(view)
        end = EventKind.ROUND_END
        cards = [e.card for e in events if e.kind in card_events]
        cards += [c for e in events if e.cards and e.kind != end for c in e.cards]
        if cards:
            index = np.asarray(cards, np.int64)
            vector[self.slices["seen"].start + index[index > 0] - 1] = 1

    # -- actions --

    def action_of(self, option: Option) -> int:
        """The fixed action index of `option` (RulesError if the family has none)."""
        raise NotImplementedError

    def action(self, option: Option) -> int:
        """:meth:`action_of`, remembered (options are immutable and few)."""
        action = self._actions.get(option)
        if action is None:
            action = self._actions[option] = self.action_of(option)
        return action

    def actions(self, options: Sequence[Option]) -> list[int]:
        """The action of each option, in order (the last tuple asked about is remembered:
        an environment asks for the mask and then for the chosen action)."""
        last = self._last  # one attribute, so that threads never see half of an update
        if options is last[0]:
            return last[1]
        get = self._actions.get
        actions = [get(o) or self.action(o) for o in options]
        if isinstance(options, tuple):
            self._last = (options, actions)
        return actions

    def mask(self, options: Sequence[Option]) -> Mask:
        """1 at the action of every legal option, 0 elsewhere."""
        mask = np.zeros(self.action_size, np.int8)
        mask[self.actions(options)] = 1
        return mask

    def option_of(self, action: int, options: Sequence[Option]) -> Option | None:
        """The legal option `action` stands for; None if it stands for none."""
        index = self.index_of(action, options)
        return None if index is None else options[index]

    def index_of(self, action: int, options: Sequence[Option]) -> int | None:
        """The index in `options` of the option `action` stands for; None if none."""
        try:
            return self.actions(options).index(action)
        except ValueError:
            return None

    def decode(self, action: int) -> Option:
        """The option an action stands for, legal or not (the inverse of action_of)."""
        raise NotImplementedError

    def describe_actions(self) -> list[str]:
        """The action ranges, for docs and errors."""
        raise NotImplementedError

    def sign(self) -> int:
        """Reward sign: +1 when the highest score wins, -1 for penalty families."""
        return 1 if self.higher_is_better else -1


def _unknown(option: Option, family: str) -> RulesError:
    return RulesError(f"{option.describe()} has no action in {family}'s action space")


def _no_action(action: int, codec: FamilyCodec) -> RulesError:
    return RulesError(f"{codec.family}'s actions are 0..{codec.action_size - 1}, not {action}")


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
        raise _unknown(option, self.family)

    def decode(self, action: int) -> Option:
        if 0 <= action < 104:
            return Option(OptionKind.CARD, action + 1)
        if 104 <= action < 108:
            return Option(OptionKind.ROW, row=action - 104)
        if 108 <= action < 116:
            return Option(OptionKind.PLACE, row=(action - 108) // 2, side=Side((action - 108) % 2))
        raise _no_action(action, self)

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
        raise _unknown(option, self.family)

    def decode(self, action: int) -> Option:
        if 0 <= action < 100:
            return Option(OptionKind.CARD, action + 1)
        if 100 <= action < 103:
            return Option(OptionKind.ROW, row=action - 100)
        raise _no_action(action, self)

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
        add("turn_piles", p, 0, 10, "cards played on each pile this turn")
        add("turn_cards", 1, 0, 10, "cards played this turn")

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
        raise _unknown(option, self.family)

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
        raise _no_action(action, self)

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
        raise _unknown(option, self.family)

    def decode(self, action: int) -> Option:
        r = self.R
        if 0 <= action < 98:
            return Option(OptionKind.PLAY, action + 1)
        if 98 <= action < 98 + 2 * r:
            kind, row = divmod(action - 98, r)
            return Option(OptionKind.SPECIAL, int(Special(kind + 1)), row)
        if action == 98 + 2 * r:
            return Option(OptionKind.END_TURN)
        raise _no_action(action, self)

    def describe_actions(self) -> list[str]:
        r = self.R
        return [
            "0..97: PLAY(card = action + 1)",
            f"98..{97 + r}: SPECIAL(x2, row = action - 98)",
            f"{98 + r}..{97 + 2 * r}: SPECIAL(+5, row = action - {98 + r})",
            f"{98 + 2 * r}: END_TURN",
        ]


CODECS: dict[str, Callable[[], FamilyCodec]] = {
    "6nimmt": SixNimmtCodec,
    "xnimmt": XNimmtCodec,
    "11nimmt": ElevenNimmtCodec,
    "hornochsen": HornochsenCodec,
}
_MADE: dict[str, FamilyCodec] = {}


def codec_for(variant: str) -> FamilyCodec:
    """The codec of a variant's family (one shared instance per family)."""
    name = family_of(variant).name
    codec = _MADE.get(name)
    if codec is None:
        codec = _MADE[name] = CODECS[name]()
    return codec


__all__ = [
    "CODECS",
    "ELEVEN_MAX_PILES",
    "HORNOCHSEN_MAX_ROWS",
    "FamilyCodec",
    "Segment",
    "codec_for",
    "eleven_piles",
]
