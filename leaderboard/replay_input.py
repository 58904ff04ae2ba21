"""Read the decisions of a stored replay (referee/replay.py's JSON dict).

The one place in the leaderboard that knows the replay's decision fields, so a change of
the replay format touches nothing else here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.replay import option_from_json
from sdk.game import Option


@dataclass(frozen=True)
class ReplayDecision:
    """One recorded decision: who chose what among which options, how fast, any fault."""

    seat: int
    kind: str  # DecisionKind name
    options: tuple[Option, ...]
    choice: Option  # what was applied (the fallback when the bot faulted)
    time_ms: float
    fault: Mapping[str, Any] | None  # {"kind": ..., "detail": ...}
    auto: bool  # played by the referee for a forfeited seat


def decision_from_json(data: Mapping[str, Any]) -> ReplayDecision:
    options = tuple(option_from_json(o) for o in data["options"])
    fault = data.get("fault")
    return ReplayDecision(
        seat=int(data["seat"]),
        kind=str(data["kind"]),
        options=options,
        choice=options[int(data["choice"])],
        time_ms=float(data.get("ms", 0.0)),
        fault=dict(fault) if fault else None,
        auto=bool(data.get("auto", False)),
    )


def decisions_of(replay: Mapping[str, Any]) -> list[ReplayDecision]:
    """Every decision of the replay, in the order the referee recorded (and applied) them."""
    raw: Sequence[Mapping[str, Any]] = replay["decisions"]
    return [decision_from_json(d) for d in raw]
