"""The champion bot: its inference against a stored reference (a small fixed network and
a fixed decision give the stored logits and action), its features, its search, its
fallback to the winner bot outside 6 nimmt!, and a real match through the referee.

The reference files (``fixtures/champion_reference.npz`` and ``.json``) are made by this
module's :func:`make_reference`: ``.venv/bin/python -m tests.example_bots.test_champion_bot``
(only when the features or the network's format change on purpose).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from example_bots.champion_bot.bot import WEIGHTS, ChampionBot, shipped_net
from example_bots.champion_bot.features import (
    OPTION_FEATURES,
    STATE_FEATURES,
    encode,
)
from example_bots.champion_bot.net import initial, load, save
from example_bots.champion_bot.search import C_PUCT, C_PUCT_OF_GOAL, search
from example_bots.rules_bot.bot import RulesBot
from sdk import DecisionClock, MatchInfo, Option, OptionKind, SixNimmtView, play_local
from sdk.bot import Bot
from sdk.game import GameState, new_game

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
REFERENCE_NET = FIXTURES / "champion_reference.npz"
REFERENCE = FIXTURES / "champion_reference.json"
BULLRING = str(Path(sys.executable).with_name("bullring"))


def position(recipe: dict[str, Any]) -> GameState:
    """The recipe's game after `turns` whole turns (odd seats play their highest card,
    even seats their lowest; a row to take is the first), every seat about to pick."""
    state = new_game(recipe["variant"], recipe["players"], recipe["seed"], recipe["format"])
    everyone = list(range(recipe["players"]))
    while not (list(state.pending()) == everyone and len(hand(state)) == 10 - recipe["turns"]):
        for seat in state.pending():
            options = state.legal_options(seat)
            card = options[0].kind == OptionKind.CARD
            state.apply(seat, options[-1] if card and seat % 2 else options[0])
    return state


def hand(state: GameState) -> tuple[int, ...]:
    view = state.view(0)
    assert isinstance(view, SixNimmtView)
    return view.hand


def reference_decision(recipe: dict[str, Any]) -> tuple[SixNimmtView, list[Any]]:
    state = position(recipe)
    view = state.view(recipe["seat"])
    assert isinstance(view, SixNimmtView)
    return view, list(state.legal_options(recipe["seat"]))


def started(bot: ChampionBot, variant: str, options: dict[str, str] | None = None) -> ChampionBot:
    bot.start_match(MatchInfo("m", variant, options or {}, seat=1, players=4, seed_hint=3))
    return bot


def test_the_reference_network_gives_the_stored_logits_and_action() -> None:
    recipe = json.loads(REFERENCE.read_text())
    net = load(REFERENCE_NET)
    view, options = reference_decision(recipe)
    # The recipe still gives the same decision (else the engine's deal changed, not us).
    assert list(view.hand) == recipe["hand"]
    assert [list(r) for r in view.rows] == recipe["rows"]
    assert [o.card for o in options] == recipe["option_cards"]
    state, rows = encode(view, options)
    assert state.shape == (len(STATE_FEATURES),)
    assert rows.shape == (len(options), len(OPTION_FEATURES))
    np.testing.assert_allclose(net.logits(state, rows), recipe["logits"], rtol=0, atol=1e-9)
    assert net.value(state) == pytest.approx(recipe["value"], abs=1e-9)
    bot = started(ChampionBot(net, search=False), "6nimmt", {"rounds": "1"})
    assert bot.decide(view, options, DecisionClock(1000, 0)) == recipe["action"]
    assert int(np.argmax(recipe["logits"])) == recipe["action"]


def test_a_saved_network_loads_as_it_was(tmp_path: Path) -> None:
    net = initial(3, (8,), (4,))
    save(tmp_path / "n.npz", net, {"note": "x"})
    again = load(tmp_path / "n.npz")
    assert again.meta == {"note": "x"}
    assert again.policy_sizes == net.policy_sizes and again.value_sizes == net.value_sizes
    for key, value in net.params.items():
        assert np.array_equal(again.params[key], value)
    assert not list(tmp_path.glob("*.tmp"))


def test_features_read_the_view_only() -> None:
    # Two seats' views of one table differ only where their own cards are concerned.
    state = new_game("6nimmt", 5, 4, {"rounds": "1"})
    for seat in range(5):
        view = state.view(seat)
        assert isinstance(view, SixNimmtView)
        s, rows = encode(view, state.legal_options(seat))
        assert np.all(np.isfinite(s)) and np.all(np.isfinite(rows))
        assert s[len(STATE_FEATURES) - 3] == pytest.approx((104 - 4 - 10) / 104)  # unseen


def third_turn() -> tuple[SixNimmtView, list[Option]]:
    """Seat 0's view and options at the third turn of a 4-seat one-round game."""
    state = position({"variant": "6nimmt", "players": 4, "seed": 5, "format": {"rounds": "1"},
                      "turns": 2})  # fmt: skip
    view = state.view(0)
    assert isinstance(view, SixNimmtView)
    return view, list(state.legal_options(0))


