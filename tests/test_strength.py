"""benchmarks.strength: the Wilson interval and the Monte Carlo bot against rule-based
bots (tiny sizes; the strength figures themselves are read by people, never asserted)."""

from __future__ import annotations

import pytest

from benchmarks.strength import TABLES, duplicate, wilson


def test_wilson_matches_the_textbook_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0
    assert high == pytest.approx(0.2775, abs=1e-4)


def test_mc_vs_rules_puts_the_monte_carlo_bot_in_every_seat_of_each_deal() -> None:
    stats = duplicate("6nimmt:rounds=1", 1, 40, 3, TABLES["mc-vs-rules"])
    mc, rules = stats["montecarlo_bot"], stats["rules_bot"]
    assert (mc.games, rules.games) == (4, 12)
    assert mc.wins + rules.wins == pytest.approx(4)  # one win per game, ties shared
