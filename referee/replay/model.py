"""The replay as a typed value: :class:`Replay` and its parts.

A replay is read from JSON (a file, the league's store, a Ray worker's result) once, at
the edge, by :meth:`Replay.from_json`, which checks the header (``format``, ``version``)
and the shape of every field a reader uses (:mod:`referee.replay.shape`) and raises
:class:`ReplayError` naming the first thing wrong; everything inside the referee then
works on typed fields. :meth:`Replay.to_json` gives the JSON back, field for field as it
was read (the format, version 3 and the versions still read: docs/referee.md, "Replays").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias, cast

from referee.faults import Fault
from referee.replay.shape import ShapeError, check_shape
from sdk.errors import BullringError

FORMAT = "bullring-replay"
VERSION = 3
READABLE_VERSIONS = (1, 2, 3)  # version 1: a view per decision, no snapshots
EVENTS_VERSION = 3
"""Replays from this version on record the events as the engines make them now; earlier
ones recorded X nimmt!'s taking PLACE before the X-row card, COLLECT without its specials
and Hornochsen! without its ROUND_END, so their histories are not compared (everything
else is: pending seats, options, table snapshots, result; docs/referee.md)."""

JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
JsonObject: TypeAlias = "dict[str, JsonValue]"
StoredOption: TypeAlias = "list[int] | JsonObject"
"""An option as a replay stores it: ``[kind, card, row, side, target]`` cut short
(version 2 on), or an object of its fields (version 1)."""
StoredHistory: TypeAlias = "list[JsonObject] | int"
"""A seat's final history: its events, or the number of an earlier seat with the same."""


class ReplayError(BullringError, ValueError):
    """A replay that is malformed or does not re-simulate to what it records."""


@dataclass(frozen=True)
class ReplayBot:
    name: str
    version: str


@dataclass(frozen=True)
class ReplayDecision:
    """One recorded decision: seat `seat` chose ``options[choice]``."""

    n: int  # its index over the whole match
    seat: int
    kind: str | None  # the DecisionKind's name
    history_len: int  # the seat's history had this many events (histories only grow)
    options: list[StoredOption]
    choice: int
    ms: float  # wall time the seat took (0 when auto-played)
    fault: Fault | None
    auto: bool  # auto-played (the seat was forfeited): no call was made
    view: JsonObject | None = None  # version 1 only: the view the seat was sent

    def to_json(self) -> JsonObject:
        out: JsonObject = {
            "n": self.n,
            "seat": self.seat,
            "kind": self.kind,
            "history_len": self.history_len,
            "options": cast(list[JsonValue], self.options),
            "choice": self.choice,
            "ms": self.ms,
            "fault": _fault_json(self.fault) if self.fault else None,
            "auto": self.auto,
        }
        if self.view is not None:
            out["view"] = self.view
        return out


@dataclass(frozen=True)
class ReplayResult:
    scores: list[int]
    ranks: list[int]
    faults: list[Fault]
    forfeited: list[bool]

    def to_json(self) -> JsonObject:
        return {
            "scores": list[JsonValue](self.scores),
            "ranks": list[JsonValue](self.ranks),
            "faults": [_fault_json(f) for f in self.faults],
            "forfeited": list[JsonValue](self.forfeited),
        }


