"""The deal-recovery attack (tests/referee/bad_bots/deal_recovery.py) is real: it
recovers every hand of a game seeded the old way, and of a game played without a league
(the public local key, as documented), but not of a game dealt from a secret key."""

from __future__ import annotations

import random

import pytest

from sdk.game import SixNimmtView, new_game
from sdk.match import MatchInfo
from sdk.seeding import LOCAL_KEY, LOCAL_LEAGUE, match_seeds
from tests.referee.bad_bots.deal_recovery import (
    hands,
    legacy_local_hint,
    legacy_referee_hint,
    predict_hands,
    recover,
)

OPTIONS = {"rounds": "1"}
PLAYERS = 4


def info(match_id: str, seat: int, hint: int) -> MatchInfo:
    return MatchInfo(match_id, "6nimmt", OPTIONS, seat, PLAYERS, seed_hint=hint)


def accuracy(
    match: MatchInfo, deal: int, texts: list[bytes], budget_s: float = 10.0
) -> tuple[bool, float]:
    """Whether the attack found the deal, and the share of opponents' cards it predicted."""
    state = new_game("6nimmt", PLAYERS, deal, OPTIONS)
    truth = hands(state)
    mine = truth[match.seat]
    recovery = recover(match, mine, texts, budget_s)
    view = state.view(match.seat)
    assert isinstance(view, SixNimmtView)
    visible = [card for row in view.rows for card in row]
    guess = predict_hands(match, mine, visible, range(1, 105), [10] * PLAYERS, recovery)
    hits = sum(len(set(cards) & set(truth[seat])) for seat, cards in guess.items())
    return recovery.state is not None, hits / (10 * (PLAYERS - 1))


@pytest.mark.parametrize(
    ("match_id", "seed", "seat"),
    [
        ("check-my_bot-6nimmt-0", 1, 0),  # the old `bot check`: seeds 1, 2, ...
        ("0f3c9a1b2d4e", 7, 2),  # the old `bullring play --seed 7`
        ("0f3c9a1b2d4e", 12_345, 3),  # a seed found by brute force over the old hint
    ],
)
def test_the_attack_recovers_the_old_referee_derivation(
    match_id: str, seed: int, seat: int
) -> None:
    match = info(match_id, seat, legacy_referee_hint(seed, seat))
    assert accuracy(match, seed, []) == (True, 1.0)


def test_the_attack_recovers_the_old_play_local_derivation_for_any_seed() -> None:
    seed = random.Random(5).getrandbits(52)
    match = info("local", 1, legacy_local_hint(seed, 1))
    assert accuracy(match, seed, []) == (True, 1.0)


def test_without_a_league_the_public_local_key_gives_the_deal_away() -> None:
    seeds = match_seeds(LOCAL_KEY, LOCAL_LEAGUE, 7, PLAYERS)
    match = info("0f3c9a1b2d4e", 1, seeds.hint(1))
    assert accuracy(match, seeds.deal, []) == (True, 1.0)


def test_a_key_on_a_command_line_or_in_an_environment_would_be_found() -> None:
    key = random.Random(8).randbytes(32)
    seeds = match_seeds(key, "demo", 123_456_789_012, PLAYERS)
    match = info("demo-000042", 2, seeds.hint(2))
    leaked = [b"BULLRING_KEY=" + key.hex().encode(), b"--seed\x00123456789012"]
    assert accuracy(match, seeds.deal, leaked) == (True, 1.0)
    assert accuracy(match, seeds.deal, [], budget_s=1.0)[0] is False


def test_a_secret_key_leaves_only_chance() -> None:
    key = random.Random(9).randbytes(32)
    found, shares = [], []
    for seed in range(3):
        seeds = match_seeds(key, "demo", seed, PLAYERS)
        match = info(f"demo-{seed + 1:06d}", seed % PLAYERS, seeds.hint(seed % PLAYERS))
        hit, share = accuracy(match, seeds.deal, [str(seed).encode()], budget_s=1.0)
        found.append(hit)
        shares.append(share)
    assert found == [False] * 3
    assert sum(shares) / len(shares) < 0.3  # chance is 10/90; the deal would give 1.0
