"""The learned bot's policy: a linear softmax over per-action features (numpy only).

The features of an action are read from the seat's encoded observation
(:mod:`sdk.envs.encoding`, the 6 nimmt! family's layout) and the action's index in the
family's fixed action space, so the policy sees exactly what the PettingZoo environment it
was trained in shows a seat. Each decision kind has its own block of features (a pick
never shares a weight with a row choice). ``logits = features @ weights``; training
samples from the softmax over the legal actions, the bot plays the most likely one.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.typing as npt

from sdk.envs.encoding import SixNimmtCodec

Array = npt.NDArray[np.float64]

CODEC = SixNimmtCodec()
S = CODEC.slices
HEADS = np.array([0] + [7 if c == 55 else 5 if c % 11 == 0 else 3 if c % 10 == 0 else
                        2 if c % 5 == 0 else 1 for c in range(1, 105)], np.float64)  # fmt: skip

PICK = [
    "pick: bias",
    "pick: below every row",
    "pick: below every row x cheapest row's heads",
    "pick: distance to its place",
    "pick: 6th card (takes the row) x row heads",
    "pick: expected cards landing first / free slots",
    "pick: expected cards landing first / free slots x row heads",
    "pick: row heads",
    "pick: row length",
    "pick: card value",
    "pick: card heads",
    "pick: left end (Professional)",
    "pick: below every row x hand size",
    "pick: card value x hand size",
]
ROW = ["row: bias", "row: heads", "row: length", "row: fewest heads"]
PLACE = ["place: heads", "place: length", "place: takes the row x heads", "place: left end"]
DRAFT = ["draft: card value", "draft: card value squared", "draft: card heads", "draft: near cards"]
FEATURES = PICK + ROW + PLACE + DRAFT
P0, R0, L0, D0 = 0, len(PICK), len(PICK) + len(ROW), len(PICK) + len(ROW) + len(PLACE)
DRAFT_KIND = 3  # DecisionKind.DRAFT_CARD - 1, its index in the "decision" segment


def action_features(observation: npt.NDArray[np.float32], actions: list[int]) -> Array:
    """One feature row per action (indices in the 6 nimmt! family's action space)."""
    obs = observation.astype(np.float64)
    out = np.zeros((len(actions), len(FEATURES)))
    highest = max(obs[S["highest_card"]][0], 1.0)
    rows = obs[S["rows"]].reshape(4, 5)
    lengths = obs[S["row_lengths"]]
    heads = obs[S["row_heads"]]
    present = lengths > 0
    firsts = rows[:, 0]
    lasts = rows[np.arange(4), np.maximum(lengths.astype(int) - 1, 0)]
    hand = obs[S["hand"]]
    known = np.minimum(hand + obs[S["seen"]] + obs[S["table"]], 1)
    unknown = 1 - known
    unknown[int(highest) :] = 0
    n_unknown = max(unknown.sum(), 1.0)
    players = int(np.argmax(obs[S["players"]])) + 1
    opponents = players - 1
    hand_size = hand.sum() / 10
    both_ends = obs[S["preset"]][3] > 0
    drafting = obs[S["decision"]][DRAFT_KIND] > 0
    cheapest = heads[present].min() if present.any() else 0.0
    cumulative = np.concatenate([[0.0], np.cumsum(unknown)])  # cumulative[c] = unknown < c+1
    for i, action in enumerate(actions):
        f = out[i]
        if action < 104:
            card = action + 1
            value = card / highest
            if drafting:
                near = hand[max(0, card - 4) : card + 3].sum()
                f[D0 : D0 + 4] = (value, value * value, HEADS[card] / 7, near / 3)
                continue
            best, side, distance = -1, 0, 0.0
            for r in range(4):
                if not present[r]:
                    continue
                if card > lasts[r] and (best < 0 or card - lasts[r] < distance):
                    best, side, distance = r, 0, card - lasts[r]
                if both_ends and card < firsts[r] and (best < 0 or firsts[r] - card < distance):
                    best, side, distance = r, 1, firsts[r] - card
            f[P0] = 1
            f[P0 + 9] = value
            f[P0 + 10] = HEADS[card] / 7
            f[P0 + 13] = value * hand_size
            if best < 0:
                f[P0 + 1] = 1
                f[P0 + 2] = cheapest / 10
                f[P0 + 12] = hand_size
                continue
            length, row_heads = lengths[best], heads[best] / 10
            low, high = (lasts[best], card) if side == 0 else (card, firsts[best])
            between = cumulative[int(high) - 1] - cumulative[int(low)]
            expected = between / n_unknown * opponents
            free = 5 - length
            f[P0 + 3] = distance / highest
            if free <= 0:
                f[P0 + 4] = row_heads
            else:
                f[P0 + 5] = expected / free
                f[P0 + 6] = expected / free * row_heads
            f[P0 + 7] = row_heads
            f[P0 + 8] = length / 5
            f[P0 + 11] = side
        elif action < 108:
            r = action - 104
            f[R0 : R0 + 4] = (1, heads[r] / 10, lengths[r] / 5, float(heads[r] == cheapest))
        else:
            r, side = divmod(action - 108, 2)
            f[L0 : L0 + 4] = (
                heads[r] / 10,
                lengths[r] / 5,
                heads[r] / 10 * (lengths[r] >= 5),
                side,
            )
    return out


def probabilities(weights: Array, features: Array) -> Array:
    """The softmax of the logits over the given actions."""
    logits = features @ weights
    logits -= logits.max()
    exp = np.exp(logits)
    return np.asarray(exp / exp.sum())


def save(path: Path, weights: Array, meta: dict[str, object]) -> None:
    data = {"features": FEATURES, "weights": [round(float(w), 6) for w in weights], **meta}
    path.write_text(json.dumps(data, indent=1) + "\n")


def load(path: Path) -> Array:
    """The weights stored at `path`; their feature names must be this module's."""
    data = json.loads(path.read_text())
    if data["features"] != FEATURES:
        raise ValueError(f"{path} was trained with other features")
    return np.array(data["weights"], np.float64)
