"""The champion's policy-gradient fine-tuning (example_bots/champion_bot/finetune.py) on
tiny runs: seeded, resumed exactly, recorded in its weights, refusing what it cannot use
before it makes a folder; its gradient is the surrogate loss's, its games are whole and
fair, and fixed players (``--others``) play the seats they are given and give no picks."""

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
    play_games,
    rewards,
    seat_others,
)
from example_bots.champion_bot.net import Net, forward, initial, load, save
from example_bots.montecarlo_bot.sixnimmt import greedy_picks, rules_like_picks
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


@pytest.mark.parametrize("mixed", [False, True])
def test_the_gradient_is_the_surrogate_loss_s(mixed: bool) -> None:
    """Over the network's own picks only: with fixed players in some seats, theirs are
    not in the loss."""
    rng = np.random.default_rng(0)
    net = initial(2, (6,), (5,))
    for key in net.params:  # off zero, so no ReLU sits at its kink
        net.params[key] = net.params[key] + rng.normal(0, 0.3, net.params[key].shape)
    generator = np.random.default_rng(1)
    seated = seat_others(3, 4, 1, 0.5, generator) if mixed else None
    turns, scores = play_games(net, 3, 4, generator, others=[greedy_picks], seated=seated)
    if mixed:
        assert seated is not None and 4 <= (seated < 0).sum() < 12
        assert all(len(turn.rows) == (seated < 0).sum() for turn in turns)
    margin = rewards(scores)
    entropy, value_weight = 0.05, 0.7
    every_target = margin.reshape(-1) / 10.0
    p_layers, v_layers = len(net.policy_sizes) - 1, len(net.value_sizes) - 1
    targets = [every_target[t.rows] for t in turns]
    fixed = [
        target - forward(net.params, "v", v_layers, t.state)[-1][:, 0]
        for t, target in zip(turns, targets, strict=True)
    ]

    def loss() -> float:
        total, count = 0.0, sum(len(target) for target in targets)
        for turn, advantage, target in zip(turns, fixed, targets, strict=True):
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


def test_fixed_players_play_their_seats_and_give_no_picks() -> None:
    net = initial(4, (16,), (8,))
    games, players = 200, 4
    seated = np.zeros((games, players), dtype=np.int64)  # greedy everywhere...
    seated[:, 2] = -1  # ... but seat 2, the network's
    seated[::2, 0] = 1  # and seat 0 of every other game, rule-based
    turns, scores = play_games(
        net, players, games, np.random.default_rng(5), others=[greedy_picks, rules_like_picks],
        seated=seated,
    )  # fmt: skip
    assert len(turns) == 10
    for turn, cards in zip(turns, range(10, 0, -1), strict=True):
        assert np.array_equal(turn.rows, np.arange(games) * players + 2)
        assert turn.options.shape[:2] == (games, cards)
    assert scores.shape == (games, players) and scores.sum() > 0
    # An untrained network takes more heads than the greedy and rule-based players.
    assert scores[:, 2].mean() > scores[:, [0, 1, 3]].mean() + 2


def test_seating_others_keeps_one_seat_of_every_game_for_the_network() -> None:
    generator = np.random.default_rng(7)
    seated = seat_others(5, 4000, 3, 0.5, generator)
    assert seated.shape == (4000, 5) and set(np.unique(seated)) == {-1, 0, 1, 2}
    assert ((seated < 0).sum(axis=1) >= 1).all()
    # Each of the 4 seats but the network's one is fixed with probability 0.5.
    assert (seated >= 0).mean() == pytest.approx(0.5 * 4 / 5, abs=0.02)
    assert (seat_others(5, 100, 3, 0.0, generator) == -1).all()
    always = seat_others(5, 100, 3, 1.0, generator)
    assert ((always < 0).sum(axis=1) == 1).all()


