"""Every game family passes the public conformance harness (sdk.testing.check_engine)."""

from __future__ import annotations

import pytest

from sdk.game import PRESETS, RulesError
from sdk.testing import check_engine

GAMES = {"6nimmt": 80, "xnimmt": 40, "11nimmt": 16, "hornochsen": 40}
"""Games per family: enough for every preset and player count, a few in depth."""


def test_every_family_is_covered() -> None:
    assert set(GAMES) == {preset.family for preset in PRESETS.values()}


@pytest.mark.parametrize("family", sorted(GAMES))
def test_the_family_passes_the_conformance_harness(family: str) -> None:
    report = check_engine(family, games=GAMES[family], seed=7)
    assert report.family == family
    assert report.games == GAMES[family]
    assert set(report.presets) == {n for n, p in PRESETS.items() if p.family == family}
    assert report.decisions > 10 * report.games
    assert report.deep_decisions > 0
    assert "all passed" in str(report)


def test_an_unknown_family_is_refused() -> None:
    with pytest.raises(RulesError, match="unknown game family '7nimmt'"):
        check_engine("7nimmt")
