"""6 nimmt! and its Tactics, Logic and Professional variants (docs/rules.md, "6 nimmt!").

One engine for the family; the variant options (deck, deal, placement, end, rounds) switch
the rules. Decisions, events and the determinization are described in docs/game-model.md
("6 nimmt! family").
"""

from __future__ import annotations

import bisect
import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

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
    ViewHeader,
)
from sdk.game.engine_support import position_history, shared_event
from sdk.game.family import Family, OptionSpec, Position, Preset, check_players, split_variant
from sdk.game.history import History
from sdk.game.views import SixNimmtView, View

ROWS = 4
ROW_CAPACITY = 5  # the card that would be a row's 6th takes the row
HAND_SIZE = 10
FULL_DECK = 104
MAX_ROUNDS = 100  # the rounds option: a game of 6 nimmt! rarely lasts 10

CARD_OPTIONS: tuple[Option, ...] = tuple(Option(OptionKind.CARD, c) for c in range(FULL_DECK + 1))
"""CARD_OPTIONS[c]: the option "card c" (shared instances; options are immutable)."""
ROW_OPTIONS: tuple[Option, ...] = tuple(Option(OptionKind.ROW, row=r) for r in range(ROWS))
PLACE_OPTIONS: tuple[tuple[Option, Option], ...] = tuple(
    (
        Option(OptionKind.PLACE, row=r, side=Side.RIGHT),
        Option(OptionKind.PLACE, row=r, side=Side.LEFT),
    )
    for r in range(ROWS)
)
"""PLACE_OPTIONS[row][side]: Professional's place options."""


class Phase(enum.IntEnum):
    """Where a round stands."""

    DRAFT = 1  # Logic: one seat drafts a face-up card
    PICK = 2  # every seat picks a hand card face down
    CHOOSE = 3  # one seat chooses a row to take, or (Professional) one of two tied places
    OVER = 4  # the game has ended


@dataclass(frozen=True, slots=True)
class Rules:
    """The resolved variant: what the options mean for the engine."""

    variant: str  # preset name
    options: Mapping[str, str]  # resolved options (read-only)
    players: int
    highest: int  # cards in use are 1..highest
    draft: bool  # Logic's open draft instead of a random deal
    professional: bool  # cards go to either end of a row
    rounds: int  # exactly this many rounds; 0: play to the end rule
    end_at: int  # without `rounds`: the game ends when a total reaches this

    @classmethod
    def build(cls, variant: str, options: Mapping[str, str], players: int) -> Rules:
        """Rules from a preset name and already resolved options."""
        rounds = options.get("rounds", "")
        return cls(
            variant=variant,
            options=MappingProxyType(dict(options)),
            players=players,
            highest=10 * players + 4 if options.get("deck") == "tactics" else FULL_DECK,
            draft=options.get("deal") == "draft",
            professional=options.get("placement") == "both",
            rounds=int(rounds) if rounds else 0,
            end_at=66 if options.get("end") == "reach66" else 67,
        )


def deal_order(seed: int, round_number: int, highest: int) -> list[int]:
    """The shuffled deck of a round: seat i gets cards [10i, 10i+10), the next 4 start rows.

    Derived from (seed, round) alone, so a state needs no random-generator state.
    """
    deck = list(range(1, highest + 1))
    random.Random(f"6nimmt:{seed}:{round_number}").shuffle(deck)
    return deck


def heads_of(cards: Sequence[int]) -> int:
    """Total bull heads of some cards."""
    return sum(HEADS[c] for c in cards)


