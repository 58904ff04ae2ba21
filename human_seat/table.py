"""What a person at a seat is shown: the seat's view and options as plain data.

:func:`table_of` turns one question (an :class:`Ask`: the seat's view as the bot runtime
decoded it, the legal options, the clock) into a JSON-able dict that the terminal
(:mod:`human_seat.terminal`) and the page (:mod:`human_seat.web`) both draw. It reads
nothing but the view a bot of that seat gets, so it cannot show more than that seat may
see. :func:`describe_events` says in words what happened since the seat last chose, and
why a row was taken.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sdk.game import (
    DecisionKind,
    ElevenNimmtView,
    Event,
    EventKind,
    HornochsenView,
    Option,
    OptionKind,
    SixNimmtView,
    Special,
    View,
    XNimmtView,
    hornochsen_points,
    nimmt_heads,
)
from sdk.match import DecisionClock

ROW_CAPACITY = 5  # 6 nimmt!: the sixth card takes the row

PROMPTS: dict[DecisionKind, str] = {
    DecisionKind.PICK_CARD: "pick a card to play",
    DecisionKind.TAKE_ROW: "your card is lower than every row: choose the row to take",
    DecisionKind.CHOOSE_PLACE: "two places are equally near: choose where your card goes",
    DecisionKind.DRAFT_CARD: "draft a card into your hand",
    DecisionKind.X_ROW_CARD: "choose which taken card goes to your X row",
    DecisionKind.PLAY_OR_TAKE: "play card(s) on piles, take a pile, or end your turn",
    DecisionKind.STEAL_BULL: "choose whom to steal a bull card from",
    DecisionKind.PLAY_STEP: "play a card or a special, or end your turn",
}


@dataclass(frozen=True)
class Ask:
    """One decision put to the person at `seat`: exactly what the seat's bot would get."""

    seat: int
    names: tuple[str, ...]
    view: View
    options: tuple[Option, ...]
    clock: DecisionClock
    happened: tuple[str, ...] = ()  # what happened since the seat last chose, in words

    def seconds_left(self) -> float | None:
        """Seconds before the decision's deadline (and its bank), or None when unclocked."""
        if self.clock.deadline_ms <= 0:
            return None
        left = self.clock.deadline - self.clock.timer() + self.clock.time_bank_ms / 1000.0
        return max(0.0, left)


def inert(text: str) -> str:
    """A name from elsewhere (a bot's manifest) as one line a terminal shows as it is:
    every unprintable character (escape sequences, line breaks) shown as its escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def family_of(view: View) -> str:
    """The family id the site's card drawing knows: 6nimmt, xnimmt, 11nimmt, hornochsen."""
    if isinstance(view, SixNimmtView):
        return "6nimmt"
    if isinstance(view, XNimmtView):
        return "xnimmt"
    if isinstance(view, ElevenNimmtView):
        return "11nimmt"
    return "hornochsen"


def card_value(family: str, card: int) -> int:
    """A card's heads (a penalty) or, in Hornochsen!, its signed points."""
    return hornochsen_points(card) if family == "hornochsen" else nimmt_heads(card)


def who(seat: int, names: Sequence[str], me: int) -> str:
    if seat == me:
        return "you"
    name = names[seat] if 0 <= seat < len(names) else "?"
    return f"seat {seat} ({name})"


def option_card(option: Option) -> int:
    """The numbered card an option plays or drafts; 0 for a row, a special, an end."""
    if option.kind in (OptionKind.CARD, OptionKind.PLAY):
        return option.card
    return 0


def special_name(special: int) -> str:
    """x2 or +5, as the cards say."""
    return "x2" if special == Special.X2 else "+5"


def option_label(option: Option, names: Sequence[str], me: int, family: str = "") -> str:
    if option.kind == OptionKind.ROW and family == "11nimmt":
        return f"take pile {option.row + 1}"
    if option.kind == OptionKind.SPECIAL:
        return f"play {special_name(option.card)} on row {option.row + 1}"
    if option.kind == OptionKind.STEAL:
        return f"steal a bull card from {who(option.target, names, me)}"
    if option.kind == OptionKind.PLACE:
        return f"place on row {option.row + 1} ({option.side.name.lower()} end)"
    return option.describe()


