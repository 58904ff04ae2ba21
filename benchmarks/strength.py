"""Strength of the example bots: a duplicate league in-process (sdk.local.play_local).

Each deal is played once per rotation of the seats, so every bot plays every seat of the
same cards (a rotation that seats the bots as an earlier one did is not played again).
The tables (``--table``):

- ``mixed`` (the default): random_bot, rules_bot, montecarlo_bot, rules_bot. Prints, per
  variant, each bot's mean score and win rate (ties shared), a Markdown table, and in
  6 nimmt! the heads ratios of the target (rules / random, Monte Carlo / rules).
- ``mc-vs-rules``: montecarlo_bot against three rules_bots (the issue's target "wins
  clearly more than its fair share against rule-based bots"). Prints the Monte Carlo
  bot's win rate (ties shared: a game won by k seats counts 1/k) with a 95% Wilson
  interval over games, and the mean scores of both bots.
- ``vs-greedy`` and ``vs-mc64``: one bot (``--bot``, montecarlo_bot by default) against
  three of a published baseline (benchmarks/opponents: the published greedy, and
  ``mc:64``), 6 nimmt! family only. Prints the bot's win rate with its Wilson interval,
  its places (the share of games it ranked 1st, 2nd, ...; tied seats share the better
  place), its mean score and the opponents'.
- ``vs-winner``: one bot (``--bot``, champion_bot by default) against three winner_bots
  (issue 33's third target); the same figures.
- ``pairs``: two bots, two seats each, across the table from each other (A, B, A, B;
  champion_bot and winner_bot by default, ``--bot`` and ``--opponent`` choose them), each
  deal in both seatings. Prints the share of games each pair took fewer heads in all than
  the other (ties half) with its Wilson interval: the head-to-head figure of take5bot's
  2v2 ladder (``arena/ladder.py``), which its docs measure M11 with; and each seat's win
  rate, as the one-against-three tables do.
- ``--opponent FILE.py:CLASS`` puts a bot class from a file in the other three seats of
  any of these one-against-three tables, or in the B seats of ``pairs``: a bot kept
  outside the repository (issue 33 measures the champion against a port of take5bot's M11
  this way; the port never enters the repository). ``--bot FILE.py:CLASS`` seats one in
  seat 0 (and 2 of ``pairs``) the same way (a variant of an example bot, say a subclass
  with another class attribute, for an experiment).
- ``learned-vs-random`` and ``learned-vs-rules``: the learned bot (example_bots/learned_bot,
  6 nimmt! family only) against three random or three rule-based bots; the same figures.

The clock (``--clock``): by default each decision gets its deadline in CPU time (the
thread's, ``time.thread_time``: the bots play in-process, one at a time), so a bot thinks
as long on a loaded machine as on a quiet one and the figures do not depend on the load;
``--clock wall`` reads wall time, as a referee does. ``--jobs N`` plays N deals at once in
worker processes (with the CPU clock, more jobs than idle cores only take longer).

The interval treats games as independent; the 4 rotations of one deal share its cards
and are correlated, so it is approximate (somewhat too narrow when the deal decides most
of a game's outcome). Fair share at 4 seats: 25%.

    .venv/bin/python -m benchmarks.strength --deals 12 --decision-ms 1000
    .venv/bin/python -m benchmarks.strength --table mc-vs-rules --deals 10 \\
        --decision-ms 1000 --variant 6nimmt-tactics:rounds=1
    .venv/bin/python -m benchmarks.strength --table vs-mc64 --bot winner_bot \\
        --deals 100 --decision-ms 1000 --variant 6nimmt:rounds=1 --jobs 2
    .venv/bin/python -m benchmarks.strength --table vs-mc64 --bot champion_bot \\
        --deals 100 --decision-ms 1000 --variant 6nimmt:rounds=1 --jobs 2
    .venv/bin/python -m benchmarks.strength --table vs-winner --deals 25 \\
        --decision-ms 1000 --variant 6nimmt:rounds=1 --jobs 2
    .venv/bin/python -m benchmarks.strength --table vs-mc64 --bot champion_bot \\
        --opponent ../m11/m11_bot.py:M11Bot --deals 50 --variant 6nimmt:rounds=1
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.opponents import GreedyBot, mc_bot
from example_bots.champion_bot.bot import ChampionBot
from example_bots.learned_bot.bot import LearnedBot
from example_bots.montecarlo_bot.bot import MonteCarloBot
from example_bots.random_bot.bot import RandomBot
from example_bots.rules_bot.bot import RulesBot
from example_bots.winner_bot.bot import WinnerBot
from sdk.bot import Bot
from sdk.local import play_local
from sdk.stats import wilson

MC64 = mc_bot(64)
TABLES: dict[str, Sequence[type[Bot]]] = {
    "mixed": (RandomBot, RulesBot, MonteCarloBot, RulesBot),
    "mc-vs-rules": (MonteCarloBot, RulesBot, RulesBot, RulesBot),
    "vs-greedy": (MonteCarloBot, GreedyBot, GreedyBot, GreedyBot),
    "vs-mc64": (MonteCarloBot, MC64, MC64, MC64),
    "learned-vs-random": (LearnedBot, RandomBot, RandomBot, RandomBot),
    "learned-vs-rules": (LearnedBot, RulesBot, RulesBot, RulesBot),
    "vs-winner": (ChampionBot, WinnerBot, WinnerBot, WinnerBot),
    "pairs": (ChampionBot, WinnerBot, ChampionBot, WinnerBot),
}
# Tables of one bot (seat 0's) against three others.
SUBJECT_TABLES = (
    "mc-vs-rules",
    "vs-greedy",
    "vs-mc64",
    "vs-winner",
    "learned-vs-random",
    "learned-vs-rules",
)
ONE_AGAINST_THREE = SUBJECT_TABLES
# Tables of two bots, two seats each (A, B, A, B).
PAIR_TABLES = ("pairs",)
# The tables whose bots --bot and --opponent choose, each printed with a summary line.
CHOSEN_BOT_TABLES = (*SUBJECT_TABLES, *PAIR_TABLES)
SUBJECTS: dict[str, type[Bot]] = {
    b.name: b for b in (ChampionBot, WinnerBot, MonteCarloBot, RulesBot, RandomBot)
}
VARIANTS = {
    "6nimmt:rounds=1": ("6nimmt", {"rounds": "1"}),
    "6nimmt-pro:rounds=1": ("6nimmt-pro", {"rounds": "1"}),
    "6nimmt-logic:rounds=1": ("6nimmt-logic", {"rounds": "1"}),
    "6nimmt-tactics:rounds=1": ("6nimmt-tactics", {"rounds": "1"}),
    "xnimmt": ("xnimmt", {}),
    "11nimmt": ("11nimmt", {}),
    "hornochsen": ("hornochsen", {}),
}
TIMERS: dict[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.monotonic}


@dataclass
class BotStats:
    """One bot's totals over the games it played (a bot twice at a table counts twice)."""

    score: float = 0.0
    wins: float = 0.0  # shared: 1/k for a game won by k seats
    games: int = 0
    places: list[int] = field(default_factory=list)  # places[r - 1]: games ranked r
    tables: int = 0  # games it sat at, once however many seats it held
    table_wins: float = 0.0  # games its seats took the fewest heads in all (ties shared)

    def place_shares(self) -> list[float]:
        """The share of games ranked 1st, 2nd, ... (tied seats share the better place)."""
        return [count / self.games for count in self.places] if self.games else []

    def add(self, other: BotStats) -> None:
        """Add `other`'s games to these totals."""
        self.score += other.score
        self.wins += other.wins
        self.games += other.games
        self.tables += other.tables
        self.table_wins += other.table_wins
        self.places += [0] * (len(other.places) - len(self.places))
        for index, count in enumerate(other.places):
            self.places[index] += count

    @property
    def mean(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def play_deal(
    variant: str,
    deal_seed: int,
    decision_ms: int,
    table: Sequence[type[Bot]],
    timer: Callable[[], float] = time.thread_time,
) -> dict[str, BotStats]:
    """One deal played in every distinct rotation of `table` (a rotation that seats the
    same bots as an earlier one is not played again); per bot name its totals."""
    preset, options = VARIANTS[variant]
    stats: dict[str, BotStats] = {}
    n = len(table)
    seatings: list[list[type[Bot]]] = []
    for shift in range(n):
        rotated = [table[(seat + shift) % n] for seat in range(n)]
        if rotated not in seatings:
            seatings.append(rotated)
    for bots in seatings:
        result = play_local(preset, bots, deal_seed, options, decision_ms=decision_ms, timer=timer)
        winners = [s for s, r in enumerate(result.ranks) if r == 1]
        for seat, cls in enumerate(bots):
            entry = stats.setdefault(cls.name, BotStats())
            won = 1 / len(winners) if seat in winners else 0.0
            entry.score += result.scores[seat]
            entry.wins += won
            entry.games += 1
            rank = result.ranks[seat]
            entry.places += [0] * (max(rank, n) - len(entry.places))
            entry.places[rank - 1] += 1
        add_table_outcome(stats, [cls.name for cls in bots], result.scores)
    return stats


def add_table_outcome(
    stats: dict[str, BotStats], names: Sequence[str], scores: Sequence[int]
) -> None:
    """Count one game for each bot at the table: it won the table if its seats' scores
    summed are the lowest of the bots' sums (a tie shared)."""
    summed: dict[str, int] = {}
    for name, score in zip(names, scores, strict=True):
        summed[name] = summed.get(name, 0) + score
    fewest = min(summed.values())
    winners = [name for name, total in summed.items() if total == fewest]
    for name in summed:
        entry = stats.setdefault(name, BotStats())
        entry.tables += 1
        if name in winners:
            entry.table_wins += 1 / len(winners)


def _play_deal_job(
    variant: str,
    deal_seed: int,
    decision_ms: int,
    table: str,
    subject: str | None,
    clock: str,
    opponent: str | None = None,
) -> dict[str, BotStats]:
    """play_deal in a worker process: the table by name (a baseline class made at run
    time does not pickle)."""
    bots = table_for(table, subject, opponent)
    return play_deal(variant, deal_seed, decision_ms, bots, TIMERS[clock])


def duplicate(
    variant: str,
    deals: int,
    decision_ms: int,
    seed: int,
    table: Sequence[type[Bot]] = TABLES["mixed"],
    progress: Callable[[int, dict[str, BotStats]], None] | None = None,
    *,
    timer: Callable[[], float] = time.thread_time,
) -> dict[str, BotStats]:
    """Play `deals` deals (seeds `seed`, `seed` + 1, ...), each in every rotation of
    `table`; per bot name its totals. `progress(deals_done, totals)` is called after each
    deal."""
    stats: dict[str, BotStats] = {}
    for deal in range(deals):
        merge(stats, play_deal(variant, seed + deal, decision_ms, table, timer))
        if progress is not None:
            progress(deal + 1, stats)
    return stats


def duplicate_parallel(
    variant: str,
    deals: int,
    decision_ms: int,
    seed: int,
    table: str,
    subject: str | None,
    jobs: int,
    clock: str = "cpu",
    progress: Callable[[int, dict[str, BotStats]], None] | None = None,
    opponent: str | None = None,
) -> dict[str, BotStats]:
    """:func:`duplicate` with `jobs` deals at once in worker processes (the table and
    the seat-0 bot by name, as ``table_for`` takes them). The totals are the same sums;
    `progress` is called as deals finish, in whatever order they do."""
    stats: dict[str, BotStats] = {}
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=context) as pool:
        futures = [
            pool.submit(
                _play_deal_job, variant, seed + d, decision_ms, table, subject, clock, opponent
            )
            for d in range(deals)
        ]
        for done, future in enumerate(as_completed(futures), start=1):
            merge(stats, future.result())
            if progress is not None:
                progress(done, stats)
    return stats


