"""The champion's belief over the hidden hands (:mod:`example_bots.champion_bot.belief`):
the round's turns replayed from the public history match the engine's own states; a
world's log-likelihood is the network's probability of each past play, computed view by
view, and each seat's term follows its own hand alone; the real hands weigh more than
uniform ones; the tempering keeps each seat's effective share; the dealer deals whole
worlds, each seat's hand by its weights; and the simulations and the bot play from it."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import example_bots.champion_bot.bot as bot_module
from example_bots.champion_bot.belief import (
    Belief,
    play_log_likelihood,
    round_turns,
    seat_log_likelihood,
)
from example_bots.champion_bot.bot import ChampionBot, shipped_net
from example_bots.champion_bot.features import encode
from example_bots.champion_bot.net import Net, initial, softmax
from example_bots.champion_bot.search import search
from example_bots.montecarlo_bot.sixnimmt import Picker, greedy_picks, pick_simulation, simulation
from example_bots.rules_bot.bot import RulesBot
from sdk import DecisionKind, SixNimmtView, play_local, seen_cards
from sdk.bot import Bot
from sdk.game.sixnimmt import Phase, SixNimmtState, from_view, new_game
from sdk.game.sixnimmt.batch import HEADS_NP, IntArray, determinized_hands


def six_view(state: SixNimmtState, seat: int) -> SixNimmtView:
    view = state.view(seat)
    assert isinstance(view, SixNimmtView)
    return view


def net_choice(net: Net, state: SixNimmtState, seat: int) -> int:
    """The index of the network's most likely option for `seat`."""
    options = state.legal_options(seat)
    features, rows = encode(six_view(state, seat), options)
    return int(np.argmax(net.logits(features, rows)))


def played_until(
    options: dict[str, str], players: int, seed: int, *, stop: int, net: Net | None = None
) -> tuple[SixNimmtState, list[SixNimmtState]]:
    """A seeded game (random choices, or the network's with `net`) played until its
    `stop`-th decision, and a copy of it at the start of every turn of the current round."""
    state = new_game("6nimmt", options, players, seed)
    rng = random.Random(seed)
    starts: list[SixNimmtState] = []
    decisions = 0
    while state.phase != Phase.OVER:
        if state.phase == Phase.PICK and len(state.to_pick) == state.players:
            if starts and starts[-1].round != state.round:
                starts = []
            starts.append(state.clone())
        for seat in state.pending():
            if decisions == stop:
                return state, starts
            decisions += 1
            choices = state.legal_options(seat)
            pick = net_choice(net, state, seat) if net else rng.randrange(len(choices))
            state.apply(seat, choices[pick])
    raise AssertionError("the game ended first")


def real_hands(view: SixNimmtView, state: SixNimmtState) -> IntArray:
    """Every seat's real hand as the belief lays a world out: (1, n, H), the seat's own
    hand in its view's order."""
    hands = np.array([list(hand) for hand in state.hands], dtype=np.int64)[None]
    hands[0, view.header.seat] = view.hand
    return hands


@pytest.mark.parametrize(
    ("options", "players", "seed", "stop"),
    [
        ({"rounds": "1"}, 4, 1, 27),  # a card pick, some seats' cards face down
        ({"rounds": "1"}, 4, 1, 25),  # a row choice: its turn's cards all revealed
        ({}, 5, 2, 82),  # a row choice in the second round
        ({"rounds": "3"}, 3, 3, 80),
        ({}, 10, 4, 160),
    ],
)
def test_the_turns_replayed_from_the_history_are_the_engines(
    options: dict[str, str], players: int, seed: int, stop: int
) -> None:
    state, starts = played_until(options, players, seed, stop=stop)
    seat = state.pending()[0]
    view = six_view(state, seat)
    turns = round_turns(view)
    # A turn counts once every card of it is revealed (a row choice is part of its turn).
    complete = starts if state.phase != Phase.PICK else starts[:-1]
    assert len(turns) == len(complete) > 0
    for j, start in enumerate(complete):
        assert turns.last[j].tolist() == [row[-1] for row in start.rows]
        assert turns.length[j].tolist() == [len(row) for row in start.rows]
        assert turns.heads[j].tolist() == [int(HEADS_NP[list(row)].sum()) for row in start.rows]
        assert turns.round_heads[j].tolist() == list(start.penalties)
        after = complete[j + 1].hands if j + 1 < len(complete) else state.hands
        for who in range(players):
            (card,) = set(start.hands[who]) - set(after[who])
            assert turns.played[j, who] == card


def test_before_the_first_turn_every_world_is_as_likely() -> None:
    state = new_game("6nimmt", {"rounds": "1"}, 4, 9)
    view = six_view(state, 0)
    assert len(round_turns(view)) == 0
    hands = determinized_hands(from_view(view, random.Random(1)), 0, 8, np.random.default_rng(1))
    assert play_log_likelihood(initial(1), view, hands).tolist() == [0.0] * 8


