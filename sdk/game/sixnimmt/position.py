"""A 6 nimmt! state and an explicit position, both ways: the bodies of
:meth:`SixNimmtState.from_position <sdk.game.sixnimmt.rules.SixNimmtState.from_position>`
(rulebook examples, determinization) and of its ``position()``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from sdk.game.core import Event, EventKind, RulesError
from sdk.game.engine.support import position_history
from sdk.game.family import Position, check_players, split_variant
from sdk.game.sixnimmt.setup import CATALOG, ROW_CAPACITY, ROWS, Phase, Rules, heads_of

if TYPE_CHECKING:  # the state's methods call this module
    from sdk.game.sixnimmt.rules import SixNimmtState


def state_from_position(
    cls: type[SixNimmtState],
    variant: str,
    hands: Sequence[Sequence[int]],
    rows: Sequence[Sequence[int]],
    *,
    options: Mapping[str, str] | None,
    totals: Sequence[int] | None,
    piles: Sequence[Sequence[int]] | None,
    unused: Sequence[int] | None,
    revealed: Sequence[tuple[int, int]],
    draft_pool: Sequence[int],
    drafter: int,
    round_number: int,
    seed: int,
    history: Sequence[Event] | None,
) -> SixNimmtState:
    """A state from an explicit position (rulebook examples, determinization).

    `variant` is a preset id with optional options (``6nimmt-pro:rounds=1``); `totals`
    are the heads of earlier rounds; `piles` the cards taken this round; `revealed`
    this turn's (seat, card) still to resolve, lowest first; `draft_pool` (Logic) the
    face-up cards still to draft, `drafter` the seat to draft next. `unused` defaults
    to every card of the deck found nowhere else. Rows may be empty only while drafting.
    Without a `history` the state's history tells what the views do not show of the
    position: ``ROUND_START`` (each row's first card; none while drafting) and a
    ``TAKE`` (row -1) of each seat's pile.
    """
    name, given = split_variant(variant, options)
    spec = CATALOG.spec(CATALOG.preset(name), given)
    players = len(hands)
    check_players(spec.preset, players)
    rules = Rules.build(spec.preset.name, spec.options, players)
    state = cls(rules, seed)
    state.round = round_number
    state.hands = [sorted(h) for h in hands]
    state.rows = [list(r) for r in rows]
    state.piles = [list(p) for p in piles] if piles is not None else [[] for _ in hands]
    state.penalties = [heads_of(p) for p in state.piles]
    state.totals = list(totals) if totals is not None else [0] * players
    state.queue = sorted((card, seat, round_number) for seat, card in revealed)
    state.pool = sorted(draft_pool)
    state.drafter = drafter
    if history is not None:
        state.history = list(history)
    elif not state.pool:
        events = position_history(state.rows, round_number, further=False)
        events.extend(
            Event(EventKind.TAKE, seat=seat, cards=tuple(pile), round=round_number)
            for seat, pile in enumerate(state.piles)
            if pile
        )
        state.history = events
    placed = [
        *(c for h in state.hands for c in h),
        *(c for r in state.rows for c in r),
        *(c for p in state.piles for c in p),
        *(c for c, _, _ in state.queue),
        *state.pool,
    ]
    everything = set(range(1, rules.highest + 1))
    state.unused = sorted(everything - set(placed)) if unused is None else sorted(unused)
    _check_position(state, placed, everything)
    state.set_hands(state.hands)  # their options, once the cards are known to be good
    if all(state.rows) and not rules.professional:
        state.rank_rows()
    if state.pool:
        state.phase = Phase.DRAFT
        state.to_pick = set()
    elif state.queue:
        state.to_pick = set()
        state._resolve()
    return state


def _check_position(state: SixNimmtState, placed: list[int], everything: set[int]) -> None:
    """Refuse positions that break the rules' invariants, with a clear message."""
    every = placed + state.unused
    if len(set(every)) != len(every):
        dupes = sorted({c for c in every if every.count(c) > 1})
        raise RulesError(f"cards appear more than once: {dupes}")
    if set(every) != everything:
        outside = sorted(set(every) - everything)
        missing = sorted(everything - set(every))
        raise RulesError(
            f"the cards must be exactly 1..{state.rules.highest}; "
            f"outside: {outside}, missing: {missing}"
        )
    if len({len(h) for h in state.hands}) > 1 and not state.pool:
        raise RulesError("every hand must hold the same number of cards")
    if len(state.rows) != ROWS:
        raise RulesError(f"there must be {ROWS} rows, not {len(state.rows)}")
    for r, row in enumerate(state.rows):
        if not state.pool and not 1 <= len(row) <= ROW_CAPACITY:
            raise RulesError(f"row {r + 1} must hold 1 to {ROW_CAPACITY} cards, not {len(row)}")
        if list(row) != sorted(row):
            raise RulesError(f"row {r + 1} must ascend: {list(row)}")
    if state.pool and not 0 <= state.drafter < state.players:
        raise RulesError("a draft position needs the seat that drafts next")


def position_of(state: SixNimmtState) -> Position:
    """The body of :meth:`SixNimmtState.position`: the table at the start of a turn (no
    card picked yet) or of a draft pick."""
    drafting = state.phase == Phase.DRAFT
    if not drafting and (state.phase != Phase.PICK or len(state.to_pick) != state.players):
        raise RulesError("a position is taken at the start of a turn, before any pick")
    return Position(
        variant=CATALOG.spec(CATALOG.preset(state.variant), state.rules.options).id,
        places=state.card_locations(),
        round=state.round,
        totals=tuple(state.totals),
        turn=state.drafter if drafting else 0,
        seed=state.seed,
    )
