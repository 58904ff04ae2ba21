"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every preset,
and 200 random games per preset whose scores are the engine's for the same choices."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from sdk.envs.pettingzoo import env
from sdk.game import RulesError
from tests.sdk.envs.games import VARIANTS, cheap_player_count, player_count, replay


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_and_seed_tests_pass(variant: str) -> None:
    players = player_count(variant, random.Random(variant))
    api_test(env(variant, players, seed=3), num_cycles=60)
    seed_test(lambda: env(variant, players), num_cycles=60)


@pytest.mark.parametrize("half", [0, 1])  # 200 games a preset, in two test items
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_score_as_the_engine_scores_the_same_choices(variant: str, half: int) -> None:
    rng = random.Random(f"pettingzoo {variant} {half}")
    for game in range(100 * half, 100 * half + 100):
        players = cheap_player_count(variant, rng)
        aec = env(variant, players, seed=game)
        aec.reset()
        rewards = dict.fromkeys(aec.possible_agents, 0.0)
        for agent in aec.agent_iter():
            _, reward, terminated, _, _ = aec.last(observe=False)
            rewards[agent] += reward
            if terminated:
                aec.step(None)
                continue
            legal = np.flatnonzero(aec.action_mask(agent))
            aec.step(int(legal[rng.randrange(len(legal))]))
        assert aec.game is not None
        engine = replay(variant, players, game, aec.game.record)
        sign = aec.codec.sign()
        assert [rewards[a] for a in aec.possible_agents] == [sign * s for s in engine.scores()]


def test_a_masked_out_action_is_refused_and_changes_nothing() -> None:
    aec = env("6nimmt-pro:rounds=1", 3, seed=5)
    aec.reset()
    agent = aec.agent_selection
    mask = aec.action_mask(agent)
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        aec.step(illegal)
    assert aec.agent_selection == agent
    assert np.array_equal(aec.action_mask(agent), mask)


def test_a_bad_variant_or_player_count_is_a_rules_error() -> None:
    with pytest.raises(RulesError):
        env("7nimmt", 3)
    with pytest.raises(RulesError):
        env("xnimmt", 5)


def test_simultaneous_picks_are_hidden_until_every_seat_has_chosen() -> None:
    aec = env("6nimmt:rounds=1", 3, seed=2)
    aec.reset()
    first = aec.observe("seat_1")["observation"]
    aec.step(int(np.flatnonzero(aec.action_mask("seat_0"))[0]))  # seat 0 picks face down
    assert aec.agent_selection == "seat_1"
    assert np.array_equal(aec.observe("seat_1")["observation"], first)
    aec.step(int(np.flatnonzero(aec.action_mask("seat_1"))[0]))
    aec.step(int(np.flatnonzero(aec.action_mask("seat_2"))[0]))  # the turn resolves now
    assert not np.array_equal(aec.observe("seat_1")["observation"], first)


def test_a_long_11nimmt_turn_stays_inside_the_observation_space() -> None:
    """An 11 nimmt! turn can play more than 10 cards (taken piles go to the hand): seeded
    random games that reach such a turn keep every observation inside its space (the
    turn counters were bounded by 10, so PettingZoo's api_test failed now and then)."""
    longest = 0
    for game in (72, 79, 121):  # seeds whose random play reaches a turn of 11 cards
        aec = env("11nimmt", 2 + game % 2, seed=game)
        aec.reset(seed=game)
        rng = np.random.default_rng(game)
        turn_cards = aec.unwrapped.codec.slices["turn_cards"].start
        for agent in aec.agent_iter(4000):
            observation, _, terminated, truncated, _ = aec.last()
            assert aec.observation_space(agent).contains(observation), (game, agent)
            longest = max(longest, int(observation["observation"][turn_cards]))
            mask = observation["action_mask"]
            done = terminated or truncated
            aec.step(None if done else int(rng.choice(np.flatnonzero(mask))))
    assert longest > 10
