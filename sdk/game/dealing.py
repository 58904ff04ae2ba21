"""Dealing: the shuffle of one round, fixed by a text seed, quickly.

``seeded_shuffle(text, cards)`` puts `cards` in exactly the order
``random.Random(text).shuffle(cards)`` does (every deal, replay and seeded test depends on
that order), at a fraction of the cost: ``Random.shuffle`` asks the generator for every
swap through two Python-level calls, where this draws all the 32-bit words it needs at
once and runs the same Fisher-Yates loop over them.

Why it is the same order: for ``i`` from ``len - 1`` down to 1, ``shuffle`` swaps item
``i`` with item ``randbelow(i + 1)``; ``randbelow(n)`` takes ``k = n.bit_length()`` bits,
``getrandbits(k)``, until the value is below ``n``; and ``getrandbits(k)`` for
``k <= 32`` is the generator's next 32-bit word shifted right by ``32 - k``. One call
``getrandbits(32 * m)`` gives the next ``m`` words, the first in the lowest bits. So the
loop below reads the same words in the same order and makes the same swaps. The test
``tests/sdk/test_dealing.py`` compares the two over many seeds and deck sizes.
"""

from __future__ import annotations

import random
import sys
from typing import TypeVar

T = TypeVar("T")

SHIFTS: tuple[int, ...] = tuple(32 - n.bit_length() for n in range(1, 1025))
"""SHIFTS[i]: the right shift that turns a 32-bit word into randbelow(i + 1)'s candidate."""
WORDS_PER_SWAP = 3  # rejections are rare (under 1 in 2 per swap): 3 words a swap is plenty
_NATIVE_LITTLE = sys.byteorder == "little"


def seeded_shuffle(text: str, items: list[T]) -> None:
    """Shuffle `items` in place exactly as ``random.Random(text).shuffle(items)`` does."""
    size = len(items)
    if size > len(SHIFTS) or not _NATIVE_LITTLE:
        random.Random(text).shuffle(items)
        return
    count = WORDS_PER_SWAP * size
    data = random.Random(text).getrandbits(32 * count).to_bytes(4 * count, "little")
    next_word = iter(memoryview(data).cast("I")).__next__  # native order: little-endian
    shuffled = items.copy()
    shifts = SHIFTS
    try:
        for i in range(size - 1, 0, -1):
            shift = shifts[i]  # randbelow(i + 1)
            j = next_word() >> shift
            while j > i:
                j = next_word() >> shift
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
    except StopIteration:  # more rejections than words (very rare): the slow way
        random.Random(text).shuffle(items)
        return
    items[:] = shuffled
