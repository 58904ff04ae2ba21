"""Variant ids, options and player counts are validated with clear errors."""

import pytest

from sdk.game import PRESETS, RulesError, parse_variant
from sdk.game.cards import HEADS, HORNOCHSEN_POINTS


def test_the_104_cards_hold_171_heads() -> None:
    assert sum(HEADS) == 171
    assert HEADS[55] == 7 and HEADS[33] == 5 and HEADS[70] == 3 and HEADS[85] == 2


def test_hornochsen_confirmed_cards() -> None:
    assert HORNOCHSEN_POINTS[55] == -7
    assert HORNOCHSEN_POINTS[97] == 1
    assert HORNOCHSEN_POINTS[42] == HORNOCHSEN_POINTS[52] == 2
    assert all(HORNOCHSEN_POINTS[c] == -5 for c in (33, 66, 88))
    assert all(HORNOCHSEN_POINTS[c] == -3 for c in (70, 90))
    assert all(HORNOCHSEN_POINTS[c] == 1 for c in (4, 8, 31, 41, 48, 56, 61, 89, 94))


def test_preset_options_combine() -> None:
    spec = parse_variant("6nimmt-pro:end=reach66,rounds=2")
    assert spec.options["placement"] == "both"
    assert spec.options["end"] == "reach66"
    assert spec.options["rounds"] == "2"
    assert spec.id == "6nimmt-pro:end=reach66,rounds=2"
    assert parse_variant("6nimmt").id == "6nimmt"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("7nimmt", "unknown variant"),
        ("6nimmt:end=over99", "not allowed"),
        ("6nimmt:rounds=0", "at least 1"),
        ("6nimmt:rounds=two", "whole number"),
        ("6nimmt:colour=red", "no option"),
        ("xnimmt:rounds=2", "no option"),
        ("6nimmt-tactics:deck=full", "fixes deck"),
        ("6nimmt:rounds", "name=value"),
        ("6nimmt:rounds=1,rounds=2", "'rounds' given twice"),  # which one was meant?
    ],
)
def test_bad_variants_are_refused(spec: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        parse_variant(spec)


def test_options_beside_the_id_agree_with_it() -> None:
    assert parse_variant("6nimmt:rounds=1", {"rounds": "1"}).id == "6nimmt:rounds=1"
    assert parse_variant("6nimmt", {"rounds": "2"}).id == "6nimmt:rounds=2"
    with pytest.raises(RulesError, match="'rounds' is '2' in '6nimmt:rounds=2' but '1'"):
        parse_variant("6nimmt:rounds=2", {"rounds": "1"})  # which one was meant?


def test_every_preset_is_listed() -> None:
    assert set(PRESETS) == {
        "6nimmt",
        "6nimmt-tactics",
        "6nimmt-logic",
        "6nimmt-pro",
        "xnimmt",
        "11nimmt",
        "hornochsen",
    }
