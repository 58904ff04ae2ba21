"""Match replays: a self-contained JSON record that re-simulates exactly.

Format (``format = "bullring-replay"``, ``version = 3``; see docs/referee.md)::

    {format, version, match_id, variant, options, seed, deal_seed, players,
     bots: [{name, version}...], clock: {...},
     decisions: [{n, seat, kind, history_len, options, choice, ms, fault, auto}...],
                                           # options: [[kind, card, row, side, target]...]
     histories: [[event...] or k per seat],  # each seat's final public history
     snapshots: [the table at the deal, what changed after decision 1, ...],
     setup_faults: [fault...],
     result: {scores, ranks, faults, forfeited}}

``snapshots`` (referee/snapshots.py) hold the whole table at every step: the referee's view
plus each seat's own fields, so every view a seat was sent is in the replay once
(:func:`referee.snapshots.seat_view` of the snapshot at the start of the decision's engine
step), and replay viewers need no engine. The history a seat saw is
``histories[seat][:history_len]`` (histories only grow), which keeps replays linear in the
match length; an event holds only its fields that differ from their default, and a seat
whose history is the same as seat k's holds the number k. Version 1 replays (still read)
kept each decision's ``view`` instead of snapshots, full events and options as dicts;
:func:`snapshot_deltas` re-simulates those to make snapshots. :func:`resimulate`
replays every choice through a fresh engine and checks every snapshot, view, history,
option list and the result (a replay older than version 3 holds the events of older
engines: its histories are not compared; :data:`EVENTS_VERSION`).

``seed`` is the match seed, ``deal_seed`` the seed the engine dealt from (derived from the
league's secret key and ``seed``, see sdk/seeding.py; never the key). A replay recorded
before deal seeds were derived has no ``deal_seed``: it was dealt from ``seed``.
"""

from __future__ import annotations

import dataclasses
import enum
import gzip
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from referee.decompress import GZIP_MAGIC, inflate, size_text
from referee.limits import MAX_REPLAY_BYTES
from referee.replay_shape import ShapeError, check_shape
from referee.snapshots import Snapshot, SnapshotRecorder, expand, snapshot
from referee.spec import Fault, MatchResult, MatchSpec
from sdk.errors import BullringError
from sdk.game import (
    Event,
    GameState,
    Option,
    OptionKind,
    RulesError,
    Side,
    VariantSpec,
    driver,
    new_game,
)
from sdk.game.views import View

FORMAT = "bullring-replay"
VERSION = 3
READABLE_VERSIONS = (1, 2, 3)  # version 1: a view per decision, no snapshots
EVENTS_VERSION = 3
"""Replays from this version on record the events as the engines make them now; earlier
ones recorded X nimmt!'s taking PLACE before the X-row card, COLLECT without its specials
and Hornochsen! without its ROUND_END, so their histories are not compared (everything
else is: pending seats, options, table snapshots, result; docs/referee.md)."""

Json = Any


class ReplayError(BullringError, ValueError):
    """A replay that is malformed or does not re-simulate to what it records."""


