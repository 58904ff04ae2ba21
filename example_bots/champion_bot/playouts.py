"""Playouts in which every seat plays like the network: its most likely card each turn.

The search (:mod:`.search`) plays its options out on the batch simulator. With the greedy
policy (:func:`example_bots.montecarlo_bot.sixnimmt.greedy_picks`) every player in those
playouts is a simple heuristic, so the search finds the moves that beat heuristic players.
:class:`NetPicks` makes every seat, the searching seat's later turns included, play the
network's choice from what that seat could see: its own hand, the rows, the heads taken,
and the cards it has not seen (the round's undealt cards and the other seats' hands),
encoded for all games and seats at once by :mod:`.batch_features`. A row to take is the
cheapest, as in the greedy playouts.

The mixed playouts (``"mixed"``) hedge between the two models of the other players: in
each playout each other seat is, with the chance `greedy_share`, played by the greedy
heuristic instead of the network (the searching seat always by the network).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from example_bots.champion_bot.batch_features import BoolArray, encode_picks
from example_bots.champion_bot.net import Net
from example_bots.montecarlo_bot.sixnimmt import Picker, greedy_picks
from sdk import SixNimmtView, seen_cards
from sdk.game.sixnimmt import HAND_SIZE
from sdk.game.sixnimmt.batch import Batch, IntArray


class NetPicks:
    """A playout policy (a :data:`~example_bots.montecarlo_bot.sixnimmt.Picker`) for one
    batch of playouts from one root: every seat plays the network's argmax card.

    It keeps, per game of the batch, the cards of the round no seat holds and no seat has
    seen (`undealt`) and the scores at the round's start; a new round's deal (every hand
    full) sets both afresh. With a `greedy_share` above 0, each seat but `seat` of each
    game is played by the greedy heuristic with that chance (drawn at the first turn from
    the playouts' generator, so a seeded batch plays the same games).
    """

    def __init__(
        self,
        net: Net,
        undealt: BoolArray,
        round_start: IntArray,
        *,
        one_round: bool,
        seat: int = 0,
        greedy_share: float = 0.0,
        temperature: float = 0.0,
    ) -> None:
        self.net = net
        self.undealt = undealt
        self.round_start = round_start
        self.one_round = one_round
        self.seat = seat
        self.greedy_share = greedy_share
        self.temperature = temperature
        self.greedy: BoolArray | None = None  # (k, n): the seats the greedy heuristic plays

    def __call__(
        self, batch: Batch, games: IntArray, hands: IntArray, rng: np.random.Generator
    ) -> IntArray:
        highest = batch.rules.highest
        greedy_slots = self._greedy_slots(batch, games, hands, rng)
        dealt_now = (hands > 0).sum(axis=(1, 2)) == hands.shape[1] * HAND_SIZE
        if dealt_now.any():
            fresh = games[dealt_now]
            undealt = np.ones((len(fresh), highest + 1), dtype=bool)
            undealt[:, 0] = False
            np.put_along_axis(undealt, hands[dealt_now].reshape(len(fresh), -1), False, axis=1)
            np.put_along_axis(undealt, batch.last[fresh], False, axis=1)
            self.undealt[fresh] = undealt
            self.round_start[fresh] = batch.scores[fresh]
        # Every seat holds as many cards: keep only the slots with one (the hand cards first).
        count = int((hands > 0).sum(axis=2).max())
        slot_of = np.argsort(hands == 0, axis=2, kind="stable")[:, :, :count]
        hands = np.take_along_axis(hands, slot_of, axis=2)
        scores = batch.scores[games]
        # The network scores only the seats it plays (the greedy seats' picks are made).
        by_net = None
        if greedy_slots is not None:
            assert self.greedy is not None  # drawn by _greedy_slots
            by_net = ~self.greedy[games]
        state, options = encode_picks(
            batch.last[games],
            batch.length[games],
            batch.heads[games],
            hands,
            self.undealt[games],
            scores - self.round_start[games],
            scores,
            highest=highest,
            one_round=self.one_round,
            seats=by_net,
        )
        logits = self.net.pick_logits(state, options)
        if self.temperature > 0.0:
            self._sample_others(logits, by_net, rng)
        if greedy_slots is None or by_net is None:
            return _argmax_slots(logits, hands, slot_of)
        greedy_slots[by_net] = _argmax_slots(logits, hands[by_net], slot_of[by_net])
        return greedy_slots

    def _sample_others(
        self, logits: npt.NDArray[np.float32], by_net: BoolArray | None, rng: np.random.Generator
    ) -> None:
        """Gumbel noise of scale :attr:`temperature` on the other seats' `logits`, in place:
        their argmax is then a draw from the network's policy at that temperature (the
        searching seat keeps its most likely card)."""
        noise = rng.gumbel(size=logits.shape).astype(np.float32) * np.float32(self.temperature)
        if by_net is None:  # every seat's logits, (k, n, H)
            noise[:, self.seat] = 0.0
        else:  # the network's seats', in row-major order
            noise[np.nonzero(by_net)[1] == self.seat] = 0.0
        logits += noise

    def _greedy_slots(
        self, batch: Batch, games: IntArray, hands: IntArray, rng: np.random.Generator
    ) -> IntArray | None:
        """The greedy heuristic's slots for every seat (None when it plays no seat)."""
        if self.greedy_share <= 0.0:
            return None
        if self.greedy is None:
            k, n = len(self.undealt), hands.shape[1]
            self.greedy = rng.random((k, n)) < self.greedy_share
            self.greedy[:, self.seat] = False
        if not self.greedy[games].any():
            return None
        return greedy_picks(batch, games, hands, rng)


