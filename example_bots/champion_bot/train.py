"""Train the champion's network by expert iteration (README.md beside this file).

Each iteration:

1. **Self-play**: `games` games of ``6nimmt:rounds=1`` (player counts drawn from
   `players`), every decision of every seat searched (:mod:`.search`: `visits` visits of
   `search_games` playouts each) with the current network's policy as the prior (Dirichlet
   noise mixed in). The first `explore_moves` decisions of each seat sample the visit
   distribution; later ones play the search's choice. Each searched decision is a sample:
   the view's features, the search's visits as the policy target, and the seat's final
   margin over the table as the value target.
2. **Training**: `train_steps` Adam steps on batches drawn from the samples of the last
   `window` iterations.
3. **Evaluation** (every `eval_every` iterations): the network's raw policy (no search)
   at a 4-seat table against three of each fixed opponent, `eval_deals` duplicate deals
   in every rotation (:func:`sdk.play_local`); its win share with a Wilson 95% interval.
4. **Records**, in ``--out``: ``checkpoint.npz`` (everything a resumed run needs),
   ``weights.npz`` (the network in the bot's format, with how it was made),
   ``weights-NNNN.npz`` (each iteration's), ``metrics.jsonl``, ``curve.png``; every file
   written to a temporary name and renamed.

Every random draw comes from the seed and the iteration (and the game's index), so a run
stopped after any iteration and resumed with ``--resume`` ends exactly as one that never
stopped. ``--minutes`` is a budget: an iteration starts only when the time left is at
least what the last one took. Ctrl-C or SIGTERM stops at once (the self-play workers
with it); the checkpoint keeps the last whole iteration.

    nice .venv/bin/python -m example_bots.champion_bot.train --out runs/champion --seed 1 \\
        --iterations 200 --minutes 170 --jobs 2
    nice .venv/bin/python -m example_bots.champion_bot.train --out runs/champion --resume \\
        --iterations 400 --minutes 170 --jobs 2

``--playouts net`` makes the search's playouts play like the current network
(:mod:`.playouts`) instead of the greedy heuristic, so the labels come from a search that
models every player as the network; ``--start-from FILE`` starts from a weights file (of
the same layer sizes) instead of a fresh network: a new run that goes on from another's
weights, with its own seed, settings and records.

``--searcher race`` labels card picks with the bot's race (:func:`.search.race`:
`race_rounds` rounds, the first of `search_games` deals per option) instead of the PUCT
search's visits. Its target is the softmax of the options' mean margins over
`q_temperature` heads: an option a head behind the best gets e^(-1/q_temperature) of
its weight, options the race could not tell apart share it. The exploring decisions
sample that target. Row choices are labelled by the PUCT search either way.

``--others rules_bot mc start --others-share 0.5`` seats other players at the self-play
tables (:mod:`.others`): in each game one seat is the network's and every other seat is,
with that chance, one of the named players (the rule-based bot, an ``mc:64``-style flat
Monte Carlo search, or the raw policy of the ``--start-from`` weights). Their decisions
are not searched and give no samples; the network's seats learn from tables like the ones
it will meet, not only from tables of itself.

numpy only; CPU; ``--jobs`` worker processes for self-play.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import os
import random
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from example_bots.champion_bot.bot import ChampionBot
from example_bots.champion_bot.curve import draw
from example_bots.champion_bot.features import MAX_OPTIONS, OPTION_SIZE, STATE_SIZE, Array, encode
from example_bots.champion_bot.net import (
    Batch,
    Net,
    initial,
    load,
    loss_and_gradients,
    save,
    write_npz,
)
from example_bots.champion_bot.others import Player, other_player, other_problem, seat_players
from example_bots.champion_bot.playouts import playout_policy
from example_bots.champion_bot.run_folder import (
    CHECKPOINT,
    Refused,
    Terminated,
    add_settings,
    checkpoint_record,
    command_line,
    given_settings,
    open_run,
    sigterm_as_interrupt,
    write_metrics,
)
from example_bots.champion_bot.search import race, search
from example_bots.random_bot.bot import RandomBot
from example_bots.rules_bot.bot import RulesBot
from sdk import Bot, DecisionKind, SixNimmtView, new_game, play_local
from sdk.lifeline import die_with_parent
from sdk.stats import wilson

VARIANT = "6nimmt"
OPTIONS = {"rounds": "1"}
OPPONENTS: dict[str, type[Bot]] = {"rules_bot": RulesBot, "random_bot": RandomBot}
EVAL_SEATS = 4
PLAYOUTS = ("greedy", "rules", "net")
SEARCHERS = ("puct", "race")
BLAS_THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@dataclass(frozen=True)
class Config:
    """Everything that decides what a run computes (stored in its checkpoint)."""

    seed: int = 1
    games: int = 32  # self-play games per iteration
    players: tuple[int, ...] = (2, 3, 4, 4, 4, 5, 6, 7, 8, 9, 10)  # drawn per game
    search_games: int = 32  # playouts per visit
    playouts: str = "greedy"  # every seat's policy in the playouts: greedy, rules or net
    start_from: str = ""  # a weights file (the bot's format) to start from; "": fresh
    visits: int = 30  # visits per searched decision
    searcher: str = "puct"  # card picks' labels: the PUCT search's visits, or the race's means
    race_rounds: int = 8  # the race's rounds per decision (searcher "race")
    q_temperature: float = 0.5  # heads: the race's target is softmax(mean margin / this)
    others: tuple[str, ...] = ()  # other players a self-play seat may get (others.OTHERS)
    others_share: float = 0.0  # each seat but one: the chance it is an other player
    noise: float = 0.25  # share of Dirichlet noise in the self-play prior
    dirichlet: float = 0.5
    explore_moves: int = 3  # per seat and game: decisions played by sampling the visits
    window: int = 5  # iterations of samples trained on
    train_steps: int = 200
    batch_size: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    value_weight: float = 0.5
    policy_hidden: tuple[int, ...] = (128, 64)
    value_hidden: tuple[int, ...] = (64,)
    eval_every: int = 1
    eval_deals: int = 100
    eval_opponents: tuple[str, ...] = ("rules_bot",)
    eval_seed: int = 1_000_000


Data = dict[str, npt.NDArray[Any]]  # state, options, mask, target, value


def empty_data() -> Data:
    return {
        "state": np.zeros((0, STATE_SIZE)),
        "options": np.zeros((0, MAX_OPTIONS, OPTION_SIZE)),
        "mask": np.zeros((0, MAX_OPTIONS), dtype=bool),
        "target": np.zeros((0, MAX_OPTIONS)),
        "value": np.zeros(0),
    }


def concat(parts: Sequence[Data]) -> Data:
    if not parts:
        return empty_data()
    return {key: np.concatenate([p[key] for p in parts]) for key in empty_data()}


def search_target(visits: Array) -> Array:
    """The policy target from a search's visits: every option's first visit is forced
    (the search tries each once), so it is taken off before normalising."""
    extra = np.maximum(visits - 1, 0)
    counts = extra if extra.sum() > 0 else visits
    return np.asarray(counts / counts.sum())


def race_target(q: Array, temperature: float) -> Array:
    """The policy target from a race's mean margins `q` (heads): softmax(q / temperature)."""
    scaled = (q - q.max()) / temperature
    weights = np.exp(scaled)
    return np.asarray(weights / weights.sum())