def to_json(value: object) -> Json:
    """Game-model values (dataclasses, tuples, enums, mappings) as plain JSON values."""
    kind = type(value)
    if kind is int or kind is str or value is None:
        return value
    if isinstance(value, tuple) and kind is tuple and all(type(item) is int for item in value):
        return list(value)  # a tuple of cards (the most common value): no recursion
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, bool | int | str | float) or value is None:
        return value
    if isinstance(value, Option):
        return option_to_json(value)
    names = _field_names(type(value))
    if names is not None:
        return {name: to_json(getattr(value, name)) for name in names}
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    raise TypeError(f"cannot convert {type(value).__name__} to JSON")


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass type (cached), None for other types."""
    if kind not in _FIELD_NAMES:
        _FIELD_NAMES[kind] = (
            tuple(f.name for f in dataclasses.fields(kind))
            if dataclasses.is_dataclass(kind)
            else None
        )
    return _FIELD_NAMES[kind]


def option_to_json(option: Option) -> Json:
    """An option as a dict holding only the fields its kind uses."""
    out: dict[str, Json] = {"kind": option.kind.name}
    if option.card:
        out["card"] = option.card
    if option.row >= 0:
        out["row"] = option.row
    if option.side != Side.RIGHT:
        out["side"] = option.side.name
    if option.target >= 0:
        out["target"] = option.target
    return out


_OPTION_DEFAULTS = (0, 0, -1, 0, -1)  # kind, card, row, side, target


def option_to_replay(option: Option) -> list[int]:
    """An option as a replay (version 2) stores it: ``[kind, card, row, side, target]``
    as numbers (OptionKind, Side values), trailing default fields left off:
    ``[1, 34]`` is card 34, ``[4, 34, 2]`` plays 34 on pile 3, ``[6]`` ends the turn."""
    kind, card, row, side, target = (
        option.kind.value,
        option.card,
        option.row,
        option.side,
        option.target,
    )
    if target != -1:
        return [kind, card, row, side.value, target]
    if side != Side.RIGHT:
        return [kind, card, row, side.value]
    if row != -1:
        return [kind, card, row]
    if card != 0:
        return [kind, card]
    return [kind]


def option_from_json(data: Mapping[str, Json] | Sequence[int]) -> Option:
    """An option from a replay: a list (version 2) or a dict (version 1, option_to_json)."""
    if isinstance(data, Sequence):
        values = [*data, *_OPTION_DEFAULTS[len(data) :]]
        return Option(OptionKind(values[0]), values[1], values[2], Side(values[3]), values[4])
    return Option(
        OptionKind[data["kind"]],
        int(data.get("card", 0)),
        int(data.get("row", -1)),
        Side[data.get("side", "RIGHT")],
        int(data.get("target", -1)),
    )


def view_to_json(view: View) -> tuple[dict[str, Json], int]:
    """A view as JSON without its history, and the history's length."""
    header = view.header
    data: dict[str, Json] = {
        "header": {
            name: to_json(getattr(header, name))
            for name in _field_names(type(header)) or ()
            if name != "history"
        }
    }
    for name in _field_names(type(view)) or ():
        if name != "header":
            data[name] = to_json(getattr(view, name))
    return data, len(header.history)


def event_to_json(event: Event) -> Json:
    """An event as a dict holding its kind and the fields that differ from their default
    (``round`` always), in field order: ``{"kind": "PLACE", "seat": 2, "card": 34, ...}``.
    (Hornochsen! special cards are enums: their names, as :func:`to_json` gives them.)"""
    out: dict[str, Json] = {"kind": event.kind.name}
    if event.seat != -1:
        out["seat"] = event.seat
    if event.card != 0:
        card = event.card
        out["card"] = card if type(card) is int else to_json(card)
    if event.row != -1:
        out["row"] = event.row
    if event.side != Side.RIGHT:
        out["side"] = event.side.name
    if event.target != -1:
        out["target"] = event.target
    if event.cards:
        out["cards"] = to_json(event.cards)
    out["round"] = event.round
    if event.specials:
        out["specials"] = to_json(event.specials)
    return out


def history_to_json(events: Sequence[Event], version: int = VERSION) -> list[Json]:
    """A history as the replay stores it (version 1 kept every field of every event)."""
    if version == 1:
        return [to_json(e) for e in events]
    return [event_to_json(e) for e in events]


def shared_histories(histories: Sequence[Sequence[Event]]) -> list[Json]:
    """Each seat's history as JSON, or the number of an earlier seat whose history is the
    same (each distinct history is converted once)."""
    out: list[Json] = []
    for seat, history in enumerate(histories):
        same = next((k for k in range(seat) if histories[k] == history), None)
        out.append(history_to_json(history) if same is None else same)
    return out


