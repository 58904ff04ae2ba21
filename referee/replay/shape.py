"""The shape of a replay file: every field a reader uses, with its JSON type and range.

A replay comes from a file anyone can edit, so before it is re-simulated or printed it
is checked here: :func:`check_shape` raises :class:`ShapeError` naming the first field
that is missing or of the wrong type (``decisions[3].choice: must be a whole number``).
What the shape cannot tell (whether the choices re-simulate to the recorded tables and
result) is :func:`referee.replay.resimulate.resimulate`'s job. The format is in docs/referee.md.

Text fields have a length cap far above anything the referee writes (a name is at most 64
characters, a fault's detail about 1,300 and its traceback 8,000): a file cannot make
``bullring replay`` print megabytes at every step. Their content is free: whoever prints
them shows them inert (referee/terminal_text.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.faults import FaultKind
from sdk.errors import BullringError

MAX_PLAYERS = 64  # far above every preset's seats; keeps a bad count from sizing loops
MAX_NAME_CHARS = 1000  # match id, variant, option, bot name and version (names: 64 at most)
MAX_DETAIL_CHARS = 64_000  # a fault's detail or traceback (the referee keeps ~8,000 at most)


class ShapeError(BullringError, ValueError):
    """A replay field that is missing or has the wrong type; the message names it."""


def _fail(where: str, problem: str) -> ShapeError:
    return ShapeError(f"{where}: {problem}")


def _field(data: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise _fail(f"{where}{key}", "missing")
    return data[key]


def _int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(where, f"must be a whole number, not {type(value).__name__}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise _fail(where, f"{value} is out of range")
    return value


def _str(value: Any, where: str, limit: int = MAX_NAME_CHARS) -> str:
    if not isinstance(value, str):
        raise _fail(where, f"must be a string, not {type(value).__name__}")
    if len(value) > limit:
        raise _fail(where, f"{len(value):,} characters, more than {limit:,}")
    return value


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"must be a list, not {type(value).__name__}")
    if length is not None and len(value) != length:
        raise _fail(where, f"must hold {length} entries, not {len(value)}")
    return value


def _dict(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, f"must be an object, not {type(value).__name__}")
    return value


def _fault(value: Any, where: str, players: int) -> None:
    fault = _dict(value, where)
    _int(_field(fault, "seat", f"{where}."), f"{where}.seat", 0, players - 1)
    kind = _str(_field(fault, "kind", f"{where}."), f"{where}.kind")
    if kind not in FaultKind.__members__:
        raise _fail(f"{where}.kind", f"{kind!r} is not a fault kind")
    _int(_field(fault, "decision", f"{where}."), f"{where}.decision", -1)
    _str(_field(fault, "detail", f"{where}."), f"{where}.detail", MAX_DETAIL_CHARS)
    if "traceback" in fault:
        _str(fault["traceback"], f"{where}.traceback", MAX_DETAIL_CHARS)


def _option(value: Any, where: str) -> None:
    if isinstance(value, list):  # version 2: [kind, card, row, side, target], cut short
        if not 1 <= len(value) <= 5:
            raise _fail(where, "an option holds 1 to 5 numbers")
        for index, item in enumerate(value):
            _int(item, f"{where}[{index}]")
    elif not isinstance(value, dict):  # version 1: {"kind": ..., "card": ...}
        raise _fail(where, "must be a list of numbers or an object")


def _decision(value: Any, where: str, index: int, players: int) -> None:
    record = _dict(value, where)
    prefix = f"{where}."
    _int(_field(record, "n", prefix), f"{where}.n", index, index)
    _int(_field(record, "seat", prefix), f"{where}.seat", 0, players - 1)
    _int(_field(record, "history_len", prefix), f"{where}.history_len", 0)
    options = _list(_field(record, "options", prefix), f"{where}.options")
    if not options:
        raise _fail(f"{where}.options", "a decision has at least one option")
    for number, option in enumerate(options):
        _option(option, f"{where}.options[{number}]")
    _int(_field(record, "choice", prefix), f"{where}.choice", 0, len(options) - 1)
    ms = _field(record, "ms", prefix)
    if isinstance(ms, bool) or not isinstance(ms, int | float) or not 0 <= ms < float("inf"):
        raise _fail(f"{where}.ms", "must be a number of milliseconds")
    fault = _field(record, "fault", prefix)
    if fault is not None:
        _fault(fault, f"{where}.fault", players)
    if not isinstance(_field(record, "auto", prefix), bool):
        raise _fail(f"{where}.auto", "must be true or false")


def check_shape(data: Any) -> None:
    """ShapeError naming the first field of replay `data` that is missing or wrong (the
    header, ``format`` and ``version``, is checked by referee.replay.files.check_header)."""
    replay = _dict(data, "replay")
    _str(_field(replay, "match_id", ""), "match_id")
    _str(_field(replay, "variant", ""), "variant")
    options = _dict(_field(replay, "options", ""), "options")
    for key, value in options.items():
        _str(key, "options: a name")
        _str(value, f"options.{key}")
    _int(_field(replay, "seed", ""), "seed")
    if "deal_seed" in replay:  # absent from replays recorded before keyed deals
        _int(replay["deal_seed"], "deal_seed")
    players = _int(_field(replay, "players", ""), "players", 1, MAX_PLAYERS)
    for seat, bot in enumerate(_list(_field(replay, "bots", ""), "bots", players)):
        entry = _dict(bot, f"bots[{seat}]")
        _str(_field(entry, "name", f"bots[{seat}]."), f"bots[{seat}].name")
        _str(_field(entry, "version", f"bots[{seat}]."), f"bots[{seat}].version")
    for index, record in enumerate(_list(_field(replay, "decisions", ""), "decisions")):
        _decision(record, f"decisions[{index}]", index, players)
    histories = _list(_field(replay, "histories", ""), "histories", players)
    for seat, history in enumerate(histories):
        if isinstance(history, int) and not isinstance(history, bool):
            _int(history, f"histories[{seat}]", 0, seat - 1)  # the same as an earlier seat
            if not isinstance(histories[history], list):
                raise _fail(f"histories[{seat}]", "must name a seat whose history is a list")
        else:
            for number, event in enumerate(_list(history, f"histories[{seat}]")):
                _dict(event, f"histories[{seat}][{number}]")
    for index, fault in enumerate(_list(_field(replay, "setup_faults", ""), "setup_faults")):
        _fault(fault, f"setup_faults[{index}]", players)
    result = _dict(_field(replay, "result", ""), "result")
    for key in ("scores", "ranks"):
        for seat, value in enumerate(
            _list(_field(result, key, "result."), f"result.{key}", players)
        ):
            _int(value, f"result.{key}[{seat}]")
    forfeited = _list(_field(result, "forfeited", "result."), "result.forfeited", players)
    if not all(isinstance(flag, bool) for flag in forfeited):
        raise _fail("result.forfeited", "must be a list of true or false")
    for index, fault in enumerate(_list(_field(result, "faults", "result."), "result.faults")):
        _fault(fault, f"result.faults[{index}]", players)
    if "snapshots" in replay:
        for step, table in enumerate(_list(replay["snapshots"], "snapshots")):
            _dict(table, f"snapshots[{step}]")
