"""Dealing: the shuffle of one round, fixed by a text seed, quickly.

``seeded_shuffle(text, cards)`` puts `cards` in exactly the order
``random.Random(text).shuffle(cards)`` does (every deal, replay and seeded test depends on
that order), at a fraction of the cost: ``Random.shuffle`` asks the generator for every
swap through two Python-level calls, where this draws the 32-bit words it needs in a few
calls and runs the same Fisher-Yates loop over them.

Why it is the same order:

- ``random.Random(text)`` seeds the Mersenne Twister with the integer made of the text's
  UTF-8 bytes followed by their SHA-512 digest, big-endian (``Random.seed``'s version 2);
  :func:`text_generator` builds the generator from that integer directly (the C type,
  without ``random.Random``'s Python-level seeding).
- For ``i`` from ``len - 1`` down to 1, ``shuffle`` swaps item ``i`` with item
  ``randbelow(i + 1)``; ``randbelow(n)`` takes ``k = n.bit_length()`` bits,
  ``getrandbits(k)``, until the value is below ``n``; and ``getrandbits(k)`` for
  ``k <= 32`` is the generator's next 32-bit word shifted right by ``32 - k``.
- One call ``getrandbits(32 * m)`` gives the next ``m`` words, the first in the lowest
  bits, and the next call continues the same stream. So the loop below reads the same
  words in the same order and makes the same swaps.

``tests/sdk/test_dealing.py`` compares the two over many seeds and deck sizes.
"""

from __future__ import annotations

import _random
import random
import sys
from collections.abc import Iterator
from hashlib import sha512
from itertools import chain
from typing import TypeVar

T = TypeVar("T")

SHIFTS: tuple[int, ...] = tuple(32 - n.bit_length() for n in range(1, 1025))
"""SHIFTS[i]: the right shift that turns a 32-bit word into randbelow(i + 1)'s candidate."""
MORE_WORDS = 64  # words drawn at a time once the first draw is used up
_NATIVE_LITTLE = sys.byteorder == "little"
_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def text_generator(text: str) -> _random.Random:
    """The Mersenne Twister of ``random.Random(text)``, in the same state (only its
    ``random``/``getrandbits`` stream is used: no Gaussian state)."""
    raw = text.encode()
    return _random.Random(int.from_bytes(raw + sha512(raw).digest(), "big"))


def _steps(size: int) -> tuple[tuple[int, int], ...]:
    """(i, shift) for every swap of a shuffle of `size` items, in order."""
    steps = _STEPS.get(size)
    if steps is None:
        swaps = range(size - 1, 0, -1)
        steps = _STEPS[size] = tuple(zip(swaps, SHIFTS[size - 1 : 0 : -1], strict=True))
    return steps


def first_draw(size: int) -> int:
    """How many words to draw first for a shuffle of `size` items: a swap takes 1.5 words
    on average (a candidate too high is rejected), so this is nearly always enough; more
    are drawn when it is not."""
    return size + size // 2 + 16


def _more(generator: _random.Random) -> Iterator[int]:
    """The generator's next words, MORE_WORDS at a time, for ever."""
    while True:
        data = generator.getrandbits(32 * MORE_WORDS).to_bytes(4 * MORE_WORDS, "little")
        yield from memoryview(data).cast("I")


def seeded_shuffle(text: str, items: list[T]) -> None:
    """Shuffle `items` in place exactly as ``random.Random(text).shuffle(items)`` does."""
    size = len(items)
    if size < 2:
        return
    if size > len(SHIFTS) or not _NATIVE_LITTLE:
        random.Random(text).shuffle(items)
        return
    generator = text_generator(text)
    count = first_draw(size)
    data = generator.getrandbits(32 * count).to_bytes(4 * count, "little")
    next_word = chain(memoryview(data).cast("I"), _more(generator)).__next__
    for i, shift in _steps(size):
        j = next_word() >> shift  # randbelow(i + 1)
        while j > i:
            j = next_word() >> shift
        items[i], items[j] = items[j], items[i]
