"""What every family's codec shares: the named observation layout and the action-space
machinery (the fixed action of each option, the mask, the way back from an action).

The families' codecs are in :mod:`sdk.envs.family_codecs`; :mod:`sdk.envs.encoding`
(docs/rl.md) is the module to import.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:  # numpy is an extra: the core install does without it
    raise ImportError("sdk.envs.encoding needs numpy: pip install 'bullring[rl]'") from missing

from sdk.game.core import DecisionKind, EventKind, Option, RulesError
from sdk.game.views import View

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

SCORE_BOUND = 100_000.0  # |score| never gets near this (Hornochsen!'s x2 cards multiply)


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


def unknown_option(option: Option, family: str) -> RulesError:
    """The error for an option that has no action in `family`'s action space."""
    return RulesError(f"{option.describe()} has no action in {family}'s action space")


def no_action(action: int, codec: FamilyCodec) -> RulesError:
    """The error for an action number outside `codec`'s action space."""
    return RulesError(f"{codec.family}'s actions are 0..{codec.action_size - 1}, not {action}")