@pytest.mark.parametrize(("players", "stop", "temperature"), [(4, 26, 2.0), (6, 41, 0.7)])
def test_a_worlds_likelihood_is_the_networks_probability_of_each_past_play(
    players: int, stop: int, temperature: float
) -> None:
    net = initial(5)  # random weights: every feature matters to the logits
    state, starts = played_until({"rounds": "1"}, players, players, stop=stop)
    seat = state.pending()[0]
    view = six_view(state, seat)
    complete = starts if state.phase != Phase.PICK else starts[:-1]
    expected = 0.0
    for j, start in enumerate(complete):
        after = complete[j + 1].hands if j + 1 < len(complete) else state.hands
        for other in range(players):
            if other == seat:
                continue
            (card,) = set(start.hands[other]) - set(after[other])
            choices = start.legal_options(other)
            features, rows = encode(six_view(start, other), choices)
            policy = softmax(net.logits(features, rows) / temperature)
            expected += float(np.log(policy[[o.card for o in choices].index(card)]))
    # The real world, and beside it a uniform one: each world is weighed on its own.
    uniform = determinized_hands(
        from_view(view, random.Random(2)), seat, 1, np.random.default_rng(2)
    )
    worlds = np.concatenate([real_hands(view, state), uniform])
    likelihood = play_log_likelihood(net, view, worlds, temperature)
    assert likelihood[0] == pytest.approx(expected, abs=1e-4)
    alone = play_log_likelihood(net, view, uniform, temperature)
    assert likelihood[1] == pytest.approx(alone[0], abs=1e-5)  # float32 logits
    assert likelihood[1] != pytest.approx(likelihood[0], abs=1e-3)


def test_the_real_hands_are_likelier_than_uniform_ones_against_network_players() -> None:
    net = shipped_net()
    assert net is not None
    ranks = []
    for seed in range(4):
        state, _ = played_until({"rounds": "1"}, 4, 20 + seed, stop=4 * 5, net=net)
        seat = state.pending()[0]
        view = six_view(state, seat)
        uniform = determinized_hands(
            from_view(view, random.Random(seed)), seat, 199, np.random.default_rng(seed)
        )
        likelihood = play_log_likelihood(
            net, view, np.concatenate([real_hands(view, state), uniform])
        )
        ranks.append(float((likelihood[1:] < likelihood[0]).mean()))
    # After five turns the real hands beat nearly every uniform deal (a belief that weighed
    # worlds at random would rank them in the middle).
    assert min(ranks) > 0.6 and float(np.mean(ranks)) > 0.85, ranks


def test_the_tempering_keeps_each_seats_effective_share() -> None:
    net = shipped_net()
    assert net is not None
    state, _ = played_until({"rounds": "1"}, 4, 30, stop=4 * 6, net=net)
    view = six_view(state, state.pending()[0])
    full = Belief(net, view, random.Random(1), worlds=256, spread=0.0)
    assert full.tempering == [1.0] * 3
    # Six turns of plays: some seat's weights gather on fewer than half its candidates.
    assert min(full.effective_worlds()) < 0.5 * 256
    kept = Belief(net, view, random.Random(1), worlds=256, spread=0.5)
    assert np.array_equal(kept.hands, full.hands)
    per_seat = seat_log_likelihood(net, view, kept.hands)
    for i, other in enumerate(kept.others):
        assert kept.effective_worlds()[i] >= 0.5 * 256 * 0.99
        if kept.tempering[i] < 1.0:  # tempered just enough
            assert kept.effective_worlds()[i] == pytest.approx(0.5 * 256, rel=0.01)
        scaled = np.exp(kept.tempering[i] * (per_seat[:, other] - per_seat[:, other].max()))
        assert np.allclose(kept.weights[i], scaled / scaled.sum())
    assert min(kept.tempering) < 1.0


