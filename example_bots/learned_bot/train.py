"""Train the learned bot by self-play in the PettingZoo environment (docs/rl.md).

Every seat of every training game plays the current policy (policy.py), sampling from its
softmax over the legal actions. Each game is a 6 nimmt! family preset (``rounds=1``) at 3
to 5 seats. A seat's return is minus its bull heads, less the table's mean (so a game's
luck cancels); REINFORCE with that advantage, Adam, a batch of games per update. Every
``--eval-every`` games the greedy policy plays fixed deals against three random bots;
the curve of its mean heads is written as an SVG.

    nice -n 10 .venv/bin/python -m example_bots.learned_bot.train --minutes 15

numpy and the rl extra (pettingzoo) only; CPU; one process.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from example_bots.learned_bot.bot import WEIGHTS, LearnedBot
from example_bots.learned_bot.policy import FEATURES, Array, action_features, probabilities, save
from example_bots.random_bot.bot import RandomBot
from sdk import play_local
from sdk.envs.pettingzoo import env

VARIANTS = ("6nimmt", "6nimmt-tactics", "6nimmt-logic", "6nimmt-pro")
CURVE = Path(__file__).resolve().parents[2] / "docs" / "rl-learning-curve.svg"


def self_play_gradient(weights: Array, variant: str, players: int, seed: int,
                       rng: np.random.Generator) -> tuple[Array, list[int]]:  # fmt: skip
    """Play one game with every seat sampling from the policy; the REINFORCE gradient of
    the seats' advantage-weighted log-probabilities, and the final heads."""
    game = env(f"{variant}:rounds=1", players, seed=seed)
    game.reset()
    scores: dict[str, Array] = {a: np.zeros(len(FEATURES)) for a in game.possible_agents}
    for agent in game.agent_iter():
        observation, _, terminated, _, _ = game.last()
        if terminated:
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        if len(legal) == 1:
            game.step(int(legal[0]))
            continue
        features = action_features(observation["observation"], legal.tolist())
        p = probabilities(weights, features)
        choice = int(rng.choice(len(legal), p=p))
        scores[agent] += features[choice] - p @ features  # grad of log p(choice)
        game.step(int(legal[choice]))
    assert game.game is not None
    heads = game.game.state.scores()
    mean = sum(heads) / len(heads)
    gradient = np.zeros(len(FEATURES))
    for seat, agent in enumerate(game.possible_agents):
        gradient += -(heads[seat] - mean) / 10 * scores[agent]
    return gradient, heads


def evaluate(weights: Array, deals: int, seed: int = 1000) -> float:
    """The greedy policy's mean heads against three random bots (4 seats, 6nimmt:rounds=1,
    the learned bot in every seat of each deal)."""
    total = 0.0
    for deal in range(deals):
        for seat in range(4):
            bots = [LearnedBot(weights) if s == seat else RandomBot() for s in range(4)]
            result = play_local("6nimmt", bots, seed + deal, {"rounds": "1"})
            total += result.scores[seat]
    return total / (deals * 4)


