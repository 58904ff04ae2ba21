"""Strength of the example bots: a duplicate league in-process (sdk.local.play_local).

Each deal is played once per rotation of the seats, so every bot plays every seat of the
same cards. Two tables (``--table``):

- ``mixed`` (the default): random_bot, rules_bot, montecarlo_bot, rules_bot. Prints, per
  variant, each bot's mean score and win rate (ties shared), a Markdown table, and in
  6 nimmt! the heads ratios of the target (rules / random, Monte Carlo / rules).
- ``mc-vs-rules``: montecarlo_bot against three rules_bots (the issue's target "wins
  clearly more than its fair share against rule-based bots"). Prints the Monte Carlo
  bot's win rate (ties shared: a game won by k seats counts 1/k) with a 95% Wilson
  interval over games, and the mean scores of both bots.
- ``learned-vs-random`` and ``learned-vs-rules``: the learned bot (example_bots/learned_bot,
  6 nimmt! family only) against three random or three rule-based bots; the same figures.

The interval treats games as independent; the 4 rotations of one deal share its cards
and are correlated, so it is approximate (somewhat too narrow when the deal decides most
of a game's outcome). Fair share at 4 seats: 25%.

    .venv/bin/python -m benchmarks.strength --deals 12 --decision-ms 1000
    .venv/bin/python -m benchmarks.strength --table mc-vs-rules --deals 10 \\
        --decision-ms 1000 --variant 6nimmt-tactics:rounds=1
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from example_bots.learned_bot.bot import LearnedBot
from example_bots.montecarlo_bot.bot import MonteCarloBot
from example_bots.random_bot.bot import RandomBot
from example_bots.rules_bot.bot import RulesBot
from sdk.bot import Bot
from sdk.local import play_local

TABLES: dict[str, Sequence[type[Bot]]] = {
    "mixed": (RandomBot, RulesBot, MonteCarloBot, RulesBot),
    "mc-vs-rules": (MonteCarloBot, RulesBot, RulesBot, RulesBot),
    "learned-vs-random": (LearnedBot, RandomBot, RandomBot, RandomBot),
    "learned-vs-rules": (LearnedBot, RulesBot, RulesBot, RulesBot),
}
ONE_AGAINST_THREE = ("mc-vs-rules", "learned-vs-random", "learned-vs-rules")
VARIANTS = {
    "6nimmt:rounds=1": ("6nimmt", {"rounds": "1"}),
    "6nimmt-pro:rounds=1": ("6nimmt-pro", {"rounds": "1"}),
    "6nimmt-logic:rounds=1": ("6nimmt-logic", {"rounds": "1"}),
    "6nimmt-tactics:rounds=1": ("6nimmt-tactics", {"rounds": "1"}),
    "xnimmt": ("xnimmt", {}),
    "11nimmt": ("11nimmt", {}),
    "hornochsen": ("hornochsen", {}),
}
Z95 = 1.959964


@dataclass
class BotStats:
    """One bot's totals over the games it played (a bot twice at a table counts twice)."""

    score: float = 0.0
    wins: float = 0.0  # shared: 1/k for a game won by k seats
    games: int = 0

    @property
    def mean(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (fractional successes allowed)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def duplicate(
    variant: str,
    deals: int,
    decision_ms: int,
    seed: int,
    table: Sequence[type[Bot]] = TABLES["mixed"],
) -> dict[str, BotStats]:
    """Play `deals` deals, each in every rotation of `table`; per bot name its totals."""
    preset, options = VARIANTS[variant]
    stats: dict[str, BotStats] = {}
    n = len(table)
    for deal in range(deals):
        for shift in range(n):
            bots = [table[(seat + shift) % n] for seat in range(n)]
            result = play_local(preset, bots, seed + deal, options, decision_ms=decision_ms)
            winners = [s for s, r in enumerate(result.ranks) if r == 1]
            for seat, cls in enumerate(bots):
                entry = stats.setdefault(cls.name, BotStats())
                won = 1 / len(winners) if seat in winners else 0.0
                entry.score += result.scores[seat]
                entry.wins += won
                entry.games += 1
    return stats


def heads_ratios(stats: dict[str, BotStats]) -> str:
    """6 nimmt! target figures from the mixed table: rules / random, Monte Carlo / rules."""
    random_, rules, mc = (stats.get(b.name) for b in (RandomBot, RulesBot, MonteCarloBot))
    if not (random_ and rules and mc and random_.mean and rules.mean):
        return ""
    return (
        f"heads ratios: rules / random {rules.mean / random_.mean:.2f} (target <= 0.7), "
        f"Monte Carlo / rules {mc.mean / rules.mean:.2f} (target <= 0.7)"
    )


def mc_summary(
    variant: str,
    stats: dict[str, BotStats],
    seats: int,
    table: Sequence[type[Bot]] = TABLES["mc-vs-rules"],
) -> str:
    """The first bot's win rate with its 95% interval, against the fair share (tables of
    one bot against three others: the Monte Carlo or the learned bot)."""
    bot, other = stats[table[0].name], stats[table[1].name]
    low, high = wilson(bot.wins, bot.games)
    fair = 1 / seats
    verdict = "above" if low > fair else "not clearly above"
    return (
        f"{variant:24} {table[0].name} win {bot.win_rate:6.1%}  95% CI [{low:.1%}, {high:.1%}]"
        f"  games {bot.games}  ({verdict} the fair {fair:.0%})  mean score: {table[0].name}"
        f" {bot.mean:.2f}, {table[1].name} {other.mean:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--decision-ms", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS))
    parser.add_argument("--table", choices=sorted(TABLES), default="mixed")
    args = parser.parse_args()
    if args.deals < 1 or args.decision_ms < 1:
        parser.error("--deals and --decision-ms must be at least 1")
    table = TABLES[args.table]
    rows: list[tuple[str, str, BotStats]] = []
    summaries: list[str] = []
    for variant in args.variant or VARIANTS:
        started = time.monotonic()
        stats = duplicate(variant, args.deals, args.decision_ms, args.seed, table)
        for name, entry in stats.items():
            rows.append((variant, name, entry))
            print(
                f"{variant:24} {name:16} mean {entry.mean:7.2f}  win {entry.win_rate:6.1%}"
                f"  games {entry.games}  ({time.monotonic() - started:.0f} s)",
                flush=True,
            )
        if args.table in ONE_AGAINST_THREE:
            summaries.append(mc_summary(variant, stats, len(table), table))
            print(summaries[-1], flush=True)
        elif variant == "6nimmt:rounds=1" and (ratios := heads_ratios(stats)):
            summaries.append(f"{variant}: {ratios}")
            print(summaries[-1], flush=True)
    print("\n| variant | bot | mean score | win rate | games |\n|---|---|---:|---:|---:|")
    for variant, name, entry in rows:
        print(f"| {variant} | {name} | {entry.mean:.2f} | {entry.win_rate:.1%} | {entry.games} |")
    for summary in summaries:
        print(summary)


if __name__ == "__main__":
    main()
