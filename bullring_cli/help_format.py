"""How ``--help`` shows options: a flag shows no value type.

Typer's rich help prints every option's type next to it, a flag's too (``--json <bool>``),
although a flag takes no value. Importing this module (the root app does) makes a flag's
type column empty, for every command at once.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperOption

_display_type = TyperOption.display_type_rich


def _display_type_unless_flag(self: TyperOption, ctx: Any) -> str | None:
    """The value type shown in help: none for a flag (it takes no value)."""
    if getattr(self, "is_flag", False):
        return None
    return _display_type(self, ctx)


setattr(TyperOption, "display_type_rich", _display_type_unless_flag)  # noqa: B010
