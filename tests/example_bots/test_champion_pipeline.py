"""The champion's training pipeline on a tiny run: it writes its records, a run stopped
and resumed from its checkpoint ends exactly as one that never stopped, it refuses what
would mix two runs, its gradients are the loss's, and its PNGs are PNGs."""

from __future__ import annotations

import fcntl
import json
import os
import struct
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from example_bots.champion_bot.curve import draw, write_png
from example_bots.champion_bot.features import MAX_OPTIONS, OPTION_SIZE, STATE_SIZE
from example_bots.champion_bot.net import Batch, initial, load, loss_and_gradients
from example_bots.champion_bot.train import (
    main,
    one_blas_thread,
    race_target,
    search_target,
)

TINY = ["--games", "2", "--players", "3", "--visits", "6", "--search-games", "8",
        "--train-steps", "4", "--batch-size", "16", "--eval-deals", "1", "--quiet"]  # fmt: skip


def train(out: Path, *args: str) -> int:
    return main(["--out", str(out), *args])


def metrics(out: Path) -> list[dict[str, Any]]:
    """The metrics log without its wall-clock figures."""
    lines = (out / "metrics.jsonl").read_text().splitlines()
    return [{k: v for k, v in json.loads(line).items() if k != "hours"} for line in lines]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_a_resumed_run_ends_as_an_uninterrupted_one(tmp_path: Path) -> None:
    whole, split = tmp_path / "whole", tmp_path / "split"
    assert train(whole, "--iterations", "2", *TINY) == 0
    assert train(split, "--iterations", "1", *TINY) == 0
    first = load(split / "weights.npz")
    assert train(split, "--iterations", "2", "--resume", "--quiet") == 0
    a, b = load(whole / "weights.npz"), load(split / "weights.npz")
    assert a.params.keys() == b.params.keys()
    for key in a.params:
        assert np.array_equal(a.params[key], b.params[key]), key
    assert any(not np.array_equal(first.params[k], b.params[k]) for k in b.params)
    assert metrics(whole) == metrics(split)
    assert [m["iteration"] for m in metrics(split)] == [0, 1, 2]
    assert {"win_rate", "low", "high", "heads"} <= set(metrics(split)[-1]["eval"]["rules_bot"])
    # The weights say how they were made: both commands of the split run.
    commands = b.meta["commands"]
    assert isinstance(commands, list) and len(commands) == 2 and "--resume" in commands[1]
    assert b.meta["iterations"] == 2 and b.meta["self_play_games"] == 4
    names = {p.name for p in split.iterdir()}
    assert {"checkpoint.npz", "weights.npz", "weights-0002.npz", "metrics.jsonl", "curve.png",
            "config.json"} <= names  # fmt: skip
    assert not [n for n in names if n.endswith(".tmp")]
    assert png_size(split / "curve.png")[0] > 0


def test_it_refuses_to_mix_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert train(out, "--resume", *TINY) == 2  # nothing to resume
    assert not out.exists()  # and no folder made for it
    assert train(out, "--iterations", "0", *TINY) == 0  # the untrained network's record only
    assert [m["iteration"] for m in metrics(out)] == [0]
    assert train(out, "--iterations", "0", *TINY) == 2  # a run is there: --resume
    assert train(out, "--resume", "--iterations", "0", "--visits", "7") == 2
    with (out / ".lock").open("w") as held:  # a run going on in this folder
        fcntl.flock(held, fcntl.LOCK_EX)
        assert train(out, "--resume", "--iterations", "0") == 2
    assert train(out, "--resume", "--iterations", "0") == 0
    (out / "checkpoint.npz").write_bytes(b"not a checkpoint")  # damaged
    assert train(out, "--resume", "--iterations", "0") == 2
    err = capsys.readouterr().err
    assert "no checkpoint" in err and "pass --resume" in err and "'visits': 7" in err
    assert "another run is using" in err and f"cannot resume {out}" in err
    assert "Traceback" not in err


