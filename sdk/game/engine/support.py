"""Small helpers shared by the game engines (mostly the turn-based ones: X nimmt!,
11 nimmt!, Hornochsen!).

They keep the checks and messages of every engine the same: which seat may move, which
option is legal, whether an explicit position is a valid deal, and how a round is dealt;
and the shared immutable events of the hot simulation loops.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from sdk.game.core import DecisionKind, Event, EventKind, Option, RulesError, Side, ViewHeader
from sdk.game.engine.dealing import shuffle
from sdk.game.history import History

_EVENT_CACHE: dict[tuple[int, int, int, int, int, int], Event] = {}
_EVENT_CACHE_LIMIT = 200_000


def shared_event(kind: EventKind, seat: int, card: int, row: int, side: Side, rnd: int) -> Event:
    """An event without `cards` or `target`, shared between states and games (events are
    immutable, and building a frozen dataclass costs more than most rule steps)."""
    key = (kind, seat, card, row, side, rnd)
    event = _EVENT_CACHE.get(key)
    if event is None:
        if len(_EVENT_CACHE) >= _EVENT_CACHE_LIMIT:
            _EVENT_CACHE.clear()
        event = Event(kind, seat=seat, card=card, row=row, side=side, round=rnd)
        _EVENT_CACHE[key] = event
    return event


def position_history(
    rows: Sequence[Sequence[int]],
    round_number: int,
    *,
    further: bool = True,
    turn_ends: bool = False,
) -> list[Event]:
    """The history an explicit position starts with: the table as if it had come about by
    play. ``ROUND_START`` with the first card of each row (or pile); with `further`, then a
    ``PLACE`` by nobody (seat -1) of every further card, row by row (each followed by an
    ``END_TURN`` when `turn_ends`, so that 11 nimmt!'s stacking rule sees one card per
    turn)."""
    events = [Event(EventKind.ROUND_START, cards=tuple(r[0] for r in rows), round=round_number)]
    for index, row in enumerate(rows if further else ()):
        for card in row[1:]:
            events.append(Event(EventKind.PLACE, card=card, row=index, round=round_number))
            if turn_ends:
                events.append(Event(EventKind.END_TURN, round=round_number))
    return events


def require_pending(pending: Sequence[int], seat: int) -> None:
    """Refuse a choice from a seat that has no decision pending."""
    if seat not in pending:
        waiting = ", ".join(map(str, pending)) or "nobody (the game is over)"
        raise RulesError(f"seat {seat} has no decision pending; waiting for: {waiting}")


def require_legal(seat: int, option: Option, legal: Sequence[Option]) -> None:
    """Refuse an option that is not among the legal ones."""
    if option not in legal:
        shown = ", ".join(o.describe() for o in legal[:12])
        more = f" (and {len(legal) - 12} more)" if len(legal) > 12 else ""
        described = option.describe() if isinstance(option, Option) else repr(option)
        raise RulesError(f"seat {seat} cannot {described} now; legal: {shown}{more}")


def require_seat(players: int, seat: int, *, referee: bool = True) -> None:
    """Refuse a seat number outside the table (-1, the referee, allowed when `referee`)."""
    low = -1 if referee else 0
    if not low <= seat < players:
        raise RulesError(f"seat {seat} does not exist; seats are 0..{players - 1}")


def require_distinct(places: Mapping[str, Iterable[int]], deck: range) -> None:
    """Refuse an explicit position where a card is unknown or lies in two places."""
    seen: dict[int, str] = {}
    for place, cards in places.items():
        for card in cards:
            if card not in deck:
                raise RulesError(f"card {card} in {place} is not in the deck {deck[0]}..{deck[-1]}")
            if card in seen:
                raise RulesError(f"card {card} is both in {seen[card]} and in {place}")
            seen[card] = place


def round_rng(family: str, seed: int, round_number: int) -> random.Random:
    """The shuffler of one round: fixed by (family, seed, round), independent per round."""
    return random.Random(f"{family}:{seed}:{round_number}")


def make_header(
    variant: str,
    players: int,
    seat: int,
    round_number: int,
    scores: Sequence[int],
    to_move: tuple[int, ...],
    decision: DecisionKind | None,
    history: list[Event],
) -> ViewHeader:
    """The common head of every view (these families have no options)."""
    return ViewHeader(
        variant=variant,
        options={},
        players=players,
        seat=seat,
        round=round_number,
        scores=tuple(scores),
        to_move=to_move,
        decision=decision if seat in to_move else None,
        history=History.window(history),
    )


def fill_hands(
    sizes: Sequence[int],
    known: Sequence[Iterable[int]],
    pool: list[int],
    rng: random.Random,
) -> list[list[int]]:
    """Hands of the given sizes: the cards known to be there plus cards drawn from `pool`.

    `pool` is shuffled and the drawn cards are removed from it (the rest stays there).
    """
    shuffle(rng, pool)  # rng.shuffle's order, quicker
    hands: list[list[int]] = []
    for size, known_cards in zip(sizes, known, strict=True):
        hand = list(known_cards)
        missing = size - len(hand)
        if missing < 0 or missing > len(pool):
            raise RulesError("the view is inconsistent: a hand size does not fit the cards")
        hand.extend(pool[len(pool) - missing :])
        del pool[len(pool) - missing :]
        hands.append(sorted(hand))
    return hands
