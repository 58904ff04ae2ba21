"""Types shared by every game engine: options, decisions, events and the state interface.

Every engine exposes the same :class:`GameState` interface, so the referee, the SDK and
the bots never special-case a variant except to read its typed view.

Conventions (see docs/game-model.md):

* Seats are numbered ``0 .. players-1``.
* A decision is a choice among the legal options of a seat, listed in canonical order:
  ascending card, then row/pile index, then side, then target seat; options of kind
  ``END_TURN`` come last.
* Simultaneous decisions (picks in 6 nimmt! and X nimmt!) are pending for several seats
  at once; the engine keeps each choice hidden until every pending seat has chosen.
* Rows/piles are numbered from 0 in the order the view lists them.
"""

from __future__ import annotations

import abc
import enum
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Generic, NamedTuple, Self

from typing_extensions import TypeVar

from sdk.errors import BullringError

if TYPE_CHECKING:
    from sdk.game.family import Position
    from sdk.game.views import View

ViewT_co = TypeVar("ViewT_co", bound="View", covariant=True, default="View")
"""The view type of a GameState (a bare ``GameState`` is ``GameState[View]``: any view)."""


class RulesError(BullringError, ValueError):
    """A request the rules do not allow (bad variant, player count, option or move)."""


class DecisionKind(enum.IntEnum):
    """What a pending decision is about. Values are stable: they are on the wire."""

    PICK_CARD = 1  # 6 nimmt!, X nimmt!: choose a hand card, simultaneously with others
    TAKE_ROW = 2  # 6 nimmt!, X nimmt!: card too low (or no place): choose a row to take
    CHOOSE_PLACE = 3  # 6 nimmt! Professional: two equally near places: choose one
    DRAFT_CARD = 4  # 6 nimmt! Logic: take one face-up card into the hand
    X_ROW_CARD = 5  # X nimmt!: choose which taken card goes to the X row
    PLAY_OR_TAKE = 6  # 11 nimmt!: play card(s) on pile(s), take a pile, or end the turn
    STEAL_BULL = 7  # 11 nimmt!: choose the player to steal a bull card from
    PLAY_STEP = 8  # Hornochsen!: play a bull card, a special card, or end the turn


class OptionKind(enum.IntEnum):
    """The shape of an option. Values are stable: they are on the wire."""

    CARD = 1  # choose `card` (pick, draft, X-row card)
    ROW = 2  # choose row/pile `row` (take it)
    PLACE = 3  # place the pending card on `row` at `side` (Professional tie)
    PLAY = 4  # play `card` (on pile/row `row` where the player chooses it, else row=-1)
    SPECIAL = 5  # play special card `card` (a Special value) on row `row`
    END_TURN = 6  # end a multi-step turn
    STEAL = 7  # steal a bull card from seat `target`


class Side(enum.IntEnum):
    """Which end of a row (6 nimmt! Professional). Rows grow to the right normally."""

    RIGHT = 0
    LEFT = 1


class Special(enum.IntEnum):
    """Hornochsen! special cards (they carry no number)."""

    X2 = 1
    PLUS5 = 2


class Option(NamedTuple):
    """One legal choice. Unused fields keep their defaults."""

    kind: OptionKind
    card: int = 0
    row: int = -1
    side: Side = Side.RIGHT
    target: int = -1

    def sort_key(self) -> tuple[int, int, int, int, int]:
        """The canonical order: END_TURN last, then card, row, side, target."""
        return (
            1 if self.kind == OptionKind.END_TURN else 0,
            self.card,
            self.row,
            int(self.side),
            self.target,
        )

    def describe(self) -> str:
        """A short human-readable form, for traces and errors."""
        k = self.kind
        if k == OptionKind.CARD:
            return f"card {self.card}"
        if k == OptionKind.ROW:
            return f"take row {self.row + 1}"
        if k == OptionKind.PLACE:
            return f"place on row {self.row + 1} ({self.side.name.lower()} end)"
        if k == OptionKind.PLAY:
            return f"play {self.card}" + (f" on pile {self.row + 1}" if self.row >= 0 else "")
        if k == OptionKind.SPECIAL:
            return f"play {Special(self.card).name} on row {self.row + 1}"
        if k == OptionKind.END_TURN:
            return "end turn"
        return f"steal from seat {self.target}"


