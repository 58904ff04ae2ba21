"""11 nimmt!: the rules (the state and every rule that moves it forward).

11 nimmt! (docs/rules.md, "11 nimmt!"): play onto piles within 10 above the top, or take a pile.

Scores are penalty points counted as positive numbers (the rulebook's "negative points"
with the sign dropped), so fewest points wins and ``higher_is_better`` is False.

A turn is a sequence of decisions of the seat to move: PLAY(card, pile) options, ROW(pile)
to take a pile (only before the first card of the turn), END_TURN once a card was played
and more plays are possible. With no bull card the turn ends after one card; it ends by
itself whenever no further play is legal.

The turn's option list is a :class:`~sdk.game.elevennimmt.turnoptions.TurnOptions`, kept
up to date as plays are made; explicit positions and determinization are in
:mod:`sdk.game.elevennimmt.constructors`; the family (presets, constructors) in
:mod:`sdk.game.elevennimmt`, which re-exports every public name.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from operator import itemgetter
from typing import Self, cast

from sdk.game.core import (
    DecisionKind,
    Event,
    EventKind,
    GameState,
    Option,
    OptionKind,
    Policy,
    RoundEnd,
    RulesError,
)
from sdk.game.elevennimmt.setup import NAME
from sdk.game.elevennimmt.table import (
    BITS,
    BULL_CARDS,
    BULL_PILE,
    CARD_SPREAD,
    DECK,
    HAND_SIZE,
    REACH,
    STEAL_OPTIONS,
    TOP_SPREAD,
    WINDOW,
    Phase,
    next_starter,
    piles_of,
    round_points,
    spread_of,
    stack,
    steal_targets,
)
from sdk.game.elevennimmt.turnoptions import TurnOptions
from sdk.game.elevennimmt.view import card_locations_of, view_of
from sdk.game.engine.dealing import seeded_shuffle
from sdk.game.engine.eventlog import EventLog, Record
from sdk.game.engine.support import (
    position_history,
    require_distinct,
    require_legal,
    require_pending,
)
from sdk.game.family import Position
from sdk.game.views import ElevenNimmtView

# Event kinds as ints, for the compact history records (sdk.game.engine.eventlog).
_K_BULL = int(EventKind.BULL)
_K_TAKE = int(EventKind.TAKE)
_K_END_TURN = int(EventKind.END_TURN)
_K_NEW_PILE = int(EventKind.NEW_PILE)
_K_PLACE = int(EventKind.PLACE)
_K_ROUND_START = int(EventKind.ROUND_START)
_K_ROUND_END = int(EventKind.ROUND_END)
_TURNS = tuple((seat,) for seat in range(7))  # pending(): the seat to move
_PLAY, _OVER, _STEAL = Phase.PLAY, Phase.OVER, Phase.STEAL  # enum members as globals: quicker
_PLAY_KIND, _ROW_KIND, _STEAL_KIND = OptionKind.PLAY, OptionKind.ROW, OptionKind.STEAL
_END_TURN_KIND = OptionKind.END_TURN
_new_options = list.__new__
_new_state = object.__new__
_pile_of_play = itemgetter(1)  # a play's pile: plays are (card, pile)
_Table = tuple[
    int, tuple[int, ...], tuple[int, ...], list[list[int]], list[list[int]], list[int], list[int]
]
"""A round's end kept as it was: round, points, totals, hands, piles, deck, unused."""
_NO_HAND: tuple[list[int], int] = ([], 0)  # _held before a hand's spread set is known


