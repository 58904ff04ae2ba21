"""The conformance harness of the game engines: :func:`check_engine` and its parts.

Someone adding a variant (or changing an engine) runs one function::

    from sdk.testing import check_engine

    report = check_engine("xnimmt", games=200)   # raises EngineCheckError on a failure
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
* the ranks follow from the scores, and a finished game refuses every move.

Checks raise :class:`EngineCheckError` (an ``AssertionError``) saying what failed, with the
variant, player count and seed that reproduce it. The building blocks (:func:`play_random`,
:func:`run_cheap_games`, :func:`run_deep_games`, ...) are public too, for the long seeded
runs of the test suite.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

from sdk.game import PRESETS, GameState, Option, RulesError, from_view, new_game, parse_variant
from sdk.game.core import ranks_from_scores

Choice = tuple[int, Option]
StepCheck = Callable[[GameState, int, random.Random], None]
"""An extra check at a decision: (state, deciding seat, rng)."""
FinalCheck = Callable[[GameState], None]
"""An extra check of a finished game."""


CLONE_EVERY = 16
"""In depth, a clone is played to the end (to show it independent) at every 16th decision."""


class EngineCheckError(AssertionError):
    """An engine broke a property every engine must have."""


def require(condition: bool, message: str) -> None:
    """Raise :class:`EngineCheckError` with `message` unless `condition` holds."""
    if not condition:
        raise EngineCheckError(message)


@dataclass
class PlayedGame:
    """A finished random game, with what is needed to replay and inspect it."""

    variant: str
    players: int
    seed: int
    options: Mapping[str, str]
    choices: list[Choice]
    initial_cards: Counter[int]
    final: GameState

    @property
    def where(self) -> str:
        """The game's coordinates, for messages."""
        options = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        variant = f"{self.variant}:{options}" if options else self.variant
        return f"{variant}, {self.players} players, seed {self.seed}"


@dataclass(frozen=True)
class EngineReport:
    """What :func:`check_engine` checked."""

    family: str
    presets: tuple[str, ...]
    games: int  # random games played through the public API
    decisions: int  # decisions made in them
    deep_decisions: int  # decisions checked in depth (every option, determinization, clone)

    def __str__(self) -> str:
        return (
            f"{self.family}: {self.games} games of {', '.join(self.presets)}, "
            f"{self.decisions} decisions, {self.deep_decisions} checked in depth: all passed"
        )


def all_cards(state: GameState) -> Counter[int]:
    """Every number card of the game, counted over all places."""
    counts: Counter[int] = Counter()
    for cards in state.card_locations().values():
        counts.update(cards)
    return counts


def choice_rng(players: int, seed: int) -> random.Random:
    """The random choices of a seeded random game (play_random's; a fast random playout
    from this generator makes the very same choices)."""
    return random.Random(seed * 7919 + players)


def play_random(
    variant: str,
    players: int,
    seed: int,
    options: Mapping[str, str] | None = None,
    *,
    check_every: int = 1,
    on_step: Callable[[GameState, int], None] | None = None,
    max_steps: int = 100_000,
) -> PlayedGame:
    """Play one seeded random game, checking conservation every `check_every` steps.

    At every decision the options must be non-empty, canonical and distinct, and the
    chosen one must apply. `on_step(state, seat)` is called before each decision of `seat`
    (for extra checks).
    """
    state = new_game(variant, players, seed, options)
    where = f"{variant} {dict(options or {})}, {players} players, seed {seed}"
    rng = choice_rng(players, seed)
    initial = all_cards(state)
    require(all(n == 1 for n in initial.values()), f"{where}: a card is in two places at the start")
    choices: list[Choice] = []
    steps = 0
    while not state.is_terminal():
        pending = state.pending()
        require(bool(pending), f"{where}: a game that is not over has no pending seat")
        for seat in pending:
            options_now = state.legal_options(seat)
            require(bool(options_now), f"{where}: seat {seat} is pending but has no option")
            require(
                options_now == sorted(options_now, key=Option.sort_key),
                f"{where}: the options of seat {seat} are not in canonical order",
            )
            require(
                len(set(options_now)) == len(options_now),
                f"{where}: an option of seat {seat} is offered twice",
            )
            if on_step is not None:
                on_step(state, seat)
            choice = options_now[rng.randrange(len(options_now))]
            state.apply(seat, choice)
            choices.append((seat, choice))
            steps += 1
            require(steps < max_steps, f"{where}: the game does not end")
            if steps % check_every == 0:
                require(all_cards(state) == initial, f"{where}: cards are not conserved")
    require(all_cards(state) == initial, f"{where}: cards are not conserved at the end")
    require(state.pending() == (), f"{where}: a finished game still has pending seats")
    return PlayedGame(variant, players, seed, dict(options or {}), choices, initial, state)


def replay(game: PlayedGame) -> GameState:
    """Apply the recorded choices to a fresh game with the same seed."""
    state = new_game(game.variant, game.players, game.seed, game.options)
    for seat, choice in game.choices:
        state.apply(seat, choice)
    return state