def test_the_search_spends_its_visits_and_prefers_what_it_found_best() -> None:
    view, options = third_turn()
    prior = np.full(len(options), 1 / len(options))
    result = search(view, options, prior, random.Random(1), games=8, visits=20)
    assert result.visits.sum() == 20 and result.visits.min() >= 1
    assert result.best == int(np.argmax(result.visits))
    again = search(view, options, prior, random.Random(1), games=8, visits=20)
    assert np.array_equal(result.visits, again.visits) and np.array_equal(result.q, again.q)
    # The rule-based playouts are other games: other means, the same number of visits.
    rules = search(view, options, prior, random.Random(1), games=8, visits=20, policy="rules")
    assert rules.visits.sum() == 20 and not np.array_equal(rules.q, result.q)
    # A deadline already past: nothing visited, the prior's favourite is played.
    prior = np.zeros(len(options))
    prior[3] = 1.0
    late = search(view, options, prior, random.Random(1), stop=0.0, timer=time.monotonic)
    assert late.visits.sum() == 0 and late.best == 3
    # No visit starts that the longest so far says would end after the stop: readings
    # before and after each visit, the first visit taking 4 s and the second 4 s.
    readings = iter([0.0, 4.0, 5.0, 9.0, 9.5, 13.5, 14.0, 18.0])
    timed = search(view, options, prior, random.Random(1), games=2, stop=10.0,
                   timer=lambda: next(readings))  # fmt: skip
    assert timed.visits.sum() == 2


def test_a_win_share_search_explores_in_win_share_units() -> None:
    """Scored by the win share (0 to 1), the search's exploration constant is the win
    share's (C_PUCT_OF_GOAL): a prior sure of the worst option does not hold the visits
    there, as the heads-sized constant would."""
    view, options = third_turn()
    flat = np.full(len(options), 1 / len(options))
    scouted = search(view, options, flat, random.Random(2), games=16, visits=80, goal="win")
    worst = int(np.argmin(scouted.q))
    assert scouted.q.max() - scouted.q[worst] > 0.2
    sure = np.full(len(options), 0.1 / (len(options) - 1))
    sure[worst] = 0.9
    scaled = search(view, options, sure, random.Random(3), games=16, visits=60, goal="win")
    heads_sized = search(view, options, sure, random.Random(3), games=16, visits=60, goal="win",
                         c_puct=C_PUCT)  # fmt: skip
    assert C_PUCT_OF_GOAL["win"] < C_PUCT_OF_GOAL["margin"] == C_PUCT
    assert scaled.best != worst and scaled.visits[worst] < 20
    assert heads_sized.best == worst


def test_it_plays_6nimmt_itself_and_every_other_variant_as_the_winner_bot() -> None:
    net = initial(1)
    assert started(ChampionBot(net), "6nimmt").own
    for variant in ("6nimmt-pro", "6nimmt-tactics", "6nimmt-logic", "xnimmt", "hornochsen"):
        assert not started(ChampionBot(net), variant).own
    without = ChampionBot(net)
    without.net = None
    assert not started(without, "6nimmt").own


def test_it_plays_legally_within_its_clock_at_every_table_size() -> None:
    net = shipped_net() or initial(1)
    for players in (2, 10):
        champion = ChampionBot(net)
        bots: list[Bot] = [champion] + [RulesBot() for _ in range(players - 1)]
        result = play_local("6nimmt:rounds=1", bots, seed=players, decision_ms=60, clock=True)
        assert champion.own  # its own network and search, not the winner bot
        assert result.state.is_terminal()
        assert result.faults == (0,) * players


def test_the_search_refuses_an_unknown_goal_by_name() -> None:
    state = new_game("6nimmt", 4, 5, {"rounds": "1"})
    view = state.view(0)
    assert isinstance(view, SixNimmtView)
    options = list(state.legal_options(0))
    prior = np.full(len(options), 1 / len(options))
    with pytest.raises(ValueError, match="no goal 'lea'; one of margin, own, lead, win"):
        search(view, options, prior, random.Random(1), goal="lea")


def test_the_shipped_weights_load_and_fit_the_size_limit() -> None:
    assert WEIGHTS.exists(), "example_bots/champion_bot/weights.npz is missing"
    assert WEIGHTS.stat().st_size <= 5 * 1024 * 1024
    net = shipped_net()
    assert net is not None and "trained_by" in net.meta


@pytest.mark.serial  # a clock of real bot processes: run alone
def test_it_plays_a_real_match_through_the_referee() -> None:
    played = subprocess.run(
        [BULLRING, "play", "6nimmt:rounds=1", "--seed", "3", "--decision-ms", "400",
         "--setup-ms", "30000", "--json", "--bot", "example_bots/champion_bot",
         "--bot", "example_bots/rules_bot", "--bot", "example_bots/random_bot"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    result = json.loads(played.stdout)
    assert result["bots"][0] == f"champion_bot@{ChampionBot.version}"
    assert result["faults"] == []
    assert len(result["scores"]) == 3


def make_reference() -> None:
    """Write the reference network and decision (see the module's docstring)."""
    net = initial(7, (16, 8), (8,))
    noise = np.random.default_rng(7)
    for key in sorted(net.params):  # larger weights than a fresh net's: clearly apart logits
        net.params[key] = net.params[key] + noise.normal(0.0, 0.5, net.params[key].shape)
    made_by = "tests/example_bots/test_champion_bot.py, make_reference()"
    save(REFERENCE_NET, net, {"made_by": made_by})
    recipe: dict[str, Any] = {"variant": "6nimmt", "format": {"rounds": "1"}, "players": 4,
                              "seed": 12, "turns": 3, "seat": 1}  # fmt: skip
    view, options = reference_decision(recipe)
    state, rows = encode(view, options)
    logits = net.logits(state, rows)
    recipe |= {
        "hand": list(view.hand),
        "rows": [list(r) for r in view.rows],
        "option_cards": [o.card for o in options],
        "logits": [float(x) for x in logits],
        "value": net.value(state),
        "action": int(np.argmax(logits)),
    }
    REFERENCE.write_text(json.dumps(recipe, indent=1) + "\n")


if __name__ == "__main__":
    make_reference()
