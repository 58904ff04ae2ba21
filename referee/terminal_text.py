"""Text from elsewhere made inert before a terminal shows it.

What a bot says (its Hello, its output, its exceptions, the details of its faults) and
what a file from a stranger holds (a replay's names and fault details, a store's rows)
reach the commands' output. A terminal obeys control characters: ANSI CSI sequences
(``ESC [ 2 J`` clears the screen), OSC sequences (``ESC ] 0;`` sets the window title,
``ESC ] 8;`` makes a hyperlink, ``ESC ] 52;`` writes the clipboard), a bare carriage
return (the rest of the line overwrites what came before it), a backspace, a bell; and
rich, which prints most of the commands' output, reads ``[bold]``, ``[link=...]`` and
``[/x]`` as markup (an unbalanced closing tag even raises).

:func:`inert_line` and :func:`inert_text` show every such character instead of sending
it: as its Python escape (``\\x1b``, ``\\r``, ``\\u202e``), so that an author debugging
their bot still sees what it printed. A character counts as one when Python does not call
it printable (``str.isprintable``): the C0 and C1 controls, DEL, and the Unicode format
characters and separators (bidirectional overrides, zero-width characters, line and
paragraph separators). :func:`inert_markup` is the same text escaped for rich's markup, to
put inside a markup string.
"""

from __future__ import annotations

from rich.markup import escape

TAB = "    "


def _escaped(char: str) -> str:
    return char if char.isprintable() else char.encode("unicode_escape").decode("ascii")


def inert_line(text: str) -> str:
    """`text` as one line a terminal shows as it is: every unprintable character (line
    breaks and tabs included) shown as its escape."""
    if text.isprintable():
        return text
    return "".join(map(_escaped, text))


def inert_text(text: str) -> str:
    """`text` with its line breaks kept (``\\r\\n`` as ``\\n``), tabs as spaces, and every
    other unprintable character shown as its escape (a bare ``\\r`` among them)."""
    lines = text.replace("\r\n", "\n").replace("\t", TAB).split("\n")
    return "\n".join(inert_line(line) for line in lines)


def inert_markup(text: str, keep_lines: bool = False) -> str:
    """`text` made inert (:func:`inert_line`, or :func:`inert_text` with `keep_lines`) and
    escaped for rich's console markup, to print inside a markup string."""
    return escape(inert_text(text) if keep_lines else inert_line(text))
