"""The root of every error Bullring raises on purpose: :class:`BullringError`.

Each package raises narrow subclasses (``sdk.game.RulesError``, ``sdk.wire.codec.CodecError``,
``sdk.InvalidChoice``, the referee's ``ReplayError``, ``ManifestError``, ...), each also a
subclass of the builtin it used to be (``ValueError``, ``RuntimeError``), so existing
``except ValueError`` code keeps working. A tool catches ``BullringError`` once to turn a
user's mistake into one clear line; anything else is a bug and keeps its traceback.
This module imports nothing, so every package (the game model included) can use it.
"""

from __future__ import annotations


class BullringError(Exception):
    """Something Bullring refuses or cannot do, said in one line a user can act on."""
