"""An SDK bot whose Hello claims 6nimmt alone (the first option, always)."""

from __future__ import annotations

from collections.abc import Sequence

from sdk.bot import Bot
from sdk.game.core import Option
from sdk.game.views import View
from sdk.match import DecisionClock
from sdk.runtime import run


class SixNimmtOnly(Bot):
    name = "sixnimmt_only"
    version = "1"
    variants = ("6nimmt",)

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        return 0


if __name__ == "__main__":
    run(SixNimmtOnly)
