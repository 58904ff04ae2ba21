"""11 nimmt!'s option lists (sdk.game.elevennimmt.turnoptions): a list whose items are found
on demand must behave as the plain list of the same options in every way a caller may use
it, before and after it is listed, and stay the options of its decision after later moves."""

from __future__ import annotations

import copy
import json
import pickle
import random

from sdk.game import new_game
from sdk.game.core import GameState, Option, OptionKind
from sdk.game.elevennimmt.turnoptions import TurnOptions


def decisions(games: int = 6) -> list[tuple[GameState, int, list[Option]]]:
    """Seeded 11 nimmt! states (copies) with the seat to move and its options as a plain list."""
    found = []
    rng = random.Random(7)
    for seed in range(games):
        state = new_game("11nimmt", 2 + seed % 6, seed)
        while seats := state.pending():
            seat = seats[0]
            if rng.random() < 0.2:
                found.append((state.clone(), seat, list(state.legal_options(seat))))
            options = state.legal_options(seat)
            state.apply(seat, options[rng.randrange(len(options))])
    return found


def test_items_read_one_by_one_are_the_listed_options() -> None:
    found = decisions()
    assert len(found) > 100
    for state, seat, plain in found:
        options = state.legal_options(seat)
        assert isinstance(options, list)
        assert len(options) == len(plain)
        assert [options[i] for i in range(len(plain))] == plain
        assert [options[i] for i in range(-len(plain), 0)] == plain
        for bad in (len(plain), -len(plain) - 1):
            try:
                options[bad]
            except IndexError as error:
                assert str(error) == "list index out of range"
            else:
                raise AssertionError(f"index {bad} of {len(plain)} options")
        assert options == plain and plain == options and not options != plain  # noqa: SIM202


def test_every_list_operation_sees_the_options() -> None:
    state, seat, plain = decisions(2)[5]
    end_turn = Option(OptionKind.END_TURN)
    fresh = state.legal_options
    assert fresh(seat)[1:3] == plain[1:3] and fresh(seat)[::-1] == plain[::-1]
    assert list(fresh(seat)) == plain and tuple(fresh(seat)) == tuple(plain)
    assert [*fresh(seat)] == plain and sorted(fresh(seat)) == sorted(plain)
    assert list(reversed(fresh(seat))) == plain[::-1]
    assert plain[-1] in fresh(seat) and fresh(seat).index(plain[-1]) == len(plain) - 1
    assert fresh(seat).count(plain[0]) == 1
    assert fresh(seat) + [end_turn] == [*plain, end_turn]  # noqa: RUF005 (list's +)
    assert [end_turn] + fresh(seat) == [end_turn, *plain]  # noqa: RUF005 (list's +)
    assert fresh(seat) * 2 == plain * 2 and 2 * fresh(seat) == plain * 2
    assert repr(fresh(seat)) == repr(plain) and str(fresh(seat)) == str(plain)
    assert json.dumps(fresh(seat)) == json.dumps(plain)
    assert fresh(seat) == fresh(seat) and not fresh(seat) < fresh(seat)
    for made in (copy.copy(fresh(seat)), copy.deepcopy(fresh(seat)), fresh(seat).copy()):
        assert type(made) is list and made == plain
    assert pickle.loads(pickle.dumps(fresh(seat))) == plain
    changed = fresh(seat)
    changed.append(end_turn)
    changed.sort(key=Option.sort_key)
    assert changed == sorted([*plain, end_turn], key=Option.sort_key)
    grown = fresh(seat)
    grown += [end_turn]
    assert grown == [*plain, end_turn] and len(grown) == len(plain) + 1
    popped = fresh(seat)
    assert popped.pop() == plain[-1] and popped == plain[:-1]
    emptied = fresh(seat)
    emptied.clear()
    assert emptied == [] and len(emptied) == 0
    assert TurnOptions(plain) == plain


def test_a_list_kept_across_later_moves_stays_the_options_of_its_decision() -> None:
    rng = random.Random(3)
    state = new_game("11nimmt", 4, 11)
    kept: list[tuple[list[Option], list[Option]]] = []
    while seats := state.pending():
        seat = seats[0]
        kept.append((state.legal_options(seat), list(state.legal_options(seat))))
        options = state.legal_options(seat)
        state.apply(seat, options[rng.randrange(len(options))])
    for options, plain in kept[::2]:
        assert [options[i] for i in range(len(options))] == plain
    for options, plain in kept:
        assert options == plain
