"""The 6 nimmt! family's rules: the state with every rule that moves it forward
(:class:`SixNimmtState`).

The hot loops (a pick, a reveal, placing a card) touch only ints, lists and tuples: the
phase is compared by identity, the history is recorded as compact tuples and turned into
events only when a view or the history is read (:mod:`sdk.game.engine.eventlog`). The table
and the deal are in :mod:`sdk.game.sixnimmt.setup`, views in :mod:`sdk.game.sixnimmt.view`,
explicit positions and determinization in :mod:`sdk.game.sixnimmt.position`; the family
(presets, constructors) in :mod:`sdk.game.sixnimmt`, which re-exports every name.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from operator import add, itemgetter
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
from sdk.game.engine.eventlog import EventLog, Record
from sdk.game.sixnimmt.position import position_of, state_from_position
from sdk.game.sixnimmt.view import card_locations_of, illegal_option, pending_text, view_of
from sdk.game.views import SixNimmtView

if TYPE_CHECKING:
    from sdk.game.family import Position

from sdk.game.sixnimmt.setup import (
    CARD_OPTIONS,
    FULL_DECK,
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
_ROUND_START, _PLACE, _TAKE, _DRAFTED, _ROUND_END = (
    int(EventKind.ROUND_START),
    int(EventKind.PLACE),
    int(EventKind.TAKE),
    int(EventKind.DRAFT),
    int(EventKind.ROUND_END),
)
_HEAD = dict(enumerate(HEADS)).__getitem__  # a dict's look-up: quicker to map than a tuple's


class SixNimmtState(EventLog, GameState[SixNimmtView]):
    """The full state of a 6 nimmt! family game (see :class:`GameState`)."""

    __slots__ = (  # attribute access is quicker than through the instance dict
        "_all_seats",
        "_events",
        "_log",
        "choices",
        "chooser",
        "drafter",
        "hand_options",
        "hands",
        "penalties",
        "phase",
        "picks",
        "piles",
        "pool",
        "queue",
        "rank",
        "round",
        "rows",
        "rules",
        "seed",
        "to_pick",
        "totals",
        "unused",
    )
    COPY_LISTS = (
        "totals",
        "penalties",
        "unused",
        "pool",
        "picks",
        "to_pick",
        "queue",
        *EventLog.LOG_LISTS,
    )
    COPY_NESTED = ("hands", "hand_options", "rows", "piles")

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
        self.to_pick: set[int] = set(range(n))  # seats still to pick this turn; else empty
        # (card, seat, round) revealed, still to resolve (each its REVEAL record too)
        self.queue: list[tuple[int, int, int]] = []
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
        self.rank: tuple[int, ...] = ()  # standard placement: rows by last card, highest first

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
        :func:`sdk.game.sixnimmt.position.state_from_position` for the arguments."""
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
        to_pick = self.to_pick
        if to_pick:
            if len(to_pick) == self.players:
                return self._all_seats
            return tuple(sorted(to_pick))
        phase = self.phase
        if phase is _CHOOSE:
            return (self.chooser,)
        if phase is _DRAFT:
            return (self.drafter,)
        return ()

    def decision_kind(self, seat: int) -> DecisionKind:
        if seat in self.to_pick:
            return DecisionKind.PICK_CARD
        phase = self.phase
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
        if seat in self.to_pick:
            return self.hand_options[seat].copy()
        if self.phase is _CHOOSE and seat == self.chooser:
            return list(self.choices)
        if self.decision_kind(seat) == DecisionKind.DRAFT_CARD:
            return [CARD_OPTIONS[c] for c in self.pool]
        return list(self.choices)

    def apply(self, seat: int, option: Option) -> None:
        to_pick = self.to_pick
        if seat in to_pick:
            kind, card = option[0], option[1]  # by index: quicker than by field name
            if (kind is not _CARD and kind != _CARD) or card not in self.hands[seat]:
                raise illegal_option(self, seat, option)
            self.picks[seat] = card
            to_pick.remove(seat)
            if not to_pick:
                self._reveal()
            return
        phase = self.phase
        if phase is _PICK:
            self.decision_kind(seat)  # raises with the pending seats
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
            to_pick = self.to_pick
            to_pick.remove(seat)
            if not to_pick:
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
        return position_of(self)

    def scores(self) -> list[int]:
        return list(map(add, self.totals, self.penalties))

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
                self.to_pick.clear()
                self._reveal()
            elif phase is _CHOOSE:
                self._choose(self.chooser, self.choices[randrange(len(self.choices))])
            elif phase is _DRAFT:
                self._draft(self.drafter, self.pool[randrange(len(self.pool))])
            else:
                return self.scores()

    # ------------------------------------------------------------------ rules

    def set_hands(self, hands: list[list[int]]) -> None:
        """Give every seat its (sorted) hand. ``hand_options[seat]`` holds the option of
        each card of ``hands[seat]``, in the same order, so that ``legal_options`` of a
        pick is a copy of that list; every change to a hand changes both. Code outside
        the engine that changes ``hands`` (a hand-made determinization) must call this
        afterwards, or a pick's options are the old hand's."""
        self.hands = hands
        self.hand_options = [[CARD_OPTIONS[c] for c in hand] for hand in hands]

    def _reveal(self) -> None:
        """Every seat has picked: reveal the cards and resolve them, lowest first."""
        # (card, seat, round) of each pick, lowest card first: the queue of cards to
        # place, and each one also the card's REVEAL record (see eventlog), so a turn is
        # recorded with one extend. The three hold one item per seat (zip's strict keyword
        # alone costs about a quarter of this line: the call's slow path for keywords).
        n = self.players
        order = _REVEAL_ORDER[n](self.picks, self.round)
        self._log.extend(order)
        hands = self.hands
        hand_options = self.hand_options
        for card, seat, _ in order:
            hand = hands[seat]
            index = hand.index(card)
            del hand[index]
            del hand_options[seat][index]
        self.picks = [0] * n
        if self.rules.professional:
            self.queue = order
            self._resolve()
            return
        self._resolve_ends(order)

    def _resolve_ends(self, order: list[tuple[int, int, int]]) -> None:
        """Place the (card, seat, round) of `order` in turn, each at the right end of the
        row whose last card is the highest below it, until one needs a choice (it and the
        rest stay queued) or the turn is done.

        The hot loop of every simulation, kept flat: a card is compared with the rows'
        last cards from the highest down (``rank``: e0 > e1 > e2 > e3, rows i0..i3).
        Placing a card keeps that order (the card becomes its row's last card, between
        the same two neighbours), so only a chosen take changes it (:meth:`_choose`).
        A PLACE record is ``((card, seat, round), row)`` (see eventlog)."""
        append = self._log.append
        rows = self.rows
        i0, i1, i2, i3 = self.rank
        e0 = rows[i0][-1]
        e1 = rows[i1][-1]
        e2 = rows[i2][-1]
        e3 = rows[i3][-1]
        for item in order:
            card = item[0]
            if card > e0:
                best = i0
                e0 = card
            elif card > e1:
                best = i1
                e1 = card
            elif card > e2:
                best = i2
                e2 = card
            elif card > e3:
                best = i3
                e3 = card
            else:  # below every row: its player chooses a row to take
                self.queue = order[order.index(item) :]
                self.phase = _CHOOSE
                self.chooser = item[1]
                self.choices = ROW_OPTIONS
                return
            row = rows[best]
            if len(row) < ROW_CAPACITY:
                row.append(card)
            else:  # the 6th card takes the row
                _, seat, rnd = item
                self.piles[seat].extend(row)
                self.penalties[seat] += sum(map(_HEAD, row))
                append((_TAKE, seat, 0, best, 0, rnd, tuple(row)))
                rows[best] = [card]
            append((item, best))
        self.queue = []
        self.phase = _PICK
        if self.hands[0]:
            self.to_pick = set(self._all_seats)
        else:
            self._end_round()

    def _resolve(self) -> None:
        """Place the queued cards until one needs a choice, or the turn is done."""
        if not self.rules.professional:
            self._resolve_ends(self.queue)
            return
        queue = self.queue
        while queue:
            card, seat, _ = queue[0]
            places = nearest_places(self.rows, card)
            if len(places) != 1:  # none, or two tied places: the seat chooses
                self.phase, self.chooser, self.choices = _CHOOSE, seat, places or ROW_OPTIONS
                return
            place = places[0]
            self._put(seat, card, place.row, place.side)
            del queue[0]
        self.phase = _PICK
        if self.hands[0]:
            self.to_pick = set(self._all_seats)
        else:
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
            rank = self.rank
            if rank:  # the row's last card is now the lowest
                self.rank = _TO_BOTTOM[rank][r]
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
        if len(self.pool) == ROWS:  # the hands are full: their options, the rows
            self.set_hands(self.hands)
            self._lay_rows(self.pool)
            self.pool = []
            self.drafter = -1
            self.phase = _PICK
            self.to_pick = set(self._all_seats)

    def _lay_rows(self, starters: Sequence[int]) -> None:
        self.rows = [[c] for c in starters]
        if not self.rules.professional:  # as rank_rows does, from the starters themselves
            self.rank = tuple(sorted(range(ROWS), key=starters.__getitem__, reverse=True))
        self._log.append((_ROUND_START, -1, 0, -1, 0, self.round, tuple(starters)))

    def rank_rows(self) -> None:
        """Set ``rank`` from the rows (each must hold a card): the row numbers by last
        card, highest first. Standard placement keeps it (see :meth:`_resolve_ends`);
        whatever else sets the rows calls this."""
        lasts = [row[-1] for row in self.rows]
        self.rank = tuple(sorted(range(ROWS), key=lasts.__getitem__, reverse=True))

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
        self.queue = []
        dealt = n * HAND_SIZE
        # the first hand (the draft's pool) is sorted: its order within the deck is not used
        deck = deal_order(
            self.seed, self.round, rules.highest, dealt + ROWS if rules.draft else HAND_SIZE
        )
        if rules.draft:
            # 10n+4 cards face up (all of them with the Tactics deck), drafted in turn.
            self.set_hands([[] for _ in range(n)])
            self.rows = [[] for _ in range(ROWS)]
            self.pool = sorted(deck[: dealt + ROWS])
            self.unused = sorted(deck[dealt + ROWS :])
            self.drafter = (self.round - 1) % n
            self.phase = _DRAFT
            self.to_pick = set()
            return
        # set_hands' lists; a hand of 10 cards takes its options in one C call
        self.hands = hands = [sorted(deck[i : i + HAND_SIZE]) for i in range(0, dealt, HAND_SIZE)]
        self.hand_options = [list(itemgetter(*hand)(CARD_OPTIONS)) for hand in hands]
        # the cards not dealt, in order: every card but the dealt ones (cards are < 256)
        self.unused = [*_CARD_BYTES[rules.highest].translate(None, bytes(deck[: dealt + ROWS]))]
        self._lay_rows(deck[dealt : dealt + ROWS])
        self.phase = _PICK
        self.to_pick = set(self._all_seats)


