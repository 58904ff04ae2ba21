"""Dealing: the shuffle of one round, fixed by a text seed, quickly.

``seeded_shuffle(text, cards)`` puts `cards` in exactly the order
``random.Random(text).shuffle(cards)`` does (every deal, replay and seeded test depends on
that order), at a fraction of the cost: ``Random.shuffle`` asks for every swap through two
Python-level calls (``_randbelow`` and ``getrandbits``), where this loop calls the
generator's ``getrandbits`` directly.

Why it is the same order:

- ``random.Random(text)`` seeds the Mersenne Twister with the integer made of the text's
  UTF-8 bytes followed by their SHA-512 digest, big-endian (``Random.seed``'s version 2);
  :func:`text_generator` builds the generator from that integer directly (the C type,
  without ``random.Random``'s Python-level seeding).
- For ``i`` from ``len - 1`` down to 1, ``shuffle`` swaps item ``i`` with item
  ``randbelow(i + 1)``; ``randbelow(n)`` draws ``getrandbits(k)`` with
  ``k = n.bit_length()`` until the value is below ``n``. The loop below makes the same
  draws in the same order, so it makes the same swaps.

``tests/sdk/test_dealing.py`` compares the two over many seeds and deck sizes.
"""

from __future__ import annotations

import _random
import hashlib
import random
from collections.abc import Callable
from importlib import import_module
from typing import Any, TypeVar


def _quick_sha512() -> Callable[[bytes], Any]:
    """CPython's own SHA-512 where it has one (the same digest as OpenSSL's, with less to
    set up for a short text: about a third quicker a seed), else hashlib's."""
    for name in ("_sha512", "_sha2"):  # Python 3.11; 3.12 and later
        try:
            found: Callable[[bytes], Any] = import_module(name).sha512
        except (ImportError, AttributeError):
            continue
        return found
    return hashlib.sha512


sha512 = _quick_sha512()
T = TypeVar("T")

_STEPS: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
_STEPS_LIMIT = 4096  # (deck size, stop) pairs remembered (a few are used)


def text_generator(text: str) -> _random.Random:
    """The Mersenne Twister of ``random.Random(text)``, in the same state (only its
    ``random``/``getrandbits`` stream is used: no Gaussian state)."""
    raw = text.encode()
    return _random.Random(int.from_bytes(raw + sha512(raw).digest(), "big"))


def _steps(size: int, stop: int) -> tuple[tuple[int, int], ...]:
    """(i, k) for every swap of a shuffle of `size` items with i >= `stop`, in order: item
    i is swapped with item ``randbelow(i + 1)``, drawn ``k = (i + 1).bit_length()`` bits at
    a time."""
    steps = _STEPS.get((size, stop))
    if steps is None:
        steps = tuple((i, (i + 1).bit_length()) for i in range(size - 1, max(stop, 1) - 1, -1))
        if len(_STEPS) < _STEPS_LIMIT:
            _STEPS[size, stop] = steps
    return steps


def seeded_shuffle(text: str, items: list[T], unordered: int = 0) -> None:
    """Shuffle `items` in place exactly as ``random.Random(text).shuffle(items)`` does.

    With `unordered` > 0 the first `unordered` items come out as the same items, in some
    other order: the shuffle's last steps (i < `unordered`), which only swap items among
    those places, are left out. For a deal whose first hand is sorted anyway."""
    if len(items) < 2:
        return
    _swap(text_generator(text).getrandbits, items, _steps(len(items), unordered))


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle `items` in place exactly as ``rng.shuffle(items)`` does: the same draws, so
    the same order and the same generator state afterwards, at about a third of the cost
    (the loop asks ``getrandbits`` itself, not through ``_randbelow``). A generator that
    draws otherwise (a subclass with its own ``random`` and no ``getrandbits``) shuffles
    itself."""
    if getattr(type(rng), "_randbelow", None) is not _RANDBELOW_WITH_BITS:
        rng.shuffle(items)
    elif len(items) > 1:
        _swap(rng.getrandbits, items, _steps(len(items), 0))


def _swap(
    getrandbits: Callable[[int], int], items: list[T], steps: tuple[tuple[int, int], ...]
) -> None:
    """The Fisher-Yates swaps of `steps` (see :func:`_steps`), drawing from `getrandbits`."""
    for i, k in steps:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


_RANDBELOW_WITH_BITS = vars(random.Random)["_randbelow_with_getrandbits"]
"""What ``random.Random.shuffle`` draws with when the generator has ``getrandbits``."""
