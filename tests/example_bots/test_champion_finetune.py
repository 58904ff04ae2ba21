"""The champion's policy-gradient fine-tuning (example_bots/champion_bot/finetune.py) on
tiny runs: seeded, resumed exactly, recorded in its weights, refusing what it cannot use
before it makes a folder; its gradient is the surrogate loss's, and its games are whole
and fair."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from example_bots.champion_bot.bot import ChampionBot
from example_bots.champion_bot.finetune import (
    evaluate,
    gradients,
    main,
    margins,
    play_games,
)
from example_bots.champion_bot.net import Net, forward, initial, load, save
from sdk import play_local
from tests.example_bots.test_champion_pipeline import assert_central_differences

TINY = ["--games", "16", "--players", "3", "4", "--eval-games", "40", "--eval-every", "2",
        "--save-every", "2", "--quiet"]  # fmt: skip


@pytest.fixture
def start(tmp_path: Path) -> Path:
    path = tmp_path / "start.npz"
    save(path, initial(3, (16,), (8,)), {"made": "for the test"})
    return path


def finetune(out: Path, *args: str) -> int:
    return main(["--out", str(out), *args])


def records(out: Path) -> list[dict[str, Any]]:
    lines = (out / "metrics.jsonl").read_text().splitlines()
    return [{k: v for k, v in json.loads(line).items() if k != "hours"} for line in lines]


def same_params(a: Net, b: Net) -> bool:
    return a.params.keys() == b.params.keys() and all(
        np.array_equal(a.params[k], b.params[k]) for k in a.params
    )


def test_a_run_is_seeded_and_a_resumed_one_ends_as_an_uninterrupted_one(
    tmp_path: Path, start: Path
) -> None:
    whole, again, split = tmp_path / "whole", tmp_path / "again", tmp_path / "split"
    settings = ["--start-from", str(start), *TINY]
    assert finetune(whole, "--updates", "4", *settings) == 0
    assert finetune(again, "--updates", "4", *settings) == 0
    assert finetune(split, "--updates", "2", *settings) == 0
    assert finetune(split, "--resume", "--updates", "4", "--quiet") == 0
    nets = [load(out / "weights.npz") for out in (whole, again, split)]
    assert same_params(nets[0], nets[1]) and same_params(nets[0], nets[2])
    assert not same_params(nets[0], load(start))  # it learned something
    assert records(whole) == records(again) == records(split)
    assert [r["update"] for r in records(whole)] == [1, 2, 3, 4]
    evaluated = [r["eval"]["start"] for r in records(whole) if "eval" in r]
    assert len(evaluated) == 2 and {"win_rate", "low", "high", "heads"} <= set(evaluated[0])
    # The weights say how they were made, the start's own record too.
    meta = nets[2].meta
    assert meta["trained_by"] == "example_bots.champion_bot.finetune"
    assert meta["updates"] == 4 and meta["games"] == 64
    assert meta["start_meta"] == {"made": "for the test"}
    commands = meta["commands"]
    assert isinstance(commands, list) and len(commands) == 2 and "--resume" in commands[1]
    names = {p.name for p in split.iterdir()}
    assert {"checkpoint.npz", "weights.npz", "weights-0002.npz", "weights-0004.npz",
            "metrics.jsonl", "curve.png", "config.json"} <= names  # fmt: skip
    assert (split / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_fine_tuned_weights_play_a_match_in_the_bot(tmp_path: Path, start: Path) -> None:
    out = tmp_path / "run"
    assert finetune(out, "--start-from", str(start), "--updates", "1", *TINY) == 0
    bot = ChampionBot(load(out / "weights.npz"), search=False)
    result = play_local("6nimmt", [bot, ChampionBot(load(start), search=False)], 5, {"rounds": "1"})
    assert len(result.scores) == 2


def test_it_refuses_what_it_cannot_use_and_leaves_nothing(
    tmp_path: Path, start: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused = {
        "none": [*TINY],
        "players": ["--start-from", str(start), *TINY, "--players", "1"],
        "games": ["--start-from", str(start), "--games", "0", "--quiet"],
        "missing": ["--start-from", str(tmp_path / "no.npz"), *TINY],
        "resume": ["--resume"],
    }
    for name, args in refused.items():
        assert finetune(tmp_path / name, *args) == 2, name
        assert not (tmp_path / name).exists(), name
    out = tmp_path / "run"
    assert finetune(out, "--start-from", str(start), "--updates", "1", *TINY) == 0
    assert finetune(out, "--start-from", str(start), "--updates", "1", *TINY) == 2
    assert finetune(out, "--resume", "--updates", "2", "--games", "8") == 2
    moved = tmp_path / "moved.npz"
    start.rename(moved)  # the start it is measured against is gone
    assert finetune(out, "--resume", "--updates", "2") == 2
    moved.rename(start)
    err = capsys.readouterr().err
    assert f"cannot resume {out}" in err
    assert "--start-from is needed" in err and "from 2 to 10" in err and "1 or more" in err
    assert "error: --start-from:" in err and "no checkpoint" in err
    assert "pass --resume" in err and "'games': 8" in err
    assert "Traceback" not in err


def test_the_gradient_is_the_surrogate_loss_s() -> None:
    rng = np.random.default_rng(0)
    net = initial(2, (6,), (5,))
    for key in net.params:  # off zero, so no ReLU sits at its kink
        net.params[key] = net.params[key] + rng.normal(0, 0.3, net.params[key].shape)
    turns, scores = play_games(net, 3, 4, np.random.default_rng(1))
    margin = margins(scores)
    entropy, value_weight = 0.05, 0.7
    target = margin.reshape(-1) / 10.0
    p_layers, v_layers = len(net.policy_sizes) - 1, len(net.value_sizes) - 1
    fixed = [target - forward(net.params, "v", v_layers, t.state)[-1][:, 0] for t in turns]

    def loss() -> float:
        total, count = 0.0, len(target) * len(turns)
        for turn, advantage in zip(turns, fixed, strict=True):
            b, cards, _ = turn.options.shape
            state_in = np.broadcast_to(turn.state[:, None, :], (b, cards, turn.state.shape[1]))
            x = np.concatenate([state_in, turn.options], axis=2).reshape(b * cards, -1)
            z = forward(net.params, "p", p_layers, x)[-1].reshape(b, cards)
            log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
            h = -(np.exp(log_p) * log_p).sum(axis=1)
            v = forward(net.params, "v", v_layers, turn.state)[-1][:, 0]
            picked = log_p[np.arange(b), turn.chosen]
            total += float(
                (-advantage * picked - entropy * h + value_weight * (v - target) ** 2).sum()
            )
        return total / count

    _, grads = gradients(net, turns, margin, entropy=entropy, value_weight=value_weight)
    assert_central_differences(net.params, grads, loss)


@pytest.mark.parametrize("players", [2, 4, 10])
def test_its_games_are_whole_one_round_games(players: int) -> None:
    net = initial(4, (16,), (8,))
    turns, scores = play_games(net, players, 50, np.random.default_rng(players))
    assert len(turns) == 10  # ten card picks a seat
    for turn, cards in zip(turns, range(10, 0, -1), strict=True):
        assert turn.options.shape[:2] == (50 * players, cards)
        assert ((turn.chosen >= 0) & (turn.chosen < cards)).all()
    assert scores.shape == (50, players) and (scores >= 0).all() and scores.sum() > 0
    _, again = play_games(net, players, 50, np.random.default_rng(players))
    assert np.array_equal(scores, again)  # seeded


def test_a_network_against_itself_wins_its_fair_share() -> None:
    net = initial(5, (16,), (8,))
    figures = evaluate(net, net, 4, 4000, seed=3)
    assert figures["low"] <= 0.25 <= figures["high"]
    assert figures["heads"] == pytest.approx(figures["opponent_heads"], abs=0.5)
    other = evaluate(net, initial(6, (16,), (8,)), 4, 200, seed=3)
    assert other != figures
