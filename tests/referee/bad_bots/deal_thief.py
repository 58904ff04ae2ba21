"""A bot that tries to recover the deal and predict its opponents' hands (the attack is
tests/referee/bad_bots/deal_recovery.py), then plays the first option.

At its first decision of each match it harvests everything it can read, tries to re-deal
the match with the SDK, and appends one JSON line to ``THIEF_DIR/<pid>-<random>.jsonl``:
match id, seat, whether it found the deal, how many deals it tried, and its prediction of
every opponent's hand. Its first match also writes what it harvested to
``THIEF_DIR/<pid>-<random>.seen`` (the test looks there for the league's key, which must
be on no command line and in no environment)."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Sequence
from pathlib import Path

from sdk import Bot, DecisionClock, MatchInfo, Option, View, new_game, run
from tests.referee.bad_bots.deal_recovery import harvest, predict_hands, recover

ATTACK_S = 20.0  # a cap on the attack's wall time (the test league's clock is roomy)
# This process's reports' name: sandboxed, every bot process has the same pid in its own
# namespace, so the pid alone would not tell them apart.
PROCESS = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"


class DealThief(Bot):
    name = "deal_thief"
    version = "1"

    def __init__(self) -> None:
        self.info: MatchInfo | None = None
        self.attacked = False

    def start_match(self, match: MatchInfo) -> None:
        self.info, self.attacked = match, False

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        if not self.attacked and self.info is not None:
            self.attacked = True
            self.attack(self.info, view, clock)
        return 0

    def attack(self, info: MatchInfo, view: View, clock: DecisionClock) -> None:
        texts = harvest()
        budget = min(ATTACK_S, clock.remaining(1.0) + clock.time_bank_ms / 2000)
        recovery = recover(info, view.hand, texts, budget)
        deck = [
            card
            for cards in new_game(info.variant, info.players, 0, info.options)
            .card_locations()
            .values()
            for card in cards
        ]
        rows = getattr(view, "rows", ())
        visible = [card for row in rows for card in row]
        guess = predict_hands(info, view.hand, visible, deck, view.hand_sizes, recovery)
        folder = os.environ.get("THIEF_DIR")
        if not folder:
            return
        out = Path(folder) / f"{PROCESS}.jsonl"
        seen = out.with_suffix(".seen")
        if not seen.exists():
            seen.write_bytes(b"\n".join(texts))
        record = {
            "match_id": info.match_id,
            "seat": info.seat,
            "found": recovery.state is not None,
            "tried": recovery.tried,
            "hands": {str(seat): cards for seat, cards in guess.items()},
        }
        with out.open("a") as file:
            file.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    run(DealThief)