class EventKind(enum.IntEnum):
    """Public history entries. Values are stable: they are on the wire."""

    ROUND_START = 1  # `cards`: the face-up starting cards of rows/piles (in row order)
    REVEAL = 2  # a simultaneous pick revealed: `seat` played `card`
    PLACE = 3  # `card` of `seat` placed on `row` (`side` for Professional)
    TAKE = 4  # `seat` took `cards` from `row` (their heads go to the seat's penalty)
    DRAFT = 5  # Logic: `seat` drafted `card`
    X_ROW = 6  # X nimmt!: `seat` put `card` in their X row; `cards` went to hand
    X_PILE = 7  # X nimmt!: `seat`'s X row (`cards`) went face down onto their X pile
    NEW_PILE = 8  # 11 nimmt!: a new pile started with `card` (at index `row`)
    BULL = 9  # 11 nimmt!: `seat` got a bull card (from the supply, or from `target`)
    SPECIAL = 10  # Hornochsen!: `seat` put special `card` on `row`
    COLLECT = 11  # Hornochsen!: `seat` collected `row`: bull `cards` and `specials`
    END_TURN = 12  # a multi-step turn ended
    ROUND_END = 13  # `cards` holds each seat's score for the round, in seat order


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the public history. Fields not used by a kind keep their defaults."""

    kind: EventKind
    seat: int = -1
    card: int = 0
    row: int = -1
    side: Side = Side.RIGHT
    target: int = -1
    cards: tuple[int, ...] = ()
    round: int = 0
    specials: tuple[int, ...] = ()  # COLLECT: the special cards collected (Special values)


@dataclass(frozen=True, slots=True)
class ViewHeader:
    """What every view starts with."""

    variant: str  # preset or family id, e.g. "6nimmt-pro"
    options: Mapping[str, str]  # the resolved variant options, as strings
    players: int
    seat: int  # whose view this is; -1 for the referee's all-seeing view
    round: int  # 1-based
    scores: tuple[int, ...]  # running totals, one per seat, as the scoresheet shows them
    to_move: tuple[int, ...]  # seats with a pending decision
    decision: DecisionKind | None  # this seat's pending decision, if any
    history: Sequence[Event] = field(default=())
    """The public history: a :class:`~sdk.game.history.History` (a read-only window on the
    game's event log, shared by every view, equal to the tuple of its events)."""


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """The table as a round ended, before the next round was dealt (see
    :meth:`GameState.round_ends`)."""

    round: int
    scores: tuple[int, ...]  # each seat's points of this round (its ROUND_END event's cards)
    totals: tuple[int, ...]  # each seat's score after it, as scores() gave it then
    places: Mapping[str, tuple[int, ...]]  # card_locations() at that moment


Policy = Callable[["GameState", int, Sequence[Option], random.Random], Option]
"""A playout policy: (state, seat, legal options, rng) -> the chosen option."""


def random_policy(
    state: GameState, seat: int, options: Sequence[Option], rng: random.Random
) -> Option:
    """Choose uniformly among the legal options."""
    return options[rng.randrange(len(options))]


class GameState(abc.ABC, Generic[ViewT_co]):
    """The full state of one game, with the rules that move it forward.

    Generic in its view type: ``SixNimmtState`` is a ``GameState[SixNimmtView]``, so
    ``state.view(seat)`` is typed; a bare ``GameState`` is one of any family, and its
    ``view()`` gives the :data:`~sdk.game.views.View` union.

    A state is mutable; :meth:`clone` gives an independent copy for simulation. Every
    engine clones the same way: the attributes named in :attr:`COPY_LISTS` and
    :attr:`COPY_NESTED` are copied, every other attribute (in the instance dict or in
    ``__slots__``) is shared (it must be immutable, or replaced rather than changed in
    place).
    """

    variant: str
    players: int
    history: list[Event]
    """The public history, append-only: views hold windows on it (sdk.game.history)."""

    finished_rounds: tuple[RoundEnd, ...] = ()
    """The ends of the rounds before this one (immutable; an engine adds one with
    :meth:`record_round_end` when a round that is not the last one ends)."""

    COPY_LISTS: ClassVar[tuple[str, ...]] = ()
    """Attributes holding a list (or anything with ``copy()``) of immutable items."""
    COPY_NESTED: ClassVar[tuple[str, ...]] = ()
    """Attributes holding a list of lists: each inner list is copied too."""

    @abc.abstractmethod
    def pending(self) -> tuple[int, ...]:
        """The seats that must decide now (several for a simultaneous pick); () if over."""

    @abc.abstractmethod
    def decision_kind(self, seat: int) -> DecisionKind:
        """The kind of decision pending for `seat` (RulesError if none)."""

    @abc.abstractmethod
    def legal_options(self, seat: int) -> list[Option]:
        """The legal options of a pending seat, in canonical order (RulesError if none)."""

    @abc.abstractmethod
    def apply(self, seat: int, option: Option) -> None:
        """Apply `seat`'s choice; RulesError if the seat is not pending or it is illegal."""

    def apply_trusted(self, seat: int, option: Option) -> None:
        """:meth:`apply` for simulations, which only apply options ``legal_options`` gave:
        an engine may skip checking that `seat` is pending and `option` legal (a wrong
        one then corrupts the state). The referee always uses :meth:`apply`."""
        self.apply(seat, option)

    @abc.abstractmethod
    def view(self, seat: int) -> ViewT_co:
        """What `seat` may see (the family's view dataclass); seat -1: everything."""

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abc.abstractmethod
    def scores(self) -> list[int]:
        """Each seat's score so far (final once terminal), in the variant's own units."""

    def clone(self) -> Self:
        """An independent copy (see the class docstring for what is copied)."""
        cls = type(self)
        shared = _SHARED_SLOTS.get(cls)
        if shared is None:
            shared = _SHARED_SLOTS[cls] = _shared_slots(cls)
        other = object.__new__(cls)
        state = self.__dict__.copy()
        for name in self.COPY_LISTS:
            if name in state:
                state[name] = state[name].copy()
            else:
                setattr(other, name, getattr(self, name).copy())
        for name in self.COPY_NESTED:
            if name in state:
                state[name] = [inner.copy() for inner in state[name]]
            else:
                setattr(other, name, [inner.copy() for inner in getattr(self, name)])
        for name in shared:
            setattr(other, name, getattr(self, name))
        other.__dict__.update(state)
        return other

    @abc.abstractmethod
    def position(self) -> Position:
        """The table as a family-independent explicit position (only at the start of a
        turn; RulesError otherwise): ``sdk.game.from_position(state.position())`` continues
        exactly as this state does (its history aside)."""

    @abc.abstractmethod
    def card_locations(self) -> dict[str, list[int]]:
        """Where every number card of the game is, by place ("hand 0", "row 2", "deck",
        "unused", "pile 1", ...). Together they hold each card of the game's deck exactly
        once. For checks and debugging, not for bots (it sees everything)."""

    @property
    @abc.abstractmethod
    def higher_is_better(self) -> bool:
        """True when the highest score wins (Hornochsen!); False for fewest heads."""

    def round_ends(self) -> tuple[RoundEnd, ...]:
        """The end of every round played to its end so far, in order: the table as the
        round ended (``card_locations()``), its points and the totals, read before the next
        round is dealt (which happens inside the ``apply()`` that ends a round). The last
        round's end is the final table, once the game is over."""
        if not self.is_terminal():
            return self.finished_rounds
        return (*self.finished_rounds, self._round_end())

    def record_round_end(self) -> None:
        """Keep the table of the round that has just ended (its ROUND_END event is the last
        event of the history), before the next round is dealt."""
        self.finished_rounds = (*self.finished_rounds, self._round_end())

    def _last_event(self) -> Event | None:
        """The last event of the history (None before the first)."""
        return self.history[-1] if self.history else None

    def _round_end(self) -> RoundEnd:
        last = self._last_event()
        if last is None or last.kind != EventKind.ROUND_END:
            raise RulesError("no round has just ended")
        return RoundEnd(
            round=last.round,
            scores=last.cards,
            totals=tuple(self.scores()),
            places={place: tuple(cards) for place, cards in self.card_locations().items()},
        )

    def ranks(self) -> list[int]:
        """1-based ranks from the scores; equal scores share the better rank."""
        return ranks_from_scores(self.scores(), self.higher_is_better)

    def playout(self, rng: random.Random, policy: Policy | None = None) -> list[int]:
        """Play this state to the end with `policy` (random by default); return scores."""
        choose = policy or random_policy
        while True:
            seats = self.pending()
            if not seats:
                return self.scores()
            for seat in seats:
                self.apply(seat, choose(self, seat, self.legal_options(seat), rng))


_SHARED_SLOTS: dict[type, tuple[str, ...]] = {}


def _shared_slots(cls: type[GameState]) -> tuple[str, ...]:
    """The slots (an engine may keep its state in ``__slots__`` for speed) a clone shares:
    every slot of the class and its bases but those it copies."""
    copied = {*cls.COPY_LISTS, *cls.COPY_NESTED}
    names: list[str] = []
    for klass in cls.__mro__:
        for name in klass.__dict__.get("__slots__", ()):
            if name not in copied and name not in names:
                names.append(name)
    return tuple(names)


def ranks_from_scores(scores: Sequence[int], higher_is_better: bool) -> list[int]:
    """Competition ranking ("1224"): equal scores share the better rank."""
    keyed = [(-s if higher_is_better else s) for s in scores]
    return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]


def forfeits_ranked_last(ranks: Sequence[int], forfeited: Sequence[bool]) -> list[int]:
    """A match's ranks, with every forfeited seat below every seat that was not.

    `ranks` are the ranks from the scores (:func:`ranks_from_scores`). The seats that
    played keep their order and the forfeited seats follow, in theirs (by score): still
    competition ranking, so ties share the better rank, but a forfeited seat never shares
    a place with a seat that played. Without a forfeited seat the ranks are unchanged.
    Applied to ranks it made already, it gives them back.
    """
    keyed = [(bool(out), rank) for out, rank in zip(forfeited, ranks, strict=True)]
    return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]