def histories_of(replay: Mapping[str, Json]) -> list[list[Json]]:
    """Every seat's final history, with shared entries (see shared_histories) resolved."""
    stored: list[Json] = replay["histories"]
    return [stored[h] if isinstance(h, int) else h for h in stored]


class ReplayBuilder:
    """Records a match into a replay dict: the match runner feeds it each decision and
    the table after each applied choice; it never changes the game."""

    def __init__(
        self,
        match_id: str,
        variant: str,
        options: Mapping[str, str],
        seed: int,
        bots: Sequence[tuple[str, str]],
        clock: Mapping[str, Json],
        deal_seed: int | None = None,
    ) -> None:
        self.snapshots = SnapshotRecorder()
        self.data: dict[str, Json] = {
            "format": FORMAT,
            "version": VERSION,
            "match_id": match_id,
            "variant": variant,
            "options": dict(options),
            "seed": seed,
            "deal_seed": seed if deal_seed is None else deal_seed,
            "players": len(bots),
            "bots": [{"name": name, "version": version} for name, version in bots],
            "clock": dict(clock),
            "decisions": [],
            "histories": [],
            "setup_faults": [],
            "result": None,
        }

    @classmethod
    def for_match(cls, spec: MatchSpec, variant: VariantSpec, state: GameState) -> ReplayBuilder:
        """The builder of `spec`'s replay (`variant` parsed from it), holding the table of
        `state` as dealt: the replay's step 0."""
        builder = cls(
            spec.match_id,
            variant.preset.name,
            variant.options,
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
        fault: Mapping[str, Json] | None,
        auto: bool,
    ) -> None:
        if not self.snapshots.deltas:
            raise ValueError("record the deal's snapshot before the first decision")
        header = view.header
        decisions: list[Json] = self.data["decisions"]
        decisions.append(
            {
                "n": len(decisions),
                "seat": seat,
                "kind": header.decision.name if header.decision is not None else None,
                "history_len": len(header.history),
                "options": [option_to_replay(o) for o in options],
                "choice": choice,
                "ms": round(ms, 3),
                "fault": dict(fault) if fault else None,
                "auto": auto,
            }
        )

    def snapshot(self, state: GameState) -> None:
        """Record the table: once at the deal, then after every applied decision."""
        self.snapshots.record(state)

    def setup_fault(self, fault: Mapping[str, Json]) -> None:
        self.data["setup_faults"].append(dict(fault))

    def finish(self, state: GameState, result: Mapping[str, Json]) -> dict[str, Json]:
        self.data["histories"] = shared_histories(
            [_view_history(state.view(seat)) for seat in range(state.players)]
        )
        if self.snapshots.deltas:
            self.data["snapshots"] = self.snapshots.deltas
        self.data["result"] = dict(result)
        return self.data

    def match_result(
        self,
        state: GameState,
        faults: Sequence[Fault],
        forfeited: Sequence[bool],
        decisions: int,
        duration_s: float,
    ) -> MatchResult:
        """The result of the finished game in `state`, with the replay finished."""
        scores, ranks = tuple(state.scores()), tuple(state.ranks())
        replay = self.finish(
            state,
            {
                "scores": list(scores),
                "ranks": list(ranks),
                "faults": [f.to_json() for f in faults],
                "forfeited": list(forfeited),
            },
        )
        return MatchResult(
            match_id=self.data["match_id"],
            scores=scores,
            ranks=ranks,
            faults=tuple(faults),
            forfeited=tuple(forfeited),
            decisions=decisions,
            duration_s=duration_s,
            replay=replay,
        )


def _view_history(view: object) -> tuple[Event, ...]:
    header = getattr(view, "header", None)
    history: tuple[Event, ...] = getattr(header, "history", ())
    return history


def _extends(before: tuple[Event, ...], after: tuple[Event, ...]) -> bool:
    """Whether `after` starts with `before` (histories only grow)."""
    return len(after) >= len(before) and all(
        a is b or a == b for a, b in zip(before, after, strict=False)
    )