class ElevenNimmtState(EventLog, GameState[ElevenNimmtView]):
    """A game of 11 nimmt!. Build one with :func:`new_game` or :meth:`from_position`."""

    # Every attribute in a slot, and clone() copies the slots without reading the instance
    # dict: reading an object's __dict__ makes CPython 3.11 build one for good, and then
    # every method looked up on it goes the slow way (a clone's legal_options cost about
    # 10k instructions against 7k).
    __slots__ = (
        "_ended",
        "_events",
        "_held",
        "_log",
        "_round_ends",
        "_top_mask",
        "_top_spread",
        "_tops",
        "_tops_cache",
        "bulls",
        "deck",
        "hands",
        "phase",
        "piles",
        "players",
        "plays",
        "round",
        "seed",
        "start_tops",
        "starter",
        "steal_targets",
        "supply",
        "totals",
        "turn",
        "unused",
        "variant",
    )
    COPY_LISTS = (
        "totals",
        "_tops",
        "deck",
        "unused",
        "bulls",
        "plays",
        "steal_targets",
        "_held",
        *EventLog.LOG_LISTS,
    )
    COPY_NESTED = ("hands", "piles")

    def __init__(self, players: int, seed: int, variant: str = NAME) -> None:
        self.variant = variant
        self.players = players
        self.seed = seed
        self.round = 1
        self.totals = [0] * players
        self.starter = 0
        self.turn = 0
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.piles: list[list[int]] = []
        self.deck: list[int] = []  # face down; the top card is the last one
        self.unused: list[int] = []  # only explicit positions leave cards out of play
        self.bulls = [0] * players
        self.supply = BULL_CARDS
        self.phase = Phase.PLAY
        # Pile tops when the turn began: a new list every turn, never changed in place (clones
        # and option lists share it).
        self.start_tops: list[int] = []
        self.plays: list[tuple[int, int]] = []  # this turn's (card, pile)
        self.steal_targets: list[int] = []
        self._log: list[Record] = []
        self._events: list[Event] = []
        self._tops: list[int] = []  # every pile's top card now (see _set_piles)
        self._top_mask = 0  # the same as a bit set
        self._top_spread = 0  # and as a spread set (elevennimmt_table)
        self._tops_cache: tuple[list[int] | None, int, int] = (None, 0, 0)  # see _open_tops
        # Each seat's hand list and its spread set (a hand list is replaced, never changed).
        self._held: list[tuple[list[int], int]] = [_NO_HAND] * players
        # The rounds ended before this one: their tables (see _end_round), and as RoundEnds.
        self._ended: tuple[_Table | RoundEnd, ...] = ()
        self._round_ends: tuple[RoundEnd, ...] = ()

    # ----- construction -------------------------------------------------------------

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[int]],
        piles: Sequence[Sequence[int]],
        deck: Sequence[int],
        *,
        turn: int = 0,
        bulls: Sequence[int] | None = None,
        totals: Sequence[int] | None = None,
        round_number: int = 1,
        starter: int = 0,
        seed: int = 0,
        variant: str = NAME,
    ) -> ElevenNimmtState:
        """A state at the start of `turn`'s turn. Piles are listed bottom card first, the
        deck top card first (as ``card_locations()`` lists them); cards in no given place
        are out of play ("unused"). The history tells the position as if it had been played:
        ``ROUND_START`` (each pile's bottom card), then a ``PLACE`` by seat -1 and an
        ``END_TURN`` for every further pile card."""
        players = len(hands)
        if not 2 <= players <= 7:
            raise RulesError(f"11 nimmt! is for 2 to 7 players, not {players}")
        if not piles or any(not pile for pile in piles):
            raise RulesError("11 nimmt! needs at least one pile, and no pile is empty")
        bulls = list(bulls) if bulls is not None else [0] * players
        if len(bulls) != players or min(bulls) < 0 or sum(bulls) > BULL_CARDS:
            raise RulesError(f"bull cards: one count per player, {BULL_CARDS} in all at most")
        if not 0 <= turn < players or not 0 <= starter < players:
            raise RulesError(f"seats are 0..{players - 1}")
        if not 1 <= round_number <= players:
            raise RulesError(f"11 nimmt! with {players} players has rounds 1..{players}")
        places: dict[str, Sequence[int]] = {f"hand {s}": h for s, h in enumerate(hands)}
        places.update({f"pile {p}": pile for p, pile in enumerate(piles)})
        places["deck"] = deck
        require_distinct(places, DECK)
        state = cls(players, seed, variant)
        state.round, state.starter = round_number, starter
        state.totals = list(totals) if totals is not None else [0] * players
        state.hands = [sorted(h) for h in hands]
        state._set_piles([list(p) for p in piles])
        state.deck = list(reversed(deck))
        state.bulls = bulls
        state.supply = BULL_CARDS - sum(bulls)
        placed = {c for cards in places.values() for c in cards}
        state.unused = [c for c in DECK if c not in placed]
        # The history shows the cards beneath the tops as if played before this turn.
        events = position_history(piles, round_number, turn_ends=True)
        events[0] = replace(events[0], seat=starter)
        state.history = events
        state._begin_turn(turn)
        return state

    def _deal(self) -> None:
        cards = list(DECK)
        seeded_shuffle(f"{NAME}:{self.seed}:{self.round}", cards)  # round_rng's order
        self.hands = [
            sorted(cards[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(self.players)
        ]
        self._held = [(hand, spread_of(hand, CARD_SPREAD)) for hand in self.hands]
        self.deck = cards[self.players * HAND_SIZE :]
        self._set_piles([[self.deck.pop()]])
        self.bulls = [0] * self.players
        self.supply = BULL_CARDS
        self._log.append((_K_ROUND_START, self.starter, 0, -1, 0, self.round, (self.piles[0][0],)))
        self._begin_turn(self.starter)

    # ----- the GameState interface --------------------------------------------------

    @property
    def finished_rounds(self) -> tuple[RoundEnd, ...]:
        """The ends of the rounds before this one (made from the tables kept when they
        ended; see GameState.round_ends)."""
        done = self._round_ends
        if len(done) < len(self._ended):
            done = self._round_ends = (*done, *map(_round_end, self._ended[len(done) :]))
        return done

    @finished_rounds.setter
    def finished_rounds(self, rounds: tuple[RoundEnd, ...]) -> None:
        self._ended = self._round_ends = rounds

    def clone(self) -> Self:
        """As :meth:`GameState.clone` (COPY_LISTS and COPY_NESTED copied, the rest shared),
        written out for the slots. An ElevenNimmtState keeps all its state in slots, so its
        instance dict is neither read nor copied; a subclass clones the general way."""
        if type(self) is not ElevenNimmtState:
            return super().clone()
        other = _new_state(ElevenNimmtState)
        other.variant, other.players, other.seed = self.variant, self.players, self.seed
        other.round, other.starter, other.turn = self.round, self.starter, self.turn
        other.supply, other.phase = self.supply, self.phase
        other.start_tops, other._tops_cache = self.start_tops, self._tops_cache
        other._top_mask, other._top_spread = self._top_mask, self._top_spread
        other._ended, other._round_ends = self._ended, self._round_ends
        other.totals, other.bulls = self.totals.copy(), self.bulls.copy()
        other.deck, other.unused = self.deck.copy(), self.unused.copy()
        other.plays, other.steal_targets = self.plays.copy(), self.steal_targets.copy()
        other._tops = self._tops.copy()
        other._log, other._events = self._log.copy(), self._events.copy()
        other.piles = [pile.copy() for pile in self.piles]
        hands = other.hands = [hand.copy() for hand in self.hands]
        # Each hand's spread set goes with its copy (a stale one stays stale).
        other._held = [
            (copy, held[1]) if held[0] is hand else held
            for hand, copy, held in zip(self.hands, hands, self._held, strict=True)
        ]
        return cast(Self, other)

    @property
    def higher_is_better(self) -> bool:
        return False

    def pending(self) -> tuple[int, ...]:
        return () if self.phase is _OVER else _TURNS[self.turn]

    def decision_kind(self, seat: int) -> DecisionKind:
        require_pending(self.pending(), seat)
        return DecisionKind.PLAY_OR_TAKE if self.phase is _PLAY else DecisionKind.STEAL_BULL

    def legal_options(self, seat: int) -> list[Option]:
        if self.phase is not _PLAY or seat != self.turn:
            require_pending(self.pending(), seat)
            return [STEAL_OPTIONS[t] for t in self.steal_targets]
        tops = self.start_tops
        cache = self._tops_cache
        if cache[0] is not tops:
            cache = self._cache_tops()
        hand = self.hands[seat]
        held = self._held[seat]
        spread = held[1] if held[0] is hand else self._hand_spread(seat)
        options = _new_options(TurnOptions)  # turn_options, written out
        options._hand = hand
        options._tops = tops
        plays = self.plays
        if plays:  # a later decision of the turn: every play, then END_TURN
            options._open, top_spread = self._open_tops(seat)
            options._rows = 0
            options._end = 1
            fits = options._fits = top_spread & spread
            options._size = 1 + fits.bit_count()
            return options
        # The turn's first decision: ROW for every pile, then every play.
        options._open = cache[1]
        rows = options._rows = len(self.piles)
        options._end = 0
        fits = options._fits = cache[2] & spread
        options._size = rows + fits.bit_count()
        return options

    def apply(self, seat: int, option: Option) -> None:
        phase = self.phase
        if phase is _OVER or seat != self.turn:
            require_pending(self.pending(), seat)
        kind = option.kind
        if kind is _PLAY_KIND and phase is _PLAY:  # _is_legal's check of a play, written out
            card, pile = option.card, option.row
            tops = self.start_tops
            legal = (
                0 <= pile < len(tops)
                and card in self.hands[seat]
                and 1 <= (card - tops[pile]) % 100 <= WINDOW
            )
            if legal and self.plays:  # later in a turn: b bull cards, b piles (1 with 0)
                legal = self._may_use(seat, pile)
            if not legal:
                require_legal(seat, option, self.legal_options(seat))
            self._play(seat, card, pile)
            return
        if kind == _ROW_KIND and phase is _PLAY:  # _is_legal's check of a take, written out
            if self.plays or not 0 <= option.row < len(self.piles):
                require_legal(seat, option, self.legal_options(seat))
            self._take(seat, option.row)
            return
        if not self._is_legal(seat, option):
            require_legal(seat, option, self.legal_options(seat))
        if kind == _PLAY_KIND:
            self._play(seat, option.card, option.row)
        elif kind == _ROW_KIND:
            self._take(seat, option.row)
        elif kind == _STEAL_KIND:
            self._steal(seat, option.target)
            self._after_take(seat)
        else:
            self._finish_turn(seat)

    def is_terminal(self) -> bool:
        return self.phase is _OVER

    def scores(self) -> list[int]:
        return list(self.totals)

    def playout(self, rng: random.Random, policy: Policy | None = None) -> list[int]:
        """As :meth:`GameState.playout`; with the random policy, a faster loop that makes
        exactly the same choices from the same `rng` (it skips building option lists)."""
        if policy is not None:
            return super().playout(rng, policy)
        randrange = rng.randrange
        while True:
            phase, seat = self.phase, self.turn
            if phase is _PLAY:
                # Count the plays (as legal_options lists them) before finding the chosen one.
                hand = self.hands[seat]
                mask = self._open_tops(seat)[0]
                counts = [(mask & REACH[card]).bit_count() for card in hand]
                plays = sum(counts)
                if self.plays:  # plays, then END_TURN
                    index = randrange(plays + 1)
                    if index == plays:
                        self._finish_turn(seat)
                        continue
                else:  # ROW for every pile, then plays
                    piles = len(self.piles)
                    index = randrange(piles + plays) - piles
                    if index < 0:
                        self._take(seat, index + piles)
                        continue
                position = 0
                while index >= counts[position]:
                    index -= counts[position]
                    position += 1
                card = hand[position]
                fits = mask & REACH[card]
                self._play(seat, card, piles_of(fits, self.start_tops)[index])
            elif phase is _STEAL:
                targets = self.steal_targets
                self._steal(seat, targets[randrange(len(targets))])
                self._after_take(seat)
            else:
                return self.scores()

    def card_locations(self) -> dict[str, list[int]]:
        return card_locations_of(self)

    def position(self) -> Position:
        """The table at the start of a turn, before its first card."""
        if self.phase is not Phase.PLAY or self.plays:
            raise RulesError("a position is taken at the start of a turn, before any play")
        return Position(
            variant=self.variant,
            places=self.card_locations(),
            round=self.round,
            totals=tuple(self.totals),
            turn=self.turn,
            starter=self.starter,
            bulls=tuple(self.bulls),
            seed=self.seed,
        )

    def view(self, seat: int) -> ElevenNimmtView:
        return view_of(self, seat)

    # ----- the rules ------------------------------------------------------------------

    def _set_piles(self, piles: list[list[int]]) -> None:
        """Lay out `piles` (the engine keeps their tops up to date as it changes them)."""
        self.piles = piles
        self._tops = [pile[-1] for pile in piles]
        self._top_mask = 0
        for top in self._tops:
            self._top_mask |= BITS[top]
        self._top_spread = spread_of(self._tops, TOP_SPREAD)

    def _begin_turn(self, seat: int) -> None:
        self.turn, self.phase = seat, _PLAY
        tops = self.start_tops = self._tops[:]
        self._tops_cache = (tops, self._top_mask, self._top_spread)
        self.plays = []

    def _play(self, seat: int, card: int, pile: int) -> None:
        # A new hand list: option lists made before keep the old one (elevennimmt_turnoptions).
        old_hand = self.hands[seat]
        hand = self.hands[seat] = old_hand.copy()
        hand.remove(card)
        held = self._held[seat]
        if held[0] is old_hand:
            held = self._held[seat] = (hand, held[1] ^ CARD_SPREAD[card])
        plays = self.plays
        cards = self.piles[pile]
        if plays:
            new_cards = 0  # this turn's cards on the pile so far
            for played in plays:
                if played[1] == pile:
                    new_cards += 1
            stack(cards, card, new_cards, self.start_tops[pile])
        else:
            cards.append(card)
        tops = self._tops
        old, new = tops[pile], cards[-1]
        if old != new:
            tops[pile] = new
            self._top_mask ^= BITS[old] | BITS[new]
            self._top_spread ^= TOP_SPREAD[old] | TOP_SPREAD[new]
        plays.append((card, pile))
        log = self._log
        log.append((_K_PLACE, seat, card, pile, 0, self.round))
        bulls = self.bulls[seat]
        if bulls and hand:  # _has_play, written out: may the turn go on?
            start = self.start_tops
            used = set(map(_pile_of_play, plays))
            if len(used) >= bulls:  # only the piles played on this turn stay open
                spread = 0
                for used_pile in used:
                    spread |= TOP_SPREAD[start[used_pile]]
            else:
                cache = self._tops_cache
                spread = (cache if cache[0] is start else self._cache_tops())[2]
            if spread & (held[1] if held[0] is hand else self._hand_spread(seat)):
                return
        # _finish_turn, written out
        log.append((_K_END_TURN, seat, 0, -1, 0, self.round))
        if not hand:
            self._end_round()
            return
        self.turn = (seat + 1) % self.players  # the phase stays PLAY
        start = self.start_tops = tops[:]
        self._tops_cache = (start, self._top_mask, self._top_spread)
        self.plays = []

    def _take(self, seat: int, pile: int) -> None:
        cards = self.piles.pop(pile)
        tops = self._tops
        top = tops.pop(pile)  # the piles after it move down one
        old_hand = self.hands[seat]
        hand = self.hands[seat] = sorted(old_hand + cards)
        held = self._held[seat]
        if held[0] is old_hand:
            spread = held[1]
            for card in cards:
                spread |= CARD_SPREAD[card]
            self._held[seat] = (hand, spread)
        log = self._log
        log.append((_K_TAKE, seat, 0, pile, 0, self.round, tuple(cards)))
        if len(cards) >= BULL_PILE:
            if self.supply:
                self.supply -= 1
                self.bulls[seat] += 1
                log.append((_K_BULL, seat, 0, -1, 0, self.round))
            else:
                targets = steal_targets(self.bulls, seat)
                if len(targets) > 1:
                    self._top_mask ^= BITS[top]
                    self._top_spread ^= TOP_SPREAD[top]
                    self.phase, self.steal_targets = _STEAL, targets
                    return
                if targets:
                    self._steal(seat, targets[0])
        deck = self.deck
        if len(deck) < 2:
            self._top_mask ^= BITS[top]
            self._top_spread ^= TOP_SPREAD[top]
            self._after_take(seat)
            return
        # _after_take and _finish_turn for the usual case, written out: two deck cards start
        # new piles, and the next seat's turn begins (the hand is not empty: it took cards).
        first, second = deck.pop(), deck.pop()
        new_pile = len(tops)
        piles = self.piles
        piles.append([first])
        piles.append([second])
        tops.append(first)
        tops.append(second)
        mask = self._top_mask = (self._top_mask ^ BITS[top]) | BITS[first] | BITS[second]
        spread = self._top_spread = (
            (self._top_spread ^ TOP_SPREAD[top]) | TOP_SPREAD[first] | TOP_SPREAD[second]
        )
        rnd = self.round
        log.append((_K_NEW_PILE, -1, first, new_pile, 0, rnd))
        log.append((_K_NEW_PILE, -1, second, new_pile + 1, 0, rnd))
        log.append((_K_END_TURN, seat, 0, -1, 0, rnd))
        self.turn = (seat + 1) % self.players  # the phase stays PLAY
        start = self.start_tops = tops[:]
        self._tops_cache = (start, mask, spread)
        self.plays = []

    def _steal(self, seat: int, target: int) -> None:
        self.bulls[target] -= 1
        self.bulls[seat] += 1
        self.steal_targets = []
        self._log.append((_K_BULL, seat, 0, -1, 0, self.round, (), target))

    def _after_take(self, seat: int) -> None:
        """Two deck cards start new piles; a deck of fewer than 2 cards ends the round."""
        piles, deck, history = self.piles, self.deck, self._log
        if len(deck) >= 2:  # the usual case, written out
            first, second = deck.pop(), deck.pop()
            tops = self._tops
            pile = len(tops)
            piles.append([first])
            piles.append([second])
            tops.append(first)
            tops.append(second)
            self._top_mask |= BITS[first] | BITS[second]
            self._top_spread |= TOP_SPREAD[first] | TOP_SPREAD[second]
            history.append((_K_NEW_PILE, -1, first, pile, 0, self.round))
            history.append((_K_NEW_PILE, -1, second, pile + 1, 0, self.round))
            self._finish_turn(seat)
            return
        ending = True
        for _ in range(len(deck)):
            card = deck.pop()
            piles.append([card])
            self._tops.append(card)
            self._top_mask |= BITS[card]
            self._top_spread |= TOP_SPREAD[card]
            history.append((_K_NEW_PILE, -1, card, len(piles) - 1, 0, self.round))
        self._finish_turn(seat, ending)

    def _finish_turn(self, seat: int, round_over: bool = False) -> None:
        self._log.append((_K_END_TURN, seat, 0, -1, 0, self.round))
        if round_over or not self.hands[seat]:
            self._end_round()
        else:  # _begin_turn, written out
            self.turn, self.phase = (seat + 1) % self.players, _PLAY
            tops = self.start_tops = self._tops[:]
            self._tops_cache = (tops, self._top_mask, self._top_spread)
            self.plays = []

    def _end_round(self) -> None:
        points = [round_points(hand) for hand in self.hands]
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self._log.append((_K_ROUND_END, -1, 0, -1, 0, self.round, tuple(points)))
        if self.round >= self.players:
            self.phase = Phase.OVER
            self.start_tops, self.plays = [], []
            return
        # The table as the round ended, made into a RoundEnd only when read (finished_rounds):
        # the next deal replaces these lists and the cards in them are never changed again.
        table = (self.round, tuple(points), tuple(self.totals), self.hands, self.piles)
        self._ended = (*self._ended, (*table, self.deck, self.unused))
        self.round += 1
        self.starter = next_starter(self.totals, self.starter)
        self.unused = []
        self._deal()

    # The option rules: which piles a turn may still play on, and the quick legality
    # check of one option (the option list itself is a TurnOptions).

    def _is_legal(self, seat: int, option: Option) -> bool:
        """A quick legality check of one option (the same rules as legal_options)."""
        kind = option.kind
        if self.phase is _STEAL:
            return kind == _STEAL_KIND and option.target in self.steal_targets
        if kind == _PLAY_KIND:
            pile = option.row
            if not 0 <= pile < len(self.start_tops) or option.card not in self.hands[seat]:
                return False
            return 1 <= (option.card - self.start_tops[pile]) % 100 <= WINDOW and (
                self._may_use(seat, pile)
            )
        if kind == _ROW_KIND:
            return not self.plays and 0 <= option.row < len(self.piles)
        return kind == _END_TURN_KIND and bool(self.plays)

    def _may_use(self, seat: int, pile: int) -> bool:
        """Whether this turn may still play on `pile` (b bull cards: b piles, at least 1)."""
        plays = self.plays
        if not plays:
            return True
        used = set(map(_pile_of_play, plays))
        return pile in used or len(used) < max(1, self.bulls[seat])

    def _open_tops(self, seat: int) -> tuple[int, int]:
        """The start tops of the piles this turn may still play on, as a bit set and as a
        spread set: with b bull cards at most b piles (one pile, one card with none)."""
        tops = self.start_tops
        cache = self._tops_cache
        if cache[0] is not tops:
            cache = self._cache_tops()
        plays = self.plays
        if plays:
            used = set(map(_pile_of_play, plays))
            if len(used) >= max(1, self.bulls[seat]):
                mask = spread = 0
                for pile in used:
                    top = tops[pile]
                    mask |= BITS[top]
                    spread |= TOP_SPREAD[top]
                return mask, spread
        return cache[1], cache[2]

    def _cache_tops(self) -> tuple[list[int] | None, int, int]:
        """The bit set and spread set of the start tops, kept with the start_tops list they
        describe (the engine sets them at every turn's start; this is for other states)."""
        tops = self.start_tops
        mask = 0
        for top in tops:
            mask |= BITS[top]
        self._tops_cache = cache = (tops, mask, spread_of(tops, TOP_SPREAD))
        return cache

    def _hand_spread(self, seat: int) -> int:
        """The spread set of the seat's hand, kept with the hand list it describes (the
        engine keeps it up to date as it replaces hands; this finds it for others)."""
        hand = self.hands[seat]
        held = self._held[seat]
        if held[0] is hand:
            return held[1]
        spread = spread_of(hand, CARD_SPREAD)
        self._held[seat] = (hand, spread)
        return spread


def _round_end(table: _Table | RoundEnd) -> RoundEnd:
    """The RoundEnd of a round's table kept as it ended (as GameState._round_end makes it
    from card_locations())."""
    if isinstance(table, RoundEnd):
        return table
    rnd, points, totals, hands, piles, deck, unused = table
    places = {f"hand {s}": tuple(hand) for s, hand in enumerate(hands)}
    places.update({f"pile {p}": tuple(pile) for p, pile in enumerate(piles)})
    places["deck"] = tuple(deck[::-1])
    places["unused"] = tuple(unused)
    return RoundEnd(round=rnd, scores=points, totals=totals, places=places)


def new_game(variant: str, options: Mapping[str, str], players: int, seed: int) -> ElevenNimmtState:
    """A new game: round 1 dealt from `seed`, seat 0 starts (players checked by the caller)."""
    if options:
        raise RulesError(f"11 nimmt! has no options, got: {', '.join(options)}")
    state = ElevenNimmtState(players, seed, variant)
    state._deal()
    return state