def _cards(cards: Sequence[int]) -> str:
    return " ".join(str(c) for c in cards) or "-"


def describe_events(
    events: Sequence[Event], names: Sequence[str], me: int, family: str = ""
) -> list[str]:
    """Lines saying what `events` did, with why a row was taken."""
    lines: list[str] = []
    for i, e in enumerate(events):
        k, actor = e.kind, who(e.seat, names, me)
        nxt = events[i + 1] if i + 1 < len(events) else None
        if k == EventKind.ROUND_START:
            lines.append(f"round {e.round} starts: {_cards(e.cards)}")
        elif k == EventKind.REVEAL:
            lines.append(f"{actor} played {e.card}")
        elif k == EventKind.TAKE:
            why = ""
            if nxt is not None and nxt.kind == EventKind.PLACE and nxt.seat == e.seat:
                if len(e.cards) >= ROW_CAPACITY:
                    why = f" ({nxt.card} would have been its 6th card)"
                else:
                    why = f" ({nxt.card} was lower than every row)"
            elif nxt is not None and nxt.kind == EventKind.X_ROW:
                why = " (the card filled it, or was lower than every row)"
            elif nxt is not None and nxt.kind == EventKind.NEW_PILE:
                why = " (no card could go on a pile, or chose to)"
            if family == "11nimmt":
                lines.append(f"{actor} took pile {e.row + 1}: {_cards(e.cards)}{why}")
            else:
                heads = sum(nimmt_heads(c) for c in e.cards)
                lines.append(f"{actor} took row {e.row + 1}: {_cards(e.cards)}, {heads} heads{why}")
        elif k == EventKind.DRAFT:
            lines.append(f"{actor} drafted {e.card}")
        elif k == EventKind.X_ROW:
            lines.append(f"{actor} put {e.card} in the X row")
        elif k == EventKind.X_PILE:
            lines.append(f"{actor}'s X row went to the X pile: {_cards(e.cards)}")
        elif k == EventKind.NEW_PILE:
            lines.append(f"pile {e.row + 1} starts with {e.card}")
        elif k == EventKind.BULL:
            source = f"from {who(e.target, names, me)}" if e.target >= 0 else "from the supply"
            lines.append(f"{actor} got a bull card {source}")
        elif k == EventKind.SPECIAL:
            lines.append(f"{actor} put {special_name(e.card)} on row {e.row + 1}")
        elif k == EventKind.COLLECT:
            specials = "".join(f" and {special_name(s)}" for s in e.specials)
            lines.append(f"{actor} collected row {e.row + 1}: {_cards(e.cards)}{specials}")
        elif k == EventKind.ROUND_END:
            lines.append(f"round {e.round} ends: round scores {_cards(e.cards)}")
    return lines


def _players(view: View, names: Sequence[str], me: int) -> list[dict[str, Any]]:
    header = view.header
    players: list[dict[str, Any]] = []
    for seat in range(header.players):
        extra: list[str] = []
        player: dict[str, Any] = {
            "seat": seat,
            "name": names[seat] if seat < len(names) else f"seat {seat}",
            "you": seat == me,
            "score": header.scores[seat],
            "hand_size": view.hand_sizes[seat],
            "to_move": seat in header.to_move,
            "cards": [],
        }
        if isinstance(view, SixNimmtView):
            if view.picked and view.picked[seat]:
                extra.append("has picked")
            extra.append(f"{view.round_penalties[seat]} heads this round")
            if view.public_hands and view.all_hands:
                player["cards"] = list(view.all_hands[seat])
        elif isinstance(view, XNimmtView):
            player["cards"] = list(view.x_rows[seat])
            extra.append(f"X pile {view.x_pile_sizes[seat]} cards")
        elif isinstance(view, ElevenNimmtView):
            extra.append(f"{view.bulls[seat]} bull cards")
        elif isinstance(view, HornochsenView):
            extra.append(f"{view.special_counts[seat]} specials, pile {view.pile_sizes[seat]}")
        player["extra"] = ", ".join(extra)
        players.append(player)
    return players