def self_play_game(net: Net, config: Config, game_seed: int) -> Data:
    """One self-play game (see the module's docstring); its samples."""
    rng = random.Random(game_seed)
    generator = np.random.default_rng(game_seed)
    players = config.players[rng.randrange(len(config.players))]
    state = new_game(VARIANT, players, game_seed, OPTIONS)
    # Drawn only for a run with other players, so a run without draws as it always did.
    seated = (
        seat_players(players, config.others, config.others_share, rng)
        if config.others
        else [""] * players
    )
    others: dict[int, Player] = {
        seat: other_player(name, config.start_from) for seat, name in enumerate(seated) if name
    }
    states: list[Array] = []
    rows: list[Array] = []
    targets: list[Array] = []
    seats: list[int] = []
    moves = [0] * players
    while not state.is_terminal():
        for seat in state.pending():
            options = state.legal_options(seat)
            if len(options) == 1:
                state.apply(seat, options[0])
                continue
            view = state.view(seat)
            assert isinstance(view, SixNimmtView)
            if seat in others:
                state.apply(seat, options[others[seat](view, options, rng)])
                continue
            features, option_rows = encode(view, options)
            prior = net.policy(features, option_rows)
            if config.noise > 0:
                noise = generator.dirichlet([config.dirichlet] * len(options))
                prior = (1 - config.noise) * prior + config.noise * noise
            policy = playout_policy(config.playouts, net, view)
            if config.searcher == "race" and view.header.decision == DecisionKind.PICK_CARD:
                result = race(
                    view,
                    options,
                    prior,
                    rng,
                    deals=config.search_games,
                    rounds=config.race_rounds,
                    policy=policy,
                )
                target = race_target(result.q, config.q_temperature)
                explore = target
            else:
                result = search(
                    view,
                    options,
                    prior,
                    rng,
                    games=config.search_games,
                    visits=config.visits,
                    policy=policy,
                )
                target = search_target(result.visits)
                explore = result.policy()
            states.append(features)
            rows.append(option_rows)
            targets.append(target)
            seats.append(seat)
            if moves[seat] < config.explore_moves:
                choice = int(generator.choice(len(options), p=explore))
            else:
                choice = result.best
            moves[seat] += 1
            state.apply(seat, options[choice])
    scores = state.scores()
    total = sum(scores)
    data = empty_data()
    count = len(states)
    data["state"] = np.array(states).reshape(count, STATE_SIZE)
    data["options"] = np.zeros((count, MAX_OPTIONS, OPTION_SIZE))
    data["mask"] = np.zeros((count, MAX_OPTIONS), dtype=bool)
    data["target"] = np.zeros((count, MAX_OPTIONS))
    for i, (option_rows, target) in enumerate(zip(rows, targets, strict=True)):
        m = len(option_rows)
        data["options"][i, :m] = option_rows
        data["mask"][i, :m] = True
        data["target"][i, :m] = target
    data["value"] = np.array(
        [((total - scores[s]) / (players - 1) - scores[s]) / 10 for s in seats], dtype=np.float64
    )
    return data


