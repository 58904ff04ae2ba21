"""X nimmt!: the rules (the state and every rule that moves it forward).

X nimmt! (docs/rules.md, "X nimmt!"): three rows of capacity 3, 4 and 5, X rows and X piles.

A turn: every seat picks a hand card face down (simultaneous), the cards are revealed and
resolved in ascending order. A card goes to the row whose last card is the highest one
below it; the card that would be a row's capacity-th card takes the cards already there;
a card below every row takes a row of its player's choice. Of the taken cards exactly one
goes to the taker's X row (their choice), the others to their hand. A card lower than
the X row's last card first moves the X row face down onto the X pile. The round ends
after the turn at whose end some hand is empty; score = hand heads + 2 x X pile heads.
Two rounds; fewest points wins.

Explicit positions and determinization are in :mod:`sdk.game.xnimmt.constructors`; the
family (presets, constructors) in :mod:`sdk.game.xnimmt`, which re-exports every name.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from sdk.game.core import (
    DecisionKind,
    Event,
    EventKind,
    GameState,
    Option,
    OptionKind,
    Policy,
    RulesError,
)
from sdk.game.engine.dealing import seeded_shuffle
from sdk.game.engine.eventlog import EventLog, Record
from sdk.game.engine.support import (
    position_history,
    require_distinct,
    require_legal,
    require_pending,
)
from sdk.game.family import Position
from sdk.game.views import XNimmtView
from sdk.game.xnimmt.setup import (
    CAPACITIES,
    CARD_OPTIONS,
    DECK,
    HAND_SIZE,
    NAME,
    ROUNDS,
    ROW_OPTIONS,
    Phase,
    round_score,
)
from sdk.game.xnimmt.view import card_locations_of, view_of

# Event kinds as ints, for the compact history records (sdk.game.engine.eventlog).
_K_PLACE = int(EventKind.PLACE)
_K_REVEAL = int(EventKind.REVEAL)
_K_X_ROW = int(EventKind.X_ROW)
_K_X_PILE = int(EventKind.X_PILE)
_K_TAKE = int(EventKind.TAKE)
_K_ROUND_START = int(EventKind.ROUND_START)
_K_ROUND_END = int(EventKind.ROUND_END)
_SEATS = tuple(tuple(range(players)) for players in range(5))  # every seat of a table
_CHOOSERS = tuple((seat,) for seat in range(4))  # one seat
_PICK, _TAKE_ROW, _X_ROW_CARD = Phase.PICK, Phase.TAKE_ROW, Phase.X_ROW_CARD
# Enum members as module constants: a class attribute lookup on an enum costs several times
# a global's, and these are read at every decision.
_RESOLVE, _OVER = Phase.RESOLVE, Phase.OVER
_CARD_KIND, _ROW_KIND = OptionKind.CARD, OptionKind.ROW


class XNimmtState(EventLog, GameState[XNimmtView]):
    """A game of X nimmt!. Build one with :func:`new_game` or :meth:`from_position`."""

    COPY_LISTS = ("totals", "unused", "picks", "queue", "taken", *EventLog.LOG_LISTS)
    COPY_NESTED = ("hands", "rows", "x_rows", "x_piles")

    def __init__(self, players: int, seed: int, variant: str = NAME) -> None:
        self.variant = variant
        self.players = players
        self.seed = seed
        self.round = 1
        self.totals = [0] * players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.rows: list[list[int]] = [[] for _ in CAPACITIES]
        self.x_rows: list[list[int]] = [[] for _ in range(players)]
        self.x_piles: list[list[int]] = [[] for _ in range(players)]
        self.unused: list[int] = []
        self.picks = [0] * players  # this turn's face-down cards; 0: not chosen yet
        self.queue: list[tuple[int, int]] = []  # revealed (card, seat) still to resolve
        self.phase = _PICK
        self.chooser = -1  # the seat of a TAKE_ROW or X_ROW_CARD decision
        self.pending_card = 0  # the card waiting for TAKE_ROW
        self.taken: list[int] = []  # cards waiting for X_ROW_CARD
        self._log: list[Record] = []
        self._events: list[Event] = []

    # ----- construction -------------------------------------------------------------

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[int]],
        rows: Sequence[Sequence[int]],
        *,
        x_rows: Sequence[Sequence[int]] | None = None,
        x_piles: Sequence[Sequence[int]] | None = None,
        totals: Sequence[int] | None = None,
        round_number: int = 1,
        seed: int = 0,
        variant: str = NAME,
    ) -> XNimmtState:
        """A state at the start of a turn, from an explicit position.

        Cards in no given place are unused. Rows must ascend and be shorter than their
        capacity; each X row must ascend. The history tells what the views do not show of the
        position: ``ROUND_START`` (each row's first card), an ``X_PILE`` of each X pile and
        an ``X_ROW`` of every X-row card.
        """
        players = len(hands)
        if not 2 <= players <= 4:
            raise RulesError(f"X nimmt! is for 2 to 4 players, not {players}")
        if len(rows) != len(CAPACITIES):
            raise RulesError(f"X nimmt! has {len(CAPACITIES)} rows, not {len(rows)}")
        if not 1 <= round_number <= ROUNDS:
            raise RulesError(f"X nimmt! has rounds 1..{ROUNDS}, not {round_number}")
        x_rows = x_rows or [[] for _ in range(players)]
        x_piles = x_piles or [[] for _ in range(players)]
        if len(x_rows) != players or len(x_piles) != players:
            raise RulesError("give one X row and one X pile per player")
        places: dict[str, Sequence[int]] = {}
        for index, row in enumerate(rows):
            if not 1 <= len(row) < CAPACITIES[index]:
                raise RulesError(
                    f"row {index + 1} must hold 1 to {CAPACITIES[index] - 1} cards, not {len(row)}"
                )
            if list(row) != sorted(row):
                raise RulesError(f"row {index + 1} must ascend: {list(row)}")
            places[f"row {index}"] = row
        for seat in range(players):
            if list(x_rows[seat]) != sorted(x_rows[seat]):
                raise RulesError(f"the X row of seat {seat} must ascend: {list(x_rows[seat])}")
            places[f"hand {seat}"] = hands[seat]
            places[f"x row {seat}"] = x_rows[seat]
            places[f"x pile {seat}"] = x_piles[seat]
        require_distinct(places, DECK)
        state = cls(players, seed, variant)
        state.round = round_number
        state.totals = list(totals) if totals is not None else [0] * players
        state.hands = [sorted(h) for h in hands]
        state.rows = [list(r) for r in rows]
        state.x_rows = [list(r) for r in x_rows]
        state.x_piles = [list(p) for p in x_piles]
        placed = {c for cards in places.values() for c in cards}
        state.unused = [c for c in DECK if c not in placed]
        events = position_history(rows, round_number, further=False)
        for seat in range(players):
            if state.x_piles[seat]:
                events.append(
                    Event(
                        EventKind.X_PILE, seat=seat, cards=tuple(x_piles[seat]), round=round_number
                    )
                )
            for card in state.x_rows[seat]:
                events.append(Event(EventKind.X_ROW, seat=seat, card=card, round=round_number))
        state.history = events
        return state

    def _deal(self) -> None:
        cards = list(DECK)
        seeded_shuffle(f"{NAME}:{self.seed}:{self.round}", cards)  # round_rng's order
        self.hands = [
            sorted(cards[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(self.players)
        ]
        start = self.players * HAND_SIZE
        self.rows = [[c] for c in cards[start : start + len(CAPACITIES)]]
        self.unused = sorted(cards[start + len(CAPACITIES) :])
        self.x_rows = [[] for _ in range(self.players)]
        self.x_piles = [[] for _ in range(self.players)]
        self.picks = [0] * self.players
        self.phase = _PICK
        self._log.append(
            (_K_ROUND_START, -1, 0, -1, 0, self.round, tuple([r[0] for r in self.rows]))
        )

    # ----- the GameState interface --------------------------------------------------

    @property
    def higher_is_better(self) -> bool:
        return False

    def pending(self) -> tuple[int, ...]:
        phase = self.phase
        if phase is _PICK:
            picks = self.picks
            if not any(picks):
                return _SEATS[self.players]
            return tuple([s for s in range(self.players) if not picks[s]])
        if phase is _TAKE_ROW or phase is _X_ROW_CARD:
            return _CHOOSERS[self.chooser]
        return ()

    def _is_pending(self, seat: int) -> bool:
        """Whether `seat` must decide now (as ``seat in self.pending()``, only quicker)."""
        phase = self.phase
        if phase is _PICK:
            return 0 <= seat < self.players and not self.picks[seat]
        return seat == self.chooser and (phase is _TAKE_ROW or phase is _X_ROW_CARD)

    def decision_kind(self, seat: int) -> DecisionKind:
        require_pending(self.pending(), seat)
        if self.phase is _PICK:
            return DecisionKind.PICK_CARD
        if self.phase is _TAKE_ROW:
            return DecisionKind.TAKE_ROW
        return DecisionKind.X_ROW_CARD

    def legal_options(self, seat: int) -> list[Option]:
        phase = self.phase
        if phase is _PICK and 0 <= seat < self.players and not self.picks[seat]:
            return [CARD_OPTIONS[card] for card in self.hands[seat]]  # the usual case
        if seat == self.chooser and phase is _X_ROW_CARD:
            return [CARD_OPTIONS[card] for card in sorted(self.taken)]
        if not self._is_pending(seat):
            require_pending(self.pending(), seat)
        if phase is _PICK:
            return [CARD_OPTIONS[card] for card in self.hands[seat]]
        if self.phase is _TAKE_ROW:
            return list(ROW_OPTIONS)
        return [CARD_OPTIONS[card] for card in sorted(self.taken)]

    def apply(self, seat: int, option: Option) -> None:
        phase = self.phase
        if phase is _PICK:
            if not (0 <= seat < self.players and not self.picks[seat]):  # _is_pending's
                require_pending(self.pending(), seat)
            if option.kind != _CARD_KIND or option.card not in self.hands[seat]:
                require_legal(seat, option, self.legal_options(seat))
            self.picks[seat] = option.card
            if all(self.picks):
                self._reveal()
            return
        if seat != self.chooser or not (phase is _TAKE_ROW or phase is _X_ROW_CARD):
            require_pending(self.pending(), seat)  # as _is_pending
        if phase is _TAKE_ROW:
            if option.kind != _ROW_KIND or not 0 <= option.row < len(self.rows):
                require_legal(seat, option, self.legal_options(seat))
            self._take_chosen_row(seat, option.row)
        else:
            if option.kind != _CARD_KIND or option.card not in self.taken:
                require_legal(seat, option, self.legal_options(seat))
            self._x_row_chosen(seat, option.card)

    def is_terminal(self) -> bool:
        return self.phase is _OVER

    def position(self) -> Position:
        """The table at the start of a turn, before any card is picked."""
        if self.phase is not _PICK or any(self.picks):
            raise RulesError("a position is taken at the start of a turn, before any pick")
        return Position(
            variant=self.variant,
            places=self.card_locations(),
            round=self.round,
            totals=tuple(self.totals),
            seed=self.seed,
        )

    def scores(self) -> list[int]:
        return list(self.totals)

    def playout(self, rng: random.Random, policy: Policy | None = None) -> list[int]:
        """As :meth:`GameState.playout`; with the random policy, a faster loop that makes
        exactly the same choices from the same `rng` (it skips building option lists)."""
        if policy is not None:
            return super().playout(rng, policy)
        randrange = rng.randrange
        rows = len(ROW_OPTIONS)
        while True:
            phase = self.phase
            if phase is _PICK:
                picks, hands = self.picks, self.hands
                for seat in range(self.players):  # pending seats, in order
                    if not picks[seat]:
                        hand = hands[seat]
                        picks[seat] = hand[randrange(len(hand))]
                self._reveal()
            elif phase is _TAKE_ROW:
                self._take_chosen_row(self.chooser, randrange(rows))
            elif phase is _X_ROW_CARD:
                taken = sorted(self.taken)
                self._x_row_chosen(self.chooser, taken[randrange(len(taken))])
            else:
                return self.scores()

    def card_locations(self) -> dict[str, list[int]]:
        return card_locations_of(self)

    def view(self, seat: int) -> XNimmtView:
        return view_of(self, seat)

    # ----- the rules ------------------------------------------------------------------

    def _take_chosen_row(self, seat: int, row: int) -> None:
        """The lowest card's player chose `row` to take (TAKE_ROW)."""
        card, self.pending_card = self.pending_card, 0
        self.phase = _RESOLVE
        self._take(seat, row, card)
        if self.phase is _RESOLVE:
            self._resolve()

    def _x_row_chosen(self, seat: int, card: int) -> None:
        """The taker chose `card` of the taken cards for the X row (X_ROW_CARD)."""
        taken, self.taken = self.taken, []
        self.phase = _RESOLVE
        take_card, take_row = self._last_take()
        self._to_x_row(seat, card, [c for c in taken if c != card])
        self._log.append((_K_PLACE, seat, take_card, take_row, 0, self.round))
        self._resolve()

    def _reveal(self) -> None:
        hands, history, rnd = self.hands, self._log, self.round
        picks = self.picks
        for seat, card in enumerate(picks):
            hands[seat].remove(card)
            history.append((_K_REVEAL, seat, card, -1, 0, rnd))
        self.queue = sorted(zip(picks, range(self.players), strict=True))
        self.picks = [0] * self.players
        self.phase = _RESOLVE
        self._resolve()

    def _resolve(self) -> None:
        """Place the revealed cards in ascending order until a decision or the turn's end."""
        queue, rows, log = self.queue, self.rows, self._log
        while queue:
            card, seat = queue.pop(0)
            row, end = -1, 0  # row_for(card, rows), written out
            for index, cards in enumerate(rows):
                if end < cards[-1] < card:
                    row, end = index, cards[-1]
            if row < 0:
                self.phase, self.chooser, self.pending_card = _TAKE_ROW, seat, card
                return
            if len(rows[row]) + 1 == CAPACITIES[row]:
                self._take(seat, row, card)
                if self.phase is _X_ROW_CARD:
                    return
            else:
                rows[row].append(card)
                log.append((_K_PLACE, seat, card, row, 0, self.round))
        if not all(self.hands):
            self._end_round()
        else:
            self.phase = _PICK

    def _take(self, seat: int, row: int, card: int) -> None:
        """`seat`'s card takes `row`; one taken card must then go to the X row.

        The card lies in the row from now on (the rulebook's example shows it there while
        the taken cards are sorted), but its ``PLACE`` event follows the X-row card's
        ``X_ROW`` (rules order: take the row, sort the taken cards, start the row)."""
        taken, self.rows[row] = self.rows[row], [card]
        self._log.append((_K_TAKE, seat, card, row, 0, self.round, tuple(taken)))
        if len(taken) == 1:
            self._to_x_row(seat, taken[0], [])
            self._log.append((_K_PLACE, seat, card, row, 0, self.round))
        else:
            self.phase, self.chooser, self.taken = _X_ROW_CARD, seat, taken

    def _to_x_row(self, seat: int, card: int, to_hand: list[int]) -> None:
        x_row = self.x_rows[seat]
        if x_row and card < x_row[-1]:
            self.x_piles[seat].extend(x_row)
            self._log.append((_K_X_PILE, seat, 0, -1, 0, self.round, tuple(x_row)))
            self.x_rows[seat] = x_row = []
        x_row.append(card)
        if to_hand:
            self._log.append((_K_X_ROW, seat, card, -1, 0, self.round, tuple(to_hand)))
            self.hands[seat] = sorted(self.hands[seat] + to_hand)
        else:
            self._log.append((_K_X_ROW, seat, card, -1, 0, self.round))

    def _end_round(self) -> None:
        points = [round_score(self.hands[s], self.x_piles[s]) for s in range(self.players)]
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self._log.append((_K_ROUND_END, -1, 0, -1, 0, self.round, tuple(points)))
        if self.round >= ROUNDS:
            self.phase = _OVER
            return
        self.record_round_end()
        self.round += 1
        self._deal()


def new_game(variant: str, options: Mapping[str, str], players: int, seed: int) -> XNimmtState:
    """A new game: round 1 dealt from `seed` (players already checked by the caller)."""
    if options:
        raise RulesError(f"X nimmt! has no options, got: {', '.join(options)}")
    state = XNimmtState(players, seed, variant)
    state._deal()
    return state