def merge(totals: dict[str, BotStats], more: dict[str, BotStats]) -> None:
    """Add `more`'s per-bot totals into `totals`."""
    for name, entry in more.items():
        totals.setdefault(name, BotStats()).add(entry)


def heads_ratios(stats: dict[str, BotStats]) -> str:
    """6 nimmt! target figures from the mixed table: rules / random, Monte Carlo / rules."""
    random_, rules, mc = (stats.get(b.name) for b in (RandomBot, RulesBot, MonteCarloBot))
    if not (random_ and rules and mc and random_.mean and rules.mean):
        return ""
    return (
        f"heads ratios: rules / random {rules.mean / random_.mean:.2f} (target <= 0.7), "
        f"Monte Carlo / rules {mc.mean / rules.mean:.2f} (target <= 0.7)"
    )


def subject_summary(variant: str, stats: dict[str, BotStats], table: Sequence[type[Bot]]) -> str:
    """Seat 0's bot against the others: its win rate with its 95% interval against the
    fair share, its places, and the mean scores."""
    subject, other = table[0].name, table[1].name
    bot, rest = stats[subject], stats[other]
    low, high = wilson(bot.wins, bot.games)
    fair = 1 / len(table)
    verdict = "above" if low > fair else "not clearly above"
    places = "/".join(f"{share:.0%}" for share in bot.place_shares())
    return (
        f"{variant:24} {subject} win {bot.win_rate:6.1%}  95% CI [{low:.1%}, {high:.1%}]"
        f"  games {bot.games}  ({verdict} the fair {fair:.0%})  places {places}"
        f"  mean score: {subject} {bot.mean:.2f}, {other} {rest.mean:.2f}"
    )


