"""A short rules summary of each game family, for the site's rules page (rules.html) and
each variant's standings page. The full rules are docs/rules.md in the repository."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RulesSummary:
    """One family's rules in a few lines."""

    family: str
    title: str
    lines: tuple[str, ...]


SUMMARIES: tuple[RulesSummary, ...] = (
    RulesSummary(
        "6nimmt",
        "6 nimmt! (and its Tactics, Logic and Professional variants)",
        (
            "Cards 1 to 104; each card carries 1, 2, 3, 5 or 7 bull heads (55 has 7, other "
            "multiples of 11 have 5, of 10 have 3, cards ending in 5 have 2).",
            "Each round, 10 cards to each player and 4 cards start 4 rows. Every turn all "
            "players pick a card face down at once; the cards are revealed and placed in "
            "ascending order, each on the row whose last card is the highest below it.",
            "A row's 6th card takes its 5 cards: their heads are penalty points. A card "
            "below every row takes a row of its player's choice.",
            "Fewest heads wins. Tactics uses only 10 cards per player plus 4; Logic drafts "
            "the cards face up; Professional also places cards at a row's left end.",
        ),
    ),
    RulesSummary(
        "xnimmt",
        "X nimmt!",
        (
            "Cards 1 to 100, heads as in 6 nimmt!. Three rows that take at 3, 4 and 5 cards.",
            "Turns as in 6 nimmt!; of the cards a player takes, one goes to their X row (face "
            "up), the others back to their hand. A lower card moves the X row face down "
            "onto the X pile.",
            "Score: heads in hand count once, heads in the X pile twice, the X row nothing. "
            "Two rounds; fewest points wins.",
        ),
    ),
    RulesSummary(
        "11nimmt",
        "11 nimmt!",
        (
            "Cards 1 to 100, heads as in 6 nimmt!. Only the top card of each pile shows.",
            "On a turn a player plays a card at most 10 above a pile's top card, or takes a "
            "whole pile into their hand. Taking 3 or more cards earns a bull card; each bull "
            "card lets a player play on one more pile in a turn.",
            "A round ends when a hand is empty; the heads left in hand are minus points. As "
            "many rounds as players; fewest points wins.",
        ),
    ),
    RulesSummary(
        "hornochsen",
        "Hornochsen!",
        (
            "Cards 1 to 98 with green heads (plus points) or red heads (minus points), and "
            "x2 and +5 special cards (one of each per player).",
            "Rows lie in a circle. A turn plays 1 to 3 cards; the player who lays a row's "
            "5th card collects the row, specials included.",
            "Score: (green heads - red heads + 5 per +5) doubled per x2, minus 10 per "
            "special left in hand. Highest score wins.",
        ),
    ),
)

BY_FAMILY = {s.family: s for s in SUMMARIES}