def _self_play_job(params: dict[str, Array], sizes: tuple[Any, Any], config: Config,
                   game_seed: int) -> Data:  # fmt: skip
    """self_play_game in a worker process."""
    return self_play_game(Net(params, sizes[0], sizes[1]), config, game_seed)


def _worker_started() -> None:
    """A self-play worker: Ctrl-C is the parent's to handle, and the worker dies with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """Processes started inside get one BLAS thread each, as the referee gives bots:
    ``--jobs`` is the run's parallelism, and BLAS threads on top of it only fight over the
    cores (the network's playouts slowed 2.4 times so). A setting already in the
    environment is kept."""
    added = [name for name in BLAS_THREADS if name not in os.environ]
    os.environ.update(dict.fromkeys(added, "1"))
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


def game_seeds(config: Config, iteration: int) -> list[int]:
    sequence = np.random.SeedSequence([config.seed, iteration, 0])
    return [int(s) for s in sequence.generate_state(config.games, dtype=np.uint32)]


def self_play(net: Net, config: Config, iteration: int, jobs: int, log: Any) -> Data:
    """This iteration's games, in game order whatever `jobs` is."""
    seeds = game_seeds(config, iteration)
    parts: list[Data] = []
    every = max(1, config.games // 4)
    if jobs <= 1:
        for done, seed in enumerate(seeds, start=1):
            parts.append(self_play_game(net, config, seed))
            if done % every == 0 and done < len(seeds):
                log(f"  self-play {done}/{len(seeds)} games")
        return concat(parts)
    sizes = (net.policy_sizes, net.value_sizes)
    context = multiprocessing.get_context("spawn")
    # Leaving the block terminates the workers, so an interrupt (Ctrl-C, SIGTERM) stops
    # at once instead of waiting for the games already handed out.
    with one_blas_thread():
        pool = context.Pool(jobs, initializer=_worker_started)
    with pool:
        pending = [pool.apply_async(_self_play_job, (net.params, sizes, config, s)) for s in seeds]
        for done, result in enumerate(pending, start=1):
            parts.append(result.get())
            if done % every == 0 and done < len(seeds):
                log(f"  self-play {done}/{len(seeds)} games")
    return concat(parts)


@dataclass
class Adam:
    """Adam's moments and step count."""

    m: dict[str, Array]
    v: dict[str, Array]
    steps: int = 0

    @classmethod
    def zeros(cls, net: Net) -> Adam:
        return cls(
            {k: np.zeros_like(p) for k, p in net.params.items()},
            {k: np.zeros_like(p) for k, p in net.params.items()},
        )

    def arrays(self, net: Net) -> dict[str, Array]:
        """`net`'s parameters and these moments, named for a checkpoint file."""
        arrays: dict[str, Array] = {}
        for key, value in net.params.items():
            arrays[f"net/{key}"] = value
            arrays[f"adam_m/{key}"] = self.m[key]
            arrays[f"adam_v/{key}"] = self.v[key]
        return arrays

    @classmethod
    def restore(cls, arrays: dict[str, Array], record: dict[str, Any]) -> tuple[Net, Adam]:
        """The network and the optimiser a checkpoint holds (:meth:`arrays`, and its
        record's ``policy_sizes``, ``value_sizes`` and ``adam_steps``)."""
        params = {k[4:]: v for k, v in arrays.items() if k.startswith("net/")}
        net = Net(params, tuple(record["policy_sizes"]), tuple(record["value_sizes"]))
        moments_m = {k: arrays[f"adam_m/{k}"] for k in params}
        moments_v = {k: arrays[f"adam_v/{k}"] for k in params}
        return net, cls(moments_m, moments_v, record["adam_steps"])

    def step(self, net: Net, grads: dict[str, Array], *, lr: float, weight_decay: float) -> None:
        """One step on `net`'s parameters, in place."""
        self.steps += 1
        beta1, beta2 = 0.9, 0.999
        for key, param in net.params.items():
            g = grads[key] + weight_decay * param
            self.m[key] = beta1 * self.m[key] + (1 - beta1) * g
            self.v[key] = beta2 * self.v[key] + (1 - beta2) * g * g
            m_hat = self.m[key] / (1 - beta1**self.steps)
            v_hat = self.v[key] / (1 - beta2**self.steps)
            param -= lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def train(net: Net, adam: Adam, data: Data, config: Config, iteration: int) -> dict[str, float]:
    """`train_steps` steps on batches of `data`; the mean losses over them."""
    n = len(data["value"])
    totals = {"policy": 0.0, "value": 0.0, "entropy": 0.0}
    if n == 0 or config.train_steps <= 0:
        return totals
    generator = np.random.default_rng(np.random.SeedSequence([config.seed, iteration, 1]))
    for _ in range(config.train_steps):
        index = generator.integers(0, n, size=min(config.batch_size, n))
        batch = Batch(
            data["state"][index],
            data["options"][index],
            data["mask"][index],
            data["target"][index],
            data["value"][index],
        )
        losses, grads = loss_and_gradients(net, batch, config.value_weight)
        adam.step(net, grads, lr=config.lr, weight_decay=config.weight_decay)
        for key in totals:
            totals[key] += losses[key] / config.train_steps
    return totals


def evaluate(net: Net, config: Config) -> dict[str, dict[str, float]]:
    """The raw policy against three of each opponent (see the module's docstring)."""
    out: dict[str, dict[str, float]] = {}
    for name in config.eval_opponents:
        opponent = OPPONENTS[name]
        wins = heads = opponent_heads = 0.0
        games = 0
        for deal in range(config.eval_deals):
            for seat in range(EVAL_SEATS):
                bots: list[Bot] = [
                    ChampionBot(net, search=False) if s == seat else opponent()
                    for s in range(EVAL_SEATS)
                ]
                result = play_local(VARIANT, bots, config.eval_seed + deal, OPTIONS)
                winners = [s for s, rank in enumerate(result.ranks) if rank == 1]
                wins += 1 / len(winners) if seat in winners else 0.0
                heads += result.scores[seat]
                opponent_heads += (sum(result.scores) - result.scores[seat]) / (EVAL_SEATS - 1)
                games += 1
        low, high = wilson(wins, games)
        out[name] = {
            "games": games,
            "win_rate": wins / games,
            "low": low,
            "high": high,
            "heads": heads / games,
            "opponent_heads": opponent_heads / games,
        }
    return out


@dataclass
class Run:
    """A run's whole state between iterations (what the checkpoint holds)."""

    config: Config
    net: Net
    adam: Adam
    iteration: int  # iterations done
    buffer: list[Data]  # the last `window` iterations' samples, oldest first
    metrics: list[dict[str, Any]]
    commands: list[str]
    seconds: float  # wall time spent in iterations, all sessions together
    samples: int


def new_run(config: Config, command: str) -> Run:
    net = initial(config.seed, config.policy_hidden, config.value_hidden)
    if config.start_from:
        start = load(Path(config.start_from))
        if (start.policy_sizes, start.value_sizes) != (net.policy_sizes, net.value_sizes):
            raise ValueError(
                f"{config.start_from} has layers {start.policy_sizes} and {start.value_sizes},"
                f" the run {net.policy_sizes} and {net.value_sizes}"
            )
        net = Net(start.params, net.policy_sizes, net.value_sizes)
    return Run(config, net, Adam.zeros(net), 0, [], [], [command], 0.0, 0)


def save_checkpoint(run: Run, out: Path) -> None:
    arrays: dict[str, npt.NDArray[Any]] = dict(run.adam.arrays(run.net))
    for age, data in enumerate(run.buffer):
        for key, value in data.items():
            arrays[f"buffer{age}/{key}"] = value
    record = {
        "config": asdict(run.config),
        "iteration": run.iteration,
        "adam_steps": run.adam.steps,
        "buffer": len(run.buffer),
        "metrics": run.metrics,
        "commands": run.commands,
        "seconds": run.seconds,
        "samples": run.samples,
        "policy_sizes": list(run.net.policy_sizes),
        "value_sizes": list(run.net.value_sizes),
    }
    arrays["record"] = np.array(json.dumps(record))
    write_npz(out / CHECKPOINT, arrays)


def config_from(record: dict[str, Any]) -> Config:
    """The config a checkpoint records (a setting added since it was made: its default,
    which is what the run did)."""
    values: dict[str, Any] = {}
    for f in fields(Config):
        if f.name not in record:
            continue
        value = record[f.name]
        values[f.name] = tuple(value) if isinstance(value, list) else value
    return Config(**values)


def checkpoint_iteration(out: Path) -> int | None:
    """The iteration `out`'s checkpoint holds (its record only), or None without one."""
    record = checkpoint_record(out / CHECKPOINT)
    return None if record is None else int(record["iteration"])


def load_checkpoint(out: Path) -> Run:
    with np.load(out / CHECKPOINT, allow_pickle=False) as stored:
        record = json.loads(str(stored["record"]))
        arrays = {name: np.array(stored[name]) for name in stored.files if name != "record"}
    config = config_from(record["config"])
    net, adam = Adam.restore(arrays, record)
    buffer = [
        {key: arrays[f"buffer{age}/{key}"] for key in empty_data()}
        for age in range(record["buffer"])
    ]
    return Run(
        config,
        net,
        adam,
        record["iteration"],
        buffer,
        record["metrics"],
        record["commands"],
        record["seconds"],
        record["samples"],
    )


def provenance(run: Run) -> dict[str, object]:
    """How the current weights were made (stored in weights.npz)."""
    last = run.metrics[-1] if run.metrics else {}
    return {
        "trained_by": "python -m example_bots.champion_bot.train",
        "commands": run.commands,
        "config": asdict(run.config),
        "iterations": run.iteration,
        "self_play_games": run.iteration * run.config.games,
        "samples": run.samples,
        "hours": round(run.seconds / 3600, 3),
        "last_eval": last.get("eval", {}),
    }


def iterate(run: Run, out: Path, jobs: int, log: Any) -> None:
    """One iteration (self-play, training, evaluation) and its records."""
    config = run.config
    started = time.monotonic()
    iteration = run.iteration + 1
    data = self_play(run.net, config, iteration, jobs, log)
    run.buffer = [*run.buffer, data][-config.window :]
    run.samples += len(data["value"])
    losses = train(run.net, run.adam, concat(run.buffer), config, iteration)
    run.iteration = iteration
    record: dict[str, Any] = {
        "iteration": iteration,
        "self_play_games": iteration * config.games,
        "samples": run.samples,
        "new_samples": len(data["value"]),
        "loss_policy": round(losses["policy"], 6),
        "loss_value": round(losses["value"], 6),
        "entropy": round(losses["entropy"], 6),
    }
    if config.eval_every > 0 and iteration % config.eval_every == 0:
        record["eval"] = evaluate(run.net, config)
    run.seconds += time.monotonic() - started
    record["hours"] = round(run.seconds / 3600, 4)  # not reproducible: wall time
    run.metrics.append(record)
    write_records(run, out)
    figures = "  ".join(
        f"vs {name}: win {e['win_rate']:.1%} [{e['low']:.1%}, {e['high']:.1%}]"
        f" heads {e['heads']:.2f}/{e['opponent_heads']:.2f}"
        for name, e in record.get("eval", {}).items()
    )
    log(
        f"iteration {iteration}: {record['new_samples']} samples ({run.samples} in all)"
        f"  loss policy {losses['policy']:.3f} value {losses['value']:.3f}"
        f"  {figures}  {time.monotonic() - started:.0f} s ({run.seconds / 3600:.2f} h in all)"
    )


def write_records(run: Run, out: Path) -> None:
    """The checkpoint, the weights, the metrics log and the curve (each atomically)."""
    save_checkpoint(run, out)
    meta = provenance(run)
    save(out / "weights.npz", run.net, meta)
    save(out / f"weights-{run.iteration:04d}.npz", run.net, meta)
    write_metrics(out, run.metrics)
    if any("eval" in m for m in run.metrics):
        draw(run.metrics, out / "curve.png", fair=1 / EVAL_SEATS)


def initial_eval(run: Run, out: Path, log: Any) -> None:
    """Iteration 0 of the curve: the untrained network."""
    started = time.monotonic()
    record: dict[str, Any] = {"iteration": 0, "self_play_games": 0, "samples": 0}
    if run.config.eval_every > 0:
        record["eval"] = evaluate(run.net, run.config)
    run.seconds += time.monotonic() - started
    record["hours"] = round(run.seconds / 3600, 4)
    run.metrics.append(record)
    write_records(run, out)
    for name, e in record.get("eval", {}).items():
        log(f"iteration 0 (untrained): vs {name} win {e['win_rate']:.1%} heads {e['heads']:.2f}")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--out", type=Path, required=True, help="the run's folder")
    p.add_argument("--resume", action="store_true", help="go on from --out's checkpoint")
    p.add_argument("--iterations", type=int, default=100, help="stop when this many are done")
    p.add_argument(
        "--minutes",
        type=float,
        default=math.inf,
        help="start no iteration that would end later",
    )
    p.add_argument("--jobs", type=int, default=1, help="self-play worker processes")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    add_settings(p, Config)
    return p


def settings_problem(given: dict[str, Any]) -> str | None:
    """Why a new run cannot use the settings given on its command line (one line), or
    None. The weights of --start-from are checked when they are read (:func:`new_run`)."""
    unknown = set(given.get("eval_opponents", ())) - set(OPPONENTS)
    if unknown:
        return f"unknown opponents {sorted(unknown)}"
    if given.get("playouts", "greedy") not in PLAYOUTS:
        return f"--playouts is one of {', '.join(PLAYOUTS)}"
    if given.get("searcher", "puct") not in SEARCHERS:
        return f"--searcher is one of {', '.join(SEARCHERS)}"
    for name in given.get("others", ()):
        problem = other_problem(name, given.get("start_from", ""))
        if problem is not None:
            return f"--others: {problem}"
    if not 0 <= given.get("others_share", 0.0) <= 1:
        return "--others-share is a chance, from 0 to 1"
    if given.get("q_temperature", 1.0) <= 0 or given.get("race_rounds", 1) < 1:
        return "--q-temperature must be above 0, --race-rounds 1 or more"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    out: Path = args.out
    given = given_settings(args, Config)
    command = command_line("example_bots.champion_bot.train", argv)

    def log(line: str) -> None:
        if not args.quiet:
            print(line, flush=True)

    def start() -> Run:
        problem = settings_problem(given)
        if problem is not None:
            raise Refused(problem)
        try:
            return new_run(Config(**given), command)
        except (OSError, ValueError) as bad:
            raise Refused(f"--start-from: {bad}") from None

    try:
        opened = open_run(
            out,
            resume=args.resume,
            given=given,
            command=command,
            start=start,
            restore=load_checkpoint,
            settings_of=lambda run: run.config,
        )
    except Refused as refusal:
        print(f"error: {refusal}", file=sys.stderr)
        return 2
    with opened.lock, sigterm_as_interrupt():
        run = opened.run
        if opened.resumed:
            log(f"resumed {out} after iteration {run.iteration}")
        else:
            (out / "config.json").write_text(json.dumps(asdict(run.config), indent=1) + "\n")
            initial_eval(run, out, log)
        return train_until_done(run, out, args, log)


def train_until_done(run: Run, out: Path, args: argparse.Namespace, log: Any) -> int:
    """Iterate until `--iterations` are done or `--minutes` would be passed; an interrupt
    (Ctrl-C, SIGTERM) stops at once. The exit status."""
    deadline = time.monotonic() + args.minutes * 60
    last_iteration_s = 0.0
    try:
        while run.iteration < args.iterations:
            left = deadline - time.monotonic()
            if left < last_iteration_s:
                log(
                    f"stopped: {max(left, 0) / 60:.1f} of --minutes {args.minutes:g} left, and an"
                    f" iteration takes about {last_iteration_s / 60:.1f}"
                )
                break
            began = time.monotonic()
            iterate(run, out, args.jobs, log)
            last_iteration_s = time.monotonic() - began
    except (KeyboardInterrupt, Terminated) as stop:
        done = checkpoint_iteration(out)
        kept = (
            f"{out / CHECKPOINT} holds iteration {done}; --resume goes on from there"
            if done is not None
            else "nothing was kept"
        )
        print(f"interrupted: {kept}", file=sys.stderr)
        return 143 if isinstance(stop, Terminated) else 130
    log(f"done: {run.iteration} iterations; {out / 'weights.npz'}; {out / 'curve.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
