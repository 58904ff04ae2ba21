"""An SDK bot whose every free-text field and every printed line is hostile text: markup
for a page (a script element, an attribute breaking out into an image with an onerror
handler), control sequences for a terminal (OSC 52, which writes the clipboard; ANSI
CSI, which clears the screen; a bare carriage return, which overwrites the line) and
rich's console markup (an unbalanced closing tag, a hyperlink).

Its Hello's name, version and author carry the text (its manifest's author and
description too: hostile_text.toml); it prints it on stdout when it starts and when
each match starts, and on stderr at each decision; its decide() raises with it at its
second decision of every match (an EXCEPTION fault whose detail and traceback quote it)
and plays the first option otherwise. With ``--crash`` it prints the text and exits 1
before it listens (a bot that does not start, its output quoted in the error).

Every test of tests/referee/test_inert_text.py and tests/leaderboard/test_site_inert.py
shows it through one surface (``play``, ``league log``, ``league status``, ``replay``,
``debug``, ``bot check``, the site) and checks that it arrives inert, and readable.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from sdk.bot import Bot
from sdk.game.core import Option
from sdk.game.views import View
from sdk.match import DecisionClock, MatchInfo
from sdk.runtime import run

SCRIPT = "<script>window.pwned = 1</script>"
IMAGE = '"><img src=x onerror="window.pwned = 2">'
CLIPBOARD = "\x1b]52;c;cHduZWQ=\x07"  # OSC 52: "pwned" into the clipboard
CLEAR = "\x1b[2J"  # CSI: clear the screen
MARKUP = "[/bold][link=https://example.com]x[/link]"
# Every piece; the carriage return before the last word would overwrite the line.
HOSTILE = f"{SCRIPT} {IMAGE} {CLIPBOARD} {CLEAR} {MARKUP}\roverwritten"
# What a terminal must show of it: each control character as its escape.
SHOWN = HOSTILE.replace("\x1b", "\\x1b").replace("\x07", "\\x07").replace("\r", "\\r")


class HostileText(Bot):
    name = f"hostile {HOSTILE}"
    version = HOSTILE
    author = HOSTILE
    variants = ("6nimmt",)

    def __init__(self) -> None:
        self.decisions = 0

    def start_match(self, match: MatchInfo) -> None:
        self.decisions = 0
        print(f"start {HOSTILE}", flush=True)

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        self.decisions += 1
        print(f"decision {self.decisions} {HOSTILE}", file=sys.stderr, flush=True)
        if self.decisions == 2:
            raise ValueError(HOSTILE)
        return 0


if __name__ == "__main__":
    print(f"hello {HOSTILE}", flush=True)
    if "--crash" in sys.argv:
        print(f"crash {HOSTILE}", file=sys.stderr, flush=True)
        sys.exit(1)
    run(HostileText)
