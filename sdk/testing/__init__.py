"""The conformance harness of the game engines: :func:`check_engine` and its parts.

Someone adding a variant (or changing an engine) runs one function::

    from sdk.testing import check_engine

    report = check_engine("xnimmt", games=200)   # raises EngineCheckError on a failure
    report = check_engine(my_family, games=200)  # a Family not registered yet
    print(report)

Every check drives seeded random games through the public :class:`GameState` API only, so
the same harness covers every family:

* a game that is not over has a pending seat; a pending seat has legal options, listed in
  canonical order and each once; every offered option applies (checked on a copy);
* every card of the game is in exactly one place at every step (``card_locations``);
* the views agree with the state (the seat, the seats to move, the pending decision);
* replaying the recorded choices on a fresh game reproduces the final state exactly;
* the engine's own ``playout`` (often a faster loop) makes the very choices the generic
  loop makes from the same random generator;
* a determinization built from a seat's view (``from_view``) shows that seat the same view;
* a copy (``clone``) is independent of the state it was made from;
* at the start of a turn, ``from_position(state.position())`` holds the same cards, offers
  the same options and plays on to the same end;
* the history tells every round (one ``ROUND_START``, one ``ROUND_END`` last) and every
  turn's end (``END_TURN``, in families that have turns), and ``round_ends()`` gives the
  table at the end of every round;
* the ranks follow from the scores, and a finished game refuses every move.

Checks raise :class:`EngineCheckError` (an ``AssertionError``) saying what failed, with the
variant, player count and seed that reproduce it. The building blocks (:func:`play_random`,
:func:`run_cheap_games`, :func:`run_deep_games`, ...) are public too, for the long seeded
runs of the test suite (:mod:`sdk.testing.checks`, :mod:`sdk.testing.runs`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sdk.game import FAMILIES, GameState, RulesError
from sdk.testing.checks import (
    CLONE_EVERY,
    AnyFamily,
    EngineCheckError,
    FinalCheck,
    PlayedGame,
    StepCheck,
    all_cards,
    assert_clone_is_independent,
    assert_determinization_keeps_view,
    assert_every_option_applies,
    assert_fast_playout_agrees,
    assert_finished_game_is_closed,
    assert_position_round_trip,
    assert_replay_reproduces,
    assert_rounds_are_told,
    assert_turns_end,
    assert_views_agree,
    choice_rng,
    play_random,
    replay,
    require,
    start_game,
    undo_hidden_picks,
)
from sdk.testing.runs import run_cheap_games, run_deep_games, seeds_over_player_counts

__all__ = [
    "EngineCheckError",
    "EngineReport",
    "PlayedGame",
    "all_cards",
    "assert_clone_is_independent",
    "assert_determinization_keeps_view",
    "assert_every_option_applies",
    "assert_fast_playout_agrees",
    "assert_finished_game_is_closed",
    "assert_position_round_trip",
    "assert_replay_reproduces",
    "assert_rounds_are_told",
    "assert_turns_end",
    "assert_views_agree",
    "check_engine",
    "choice_rng",
    "play_random",
    "replay",
    "require",
    "run_cheap_games",
    "run_deep_games",
    "seeds_over_player_counts",
    "start_game",
    "undo_hidden_picks",
]


@dataclass(frozen=True)
class EngineReport:
    """What :func:`check_engine` checked."""

    family: str
    presets: tuple[str, ...]
    games: int  # random games played through the public API
    decisions: int  # decisions made in them
    deep_decisions: int  # decisions checked in depth (every option, determinization, ...)
    positions: int  # turn starts rebuilt by from_position(position()) and played on

    def __str__(self) -> str:
        return (
            f"{self.family}: {self.games} games of {', '.join(self.presets)}, "
            f"{self.decisions} decisions, {self.deep_decisions} checked in depth, "
            f"{self.positions} positions rebuilt: all passed"
        )


def family_named(family: AnyFamily | str) -> AnyFamily:
    """A Family, or the registered family of that id (RulesError if there is none)."""
    if not isinstance(family, str):
        return family
    if family not in FAMILIES:
        raise RulesError(f"unknown game family {family!r}; families: {', '.join(FAMILIES)}")
    return FAMILIES[family]


def game_options(family: AnyFamily, index: int) -> dict[str, str]:
    """The options of game `index`: with a ``rounds`` option, most games play one round
    (the bots' format) and every fifth plays to the family's end rule (several rounds)."""
    if index % 5 and any(option.name == "rounds" for option in family.options):
        return {"rounds": "1"}
    return {}


def check_engine(
    family: AnyFamily | str,
    games: int = 100,
    *,
    seed: int = 0,
    deep_every: int = 5,
    step_check: StepCheck | None = None,
    final_check: FinalCheck | None = None,
) -> EngineReport:
    """Check that the engine of `family` (a :class:`~sdk.game.Family`, or the id of a
    registered one such as ``"xnimmt"``) keeps every property an engine must have (see the
    module docstring), over `games` seeded random games spread over its presets and player
    counts.

    Every `deep_every`-th game is also checked in depth at every decision (every option
    on a copy, the views, a determinization of the deciding seat's view; at every
    CLONE_EVERY-th such decision a clone played to the end, and the position round trip
    if a turn starts there); `step_check` and `final_check` add a family's own checks.
    Raises :class:`EngineCheckError` at the first failure; returns what was checked.
    """
    engine = family_named(family)
    rng = random.Random(seed)
    played = decisions = deep = positions = 0

    turns: list[tuple[int, int]] = []

    def told(state: GameState, seat: int) -> None:
        turns.append((seat, len(state.history)))

    def in_depth(state: GameState, seat: int) -> None:
        told(state, seat)
        nonlocal deep, positions
        assert_every_option_applies(state, seat)
        assert_views_agree(state, seat)
        assert_determinization_keeps_view(state, seat, rng, engine)
        if deep % CLONE_EVERY == 0:
            assert_clone_is_independent(state, random.Random(rng.getrandbits(32)))
        if deep % CLONE_EVERY in (0, CLONE_EVERY // 2):
            positions += assert_position_round_trip(state, rng, engine)
        if step_check is not None:
            step_check(state, seat, rng)
        deep += 1

    for index in range(games):
        preset = engine.presets[index % len(engine.presets)]
        counts = range(preset.min_players, preset.max_players + 1)
        players = counts[(index // len(engine.presets)) % len(counts)]
        options = game_options(engine, index)
        first = start_game(preset.name, players, seed + index, options, engine)
        turns.clear()
        positions += assert_position_round_trip(first, rng, engine)
        game = play_random(
            preset.name,
            players,
            seed + index,
            options,
            check_every=1,
            on_step=in_depth if index % deep_every == deep_every // 2 else told,
            family=engine,
        )
        assert_rounds_are_told(game)
        assert_turns_end(game, turns)
        assert_replay_reproduces(game)
        assert_fast_playout_agrees(game)
        assert_finished_game_is_closed(game.final)
        if final_check is not None:
            final_check(game.final)
        played += 1
        decisions += len(game.choices)
    names = tuple(preset.name for preset in engine.presets)
    return EngineReport(engine.name, names, played, decisions, deep, positions)
