"""The learned bot: plays the most likely action of the trained policy (policy.py).

Its weights are ``weights.json`` beside this file, trained by ``train.py`` (docs/rl.md).
It plays the 6 nimmt! family (6nimmt, Tactics, Logic, Professional): the view is encoded
as the PettingZoo environment encodes it (:mod:`sdk.envs.encoding`), every legal option
is scored, and the best is played. numpy and the SDK only, so it runs in the sandbox.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from example_bots.learned_bot.policy import CODEC, Array, action_features, load
from sdk import Bot, DecisionClock, Option, View

WEIGHTS = Path(__file__).resolve().parent / "weights.json"
_LOADED: list[Array] = []


def trained_weights() -> Array:
    """The stored weights, read once per process."""
    if not _LOADED:
        _LOADED.append(load(WEIGHTS))
    return _LOADED[0]


class LearnedBot(Bot):
    """Greedy on a linear policy trained by self-play."""

    name = "learned_bot"
    version = "1.0"
    author = "Bullring examples"
    variants = ("6nimmt", "6nimmt-tactics", "6nimmt-logic", "6nimmt-pro")

    def __init__(self, weights: Array | None = None) -> None:
        self.weights = trained_weights() if weights is None else weights

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        if len(options) == 1:
            return 0
        actions = CODEC.actions(options)
        features = action_features(CODEC.encode(view), actions)
        return int(np.argmax(features @ self.weights))