def assert_replay_reproduces(game: PlayedGame) -> None:
    """The recorded choices, applied to a fresh game, give the very same end."""
    again = replay(game)
    require(again.is_terminal(), f"{game.where}: the replayed game is not over")
    require(
        again.scores() == game.final.scores(), f"{game.where}: the replayed game scores otherwise"
    )
    require(
        again.view(-1) == game.final.view(-1), f"{game.where}: the replayed game ends otherwise"
    )


def assert_fast_playout_agrees(game: PlayedGame) -> None:
    """The engine's own ``playout`` from the game's choice generator plays the same game."""
    state = new_game(game.variant, game.players, game.seed, game.options)
    state.playout(choice_rng(game.players, game.seed))
    require(
        state.view(-1) == game.final.view(-1),
        f"{game.where}: the engine's playout chooses otherwise than the generic loop",
    )


def assert_views_agree(state: GameState, seat: int) -> None:
    """The view of `seat` (and the referee's) states whose turn it is and what is decided."""
    pending = state.pending()
    for viewer in (seat, -1):
        header = state.view(viewer).header
        require(header.seat == viewer, f"view({viewer}) is the view of seat {header.seat}")
        require(header.players == state.players, f"view({viewer}) has the wrong player count")
        require(
            tuple(header.to_move) == tuple(pending),
            f"view({viewer}) says {header.to_move} are to move, the state says {pending}",
        )
    decision = state.view(seat).header.decision
    require(
        decision == state.decision_kind(seat),
        f"the view of seat {seat} names decision {decision}, the state another",
    )


def assert_determinization_keeps_view(state: GameState, seat: int, rng: random.Random) -> None:
    """from_view(view(seat)) must be a full state that shows `seat` the same view."""
    view = state.view(seat)
    sampled = from_view(view, rng)  # type: ignore[arg-type]
    sampled_view = sampled.view(seat)
    require(
        sampled_view == undo_hidden_picks(view, sampled_view),
        f"a determinization shows seat {seat} another view",
    )
    require(
        set(state.pending()) <= set(sampled.pending()),
        f"a determinization for seat {seat} lost a pending seat",
    )
    if seat in state.pending():
        require(
            sampled.legal_options(seat) == state.legal_options(seat),
            f"a determinization gives seat {seat} other options",
        )


def undo_hidden_picks(view: Any, sampled_view: Any) -> Any:
    """`view` with the face-down picks that `sampled_view` left unmade taken back.

    A determinization may leave the opponents' hidden simultaneous picks unmade (6 nimmt!
    does, so a simulation lets them choose again); those seats are then pending again. Only
    picks can be taken back, never added.
    """
    picked = getattr(view, "picked", None)
    if picked is None or getattr(sampled_view, "picked", None) is None:
        return view
    undone = {
        s
        for s, (was, now) in enumerate(zip(picked, sampled_view.picked, strict=True))
        if was and not now
    }
    if not undone:
        return view
    to_move = tuple(sorted(set(view.header.to_move) | undone))
    decision = view.header.decision
    if view.header.seat in undone:  # the seat's own pick was taken back: it decides again
        decision = sampled_view.header.decision
    header = replace(view.header, to_move=to_move, decision=decision)
    return replace(view, header=header, picked=sampled_view.picked)


def assert_every_option_applies(state: GameState, seat: int) -> None:
    """Each legal option of `seat` applies without error on a copy of the state."""
    for option in state.legal_options(seat):
        try:
            state.clone().apply(seat, option)
        except RulesError as error:
            raise EngineCheckError(
                f"seat {seat}: the offered option {option.describe()} is refused: {error}"
            ) from error


def assert_clone_is_independent(state: GameState, rng: random.Random) -> None:
    """Playing a copy to the end leaves the original as it was."""
    before = state.view(-1)
    state.clone().playout(rng)
    require(state.view(-1) == before, "playing a clone changed the state it was made from")


def assert_finished_game_is_closed(state: GameState) -> None:
    """A finished game: no pending seat, ranks from the scores, every move refused."""
    require(state.is_terminal() and state.pending() == (), "the game is not over")
    scores = state.scores()
    require(len(scores) == state.players, "scores() has not one score per seat")
    require(
        state.ranks() == ranks_from_scores(scores, state.higher_is_better),
        "the ranks do not follow from the scores",
    )
    for seat in range(state.players):
        for call in (state.legal_options, state.decision_kind):
            try:
                call(seat)
            except RulesError:
                continue
            raise EngineCheckError(f"a finished game still answers {call.__name__}({seat})")


def seeds_over_player_counts(
    min_players: int, max_players: int, games: int, base_seed: int = 0
) -> Iterator[tuple[int, int]]:
    """(players, seed) pairs: `games` games spread evenly over every player count."""
    counts = list(range(min_players, max_players + 1))
    for i in range(games):
        yield counts[i % len(counts)], base_seed + i


