"""The rule-based choice for any decision of any family (dispatch to the family modules)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from example_bots.rules_bot import elevennimmt, hornochsen, sixnimmt, xnimmt
from sdk import ElevenNimmtView, HornochsenView, Option, SixNimmtView, View, XNimmtView

STRATEGIES: dict[type, Callable[[Any, Sequence[Option]], Option]] = {
    SixNimmtView: sixnimmt.choose,
    XNimmtView: xnimmt.choose,
    ElevenNimmtView: elevennimmt.choose,
    HornochsenView: hornochsen.choose,
}


def rules_choice(view: View, options: Sequence[Option]) -> Option:
    """The rule-based choice; the first option for a view of no known family."""
    if len(options) == 1:
        return options[0]
    strategy = STRATEGIES.get(type(view))
    return strategy(view, options) if strategy else options[0]
