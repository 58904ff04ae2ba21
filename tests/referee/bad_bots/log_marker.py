"""An SDK bot that prints, at the start of each match and at each decision, a line naming
the match (so a test can tell which match's log tail holds it), with markup and control
characters a page or a terminal must show inert; its decide() raises at its second
decision of every match (an EXCEPTION fault, after which its process is kept)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from sdk.bot import Bot
from sdk.game.core import Option
from sdk.game.views import View
from sdk.match import DecisionClock, MatchInfo
from sdk.runtime import run

HOSTILE = "<script>alert('log')</script> \x1b[2J\x07\x00 </pre><b>bold</b>"


class LogMarker(Bot):
    name = "log_marker"
    version = "1"

    def __init__(self) -> None:
        self.match = "none"
        self.decisions = 0

    def start_match(self, match: MatchInfo) -> None:
        self.match, self.decisions = match.match_id, 0
        print(f"marker start {self.match} seat {match.seat}", flush=True)

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        self.decisions += 1
        print(f"marker {self.match} decision {self.decisions} {HOSTILE}", file=sys.stderr)
        sys.stderr.flush()
        if self.decisions == 2:
            raise ValueError(f"marker bug in {self.match}")
        return 0


if __name__ == "__main__":
    run(LogMarker)
