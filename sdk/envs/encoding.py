"""Numeric encodings of views and options, one per game family (docs/rl.md).

Everything an RL library needs of a seat's decision, as fixed-size numpy arrays:

* :meth:`FamilyCodec.encode` turns a seat's view into a flat ``float32`` vector laid out
  in named segments (:attr:`FamilyCodec.segments`: name, size, meaning). It reads the
  view only, so it holds nothing the seat may not see.
* Every option of the family has one fixed action index (:meth:`FamilyCodec.action_of`);
  :meth:`FamilyCodec.mask` marks the legal ones, :meth:`FamilyCodec.option_of` maps an
  action back to the legal option it stands for.

Seats are encoded **relative to the observing seat**: per-seat segments list the
observer first, then the next seats in seat order (``(seat + i) % players``), padded with
zeros to the family's most players. Card values are the card numbers themselves (0: no
card), counts are counts: nothing is scaled.

numpy only (no gymnasium or pettingzoo), so a bot can use it in the sandbox. The shared
machinery is in :mod:`sdk.envs.codec_base`, the families' codecs in
:mod:`sdk.envs.family_codecs`; every name is importable from here.
"""

from __future__ import annotations

from collections.abc import Callable

from sdk.envs.codec_base import (
    SCORE_BOUND,
    FamilyCodec,
    Layout,
    Mask,
    Segment,
    Vector,
    relative,
    round_events,
)
from sdk.envs.family_codecs import (
    ELEVEN_MAX_PILES,
    HORNOCHSEN_MAX_ROWS,
    SIX_CARD_EVENTS,
    X_CARD_EVENTS,
    ElevenNimmtCodec,
    HornochsenCodec,
    SixNimmtCodec,
    XNimmtCodec,
    eleven_piles,
)
from sdk.game.variants import family_of

CODECS: dict[str, Callable[[], FamilyCodec]] = {
    "6nimmt": SixNimmtCodec,
    "xnimmt": XNimmtCodec,
    "11nimmt": ElevenNimmtCodec,
    "hornochsen": HornochsenCodec,
}
_MADE: dict[str, FamilyCodec] = {}


def codec_for(variant: str) -> FamilyCodec:
    """The codec of a variant's family (one shared instance per family)."""
    name = family_of(variant).name
    codec = _MADE.get(name)
    if codec is None:
        codec = _MADE[name] = CODECS[name]()
    return codec


__all__ = [
    "CODECS",
    "ELEVEN_MAX_PILES",
    "HORNOCHSEN_MAX_ROWS",
    "SCORE_BOUND",
    "SIX_CARD_EVENTS",
    "X_CARD_EVENTS",
    "ElevenNimmtCodec",
    "FamilyCodec",
    "HornochsenCodec",
    "Layout",
    "Mask",
    "Segment",
    "SixNimmtCodec",
    "Vector",
    "XNimmtCodec",
    "codec_for",
    "eleven_piles",
    "relative",
    "round_events",
]