class SixNimmtState(GameState[SixNimmtView]):
    """The full state of a 6 nimmt! family game (see :class:`GameState`)."""

    __slots__ = (  # attribute access is quicker than through the instance dict
        "_all_seats",
        "choices",
        "chooser",
        "drafter",
        "hands",
        "history",
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
    COPY_LISTS = ("totals", "penalties", "unused", "pool", "picks", "queue", "history")
    COPY_NESTED = ("hands", "rows", "piles")

    def __init__(self, rules: Rules, seed: int) -> None:
        """An empty state; use :func:`new_game` or :meth:`from_position` to make one."""
        n = rules.players
        self.rules = rules
        self.variant = rules.variant
        self.players = n
        self.seed = seed
        self.round = 1
        self.totals = [0] * n  # heads of the rounds before this one
        self.penalties = [0] * n  # heads taken this round
        self.hands: list[list[int]] = [[] for _ in range(n)]  # sorted; a face-down pick stays
        self.rows: list[list[int]] = [[] for _ in range(ROWS)]
        self.piles: list[list[int]] = [[] for _ in range(n)]  # cards taken this round
        self.unused: list[int] = []  # not in play this round (sorted)
        self.pool: list[int] = []  # Logic: face-up cards still to draft (sorted)
        self.drafter = -1
        self.picks = [0] * n  # face-down pick per seat this turn; 0: none yet
        self.unpicked = n  # seats still to pick this turn
        self.queue: list[tuple[int, int]] = []  # (card, seat) revealed, still to resolve
        self.chooser = -1  # in CHOOSE: the seat deciding; its card is queue[0]
        self.choices: tuple[Option, ...] = ()  # in CHOOSE: the legal options
        self.history: list[Event] = []
        self.phase = Phase.PICK
        self._all_seats = tuple(range(n))

    # ------------------------------------------------------------------ construction

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
        """A state from an explicit position (rulebook examples, determinization).

        `variant` is a preset id with optional options (``6nimmt-pro:rounds=1``); `totals`
        are the heads of earlier rounds; `piles` the cards taken this round; `revealed`
        this turn's (seat, card) still to resolve, lowest first; `draft_pool` (Logic) the
        face-up cards still to draft, `drafter` the seat to draft next. `unused` defaults
        to every card of the deck found nowhere else. Rows may be empty only while drafting.
        Without a `history` the state's history tells what the views do not show of the
        position: ``ROUND_START`` (each row's first card; none while drafting) and a
        ``TAKE`` (row -1) of each seat's pile.
        """
        name, given = split_variant(variant, options)
        spec = FAMILY.spec(FAMILY.preset(name), given)
        players = len(hands)
        check_players(spec.preset, players)
        rules = Rules.build(spec.preset.name, spec.options, players)
        state = cls(rules, seed)
        state.round = round_number
        state.hands = [sorted(h) for h in hands]
        state.rows = [list(r) for r in rows]
        state.piles = [list(p) for p in piles] if piles is not None else [[] for _ in hands]
        state.penalties = [heads_of(p) for p in state.piles]
        state.totals = list(totals) if totals is not None else [0] * players
        state.queue = sorted((card, seat) for seat, card in revealed)
        state.pool = sorted(draft_pool)
        state.drafter = drafter
        if history is not None:
            state.history = list(history)
        elif not state.pool:
            state.history = position_history(state.rows, round_number, further=False)
            state.history.extend(
                Event(EventKind.TAKE, seat=seat, cards=tuple(pile), round=round_number)
                for seat, pile in enumerate(state.piles)
                if pile
            )
        placed = [
            *(c for h in state.hands for c in h),
            *(c for r in state.rows for c in r),
            *(c for p in state.piles for c in p),
            *(c for c, _ in state.queue),
            *state.pool,
        ]
        everything = set(range(1, rules.highest + 1))
        state.unused = sorted(everything - set(placed)) if unused is None else sorted(unused)
        _check_position(state, placed, everything)
        if state.pool:
            state.phase = Phase.DRAFT
        elif state.queue:
            state._resolve()
        return state

    # ------------------------------------------------------------------ GameState

    def pending(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == Phase.PICK:
            if self.unpicked == self.players:
                return self._all_seats
            return tuple(s for s, p in enumerate(self.picks) if not p)
        if phase == Phase.CHOOSE:
            return (self.chooser,)
        if phase == Phase.DRAFT:
            return (self.drafter,)
        return ()

    def decision_kind(self, seat: int) -> DecisionKind:
        phase = self.phase
        if phase == Phase.PICK and 0 <= seat < self.players and not self.picks[seat]:
            return DecisionKind.PICK_CARD
        if phase == Phase.CHOOSE and seat == self.chooser:
            return (
                DecisionKind.TAKE_ROW
                if self.choices[0].kind == OptionKind.ROW
                else DecisionKind.CHOOSE_PLACE
            )
        if phase == Phase.DRAFT and seat == self.drafter:
            return DecisionKind.DRAFT_CARD
        raise RulesError(f"seat {seat} has no decision pending (pending: {self._pending_text()})")

    def legal_options(self, seat: int) -> list[Option]:
        kind = self.decision_kind(seat)
        if kind == DecisionKind.PICK_CARD:
            return [CARD_OPTIONS[c] for c in self.hands[seat]]
        if kind == DecisionKind.DRAFT_CARD:
            return [CARD_OPTIONS[c] for c in self.pool]
        return list(self.choices)

    def apply(self, seat: int, option: Option) -> None:
        phase = self.phase
        if phase == Phase.PICK:
            if not 0 <= seat < self.players or self.picks[seat]:
                self.decision_kind(seat)  # raises with the pending seats
            card = option.card
            if option.kind != OptionKind.CARD or card not in self.hands[seat]:
                raise self._illegal(seat, option)
            self.picks[seat] = card
            self.unpicked -= 1
            if not self.unpicked:
                self._reveal()
        elif phase == Phase.CHOOSE:
            if seat != self.chooser:
                self.decision_kind(seat)
            if option not in self.choices:
                raise self._illegal(seat, option)
            card = self.queue[0][0]
            if option.kind == OptionKind.ROW:
                self._take(seat, option.row)
                self._lay(seat, card, option.row, Side.RIGHT, fresh=True)
            else:
                self._put(seat, card, option.row, option.side)
            del self.queue[0]
            self._resolve()
        elif phase == Phase.DRAFT:
            if seat != self.drafter:
                self.decision_kind(seat)
            if option.kind != OptionKind.CARD or option.card not in self.pool:
                raise self._illegal(seat, option)
            self._draft(seat, option.card)
        else:
            raise RulesError("the game is over; no decision is pending")

    def view(self, seat: int) -> SixNimmtView:
        if not -1 <= seat < self.players:
            raise RulesError(f"no seat {seat} in a {self.players}-player game")
        pending = self.pending()
        header = ViewHeader(
            variant=self.variant,
            options=self.rules.options,
            players=self.players,
            seat=seat,
            round=self.round,
            scores=tuple(self.scores()),
            to_move=pending,
            decision=self.decision_kind(seat) if seat in pending else None,
            history=History.window(self.history),
        )
        public = self.rules.draft
        return SixNimmtView(
            header=header,
            hand=tuple(self.hands[seat]) if seat >= 0 else (),
            rows=tuple(tuple(r) for r in self.rows),
            hand_sizes=tuple(len(h) for h in self.hands),
            round_penalties=tuple(self.penalties),
            highest_card=self.rules.highest,
            picked=tuple(p != 0 for p in self.picks),
            revealed=tuple((s, c) for c, s in self.queue),
            pending_card=self.queue[0][0] if self.phase == Phase.CHOOSE else 0,
            draft_pool=tuple(self.pool),
            public_hands=public,
            all_hands=tuple(tuple(h) for h in self.hands) if public or seat < 0 else (),
        )

    def is_terminal(self) -> bool:
        return self.phase == Phase.OVER

    def position(self) -> Position:
        """The table at the start of a turn (no card picked yet) or of a draft pick."""
        drafting = self.phase == Phase.DRAFT
        if not drafting and (self.phase != Phase.PICK or self.unpicked != self.players):
            raise RulesError("a position is taken at the start of a turn, before any pick")
        return Position(
            variant=FAMILY.spec(FAMILY.preset(self.variant), self.rules.options).id,
            places=self.card_locations(),
            round=self.round,
            totals=tuple(self.totals),
            turn=self.drafter if drafting else 0,
            seed=self.seed,
        )

    def scores(self) -> list[int]:
        return [t + p for t, p in zip(self.totals, self.penalties, strict=True)]

    def card_locations(self) -> dict[str, list[int]]:
        """Places: "hand i" (a face-down pick included), "row r", "pile i" (taken this
        round), "revealed" (this turn's cards still to resolve), "draft", "unused"."""
        places: dict[str, list[int]] = {}
        for seat, hand in enumerate(self.hands):
            places[f"hand {seat}"] = list(hand)
        for r, row in enumerate(self.rows):
            places[f"row {r}"] = list(row)
        for seat, pile in enumerate(self.piles):
            places[f"pile {seat}"] = list(pile)
        places["revealed"] = [c for c, _ in self.queue]
        places["draft"] = list(self.pool)
        places["unused"] = list(self.unused)
        return places

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
            if phase == Phase.PICK:
                picks = self.picks
                for seat in self.pending():
                    hand = self.hands[seat]
                    picks[seat] = hand[randrange(len(hand))]
                self.unpicked = 0
                self._reveal()
            elif phase == Phase.CHOOSE:
                self.apply(self.chooser, self.choices[randrange(len(self.choices))])
            elif phase == Phase.DRAFT:
                self._draft(self.drafter, self.pool[randrange(len(self.pool))])
            else:
                return self.scores()

    # ------------------------------------------------------------------ rules

    def _reveal(self) -> None:
        """Every seat has picked: reveal the cards and resolve them, lowest first."""
        order = sorted(zip(self.picks, self._all_seats, strict=True))
        hands = self.hands
        events = self.history
        rnd = self.round
        for card, seat in order:
            hands[seat].remove(card)
            events.append(shared_event(EventKind.REVEAL, seat, card, -1, Side.RIGHT, rnd))
        self.picks = [0] * self.players
        self.unpicked = self.players
        self.queue = order
        self._resolve()

    def _resolve(self) -> None:
        """Place the queued cards until one needs a choice, or the turn is done."""
        queue = self.queue
        rows = self.rows
        professional = self.rules.professional
        while queue:
            card, seat = queue[0]
            if professional:
                places = self._nearest_places(card)
                if len(places) != 1:
                    self._ask(seat, places or ROW_OPTIONS)
                    return
                place = places[0]
                self._put(seat, card, place.row, place.side)
            else:
                best = -1
                best_last = 0
                for r in range(ROWS):
                    last = rows[r][-1]
                    if best_last < last < card:
                        best, best_last = r, last
                if best < 0:
                    self._ask(seat, ROW_OPTIONS)
                    return
                row = rows[best]
                if len(row) >= ROW_CAPACITY:
                    self._take(seat, best)
                    rows[best] = [card]
                else:
                    row.append(card)
                self.history.append(
                    shared_event(EventKind.PLACE, seat, card, best, Side.RIGHT, self.round)
                )
            del queue[0]
        self.phase = Phase.PICK
        if not self.hands[0]:
            self._end_round()

    def _nearest_places(self, card: int) -> tuple[Option, ...]:
        """Professional: the nearest places for `card` (0, 1 or 2 of them), canonical order."""
        best_distance = 1 << 30
        places: tuple[Option, ...] = ()
        for r, row in enumerate(self.rows):
            distance = card - row[-1]
            if 0 < distance <= best_distance:
                places = (
                    (*places, PLACE_OPTIONS[r][0])
                    if distance == best_distance
                    else (PLACE_OPTIONS[r][0],)
                )
                best_distance = distance
            distance = row[0] - card
            if 0 < distance <= best_distance:
                places = (
                    (*places, PLACE_OPTIONS[r][1])
                    if distance == best_distance
                    else (PLACE_OPTIONS[r][1],)
                )
                best_distance = distance
        return places

    def _ask(self, seat: int, choices: tuple[Option, ...]) -> None:
        self.phase = Phase.CHOOSE
        self.chooser = seat
        self.choices = choices

    def _put(self, seat: int, card: int, r: int, side: Side) -> None:
        """Place `card` at a row end; as the row's 6th card it takes the row first."""
        fresh = len(self.rows[r]) >= ROW_CAPACITY
        if fresh:
            self._take(seat, r)
        self._lay(seat, card, r, side, fresh)

    def _lay(self, seat: int, card: int, r: int, side: Side, fresh: bool) -> None:
        row = self.rows[r]
        if side == Side.LEFT and not fresh:
            row.insert(0, card)
        else:
            row.append(card)
        self.history.append(shared_event(EventKind.PLACE, seat, card, r, side, self.round))

    def _take(self, seat: int, r: int) -> None:
        taken = self.rows[r]
        self.rows[r] = []
        self.piles[seat].extend(taken)
        self.penalties[seat] += heads_of(taken)
        self.history.append(
            Event(EventKind.TAKE, seat=seat, row=r, cards=tuple(taken), round=self.round)
        )

    def _draft(self, seat: int, card: int) -> None:
        self.pool.remove(card)
        bisect.insort(self.hands[seat], card)
        self.history.append(shared_event(EventKind.DRAFT, seat, card, -1, Side.RIGHT, self.round))
        self.drafter = (seat + 1) % self.players
        if len(self.pool) == ROWS:
            self._lay_rows(self.pool)
            self.pool = []
            self.drafter = -1
            self.phase = Phase.PICK

    def _lay_rows(self, starters: Sequence[int]) -> None:
        self.rows = [[c] for c in starters]
        self.history.append(Event(EventKind.ROUND_START, cards=tuple(starters), round=self.round))

    def _end_round(self) -> None:
        rules = self.rules
        self.history.append(
            Event(EventKind.ROUND_END, cards=tuple(self.penalties), round=self.round)
        )
        scores = self.scores()
        over = self.round >= rules.rounds if rules.rounds else max(scores) >= rules.end_at
        if over:
            self.phase = Phase.OVER
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
            self.phase = Phase.DRAFT
            return
        self.hands = [sorted(deck[i : i + HAND_SIZE]) for i in range(0, dealt, HAND_SIZE)]
        self.unused = sorted(deck[dealt + ROWS :])
        self._lay_rows(deck[dealt : dealt + ROWS])
        self.phase = Phase.PICK

    # ------------------------------------------------------------------ messages

    def _pending_text(self) -> str:
        pending = self.pending()
        return ", ".join(f"seat {s}" for s in pending) if pending else "none, the game is over"

    def _illegal(self, seat: int, option: Option) -> RulesError:
        kind = self.decision_kind(seat)
        legal = ", ".join(o.describe() for o in self.legal_options(seat))
        return RulesError(
            f"{option.describe()} is not a legal {kind.name} option for seat {seat}; legal: {legal}"
        )


def _check_position(state: SixNimmtState, placed: list[int], everything: set[int]) -> None:
    """Refuse positions that break the rules' invariants, with a clear message."""
    every = placed + state.unused
    if len(set(every)) != len(every):
        dupes = sorted({c for c in every if every.count(c) > 1})
        raise RulesError(f"cards appear more than once: {dupes}")
    if set(every) != everything:
        outside = sorted(set(every) - everything)
        missing = sorted(everything - set(every))
        raise RulesError(
            f"the cards must be exactly 1..{state.rules.highest}; "
            f"outside: {outside}, missing: {missing}"
        )
    if len({len(h) for h in state.hands}) > 1 and not state.pool:
        raise RulesError("every hand must hold the same number of cards")
    if len(state.rows) != ROWS:
        raise RulesError(f"there must be {ROWS} rows, not {len(state.rows)}")
    for r, row in enumerate(state.rows):
        if not state.pool and not 1 <= len(row) <= ROW_CAPACITY:
            raise RulesError(f"row {r + 1} must hold 1 to {ROW_CAPACITY} cards, not {len(row)}")
        if list(row) != sorted(row):
            raise RulesError(f"row {r + 1} must ascend: {list(row)}")
    if state.pool and not 0 <= state.drafter < state.players:
        raise RulesError("a draft position needs the seat that drafts next")


def new_game(variant: str, options: Mapping[str, str], players: int, seed: int) -> SixNimmtState:
    """A new game (`variant` a preset name, `options` resolved, `players` checked)."""
    state = SixNimmtState(Rules.build(variant, options, players), seed)
    state._start_round()
    return state


def from_position(position: Position) -> SixNimmtState:
    """A state from a family-independent :class:`Position` (places as ``card_locations``
    names them; ``turn`` is the seat to draft next while drafting)."""
    position.require_places(("hand", "row", "pile", "draft", "unused"), empty=("revealed",))
    players = position.players()
    draft = position.places.get("draft", ())
    unused = position.places.get("unused")
    return SixNimmtState.from_position(
        position.variant,
        position.indexed("hand", players),
        position.indexed("row"),
        totals=position.totals or None,
        piles=position.indexed("pile", players),
        unused=None if unused is None else list(unused),
        draft_pool=draft,
        drafter=position.turn if draft else -1,
        round_number=position.round,
        seed=position.seed,
    )


def from_view(view: View, rng: random.Random) -> SixNimmtState:
    """A full state consistent with `view`, hidden cards sampled uniformly (determinization).

    Every card the seat has not seen this round (the deck minus its hand, the rows, the
    draft pool and every card in this round's public history) is shuffled and dealt to the
    opponents' hands (their sizes as the view shows them); the rest is unused. Face-down
    picks are hidden, so in the returned state no seat has picked yet this turn; apart
    from ``picked`` its view for the seat equals `view`. Later rounds use a fresh seed
    drawn from `rng`.
    """
    if not isinstance(view, SixNimmtView):
        raise RulesError(f"not a 6 nimmt! view: {type(view).__name__}")
    header = view.header
    FAMILY.preset(header.variant)  # refuses a variant of another family
    seat = header.seat
    n = header.players
    highest = view.highest_card
    piles: list[list[int]] = [[] for _ in range(n)]
    seen = set(view.hand) | set(view.draft_pool) | {c for _, c in view.revealed}
    for row in view.rows:
        seen.update(row)
    for event in reversed(header.history):
        if event.round != header.round:
            break  # earlier rounds: their cards were shuffled back
        seen.add(event.card)
        seen.update(event.cards)
        if event.kind == EventKind.TAKE:
            piles[event.seat].extend(event.cards)
    if view.all_hands:
        hands = [list(h) for h in view.all_hands]
    else:
        unseen = [c for c in range(1, highest + 1) if c not in seen]
        rng.shuffle(unseen)
        hands = []
        for other in range(n):
            if other == seat:
                hands.append(list(view.hand))
            else:
                size = view.hand_sizes[other]
                hands.append(unseen[:size])
                del unseen[:size]
    totals = [s - p for s, p in zip(header.scores, view.round_penalties, strict=True)]
    state = SixNimmtState.from_position(
        header.variant,
        hands,
        view.rows,
        options=header.options,
        totals=totals,
        piles=piles,
        revealed=view.revealed,
        draft_pool=view.draft_pool,
        drafter=header.to_move[0] if view.draft_pool else -1,
        round_number=header.round,
        seed=rng.getrandbits(63),
        history=header.history,
    )
    if not header.to_move:
        state.phase = Phase.OVER
    return state


FAMILY = Family(
    name="6nimmt",
    title="6 nimmt!",
    options=(
        OptionSpec("deck", ("full", "tactics"), "full", help="1..104, or 1..10n+4"),
        OptionSpec("deal", ("random", "draft"), "random", help="dealt, or Logic's open draft"),
        OptionSpec("placement", ("ends", "both"), "ends", help="Professional: both ends"),
        OptionSpec("end", ("over66", "reach66"), "over66", help="when the game ends"),
        OptionSpec(
            "rounds", None, "", maximum=MAX_ROUNDS, help="play exactly N rounds (overrides end)"
        ),
    ),
    presets=(
        Preset("6nimmt", "6nimmt", {}, 2, 10, "6 nimmt!"),
        Preset("6nimmt-tactics", "6nimmt", {"deck": "tactics"}, 2, 6, "6 nimmt! Tactics"),
        Preset(
            "6nimmt-logic", "6nimmt", {"deck": "tactics", "deal": "draft"}, 2, 6, "6 nimmt! Logic"
        ),
        Preset("6nimmt-pro", "6nimmt", {"placement": "both"}, 2, 10, "6 nimmt! Professional"),
    ),
    view_type=SixNimmtView,
    new_game=new_game,
    from_position=from_position,
    from_view=from_view,
)
"""The 6 nimmt! family: its options, presets and constructors (see sdk.game.variants)."""