def new_game(variant: str, options: Mapping[str, str], players: int, seed: int) -> SixNimmtState:
    """A new game (`variant` a preset name, `options` resolved, `players` checked).

    The state is made without ``SixNimmtState.__init__``, whose per-round lists the deal
    would replace at once: the same state, made with less work."""
    state = _new_state(SixNimmtState)
    state._begin_match(Rules.build(variant, options, players), seed)
    state._start_round()
    return state


_new_state = object.__new__
_TO_BOTTOM: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {
    rank: tuple((*(other for other in rank if other != r), r) for r in range(ROWS))
    for rank in itertools.permutations(range(ROWS))
}
"""_TO_BOTTOM[rank][r]: the rank once row r's last card is the lowest (a chosen take)."""
_CARD_BYTES: tuple[bytes, ...] = tuple(bytes(range(1, top + 1)) for top in range(FULL_DECK + 1))
"""_CARD_BYTES[highest]: the cards 1..highest as bytes (a deal finds the cards it left out
by deleting the dealt ones: a C loop instead of a sort)."""
_SEATS: tuple[tuple[int, ...], ...] = tuple(tuple(range(n)) for n in range(11))
"""_SEATS[n]: every seat of an n-player game (shared: tuples are immutable)."""


def _reveal_order(n: int) -> Callable[[list[int], int], list[tuple[int, int, int]]]:
    """``sorted((picks[s], s, rnd) for s in range(n))``, written out for `n` seats: a
    list display of the n tuples costs about two thirds of the ``zip`` it replaces, on
    every turn of every simulation. The source is built from `n` alone."""
    items = ", ".join(f"(p[{s}], {s}, r)" for s in range(n))
    order: Callable[[list[int], int], list[tuple[int, int, int]]] = eval(
        f"lambda p, r: sorted([{items}])"
    )
    return order


_REVEAL_ORDER = tuple(_reveal_order(n) for n in range(11))
