"""sdk.game.engine.dealing: the quick shuffle gives exactly Random(text).shuffle's order, so every
deal, replay and seeded test stays the same."""

from __future__ import annotations

import hashlib
import random

import pytest

from sdk.game.engine.dealing import seeded_shuffle, sha512, shuffle, text_generator
from sdk.game.sixnimmt import deal_order


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 17, 33, 44, 64, 65, 100, 104, 129, 1024, 1500])
def test_the_order_is_random_shuffles_order(size: int) -> None:
    for seed in range(40):
        text = f"test:{seed * 7919}:{size}"
        expected = list(range(size))
        random.Random(text).shuffle(expected)
        got = list(range(size))
        seeded_shuffle(text, got)
        assert got == expected


def test_deals_are_the_ones_a_string_seeded_random_gives() -> None:
    for seed in (0, 1, 2**52 - 1, 123456789):
        for round_number in (1, 2, 7):
            for highest in (24, 104):
                expected = list(range(1, highest + 1))
                random.Random(f"6nimmt:{seed}:{round_number}").shuffle(expected)
                assert deal_order(seed, round_number, highest) == expected


def test_it_shuffles_any_items_in_place() -> None:
    items = ["a", "b", "c", "d", "e", "f"]
    expected = items.copy()
    random.Random("x").shuffle(expected)
    seeded_shuffle("x", items)
    assert items == expected


def test_the_generator_is_random_randoms_for_the_same_text() -> None:
    for text in ("", "6nimmt:0:1", "11nimmt:123456789:4", "é✓"):
        assert text_generator(text).getrandbits(4096) == random.Random(text).getrandbits(4096)


def test_draws_that_are_too_high_are_drawn_again() -> None:
    # For n just above a power of two nearly half the draws are rejected; each size here
    # has such steps, and every seed must still give shuffle's order.
    for size in (3, 5, 9, 17, 33, 65, 129, 257):
        for seed in range(20):
            expected = list(range(size))
            random.Random(f"more:{seed}").shuffle(expected)
            got = list(range(size))
            seeded_shuffle(f"more:{seed}", got)
            assert got == expected


def test_an_unordered_prefix_holds_the_same_items_and_the_rest_the_same_order() -> None:
    for size in (2, 10, 24, 44, 104):
        for unordered in (0, 1, 2, 9, 10, 24, 44):
            for seed in range(10):
                text = f"prefix:{seed}:{size}"
                expected = list(range(size))
                random.Random(text).shuffle(expected)
                got = list(range(size))
                seeded_shuffle(text, got, unordered)
                cut = min(unordered, size)
                assert sorted(got[:cut]) == sorted(expected[:cut])
                assert got[cut:] == expected[cut:]
            deck = deal_order(size, 1, 104)
            dealt = deal_order(size, 1, 104, unordered)
            assert sorted(dealt[:unordered]) == sorted(deck[:unordered])
            assert dealt[unordered:] == deck[unordered:]


@pytest.mark.parametrize(
    "text", [b"", b"6nimmt:0:1", "11nimmt:123456789:3 \u00e9".encode(), b"x" * 300]
)
def test_the_seed_digest_is_sha512(text: bytes) -> None:
    """The deal's SHA-512 (CPython's own where it has one) gives hashlib's digest."""
    assert sha512(text).digest() == hashlib.sha512(text).digest()


class _OwnRandom(random.Random):
    """A generator that draws from its own ``random`` (no ``getrandbits``): Random
    shuffles with ``_randbelow_without_getrandbits`` then."""

    def random(self) -> float:
        return super().random()


class _OwnBits(random.Random):
    """A generator with its own ``getrandbits``: Random shuffles with it."""

    def getrandbits(self, k: int) -> int:
        return super().getrandbits(k) ^ ((1 << k) - 1)  # every bit flipped


@pytest.mark.parametrize("kind", [random.Random, _OwnRandom, _OwnBits])
@pytest.mark.parametrize("size", [0, 1, 2, 3, 17, 64, 65, 89, 104, 1000])
def test_shuffle_is_rng_shuffle_order_and_state(kind: type[random.Random], size: int) -> None:
    """The quick shuffle makes rng.shuffle's draws: the same order, and the generator is
    left where rng.shuffle leaves it (what a bot draws next is the same)."""
    for seed in range(25):
        theirs, ours = kind(seed), kind(seed)
        expected, got = list(range(size)), list(range(size))
        theirs.shuffle(expected)
        shuffle(ours, got)
        assert got == expected
        assert ours.getstate() == theirs.getstate()
