"""Hornochsen!: the rules (the state and every rule that moves it forward).

Hornochsen! (docs/rules.md, "Hornochsen!"): collect rows of 5 bull cards; green heads score.

A turn is up to 3 steps of the seat to move: PLAY(card) puts a bull card on the row whose
end is the highest below it (no such row: the row with the highest end), SPECIAL(kind, row)
puts an x2 or +5 on a row without one, END_TURN (after the first step) stops early. The
5th bull card of a row collects it, specials included. Seats that cannot play are skipped;
the game ends the moment the last bull card in any hand is played.

Score = (green - red heads + 5 per +5 card) x 2^(x2 cards) - 10 per special left in hand;
the hand penalty counts once the game is over. Highest score wins.

Explicit positions and determinization are in :mod:`sdk.game.hornochsen.position`, views
and card places in :mod:`sdk.game.hornochsen.view`; the family (presets, constructors) in
:mod:`sdk.game.hornochsen`, which re-exports every name.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Mapping, Sequence

from sdk.game.cards import HORNOCHSEN_POINTS
from sdk.game.core import (
    DecisionKind,
    Event,
    EventKind,
    GameState,
    Option,
    OptionKind,
    Policy,
    RulesError,
    Side,
    Special,
)
from sdk.game.engine.dealing import seeded_shuffle
from sdk.game.engine.eventlog import EventLog, Record
from sdk.game.engine.support import require_legal, require_pending
from sdk.game.family import Position
from sdk.game.hornochsen.position import state_from_position
from sdk.game.hornochsen.setup import DEAL, DECK, MAX_STEPS, NAME, ROW_FULL
from sdk.game.hornochsen.view import (
    card_locations_of,
    special_locations_of,
    view_of,
)
from sdk.game.views import HornochsenView

END_TURN = Option(OptionKind.END_TURN)


PLAY_OPTIONS = tuple(Option(OptionKind.PLAY, card) for card in range(DECK.stop))


SPECIAL_OPTIONS: dict[int, tuple[Option, ...]] = {
    kind: tuple(Option(OptionKind.SPECIAL, kind, row) for row in range(len(DECK)))
    for kind in Special
}
"""SPECIAL_OPTIONS[kind][row]: put special `kind` on `row` (shared, options are immutable)."""


_X2, _PLUS5 = Special.X2, Special.PLUS5


def row_for(card: int, ends: Sequence[int]) -> int:
    """The row a bull card goes to: the highest end below it, else the highest end."""
    best, best_end, top, top_end = -1, 0, -1, 0
    for index, end in enumerate(ends):
        if best_end < end < card:
            best, best_end = index, end
        if end > top_end:
            top, top_end = index, end
    return best if best >= 0 else top


def score(
    pile: Sequence[int], pile_specials: Sequence[int], hand_specials: Sequence[int] = ()
) -> int:
    """(green - red + 5 per +5) x 2 per x2, minus 10 per special card left in hand."""
    points = sum([HORNOCHSEN_POINTS[card] for card in pile]) + 5 * pile_specials.count(_PLUS5)
    return points * (1 << pile_specials.count(_X2)) - 10 * len(hand_specials)


# Event kinds as ints, for the compact history records (sdk.game.engine.eventlog).
_K_END_TURN = int(EventKind.END_TURN)
_K_PLACE = int(EventKind.PLACE)
_K_SPECIAL = int(EventKind.SPECIAL)
_K_COLLECT = int(EventKind.COLLECT)
_K_ROUND_START = int(EventKind.ROUND_START)
_K_ROUND_END = int(EventKind.ROUND_END)
_SPECIAL_OF = (Special.X2, Special.X2, Special.PLUS5)  # by value (Special(v) is slow)
_TURNS = tuple((seat,) for seat in range(6))  # pending(): the seat to move
_ORDERS = tuple(
    tuple(
        tuple((seat + step) % players for step in range(1, players + 1)) for seat in range(players)
    )
    for players in range(7)
)
"""_ORDERS[players][seat]: the seats after `seat` clockwise, `seat` itself last."""
# Enum members as module constants: a class attribute lookup on an enum costs several times
# a global's, and these are read at every step.
_PLAY_KIND, _SPECIAL_KIND, _END_TURN_KIND = OptionKind.PLAY, OptionKind.SPECIAL, OptionKind.END_TURN
_RIGHT = Side.RIGHT
_ByKind = tuple[tuple[Option, ...], ...]
_ON_X2, _ON_PLUS5 = SPECIAL_OPTIONS[_X2], SPECIAL_OPTIONS[_PLUS5]  # by row
_NO_CARDS: list[int] = []  # a hand when no row is left to play on (never changed)


class HornochsenState(EventLog, GameState[HornochsenView]):
    """A game of Hornochsen!. Build one with :func:`new_game` or :meth:`from_position`."""

    __slots__ = (  # attribute access is quicker than through the instance dict
        "_ends",
        "_ends_of",
        "_events",
        "_free",
        "_free_of",
        "_log",
        "_ordered",
        "hand_options",
        "hands",
        "over",
        "pile_specials",
        "piles",
        "players",
        "row_specials",
        "rows",
        "specials",
        "steps",
        "turn",
        "unused",
        "variant",
    )
    COPY_LISTS = ("unused", *EventLog.LOG_LISTS)
    COPY_NESTED = (
        "hands",
        "hand_options",
        "specials",
        "rows",
        "row_specials",
        "piles",
        "pile_specials",
    )

    def __init__(self, players: int, variant: str = NAME) -> None:
        self.variant = variant
        self.players = players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.hand_options: list[list[Option]] = [[] for _ in range(players)]
        self.specials: list[list[int]] = [[] for _ in range(players)]  # Special values
        self.rows: list[list[int]] = []  # bull cards, first card first, clockwise
        self.row_specials: list[list[int]] = []
        self.piles: list[list[int]] = [[] for _ in range(players)]  # collected bull cards
        self.pile_specials: list[list[int]] = [[] for _ in range(players)]
        self.unused: list[int] = []
        self.turn = 0
        self.steps = 0
        self.over = False
        self._log: list[Record] = []
        self._events: list[Event] = []
        # Kept with the list they were made from (a clone or a position has other lists):
        # the row ends, in row order and ascending, of the rows list `_ends_of` ...
        self._ends_of: list[list[int]] | None = None
        self._ends: list[int] = []
        self._ordered: list[int] = []
        # ... and the SPECIAL options on free rows of the row_specials list `_free_of`.
        self._free_of: list[list[int]] | None = None
        self._free: _ByKind = ()

    def set_hands(self, hands: list[list[int]]) -> None:
        """Give every seat its (sorted) hand. ``hand_options[seat]`` holds the PLAY option
        of each card of ``hands[seat]``, in the same order (the PLAY options of a legal
        option list, and the quick legality check of a PLAY); every change to a hand
        changes both. Code outside the engine that changes ``hands`` (a hand-made
        determinization) must call this afterwards."""
        self.hands = hands
        self.hand_options = [[PLAY_OPTIONS[card] for card in hand] for hand in hands]

    # ----- construction -------------------------------------------------------------

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[int]],
        rows: Sequence[Sequence[int]],
        *,
        specials: Sequence[Sequence[int]] | None = None,
        row_specials: Sequence[Sequence[int]] | None = None,
        piles: Sequence[Sequence[int]] | None = None,
        pile_specials: Sequence[Sequence[int]] | None = None,
        turn: int = 0,
        variant: str = NAME,
    ) -> HornochsenState:
        """A state at the start of `turn`'s turn. Rows are listed clockwise; specials are
        Special values (each seat holds one x2 and one +5 unless given). Cards in no given
        place are unused. The history tells the table as if it had been played:
        ``ROUND_START`` (each row's first card), then a ``PLACE`` by seat -1 of every further
        row card. (Determinization needs the history of a dealt game: this one does not
        tell collected piles or played specials.)"""
        return state_from_position(
            cls,
            hands,
            rows,
            specials=specials,
            row_specials=row_specials,
            piles=piles,
            pile_specials=pile_specials,
            turn=turn,
            variant=variant,
        )

    def _deal(self, seed: int) -> None:
        cards = list(DECK)
        seeded_shuffle(f"{NAME}:{seed}:1", cards)  # round_rng's order
        hand_size, table = DEAL[self.players]
        self.set_hands(
            [sorted(cards[s * hand_size : (s + 1) * hand_size]) for s in range(self.players)]
        )
        start = self.players * hand_size
        firsts = sorted(cards[start : start + table])
        self.rows = [[card] for card in firsts]
        self.row_specials = [[] for _ in firsts]
        self.unused = sorted(cards[start + table :])
        self.specials = [[_X2, _PLUS5] for _ in range(self.players)]
        self._log.append((_K_ROUND_START, -1, 0, -1, 0, 1, tuple(firsts)))

    # ----- the GameState interface --------------------------------------------------

    @property
    def higher_is_better(self) -> bool:
        return True

    def pending(self) -> tuple[int, ...]:
        return () if self.over else _TURNS[self.turn]

    def decision_kind(self, seat: int) -> DecisionKind:
        require_pending(self.pending(), seat)
        return DecisionKind.PLAY_STEP

    def legal_options(self, seat: int) -> list[Option]:
        """The legal options of the seat to move, in canonical order: by card (a special's
        card is its kind: 1 or 2), PLAY (row -1) before SPECIAL on rows 0, 1, ...;
        END_TURN last. Hands are kept sorted."""
        if self.over or seat != self.turn:
            require_pending(self.pending(), seat)
        steps = self.steps
        if steps >= MAX_STEPS:
            return [END_TURN]
        kinds = self.specials[seat]
        if not kinds:
            options = self.hand_options[seat].copy() if self.rows else []
        else:
            free = self._free if self._free_of is self.row_specials else self._free_rows()
            hand = self.hands[seat] if self.rows else _NO_CARDS
            last = kinds[-1]
            if (not hand or hand[0] > last) and (len(kinds) == 1 or kinds[0] < last):
                # The usual case: distinct kinds, sorted, and no card as low as a kind.
                if hand:
                    options = [
                        *(free[3] if len(kinds) == 2 else free[last]),
                        *self.hand_options[seat],
                    ]
                else:
                    options = list(free[3] if len(kinds) == 2 else free[last])
            else:
                plays = self.hand_options[seat]
                options = []
                played = 0
                for kind in sorted(set(kinds)):
                    while played < len(hand) and hand[played] <= kind:
                        options.append(plays[played])
                        played += 1
                    options += free[kind]
                options += plays[played : len(hand)]
        if steps:
            options.append(END_TURN)
        return options

    def _free_rows(self) -> _ByKind:
        """The SPECIAL options on the rows free of each kind: [kind] for x2 (1) and +5 (2),
        [3] for both, kept with the row_specials list they were made from and made again
        after a special is played or a row collected."""
        row_specials = self.row_specials
        on_x2: list[Option] = []
        on_plus5: list[Option] = []
        # zip stops at the last row (strict= would cost a keyword call)
        for x2, plus5, held in zip(_ON_X2, _ON_PLUS5, row_specials):  # noqa: B905
            if not held:
                on_x2.append(x2)
                on_plus5.append(plus5)
            else:
                if _X2 not in held:
                    on_x2.append(x2)
                if _PLUS5 not in held:
                    on_plus5.append(plus5)
        free = ((), tuple(on_x2), tuple(on_plus5), tuple(on_x2 + on_plus5))
        self._free_of, self._free = row_specials, free
        return free

    def apply(self, seat: int, option: Option) -> None:
        if self.over or seat != self.turn:
            require_pending(self.pending(), seat)
        kind = option[0]
        if kind is not _PLAY_KIND and kind != _PLAY_KIND:
            if option is END_TURN and self.steps:
                self._end_turn(seat)
            elif self._is_legal(seat, option):
                self._step(seat, option)
            else:
                require_legal(seat, option, self.legal_options(seat))
            return
        # A PLAY that legal_options gave is its hand card's own option (hand_options): the
        # card's index in the hand finds it; it is legal while rows and steps are left.
        card = option[1]
        hand = self.hands[seat]
        try:
            index = hand.index(card)
        except ValueError:
            index = -1
        if (
            index < 0
            or self.hand_options[seat][index] is not option
            or self.steps >= MAX_STEPS
            or not self.rows
        ):
            if not self._is_legal(seat, option):
                require_legal(seat, option, self.legal_options(seat))
            index = hand.index(card)
        # The PLAY, written out here (the hot path): the card goes to the row whose end is
        # the highest below it, else to the row with the highest end (row_for), found by
        # bisecting the row ends kept in ascending order; the card takes its end's place.
        del hand[index]
        del self.hand_options[seat][index]
        rows = self.rows
        if self._ends_of is rows:
            ends, ordered = self._ends, self._ordered
        else:
            ends = [row[-1] for row in rows]
            ordered = sorted(ends)
            self._ends_of, self._ends, self._ordered = rows, ends, ordered
        below = bisect_left(ordered, card)
        if below:
            end = ordered[below - 1]
            ordered[below - 1] = card
        else:
            end = ordered.pop()
            ordered.insert(0, card)
        row = ends.index(end)  # the ends are distinct
        cards = rows[row]
        cards.append(card)
        ends[row] = card
        log = self._log
        log.append((_K_PLACE, seat, card, row, 0, 1))
        if len(cards) >= ROW_FULL:  # the 5th card collects the row
            del rows[row]
            del ends[row]
            ordered.remove(card)
            self._free_of = None
            specials = self.row_specials.pop(row)
            self.piles[seat].extend(cards)
            self.pile_specials[seat].extend(specials)
            self.pile_specials[seat].sort()
            log.append((_K_COLLECT, seat, 0, row, 0, 1, tuple(cards), -1, tuple(specials)))
        steps = self.steps = self.steps + 1
        if not hand and not any(self.hands):
            log.append((_K_END_TURN, seat, 0, -1, 0, 1))
            self._end_game()
        elif steps >= MAX_STEPS or not ((hand and rows) or self._can_play(seat)):
            self._end_turn(seat)

    def apply_trusted(self, seat: int, option: Option) -> None:
        """:meth:`apply` without checking that `seat` is pending and `option` legal: for
        simulations that only apply options ``legal_options`` gave (a wrong one corrupts
        the state). The referee always uses :meth:`apply`."""
        self._step(seat, option)

    def playout(self, rng: random.Random, policy: Policy | None = None) -> list[int]:
        """As :meth:`GameState.playout`; with the random policy, a faster loop that makes
        exactly the same choices from the same `rng` (no pending or legality checks)."""
        if policy is not None:
            return super().playout(rng, policy)
        randrange = rng.randrange
        legal_options = self.legal_options
        while not self.over:
            seat = self.turn
            options = legal_options(seat)
            self._step(seat, options[randrange(len(options))])
        return self.scores()

    def _step(self, seat: int, option: Option) -> None:
        """Apply a legal option of the seat to move (a PLAY through :meth:`apply`, which
        plays it; its checks cost little there)."""
        kind = option[0]
        if kind == _END_TURN_KIND:
            self._end_turn(seat)
            return
        if kind == _PLAY_KIND:
            self.apply(seat, option)
            return
        self._special(seat, _SPECIAL_OF[option[1]], option[2])
        self.steps += 1
        if not any(self.hands):
            self._log.append((_K_END_TURN, seat, 0, -1, 0, 1))
            self._end_game()
        elif self.steps >= MAX_STEPS or not self._can_play(seat):
            self._end_turn(seat)

    def is_terminal(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        return [
            score(
                self.piles[s],
                self.pile_specials[s],
                self.specials[s] if self.over else (),
            )
            for s in range(self.players)
        ]

    def card_locations(self) -> dict[str, list[int]]:
        return card_locations_of(self)

    def position(self) -> Position:
        """The table at the start of a turn, before its first step."""
        if self.over or self.steps:
            raise RulesError("a position is taken at the start of a turn, before any step")
        specials = self.special_locations()
        del specials["box"]
        return Position(
            variant=self.variant,
            places=self.card_locations(),
            turn=self.turn,
            specials=specials,
        )

    def special_locations(self) -> dict[str, list[int]]:
        """Where every special card is (Special values); the box holds the ones not dealt."""
        return special_locations_of(self)

    def view(self, seat: int) -> HornochsenView:
        return view_of(self, seat)

    # ----- the rules ------------------------------------------------------------------

    def _is_legal(self, seat: int, option: Option) -> bool:
        """A quick legality check of one option (the same rules as legal_options)."""
        kind, card, row, side, target = option
        if kind == _END_TURN_KIND:
            return option == END_TURN and self.steps > 0
        if self.steps >= MAX_STEPS:
            return False
        plain = side == _RIGHT and target == -1  # fields the kinds leave
        if kind == _PLAY_KIND:
            return plain and row == -1 and bool(self.rows) and card in self.hands[seat]
        return (
            plain
            and kind == _SPECIAL_KIND
            and card in self.specials[seat]
            and 0 <= row < len(self.rows)
            and card not in self.row_specials[row]
        )

    def _special(self, seat: int, kind: Special, row: int) -> None:
        self.specials[seat].remove(kind)
        self.row_specials[row].append(kind)
        self.row_specials[row].sort()
        self._free_of = None
        self._log.append((_K_SPECIAL, seat, kind, row, 0, 1))

    def _can_play(self, seat: int) -> bool:
        if self.hands[seat] and self.rows:
            return True
        row_specials = self.row_specials
        for kind in self.specials[seat]:
            for held in row_specials:
                if kind not in held:
                    return True
        return False

    def _end_turn(self, seat: int) -> None:
        """`seat`'s turn is over: the next seat clockwise that can play moves."""
        self._log.append((_K_END_TURN, seat, 0, -1, 0, 1))
        self._next_turn(seat)

    def _next_turn(self, seat: int) -> None:
        """The next seat clockwise that can play; nobody can: the game is over."""
        self.steps = 0
        hands, rows = self.hands, self.rows
        for candidate in _ORDERS[self.players][seat]:
            if (hands[candidate] and rows) or self._can_play(candidate):
                self.turn = candidate
                return
        self._end_game()

    def _end_game(self) -> None:
        """The game (its one round) is over: ROUND_END holds the final scores."""
        self.over = True
        self._log.append((_K_ROUND_END, -1, 0, -1, 0, 1, tuple(self.scores())))


def new_game(variant: str, options: Mapping[str, str], players: int, seed: int) -> HornochsenState:
    """A new game dealt from `seed`; seat 0 starts (players checked by the caller)."""
    if options:
        raise RulesError(f"Hornochsen! has no options, got: {', '.join(options)}")
    state = HornochsenState(players, variant)
    state._deal(seed)
    return state