def mc_summary(
    variant: str,
    stats: dict[str, BotStats],
    seats: int,
    table: Sequence[type[Bot]] = TABLES["mc-vs-rules"],
) -> str:
    """The first bot's win rate with its 95% interval, against the fair share (tables of
    one bot against three others)."""
    return subject_summary(variant, stats, table[:seats])


def pair_summary(variant: str, stats: dict[str, BotStats], table: Sequence[type[Bot]]) -> str:
    """Two bots, two seats each: the share of games each pair took fewer heads in all
    (ties half), with the first bot's 95% interval, and each seat's win rate."""
    first, second = table[0].name, table[1].name
    a, b = stats[first], stats[second]
    share = a.table_wins / a.tables if a.tables else 0.0
    low, high = wilson(a.table_wins, a.tables)
    verdict = "above" if low > 0.5 else "below" if high < 0.5 else "not clearly off"
    return (
        f"{variant:24} {first} pair against {second} pair: {share:6.1%}  95% CI"
        f" [{low:.1%}, {high:.1%}]  games {a.tables}  ({verdict} even)"
        f"  win a seat: {first} {a.win_rate:.1%}, {second} {b.win_rate:.1%}"
        f"  mean score: {first} {a.mean:.2f}, {second} {b.mean:.2f}"
    )