def _rows(view: View) -> list[dict[str, Any]]:
    if isinstance(view, SixNimmtView):
        return [
            {"label": f"row {i + 1}", "cards": list(r), "note": ""} for i, r in enumerate(view.rows)
        ]
    if isinstance(view, XNimmtView):
        return [
            {"label": f"row {i + 1}", "cards": list(r), "note": f"takes at {cap}"}
            for i, (r, cap) in enumerate(zip(view.rows, view.capacities, strict=False))
        ]
    if isinstance(view, ElevenNimmtView):
        return [
            {"label": f"pile {i + 1}", "cards": [top], "note": "top"}
            for i, top in enumerate(view.pile_tops)
        ]
    return [
        {
            "label": f"row {i + 1}",
            "cards": list(r.cards),
            "note": " ".join(m for m, on in (("x2", r.x2), ("+5", r.plus5)) if on),
        }
        for i, r in enumerate(view.rows)
    ]


def _notes(view: View) -> list[str]:
    """What else lies on the table for this seat: draft pool, pending card, supply."""
    notes: list[str] = []
    if isinstance(view, SixNimmtView):
        if view.pending_card:
            notes.append(f"your card waiting for a row: {view.pending_card}")
        if view.revealed:
            notes.append("revealed: " + ", ".join(f"seat {s}: {c}" for s, c in view.revealed))
    elif isinstance(view, XNimmtView):
        if view.taken:
            notes.append(f"you took: {_cards(view.taken)}")
        if view.own_x_pile:
            notes.append(f"your X pile: {_cards(view.own_x_pile)}")
    elif isinstance(view, ElevenNimmtView):
        notes.append(f"bull supply {view.supply}, deck {view.deck_size}")
        if view.turn_plays:
            notes.append(
                "this turn: " + ", ".join(f"{c} on pile {p + 1}" for c, p in view.turn_plays)
            )
    else:
        if view.own_pile:
            notes.append(f"your pile: {_cards(view.own_pile)}")
        notes.append(f"cards played this turn: {view.steps_this_turn} of 3")
    return notes


def table_of(ask: Ask) -> dict[str, Any]:
    """The seat's table and options as plain data (see the module docstring)."""
    view, me = ask.view, ask.seat
    family = family_of(view)
    header = view.header
    hand = list(view.hand)
    specials = [special_name(s) for s in view.specials] if isinstance(view, HornochsenView) else []
    draft = list(view.draft_pool) if isinstance(view, SixNimmtView) else []
    left = ask.seconds_left()
    return {
        "family": family,
        "variant": header.variant,
        "round": header.round,
        "seat": me,
        "names": list(ask.names),
        "prompt": PROMPTS.get(header.decision, "choose") if header.decision else "choose",
        "rows": _rows(view),
        "hand": hand,
        "specials": specials,
        "draft": draft,
        "notes": _notes(view),
        "players": _players(view, ask.names, me),
        "happened": list(ask.happened),
        "clock": None if left is None or math.isinf(left) else round(left, 1),
        "options": [
            {"index": i, "label": option_label(o, ask.names, me, family), "card": option_card(o)}
            for i, o in enumerate(ask.options)
        ],
    }


def matching(options: Sequence[Option], card: int) -> list[int]:
    """Indices of the options that play or draft `card`."""
    return [i for i, o in enumerate(options) if option_card(o) == card]


def refusal(view: View, options: Sequence[Option], card: int) -> str | None:
    """Why `card` cannot be chosen now (a message for the person), or None if it can."""
    if matching(options, card):
        return None
    pool = list(view.hand)
    if isinstance(view, SixNimmtView):
        pool += list(view.draft_pool)
    if card not in pool:
        return f"{card} is not in your hand"
    return f"{card} cannot be played now"
