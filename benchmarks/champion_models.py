"""How well the champion's models of the other players predict a player's cards.

The champion's search plays its options out in simulated games whose other seats it must
model (example_bots/champion_bot/playouts.py): the network's most likely card, a draw from
its policy at a temperature, or the greedy heuristic. Its choices are only as good as
that model of the table (the champion README's "Measured").
This benchmark seats four of one player (``--player``: an example bot by name, ``mc:64``,
or ``FILE.py:CLASS``, a bot kept outside the repository) at ``--games`` one-round 4-seat
games, and compares every card pick that had a choice with each model's, from the same
view:

- per network (``--weights``, the shipped one by default): how often its most likely
  card is the one played, and the mean log-likelihood of the played card under its policy
  at temperatures 0.5, 1, 2 and 3 (smoothed with 3% uniform, so a sure miss is finite;
  a uniform guess scores minus the log of the hand's size, printed beside it);
- the greedy heuristic of the playouts and the rule-based picker
  (:mod:`example_bots.montecarlo_bot.sixnimmt`; the rule-based one reads the other hands
  of one sampled world): how often their card is the one played;
- with ``--search-ms``, the champion bot's own choice, searching with that deadline: how
  often it is the card played (does the search play more like the player than its
  network does?).

    .venv/bin/python -m benchmarks.champion_models --player mc:64 --games 40
    .venv/bin/python -m benchmarks.champion_models --player ../m11/m11_bot.py:M11Bot \\
        --weights example_bots/champion_bot/weights.npz runs/finetune/weights.npz
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from benchmarks.strength import MC64, SUBJECTS, subject_bot
from example_bots.champion_bot.bot import WEIGHTS, ChampionBot
from example_bots.champion_bot.features import Array, encode
from example_bots.champion_bot.net import Net, load, softmax
from example_bots.montecarlo_bot.sixnimmt import PICKERS, Picker
from sdk import (
    Bot,
    DecisionClock,
    DecisionKind,
    MatchInfo,
    Option,
    SixNimmtView,
    View,
    play_local,
)
from sdk.game.sixnimmt import from_view
from sdk.game.sixnimmt.batch import Batch, RandomDraws, determinized_hands

TEMPERATURES = (0.5, 1.0, 2.0, 3.0)
SMOOTHING = 0.03  # the share of a uniform guess mixed into each policy


@dataclass(frozen=True)
class Pick:
    """One card pick with a choice: what the seat saw, could play, and played."""

    view: SixNimmtView
    options: tuple[Option, ...]
    played: int  # the index of the played option

    @cached_property
    def encoded(self) -> tuple[Array, Array]:
        """The network's input for this pick (computed once, for every network)."""
        return encode(self.view, self.options)


def option_index(choice: int | Option, options: Sequence[Option]) -> int:
    """The index in `options` of a bot's answer (an index or one of the options)."""
    return choice if isinstance(choice, int) else list(options).index(choice)


def player_class(name: str) -> type[Bot]:
    """The player by name: an example bot, ``mc:64``, or ``FILE.py:CLASS``."""
    return subject_bot(name, "--player", {**SUBJECTS, "mc:64": MC64})


def recorded_games(player: type[Bot], games: int, seed: int, decision_ms: int) -> list[Pick]:
    """Every card pick with a choice in `games` games of four `player`, each decision's
    deadline `decision_ms` of CPU time (read by the bot; never a timeout fault)."""
    picks: list[Pick] = []

    class Recording(player):  # type: ignore[misc, valid-type]
        def decide(
            self, view: View, options: Sequence[Option], clock: DecisionClock
        ) -> int | Option:
            choice: int | Option = super().decide(view, options, clock)
            if (
                isinstance(view, SixNimmtView)
                and view.header.decision == DecisionKind.PICK_CARD
                and len(options) > 1
            ):
                picks.append(Pick(view, tuple(options), option_index(choice, options)))
            return choice

    for game in range(games):  # no clock faults: the card a bot chose is the card played
        play_local(
            "6nimmt", [Recording() for _ in range(4)], seed + game, {"rounds": "1"},
            decision_ms=decision_ms, timer=time.thread_time,
        )  # fmt: skip
    return picks