def test_a_run_starts_from_given_weights_and_plays_out_with_the_network(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "first"
    assert train(first, "--iterations", "1", *TINY) == 0
    start = first / "weights.npz"
    second, again = tmp_path / "second", tmp_path / "again"
    settings = ["--start-from", str(start), "--playouts", "net", "--iterations", "1", *TINY]
    assert train(second, *settings) == 0
    assert train(again, *settings) == 0
    # Iteration 0 is the given network's evaluation; the run is seeded as any other.
    assert metrics(second)[0]["eval"] == metrics(first)[1]["eval"]
    assert metrics(second) == metrics(again)
    made = load(second / "weights.npz").meta["config"]
    assert isinstance(made, dict)
    assert made["playouts"] == "net" and made["start_from"] == str(start)
    # The network's playouts label other games than the greedy ones.
    greedy = tmp_path / "greedy"
    assert train(greedy, "--start-from", str(start), "--iterations", "1", *TINY) == 0
    assert metrics(greedy)[1]["loss_policy"] != metrics(second)[1]["loss_policy"]
    # Settings it cannot use are refused with a line, no traceback.
    assert train(tmp_path / "bad", "--playouts", "random", *TINY) == 2
    assert train(tmp_path / "gone", "--start-from", str(tmp_path / "none.npz"), *TINY) == 2
    wider = ["--start-from", str(start), "--policy-hidden", "8", *TINY]
    assert train(tmp_path / "wider", *wider) == 2
    assert not any((tmp_path / name).exists() for name in ("bad", "gone", "wider"))
    err = capsys.readouterr().err
    assert "--playouts is one of greedy, rules, net" in err
    assert err.count("error: --start-from:") == 2 and "has layers" in err


def test_a_run_labels_card_picks_with_the_race(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = ["--searcher", "race", "--race-rounds", "3", "--iterations", "1", *TINY]
    raced, again, puct = tmp_path / "raced", tmp_path / "again", tmp_path / "puct"
    assert train(raced, *settings) == 0
    assert train(again, *settings) == 0
    assert metrics(raced) == metrics(again)  # seeded as any run
    made = load(raced / "weights.npz").meta["config"]
    assert isinstance(made, dict)
    assert made["searcher"] == "race" and made["race_rounds"] == 3 and made["q_temperature"] == 0.5
    assert train(puct, "--iterations", "1", *TINY) == 0
    assert metrics(puct)[1]["loss_policy"] != metrics(raced)[1]["loss_policy"]
    assert train(tmp_path / "bad", "--searcher", "mcts", *TINY) == 2
    assert train(tmp_path / "cold", "--searcher", "race", "--q-temperature", "0", *TINY) == 2
    err = capsys.readouterr().err
    assert "--searcher is one of puct, race" in err and "--q-temperature must be above 0" in err


def test_the_race_target_weighs_options_by_their_margins() -> None:
    target = race_target(np.array([1.0, 0.0, 1.0, -3.0]), 0.5)
    assert target.sum() == pytest.approx(1.0)
    assert target[0] == pytest.approx(target[2])  # not told apart: shared
    assert target[1] / target[0] == pytest.approx(np.exp(-2.0))  # a head behind at 0.5
    assert target[3] < 1e-3
    # Far apart means stay finite (the best is shifted to 0 first).
    assert np.isfinite(race_target(np.array([500.0, -500.0]), 0.01)).all()


def test_the_gradients_are_the_losses() -> None:
    rng = np.random.default_rng(0)
    net = initial(2, (6,), (5,))
    for key in net.params:  # biases off zero, so no ReLU sits at its kink
        net.params[key] = net.params[key] + rng.normal(0, 0.3, net.params[key].shape)
    b, m = 3, MAX_OPTIONS
    mask = np.zeros((b, m), dtype=bool)
    mask[:, :4] = True
    mask[0, 4:7] = True
    target = np.where(mask, rng.random((b, m)), 0.0)
    target /= target.sum(axis=1, keepdims=True)
    batch = Batch(rng.random((b, STATE_SIZE)), rng.random((b, m, OPTION_SIZE)), mask, target,
                  rng.normal(0, 1, b))  # fmt: skip

    def loss() -> float:
        losses, _ = loss_and_gradients(net, batch, value_weight=0.7)
        return losses["policy"] + 0.7 * losses["value"]

    _, grads = loss_and_gradients(net, batch, value_weight=0.7)
    assert_central_differences(net.params, grads, loss)


def assert_central_differences(
    params: dict[str, Any], grads: dict[str, Any], loss: Callable[[], float]
) -> None:
    """Each gradient (the first 5 entries of every parameter) is the central difference
    of `loss`, which reads `params` as they are when it is called."""
    for key, param in params.items():
        for index in list(np.ndindex(param.shape))[:5]:
            saved = param[index]
            param[index] = saved + 1e-6
            up = loss()
            param[index] = saved - 1e-6
            down = loss()
            param[index] = saved
            assert grads[key][index] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-7)


def test_the_policy_target_takes_off_the_forced_first_visits() -> None:
    assert search_target(np.array([1.0, 5.0, 3.0])).tolist() == [0.0, 4 / 6, 2 / 6]
    assert search_target(np.array([1.0, 1.0])).tolist() == [0.5, 0.5]


def test_the_plain_png_is_a_png_of_the_chart(tmp_path: Path) -> None:
    image = np.zeros((3, 2, 3), dtype=np.uint8)
    image[1, 1] = (10, 20, 30)
    write_png(tmp_path / "tiny.png", image)
    data = (tmp_path / "tiny.png").read_bytes()
    assert png_size(tmp_path / "tiny.png") == (2, 3)
    start = data.index(b"IDAT") + 4
    length = struct.unpack(">I", data[start - 8 : start - 4])[0]
    raw = zlib.decompress(data[start : start + length])
    assert raw[7 + 1 + 3 : 7 + 1 + 6] == bytes((10, 20, 30))  # row 1, after its filter byte
    record = {"iteration": 0, "eval": {"rules_bot": {"win_rate": 0.2, "low": 0.1, "high": 0.4}}}
    later = {"iteration": 3, "eval": {"rules_bot": {"win_rate": 0.3, "low": 0.2, "high": 0.5}}}
    assert draw([record, later], tmp_path / "curve.png", 0.25, plain=True) == "plain"
    assert png_size(tmp_path / "curve.png") == (800, 400)


def test_self_play_in_worker_processes_computes_the_same_run(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    args = [*TINY, "--iterations", "1", "--games", "3"]
    assert train(one, *args, "--jobs", "1") == 0
    assert train(two, *args, "--jobs", "2") == 0
    a, b = load(one / "weights.npz"), load(two / "weights.npz")
    for key in a.params:
        assert np.array_equal(a.params[key], b.params[key]), key
    assert metrics(one) == metrics(two)


def test_self_play_workers_get_one_blas_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")  # the user's own setting is kept
    with one_blas_thread():
        assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
        assert os.environ["OMP_NUM_THREADS"] == "3"
        started = subprocess.run(
            [sys.executable, "-c", "import os; print(os.environ['OPENBLAS_NUM_THREADS'])"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        assert started.stdout.strip() == "1"
    assert "OPENBLAS_NUM_THREADS" not in os.environ
    assert os.environ["OMP_NUM_THREADS"] == "3"
