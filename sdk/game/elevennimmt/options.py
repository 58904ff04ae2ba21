"""11 nimmt!: which options are legal on a turn, the engine's hot path.

:class:`ElevenNimmtOptions` is a base of :class:`sdk.game.elevennimmt.rules.ElevenNimmtState`
and holds no state of its own: the piles a turn may still play on (b bull cards: b piles, at
least 1), as the bit set of their start tops, and the quick legality check of one option.
The option list itself is :mod:`sdk.game.elevennimmt.turnoptions`.
"""

from __future__ import annotations

from operator import itemgetter

from sdk.game.core import Option, OptionKind
from sdk.game.elevennimmt.table import BITS, CARD_SPREAD, TOP_SPREAD, WINDOW, Phase, spread_of

# Enum members as module constants: a class attribute lookup on an enum costs several times
# a global's, and these are read at every decision.
_PLAY_KIND, _ROW_KIND, _STEAL_KIND = OptionKind.PLAY, OptionKind.ROW, OptionKind.STEAL
_END_TURN_KIND, _STEAL = OptionKind.END_TURN, Phase.STEAL
_pile_of_play = itemgetter(1)  # a play's pile: plays are (card, pile)


class ElevenNimmtOptions:
    """The option rules of :class:`sdk.game.elevennimmt.rules.ElevenNimmtState` (its state,
    declared here for the type checker)."""

    phase: Phase
    hands: list[list[int]]
    piles: list[list[int]]
    bulls: list[int]
    start_tops: list[int]
    plays: list[tuple[int, int]]
    steal_targets: list[int]
    _tops_cache: tuple[list[int] | None, int, int]
    """The start tops list, its tops as a bit set and as a spread set."""
    _held: list[tuple[list[int], int]]
    """Each seat's hand list and its spread set (see elevennimmt_table)."""

    def _is_legal(self, seat: int, option: Option) -> bool:
        """A quick legality check of one option (the same rules as legal_options)."""
        kind = option.kind
        if self.phase is _STEAL:
            return kind == _STEAL_KIND and option.target in self.steal_targets
        if kind == _PLAY_KIND:
            pile = option.row
            if not 0 <= pile < len(self.start_tops) or option.card not in self.hands[seat]:
                return False
            return 1 <= (option.card - self.start_tops[pile]) % 100 <= WINDOW and (
                self._may_use(seat, pile)
            )
        if kind == _ROW_KIND:
            return not self.plays and 0 <= option.row < len(self.piles)
        return kind == _END_TURN_KIND and bool(self.plays)

    def _may_use(self, seat: int, pile: int) -> bool:
        """Whether this turn may still play on `pile` (b bull cards: b piles, at least 1)."""
        plays = self.plays
        if not plays:
            return True
        used = set(map(_pile_of_play, plays))
        return pile in used or len(used) < max(1, self.bulls[seat])

    def _open_tops(self, seat: int) -> tuple[int, int]:
        """The start tops of the piles this turn may still play on, as a bit set and as a
        spread set: with b bull cards at most b piles (one pile, one card with none)."""
        tops = self.start_tops
        cache = self._tops_cache
        if cache[0] is not tops:
            cache = self._cache_tops()
        plays = self.plays
        if plays:
            used = set(map(_pile_of_play, plays))
            if len(used) >= max(1, self.bulls[seat]):
                mask = spread = 0
                for pile in used:
                    top = tops[pile]
                    mask |= BITS[top]
                    spread |= TOP_SPREAD[top]
                return mask, spread
        return cache[1], cache[2]

    def _cache_tops(self) -> tuple[list[int] | None, int, int]:
        """The bit set and spread set of the start tops, kept with the start_tops list they
        describe (the engine sets them at every turn's start; this is for other states)."""
        tops = self.start_tops
        mask = 0
        for top in tops:
            mask |= BITS[top]
        self._tops_cache = cache = (tops, mask, spread_of(tops, TOP_SPREAD))
        return cache

    def _hand_spread(self, seat: int) -> int:
        """The spread set of the seat's hand, kept with the hand list it describes (the
        engine keeps it up to date as it replaces hands; this finds it for others)."""
        hand = self.hands[seat]
        held = self._held[seat]
        if held[0] is hand:
            return held[1]
        spread = spread_of(hand, CARD_SPREAD)
        self._held[seat] = (hand, spread)
        return spread
