"""What a 6 nimmt! seat may see: its hand and the table, never hidden cards or picks."""

from __future__ import annotations

import random

import pytest

from sdk.game import DecisionKind, Option, OptionKind, RulesError, from_view, new_game
from sdk.game.sixnimmt import Phase, SixNimmtState
from sdk.game.views import SixNimmtView


def mid_game(preset: str, players: int, seed: int, steps: int) -> SixNimmtState:
    """A game after `steps` random decisions (still running)."""
    state = new_game(preset, players, seed, {"rounds": "1"})
    assert isinstance(state, SixNimmtState)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = state.pending()[0]
        options = state.legal_options(seat)
        state.apply(seat, options[rng.randrange(len(options))])
    assert not state.is_terminal()
    return state


def swap_hidden(state: SixNimmtState, seat: int, rng: random.Random) -> SixNimmtState | None:
    """A copy where a card of an opponent's hand (not its face-down pick) trades places
    with a card of another opponent's hand or an unused card; None if there is none."""
    other = state.clone()
    places: list[tuple[list[int], int]] = [
        (other.hands[s], c)
        for s in range(other.players)
        if s != seat
        for c in other.hands[s]
        if c != other.picks[s]
    ]
    place_a, a = rng.choice(places)
    partners = [(p, c) for p, c in places if p is not place_a]
    partners += [(other.unused, c) for c in other.unused]
    if not partners:
        return None
    place_b, b = rng.choice(partners)
    place_a[place_a.index(a)] = b
    place_b[place_b.index(b)] = a
    for cards in (*other.hands, other.unused):
        cards.sort()
    return other


@pytest.mark.parametrize("preset", ["6nimmt", "6nimmt-tactics", "6nimmt-pro"])
def test_changing_cards_a_seat_cannot_see_leaves_its_view_unchanged(preset: str) -> None:
    rng = random.Random(7)
    for seed in range(60):
        players = 2 + seed % 5
        state = mid_game(preset, players, seed, rng.randrange(0, 5 * players))
        seat = state.pending()[0]
        for _ in range(5):
            changed = swap_hidden(state, seat, rng)
            if changed is None:
                assert preset == "6nimmt-tactics" and players == 2
                continue
            assert changed.card_locations() != state.card_locations()
            assert changed.view(seat) == state.view(seat)


def test_a_view_holds_the_own_hand_and_the_rows_but_no_other_hand() -> None:
    state = mid_game("6nimmt", 4, 3, 9)
    for seat in range(4):
        view = state.view(seat)
        assert view.hand == tuple(state.hands[seat])
        assert view.rows == tuple(tuple(r) for r in state.rows)
        assert view.all_hands == () and not view.public_hands
        assert view.hand_sizes == tuple(len(h) for h in state.hands)
    assert state.view(-1).all_hands == tuple(tuple(h) for h in state.hands)


def test_a_face_down_pick_is_not_visible_to_anyone_else() -> None:
    state = mid_game("6nimmt", 4, 5, 0)
    low, high = state.clone(), state.clone()
    low.apply(0, Option(OptionKind.CARD, state.hands[0][0]))
    high.apply(0, Option(OptionKind.CARD, state.hands[0][-1]))
    for seat in (1, 2, 3):
        assert low.view(seat) == high.view(seat)
        assert low.view(seat).picked == (True, False, False, False)
        assert low.view(seat).header.to_move == (1, 2, 3)
    # The same holds in Logic, where every hand is public.
    logic = mid_game("6nimmt-logic", 3, 5, 30)
    assert logic.phase == Phase.PICK
    low, high = logic.clone(), logic.clone()
    low.apply(0, Option(OptionKind.CARD, logic.hands[0][0]))
    high.apply(0, Option(OptionKind.CARD, logic.hands[0][-1]))
    assert low.view(1) == high.view(1)
    assert low.view(1).all_hands[0] == tuple(logic.hands[0])


def test_logic_views_show_every_hand() -> None:
    state = mid_game("6nimmt-logic", 3, 2, 12)
    assert state.phase == Phase.DRAFT
    view = state.view(1)
    assert view.public_hands
    assert view.all_hands == tuple(tuple(h) for h in state.hands)
    assert view.draft_pool == tuple(state.pool)


@pytest.mark.parametrize(
    ("preset", "kind"),
    [
        ("6nimmt", DecisionKind.TAKE_ROW),
        ("6nimmt-pro", DecisionKind.CHOOSE_PLACE),
        ("6nimmt-pro", DecisionKind.TAKE_ROW),
        ("6nimmt-logic", DecisionKind.DRAFT_CARD),
        ("6nimmt-tactics", DecisionKind.PICK_CARD),
    ],
)
def test_determinization_at_every_kind_of_decision(preset: str, kind: DecisionKind) -> None:
    """from_view at each kind of decision keeps every seat's view and samples the hidden
    cards from those the seat has not seen."""
    rng = random.Random(1)
    found = 0
    for seed in range(300):
        state = mid_game(preset, 4, seed, 0)
        while not state.is_terminal() and found < 5:
            seat = state.pending()[0]
            if state.decision_kind(seat) == kind and (kind != DecisionKind.PICK_CARD or seat):
                found += 1
                for viewer in range(4):
                    view = state.view(viewer)
                    sampled = from_view(view, rng)
                    assert isinstance(sampled, SixNimmtState)
                    assert sampled.phase == state.phase
                    assert sampled.queue == state.queue
                    if state.phase != Phase.PICK:
                        assert sampled.view(viewer) == view
                    assert sampled.hands[viewer] == state.hands[viewer]
                    assert set(sampled.pending()) >= set(state.pending())
            options = state.legal_options(seat)
            state.apply(seat, options[rng.randrange(len(options))])
        if found >= 5:
            return
    pytest.fail(f"no {kind.name} decision found")


def test_determinizations_vary_and_use_only_unseen_cards() -> None:
    state = mid_game("6nimmt", 3, 11, 7)
    view = state.view(0)
    seen = set(view.hand) | {c for r in view.rows for c in r}
    seen |= {e.card for e in view.header.history} | {
        c for e in view.header.history for c in e.cards
    }
    samples = set()
    for i in range(30):
        sampled = from_view(view, random.Random(i))
        assert isinstance(sampled, SixNimmtState)
        for other in (1, 2):
            assert not set(sampled.hands[other]) & seen
        samples.add(tuple(sampled.hands[1]))
    assert len(samples) > 25


def test_from_view_refuses_another_familys_view() -> None:
    xview = new_game("xnimmt", 3, 1).view(0)
    assert not isinstance(xview, SixNimmtView)
    from sdk.game.sixnimmt import from_view as six_from_view

    with pytest.raises(RulesError, match="not a 6 nimmt! view"):
        six_from_view(xview, random.Random(0))


def test_applying_after_the_end_is_refused() -> None:
    state = new_game("6nimmt", 2, 1, {"rounds": "1"})
    state.playout(random.Random(0))
    with pytest.raises(RulesError, match="the game is over"):
        state.apply(0, Option(OptionKind.CARD, 1))
    with pytest.raises(RulesError, match="no decision pending"):
        state.legal_options(0)