def test_the_simulations_play_the_dealers_worlds() -> None:
    state, _ = played_until({"rounds": "1"}, 4, 8, stop=4 * 3)
    seat = state.pending()[0]
    view = six_view(state, seat)
    options = state.legal_options(seat)
    assert view.header.decision == DecisionKind.PICK_CARD

    def uniform(games: int, generator: np.random.Generator) -> IntArray:
        base = from_view(view, random.Random(5))  # the simulation's own base state
        return determinized_hands(base, seat, games, generator)

    dealt: list[int] = []

    def counted(games: int, generator: np.random.Generator) -> IntArray:
        dealt.append(games)
        return uniform(games, generator)

    plain = simulation(view, options, random.Random(5), "margin")
    dealing = simulation(view, options, random.Random(5), "margin", deal=uniform)
    assert [plain(i, 16, 7) for i in range(3)] == [dealing(i, 16, 7) for i in range(3)]
    racing = pick_simulation(view, options, random.Random(5), "margin", deal=uniform)
    assert np.array_equal(
        pick_simulation(view, options, random.Random(5), "margin")([0, 2], 8, 7),
        racing([0, 2], 8, 7),
    )
    # The playouts are played in the dealer's worlds: here the real hands, every time.
    real = real_hands(view, state)
    played_in: list[IntArray] = []

    def recording(hands: IntArray) -> Picker:
        played_in.append(hands.copy())
        return greedy_picks

    known = simulation(
        view,
        options,
        random.Random(5),
        "own",
        recording,
        lambda games, _: np.repeat(real, games, 0),
    )
    known(1, 8, 3)
    assert len(played_in) == 1 and np.array_equal(played_in[0], np.repeat(real, 8, 0))
    result = search(
        view, options, np.full(len(options), 1 / len(options)), random.Random(1),
        games=8, visits=12, deal=counted,
    )  # fmt: skip
    assert dealt == [8] * 12 and result.visits.sum() == 12


def test_the_bot_with_a_belief_plays_whole_games(monkeypatch: pytest.MonkeyPatch) -> None:
    net = shipped_net()
    assert net is not None
    made: list[Belief] = []

    class Recorded(Belief):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(bot_module, "Belief", Recorded)

    class Believing(ChampionBot):
        belief_temperature = 2.0
        belief_worlds = 64

    champion = Believing(net)
    bots: list[Bot] = [champion] + [RulesBot() for _ in range(3)]
    result = play_local("6nimmt:rounds=1", bots, seed=12, decision_ms=400, clock=True)
    assert champion.own
    assert result.state.is_terminal()
    assert result.faults == (0,) * 4
    # A belief for each of its searched decisions (the last turn's card is forced).
    searched = [d for d in result.decisions if d.seat == 0 and len(d.options) > 1]
    assert len(made) == len(searched) >= 9
    assert all(len(belief.hands) == 64 for belief in made)


def test_a_seats_likelihood_depends_on_its_own_hand_alone() -> None:
    net = initial(6)
    state, _ = played_until({"rounds": "1"}, 4, 40, stop=4 * 5)
    seat = state.pending()[0]
    view = six_view(state, seat)
    worlds = determinized_hands(
        from_view(view, random.Random(3)), seat, 6, np.random.default_rng(3)
    )
    per_seat = seat_log_likelihood(net, view, worlds)
    assert per_seat.shape == (6, 4)
    assert (per_seat[:, seat] == 0.0).all() and (per_seat[:, np.arange(4) != seat] < 0.0).all()
    assert np.allclose(per_seat.sum(axis=1), play_log_likelihood(net, view, worlds))
    # Two other seats trade hands between worlds 0 and 1: every seat's term follows its hand.
    a, b = [s for s in range(4) if s != seat][:2]
    traded = worlds.copy()
    traded[0, a], traded[1, a] = worlds[1, a], worlds[0, a]
    moved = seat_log_likelihood(net, view, traded)
    assert moved[0, a] == pytest.approx(per_seat[1, a], abs=1e-5)
    assert moved[1, a] == pytest.approx(per_seat[0, a], abs=1e-5)
    assert np.allclose(moved[:, b], per_seat[:, b], atol=1e-5)


def test_the_belief_deals_whole_worlds_each_seats_hand_by_its_weights() -> None:
    net = shipped_net()
    assert net is not None
    state, _ = played_until({"rounds": "1"}, 4, 33, stop=4 * 5, net=net)
    seat = state.pending()[0]
    view = six_view(state, seat)
    belief = Belief(net, view, random.Random(4), worlds=128, spread=0.1)
    assert [e >= 0.1 * 128 * 0.99 for e in belief.effective_worlds()] == [True] * 3
    dealt = belief(20_000, np.random.default_rng(5))
    size = len(view.hand)
    assert dealt.shape == (20_000, 4, size)
    assert (dealt[:, seat] == np.array(view.hand)).all()
    # Every dealt world is a deal: no card twice, none of them one the seat has seen.
    cards = np.sort(dealt.reshape(20_000, -1), axis=1)
    assert (cards[:, 1:] != cards[:, :-1]).all()
    assert not np.isin(dealt[:, belief.others], sorted(seen_cards(view))).any()
    # Each seat's hands are its candidates, drawn about as often as its weights say (a
    # redraw after two hands share a card bends the shares a little).
    for i, other in enumerate(belief.others):
        index = {belief.hands[w, other].tobytes(): w for w in range(128)}
        counts = np.bincount([index[hand.tobytes()] for hand in dealt[:, other]], minlength=128)
        assert np.corrcoef(counts, belief.weights[i])[0, 1] > 0.9
    assert np.array_equal(dealt, belief(20_000, np.random.default_rng(5)))  # seeded