def table_for(name: str, subject: str | None, opponent: str | None = None) -> Sequence[type[Bot]]:
    """The bots of table `name`, with `subject` (a bot name) in seat 0 if given and, if
    `opponent` is given (``FILE.py:CLASS``), that class in the other seats (of a pairs
    table, in the seats of its second bot)."""
    table = TABLES[name]
    if (subject is not None or opponent is not None) and name not in CHOSEN_BOT_TABLES:
        raise ValueError(f"--bot and --opponent go with --table {', '.join(CHOSEN_BOT_TABLES)}")
    first = table[0] if subject is None else subject_bot(subject)
    if name in PAIR_TABLES:
        second = table[1] if opponent is None else bot_from_file(opponent)
        if first.name == second.name:
            raise ValueError(f"--table {name} needs two different bots, not {first.name} twice")
        return (first, second, first, second)
    others = table[1:] if opponent is None else (bot_from_file(opponent),) * (len(table) - 1)
    return (first, *others)


def table_summary(
    name: str, variant: str, stats: dict[str, BotStats], table: Sequence[type[Bot]]
) -> str | None:
    """The summary line of table `name` (None for a table without one)."""
    if name in SUBJECT_TABLES:
        return subject_summary(variant, stats, table)
    if name in PAIR_TABLES:
        return pair_summary(variant, stats, table)
    return None


def subject_bot(
    subject: str, flag: str = "--bot", named: Mapping[str, type[Bot]] = SUBJECTS
) -> type[Bot]:
    """Seat 0's bot (`flag` names the option in an error): a bot by name (one of
    `named`, the example bots by default), or ``FILE.py:CLASS`` (a variant of one for an
    experiment, kept outside the repository)."""
    if subject in named:
        return named[subject]
    if ":" not in subject:
        raise ValueError(f"{flag}: no bot {subject!r}; one of {', '.join(sorted(named))},"
                         " or FILE.py:CLASS")  # fmt: skip
    return bot_from_file(subject, flag)


