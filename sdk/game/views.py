"""Typed views: what one seat may see (docs/rules.md, "What a player may see").

A view holds the seat's own hand, everything face up on the table, each player's public
counters and the public history; never an opponent's hand, the deck order or unused cards.
The referee's all-seeing view (seat -1) is the same type with every hand filled in
(``all_hands``) and every face-down pile and special card shown (``all_x_piles``,
``all_specials``, ``all_piles``, ``all_pile_specials``), used for replays and the
leaderboard's "referee view" only; it is never sent to a bot.
"""

from __future__ import annotations

from dataclasses import dataclass

from sdk.game.core import ViewHeader


@dataclass(frozen=True, slots=True)
class SixNimmtView:
    """6 nimmt! and its Tactics, Logic and Professional variants."""

    header: ViewHeader
    hand: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]  # 4 rows, left to right as they lie
    hand_sizes: tuple[int, ...]
    round_penalties: tuple[int, ...]  # heads taken this round, per seat
    highest_card: int  # cards in use are 1..highest_card (104, or 10n+4)
    picked: tuple[bool, ...]  # which seats have already chosen face down this turn
    revealed: tuple[tuple[int, int], ...]  # this turn's (seat, card) still to resolve
    pending_card: int  # card waiting for a row/place choice; 0 if none
    draft_pool: tuple[int, ...]  # Logic: face-up cards still to draft; else ()
    public_hands: bool  # Logic: every hand is public knowledge
    all_hands: tuple[tuple[int, ...], ...]  # every hand when public_hands or seat -1; else ()


@dataclass(frozen=True, slots=True)
class XNimmtView:
    """X nimmt!."""

    header: ViewHeader
    hand: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]  # 3 rows
    capacities: tuple[int, ...]  # (3, 4, 5): the card that fills the row takes it
    hand_sizes: tuple[int, ...]
    x_rows: tuple[tuple[int, ...], ...]  # every seat's face-up X row
    x_pile_sizes: tuple[int, ...]  # every seat's face-down X pile, as a count
    own_x_pile: tuple[int, ...]  # this seat's own X pile (it knows what it put there)
    picked: tuple[bool, ...]
    revealed: tuple[tuple[int, int], ...]
    pending_card: int
    taken: tuple[int, ...]  # cards just taken, one of which goes to the X row (X_ROW_CARD)
    all_hands: tuple[tuple[int, ...], ...]  # seat -1 only
    all_x_piles: tuple[tuple[int, ...], ...] = ()  # seat -1 only: every seat's X pile


@dataclass(frozen=True, slots=True)
class ElevenNimmtView:
    """11 nimmt!. Only pile tops are visible; the history tells what lies beneath."""

    header: ViewHeader
    hand: tuple[int, ...]
    pile_tops: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    bulls: tuple[int, ...]  # bull cards in front of each seat
    supply: int  # bull cards left in the supply
    deck_size: int  # cards left in the face-down draw deck
    starter: int  # the seat that started this round
    turn_plays: tuple[tuple[int, int], ...]  # this turn's (card, pile) plays so far
    turn_start_tops: tuple[int, ...]  # the pile tops as they were when this turn began
    all_hands: tuple[tuple[int, ...], ...]  # seat -1 only


@dataclass(frozen=True, slots=True)
class HornochsenRow:
    """One row of the Hornochsen! circle."""

    cards: tuple[int, ...]  # bull cards, first card first
    x2: bool  # holds an x2 special
    plus5: bool  # holds a +5 special


@dataclass(frozen=True, slots=True)
class HornochsenView:
    """Hornochsen!. Scores are the points each collected pile is worth so far."""

    header: ViewHeader
    hand: tuple[int, ...]  # bull cards
    specials: tuple[int, ...]  # this seat's special cards in hand (Special values)
    rows: tuple[HornochsenRow, ...]  # clockwise, ascending by first card
    hand_sizes: tuple[int, ...]  # bull cards in each hand
    special_counts: tuple[int, ...]  # special cards in each hand
    pile_sizes: tuple[int, ...]  # cards in each seat's face-down scoring pile
    own_pile: tuple[int, ...]  # this seat's own collected bull cards
    own_pile_specials: tuple[int, ...]  # this seat's own collected specials
    steps_this_turn: int  # cards played so far this turn (at most 3)
    all_hands: tuple[tuple[int, ...], ...]  # seat -1 only
    all_specials: tuple[tuple[int, ...], ...] = ()  # seat -1 only: every seat's specials
    all_piles: tuple[tuple[int, ...], ...] = ()  # seat -1 only: every seat's collected cards
    all_pile_specials: tuple[tuple[int, ...], ...] = ()  # seat -1 only: collected specials


View = SixNimmtView | XNimmtView | ElevenNimmtView | HornochsenView
