"""The 6 nimmt! family's rules: the state with every rule that moves it forward
(:class:`SixNimmtState`).

The hot loops (a pick, a reveal, placing a card) touch only ints, lists and tuples: the
phase is compared by identity, the history is recorded as compact tuples and turned into
events only when a view or the history is read (:mod:`sdk.game.eventlog`). The table
and the deal are in :mod:`sdk.game.sixnimmt_setup`, views in :mod:`sdk.game.sixnimmt_view`,
explicit positions and determinization in :mod:`sdk.game.sixnimmt_position`; the family
(presets, constructors) in :mod:`sdk.game.sixnimmt`, which re-exports every name.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from sdk.game.cards import HEADS
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
)
from sdk.game.eventlog import EventLog, Record
from sdk.game.sixnimmt_view import card_locations_of, illegal_option, pending_text, view_of
from sdk.game.views import SixNimmtView

if TYPE_CHECKING:
    from sdk.game.family import Position

from sdk.game.sixnimmt_setup import (
    CARD_OPTIONS,
    HAND_SIZE,
    ROW_CAPACITY,
    ROW_OPTIONS,
    ROWS,
    Phase,
    Rules,
    deal_order,
    nearest_places,
)

# Module-level names for the hot loops (a global look-up and an identity test).
_DRAFT, _PICK, _CHOOSE, _OVER = Phase.DRAFT, Phase.PICK, Phase.CHOOSE, Phase.OVER
_CARD, _ROW = OptionKind.CARD, OptionKind.ROW
_ROUND_START, _REVEAL, _PLACE, _TAKE, _DRAFTED, _ROUND_END = (
    int(EventKind.ROUND_START),
    int(EventKind.REVEAL),
    int(EventKind.PLACE),
    int(EventKind.TAKE),
    int(EventKind.DRAFT),
    int(EventKind.ROUND_END),
)
_HEAD = HEADS.__getitem__
_CARD_OPTION = CARD_OPTIONS.__getitem__


class SixNimmtState(EventLog, GameState[SixNimmtView]):
    """The full state of a 6 nimmt! family game (see :class:`GameState`)."""

    __slots__ = (  # attribute access is quicker than through the instance dict
        "_all_seats",
        "_events",
        "_log",
        "choices",
        "chooser",
        "drafter",
        "hands",
        "penalties",
        "phase",
        "picks",
        "piles",
        "pool",
        "queue",
        "round",
        "rows",
        "rules",
        "seed",
        "totals",
        "unpicked",
        "unused",
    )
    COPY_LISTS = ("totals", "penalties", "unused", "pool", "picks", "queue", *EventLog.LOG_LISTS)
    COPY_NESTED = ("hands", "rows", "piles")

    def __init__(self, rules: Rules, seed: int) -> None:
        """An empty state; use :func:`new_game` or :meth:`from_position` to make one."""
        self._begin_match(rules, seed)
        n = rules.players
        self.penalties = [0] * n  # heads taken this round
        self.hands: list[list[int]] = [[] for _ in range(n)]  # sorted; a face-down pick stays
        self.rows: list[list[int]] = [[] for _ in range(ROWS)]
        self.piles: list[list[int]] = [[] for _ in range(n)]  # cards taken this round
        self.unused: list[int] = []  # not in play this round (sorted)
        self.picks = [0] * n  # face-down pick per seat this turn; 0: none yet
        self.unpicked = n  # seats still to pick this turn
        self.queue: list[tuple[int, int]] = []  # (card, seat) revealed, still to resolve
        self.phase = _PICK

    def _begin_match(self, rules: Rules, seed: int) -> None:
        """The fields a round's deal (:meth:`_start_round`) leaves as they are."""
        n = rules.players
        self.rules = rules
        self.variant = rules.variant
        self.players = n
        self.seed = seed
        self.round = 1
        self.totals = [0] * n  # heads of the rounds before this one
        self.pool: list[int] = []  # Logic: face-up cards still to draft (sorted)
        self.drafter = -1
        self.chooser = -1  # in CHOOSE: the seat deciding; its card is queue[0]
        self.choices: tuple[Option, ...] = ()  # in CHOOSE: the legal options
        self._log: list[Record] = []
        self._events: list[Event] = []
        self._all_seats = _SEATS[n]

    @classmethod
    def from_position(
        cls,
        variant: str,
        hands: Sequence[Sequence[int]],
        rows: Sequence[Sequence[int]],
        *,
        options: Mapping[str, str] | None = None,
        totals: Sequence[int] | None = None,
        piles: Sequence[Sequence[int]] | None = None,
        unused: Sequence[int] | None = None,
        revealed: Sequence[tuple[int, int]] = (),
        draft_pool: Sequence[int] = (),
        drafter: int = -1,
        round_number: int = 1,
        seed: int = 0,
        history: Sequence[Event] | None = None,
    ) -> SixNimmtState:
        """A state from an explicit position (rulebook examples, determinization); see
        :func:`sdk.game.sixnimmt_position.state_from_position` for the arguments."""
        from sdk.game.sixnimmt_position import state_from_position

        return state_from_position(
            cls,
            variant,
            hands,
            rows,
            options=options,
            totals=totals,
            piles=piles,
            unused=unused,
            revealed=revealed,
            draft_pool=draft_pool,
            drafter=drafter,
            round_number=round_number,
            seed=seed,
            history=history,
        )

    # ------------------------------------------------------------------ GameState

    def pending(self) -> tuple[int, ...]:
        phase = self.phase
        if phase is _PICK:
            if self.unpicked == self.players:
                return self._all_seats
            return tuple(s for s, p in enumerate(self.picks) if not p)
        if phase is _CHOOSE:
            return (self.chooser,)
        if phase is _DRAFT:
            return (self.drafter,)
        return ()

    def decision_kind(self, seat: int) -> DecisionKind:
        phase = self.phase
        if phase is _PICK and 0 <= seat < self.players and not self.picks[seat]:
            return DecisionKind.PICK_CARD
        if phase is _CHOOSE and seat == self.chooser:
            return (
                DecisionKind.TAKE_ROW
                if self.choices[0].kind == OptionKind.ROW
                else DecisionKind.CHOOSE_PLACE
            )
        if phase is _DRAFT and seat == self.drafter:
            return DecisionKind.DRAFT_CARD
        raise RulesError(f"seat {seat} has no decision pending (pending: {pending_text(self)})")

    def legal_options(self, seat: int) -> list[Option]:
        if self.phase is _PICK and 0 <= seat < self.players and not self.picks[seat]:
            return [CARD_OPTIONS[c] for c in self.hands[seat]]
        if self.phase is _CHOOSE and seat == self.chooser:
            return list(self.choices)
        if self.decision_kind(seat) == DecisionKind.DRAFT_CARD:
            return [CARD_OPTIONS[c] for c in self.pool]
        return list(self.choices)

    def apply(self, seat: int, option: Option) -> None:
        if self.phase is _PICK:
            picks = self.picks
            if not 0 <= seat < self.players or picks[seat]:
                self.decision_kind(seat)  # raises with the pending seats
            card = option.card
            if option.kind != _CARD or card not in self.hands[seat]:
                raise illegal_option(self, seat, option)
            picks[seat] = card
            self.unpicked -= 1
            if not self.unpicked:
                self._reveal()
            return
        phase = self.phase
        if phase is _CHOOSE:
            if seat != self.chooser:
                self.decision_kind(seat)
            if option not in self.choices:
                raise illegal_option(self, seat, option)
            self._choose(seat, option)
        elif phase is _DRAFT:
            if seat != self.drafter:
                self.decision_kind(seat)
            if option.kind != _CARD or option.card not in self.pool:
                raise illegal_option(self, seat, option)
            self._draft(seat, option.card)
        else:
            raise RulesError("the game is over; no decision is pending")

    def apply_trusted(self, seat: int, option: Option) -> None:
        """:meth:`apply` without checking that `seat` is pending and `option` legal: for
        simulations that only apply options ``legal_options`` gave (a wrong one corrupts
        the state). The referee always uses :meth:`apply`."""
        phase = self.phase
        if phase is _PICK:
            self.picks[seat] = option.card
            self.unpicked -= 1
            if not self.unpicked:
                self._reveal()
        elif phase is _CHOOSE:
            self._choose(seat, option)
        else:
            self._draft(seat, option.card)

    def view(self, seat: int) -> SixNimmtView:
        return view_of(self, seat)

    def is_terminal(self) -> bool:
        return self.phase is _OVER

    def position(self) -> Position:
        """The table at the start of a turn (no card picked yet) or of a draft pick."""
        from sdk.game.sixnimmt_position import position_of

        return position_of(self)

    def scores(self) -> list[int]:
        return [t + p for t, p in zip(self.totals, self.penalties, strict=True)]

    def card_locations(self) -> dict[str, list[int]]:
        """Places: "hand i" (a face-down pick included), "row r", "pile i" (taken this
        round), "revealed" (this turn's cards still to resolve), "draft", "unused"."""
        return card_locations_of(self)

    @property
    def higher_is_better(self) -> bool:
        return False

    def playout(self, rng: random.Random, policy: Policy | None = None) -> list[int]:
        """As :meth:`GameState.playout`; with the random policy, a faster loop that makes
        exactly the same choices from the same `rng` (it skips building option lists)."""
        if policy is not None:
            return super().playout(rng, policy)
        randrange = rng.randrange
        while True:
            phase = self.phase
            if phase is _PICK:
                picks = self.picks
                for seat in self.pending():
                    hand = self.hands[seat]
                    picks[seat] = hand[randrange(len(hand))]
                self.unpicked = 0
                self._reveal()
            elif phase is _CHOOSE:
                self._choose(self.chooser, self.choices[randrange(len(self.choices))])
            elif phase is _DRAFT:
                self._draft(self.drafter, self.pool[randrange(len(self.pool))])
            else:
                return self.scores()

    # ------------------------------------------------------------------ rules

    def _reveal(self) -> None:
        """Every seat has picked: reveal the cards and resolve them, lowest first."""
        # Both lists hold one item per seat; zip's strict keyword alone costs about a
        # quarter of this line (the call takes its slow path for keywords).
        order = sorted(zip(self.picks, self._all_seats))  # noqa: B905
        hands = self.hands
        append = self._log.append
        rnd = self.round
        for card, seat in order:
            hands[seat].remove(card)
            append((_REVEAL, seat, card, -1, 0, rnd))
        self.picks = [0] * self.players
        self.unpicked = self.players
        if self.rules.professional:
            self.queue = order
            self._resolve()
            return
        self._resolve_ends(order)

    def _resolve_ends(self, order: list[tuple[int, int]]) -> None:
        """Place the (card, seat) of `order` in turn, each at the right end of the row whose
        last card is the highest below it, until one needs a choice (it and the rest stay
        queued) or the turn is done. The hot loop of every simulation: kept flat."""
        append = self._log.append
        rnd = self.round
        rows = self.rows
        row0, row1, row2, row3 = rows
        for index, (card, seat) in enumerate(order):
            best = -1
            best_last = 0
            last = row0[-1]
            if last < card:
                best, best_last = 0, last
            last = row1[-1]
            if best_last < last < card:
                best, best_last = 1, last
            last = row2[-1]
            if best_last < last < card:
                best, best_last = 2, last
            last = row3[-1]
            if best_last < last < card:
                best = 3
            if best < 0:  # below every row: its player chooses a row to take
                self.queue = order[index:]
                self.phase = _CHOOSE
                self.chooser = seat
                self.choices = ROW_OPTIONS
                return
            row = rows[best]
            if len(row) < ROW_CAPACITY:
                row.append(card)
            else:  # the 6th card takes the row
                self.piles[seat].extend(row)
                self.penalties[seat] += sum(map(_HEAD, row))
                append((_TAKE, seat, 0, best, 0, rnd, tuple(row)))
                row = rows[best] = [card]
                if best == 0:
                    row0 = row
                elif best == 1:
                    row1 = row
                elif best == 2:
                    row2 = row
                else:
                    row3 = row
            append((_PLACE, seat, card, best, 0, rnd))
        self.queue = []
        self.phase = _PICK
        if not self.hands[0]:
            self._end_round()

    def _resolve(self) -> None:
        """Place the queued cards until one needs a choice, or the turn is done."""
        if not self.rules.professional:
            self._resolve_ends(self.queue)
            return
        queue = self.queue
        while queue:
            card, seat = queue[0]
            places = nearest_places(self.rows, card)
            if len(places) != 1:  # none, or two tied places: the seat chooses
                self.phase, self.chooser, self.choices = _CHOOSE, seat, places or ROW_OPTIONS
                return
            place = places[0]
            self._put(seat, card, place.row, place.side)
            del queue[0]
        self.phase = _PICK
        if not self.hands[0]:
            self._end_round()

    def _choose(self, seat: int, option: Option) -> None:
        """The chooser took a row (or chose a tied place) for the queue's first card."""
        queue = self.queue
        card = queue[0][0]
        r = option.row
        if option.kind == _ROW:  # take the row; the card starts it anew
            rows = self.rows
            taken = rows[r]
            self.piles[seat].extend(taken)
            self.penalties[seat] += sum(map(_HEAD, taken))
            rnd = self.round
            append = self._log.append
            append((_TAKE, seat, 0, r, 0, rnd, tuple(taken)))
            rows[r] = [card]
            append((_PLACE, seat, card, r, 0, rnd))
        else:
            self._put(seat, card, r, option.side)
        del queue[0]
        if self.rules.professional:
            self._resolve()
        else:
            self._resolve_ends(queue)

    def _put(self, seat: int, card: int, r: int, side: Side) -> None:
        """Place `card` at a row end; as the row's 6th card it takes the row first."""
        fresh = len(self.rows[r]) >= ROW_CAPACITY
        if fresh:
            self._take(seat, r)
        row = self.rows[r]
        if side == Side.LEFT and not fresh:
            row.insert(0, card)
        else:
            row.append(card)
        self._log.append((_PLACE, seat, card, r, int(side), self.round))

    def _take(self, seat: int, r: int) -> None:
        taken = self.rows[r]
        self.rows[r] = []
        self.piles[seat].extend(taken)
        self.penalties[seat] += sum(map(_HEAD, taken))
        self._log.append((_TAKE, seat, 0, r, 0, self.round, tuple(taken)))

    def _draft(self, seat: int, card: int) -> None:
        self.pool.remove(card)
        bisect.insort(self.hands[seat], card)
        self._log.append((_DRAFTED, seat, card, -1, 0, self.round))
        self.drafter = (seat + 1) % self.players
        if len(self.pool) == ROWS:
            self._lay_rows(self.pool)
            self.pool = []
            self.drafter = -1
            self.phase = _PICK

    def _lay_rows(self, starters: Sequence[int]) -> None:
        self.rows = [[c] for c in starters]
        self._log.append((_ROUND_START, -1, 0, -1, 0, self.round, tuple(starters)))

    def _end_round(self) -> None:
        rules = self.rules
        self._log.append((_ROUND_END, -1, 0, -1, 0, self.round, tuple(self.penalties)))
        scores = self.scores()
        over = self.round >= rules.rounds if rules.rounds else max(scores) >= rules.end_at
        if over:
            self.phase = _OVER
            return
        self.record_round_end()
        self.totals = scores
        self.round += 1
        self._start_round()

    def _start_round(self) -> None:
        """Deal (or open the draft of) the round `self.round`."""
        n = self.players
        rules = self.rules
        self.penalties = [0] * n
        self.piles = [[] for _ in range(n)]
        self.picks = [0] * n
        self.unpicked = n
        self.queue = []
        deck = deal_order(self.seed, self.round, rules.highest)
        dealt = n * HAND_SIZE
        if rules.draft:
            # 10n+4 cards face up (all of them with the Tactics deck), drafted in turn.
            self.hands = [[] for _ in range(n)]
            self.rows = [[] for _ in range(ROWS)]
            self.pool = sorted(deck[: dealt + ROWS])
            self.unused = sorted(deck[dealt + ROWS :])
            self.drafter = (self.round - 1) % n
            self.phase = _DRAFT
            return
        self.hands = [sorted(deck[i : i + HAND_SIZE]) for i in range(0, dealt, HAND_SIZE)]
        self.unused = sorted(deck[dealt + ROWS :])
        self._lay_rows(deck[dealt : dealt + ROWS])
        self.phase = _PICK


def new_game(variant: str, options: Mapping[str, str], players: int, seed: int) -> SixNimmtState:
    """A new game (`variant` a preset name, `options` resolved, `players` checked).

    The state is made without ``SixNimmtState.__init__``, whose per-round lists the deal
    would replace at once: the same state, made with less work."""
    state = _new_state(SixNimmtState)
    state._begin_match(Rules.build(variant, options, players), seed)
    state._start_round()
    return state


_new_state = object.__new__
_SEATS: tuple[tuple[int, ...], ...] = tuple(tuple(range(n)) for n in range(11))
"""_SEATS[n]: every seat of an n-player game (shared: tuples are immutable)."""
