"""The 6 nimmt! family's table and deal: its constants and shared options, the phases of a
round, the resolved variant (:class:`Rules`) and the shuffled deck of a round."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from sdk.game.cards import HEADS
from sdk.game.core import Option, OptionKind, Side
from sdk.game.engine.dealing import seeded_shuffle
from sdk.game.family import Catalog, OptionSpec, Preset

_HEAD = HEADS.__getitem__

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
        """Rules from a preset name and already resolved options (made once per variant,
        options and player count: rules are immutable)."""
        key = (variant, tuple(options.items()), players)
        rules = _RULES.get(key)
        if rules is None:
            rounds = options.get("rounds", "")
            rules = cls(
                variant=variant,
                options=MappingProxyType(dict(options)),
                players=players,
                highest=10 * players + 4 if options.get("deck") == "tactics" else FULL_DECK,
                draft=options.get("deal") == "draft",
                professional=options.get("placement") == "both",
                rounds=int(rounds) if rounds else 0,
                end_at=66 if options.get("end") == "reach66" else 67,
            )
            if len(_RULES) < 10_000:
                _RULES[key] = rules
        return rules


_RULES: dict[tuple[str, tuple[tuple[str, str], ...], int], Rules] = {}


def deal_order(seed: int, round_number: int, highest: int, unordered: int = 0) -> list[int]:
    """The shuffled deck of a round: seat i gets cards [10i, 10i+10), the next 4 start rows.

    Derived from (seed, round) alone, so a state needs no random-generator state. The order
    is ``random.Random(f"6nimmt:{seed}:{round}").shuffle``'s (see sdk.game.engine.dealing), except
    that the first `unordered` cards may be in another order (the same cards): a deal that
    sorts them skips the shuffle's steps that only reorder them.
    """
    deck = list(range(1, highest + 1))
    seeded_shuffle(f"6nimmt:{seed}:{round_number}", deck, unordered)
    return deck


def heads_of(cards: Sequence[int]) -> int:
    """Total bull heads of some cards."""
    return sum(map(_HEAD, cards))


def nearest_places(rows: Sequence[Sequence[int]], card: int) -> tuple[Option, ...]:
    """Professional: the nearest places for `card` (0, 1 or 2 of them), canonical order."""
    best_distance = 1 << 30
    places: tuple[Option, ...] = ()
    for r, row in enumerate(rows):
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


CATALOG = Catalog(
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
)
"""The 6 nimmt! variants: their options and presets (the family: ``sixnimmt.FAMILY``)."""
