"""Recording a match into a :class:`referee.replay.model.Replay`: the match runner feeds
:class:`ReplayBuilder` each decision and the table after each applied choice; the builder
never changes the game."""

from __future__ import annotations

from collections.abc import Sequence

from referee.faults import Fault
from referee.replay.model import (
    VERSION,
    JsonObject,
    Replay,
    ReplayBot,
    ReplayDecision,
    ReplayResult,
    StoredOption,
)
from referee.replay.result import MatchResult
from referee.replay.snapshots import SnapshotRecorder
from referee.replay.values import option_to_replay, shared_histories
from referee.spec import MatchSpec
from sdk.game import DecisionKind, Event, GameState, Option, VariantSpec, forfeits_ranked_last
from sdk.game.views import View


class ReplayBuilder:
    """Records a match into a :class:`Replay` (``self.replay``)."""

    def __init__(
        self,
        match_id: str,
        variant: str,
        options: dict[str, str],
        seed: int,
        bots: Sequence[tuple[str, str]],
        clock: JsonObject,
        deal_seed: int | None = None,
    ) -> None:
        self.snapshots = SnapshotRecorder()
        # Each option as stored, made once per match: a match offers the same few options
        # again and again. (The stored lists are shared between decisions; nothing
        # changes a recorded decision.)
        self._stored_options: dict[Option, StoredOption] = {}
        self.replay = Replay(
            version=VERSION,
            match_id=match_id,
            variant=variant,
            options=dict(options),
            seed=seed,
            deal_seed=seed if deal_seed is None else deal_seed,
            players=len(bots),
            bots=[ReplayBot(name, version) for name, version in bots],
            clock=dict(clock),
        )

    @classmethod
    def for_match(cls, spec: MatchSpec, variant: VariantSpec, state: GameState) -> ReplayBuilder:
        """The builder of `spec`'s replay (`variant` parsed from it), holding the table of
        `state` as dealt: the replay's step 0."""
        builder = cls(
            spec.match_id,
            variant.preset.name,
            dict(variant.options),
            spec.seed,
            [(b.name, b.version) for b in spec.bots],
            spec.clock.to_json(),
            spec.deal_seed,
        )
        builder.snapshot(state)
        return builder

    def decision(
        self,
        seat: int,
        view: View,
        options: Sequence[Option],
        choice: int,
        ms: float,
        fault: Fault | None,
        auto: bool,
    ) -> None:
        if not self.snapshots.deltas:
            raise ValueError("record the deal's snapshot before the first decision")
        header = view.header
        decisions = self.replay.decisions
        decisions.append(
            ReplayDecision(
                n=len(decisions),
                seat=seat,
                kind=_KIND_NAMES.get(header.decision),
                history_len=len(header.history),
                options=[self._stored(o) for o in options],
                choice=choice,
                ms=round(ms, 3),
                fault=fault,
                auto=auto,
            )
        )

    def _stored(self, option: Option) -> StoredOption:
        stored = self._stored_options.get(option)
        if stored is None:
            stored = self._stored_options[option] = option_to_replay(option)
        return stored

    def snapshot(self, state: GameState) -> None:
        """Record the table: once at the deal, then after every applied decision."""
        self.snapshots.record(state)

    def setup_fault(self, fault: Fault) -> None:
        self.replay.setup_faults.append(fault)

    def finish(self, state: GameState, result: ReplayResult) -> Replay:
        replay = self.replay
        replay.histories = shared_histories(
            [view_history(state.view(seat)) for seat in range(state.players)]
        )
        if self.snapshots.deltas:
            replay.snapshots = self.snapshots.deltas
        replay.result = result
        return replay

    def match_result(
        self,
        state: GameState,
        faults: Sequence[Fault],
        forfeited: Sequence[bool],
        decisions: int,
        duration_s: float,
    ) -> MatchResult:
        """The result of the finished game in `state`, with the replay finished: ranked
        by score, every forfeited seat below every seat that was not."""
        scores = tuple(state.scores())
        ranks = tuple(forfeits_ranked_last(state.ranks(), forfeited))
        replay = self.finish(
            state, ReplayResult(list(scores), list(ranks), list(faults), list(forfeited))
        )
        return MatchResult(
            match_id=replay.match_id,
            scores=scores,
            ranks=ranks,
            faults=tuple(faults),
            forfeited=tuple(forfeited),
            decisions=decisions,
            duration_s=duration_s,
            replay=replay,
        )


def view_history(view: object) -> tuple[Event, ...]:
    """The history a view holds (none for what is not a view)."""
    header = getattr(view, "header", None)
    history: tuple[Event, ...] = getattr(header, "history", ())
    return history


_KIND_NAMES: dict[DecisionKind | None, str] = {kind: kind.name for kind in DecisionKind}
"""A decision kind's name as a replay stores it (an enum's ``name`` is a slow property)."""
