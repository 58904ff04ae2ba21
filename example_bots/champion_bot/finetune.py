"""Policy-gradient fine-tuning of the champion's network on the batch simulator.

Expert iteration (:mod:`.train`) labels every decision with a search, about a second of
CPU each: a run sees about a thousand games an hour. This stage plays whole games of
one-round 6 nimmt! on the numpy batch simulator instead (:class:`sdk.game.sixnimmt.batch.Batch`),
``--games`` at once, every seat sampling the network's policy over its cards
(temperature 1), and follows the policy gradient (REINFORCE): each card pick's
log-probability moves by its *advantage*, the seat's final margin over the table (the
others' mean heads minus its own; with ``--reward lead`` its lead over the best other
seat, which only a win makes positive) less the value head's prediction at that pick.
The value head learns that result (squared error, ``--value-weight``); a small entropy bonus
(``--entropy``) keeps the policy from collapsing early. One update is one batch of games
and one Adam step: a few seconds for 2,048 games at 4 seats (3.6 s beside other work on
a 2-core machine), so a run sees a million games in well under an hour.

Row choices are left to the simulator (the cheapest row), so only card picks learn.
Every ``--eval-every`` updates the network's most likely card (as the raw policy plays)
sits against three of the ``--start-from`` network, on ``--eval-games`` games of the
batch simulator: the curve (``curve.png``) shows that win share.

A network that only meets itself gets better against itself and can get worse against
other kinds of player. ``--others greedy rules start`` seats fixed players at some tables,
as :mod:`.train`'s ``--others`` does: in each game one seat, drawn at random, is the
network's, and each other seat is a fixed player with probability ``--others-share``
(drawn from the names given): the batch simulator's greedy or rule-based pickers, or the
``--start-from`` network's most likely card. Their picks give no gradient, and every
evaluation also measures the network against three of each named picker.

A run is seeded (each update's games come from ``--seed`` and its number) and resumable:
``checkpoint.npz`` holds the network, Adam's moments and the log after every update that
saves (``--save-every``), and ``--resume`` goes on from it. ``weights.npz`` and
``weights-NNNN.npz`` record how they were made (``meta``), as :mod:`.train` does.

    python -m example_bots.champion_bot.finetune --out runs/finetune \\
        --start-from example_bots/champion_bot/weights.npz --updates 350 --games 2048 \\
        --lr 2e-4 --seed 1
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from example_bots.champion_bot.batch_features import encode_picks
from example_bots.champion_bot.curve import draw
from example_bots.champion_bot.features import Array
from example_bots.champion_bot.net import Net, Params, backward, forward, load, save, write_npz
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
from example_bots.champion_bot.train import Adam
from example_bots.montecarlo_bot.sixnimmt import (
    GreedyDraws,
    Picker,
    greedy_picks,
    rules_like_picks,
    value,
)
from sdk import new_game
from sdk.game.sixnimmt import SixNimmtState
from sdk.game.sixnimmt.batch import Batch, IntArray
from sdk.stats import wilson

VARIANT = "6nimmt"


@dataclass(frozen=True)
class Settings:
    """What a fine-tuning run is made of (``config.json``, and every weights file's meta)."""

    start_from: str = ""  # the network to fine-tune (required)
    seed: int = 1
    games: int = 2048  # games an update
    players: tuple[int, ...] = (2, 3, 4, 4, 4, 4, 5, 6)  # each update draws its count
    lr: float = 2e-4
    weight_decay: float = 0.0
    entropy: float = 0.01
    value_weight: float = 0.5
    save_every: int = 25  # updates between checkpoints (and weights-NNNN.npz)
    eval_every: int = 25  # updates between evaluations (0: none)
    eval_games: int = 4000
    eval_players: int = 4
    others: tuple[str, ...] = ()  # fixed players a seat may get (BATCH_OTHERS)
    others_share: float = 0.5  # each seat but one: the chance it is a fixed player
    reward: str = "margin"  # a seat's final result the picks learn from (REWARDS)


Other = Net | Picker
"""A fixed player of a seat: a network's most likely card, or a batch picker."""

BATCH_OTHERS: dict[str, Picker | None] = {"greedy": greedy_picks, "rules": rules_like_picks,
                                          "start": None}  # fmt: skip
"""The fixed players ``--others`` may seat: the batch simulator's greedy and rule-based
pickers (:mod:`example_bots.montecarlo_bot.sixnimmt`), and ``start``, the most likely card
of the ``--start-from`` network."""


@dataclass(frozen=True)
class Turn:
    """One turn of a batch: the network's seats' picks (rows: game-major, only the seats
    `net` played)."""

    state: Array  # (picks, STATE_SIZE)
    options: Array  # (picks, cards, OPTION_SIZE)
    chosen: IntArray  # (picks,)
    rows: IntArray  # (picks,): each pick's game * players + seat


@dataclass
class Run:
    settings: Settings
    net: Net
    adam: Adam
    start: Net  # the evaluation's opponent
    others: list[Other] = field(default_factory=list)  # settings.others, in order
    update: int = 0
    metrics: list[dict[str, Any]] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    seconds: float = 0.0
    games: int = 0


def play_games(
    net: Net,
    players: int,
    games: int,
    generator: np.random.Generator,
    *,
    sample: bool = True,
    others: Sequence[Other] = (),
    seated: IntArray | None = None,
) -> tuple[list[Turn], Array]:
    """`games` one-round games at `players` seats on the batch simulator; every turn's
    encoded picks of the seats `net` played, and the final scores (games, players).

    `seated` (games, players) says who plays each seat: -1 for `net`, ``i`` for
    ``others[i]``; without it `net` plays every seat. `net` samples its policy (without
    `sample`: plays its most likely card); a fixed player always plays its own choice.
    """
    state0 = new_game(VARIANT, players, 0, {"rounds": "1"})
    assert isinstance(state0, SixNimmtState)
    highest = state0.rules.highest
    draws = GreedyDraws(generator)
    batch = Batch(state0, games, draws)
    draws.batch = batch
    every = np.arange(games)
    hands = batch.new_round(every, 1)
    batch.scores[:] = 0
    undealt = np.ones((games, highest + 1), dtype=bool)
    undealt[:, 0] = False
    np.put_along_axis(undealt, hands.reshape(games, -1), False, axis=1)
    np.put_along_axis(undealt, batch.last, False, axis=1)
    if seated is None:
        seated = np.full((games, players), -1)
    learner = seated < 0
    rows = np.flatnonzero(learner)
    # Only the seats a network plays are encoded; `encoded_row` is each one's row there.
    by_net = learner.copy()
    for index, other in enumerate(others):
        if isinstance(other, Net):
            by_net |= seated == index
    encoded_row = np.full((games, players), -1)
    encoded_row[by_net] = np.arange(int(by_net.sum()))
    learner_rows = None if (by_net == learner).all() else encoded_row[learner]
    turns = []
    for turn in range(hands.shape[2]):
        cards = hands.shape[2] - turn
        slot_of = np.argsort(hands == 0, axis=2, kind="stable")[:, :, :cards]
        held = np.take_along_axis(hands, slot_of, axis=2)
        state, options = encode_picks(
            batch.last, batch.length, batch.heads, held, undealt, batch.scores, batch.scores,
            highest=highest, one_round=True, seats=by_net,
        )  # fmt: skip
        slots = np.zeros((games, players), dtype=np.int64)
        for index, other in enumerate(others):
            at = seated == index
            if not at.any():
                continue
            if isinstance(other, Net):
                mine = encoded_row[at]
                best = other.pick_logits(state[mine], options[mine]).argmax(axis=1)
                slots[at] = slot_of[at][np.arange(len(best)), best]
            else:
                slots[at] = other(batch, every, hands, generator)[at]
        if learner_rows is not None:  # other networks' seats encoded too: the learner's rows
            state, options = state[learner_rows], options[learner_rows]
        logits = net.pick_logits(state, options)
        if sample:
            logits = logits + generator.gumbel(size=logits.shape).astype(np.float32)
        chosen = logits.argmax(axis=1)
        slots[learner] = slot_of[learner][np.arange(len(chosen)), chosen]
        turns.append(Turn(state, options, chosen, rows))
        played = np.take_along_axis(hands, slots[:, :, None], axis=2)
        np.put_along_axis(hands, slots[:, :, None], 0, axis=2)
        batch.play_turns(every, played)
    return turns, batch.scores.astype(np.float64)


def seat_others(players: int, games: int, others: int, share: float,
                generator: np.random.Generator) -> IntArray:  # fmt: skip
    """Who plays each seat of `games` games (for :func:`play_games`'s `seated`): in each
    game one seat, drawn at random, is the network's, and each other seat is a fixed player
    (one of `others`, drawn at random) with probability `share`, else the network's too
    (as :func:`example_bots.champion_bot.others.seat_players` seats a self-play game)."""
    learner = generator.integers(players, size=games)
    fixed = generator.random((games, players)) < share
    fixed[np.arange(games), learner] = False
    kind = generator.integers(others, size=(games, players))
    seated: IntArray = np.where(fixed, kind, -1)
    return seated


REWARDS = ("margin", "lead")
"""What a seat's picks learn from, in heads (:func:`example_bots.montecarlo_bot.sixnimmt.value`):
its margin over the table (the others' mean heads less its own), or its lead over the best
other seat (that seat's heads less its own: positive only for a win)."""


def rewards(scores: Array, reward: str = "margin") -> Array:
    """Every seat's `reward` (games, players): by default its margin over the table, the
    others' mean heads less its own; "lead": the best other seat's heads less its own."""
    if reward not in REWARDS:
        raise ValueError(f"no reward {reward!r}; one of {', '.join(REWARDS)}")
    return np.stack([value(scores, seat, reward) for seat in range(scores.shape[1])], axis=1)


def gradients(
    net: Net, turns: Sequence[Turn], reward: Array, *, entropy: float, value_weight: float
) -> tuple[dict[str, float], Params]:
    """The gradient of the surrogate loss, a mean over every pick of every turn:
    ``-A * log p(chosen) - entropy * H(p) + value_weight * (v - m)^2``, where ``m`` is the
    seat's final `reward` (games, players; :func:`rewards`) in units of 10 heads, ``v`` the
    value head's prediction and ``A = m - v`` the advantage (held fixed); and the means of
    the entropy, the value's squared error and |A|."""
    target_of = reward.reshape(-1) / 10.0
    count = sum(len(turn.rows) for turn in turns)
    p_layers, v_layers = len(net.policy_sizes) - 1, len(net.value_sizes) - 1
    grads = {key: np.zeros_like(param) for key, param in net.params.items()}
    stats = {"entropy": 0.0, "value_loss": 0.0, "advantage": 0.0}
    for turn in turns:
        b, cards, _ = turn.options.shape
        target = target_of[turn.rows]
        state_in = np.broadcast_to(turn.state[:, None, :], (b, cards, turn.state.shape[1]))
        x = np.concatenate([state_in, turn.options], axis=2).reshape(b * cards, -1)
        p_outs = forward(net.params, "p", p_layers, x)
        z = p_outs[-1].reshape(b, cards)
        z = z - z.max(axis=1, keepdims=True)
        log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        p = np.exp(log_p)
        h = -(p * log_p).sum(axis=1)
        v_outs = forward(net.params, "v", v_layers, turn.state)
        predicted = v_outs[-1][:, 0]
        advantage = target - predicted
        chosen = np.zeros_like(p)
        chosen[np.arange(b), turn.chosen] = 1.0
        grad_z = advantage[:, None] * (p - chosen) + entropy * p * (log_p + h[:, None])
        part: Params = {}
        backward(net.params, "p", p_outs, (grad_z / count).reshape(b * cards, 1), part)
        error = predicted - target
        backward(net.params, "v", v_outs, (value_weight * 2.0 * error / count)[:, None], part)
        for key, g in part.items():
            grads[key] += g
        stats["entropy"] += float(h.sum()) / count
        stats["value_loss"] += float((error**2).sum()) / count
        stats["advantage"] += float(np.abs(advantage).sum()) / count
    return stats, grads


def evaluate(net: Net, opponent: Other, players: int, games: int, seed: int) -> dict[str, Any]:
    """`net`'s most likely card in seat 0 against `opponent` in every other seat, on
    `games` batch games drawn from `seed`: its win share (ties shared) with a 95% Wilson
    interval, and the heads a game each side took."""
    generator = np.random.default_rng(seed)
    seated = np.zeros((games, players), dtype=np.int64)
    seated[:, 0] = -1
    _, scores = play_games(
        net, players, games, generator, sample=False, others=[opponent], seated=seated
    )
    fewest = scores.min(axis=1)
    share = np.where(scores[:, 0] == fewest, 1.0 / (scores == fewest[:, None]).sum(axis=1), 0.0)
    wins = float(share.sum())
    low, high = wilson(wins, games)
    return {
        "games": games,
        "win_rate": wins / games,
        "low": low,
        "high": high,
        "heads": float(scores[:, 0].mean()),
        "opponent_heads": float(scores[:, 1:].mean()),
    }


def update(run: Run) -> dict[str, Any]:
    """One update: a batch of games, one Adam step; its record for the log."""
    settings = run.settings
    run.update += 1
    generator = np.random.default_rng(np.random.SeedSequence([settings.seed, run.update]))
    # One count needs no draw (so a run at one count plays the same games as before).
    counts = settings.players
    players = counts[0] if len(counts) == 1 else int(generator.choice(counts))
    seated = (
        seat_others(players, settings.games, len(run.others), settings.others_share, generator)
        if run.others
        else None
    )  # no draw without others (so such a run plays the same games as before)
    turns, scores = play_games(
        run.net, players, settings.games, generator, others=run.others, seated=seated
    )
    stats, grads = gradients(
        run.net, turns, rewards(scores, settings.reward), entropy=settings.entropy,
        value_weight=settings.value_weight,
    )  # fmt: skip
    run.adam.step(run.net, grads, lr=settings.lr, weight_decay=settings.weight_decay)
    run.net.params_changed()
    run.games += settings.games
    record: dict[str, Any] = {"update": run.update, "players": players, "games": run.games}
    record |= {key: round(figure, 5) for key, figure in stats.items()}
    if settings.eval_every > 0 and run.update % settings.eval_every == 0:
        record["eval"] = evaluations(run)
    return record


def evaluations(run: Run) -> dict[str, dict[str, Any]]:
    """The curve's figures, on the same games every time: the network against the network
    it started from in every other seat, and against each batch picker of ``--others``."""
    settings = run.settings
    against: dict[str, Other] = {"start": run.start}
    for name in settings.others:
        picker = BATCH_OTHERS[name]
        if picker is not None:
            against[name] = picker
    return {
        name: evaluate(run.net, other, settings.eval_players, settings.eval_games, settings.seed)
        for name, other in against.items()
    }


def fixed_players(settings: Settings, start: Net) -> list[Other]:
    """The players of ``--others``, in its order (``start``: the starting network)."""
    return [BATCH_OTHERS[name] or start for name in settings.others]


# --- the run's files -------------------------------------------------------------------


def save_checkpoint(run: Run, out: Path) -> None:
    arrays: dict[str, Any] = dict(run.adam.arrays(run.net))
    record = {
        "settings": asdict(run.settings),
        "update": run.update,
        "adam_steps": run.adam.steps,
        "metrics": run.metrics,
        "commands": run.commands,
        "seconds": run.seconds,
        "games": run.games,
        "policy_sizes": run.net.policy_sizes,
        "value_sizes": run.net.value_sizes,
    }
    arrays["record"] = np.array(json.dumps(record))
    write_npz(out / CHECKPOINT, arrays)


def load_checkpoint(out: Path) -> Run:
    with np.load(out / CHECKPOINT, allow_pickle=False) as stored:
        record = json.loads(str(stored["record"]))
        arrays = {name: np.array(stored[name]) for name in stored.files if name != "record"}
    given = record["settings"]
    settings = Settings(**{**given, "players": tuple(given["players"])})
    net, adam = Adam.restore(arrays, record)
    start = load(Path(settings.start_from))
    others = fixed_players(settings, start)
    return Run(settings, net, adam, start, others, record["update"], record["metrics"],
               record["commands"], record["seconds"], record["games"])  # fmt: skip


def provenance(run: Run) -> dict[str, object]:
    """How the current weights were made (stored in every weights file)."""
    return {
        "trained_by": "example_bots.champion_bot.finetune",
        "settings": asdict(run.settings),
        "start_meta": run.start.meta,
        "updates": run.update,
        "games": run.games,
        "hours": round(run.seconds / 3600, 4),
        "commands": run.commands,
    }


def write_records(run: Run, out: Path) -> None:
    """The checkpoint, the weights, the metrics log and the curve."""
    save_checkpoint(run, out)
    meta = provenance(run)
    save(out / "weights.npz", run.net, meta)
    save(out / f"weights-{run.update:04d}.npz", run.net, meta)
    write_metrics(out, run.metrics)
    curve = [{"iteration": m["update"], "eval": m["eval"]} for m in run.metrics if "eval" in m]
    if curve:
        settings = run.settings
        draw(
            curve,
            out / "curve.png",
            fair=1 / settings.eval_players,
            x_label="update",
            title=(
                f"fine-tuned network (most likely card): {settings.eval_players} seats, "
                f"{settings.eval_games:,} batch games"
            ),
        )


# --- the command -----------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--out", type=Path, required=True, help="the run's folder")
    p.add_argument("--resume", action="store_true", help="go on from --out's checkpoint")
    p.add_argument("--updates", type=int, default=350, help="stop when this many are done")
    p.add_argument("--minutes", type=float, default=math.inf, help="stop after about this long")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    add_settings(p, Settings)
    return p


def settings_problem(given: dict[str, Any]) -> str | None:
    """Why a new run cannot use these settings (one line), or None."""
    if not given.get("start_from"):
        return "--start-from is needed: the network to fine-tune"
    if (
        any(not 2 <= n <= 10 for n in given.get("players", (4,)))
        or given.get("eval_players", 4) < 2
    ):
        return "--players and --eval-players are from 2 to 10"
    if (
        given.get("games", 1) < 1
        or given.get("eval_games", 1) < 1
        or given.get("save_every", 1) < 1
    ):
        return "--games, --eval-games and --save-every are 1 or more"
    if given.get("lr", 1.0) <= 0:
        return "--lr must be above 0"
    unknown = [name for name in given.get("others", ()) if name not in BATCH_OTHERS]
    if unknown:
        return f"--others: no fixed player {unknown[0]!r}; one of {', '.join(BATCH_OTHERS)}"
    if not 0 <= given.get("others_share", 0.5) <= 1:
        return "--others-share is a chance, from 0 to 1"
    if given.get("reward", "margin") not in REWARDS:
        return f"--reward is one of {', '.join(REWARDS)}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    out: Path = args.out
    given = given_settings(args, Settings)
    command = command_line("example_bots.champion_bot.finetune", argv)

    def log(line: str) -> None:
        if not args.quiet:
            print(line, flush=True)

    def start() -> Run:
        problem = settings_problem(given)
        if problem is not None:
            raise Refused(problem)
        try:
            begin = load(Path(given["start_from"]))
        except (OSError, ValueError) as bad:
            raise Refused(f"--start-from: {bad}") from None
        net = Net({k: v.copy() for k, v in begin.params.items()}, begin.policy_sizes,
                  begin.value_sizes)  # fmt: skip
        settings = Settings(**given)
        return Run(settings, net, Adam.zeros(net), begin, fixed_players(settings, begin),
                   commands=[command])  # fmt: skip

    try:
        opened = open_run(
            out,
            resume=args.resume,
            given=given,
            command=command,
            start=start,
            restore=load_checkpoint,
            settings_of=lambda run: run.settings,
        )
    except Refused as refusal:
        print(f"error: {refusal}", file=sys.stderr)
        return 2
    with opened.lock, sigterm_as_interrupt():
        run = opened.run
        if opened.resumed:
            log(f"resumed {out} after update {run.update}")
        else:
            (out / "config.json").write_text(json.dumps(asdict(run.settings), indent=1) + "\n")
        return _until_done(run, out, args, log)


def _until_done(run: Run, out: Path, args: argparse.Namespace, log: Any) -> int:
    deadline = time.monotonic() + args.minutes * 60
    try:
        while run.update < args.updates and time.monotonic() < deadline:
            began = time.monotonic()
            record = update(run)
            run.seconds += time.monotonic() - began
            record["hours"] = round(run.seconds / 3600, 4)
            run.metrics.append(record)
            line = (
                f"update {run.update}: {run.games:,} games  entropy {record['entropy']:.3f}"
                f"  value loss {record['value_loss']:.3f}"
            )
            for name, e in record.get("eval", {}).items():
                line += (
                    f"  vs {name}: win {e['win_rate']:.1%} [{e['low']:.1%}, {e['high']:.1%}]"
                    f" heads {e['heads']:.2f}/{e['opponent_heads']:.2f}"
                )
            log(line)
            if run.update % run.settings.save_every == 0:
                write_records(run, out)
    except (KeyboardInterrupt, Terminated) as stop:
        saved = _saved_update(out)
        print(f"interrupted: {out / CHECKPOINT} holds update {saved}; --resume goes on",
              file=sys.stderr)  # fmt: skip
        return 143 if isinstance(stop, Terminated) else 130
    write_records(run, out)
    log(f"done: {run.update} updates; {out / 'weights.npz'}; {out / 'curve.png'}")
    return 0


def _saved_update(out: Path) -> int | str:
    """The update `out`'s checkpoint holds ("none" without one)."""
    record = checkpoint_record(out / CHECKPOINT)
    return "none" if record is None else int(record["update"])


if __name__ == "__main__":
    sys.exit(main())
