"""The Gymnasium single-agent environment: Gymnasium's env_checker for every preset, and
200 random games per preset whose scores are the engine's for the same choices."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from example_bots.gym_env import env as example_env
from example_bots.random_bot.bot import RandomBot
from example_bots.rules_bot.bot import RulesBot
from sdk.envs.gymnasium import BullringEnv
from tests.sdk.envs.games import VARIANTS, cheap_player_count, player_count, replay


@pytest.mark.parametrize("variant", VARIANTS)
def test_gymnasium_env_checker_passes(variant: str) -> None:
    players = player_count(variant, random.Random(variant))
    with warnings.catch_warnings():
        # the checker cannot try other render modes of an env made without gymnasium.make
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(example_env(variant, players, seat=players - 1))


@pytest.mark.parametrize("half", [0, 1])  # 200 games a preset, in two test items
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_score_as_the_engine_scores_the_same_choices(variant: str, half: int) -> None:
    rng = random.Random(f"gymnasium {variant} {half}")
    for game in range(100 * half, 100 * half + 100):
        players = cheap_player_count(variant, rng)
        seat = rng.randrange(players)
        env = BullringEnv(variant, players, seat=seat, opponents=[RandomBot])
        observation, _ = env.reset(seed=game)
        total, terminated = 0.0, False
        info: dict[str, object] = {}
        while not terminated:
            legal = np.flatnonzero(observation["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            observation, reward, terminated, truncated, info = env.step(action)
            assert not truncated and "illegal_action" not in info
            total += reward
        assert env.game is not None
        engine = replay(variant, players, env.deal_seed, env.game.record)
        assert info["scores"] == tuple(engine.scores())
        assert total == env.codec.sign() * engine.scores()[seat]
        assert not observation["action_mask"].any()


def test_an_illegal_action_plays_the_first_legal_option() -> None:
    env = BullringEnv("6nimmt:rounds=1", 3, opponents=[RulesBot])
    observation, _ = env.reset(seed=4)
    assert env.game is not None
    first = env.game.options()[0]
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(illegal)
    assert info["illegal_action"] is True
    assert env.game.record[0] == (0, first)


def test_the_example_environment_seats_rule_based_bots() -> None:
    env = example_env("hornochsen", 3, seat=1)
    env.reset(seed=1)
    assert {type(bot) for bot in env.bots.values()} == {RulesBot}
    assert sorted(env.bots) == [0, 2]


def test_opponents_take_the_other_seats_in_turn_and_must_be_given() -> None:
    env = BullringEnv("6nimmt:rounds=1", 4, seat=2, opponents=[RulesBot, RandomBot])
    env.reset(seed=3)
    assert [type(env.bots[s]) for s in (0, 1, 3)] == [RulesBot, RandomBot, RulesBot]
    with pytest.raises(ValueError, match="opponents"):
        BullringEnv("6nimmt:rounds=1", 4)
