"""11 nimmt!: the option list of a PLAY_OR_TAKE decision, its PLAY options found on demand.

A random policy (``options[rng.randrange(len(options))]``, as ``sdk.montecarlo``'s
playouts and the benchmarks use) asks an option list its length and one item. Building
the whole list (some 29 options from 11 hand cards against 17 piles) cost about 60% of a
random 11 nimmt! game, and a pile being taken renumbers the piles about every other turn,
so no list can be kept for long.

:class:`TurnOptions` is a ``list`` (the type ``GameState.legal_options`` promises) holding
what the options follow from: the hand, the bit set of the open pile tops, the turn's
start tops, whether the ROW options come first and END_TURN last, and the plays' spread
set (one bit per legal (card, top) pair, see ``elevennimmt_table``), whose bit count is the
number of plays. ``len()`` is known from the start, and ``options[i]`` (an int) finds the
i-th without listing the others, counting each card's plays from the nearer end of the
hand; anything else (iteration, other indexes, slices, ``in``, comparisons, every list method) first
lists them all into the list itself, in the same canonical order as before, and then is
the plain list operation. Copies and pickles are plain lists.

The engine keeps what a list holds unchanged once made (a hand list is replaced, never
changed in place, when a card is played; a turn's start tops list is new every turn), so
a list stays the options of the decision it was made for, as a built list would.

C code that reads a list's storage directly without asking the object (``heapq`` on an
option list, for one) sees an empty list until something in Python has listed it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, SupportsIndex, overload

from sdk.game.core import Option
from sdk.game.elevennimmt.table import (
    END_TURN,
    PILE_BITS,
    PLAY_OPTIONS,
    REACH,
    ROW_OPTIONS,
    TOPS_OF,
)

_new_list = list.__new__
_list_len = list.__len__
_list_getitem = list.__getitem__
_list_extend = list.extend


class TurnOptions(list[Option]):
    """The legal options of an 11 nimmt! PLAY_OR_TAKE decision, in canonical order: ROW
    for every pile (before the turn's first card), the PLAY options by card then pile,
    END_TURN (after a card). Build one with :func:`turn_options`."""

    __slots__ = ("_end", "_fits", "_hand", "_open", "_rows", "_size", "_tops")

    _hand: list[int] | None
    """The hand (never changed in place by the engine); None once the options are listed."""
    _open: int  # the start tops of the piles this turn may still play on, as a bit set
    _tops: list[int]  # the turn's start tops (pile i's top when the turn began)
    _rows: int  # how many ROW options come first (the piles; 0 after the turn's first card)
    _end: int  # 1 when END_TURN comes last
    _fits: int  # the spread set of the plays (elevennimmt_table): a bit per (card, top)
    _size: int  # the length

    def __init__(self, options: Iterable[Option] = ()) -> None:
        """A list already holding `options` (the engine makes its lists with
        :func:`turn_options`)."""
        self._hand = None
        list.__init__(self, options)

    def __len__(self) -> int:
        if self._hand is None:
            return _list_len(self)
        return self._size

    @overload
    def __getitem__(self, index: SupportsIndex) -> Option: ...

    @overload
    def __getitem__(self, index: slice) -> list[Option]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> Option | list[Option]:
        hand = self._hand
        if hand is None or type(index) is not int:
            if hand is not None:
                self._fill()
            return _list_getitem(self, index)
        if index < 0:
            index += self._size
            if index < 0:
                raise IndexError("list index out of range")
        rows = self._rows
        if index < rows:
            return ROW_OPTIONS[index]
        index -= rows
        plays = self._size - rows - self._end
        if index >= plays:
            if index == plays and self._end:
                return END_TURN
            raise IndexError("list index out of range")
        # The card: count each card's plays from the nearer end of the hand.
        mask = self._open
        if index + index < plays:
            for card in hand:
                tops = REACH[card] & mask
                if tops:
                    count = tops.bit_count()
                    if index < count:
                        break
                    index -= count
        else:
            index = plays - index  # counted from the end, 1 for the last play
            for card in reversed(hand):
                tops = REACH[card] & mask
                if tops:
                    count = tops.bit_count()
                    if index <= count:
                        index = count - index
                        break
                    index -= count
        if index == 0 and not tops & (tops - 1):  # the card fits one pile
            return PLAY_OPTIONS[card << PILE_BITS | self._tops.index(tops.bit_length() - 1)]
        pile = sorted(map(self._tops.index, TOPS_OF[tops]))[index]
        return PLAY_OPTIONS[card << PILE_BITS | pile]

    def _fill(self) -> None:
        """List every option into the list itself (in canonical order; once)."""
        hand = self._hand
        if hand is None:
            return
        self._hand = None
        mask = self._open
        tops = self._tops
        pile_of = dict(zip(tops, range(len(tops)), strict=True))
        keys = [
            card << PILE_BITS | pile_of[top] for card in hand for top in TOPS_OF[REACH[card] & mask]
        ]
        keys.sort()
        if self._rows:
            _list_extend(self, ROW_OPTIONS[: self._rows])
        _list_extend(self, map(PLAY_OPTIONS.__getitem__, keys))
        if self._end:
            _list_extend(self, (END_TURN,))

    # Everything else lists the options first, then is the plain list operation.

    def __iter__(self) -> Iterator[Option]:
        self._fill()
        return list.__iter__(self)

    def __reversed__(self) -> Iterator[Option]:
        self._fill()
        return list.__reversed__(self)

    def __contains__(self, item: object) -> bool:
        self._fill()
        return list.__contains__(self, item)

    def __repr__(self) -> str:
        self._fill()
        return list.__repr__(self)

    def __eq__(self, other: object) -> bool:
        self._fill()
        _filled(other)
        return list.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        self._fill()
        _filled(other)
        return list.__ne__(self, other)

    def __lt__(self, other: list[Option]) -> bool:
        self._fill()
        _filled(other)
        return list.__lt__(self, other)

    def __le__(self, other: list[Option]) -> bool:
        self._fill()
        _filled(other)
        return list.__le__(self, other)

    def __gt__(self, other: list[Option]) -> bool:
        self._fill()
        _filled(other)
        return list.__gt__(self, other)

    def __ge__(self, other: list[Option]) -> bool:
        self._fill()
        _filled(other)
        return list.__ge__(self, other)

    @overload
    def __add__(self, other: list[Option]) -> list[Option]: ...

    @overload
    def __add__(self, other: list[Any]) -> list[Any]: ...

    def __add__(self, other: list[Any]) -> list[Any]:
        self._fill()
        _filled(other)
        return list.__add__(self, other)

    def __radd__(self, other: list[Any]) -> list[Any]:
        """``plain list + options`` (list's own concatenation would read the storage
        directly)."""
        self._fill()
        if not isinstance(other, list):
            return NotImplemented
        return list.__add__(other, self)

    def __iadd__(self, other: Iterable[Option]) -> TurnOptions:  # type: ignore[override,misc]  # as list declares it
        self._fill()
        return list.__iadd__(self, other)

    def __mul__(self, times: SupportsIndex) -> list[Option]:
        self._fill()
        return list.__mul__(self, times)

    def __rmul__(self, times: SupportsIndex) -> list[Option]:
        self._fill()
        return list.__rmul__(self, times)

    def __imul__(self, times: SupportsIndex) -> TurnOptions:
        self._fill()
        return list.__imul__(self, times)

    @overload
    def __setitem__(self, index: SupportsIndex, value: Option) -> None: ...

    @overload
    def __setitem__(self, index: slice, value: Iterable[Option]) -> None: ...

    def __setitem__(self, index: SupportsIndex | slice, value: Any) -> None:
        self._fill()
        list.__setitem__(self, index, value)

    def __delitem__(self, index: SupportsIndex | slice) -> None:
        self._fill()
        list.__delitem__(self, index)

    def __sizeof__(self) -> int:
        self._fill()
        return list.__sizeof__(self)

    def __reduce_ex__(
        self, protocol: SupportsIndex
    ) -> tuple[type[list[Option]], tuple[list[Option]]]:
        """Copies and pickles are plain lists."""
        return list, (list(self),)

    def __copy__(self) -> list[Option]:
        return list(self)

    def append(self, option: Option) -> None:
        self._fill()
        list.append(self, option)

    def extend(self, options: Iterable[Option]) -> None:
        self._fill()
        list.extend(self, options)

    def insert(self, index: SupportsIndex, option: Option) -> None:
        self._fill()
        list.insert(self, index, option)

    def pop(self, index: SupportsIndex = -1) -> Option:
        self._fill()
        return list.pop(self, index)

    def remove(self, option: Option) -> None:
        self._fill()
        list.remove(self, option)

    def clear(self) -> None:
        self._fill()
        list.clear(self)

    def reverse(self) -> None:
        self._fill()
        list.reverse(self)

    def sort(self, *, key: Callable[[Option], Any] | None = None, reverse: bool = False) -> None:
        self._fill()
        list.sort(self, key=key, reverse=reverse)

    def copy(self) -> list[Option]:
        self._fill()
        return list(self)

    def count(self, option: Option) -> int:
        self._fill()
        return list.count(self, option)

    def index(
        self, option: Option, start: SupportsIndex = 0, stop: SupportsIndex = sys.maxsize
    ) -> int:
        self._fill()
        return list.index(self, option, start, stop)


def _filled(other: object) -> None:
    """List another TurnOptions before list code reads its storage directly."""
    if type(other) is TurnOptions:
        other._fill()


def turn_options(
    hand: list[int], open_tops: int, tops: list[int], rows: int, end: int, fits: int
) -> TurnOptions:
    """The options of a PLAY_OR_TAKE decision (see :class:`TurnOptions`): `rows` ROW options
    first, the PLAY options of `hand` onto the piles whose start tops (`tops`) are in the
    bit set `open_tops` (`fits`: their spread set, elevennimmt_table), END_TURN last when
    `end`."""
    options = _new_list(TurnOptions)
    options._hand = hand
    options._open = open_tops
    options._tops = tops
    options._rows = rows
    options._end = end
    options._fits = fits
    options._size = rows + end + fits.bit_count()
    return options