def shown(path: Path) -> str:
    """`path` relative to the working folder where it lies inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def log_likelihood(logits: Array, played: int, temperature: float) -> float:
    """The smoothed log-probability of `played` under softmax(logits / temperature)."""
    p = softmax(logits / temperature)
    return math.log((1 - SMOOTHING) * float(p[played]) + SMOOTHING / len(logits))


def picker_card(pick: Pick, picker: Picker, seed: int) -> int:
    """The card `picker` plays from the pick's view, in one world sampled from it."""
    seat = pick.view.header.seat
    state = from_view(pick.view, random.Random(seed))
    generator = np.random.default_rng(seed)
    hands = determinized_hands(state, seat, 1, generator)
    batch = Batch(state, 1, RandomDraws(generator))
    slot = picker(batch, np.arange(1), hands, generator)[0, seat]
    return int(hands[0, seat, slot])


def network_figures(net: Net, picks: Sequence[Pick]) -> tuple[float, list[float]]:
    """The share of picks the network's most likely card predicts, and the mean
    log-likelihood of the played cards at each of :data:`TEMPERATURES`."""
    hits = 0
    sums = [0.0] * len(TEMPERATURES)
    for pick in picks:
        logits = net.logits(*pick.encoded).astype(np.float64)
        hits += int(np.argmax(logits)) == pick.played
        for i, temperature in enumerate(TEMPERATURES):
            sums[i] += log_likelihood(logits, pick.played, temperature)
    return hits / len(picks), [total / len(picks) for total in sums]


def search_share(picks: Sequence[Pick], deadline_ms: int) -> float:
    """The share of `picks` the champion bot's own choice predicts, searching each with a
    deadline of `deadline_ms` of CPU time (its generator seeded by the pick's number)."""
    bot = ChampionBot()
    bot.start_match(
        MatchInfo(
            match_id="models", variant="6nimmt", options={"rounds": "1"}, seat=0, players=4,
            decision_ms=deadline_ms,
        )
    )  # fmt: skip
    hits = 0
    for number, pick in enumerate(picks):
        bot.rng = random.Random(number)
        clock = DecisionClock(deadline_ms, 0, timer=time.thread_time)
        hits += (
            option_index(bot.decide(pick.view, pick.options, clock), pick.options) == pick.played
        )
    return hits / len(picks)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--player",
        default="mc:64",
        metavar="NAME|FILE.py:CLASS",
        help=f"the player whose cards are predicted: mc:64, one of {', '.join(sorted(SUBJECTS))},"
        " or a bot class from a file",
    )
    parser.add_argument("--games", type=int, default=40, help="4-seat one-round games")
    parser.add_argument("--seed", type=int, default=5000, help="the first game's seed")
    parser.add_argument("--decision-ms", type=int, default=1000, help="CPU time a decision")
    parser.add_argument(
        "--weights", type=Path, nargs="+", default=[WEIGHTS], help="networks to compare"
    )
    parser.add_argument(
        "--search-ms",
        type=int,
        default=0,
        help="also the champion bot's own choice, searching with this deadline (CPU time; 0: not)",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.decision_ms < 1 or args.search_ms < 0:
        parser.error("--games and --decision-ms must be at least 1, --search-ms at least 0")
    missing = [str(path) for path in args.weights if not path.is_file()]
    if missing:
        parser.error(f"--weights: no file {missing[0]}")
    try:
        player = player_class(args.player)
    except ValueError as error:
        parser.error(str(error))
    nets = {shown(path): load(path) for path in args.weights}
    started = time.monotonic()
    picks = recorded_games(player, args.games, args.seed, args.decision_ms)
    if not picks:
        parser.error("the games had no card pick with a choice")
    uniform = statistics.fmean(-math.log(len(pick.options)) for pick in picks)
    print(
        f"{args.player}: {len(picks)} card picks with a choice in {args.games} games"
        f" ({time.monotonic() - started:.0f} s); a uniform guess scores {uniform:.3f}",
        flush=True,
    )
    header = "| model | predicts | " + " | ".join(f"log-lik. T={t:g}" for t in TEMPERATURES)
    print(f"\n{header} |\n|---|---:|" + "---:|" * len(TEMPERATURES))
    for name, net in nets.items():
        share, means = network_figures(net, picks)
        figures = " | ".join(f"{mean:.3f}" for mean in means)
        print(f"| network {name} | {share:.1%} | {figures} |")
    for name, picker in PICKERS.items():
        hits = sum(
            pick.options[pick.played].card == picker_card(pick, picker, seed)
            for seed, pick in enumerate(picks)
        )
        print(f"| {name} heuristic | {hits / len(picks):.1%} |" + " |" * len(TEMPERATURES))
    if args.search_ms:
        share = search_share(picks, args.search_ms)
        print(
            f"| champion_bot's search, {args.search_ms} ms | {share:.1%} |"
            + " |" * len(TEMPERATURES)
        )


if __name__ == "__main__":
    main()
