"""An SDK bot whose decide() raises (a bug in the bot's own code): EXCEPTION faults that
carry its type, message and traceback (this file and the failing line)."""

from __future__ import annotations

from collections.abc import Sequence

from sdk.bot import Bot
from sdk.game.core import Option
from sdk.game.views import View
from sdk.match import DecisionClock
from sdk.runtime import run

LINE_OF_THE_BUG = 22  # the line that raises, which the fault's traceback must name


class Raises(Bot):
    name = "raises"
    version = "1"

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        return tuple(options).index(None)  # ValueError: the bug


if __name__ == "__main__":
    run(Raises)
