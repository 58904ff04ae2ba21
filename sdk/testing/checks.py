"""The single checks of the conformance harness (see :mod:`sdk.testing`): seeded random
games through the public GameState API, and the properties every engine must keep.

Every function takes the engine's :class:`~sdk.game.Family` (default: the registered family
of the variant), so a new family can be checked before it is registered.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from sdk.errors import BullringError
from sdk.game import EventKind, Family, GameState, Option, RulesError, View, family_of
from sdk.game.core import ranks_from_scores
from sdk.game.family import check_players, split_variant

AnyFamily = Family[GameState, View]

Choice = tuple[int, Option]
StepCheck = Callable[[GameState, int, random.Random], None]
"""An extra check at a decision: (state, deciding seat, rng)."""
FinalCheck = Callable[[GameState], None]
"""An extra check of a finished game."""


CLONE_EVERY = 16
"""In depth, a clone is played to the end (to show it independent) at every 16th decision."""


class EngineCheckError(BullringError, AssertionError):
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
    family: AnyFamily = field(repr=False)

    @property
    def where(self) -> str:
        """The game's coordinates, for messages."""
        options = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        variant = f"{self.variant}:{options}" if options else self.variant
        return f"{variant}, {self.players} players, seed {self.seed}"


def start_game(
    variant: str,
    players: int,
    seed: int,
    options: Mapping[str, str] | None = None,
    family: AnyFamily | None = None,
) -> GameState:
    """A new game of `variant` made by `family` (default: the registered family of the
    variant), with the same checks as ``sdk.game.new_game``."""
    family = family or family_of(variant)
    name, given = split_variant(variant, options)
    spec = family.spec(family.preset(name), given)
    check_players(spec.preset, players)
    return family.new_game(spec.preset.name, spec.options, players, seed)


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
    family: AnyFamily | None = None,
) -> PlayedGame:
    """Play one seeded random game, checking conservation every `check_every` steps.

    At every decision the options must be non-empty, canonical and distinct, and the
    chosen one must apply. `on_step(state, seat)` is called before each decision of `seat`
    (for extra checks). `family` makes the game (default: the variant's registered one).
    """
    family = family or family_of(variant)
    state = start_game(variant, players, seed, options, family)
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
    return PlayedGame(variant, players, seed, dict(options or {}), choices, initial, state, family)


def replay(game: PlayedGame) -> GameState:
    """Apply the recorded choices to a fresh game with the same seed."""
    state = start_game(game.variant, game.players, game.seed, game.options, game.family)
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
    state = start_game(game.variant, game.players, game.seed, game.options, game.family)
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


def assert_determinization_keeps_view(
    state: GameState, seat: int, rng: random.Random, family: AnyFamily | None = None
) -> None:
    """from_view(view(seat)) must be a full state that shows `seat` the same view."""
    view = state.view(seat)
    sampled = (family or family_of(state.variant)).from_view(view, rng)
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


def assert_position_round_trip(
    state: GameState, rng: random.Random, family: AnyFamily | None = None
) -> bool:
    """At the start of a turn, ``from_position(state.position())`` holds every card where
    the state does, offers the same options, and (the same random choices made on both)
    plays on to the same end. Returns False (nothing checked) in the middle of a turn."""
    try:
        position = state.position()
    except RulesError:
        return False
    family = family or family_of(state.variant)
    again = family.from_position(position)
    require(
        again.card_locations() == state.card_locations(),
        "from_position(position()) puts cards elsewhere than the state",
    )
    require(again.pending() == state.pending(), "from_position(position()) has other seats to move")
    for seat in state.pending():
        require(
            again.legal_options(seat) == state.legal_options(seat),
            f"from_position(position()) gives seat {seat} other options",
        )
    seed = rng.getrandbits(32)
    original = state.clone()
    scores = original.playout(random.Random(seed))
    require(
        again.playout(random.Random(seed)) == scores
        and again.card_locations() == original.card_locations(),
        "from_position(position()) plays on otherwise than the state",
    )
    return True


def assert_rounds_are_told(game: PlayedGame) -> None:
    """The history tells every round: one ``ROUND_START`` (after a Logic draft's ``DRAFT``
    events), events in round order, one ``ROUND_END`` as the round's last event; and
    ``round_ends()`` gives each round's end, with every card in one place."""
    state = game.final
    history = state.history
    rounds = sorted({event.round for event in history})
    require(rounds == list(range(1, len(rounds) + 1)), f"{game.where}: rounds {rounds}")
    require(
        all(a.round <= b.round for a, b in pairwise(history)),
        f"{game.where}: events out of round order",
    )
    for number in rounds:
        events = [e for e in history if e.round == number]
        kinds = [e.kind for e in events]
        require(
            kinds.count(EventKind.ROUND_START) == 1 and kinds.count(EventKind.ROUND_END) == 1,
            f"{game.where}: round {number} has not one ROUND_START and one ROUND_END",
        )
        start = kinds.index(EventKind.ROUND_START)
        require(
            all(kind == EventKind.DRAFT for kind in kinds[:start]),
            f"{game.where}: round {number} has events before its ROUND_START",
        )
        require(kinds[-1] == EventKind.ROUND_END, f"{game.where}: round {number} ends late")
    ends = state.round_ends()
    told = [e for e in history if e.kind == EventKind.ROUND_END]
    require(
        [(end.round, end.scores) for end in ends] == [(e.round, e.cards) for e in told],
        f"{game.where}: round_ends() does not match the ROUND_END events",
    )
    require(list(ends[-1].totals) == state.scores(), f"{game.where}: the last totals differ")
    for end in ends:
        counts: Counter[int] = Counter()
        for cards in end.places.values():
            counts.update(cards)
        require(counts == game.initial_cards, f"{game.where}: round {end.round}'s end loses cards")


def assert_turns_end(game: PlayedGame, turns: list[tuple[int, int]]) -> None:
    """In a family whose turns are told (``END_TURN`` events), every turn ends with an
    ``END_TURN`` of its seat before another seat decides, the game's last turn too.
    `turns` holds (deciding seat, history length before the decision) per decision."""
    history = game.final.history
    if not any(event.kind == EventKind.END_TURN for event in history):
        return
    for (seat, before), (following, after) in zip(
        turns, [*turns[1:], (-2, len(history))], strict=True
    ):
        if following != seat:
            require(
                any(e.kind == EventKind.END_TURN and e.seat == seat for e in history[before:after]),
                f"{game.where}: seat {seat}'s turn ends without an END_TURN",
            )
