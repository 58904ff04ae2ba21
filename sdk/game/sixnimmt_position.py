"""6 nimmt! states from explicit positions and from views: the rulebook examples, the
family-independent :class:`~sdk.game.family.Position` and determinization (a full state
consistent with what one seat may see)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from sdk.game.core import Event, EventKind, RulesError
from sdk.game.dealing import shuffle
from sdk.game.engine_support import position_history
from sdk.game.family import Position, check_players, split_variant
from sdk.game.sixnimmt_rules import SixNimmtState
from sdk.game.sixnimmt_setup import ROW_CAPACITY, ROWS, Phase, Rules, heads_of
from sdk.game.views import SixNimmtView, View


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
    from sdk.game.sixnimmt import FAMILY

    name, given = split_variant(variant, options)
    spec = FAMILY.spec(FAMILY.preset(name), given)
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
    from sdk.game.sixnimmt import FAMILY

    drafting = state.phase == Phase.DRAFT
    if not drafting and (state.phase != Phase.PICK or len(state.to_pick) != state.players):
        raise RulesError("a position is taken at the start of a turn, before any pick")
    return Position(
        variant=FAMILY.spec(FAMILY.preset(state.variant), state.rules.options).id,
        places=state.card_locations(),
        round=state.round,
        totals=tuple(state.totals),
        turn=state.drafter if drafting else 0,
        seed=state.seed,
    )


def from_position(position: Position) -> SixNimmtState:
    """A state from a family-independent :class:`Position` (places as ``card_locations``
    names them; ``turn`` is the seat to draft next while drafting)."""
    position.require_places(("hand", "row", "pile", "draft", "unused"), empty=("revealed",))
    players = position.players()
    draft = position.places.get("draft", ())
    unused = position.places.get("unused")
    return SixNimmtState.from_position(
        position.variant,
        position.indexed("hand", players),
        position.indexed("row"),
        totals=position.totals or None,
        piles=position.indexed("pile", players),
        unused=None if unused is None else list(unused),
        draft_pool=draft,
        drafter=position.turn if draft else -1,
        round_number=position.round,
        seed=position.seed,
    )


def from_view(view: View, rng: random.Random) -> SixNimmtState:
    """A full state consistent with `view`, hidden cards sampled uniformly (determinization).

    Every card the seat has not seen this round (the deck minus its hand, the rows, the
    draft pool and every card in this round's public history) is shuffled and dealt to the
    opponents' hands (their sizes as the view shows them); the rest is unused. Face-down
    picks are hidden, so in the returned state no seat has picked yet this turn; apart
    from ``picked`` its view for the seat equals `view`. Later rounds use a fresh seed
    drawn from `rng`.
    """
    from sdk.game.sixnimmt import FAMILY

    if not isinstance(view, SixNimmtView):
        raise RulesError(f"not a 6 nimmt! view: {type(view).__name__}")
    header = view.header
    FAMILY.preset(header.variant)  # refuses a variant of another family
    seat = header.seat
    n = header.players
    highest = view.highest_card
    piles: list[list[int]] = [[] for _ in range(n)]
    seen = set(view.hand) | set(view.draft_pool) | {c for _, c in view.revealed}
    for row in view.rows:
        seen.update(row)
    for event in reversed(header.history):
        if event.round != header.round:
            break  # earlier rounds: their cards were shuffled back
        seen.add(event.card)
        seen.update(event.cards)
        if event.kind == EventKind.TAKE:
            piles[event.seat].extend(event.cards)
    if view.all_hands:
        hands = [list(h) for h in view.all_hands]
    else:
        unseen = [c for c in range(1, highest + 1) if c not in seen]
        shuffle(rng, unseen)  # rng.shuffle's order, quicker
        hands = []
        for other in range(n):
            if other == seat:
                hands.append(list(view.hand))
            else:
                size = view.hand_sizes[other]
                hands.append(unseen[:size])
                del unseen[:size]
    totals = [s - p for s, p in zip(header.scores, view.round_penalties, strict=True)]
    state = SixNimmtState.from_position(
        header.variant,
        hands,
        view.rows,
        options=header.options,
        totals=totals,
        piles=piles,
        revealed=view.revealed,
        draft_pool=view.draft_pool,
        drafter=header.to_move[0] if view.draft_pool else -1,
        round_number=header.round,
        seed=rng.getrandbits(63),
        history=header.history,
    )
    if not header.to_move:
        state.phase = Phase.OVER
        state.to_pick = set()
    return state
