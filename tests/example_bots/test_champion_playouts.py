"""The network's playouts (:mod:`example_bots.champion_bot.playouts`): a batch playout in
which every seat plays the network's choice is the very game the rules engine plays when
every seat plays the network's raw policy from its own view; a new round's deal resets
what each seat has not seen; the search and the bot play with them."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import example_bots.champion_bot.bot as bot_module
from example_bots.champion_bot.bot import NET_MIN_SEARCH_S, SHARE, ChampionBot, shipped_net
from example_bots.champion_bot.features import encode
from example_bots.champion_bot.net import Net, initial, softmax
from example_bots.champion_bot.playouts import NetPicks, net_playouts, playout_policy
from example_bots.champion_bot.search import search
from example_bots.montecarlo_bot.sixnimmt import GreedyDraws, greedy_picks, play_out
from example_bots.rules_bot.bot import RulesBot
from sdk import DecisionClock, DecisionKind, MatchInfo, OptionKind, SixNimmtView, play_local
from sdk.bot import Bot
from sdk.game.sixnimmt import Phase, SixNimmtState, new_game
from sdk.game.sixnimmt.batch import HEADS_NP, Batch, IntArray


def the_net() -> Net:
    return shipped_net() or initial(1)


def engine_game(state: SixNimmtState, net: Net) -> list[int]:
    """`state` played to the end by the rules engine, every seat playing the network's
    most likely card from its own view and taking the cheapest row (the lowest on a tie)."""
    while state.phase != Phase.OVER:
        for seat in state.pending():
            view = state.view(seat)
            options = state.legal_options(seat)
            if view.header.decision == DecisionKind.TAKE_ROW:
                heads = [int(HEADS_NP[list(row)].sum()) for row in view.rows]
                state.apply(seat, min(options, key=lambda o: (heads[o.row], o.row)))
                continue
            assert all(o.kind == OptionKind.CARD for o in options)
            state.apply(seat, options[int(np.argmax(net.logits(*encode(view, options))))])
    return state.scores()


@pytest.mark.parametrize("players", [2, 4, 6, 10])
def test_a_batch_playout_is_the_game_of_the_networks_raw_policy(players: int) -> None:
    net = the_net()
    for seed in range(4):
        start = new_game("6nimmt", {"rounds": "1"}, players, 300 + seed)
        hands = np.array([start.hands], dtype=np.int64)  # one game, every hand as dealt
        picks = net_playouts(net, start.view(0))(hands)
        scores = play_out(start.clone(), 1, hands, 0, 0, np.random.default_rng(0), picks)
        assert scores[0].tolist() == engine_game(start.clone(), net)


def test_a_new_deal_resets_the_unseen_cards_and_the_round_start() -> None:
    net = the_net()
    state = new_game("6nimmt", {"rounds": "2"}, 4, 17)
    state.totals = [3, 0, 9, 1]  # as if a round had been played
    hands = np.tile(np.array(state.hands, dtype=np.int64), (3, 1, 1))
    stale = np.zeros((3, state.rules.highest + 1), dtype=bool)
    picks = NetPicks(net, stale.copy(), np.zeros((3, 4), dtype=np.int64), one_round=False)
    draws = GreedyDraws(np.random.default_rng(0))
    batch = Batch(state, 3, draws)
    draws.batch = batch
    picks(batch, np.arange(3), hands, np.random.default_rng(0))
    expected = np.zeros(state.rules.highest + 1, dtype=bool)
    expected[state.unused] = True
    assert (picks.undealt == expected).all()
    assert (picks.round_start == [3, 0, 9, 1]).all()
    # Mid-round (a card played from every hand) nothing is reset.
    picks.undealt[:] = stale
    hands[:, :, 0] = 0
    picks(batch, np.arange(3), hands, np.random.default_rng(0))
    assert not picks.undealt.any()


def test_mixed_playouts_seat_the_greedy_heuristic_in_other_seats_only() -> None:
    """Each other seat of each playout is the greedy heuristic's with the chance given, the
    searching seat never; a greedy seat plays greedy_picks' card, every other seat the
    network's."""
    net = the_net()
    state = new_game("6nimmt", {"rounds": "1"}, 4, 11)
    k, seat = 300, 2
    hands = np.tile(np.array(state.hands, dtype=np.int64), (k, 1, 1))
    view = state.view(seat)
    mixed = net_playouts(net, view, greedy_share=0.5)(hands)
    plain = net_playouts(net, view)(hands)
    assert isinstance(mixed, NetPicks)
    calls = 0

    def checked(batch: Batch, games: np.ndarray, now: np.ndarray, rng: np.random.Generator
                ) -> np.ndarray:  # fmt: skip
        nonlocal calls
        before = copy.deepcopy(rng)
        slots = mixed(batch, games, now, rng)
        assert mixed.greedy is not None
        if calls == 0:
            before.random(mixed.greedy.shape)  # the draw of the greedy seats
        greedy = mixed.greedy[games]
        assert (slots[greedy] == greedy_picks(batch, games, now, before)[greedy]).all()
        by_net = plain(batch, games, now, np.random.default_rng(0))
        assert (slots[~greedy] == by_net[~greedy]).all()
        calls += 1
        return slots

    scores = play_out(state.clone(), k, hands, seat, 0, np.random.default_rng(3), checked)
    assert calls == 10 and scores.shape == (k, 4)
    assert mixed.greedy is not None and not mixed.greedy[:, seat].any()
    assert mixed.greedy[:, [0, 1, 3]].mean() == pytest.approx(0.5, abs=0.06)
    policy = playout_policy("mixed", net, view, 0.5)
    assert callable(policy)
    again = policy(hands)
    assert isinstance(again, NetPicks) and again.greedy_share == 0.5
    replayed = play_out(state.clone(), k, hands, seat, 0, np.random.default_rng(3), again)
    assert np.array_equal(scores, replayed)  # seeded


