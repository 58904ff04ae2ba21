"""Rules for Hornochsen!.

Each step is valued greedily by what it does to our score, with the scoring formula
(green - red + 5 per +5) x 2 per x2, - 10 per special left in hand:
- a card that is a row's 5th collects it: worth the change in our score;
- a card that makes a row 4 cards long hands it to the next player: worth minus what the
  row would give them (plus a little when the row is poison for them);
- a special goes on a row we are about to collect when that helps, or is dumped before the
  end (on the row where it helps an opponent least) rather than cost 10;
- ending the turn is worth 0, so we play on only when it pays.
"""

from __future__ import annotations

from collections.abc import Sequence

from sdk import DecisionKind, HornochsenRow, HornochsenView, Option, OptionKind, Special
from sdk.game import HORNOCHSEN_POINTS

ROW_FULL = 5  # the 5th bull card collects the row
MAX_STEPS = 3
SPECIAL_LEFT_COST = 10
FEED_SHARE = 0.8  # of a row's worth that making it 4 cards long hands to the next player
POISON_SHARE = 0.1  # of a row's negative worth gained by handing it on
FEED_COST = 0.3  # making a row 4 cards long, whatever it holds
IDLE_COST = 0.1  # any other bull card: one card fewer to choose from later
HOLD_COST = 1.0  # a special played early, away from a row we collect now
DUMP_ROW_COST = 0.5  # per bull card of the row a special is dumped on
DUMP_HAND = 2  # specials are dumped once this few bull cards (or fewer) are left


def target_row(card: int, rows: Sequence[HornochsenRow]) -> int:
    """Where a bull card goes: the row with the highest end below it, else the highest end."""
    below = [i for i, r in enumerate(rows) if r.cards[-1] < card]
    pool = below or range(len(rows))
    return max(pool, key=lambda i: rows[i].cards[-1])


def pile_value(points: int, plus5: int, x2: int) -> int:
    return (points + 5 * plus5) * (1 << x2)


class Scorer:
    """Our score before and after collecting rows."""

    def __init__(self, view: HornochsenView) -> None:
        self.points = sum(HORNOCHSEN_POINTS[c] for c in view.own_pile)
        self.plus5 = sum(1 for s in view.own_pile_specials if s == Special.PLUS5)
        self.x2 = sum(1 for s in view.own_pile_specials if s == Special.X2)

    def now(self) -> int:
        return pile_value(self.points, self.plus5, self.x2)

    def gain(
        self, row: HornochsenRow, extra: Sequence[int] = (), plus5: int = 0, x2: int = 0
    ) -> int:
        """How much collecting `row` (with `extra` cards and specials added) changes our score."""
        points = self.points + sum(HORNOCHSEN_POINTS[c] for c in (*row.cards, *extra))
        after = pile_value(points, self.plus5 + row.plus5 + plus5, self.x2 + row.x2 + x2)
        return after - self.now()


def row_worth(row: HornochsenRow, extra: Sequence[int] = ()) -> int:
    """What a row is worth to a collector with an otherwise neutral pile."""
    return pile_value(sum(HORNOCHSEN_POINTS[c] for c in (*row.cards, *extra)), row.plus5, row.x2)


def play_value(card: int, view: HornochsenView, scorer: Scorer) -> float:
    row = view.rows[target_row(card, view.rows)]
    if len(row.cards) + 1 == ROW_FULL:
        return float(scorer.gain(row, (card,)))
    if len(row.cards) + 2 == ROW_FULL:
        worth = row_worth(row, (card,))
        return -max(worth, 0) * FEED_SHARE + max(-worth, 0) * POISON_SHARE - FEED_COST
    return -IDLE_COST


def collectable_now(view: HornochsenView, row_index: int) -> int | None:
    """A hand card that would collect `row_index` right now, if any."""
    row = view.rows[row_index]
    if len(row.cards) + 1 != ROW_FULL:
        return None
    for card in view.hand:
        if target_row(card, view.rows) == row_index:
            return card
    return None


def special_value(option: Option, view: HornochsenView, scorer: Scorer) -> float:
    row = view.rows[option.row]
    is_plus5 = option.card == Special.PLUS5
    steps_left = MAX_STEPS - view.steps_this_turn
    card = collectable_now(view, option.row)
    if card is not None and steps_left >= 2:
        with_special = scorer.gain(row, (card,), plus5=int(is_plus5), x2=int(not is_plus5))
        return float(with_special - scorer.gain(row, (card,)))
    if len(view.hand) > DUMP_HAND:
        return -HOLD_COST  # keep it for a better moment
    # Dump it before it costs 10, where it helps the next collector least.
    worth = row_worth(row)
    harm = 5.0 if is_plus5 else float(worth)
    return SPECIAL_LEFT_COST - harm - DUMP_ROW_COST * len(row.cards)


def step_values(view: HornochsenView, options: Sequence[Option]) -> list[float]:
    """The rule-based value of each option of a Hornochsen! step (higher is better)."""
    scorer = Scorer(view)

    def value(option: Option) -> float:
        if option.kind == OptionKind.END_TURN:
            return 0.0
        if option.kind == OptionKind.SPECIAL:
            return special_value(option, view, scorer)
        return play_value(option.card, view, scorer)

    return [value(o) for o in options]


def ranked(view: HornochsenView, options: Sequence[Option]) -> list[tuple[Option, float]]:
    """The options with their values from the rule-based favourite down (equal values
    keep their order); every value is 0 outside a playing step."""
    if view.header.decision != DecisionKind.PLAY_STEP:
        return [(o, 0.0) for o in options]
    pairs = zip(options, step_values(view, options), strict=True)
    return sorted(pairs, key=lambda pair: pair[1], reverse=True)


def choose(view: HornochsenView, options: Sequence[Option]) -> Option:
    """The rule-based choice for a Hornochsen! step."""
    return ranked(view, options)[0][0]