def write_curve(points: list[tuple[int, float]], random_heads: float, path: Path) -> None:
    """The learning curve as a small SVG: mean heads against random bots per games played."""
    width, height, pad = 640, 320, 50
    xs = [g for g, _ in points] or [0]
    top = max([h for _, h in points] + [random_heads]) * 1.1
    x_max = max(xs) or 1

    def x(games: float) -> float:
        return pad + (width - 2 * pad) * games / x_max

    def y(heads: float) -> float:
        return height - pad - (height - 2 * pad) * heads / top

    line = " ".join(f"{x(g):.1f},{y(h):.1f}" for g, h in points)
    ticks = "".join(
        f'<text x="{pad - 8}" y="{y(v):.1f}" text-anchor="end" font-size="11">{v:.0f}</text>'
        f'<line x1="{pad}" x2="{width - pad}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#eee"/>'
        for v in np.linspace(0, top, 5)
    )
    xticks = "".join(
        f'<text x="{x(v):.1f}" y="{height - pad + 16}" text-anchor="middle" font-size="11">'
        f"{int(v)}</text>"
        for v in np.linspace(0, x_max, 5)
    )
    path.write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif">\n'
        f'<rect width="{width}" height="{height}" fill="white"/>\n{ticks}{xticks}\n'
        f'<line x1="{pad}" x2="{width - pad}" y1="{y(random_heads):.1f}" '
        f'y2="{y(random_heads):.1f}" stroke="#c33" stroke-dasharray="4 3"/>\n'
        f'<text x="{width - pad}" y="{y(random_heads) - 5:.1f}" text-anchor="end" '
        f'font-size="11" fill="#c33">random bot ({random_heads:.1f})</text>\n'
        f'<polyline points="{line}" fill="none" stroke="#236" stroke-width="2"/>\n'
        f'<text x="{width / 2}" y="{height - 12}" text-anchor="middle" font-size="12">'
        f"self-play training games</text>\n"
        f'<text x="14" y="{height / 2}" text-anchor="middle" font-size="12" '
        f'transform="rotate(-90 14 {height / 2})">mean heads vs 3 random bots</text>\n'
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="13">learned_bot: '
        f"6nimmt:rounds=1, 4 seats (fewer is better)</text>\n</svg>\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="stop after this long")
    parser.add_argument("--games", type=int, default=1_000_000, help="stop after this many")
    parser.add_argument("--batch", type=int, default=16, help="games per update")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--eval-every", type=int, default=1000)
    parser.add_argument("--eval-deals", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--curve", type=Path, default=CURVE)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    deals = random.Random(args.seed)
    weights = np.zeros(len(FEATURES))
    m, v = np.zeros_like(weights), np.zeros_like(weights)
    beta1, beta2, updates = 0.9, 0.999, 0
    started = time.monotonic()
    random_heads = evaluate(np.zeros(len(FEATURES)), args.eval_deals)  # ties: lowest card
    baseline = sum(
        play_local("6nimmt", [RandomBot() for _ in range(4)], 1000 + d, {"rounds": "1"}).scores[0]
        for d in range(args.eval_deals * 4)
    ) / (args.eval_deals * 4)
    points = [(0, random_heads)]
    print(f"random bots: {baseline:.2f} heads; untrained greedy: {random_heads:.2f}", flush=True)
    games = 0
    gradient = np.zeros_like(weights)
    while games < args.games and time.monotonic() - started < args.minutes * 60:
        variant = VARIANTS[deals.randrange(len(VARIANTS))]
        players = deals.randint(3, 5)
        g, _ = self_play_gradient(weights, variant, players, deals.randrange(2**31), rng)
        gradient += g
        games += 1
        if games % args.batch == 0:
            updates += 1
            step = gradient / args.batch
            m = beta1 * m + (1 - beta1) * step
            v = beta2 * v + (1 - beta2) * step * step
            m_hat, v_hat = m / (1 - beta1**updates), v / (1 - beta2**updates)
            weights += args.lr * m_hat / (np.sqrt(v_hat) + 1e-8)  # ascent on the return
            gradient[:] = 0
        if games % args.eval_every == 0:
            heads = evaluate(weights, args.eval_deals)
            points.append((games, heads))
            minutes = (time.monotonic() - started) / 60
            print(
                f"{games:7d} games  {minutes:5.1f} min  greedy vs random: {heads:.2f}", flush=True
            )
            meta = {"games": games, "minutes": round(minutes, 1), "curve": points}
            save(args.out, weights, meta)
            write_curve(points, baseline, args.curve)
    minutes = (time.monotonic() - started) / 60
    if points[-1][0] != games:
        points.append((games, evaluate(weights, args.eval_deals)))
    save(args.out, weights, {"games": games, "minutes": round(minutes, 1), "curve": points})
    write_curve(points, baseline, args.curve)
    print(f"done: {games} games in {minutes:.1f} min; weights in {args.out}", flush=True)


if __name__ == "__main__":
    main()