def run_cheap_games(
    variant: str,
    min_players: int,
    max_players: int,
    games: int,
    final_check: FinalCheck,
    *,
    part: int = 0,
    parts: int = 1,
    harness_every: int = 10,
) -> int:
    """Play part `part` (of `parts` equal slices) of `games` seeded random games spread over
    every player count; return how many were played (for the caller to check).

    Every game is played by the engine's fast random playout, must end with every card in
    exactly one place, and passes `final_check`. Every `harness_every`-th game is also
    played through the public API by :func:`play_random`; its recorded choices replay to the
    same end, and it must be the very game the fast playout played (same choices from the
    same generator), which shows that the fast playout only makes legal choices.
    """
    first, last = games * part // parts, games * (part + 1) // parts
    played = 0
    for players, seed in islice(
        seeds_over_player_counts(min_players, max_players, games), first, last
    ):
        state = new_game(variant, players, seed)
        where = f"{variant}, {players} players, seed {seed}"
        initial = all_cards(state)
        require(set(initial.values()) == {1}, f"{where}: a card is in two places at the start")
        state.playout(choice_rng(players, seed))
        require(state.is_terminal() and state.pending() == (), f"{where}: playout did not end")
        require(all_cards(state) == initial, f"{where}: cards are not conserved")
        final_check(state)
        if seed % harness_every == 0:
            game = play_random(variant, players, seed, check_every=1 << 30)
            require(
                game.final.view(-1) == state.view(-1),
                f"{where}: the fast playout chose otherwise",
            )
            assert_replay_reproduces(game)
        played += 1
    return played


def run_deep_games(
    variant: str,
    min_players: int,
    max_players: int,
    games: int,
    hidden_check: StepCheck,
    *,
    base_seed: int = 1_000_000,
) -> int:
    """Play `games` random games checked at every decision; return the decisions checked.

    At every decision: every option applies on a copy, the views agree with the state, a
    determinization keeps the deciding seat's view, and `hidden_check` passes.
    """
    checked = 0
    rng = random.Random(base_seed)

    def on_step(state: GameState, seat: int) -> None:
        nonlocal checked
        assert_every_option_applies(state, seat)
        assert_views_agree(state, seat)
        assert_determinization_keeps_view(state, seat, rng)
        hidden_check(state, seat, rng)
        checked += 1

    for players, seed in seeds_over_player_counts(min_players, max_players, games, base_seed):
        game = play_random(variant, players, seed, on_step=on_step)
        assert_replay_reproduces(game)
    return checked


def family_presets(family: str) -> tuple[str, ...]:
    """The presets of a family id (``"6nimmt"``, ``"xnimmt"``, ...), RulesError if none."""
    presets = tuple(name for name, preset in PRESETS.items() if preset.family == family)
    if not presets:
        families = sorted({p.family for p in PRESETS.values()})
        raise RulesError(f"unknown game family {family!r}; families: {', '.join(families)}")
    return presets


def game_options(family_has_rounds: bool, index: int) -> dict[str, str]:
    """The options of game `index`: with a ``rounds`` option, most games play one round
    (the bots' format) and every fifth plays to the family's end rule (several rounds)."""
    if family_has_rounds and index % 5:
        return {"rounds": "1"}
    return {}


def check_engine(
    family: str,
    games: int = 100,
    *,
    seed: int = 0,
    deep_every: int = 5,
    step_check: StepCheck | None = None,
    final_check: FinalCheck | None = None,
) -> EngineReport:
    """Check that the engine of `family` (a family id such as ``"xnimmt"``) keeps every
    property an engine must have (see the module docstring), over `games` seeded random
    games spread over its presets and player counts.

    Every `deep_every`-th game is also checked in depth at every decision (every option
    on a copy, the views, a determinization of the deciding seat's view; at every
    CLONE_EVERY-th such decision a clone played to the end); `step_check` and
    `final_check` add a family's own checks. Raises :class:`EngineCheckError` at the
    first failure; returns what was checked.
    """
    presets = family_presets(family)
    has_rounds = any("rounds" in parse_variant(name).options for name in presets)
    rng = random.Random(seed)
    played = decisions = deep = 0

    def in_depth(state: GameState, seat: int) -> None:
        nonlocal deep
        assert_every_option_applies(state, seat)
        assert_views_agree(state, seat)
        assert_determinization_keeps_view(state, seat, rng)
        if deep % CLONE_EVERY == 0:
            assert_clone_is_independent(state, random.Random(rng.getrandbits(32)))
        if step_check is not None:
            step_check(state, seat, rng)
        deep += 1

    for index in range(games):
        preset = PRESETS[presets[index % len(presets)]]
        counts = range(preset.min_players, preset.max_players + 1)
        players = counts[(index // len(presets)) % len(counts)]
        options = game_options(has_rounds, index)
        game = play_random(
            preset.name,
            players,
            seed + index,
            options,
            check_every=1,
            on_step=in_depth if index % deep_every == deep_every // 2 else None,
        )
        assert_replay_reproduces(game)
        assert_fast_playout_agrees(game)
        assert_finished_game_is_closed(game.final)
        if final_check is not None:
            final_check(game.final)
        played += 1
        decisions += len(game.choices)
    return EngineReport(family, presets, played, decisions, deep)
