"""sdk.seeding: deals and seed hints are keyed, domain-separated and independent."""

from __future__ import annotations

import random

import pytest

from sdk.seeding import (
    DEAL_SEED_BITS,
    KEY_BYTES,
    LOCAL_KEY,
    LOCAL_LEAGUE,
    SEED_HINT_BITS,
    deal_seed,
    key_id,
    local_seeds,
    match_seeds,
    new_key,
    seed_hint,
)

KEY = random.Random("seeding").randbytes(KEY_BYTES)


def test_every_input_changes_every_output() -> None:
    base = match_seeds(KEY, "demo", 7, 4)
    others = [
        match_seeds(random.Random("other").randbytes(KEY_BYTES), "demo", 7, 4),
        match_seeds(KEY, "demo2", 7, 4),
        match_seeds(KEY, "demo", 8, 4),
    ]
    for other in others:
        assert other.deal != base.deal
        assert all(a != b for a, b in zip(other.hints, base.hints, strict=True))
    assert len(set(base.hints)) == 4  # each seat its own hint
    assert base.deal not in base.hints  # deal and hints in separate domains
    assert match_seeds(KEY, "demo", 7, 4) == base  # and reproducible


def test_fields_are_typed_and_length_prefixed() -> None:
    # Identities that would encode alike if fields were simply joined.
    assert deal_seed(KEY, "a-1", 2) != deal_seed(KEY, "a", 12)
    assert deal_seed(KEY, "1", 1) != deal_seed(KEY, "11", 0)
    assert seed_hint(KEY, "x", 1, 23) != seed_hint(KEY, "x", 12, 3)


def test_sizes_fit_the_wire_and_json() -> None:
    for seed in range(200):
        seeds = match_seeds(KEY, "demo", seed, 3)
        assert 0 <= seeds.deal < 2**DEAL_SEED_BITS
        assert all(0 <= h < 2**SEED_HINT_BITS for h in seeds.hints)
    assert max(match_seeds(KEY, "d", s, 1).deal for s in range(200)) > 2 ** (DEAL_SEED_BITS - 2)


def test_a_seat_s_hint_says_nothing_about_the_deal() -> None:
    """Low bits of hints and deals agree about half of the time: no simple relation."""
    rng = random.Random(3)
    agree = 0
    trials = 2000
    for _ in range(trials):
        seed = rng.getrandbits(40)
        agree += (deal_seed(KEY, "demo", seed) ^ seed_hint(KEY, "demo", seed, 0)) & 1 == 0
    assert 0.43 < agree / trials < 0.57


def test_local_seeds_use_the_public_key_and_keys_are_checked() -> None:
    assert local_seeds(5, 3) == match_seeds(LOCAL_KEY, LOCAL_LEAGUE, 5, 3)
    assert len(new_key()) == KEY_BYTES and new_key() != new_key()
    assert len(key_id(KEY)) == 16 and key_id(KEY) != key_id(LOCAL_KEY)
    with pytest.raises(ValueError, match="32 bytes"):
        deal_seed(b"short", "demo", 1)