@functools.cache
def bot_from_file(spec: str, flag: str = "--opponent") -> type[Bot]:
    """The bot class ``CLASS`` of the Python file ``FILE`` named by ``FILE:CLASS`` (a bot
    kept outside the repository, such as a port of a published bot to measure against).
    Loaded once per process: a worker process plays many deals with it."""
    path, _, name = spec.rpartition(":")
    if not path or not name or not Path(path).is_file():
        raise ValueError(f"{flag} wants FILE.py:CLASS, with FILE an existing file: {spec!r}")
    module_spec = importlib.util.spec_from_file_location(f"opponent_{Path(path).stem}", path)
    if module_spec is None or module_spec.loader is None:
        raise ValueError(f"{flag}: {path} is not a Python file")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_spec.name] = module
    module_spec.loader.exec_module(module)
    found = getattr(module, name, None)
    if not (isinstance(found, type) and issubclass(found, Bot)):
        raise ValueError(f"{flag}: {path} has no bot class {name}")
    return found


def load() -> str:
    """The machine's 1, 5 and 15 minute load averages (figures depend on them)."""
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--decision-ms", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS))
    parser.add_argument("--table", choices=sorted(TABLES), default="mixed")
    parser.add_argument(
        "--bot",
        metavar="NAME|FILE.py:CLASS",
        help=f"seat 0's bot (subject tables): one of {', '.join(sorted(SUBJECTS))}, or a bot"
        " class from a file (a variant for an experiment)",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(TIMERS),
        default="cpu",
        help="what a decision's deadline is read in: CPU time (default; load-independent)"
        " or wall time",
    )
    parser.add_argument("--jobs", type=int, default=1, help="deals played at once")
    parser.add_argument(
        "--opponent",
        metavar="FILE.py:CLASS",
        help="the other seats of a subject table: a bot class from a file (kept anywhere)",
    )
    args = parser.parse_args()
    if args.deals < 1 or args.decision_ms < 1 or args.jobs < 1:
        parser.error("--deals, --decision-ms and --jobs must be at least 1")
    try:
        table = table_for(args.table, args.bot, args.opponent)
    except ValueError as error:
        parser.error(str(error))
    if args.table in ("vs-greedy", "vs-mc64", "vs-winner", "pairs") and args.variant is None:
        args.variant = [v for v in VARIANTS if v.startswith("6nimmt")]
    if args.table in ("vs-greedy", "vs-mc64") and not all(
        v.startswith("6nimmt") for v in args.variant
    ):
        parser.error("the baselines play the 6 nimmt! family only")
    rows: list[tuple[str, str, BotStats]] = []
    summaries: list[str] = []
    print(
        f"load average at the start: {load()}; clock: {args.clock} time;"
        f" {args.decision_ms} ms per decision; {args.jobs} job(s)",
        flush=True,
    )
    for variant in args.variant or VARIANTS:
        started = time.monotonic()
        report = None
        if args.table in CHOSEN_BOT_TABLES:

            def report(done: int, totals: dict[str, BotStats], variant: str = variant) -> None:
                summary = table_summary(args.table, variant, totals, table)
                print(f"  after {done} deals: {summary}", flush=True)

        if args.jobs > 1:
            stats = duplicate_parallel(
                variant,
                args.deals,
                args.decision_ms,
                args.seed,
                args.table,
                args.bot,
                args.jobs,
                args.clock,
                report,
                args.opponent,
            )
        else:
            timer = TIMERS[args.clock]
            stats = duplicate(
                variant, args.deals, args.decision_ms, args.seed, table, report, timer=timer
            )
        for name, entry in stats.items():
            rows.append((variant, name, entry))
            print(
                f"{variant:24} {name:16} mean {entry.mean:7.2f}  win {entry.win_rate:6.1%}"
                f"  games {entry.games}  ({time.monotonic() - started:.0f} s)",
                flush=True,
            )
        if (summary := table_summary(args.table, variant, stats, table)) is not None:
            summaries.append(summary)
            print(summaries[-1], flush=True)
        elif variant == "6nimmt:rounds=1" and (ratios := heads_ratios(stats)):
            summaries.append(f"{variant}: {ratios}")
            print(summaries[-1], flush=True)
    print("\n| variant | bot | mean score | win rate | 95% interval | places 1st-4th | games |")
    print("|---|---|---:|---:|---:|---|---:|")
    for variant, name, entry in rows:
        low, high = wilson(entry.wins, entry.games)
        places = "/".join(f"{share:.0%}" for share in entry.place_shares())
        print(
            f"| {variant} | {name} | {entry.mean:.2f} | {entry.win_rate:.1%} |"
            f" {low:.1%} - {high:.1%} | {places} | {entry.games} |"
        )
    for summary in summaries:
        print(summary)
    print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
