"""The champion's policy-and-value network: two small multilayer perceptrons in numpy.

- **Policy**: each legal option is scored by an MLP over the decision's state vector
  joined with the option's row (:mod:`example_bots.champion_bot.features`):
  ``logit_i = mlp_p([state, option_i])``; the policy is the softmax over the options.
  Scoring options one at a time lets one network serve any hand size, player count and
  decision kind.
- **Value**: ``mlp_v(state)``, the seat's expected final margin over the table (the
  others' mean heads minus its own) in units of 10 heads.

Hidden layers are ReLU, outputs linear. Parameters are float64 arrays named ``p0.w``,
``p0.b``, ... (policy) and ``v0.w``, ... (value); :func:`save` writes them with a JSON
record of how they were made (``meta``) into one ``.npz`` file, through a temporary file
and a rename, and :func:`load` reads one (numpy only, no pickle). The forward pass is
all the bot needs; :func:`loss_and_gradients` is the training pipeline's.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from example_bots.champion_bot.features import OPTION_FEATURES, STATE_FEATURES, Array

FORMAT = "champion-net/1"
Params = dict[str, Array]


@dataclass
class Net:
    """The parameters and the layer sizes (inputs first, the output 1 last)."""

    params: Params
    policy_sizes: tuple[int, ...]
    value_sizes: tuple[int, ...]
    meta: dict[str, object] = field(default_factory=dict)
    _policy32: dict[str, npt.NDArray[np.float32]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def logits(self, state: Array, options: Array) -> Array:
        """One logit per option row: ``options`` (m, OPTION_SIZE), ``state`` (STATE_SIZE,)."""
        x = np.concatenate([np.broadcast_to(state, (len(options), len(state))), options], axis=1)
        out = forward(self.params, "p", len(self.policy_sizes) - 1, x)[-1]
        return np.asarray(out[:, 0])

    def pick_logits(self, state: Array, options: Array) -> npt.NDArray[np.float32]:
        """Logits for many decisions at once, in float32 (about 4 times as fast; the
        playouts call this every turn): ``state`` (..., STATE_SIZE) and ``options``
        (..., M, OPTION_SIZE) give (..., M). The first layer's state part is computed once
        per decision, not once per option."""
        *batch, m, width = options.shape
        decisions = int(np.prod(batch))
        params = self._float32()
        first = params["p0.w"]
        split = state.shape[-1]
        per_state = state.reshape(decisions, split).astype(np.float32) @ first[:split]
        per_state += params["p0.b"]
        x = options.reshape(decisions * m, width).astype(np.float32) @ first[split:]
        x = x.reshape(decisions, m, -1)
        x += per_state[:, None, :]
        x = x.reshape(decisions * m, -1)
        for layer in range(1, len(self.policy_sizes) - 1):
            np.maximum(x, 0.0, out=x)
            x = x @ params[f"p{layer}.w"]
            x += params[f"p{layer}.b"]
        return np.asarray(x.reshape(*batch, m), dtype=np.float32)

    def _float32(self) -> dict[str, npt.NDArray[np.float32]]:
        """The policy's parameters in float32, made at the first call (in play the
        parameters do not change; training never calls this)."""
        if self._policy32 is None:
            self._policy32 = {
                name: np.ascontiguousarray(value, dtype=np.float32)
                for name, value in self.params.items()
                if name.startswith("p")
            }
        return self._policy32

    def params_changed(self) -> None:
        """Drop the float32 copy of the policy (a trainer that changes the parameters in
        place between games calls this)."""
        self._policy32 = None

    def value(self, state: Array) -> float:
        """The predicted margin over the table, in units of 10 heads."""
        out = forward(self.params, "v", len(self.value_sizes) - 1, state[None, :])[-1]
        return float(out[0, 0])

    def policy(self, state: Array, options: Array) -> Array:
        """The softmax over the options' logits."""
        return softmax(self.logits(state, options))


def softmax(logits: Array) -> Array:
    shifted = logits - logits.max()
    e = np.exp(shifted)
    return np.asarray(e / e.sum())


def initial(
    seed: int, policy_hidden: Sequence[int] = (128, 64), value_hidden: Sequence[int] = (64,)
) -> Net:
    """A fresh network (He-initialised weights, zero biases) from `seed`."""
    rng = np.random.default_rng(seed)
    state, option = len(STATE_FEATURES), len(OPTION_FEATURES)
    policy_sizes = (state + option, *policy_hidden, 1)
    value_sizes = (state, *value_hidden, 1)
    params: Params = {}
    for prefix, sizes in (("p", policy_sizes), ("v", value_sizes)):
        for layer, (fan_in, fan_out) in enumerate(itertools.pairwise(sizes)):
            last = layer == len(sizes) - 2
            scale = 0.01 if last else np.sqrt(2.0 / fan_in)
            params[f"{prefix}{layer}.w"] = rng.normal(0.0, scale, (fan_in, fan_out))
            params[f"{prefix}{layer}.b"] = np.zeros(fan_out)
    return Net(params, policy_sizes, value_sizes)


