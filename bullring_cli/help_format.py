"""How ``--help`` shows options and text: a flag shows no value type, and a docstring's
paragraphs are wrapped to the terminal.

Typer's rich help prints every option's type next to it, a flag's too (``--json <bool>``),
although a flag takes no value; and it keeps the line breaks of a command's docstring.
Importing this module (the root app does) makes a flag's type column empty and each
paragraph one line, for every command at once.
"""

from __future__ import annotations

import inspect
from typing import Any

from typer import rich_utils
from typer.core import TyperOption

_display_type = TyperOption.display_type_rich


def _display_type_unless_flag(self: TyperOption, ctx: Any) -> str | None:
    """The value type shown in help: none for a flag (it takes no value)."""
    if getattr(self, "is_flag", False):
        return None
    return _display_type(self, ctx)


setattr(TyperOption, "display_type_rich", _display_type_unless_flag)  # noqa: B010


# Typer's rich help keeps a docstring's single line breaks: wrapped at 88 columns in the
# source and again at the terminal's width, a paragraph came out ragged ("... prefixed
# by its" / "seat and name ..."). Each paragraph is made one line, for the terminal to
# wrap; one that starts with click's "\b" keeps its lines.


def unwrap(text: str) -> str:
    """`text`'s paragraphs (split at blank lines) each made one line, but a "\\b" one."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(
        p if p.startswith("\b") else " ".join(line.strip() for line in p.splitlines())
        for p in paragraphs
    )


_fix_linebreaks = rich_utils._fix_linebreaks
_make_command_help = rich_utils._make_command_help


def _fix_linebreaks_unwrapped(paragraphs: list[str], markup_mode: Any) -> str:
    """A command's help below its first paragraph, each paragraph one line."""
    return str(_fix_linebreaks([unwrap(p) for p in paragraphs], markup_mode))


def _make_command_help_unwrapped(*, help_text: str, markup_mode: Any) -> Any:
    """A command's line in its group's list: its first paragraph, as one line."""
    return _make_command_help(help_text=unwrap(help_text), markup_mode=markup_mode)


setattr(rich_utils, "_fix_linebreaks", _fix_linebreaks_unwrapped)  # noqa: B010
setattr(rich_utils, "_make_command_help", _make_command_help_unwrapped)  # noqa: B010