def test_a_run_with_others_trains_on_mixed_tables_and_evaluates_against_each(
    tmp_path: Path, start: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = ["--start-from", str(start), *TINY, "--others", "greedy", "start", "rules"]
    whole, split = tmp_path / "whole", tmp_path / "split"
    assert finetune(whole, "--updates", "4", *settings) == 0
    assert finetune(split, "--updates", "2", *settings) == 0
    assert finetune(split, "--resume", "--updates", "4", "--quiet") == 0
    assert records(whole) == records(split)  # seeded and resumed exactly
    evaluated = [r["eval"] for r in records(whole) if "eval" in r]
    assert len(evaluated) == 2 and set(evaluated[0]) == {"start", "greedy", "rules"}
    plain = tmp_path / "plain"
    assert finetune(plain, "--updates", "4", "--start-from", str(start), *TINY) == 0
    assert not same_params(load(whole / "weights.npz"), load(plain / "weights.npz"))
    meta = load(whole / "weights.npz").meta
    assert isinstance(meta["settings"], dict)
    assert meta["settings"]["others"] == ["greedy", "start", "rules"]
    capsys.readouterr()
    bad = tmp_path / "bad"
    assert finetune(bad, "--start-from", str(start), *TINY, "--others", "mc") == 2
    assert finetune(bad, "--start-from", str(start), *TINY, "--others-share", "2") == 2
    err = capsys.readouterr().err
    assert "no fixed player 'mc'; one of greedy, rules, start" in err
    assert "--others-share is a chance" in err and "Traceback" not in err
    assert not bad.exists()


def test_a_network_against_itself_wins_its_fair_share() -> None:
    net = initial(5, (16,), (8,))
    figures = evaluate(net, net, 4, 4000, seed=3)
    assert figures["low"] <= 0.25 <= figures["high"]
    assert figures["heads"] == pytest.approx(figures["opponent_heads"], abs=0.5)
    other = evaluate(net, initial(6, (16,), (8,)), 4, 200, seed=3)
    assert other != figures
    greedy = evaluate(net, greedy_picks, 4, 2000, seed=3)
    assert greedy["high"] < 0.25 and greedy["heads"] > greedy["opponent_heads"]


def test_the_lead_reward_is_the_best_other_seats_heads_less_the_seats_own() -> None:
    scores = np.array([[3.0, 7.0, 12.0], [9.0, 4.0, 4.0]])
    assert rewards(scores, "lead").tolist() == [[4.0, -4.0, -9.0], [-5.0, 0.0, 0.0]]
    assert rewards(scores).tolist() == [[6.5, 0.5, -7.0], [-5.0, 2.5, 2.5]]
    with pytest.raises(ValueError, match="no reward 'win'; one of margin, lead"):
        rewards(scores, "win")


def test_a_run_for_the_lead_learns_from_the_lead_and_says_so(
    tmp_path: Path, start: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = ["--start-from", str(start), *TINY, "--reward", "lead"]
    whole, split = tmp_path / "whole", tmp_path / "split"
    assert finetune(whole, "--updates", "4", *settings) == 0
    assert finetune(split, "--updates", "2", *settings) == 0
    assert finetune(split, "--resume", "--updates", "4", "--quiet") == 0
    assert records(whole) == records(split)  # seeded and resumed exactly
    margin = tmp_path / "margin"
    assert finetune(margin, "--updates", "4", "--start-from", str(start), *TINY) == 0
    # The same games (the same seed), other targets: other value losses and weights.
    assert [r["value_loss"] for r in records(whole)] != [r["value_loss"] for r in records(margin)]
    assert not same_params(load(whole / "weights.npz"), load(margin / "weights.npz"))
    assert load(whole / "weights.npz").meta["settings"]["reward"] == "lead"  # type: ignore[index]
    assert finetune(split, "--resume", "--updates", "5", "--reward", "margin") == 2
    capsys.readouterr()
    bad = tmp_path / "bad"
    assert finetune(bad, "--start-from", str(start), *TINY, "--reward", "win") == 2
    err = capsys.readouterr().err
    assert "--reward is one of margin, lead" in err and "Traceback" not in err
    assert not bad.exists()
