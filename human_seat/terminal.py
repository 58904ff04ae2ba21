"""The human seat in a terminal: the table drawn with rich, options chosen from the keyboard.

The table is drawn as the site draws it: rows of cards with their bull heads and colours
(Hornochsen!: green plus, red minus), the seat's hand, every player's pile and score as
the seat may see them, what just happened in words, and the legal options numbered.
Up/Down (or Left/Right) move the highlight, which starts on the first legal option;
Enter plays it, so Enter alone plays a whole game. Typing a card's number and Enter plays
that card (or moves the highlight to its first option when it can go to several places);
a card that is not in the hand, or cannot be played now, gets a message. ``q``, Ctrl-C or
Ctrl-D leave the match (the seat is then auto-played by the referee).

When standard input is not a terminal (a script's pipe), each decision reads one line:
empty for the highlighted option, a card number, or ``#N`` for option N.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import termios
import threading
import time
import tty
from collections.abc import Sequence
from typing import Any, TextIO

from rich.columns import Columns
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from human_seat.bot import SeatClosed
from human_seat.table import Ask, card_value, matching, refusal, table_of
from sdk.match import MatchOutcome

# The site's card colours (leaderboard/static/bullring.css): by heads, and Hornochsen!'s.
CARD_STYLES: dict[str, str] = {
    "h1": "#5b3f86 on #fbf8ff",
    "h2": "#1d5fa8 on #e3f0fd",
    "h3": "#9a6700 on #fff4cf",
    "h5": "#b42318 on #ffe1dc",
    "h7": "#86198f on #f4dcf6",
    "green": "#157a36 on #e6f6ea",
    "red": "#b42318 on #fde7e5",
}
BULL = "ᴥ"  # one bull head
LIST_OPTIONS = 12  # more options than this are drawn in columns
REDRAW_S = 1.0  # how often a running clock is redrawn
READ_CHUNK = 64
KEYS_UP = (b"\x1b[A", b"\x1bOA", b"\x1b[D", b"\x1bOD", b"k")
KEYS_DOWN = (b"\x1b[B", b"\x1bOB", b"\x1b[C", b"\x1bOC", b"j")
KEYS_QUIT = (b"\x03", b"\x04", b"q")
KEYS_ENTER = (b"\r", b"\n")
KEYS_BACK = (b"\x7f", b"\x08")


def card_text(family: str, card: int, style_extra: str = "") -> Text:
    """One card: its number and bull heads, coloured as on the site."""
    value = card_value(family, card)
    if family == "hornochsen":
        color = "red" if value < 0 else "green"
        label = f" {card:>2} {value:+d}{BULL} "
    else:
        color = f"h{value}"
        label = f" {card:>3} {BULL * value} "
    return Text(label, style=f"{CARD_STYLES[color]} {style_extra}".strip())


def cards_text(family: str, cards: Sequence[int], marks: Sequence[int] = ()) -> Text:
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        text.append(card_text(family, card, "bold underline" if card in marks else ""))
    if not cards:
        text.append("-", style="dim")
    return text


def keys(data: bytes) -> list[bytes]:
    """Split what one read returned into keys (escape sequences kept whole)."""
    out: list[bytes] = []
    i = 0
    while i < len(data):
        if data[i : i + 1] == b"\x1b" and data[i + 1 : i + 2] in (b"[", b"O"):
            out.append(data[i : i + 3])
            i += 3
        else:
            out.append(data[i : i + 1])
            i += 1
    return out


class TerminalDesk:
    """Asks the person at this terminal (see the module docstring); one question at a
    time, whichever human seat it is for."""

    def __init__(self, stdin: TextIO | None = None, console: Console | None = None) -> None:
        self.stdin = stdin or sys.stdin
        # Standard error: the table is for the person, standard output for the match's
        # results (bullring play --json stays parseable).
        self.console = console or Console(highlight=False, stderr=True)
        self.lock = threading.Lock()
        self.closed = False

    # --- the desk -------------------------------------------------------------------------

    def choose(self, ask: Ask) -> int:
        with self.lock:
            if self.closed:
                raise SeatClosed("the person at the terminal has left")
            try:
                if self.stdin.isatty():
                    return self._choose_keys(ask)
                return self._choose_lines(ask)
            except SeatClosed:
                self.closed = True
                raise
            finally:
                if not self.closed:
                    self._say("[dim]waiting for the other players...[/dim]")

    def ended(self, seat: int, names: Sequence[str], outcome: MatchOutcome) -> None:
        with self.lock:
            score, rank = outcome.scores[seat], outcome.ranks[seat]
            self._say(
                f"[bold]the match is over[/bold]: seat {seat} (you) scored {score}, "
                f"rank {rank} of {len(outcome.ranks)}"
            )

    # --- drawing --------------------------------------------------------------------------

    def _say(self, what: Any) -> None:
        try:
            self.console.print(what)
        except OSError:  # the terminal has gone
            self.closed = True

    def render(self, ask: Ask, highlight: int, typed: str, message: str) -> Group:
        data = table_of(ask)
        family = data["family"]
        hand: list[int] = data["hand"]
        parts: list[Any] = []
        names = escape(", ".join(f"{i}: {n}" for i, n in enumerate(data["names"])))
        parts.append(
            Text.from_markup(
                f"[bold]{escape(data['variant'])}[/bold], round {data['round']}, "
                f"you are seat {data['seat']}  [dim]({names})[/dim]"
            )
        )
        for line in data["happened"][-8:]:
            parts.append(Text(f"  {line}", style="cyan"))
        rows = Table.grid(padding=(0, 1))
        for row in data["rows"]:
            rows.add_row(
                Text(row["label"], style="bold"),
                cards_text(family, row["cards"]),
                Text(row["note"], style="dim"),
            )
        parts.append(Panel(rows, title="table", expand=False))
        players = Table("seat", "player", "score", "hand", "on the table", box=None)
        for p in data["players"]:
            mark = " (you)" if p["you"] else ""
            style = "bold" if p["to_move"] else ""
            on_table = Text(p["extra"], style="dim")
            if p["cards"]:
                on_table = cards_text(family, p["cards"]).append("  ").append(on_table)
            players.add_row(
                Text(str(p["seat"]), style=style),
                Text(p["name"] + mark, style=style),
                str(p["score"]),
                str(p["hand_size"]),
                on_table,
            )
        parts.append(players)
        for note in data["notes"]:
            parts.append(Text(note, style="dim"))
        options = ask.options
        chosen = options[highlight]
        chosen_card = chosen.card if data["options"][highlight]["card"] else 0
        hand_line = Text("your hand: ", style="bold").append(
            cards_text(family, hand, [chosen_card] if chosen_card else [])
        )
        if data["specials"]:
            hand_line.append("  specials: " + " ".join(data["specials"]))
        parts.append(hand_line)
        if data["draft"]:
            parts.append(
                Text("to draft: ", style="bold").append(
                    cards_text(family, data["draft"], [chosen_card] if chosen_card else [])
                )
            )
        clock = data["clock"]
        clock_text = "no clock" if clock is None else f"{clock:.0f} s left"
        parts.append(
            Text.from_markup(
                f"[bold yellow]{escape(data['prompt'])}[/bold yellow]  [dim]{clock_text}[/dim]"
            )
        )
        cells = []
        for opt in data["options"]:
            label = f"{opt['index'] + 1:>2}. {opt['label']}"
            if opt["index"] == highlight:
                cells.append(Text(f"> {label}", style="reverse bold"))
            else:
                cells.append(Text(f"  {label}"))
        if len(cells) <= LIST_OPTIONS:  # a list, one option a line, as Up/Down move
            parts.extend(cells)
        else:  # many (11 nimmt!'s plays): in columns, row by row
            parts.append(Columns(cells, padding=(0, 2)))
        hint = "Up/Down choose, Enter plays, type a card number then Enter, q leaves"
        if typed:
            hint = f"typed: {typed}_ (Enter plays it, Backspace erases)"
        parts.append(Text(hint, style="dim"))
        if message:
            parts.append(Text(message, style="bold red"))
        return Group(*parts)

    def _draw(self, ask: Ask, highlight: int, typed: str, message: str) -> None:
        try:
            self.console.clear()
            self.console.print(self.render(ask, highlight, typed, message))
        except OSError as exc:
            raise SeatClosed("the terminal has gone") from exc

    # --- choosing -------------------------------------------------------------------------

    def _typed_card(self, ask: Ask, typed: str) -> tuple[int | None, int | None, str]:
        """(option to play, option to highlight, message) for a typed card number."""
        if not typed.isdigit():
            return None, None, f"{typed!r} is not a card number"
        card = int(typed)
        found = matching(ask.options, card)
        if not found:
            return None, None, refusal(ask.view, ask.options, card) or ""
        if len(found) == 1:
            return found[0], None, ""
        return None, found[0], f"{card} can go to several places: choose one"

    def _choose_keys(self, ask: Ask) -> int:
        fd = self.stdin.fileno()
        try:
            saved = termios.tcgetattr(fd)
        except termios.error as exc:
            raise SeatClosed("the terminal has gone") from exc
        highlight, typed, message = 0, "", ""
        n = len(ask.options)
        try:
            tty.setcbreak(fd)
            mode = termios.tcgetattr(fd)
            mode[3] &= ~termios.ISIG  # Ctrl-C is a key here (leave), not the match's signal
            termios.tcsetattr(fd, termios.TCSANOW, mode)
            self._draw(ask, highlight, typed, message)
            last_draw = time.monotonic()
            while True:
                timeout = REDRAW_S if ask.seconds_left() is not None else None
                ready, _, _ = select.select([fd], [], [], timeout)
                if not ready:
                    if time.monotonic() - last_draw >= REDRAW_S:
                        self._draw(ask, highlight, typed, message)
                        last_draw = time.monotonic()
                    continue
                try:
                    data = os.read(fd, READ_CHUNK)
                except OSError as exc:
                    raise SeatClosed("the terminal has gone") from exc
                if not data:
                    raise SeatClosed("the terminal has gone")
                for key in keys(data):
                    message = ""
                    if key in KEYS_QUIT:
                        raise SeatClosed("you left the match")
                    if key in KEYS_UP:
                        highlight, typed = (highlight - 1) % n, ""
                    elif key in KEYS_DOWN:
                        highlight, typed = (highlight + 1) % n, ""
                    elif key in KEYS_BACK:
                        typed = typed[:-1]
                    elif key == b"\x1b":
                        typed = ""
                    elif key.isdigit():
                        typed = (typed + key.decode())[-3:]
                    elif key in KEYS_ENTER:
                        if not typed:
                            return highlight
                        play, move, message = self._typed_card(ask, typed)
                        typed = ""
                        if play is not None:
                            return play
                        if move is not None:
                            highlight = move
                self._draw(ask, highlight, typed, message)
                last_draw = time.monotonic()
        finally:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    def _choose_lines(self, ask: Ask) -> int:
        message = ""
        for _ in range(1000):  # bounded: a script that keeps sending nonsense is let go
            self._draw(ask, 0, "", message)
            self._say("[dim]Enter: the highlighted option; a card number; #N: option N[/dim]")
            line = self.stdin.readline()
            if not line:
                raise SeatClosed("standard input has closed")
            text = line.strip()
            if not text:
                return 0
            if text.startswith("#") and text[1:].isdigit():
                index = int(text[1:]) - 1
                if 0 <= index < len(ask.options):
                    return index
                message = f"options are 1..{len(ask.options)}"
                continue
            play, move, message = self._typed_card(ask, text)
            if play is not None:
                return play
            if move is not None:
                return move
        raise SeatClosed("too many answers that are not options")