@pytest.mark.parametrize("greedy_share", [0.0, 0.5])
def test_the_other_seats_draw_from_the_networks_policy_at_the_temperature(
    greedy_share: float,
) -> None:
    """With a temperature, each other seat the network plays draws its card from the
    network's policy at that temperature (softmax of its logits / T); the searching seat
    still plays its most likely card."""
    net = the_net()
    state = new_game("6nimmt", {"rounds": "1"}, 4, 23)
    k, seat, temperature = 3000, 1, 2.0
    hands = np.tile(np.array(state.hands, dtype=np.int64), (k, 1, 1))
    picks = net_playouts(net, state.view(seat), greedy_share, temperature)(hands)
    assert isinstance(picks, NetPicks)
    draws = GreedyDraws(np.random.default_rng(0))
    batch = Batch(state, k, draws)
    draws.batch = batch
    slots = picks(batch, np.arange(k), hands, np.random.default_rng(8))
    by_net = np.ones((k, 4), dtype=bool) if picks.greedy is None else ~picks.greedy
    for other in range(4):
        view, options = state.view(other), state.legal_options(other)
        logits = net.logits(*encode(view, options))
        policy = dict(zip((o.card for o in options), softmax(logits / temperature), strict=True))
        cards = hands[0, other][slots[by_net[:, other], other]]
        if other == seat:
            assert set(cards.tolist()) == {options[int(np.argmax(logits))].card}
            continue
        assert len(cards) > k * (1 - greedy_share) * 0.9
        shares = {card: float(np.mean(cards == card)) for card in policy}
        assert max(policy.values()) < 0.8  # a spread policy, so the test can tell
        for card, p in policy.items():
            assert shares[card] == pytest.approx(p, abs=0.04), (other, card)
    # The bot's policy names carry the temperature: "net" with no greedy seats.
    view = state.view(seat)
    for name, share in (("net", 0.0), ("mixed", 0.25)):
        maker = playout_policy(name, net, view, 0.25, temperature)
        assert callable(maker)
        made = maker(hands)
        assert isinstance(made, NetPicks)
        assert (made.temperature, made.greedy_share) == (temperature, share)


def test_the_search_plays_out_with_the_network() -> None:
    net = the_net()
    state = new_game("6nimmt", {"rounds": "1"}, 4, 5)
    view = state.view(0)
    options = state.legal_options(0)
    prior = np.full(len(options), 1 / len(options))
    with_net = search(view, options, prior, random.Random(1), games=4, visits=12,
                      policy=net_playouts(net, view))  # fmt: skip
    again = search(view, options, prior, random.Random(1), games=4, visits=12,
                   policy=net_playouts(net, view))  # fmt: skip
    greedy = search(view, options, prior, random.Random(1), games=4, visits=12)
    assert with_net.visits.sum() == 12 and np.array_equal(with_net.q, again.q)
    assert not np.array_equal(with_net.q, greedy.q)


def test_the_bot_hands_its_playout_settings_to_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[NetPicks] = []

    def recording(*args: Any, **kwargs: Any) -> Callable[[IntArray], NetPicks]:
        makes = playout_policy(*args, **kwargs)
        assert callable(makes)

        def make(hands: IntArray) -> NetPicks:
            picks = makes(hands)
            assert isinstance(picks, NetPicks)
            made.append(picks)
            return picks

        return make

    monkeypatch.setattr(bot_module, "playout_policy", recording)

    class Tuned(ChampionBot):
        greedy_share = 0.3
        others_temperature = 1.5

    state = new_game("6nimmt", {"rounds": "1"}, 4, 3)
    bot = Tuned(the_net())
    bot.start_match(MatchInfo("m", "6nimmt", {"rounds": "1"}, seat=0, players=4, seed_hint=1))
    view = state.view(0)
    assert isinstance(view, SixNimmtView)
    bot.decide(view, state.legal_options(0), DecisionClock(1000, 0))
    assert made and {(p.greedy_share, p.temperature, p.seat) for p in made} == {(0.3, 1.5, 0)}


def test_the_bot_plays_out_with_the_network_when_there_is_time_to() -> None:
    bot = ChampionBot(the_net())
    assert bot.playouts(NET_MIN_SEARCH_S) == "mixed"  # the default
    assert bot.playouts(NET_MIN_SEARCH_S - 0.01) == "greedy"  # a short clock
    bot.playout_policy = "net"
    assert bot.playouts(NET_MIN_SEARCH_S) == "net"
    assert bot.playouts(NET_MIN_SEARCH_S - 0.01) == "greedy"
    bot.playout_policy = "rules"
    assert bot.playouts(NET_MIN_SEARCH_S) == bot.playouts(0.0) == "rules"


@pytest.mark.parametrize("players", [3, 10])
def test_the_bot_with_network_playouts_plays_legally_within_its_clock(players: int) -> None:
    champion = ChampionBot(the_net())
    assert champion.playouts(0.5 * SHARE - 0.05) == "mixed"  # at this test's clock
    bots: list[Bot] = [champion] + [RulesBot() for _ in range(players - 1)]
    result = play_local("6nimmt:rounds=1", bots, seed=players, decision_ms=500, clock=True)
    assert champion.own and result.state.is_terminal()
    assert result.faults == (0,) * players
