"""Game-model values as a replay stores them in JSON: options (``[kind, card, ...]`` cut
short), events (the fields that differ from their default), views (version 1 replays),
histories (shared between seats that saw the same). The replay itself is
:class:`referee.replay.model.Replay`; the format is in docs/referee.md, "Replays".
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from typing import cast

from referee.replay.model import VERSION, JsonObject, JsonValue, StoredHistory, StoredOption
from sdk.game import Event, Option, OptionKind, Side
from sdk.game.views import View


def to_json(value: object) -> JsonValue:
    """Game-model values (dataclasses, tuples, enums, mappings) as plain JSON values."""
    kind = type(value)
    if kind is int or kind is str or value is None:
        return cast(JsonValue, value)
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


def option_to_json(option: Option) -> JsonObject:
    """An option as a dict holding only the fields its kind uses."""
    out: JsonObject = {"kind": option.kind.name}
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


def option_from_json(data: StoredOption | Mapping[str, JsonValue]) -> Option:
    """An option from a replay: a list (version 2) or a dict (version 1, option_to_json)."""
    if isinstance(data, Sequence):
        values = [*data, *_OPTION_DEFAULTS[len(data) :]]
        return Option(OptionKind(values[0]), values[1], values[2], Side(values[3]), values[4])
    fields = cast(Mapping[str, int | str], data)
    return Option(
        OptionKind[str(fields["kind"])],
        int(fields.get("card", 0)),
        int(fields.get("row", -1)),
        Side[str(fields.get("side", "RIGHT"))],
        int(fields.get("target", -1)),
    )


def view_to_json(view: View) -> tuple[JsonObject, int]:
    """A view as JSON without its history, and the history's length."""
    header = view.header
    data: JsonObject = {
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


def event_to_json(event: Event) -> JsonObject:
    """An event as a dict holding its kind and the fields that differ from their default
    (``round`` always), in field order: ``{"kind": "PLACE", "seat": 2, "card": 34, ...}``.
    (Hornochsen! special cards are enums: their names, as :func:`to_json` gives them.)"""
    out: JsonObject = {"kind": event.kind.name}
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


def history_to_json(events: Sequence[Event], version: int = VERSION) -> list[JsonObject]:
    """A history as the replay stores it (version 1 kept every field of every event)."""
    if version == 1:
        return [cast(JsonObject, to_json(e)) for e in events]
    return [event_to_json(e) for e in events]


def shared_histories(histories: Sequence[Sequence[Event]]) -> list[StoredHistory]:
    """Each seat's history as JSON, or the number of an earlier seat whose history is the
    same (each distinct history is converted once)."""
    out: list[StoredHistory] = []
    for seat, history in enumerate(histories):
        same = next((k for k in range(seat) if histories[k] == history), None)
        out.append(history_to_json(history) if same is None else same)
    return out
