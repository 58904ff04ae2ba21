"""The encodings (sdk.envs.encoding): the action mask and the mapping to the engine's
options, the observation layout, and that a seat's observation never shows what it may
not see."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sdk.envs.encoding import CODECS, codec_for, eleven_piles
from sdk.game import (
    ElevenNimmtView,
    GameState,
    Option,
    OptionKind,
    RulesError,
    from_position,
    new_game,
    parse_variant,
)
from tests.sdk.envs.games import VARIANTS, player_count


def random_states(variant: str, games: int, seed: str) -> list[tuple[GameState, int]]:
    """(state, pending seat) at every decision of seeded random games."""
    rng = random.Random(seed)
    found: list[tuple[GameState, int]] = []
    for _ in range(games):
        state = new_game(variant, player_count(variant, rng), rng.randrange(2**31))
        while not state.is_terminal():
            for seat in state.pending():
                found.append((state.clone(), seat))
                options = state.legal_options(seat)
                state.apply(seat, options[rng.randrange(len(options))])
    return found


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_mask_marks_exactly_the_legal_options(variant: str) -> None:
    codec = codec_for(variant)
    rng = random.Random(variant)
    decoded = [codec.decode(action) for action in range(codec.action_size)]
    states = random_states(variant, 12, f"mask {variant}")
    for number, (state, seat) in enumerate(states):
        legal = state.legal_options(seat)
        mask = codec.mask(legal)
        assert mask.dtype == np.int8 and mask.shape == (codec.action_size,)
        # every legal option has exactly one unmasked action, and it maps back to it
        actions = [codec.action_of(o) for o in legal]
        assert len(set(actions)) == len(legal) == int(mask.sum())
        for option, action in zip(legal, actions, strict=True):
            assert mask[action] == 1
            assert decoded[action] == option
            assert codec.option_of(action, legal) == option
        if number % 10:
            continue
        # a masked-out action is never legal in the engine (every tenth decision)
        legal_set = set(legal)
        masked_out = np.flatnonzero(mask == 0).tolist()
        assert not any(decoded[action] in legal_set for action in masked_out)
        for action in rng.sample(masked_out, 3):
            assert codec.option_of(action, legal) is None
            with pytest.raises(RulesError):
                state.clone().apply(seat, decoded[action])


@pytest.mark.parametrize("family", sorted(CODECS))
def test_every_action_decodes_to_an_option_that_encodes_back(family: str) -> None:
    codec = CODECS[family]()
    for action in range(codec.action_size):
        assert codec.action_of(codec.decode(action)) == action
    with pytest.raises(RulesError):
        codec.decode(codec.action_size)
    with pytest.raises(RulesError):
        codec.action_of(Option(OptionKind.STEAL, target=3)) if family != "11nimmt" else (
            codec.action_of(Option(OptionKind.PLACE, row=0))
        )


@pytest.mark.parametrize("variant", VARIANTS)
def test_observations_fit_the_layout(variant: str) -> None:
    codec = codec_for(variant)
    segments = codec.segments
    assert sum(s.size for s in segments) == codec.size
    assert [s.start for s in segments] == [
        sum(t.size for t in segments[:i]) for i in range(len(segments))
    ]
    for state, seat in random_states(variant, 3, f"layout {variant}"):
        vector = codec.encode(state.view(seat))
        assert vector.dtype == np.float32 and vector.shape == (codec.size,)
        assert np.all(vector >= codec.low) and np.all(vector <= codec.high)
        hand = vector[codec.slices["hand"]]
        assert sorted(np.flatnonzero(hand) + 1) == sorted(state.view(seat).hand)
        view = state.view(seat)
        if isinstance(view, ElevenNimmtView):  # piles rebuilt from the history
            piles = eleven_piles(view)  # (a turn's cards on one pile are stacked by value)
            assert len(piles) == len(view.pile_tops)
            assert all(top in pile for top, pile in zip(view.pile_tops, piles, strict=True))


def swapped(state: GameState, observer: int, rng: random.Random) -> GameState | None:
    """The same table with one hidden card of another seat exchanged with another hidden
    card (another seat's hand, the deck or the unused cards); None if there is none."""
    position = state.position()
    places = {k: list(v) for k, v in position.places.items()}
    hidden = [k for k in places if k.startswith("hand ") and k != f"hand {observer}"]
    hidden += [k for k in ("deck", "unused") if k in places]
    hidden = [k for k in hidden if places[k]]
    if len(hidden) < 2:
        return None
    a, b = rng.sample(hidden, 2)
    i, j = rng.randrange(len(places[a])), rng.randrange(len(places[b]))
    places[a][i], places[b][j] = places[b][j], places[a][i]
    return from_position(
        type(position)(**{**position.__dict__, "places": places})  # same counters
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_another_seats_hidden_cards_never_change_an_observation(variant: str) -> None:
    codec = codec_for(variant)
    rng = random.Random(f"hidden {variant}")
    public_hands = parse_variant(variant).options.get("deal") == "draft"
    checked = 0
    for state, _ in random_states(variant, 6, f"hidden {variant}"):
        try:
            base = from_position(state.position())
        except RulesError:  # mid-turn: no position (the face-down picks are checked below)
            continue
        for observer in range(base.players):
            other = None if public_hands else swapped(base, observer, rng)
            if other is None:
                continue
            assert (
                codec.encode(other.view(observer)).tobytes()
                == codec.encode(base.view(observer)).tobytes()
            )
            checked += 1
    assert checked > 0 or public_hands


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.startswith(("6nimmt", "xnimmt"))])
def test_another_seats_face_down_pick_never_changes_an_observation(variant: str) -> None:
    codec = codec_for(variant)
    rng = random.Random(f"picks {variant}")
    checked = 0
    for state, seat in random_states(variant, 6, f"picks {variant}"):
        pending = state.pending()
        options = state.legal_options(seat)
        if len(pending) < 2 or len(options) < 2 or seat == pending[-1]:
            continue
        first, second = rng.sample(options, 2)
        a, b = state.clone(), state.clone()
        a.apply(seat, first)
        b.apply(seat, second)
        for observer in range(state.players):
            if observer != seat:
                assert (
                    codec.encode(a.view(observer)).tobytes()
                    == codec.encode(b.view(observer)).tobytes()
                )
                checked += 1
    assert checked > 0
