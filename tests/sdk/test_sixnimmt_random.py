"""Seeded random 6 nimmt! games: invariants, replays, end rules and determinization.

10,000 games per preset over every allowed player count and every option; most play one
round (the bots' format), some play to the end rules. Most go through the fast random
playout (checked to make the very same choices as the generic loop); one game in 100 goes
through the conformance harness (sdk.testing) instead (public API only, conservation at every step,
every offered option tried on a copy, replay, the deciding seat's determinization at every
decision and the referee's or another seat's at every third).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from sdk.game import PRESETS, EventKind, GameState, Option, OptionKind, new_game, random_policy
from sdk.game.cards import HEADS
from sdk.game.sixnimmt import Phase, SixNimmtState
from sdk.testing import (
    all_cards,
    assert_determinization_keeps_view,
    assert_every_option_applies,
    assert_replay_reproduces,
    play_random,
)

SIX_PRESETS = ("6nimmt", "6nimmt-tactics", "6nimmt-logic", "6nimmt-pro")
GAMES_PER_PRESET = 10_000
HARNESS_EVERY = 100
EXTRA_OPTIONS: tuple[dict[str, str], ...] = (
    {},
    {},
    {"deck": "tactics"},
    {"deal": "draft"},
    {"placement": "both"},
    {"deck": "tactics", "deal": "draft", "placement": "both"},
)


def game_options(preset: str, i: int) -> dict[str, str]:
    """Game i's options: mostly rounds=1; every end rule; every combination of the rest."""
    fixed = PRESETS[preset].fixed
    options = {k: v for k, v in EXTRA_OPTIONS[i % len(EXTRA_OPTIONS)].items() if k not in fixed}
    match i % 50:
        case 0:
            pass  # end=over66, the default
        case 25:
            options["end"] = "reach66"
        case 10:
            options["rounds"] = "2"
        case _:
            options["rounds"] = "1"
    return options


def games(preset: str) -> Iterator[tuple[int, int, dict[str, str]]]:
    """(players, seed, options) for every game of a preset."""
    low, high = PRESETS[preset].min_players, PRESETS[preset].max_players
    for i in range(GAMES_PER_PRESET):
        yield low + i % (high - low + 1), 1000 * i + 17, game_options(preset, i)


def check_finished_game(state: GameState, options: dict[str, str]) -> None:
    """Conservation, heads, scores recounted from the final state, and the end rule."""
    assert isinstance(state, SixNimmtState)
    assert state.is_terminal() and state.pending() == ()
    highest = state.rules.highest
    counts = all_cards(state)
    assert sorted(counts) == list(range(1, highest + 1)), "a card is missing or foreign"
    assert set(counts.values()) == {1}, "a card is in two places"
    assert all(not hand for hand in state.hands)
    # Heads add up: everything taken this round plus the rows and unused cards.
    on_table = sum(HEADS[c] for row in state.rows for c in row)
    unused = sum(HEADS[c] for c in state.unused)
    assert sum(state.penalties) + on_table + unused == sum(HEADS[1 : highest + 1])
    assert state.penalties == [sum(HEADS[c] for c in pile) for pile in state.piles]
    # Scores recounted from the public history: the heads of every TAKE, per seat.
    taken = [0] * state.players
    round_totals = [0] * state.players
    round_ends = []
    for event in state.history:
        if event.kind == EventKind.TAKE:
            taken[event.seat] += sum(HEADS[c] for c in event.cards)
        elif event.kind == EventKind.ROUND_END:
            round_totals = [t + p for t, p in zip(round_totals, event.cards, strict=True)]
            round_ends.append(list(round_totals))
    assert taken == state.scores() == round_totals
    assert round_ends[-1] == state.scores()
    assert len(round_ends) == state.round
    # The end rule: the game ended at the first round end that met it.
    if options.get("rounds"):
        assert state.round == int(options["rounds"])
    else:
        limit = 66 if options.get("end") == "reach66" else 67
        assert max(round_ends[-1]) >= limit
        assert all(max(totals) < limit for totals in round_ends[:-1])


def check_determinization(state: GameState, seat: int, step: int, rng: random.Random) -> None:
    """The deciding seat's view survives a determinization at every decision; at every
    third decision also the referee's or (in turn) a random seat's."""
    assert_determinization_keeps_view(state, seat, rng)
    if step % 3 == 0:
        viewer = -1 if step % 6 == 0 else rng.randrange(state.players)
        assert_determinization_keeps_view(state, viewer, rng)