def save(replay: Mapping[str, Json], path: str | Path) -> None:
    """Write a replay as JSON (gzip-compressed when the name ends in .gz)."""
    text = json.dumps(replay, separators=(",", ":"))
    file = Path(path)
    if len(text) > MAX_REPLAY_BYTES:  # it could not be read back
        raise ReplayError(f"{file}: the replay is larger than {size_text(MAX_REPLAY_BYTES)}")
    if file.suffix == ".gz":
        file.write_bytes(gzip.compress(text.encode()))
    else:
        file.write_text(text, encoding="utf-8")


def load(path: str | Path) -> dict[str, Json]:
    """Read a replay written by :func:`save` (ReplayError if it is not one, or if it is
    larger than MAX_REPLAY_BYTES, compressed or not: decompression stops at the cap)."""
    file = Path(path)
    try:
        with file.open("rb") as stream:
            raw = stream.read(MAX_REPLAY_BYTES + 1)
        if len(raw) > MAX_REPLAY_BYTES:
            raise ReplayError(f"{file}: larger than {size_text(MAX_REPLAY_BYTES)} (the cap)")
        if raw[:2] == GZIP_MAGIC:
            raw = inflate(raw, MAX_REPLAY_BYTES, gzip=True)
        data = json.loads(raw)
    except ReplayError:
        raise
    except (OSError, ValueError, RecursionError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        if isinstance(exc, RecursionError):
            reason = "nested too deeply"
        raise ReplayError(f"{file}: cannot read replay: {reason}") from None
    check_header(data, str(file))
    try:
        check_shape(data)
    except ShapeError as exc:
        raise ReplayError(f"{file}: malformed replay: {exc}") from None
    return dict(data)


def check_header(data: object, where: str = "replay") -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"{where}: not a Bullring replay")
    if data.get("version") not in READABLE_VERSIONS:
        raise ReplayError(
            f"{where}: replay version {data.get('version')} is not one of {READABLE_VERSIONS}"
        )
    if data.get("version") != 1 and "snapshots" not in data:
        raise ReplayError(f"{where}: no table snapshots")


def new_state(replay: Mapping[str, Json]) -> GameState:
    """The fresh engine state the replay's match began with (dealt from ``deal_seed``, or
    from ``seed`` in a replay recorded before deal seeds were derived from a key)."""
    deal = replay.get("deal_seed", replay["seed"])
    return new_game(replay["variant"], int(replay["players"]), int(deal), replay["options"])


def steps(replay: Mapping[str, Json]) -> list[list[Mapping[str, Json]]]:
    """The decisions grouped as the referee asked them: one group per engine step.

    A group is the decisions collected together (a simultaneous pick of several seats, or
    one seat's decision); they are applied in seat order once the group is complete.
    """
    decisions: list[Mapping[str, Json]] = replay["decisions"]
    return list(driver.recorded_steps(new_state(replay), decisions, _recorded_move))


def _recorded_move(record: Mapping[str, Json]) -> tuple[int, Option]:
    """The seat and the option a recorded decision applied."""
    return int(record["seat"]), option_from_json(record["options"][int(record["choice"])])