def forward(params: Params, prefix: str, layers: int, x: Array) -> list[Array]:
    """Every layer's output, the input first (ReLU between layers, the last linear)."""
    outs = [x]
    for layer in range(layers):
        x = x @ params[f"{prefix}{layer}.w"] + params[f"{prefix}{layer}.b"]
        if layer < layers - 1:
            x = np.maximum(x, 0.0)
        outs.append(x)
    return outs


def backward(
    params: Params, prefix: str, outs: list[Array], grad_out: Array, grads: Params
) -> None:
    """Accumulate the gradients of the layers of `prefix` from d(loss)/d(output)."""
    g = grad_out
    for layer in range(len(outs) - 2, -1, -1):
        grads[f"{prefix}{layer}.w"] = outs[layer].T @ g
        grads[f"{prefix}{layer}.b"] = g.sum(axis=0)
        if layer:
            g = (g @ params[f"{prefix}{layer}.w"].T) * (outs[layer] > 0)


@dataclass(frozen=True)
class Batch:
    """Training samples: per decision its state, up to M options (padded, `mask`), the
    search's policy over them (`target`) and the game's outcome for the seat (`value`)."""

    state: Array  # (B, STATE_SIZE)
    options: Array  # (B, M, OPTION_SIZE)
    mask: npt.NDArray[np.bool_]  # (B, M)
    target: Array  # (B, M), sums to 1 over the mask
    value: Array  # (B,)


def loss_and_gradients(
    net: Net, batch: Batch, value_weight: float = 1.0
) -> tuple[dict[str, float], Params]:
    """The mean cross-entropy of the policy against the targets plus `value_weight` times
    the mean squared error of the value; the losses and every parameter's gradient."""
    b, m, _ = batch.options.shape
    state_in = np.broadcast_to(batch.state[:, None, :], (b, m, batch.state.shape[1]))
    x = np.concatenate([state_in, batch.options], axis=2).reshape(b * m, -1)
    p_outs = forward(net.params, "p", len(net.policy_sizes) - 1, x)
    logits = np.where(batch.mask, p_outs[-1].reshape(b, m), -np.inf)
    logits = logits - logits.max(axis=1, keepdims=True)
    log_p = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    p = np.exp(log_p)
    safe_log_p = np.where(batch.mask, log_p, 0.0)
    policy_loss = float(-(batch.target * safe_log_p).sum() / b)
    entropy = float(-(p * safe_log_p).sum() / b)
    grad_logits = np.where(batch.mask, p - batch.target, 0.0) / b
    grads: Params = {}
    backward(net.params, "p", p_outs, grad_logits.reshape(b * m, 1), grads)
    v_outs = forward(net.params, "v", len(net.value_sizes) - 1, batch.state)
    error = v_outs[-1][:, 0] - batch.value
    value_loss = float((error**2).mean())
    backward(net.params, "v", v_outs, (value_weight * 2.0 * error / b)[:, None], grads)
    losses = {"policy": policy_loss, "value": value_loss, "entropy": entropy}
    return losses, grads


def save(path: Path, net: Net, meta: dict[str, object] | None = None) -> None:
    """Write `net` to `path` (.npz) atomically: a temporary file, then a rename."""
    record = {
        "format": FORMAT,
        "state_features": list(STATE_FEATURES),
        "option_features": list(OPTION_FEATURES),
        "policy_sizes": list(net.policy_sizes),
        "value_sizes": list(net.value_sizes),
        **(net.meta if meta is None else meta),
    }
    arrays = {name: np.asarray(value) for name, value in net.params.items()}
    write_npz(path, {"meta": np.array(json.dumps(record, sort_keys=True)), **arrays})


def write_npz(path: Path, arrays: dict[str, npt.NDArray[np.generic]]) -> None:
    """``np.savez_compressed`` through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("wb") as handle:
        np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def load(path: Path) -> Net:
    """The network stored at `path`; it must have been made with this module's features."""
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        params = {n: np.array(data[n], dtype=np.float64) for n in data.files if n != "meta"}
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} file")
    made_with = (meta["state_features"], meta["option_features"])
    if made_with != (list(STATE_FEATURES), list(OPTION_FEATURES)):
        raise ValueError(f"{path} was made with other features")
    sizes = tuple(meta.pop("policy_sizes")), tuple(meta.pop("value_sizes"))
    for key in ("format", "state_features", "option_features"):
        meta.pop(key)
    return Net(params, sizes[0], sizes[1], meta)