@dataclass
class Replay:
    """A whole match: who played what, every decision, and the table after each one.

    ``snapshots`` (referee/replay/snapshots.py) hold the table at the deal and what changed
    after each decision (None in a version 1 replay); ``histories`` each seat's final
    public history. ``deal_seed`` is None in a replay recorded before deal seeds were
    derived from a key: it was dealt from ``seed`` (:attr:`dealt_from`).
    """

    version: int
    match_id: str
    variant: str
    options: dict[str, str]
    seed: int
    deal_seed: int | None
    players: int
    bots: list[ReplayBot]
    clock: JsonObject
    decisions: list[ReplayDecision] = field(default_factory=list)
    histories: list[StoredHistory] = field(default_factory=list)
    setup_faults: list[Fault] = field(default_factory=list)
    result: ReplayResult | None = None  # None until the match is over
    snapshots: list[JsonObject] | None = None

    @property
    def dealt_from(self) -> int:
        """The seed the engine dealt from."""
        return self.seed if self.deal_seed is None else self.deal_seed

    def final_result(self) -> ReplayResult:
        if self.result is None:
            raise ReplayError("the replay has no result: its match is not over")
        return self.result

    def to_json(self) -> JsonObject:
        """The replay as JSON, in the stored field order."""
        out: JsonObject = {
            "format": FORMAT,
            "version": self.version,
            "match_id": self.match_id,
            "variant": self.variant,
            "options": dict[str, JsonValue](self.options),
            "seed": self.seed,
        }
        if self.deal_seed is not None:
            out["deal_seed"] = self.deal_seed
        out |= {
            "players": self.players,
            "bots": [{"name": b.name, "version": b.version} for b in self.bots],
            "clock": self.clock,
            "decisions": [d.to_json() for d in self.decisions],
            "histories": cast(list[JsonValue], self.histories),
            "setup_faults": [_fault_json(f) for f in self.setup_faults],
            "result": None if self.result is None else self.result.to_json(),
        }
        if self.snapshots is not None:
            out["snapshots"] = cast(list[JsonValue], self.snapshots)
        return out

    @classmethod
    def from_json(cls, data: object, where: str = "replay") -> Replay:
        """The replay `data` (parsed JSON) holds: ReplayError naming `where` and the
        first field that is missing or of the wrong type."""
        check_header(data, where)
        try:
            check_shape(data)
        except ShapeError as exc:
            raise ReplayError(f"{where}: malformed replay: {exc}") from None
        raw = cast(Mapping[str, JsonValue], data)
        try:
            return cls._build(raw)
        except (KeyError, TypeError, ValueError) as exc:  # what the shape does not cover
            raise ReplayError(f"{where}: malformed replay: {type(exc).__name__}: {exc}") from None

    @classmethod
    def _build(cls, raw: Mapping[str, JsonValue]) -> Replay:
        """A replay from JSON whose shape is checked (so the casts below hold)."""
        d = cast(Mapping[str, object], raw)
        bots = cast(list[dict[str, str]], d["bots"])
        result = cast(dict[str, list[object]], d["result"])
        deal_seed = d.get("deal_seed")
        snapshots = d.get("snapshots")
        return cls(
            version=cast(int, d["version"]),
            match_id=cast(str, d["match_id"]),
            variant=cast(str, d["variant"]),
            options=dict(cast(dict[str, str], d["options"])),
            seed=cast(int, d["seed"]),
            deal_seed=None if deal_seed is None else cast(int, deal_seed),
            players=cast(int, d["players"]),
            bots=[ReplayBot(b["name"], b["version"]) for b in bots],
            clock=dict(cast(JsonObject, d["clock"])) if isinstance(d.get("clock"), dict) else {},
            decisions=[_decision(r) for r in cast(list[JsonObject], d["decisions"])],
            histories=list(cast(list[StoredHistory], d["histories"])),
            setup_faults=[_fault(f) for f in cast(list[JsonObject], d["setup_faults"])],
            result=ReplayResult(
                scores=cast(list[int], list(result["scores"])),
                ranks=cast(list[int], list(result["ranks"])),
                faults=[_fault(cast(JsonObject, f)) for f in result["faults"]],
                forfeited=cast(list[bool], list(result["forfeited"])),
            ),
            snapshots=None if snapshots is None else list(cast(list[JsonObject], snapshots)),
        )


def check_header(data: object, where: str = "replay") -> None:
    """ReplayError unless `data` is a replay of a version this code reads."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"{where}: not a Bullring replay")
    if data.get("version") not in READABLE_VERSIONS:
        raise ReplayError(
            f"{where}: replay version {data.get('version')} is not one of {READABLE_VERSIONS}"
        )
    if data.get("version") != 1 and "snapshots" not in data:
        raise ReplayError(f"{where}: no table snapshots")


def _decision(record: JsonObject) -> ReplayDecision:
    fault = record["fault"]
    view = record.get("view")
    kind = record.get("kind")
    return ReplayDecision(
        n=cast(int, record["n"]),
        seat=cast(int, record["seat"]),
        kind=None if kind is None else str(kind),
        history_len=cast(int, record["history_len"]),
        options=list(cast(list[StoredOption], record["options"])),
        choice=cast(int, record["choice"]),
        ms=cast(float, record["ms"]),
        fault=None if fault is None else _fault(cast(JsonObject, fault)),
        auto=cast(bool, record["auto"]),
        view=None if view is None else cast(JsonObject, view),
    )


def _fault(data: JsonObject) -> Fault:
    return Fault.from_json(data)


def _fault_json(fault: Fault) -> JsonObject:
    return cast(JsonObject, fault.to_json())
