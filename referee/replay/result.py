"""A match's outcome with its replay: what the match runner gives, a league stores and
executors ship between processes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.faults import Fault, LogTail
from referee.replay.model import Replay


@dataclass(frozen=True)
class MatchResult:
    """The outcome of a match, with its replay (see referee/replay/model.py; None once
    the replay travels apart from the result, compressed: see referee/league/executors.py)."""

    match_id: str
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    faults: tuple[Fault, ...]
    forfeited: tuple[bool, ...]
    decisions: int
    duration_s: float
    replay: Replay | None
    # Each seat's log tail for the match (seats of processes that printed; not in to_json).
    logs: tuple[LogTail, ...] = ()

    def recorded_replay(self) -> Replay:
        """The replay (ValueError for a result whose replay travels apart from it)."""
        if self.replay is None:
            raise ValueError(f"match {self.match_id}: the result holds no replay")
        return self.replay

    def to_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "faults": [f.to_json() for f in self.faults],
            "forfeited": list(self.forfeited),
            "decisions": self.decisions,
            "duration_s": self.duration_s,
            "replay": None if self.replay is None else self.replay.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchResult:
        return cls(
            match_id=str(data["match_id"]),
            scores=tuple(int(s) for s in data["scores"]),
            ranks=tuple(int(r) for r in data["ranks"]),
            faults=tuple(Fault.from_json(f) for f in data["faults"]),
            forfeited=tuple(bool(f) for f in data["forfeited"]),
            decisions=int(data["decisions"]),
            duration_s=float(data["duration_s"]),
            replay=None if data["replay"] is None else Replay.from_json(data["replay"]),
        )