def _argmax_slots(logits: npt.NDArray[np.float32], hands: IntArray, slot_of: IntArray) -> IntArray:
    """Per seat (any leading shape), the hand slot of its highest-scored card: `logits`
    and `hands` by its compacted slots, `slot_of` each compacted slot's hand slot. Sets
    the empty slots' `logits` to -inf in place."""
    logits[hands == 0] = -np.inf
    chosen = logits.argmax(axis=-1)[..., None]
    slots: IntArray = np.take_along_axis(slot_of, chosen, axis=-1)[..., 0]
    return slots


def net_playouts(
    net: Net, view: SixNimmtView, greedy_share: float = 0.0, temperature: float = 0.0
) -> Callable[[IntArray], Picker]:
    """For the search's simulation: given a batch's determinized hands (k, n, H), the
    :class:`NetPicks` that plays it out from `view`'s position (each other seat greedy with
    the chance `greedy_share`, and where the network plays it, its policy at `temperature`
    drawn from; 0: its most likely card)."""
    highest = view.highest_card
    seen = np.zeros(highest + 1, dtype=bool)
    seen[0] = True
    seen[list(seen_cards(view))] = True
    round_start = np.array(view.header.scores) - np.array(view.round_penalties)
    one_round = view.header.options.get("rounds") == "1"

    def picks_for(hands: IntArray) -> Picker:
        k = len(hands)
        undealt = np.tile(~seen, (k, 1))
        np.put_along_axis(undealt, hands.reshape(k, -1), False, axis=1)
        undealt[:, 0] = False
        return NetPicks(
            net, undealt, np.tile(round_start, (k, 1)), one_round=one_round,
            seat=view.header.seat, greedy_share=greedy_share, temperature=temperature,
        )  # fmt: skip

    return picks_for


MIXED_GREEDY_SHARE = 0.5  # the "mixed" playouts: the chance another seat plays greedy


def playout_policy(
    name: str,
    net: Net,
    view: SixNimmtView,
    greedy_share: float = MIXED_GREEDY_SHARE,
    temperature: float = 0.0,
) -> str | Callable[[IntArray], Picker]:
    """The search's `policy` for playouts called `name` from `view`: "net" is the
    network's (:func:`net_playouts`), "mixed" the network's with each other seat greedy
    with the chance `greedy_share`; in both the other seats draw from the network's policy
    at `temperature` (0: its most likely card). "greedy" and "rules" are the Monte Carlo
    bot's."""
    if name == "net":
        return net_playouts(net, view, 0.0, temperature)
    if name == "mixed":
        return net_playouts(net, view, greedy_share, temperature)
    return name