@pytest.mark.parametrize("preset", SIX_PRESETS)
def test_random_games_keep_every_invariant(preset: str) -> None:
    checked = 0
    for i, (players, seed, options) in enumerate(games(preset)):
        if i % HARNESS_EVERY == 10:  # rounds=1 and rounds=2 games (see game_options)
            det_rng, steps = random.Random(seed), itertools.count()

            def on_step(
                state: GameState,
                seat: int,
                det_rng: random.Random = det_rng,
                steps: Iterator[int] = steps,
            ) -> None:
                assert_every_option_applies(state, seat)
                check_determinization(state, seat, next(steps), det_rng)

            played = play_random(preset, players, seed, options, on_step=on_step)
            assert_replay_reproduces(played)
            check_finished_game(played.final, options)
            checked += 1
            continue
        # The simulation path (the same choices as the generic loop, see the next test).
        state = new_game(preset, players, seed, options)
        state.playout(random.Random(seed))
        check_finished_game(state, options)
    assert checked == GAMES_PER_PRESET // HARNESS_EVERY


@pytest.mark.parametrize("preset", SIX_PRESETS)
def test_the_fast_random_playout_makes_the_same_choices_as_the_generic_one(preset: str) -> None:
    for seed in range(40):
        players = 2 + seed % 5
        fast = new_game(preset, players, seed)
        generic = fast.clone()
        fast.playout(random.Random(seed))
        GameState.playout(generic, random.Random(seed))
        assert fast.view(-1) == generic.view(-1)
        # With an explicit policy the generic loop runs, with the same result.
        again = new_game(preset, players, seed)
        again.playout(random.Random(seed), random_policy)
        assert again.view(-1) == fast.view(-1)


def test_the_same_seed_and_choices_give_the_same_game_and_seeds_differ() -> None:
    first = play_random("6nimmt", 5, 99)
    second = play_random("6nimmt", 5, 99)
    assert first.final.view(-1) == second.final.view(-1)
    deals = {str(new_game("6nimmt", 5, seed).card_locations()) for seed in range(20)}
    assert len(deals) == 20


def test_each_round_deals_anew() -> None:
    state = new_game("6nimmt", 4, 3)
    assert isinstance(state, SixNimmtState)
    first_round = state.view(-1).all_hands
    while state.round == 1:
        seat = state.pending()[0]
        state.apply(seat, state.legal_options(seat)[0])
    assert state.view(-1).all_hands != first_round
    assert all(len(hand) == 10 for hand in state.hands)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_logic_draft_goes_round_the_table_from_the_rounds_first_seat(players: int) -> None:
    state = new_game("6nimmt-logic", players, 5, {"rounds": "3"})
    assert isinstance(state, SixNimmtState)
    rng = random.Random(players)
    for round_number in (1, 2, 3):
        assert state.round == round_number
        assert state.phase == Phase.DRAFT
        view = state.view(0)
        assert view.public_hands and view.draft_pool == tuple(range(1, 10 * players + 5))
        first = (round_number - 1) % players
        drafters = []
        while state.phase == Phase.DRAFT:
            (seat,) = state.pending()
            drafters.append(seat)
            options = state.legal_options(seat)
            assert [o.card for o in options] == state.pool
            state.apply(seat, options[rng.randrange(len(options))])
        assert drafters == [(first + k) % players for k in range(10 * players)]
        assert all(len(hand) == 10 for hand in state.hands)
        starters = [row[0] for row in state.rows]
        assert starters == sorted(starters)
        round_start = state.history[-1]
        assert round_start.kind == EventKind.ROUND_START
        assert round_start.cards == tuple(starters)
        while state.phase != Phase.DRAFT and not state.is_terminal():
            for seat in state.pending():
                options = state.legal_options(seat)
                state.apply(seat, options[rng.randrange(len(options))])
    assert state.is_terminal()


def test_reveals_come_in_ascending_order_and_picks_stay_hidden_until_then() -> None:
    state = new_game("6nimmt", 4, 8, {"rounds": "1"})
    assert isinstance(state, SixNimmtState)
    before = len(state.history)
    cards = [hand[-1] for hand in state.hands]
    for seat, card in enumerate(cards):
        state.apply(seat, Option(OptionKind.CARD, card))
        if seat < 3:
            assert len(state.history) == before, "a pick showed up in the history"
    reveals = [e for e in state.history[before:] if e.kind == EventKind.REVEAL]
    assert [e.card for e in reveals] == sorted(cards)
    assert sorted(e.seat for e in reveals) == [0, 1, 2, 3]