def resimulate(replay: Mapping[str, Json]) -> list[int]:
    """Replay every recorded choice through a fresh engine and return the final scores.

    Checks, exactly, that each decision's seat was pending, that its recorded view and
    options are what the engine shows, and that the final scores and ranks match the
    recorded result; ReplayError says where it first differs.
    """
    check_header(replay)
    state = new_state(replay)
    histories = histories_of(replay)
    version = int(replay["version"])
    decisions: list[Mapping[str, Json]] = replay["decisions"]
    seen: list[tuple[Event, ...]] = [() for _ in range(state.players)]
    tables = _stored_snapshots(replay, len(decisions))
    _check_snapshot(tables, 0, state)
    i = 0

    def check_table(record: Mapping[str, Json]) -> None:
        _check_snapshot(tables, int(record["n"]) + 1, state)

    for group in driver.recorded_steps(state, decisions, _recorded_move, check_table):
        pending = state.pending()
        if [int(d["seat"]) for d in group] != list(pending):
            raise ReplayError(f"decision {i}: pending seats are {list(pending)}")
        for record in group:
            seat = int(record["seat"])
            view = state.view(seat)
            view_json, history_len = view_to_json(view)
            if "view" in record and view_json != record["view"]:
                raise ReplayError(f"decision {record['n']}: the view of seat {seat} differs")
            if not _extends(seen[seat], _view_history(view)) or (
                version >= EVENTS_VERSION
                and (
                    history_len != record["history_len"]
                    or history_to_json(_view_history(view)[len(seen[seat]) :], version)
                    != histories[seat][len(seen[seat]) : history_len]
                )
            ):
                raise ReplayError(f"decision {record['n']}: the history of seat {seat} differs")
            seen[seat] = _view_history(view)
            encode = option_to_json if version == 1 else option_to_replay
            options = [encode(o) for o in state.legal_options(seat)]
            if options != record["options"]:
                raise ReplayError(f"decision {record['n']}: the legal options differ")
        i += len(group)
    if not state.is_terminal():
        waiting = list(state.pending())
        raise ReplayError(f"decision {i}: pending seats are {waiting}, the replay has no more")
    if i != len(decisions):
        raise ReplayError(f"the game ended after {i} decisions, the replay has {len(decisions)}")
    for seat in range(state.players):
        if (
            version >= EVENTS_VERSION
            and history_to_json(_view_history(state.view(seat)), version) != histories[seat]
        ):
            raise ReplayError(f"the final history of seat {seat} differs")
    scores = state.scores()
    result = replay["result"]
    if scores != list(result["scores"]) or state.ranks() != list(result["ranks"]):
        raise ReplayError(f"re-simulated scores {scores} differ from {result['scores']}")
    return scores


def verify(replay: Mapping[str, Json], where: str = "replay") -> list[int]:
    """:func:`resimulate` a replay read from a file: whatever its content (a table
    snapshot of the wrong type, an option number no kind has), a replay that does not
    re-simulate is a ReplayError naming `where`, never another exception."""
    try:
        return resimulate(replay)
    except ReplayError as exc:
        raise ReplayError(f"{where}: {exc}") from None
    except RulesError as exc:
        raise ReplayError(f"{where}: the rules refuse the replay: {exc}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        detail = f"{type(exc).__name__}: {exc}"
        raise ReplayError(
            f"{where}: malformed replay, it does not re-simulate ({detail})"
        ) from None


def _stored_snapshots(replay: Mapping[str, Json], decisions: int) -> list[Snapshot] | None:
    """The replay's full snapshots (None for a replay recorded without them)."""
    deltas = replay.get("snapshots")
    if deltas is None:
        return None
    if not isinstance(deltas, list) or len(deltas) != decisions + 1:
        raise ReplayError(f"snapshots: {decisions + 1} expected (the deal and every decision)")
    return expand(deltas)


def _check_snapshot(tables: list[Snapshot] | None, step: int, state: GameState) -> None:
    if tables is not None and tables[step] != snapshot(state):
        where = "the deal" if step == 0 else f"decision {step - 1}"
        raise ReplayError(f"{where}: the recorded table snapshot differs from the engine's")


def snapshot_deltas(replay: Mapping[str, Json]) -> list[Snapshot]:
    """The replay's snapshots as stored (see referee/snapshots.py); a replay recorded
    before snapshots existed is re-simulated to make them (slow, but exact)."""
    stored = replay.get("snapshots")
    if stored is not None:
        return list(stored)
    recorder = SnapshotRecorder()
    state = new_state(replay)
    recorder.record(state)
    decisions: list[Mapping[str, Json]] = replay["decisions"]
    steps = driver.recorded_steps(
        state, decisions, _recorded_move, lambda _: recorder.record(state)
    )
    for _ in steps:  # a step's records are applied when the next step is asked for
        pass
    return recorder.deltas
