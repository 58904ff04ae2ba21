"""An SDK bot whose Hello claims CLAIMS (claims separated by ";", each written like a
variant spec: ``6nimmt:rounds=1;xnimmt``; default ``6nimmt:rounds=1``) and plays the
first option. Its manifests are written by the tests (tests/referee/test_claims.py)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from sdk.bot import Bot
from sdk.game.core import Option
from sdk.game.views import View
from sdk.match import DecisionClock
from sdk.runtime import run


class Claims(Bot):
    name = "claims"
    version = "1"
    variants = tuple(c for c in os.environ.get("CLAIMS", "6nimmt:rounds=1").split(";") if c)

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        return 0


if __name__ == "__main__":
    run(Claims)
