"""Card values: bull heads of the 6 nimmt! family, and Hornochsen!'s green/red heads.

Hornochsen!'s table is not published; the project's table (docs/rules.md) lives here only,
so it is easy to replace.
"""

from __future__ import annotations


def nimmt_heads(card: int) -> int:
    """Bull heads of a 6 nimmt! / X nimmt! / 11 nimmt! card (a penalty)."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


HEADS: tuple[int, ...] = (0, *(nimmt_heads(c) for c in range(1, 105)))
"""HEADS[card] for cards 1..104 (index 0 unused), for hot loops."""

_HORNOCHSEN_RED: dict[int, int] = {
    55: 7,
    **{c: 5 for c in (11, 22, 33, 44, 66, 77, 88)},
    **{c: 3 for c in (10, 20, 30, 40, 50, 60, 70, 80, 90)},
    **{c: 2 for c in (5, 25, 45, 75, 95)},
}
_HORNOCHSEN_GREEN_TWO = frozenset({15, 35, 42, 52, 65, 85})


def hornochsen_points(card: int) -> int:
    """Signed points of a Hornochsen! bull card: green heads positive, red heads negative."""
    if not 1 <= card <= 98:
        raise ValueError(f"Hornochsen! cards are 1..98, not {card}")
    if card in _HORNOCHSEN_RED:
        return -_HORNOCHSEN_RED[card]
    return 2 if card in _HORNOCHSEN_GREEN_TWO else 1


HORNOCHSEN_POINTS: tuple[int, ...] = (0, *(hornochsen_points(c) for c in range(1, 99)))
"""HORNOCHSEN_POINTS[card] for cards 1..98 (index 0 unused)."""
