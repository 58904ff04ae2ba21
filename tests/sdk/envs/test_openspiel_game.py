"""The OpenSpiel games: registered for every preset, OpenSpiel's random-simulation check,
information-set MCTS for a few moves of each family, 200 random games per preset whose
returns are the engine's scores for the same choices, and resampling that keeps a seat's
information state."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from sdk.envs.openspiel import GAMES, BullringState, short_name
from sdk.game import PRESETS, parse_variant
from tests.sdk.envs.games import VARIANTS, cheap_player_count, player_count, replay


def load(variant: str, players: int) -> pyspiel.Game:
    spec = parse_variant(variant)
    params: dict[str, int] = {"players": players}
    if spec.options.get("rounds"):
        params["rounds"] = int(spec.options["rounds"])
    return pyspiel.load_game(short_name(spec.preset.name), params)


def test_every_preset_is_registered() -> None:
    registered = set(pyspiel.registered_names())
    assert {short_name(p) for p in PRESETS} == set(GAMES) <= registered


@pytest.mark.parametrize("variant", VARIANTS)
def test_openspiel_random_simulation_check_passes(variant: str) -> None:
    game = load(variant, cheap_player_count(variant, random.Random(variant)))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("variant", ["6nimmt-pro:rounds=1", "xnimmt", "11nimmt", "hornochsen"])
def test_information_set_mcts_plays_a_few_moves_of_each_family(variant: str) -> None:
    game = load(variant, 3)
    state = game.new_initial_state()
    state.apply_action(7)  # the deal
    random_state = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=6, random_state=random_state)
    for _ in range(3):
        player = state.current_player()
        action = bot.step(state)
        assert action in state.legal_actions(player)
        state.apply_action(action)
    assert not state.is_chance_node()


@pytest.mark.parametrize("half", [0, 1])  # 200 games a preset, in two test items
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_return_the_engines_scores_for_the_same_choices(
    variant: str, half: int
) -> None:
    rng = random.Random(f"openspiel {variant} {half}")
    for number in range(100 * half, 100 * half + 100):
        players = cheap_player_count(variant, rng)
        game = load(variant, players)
        state = game.new_initial_state()
        deal = rng.randrange(game.max_chance_outcomes())
        state.apply_action(deal)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        assert isinstance(state, BullringState) and state.stepper is not None, number
        engine = replay(state.bullring.variant, players, deal, state.stepper.record)
        sign = state.bullring.codec.sign()
        assert state.returns() == [float(sign * s) for s in engine.scores()]


@pytest.mark.parametrize("variant", VARIANTS)
def test_resampling_keeps_the_seats_information_state(variant: str) -> None:
    rng = random.Random(f"resample {variant}")
    game = load(variant, player_count(variant, rng))
    state = game.new_initial_state()
    state.apply_action(3)
    checked = 0
    while not state.is_terminal() and checked < 40:
        player = state.current_player()
        sampled = state.resample_from_infostate(player, None)
        assert sampled.information_state_string(player) == state.information_state_string(player)
        assert sampled.information_state_tensor(player) == state.information_state_tensor(player)
        assert sampled.observation_tensor(player) == state.observation_tensor(player)
        assert sorted(sampled.legal_actions(player)) == sorted(state.legal_actions(player))
        checked += 1
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
