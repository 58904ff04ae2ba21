"""The README's league strength table, from the store of a league run.

    .venv/bin/bullring league run leagues/strength.toml
    .venv/bin/python -m benchmarks.strength_table strength/league.sqlite

Prints one Markdown row per variant: the matches played and, per bot, its mean score
(6 nimmt! family, X nimmt!, 11 nimmt!: bull heads, fewer is better; Hornochsen!: points,
more is better) and its win rate (a first place shared by k bots counts 1/k).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.league.store import LeagueStore, Standing, StoreError


def bot_name(standing: Standing) -> str:
    return standing.name or standing.bot


def markdown(store: LeagueStore) -> str:
    """The table: a row per variant, a column pair (mean score, win rate) per bot, the
    bots in the order they were registered (the league file's)."""
    tables = {v["id"]: store.standings(v["id"]) for v in store.variants()}
    played = {bot_name(s) for rows in tables.values() for s in rows}
    registered = [b.spec.name or b.spec.key for b in store.bots()]  # the league file's order
    bots = [b for b in dict.fromkeys(registered) if b in played]
    bots += sorted(played - set(bots))
    head = ["variant", "matches"] + [f"{b} {what}" for b in bots for what in ("mean", "wins")]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for variant, rows in tables.items():
        by_bot = {bot_name(s): s for s in rows}
        matches = max((s.matches for s in rows), default=0)
        cells = [variant, str(matches)]
        for bot in bots:
            s = by_bot.get(bot)
            if s is None or not s.matches:
                cells += ["-", "-"]
            else:
                cells += [f"{s.mean_score:.2f}", f"{s.win_share:.1%}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path, help="the league's store (.sqlite)")
    args = parser.parse_args()
    try:
        with LeagueStore.open_readonly(args.store) as store:
            print(markdown(store))
    except StoreError as error:
        sys.exit(f"error: {error}")


if __name__ == "__main__":
    main()
