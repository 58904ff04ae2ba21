"""The learned bot: its stored weights load, it beats the random bot in duplicate deals,
and its training script trains, saves weights and draws its learning curve."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np

from benchmarks.strength import TABLES, duplicate
from example_bots.learned_bot.bot import WEIGHTS, LearnedBot, trained_weights
from example_bots.learned_bot.policy import FEATURES, load
from sdk.local import play_local

ROOT = Path(__file__).resolve().parents[2]


def test_the_stored_weights_match_the_policys_features() -> None:
    weights = trained_weights()
    assert weights.shape == (len(FEATURES),)
    assert np.all(np.isfinite(weights)) and np.any(weights != 0)
    assert WEIGHTS.parent == Path(__file__).resolve().parents[2] / "example_bots" / "learned_bot"


def test_it_takes_fewer_heads_than_random_bots_in_duplicate_deals() -> None:
    stats = duplicate("6nimmt:rounds=1", 6, 1000, 11, TABLES["learned-vs-random"])
    learned, random_ = stats["learned_bot"], stats["random_bot"]
    assert learned.games == 24 and random_.games == 72
    assert learned.mean < random_.mean


def test_it_plays_every_6nimmt_preset() -> None:
    for variant in LearnedBot.variants:
        result = play_local(variant, [LearnedBot(), LearnedBot(), LearnedBot()], 3, {"rounds": "1"})
        assert result.state.is_terminal()


def test_the_training_script_saves_weights_and_a_learning_curve(tmp_path: Path) -> None:
    weights, curve = tmp_path / "weights.json", tmp_path / "curve.svg"
    done = subprocess.run(
        [sys.executable, "-m", "example_bots.learned_bot.train", "--games", "8", "--batch",
         "4", "--eval-every", "4", "--eval-deals", "1", "--out", str(weights),
         "--curve", str(curve)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "8 games" in done.stdout
    trained = load(weights)
    assert trained.shape == (len(FEATURES),) and np.any(trained != 0)
    assert [games for games, _ in json.loads(weights.read_text())["curve"]] == [0, 4, 8]
    svg = ElementTree.parse(curve).getroot()
    assert svg.tag.endswith("svg")
    assert len(svg.findall(".//{http://www.w3.org/2000/svg}polyline")) == 1
