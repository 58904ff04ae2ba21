"""Strength of the example bots: a duplicate league in-process (sdk.local.play_local).

Each deal is played once per rotation of the seats, so every bot plays every seat of the
same cards; the table is random_bot, rules_bot, montecarlo_bot, rules_bot. Prints, per
variant, each bot's mean score and win rate (ties shared), and a Markdown table.

    .venv/bin/python -m benchmarks.strength --deals 12 --decision-ms 1000
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Sequence

from example_bots.montecarlo_bot.bot import MonteCarloBot
from example_bots.random_bot.bot import RandomBot
from example_bots.rules_bot.bot import RulesBot
from sdk.bot import Bot
from sdk.local import play_local

TABLE: Sequence[type[Bot]] = (RandomBot, RulesBot, MonteCarloBot, RulesBot)
VARIANTS = {
    "6nimmt:rounds=1": ("6nimmt", {"rounds": "1"}),
    "6nimmt-pro:rounds=1": ("6nimmt-pro", {"rounds": "1"}),
    "6nimmt-logic:rounds=1": ("6nimmt-logic", {"rounds": "1"}),
    "6nimmt-tactics:rounds=1": ("6nimmt-tactics", {"rounds": "1"}),
    "xnimmt": ("xnimmt", {}),
    "11nimmt": ("11nimmt", {}),
    "hornochsen": ("hornochsen", {}),
}


def duplicate(variant: str, deals: int, decision_ms: int, seed: int) -> dict[str, list[float]]:
    """Per bot name: [total score, wins (shared), games]."""
    preset, options = VARIANTS[variant]
    stats: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    n = len(TABLE)
    for deal in range(deals):
        for shift in range(n):
            bots = [TABLE[(seat + shift) % n] for seat in range(n)]
            result = play_local(preset, bots, seed + deal, options, decision_ms=decision_ms)
            winners = [s for s, r in enumerate(result.ranks) if r == 1]
            for seat, cls in enumerate(bots):
                entry = stats[cls.name]
                entry[0] += result.scores[seat]
                entry[1] += 1 / len(winners) if seat in winners else 0.0
                entry[2] += 1
    return dict(stats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--decision-ms", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS))
    args = parser.parse_args()
    rows = []
    for variant in args.variant or VARIANTS:
        started = time.monotonic()
        stats = duplicate(variant, args.deals, args.decision_ms, args.seed)
        for name, (total, wins, games) in stats.items():
            rows.append((variant, name, total / games, wins / games, int(games)))
            print(
                f"{variant:24} {name:16} mean {total / games:7.2f}  win {wins / games:6.1%}"
                f"  games {int(games)}  ({time.monotonic() - started:.0f} s)",
                flush=True,
            )
    print("\n| variant | bot | mean score | win rate | games |\n|---|---|---:|---:|---:|")
    for variant, name, mean, win, games in rows:
        print(f"| {variant} | {name} | {mean:.2f} | {win:.1%} | {games} |")


if __name__ == "__main__":
    main()
