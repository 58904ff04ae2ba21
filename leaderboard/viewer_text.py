"""The replay viewer's data made from a stored replay's JSON text without parsing all of it.

Parsing a whole replay costs more than everything else a match's files take to build (a
6 nimmt! round's replay holds every option offered at every decision: thousands of small
lists). The data file needs little of it (see viewer_data.py), so :func:`viewer_json`
cuts the text instead: the small header and the setup faults are parsed; each decision
is read by one regular expression that copies its chosen option's text; the snapshots are
copied as they are, less the fields the viewer never draws. The result is the same JSON
text, byte for byte, as ``json.dumps(viewer_data(json.loads(text)))`` (the tests compare
them on every replay of a real league).

It relies on the shape the referee writes (referee/replay/files.py, stored compact by
referee/league/store.py): key order, compact separators, options as number lists. Any
replay that is not in that shape (an older version, a hand-made file) gets None, and the
caller parses it in full. A bot cannot forge that shape from inside a string (a fault's
detail): every pattern below holds a bare ``"``, which JSON escapes inside strings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from referee.replay.digest import DIGEST_SCHEMA_ID, HTML_IN_JSON, decision_row, family_of

Json = Any

_DECISION = re.compile(
    r'\{"n":\d+,"seat":(\d+),"kind":(null|"[A-Za-z0-9_]*"),"history_len":\d+,'
    r'"options":\[\[([-\d,]*(?:\],\[[-\d,]*)*)\]\],"choice":(\d+),'
    r'"ms":(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?),"fault":null,"auto":false\}'
)
"""A decision without fault or automatic move (the others are parsed one by one)."""
_DROPPED = re.compile(r'"(?:hand_sizes|turn_start_tops)":\[[-\d,nul]*\],?')
"""The snapshot fields replay_digest.DROPPED_FIELDS names (flat lists), with the comma
after them; one that was last in its object leaves a ``,}`` behind (snapshots hold no
strings, so that is never anything else)."""
_DECODER = json.JSONDecoder()


def _dumps(value: Json) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).translate(HTML_IN_JSON)


def _plain_rows(found: list[tuple[str, ...]], kinds: dict[str, int]) -> list[str] | None:
    """The rows of decisions `_DECISION` matched, as JSON text (None: a choice out of
    range). One loop, no call per decision: this is the build's innermost loop."""
    rows: list[str] = []
    append = rows.append
    for seat, kind, options, choice, ms in found:
        name = "None" if kind == "null" else kind[1:-1]
        number = kinds.get(name)
        if number is None:
            number = kinds[name] = len(kinds)
        offered = options.split("],[")
        index = int(choice)
        if index >= len(offered):
            return None
        append(f"[{seat},{number},[{offered[index]}],{round(float(ms), 1)!r},{len(offered)}]")
    return rows


def _decision_rows(text: str, kinds: dict[str, int]) -> list[str] | None:
    """The data file's decision rows (as JSON text) of the replay's decisions list `text`
    (between its brackets); None when a decision is not in the expected shape.

    The pattern finds the plain decisions; what lies between two of them (a decision with
    a fault or an automatic move) is parsed, and must end right where the next one starts.
    """
    rows: list[str] = []
    run: list[tuple[str, ...]] = []  # plain decisions not yet made rows
    pos, end = 0, len(text)
    for found in _DECISION.finditer(text):
        gap = found.start() != pos
        if gap and not (_flush(run, rows, kinds) and _parse(text, pos, found.start(), rows, kinds)):
            return None
        run.append(found.groups())
        pos = found.end()
        if pos < end:
            if text[pos] != ",":
                return None
            pos += 1
    if not _flush(run, rows, kinds):
        return None
    if pos < end and not _parse(text, pos, end + 1, rows, kinds):
        return None
    return rows


def _flush(run: list[tuple[str, ...]], rows: list[str], kinds: dict[str, int]) -> bool:
    made = _plain_rows(run, kinds)
    run.clear()
    if made is None:
        return False
    rows += made
    return True


def _parse(text: str, pos: int, stop: int, rows: list[str], kinds: dict[str, int]) -> bool:
    """Parse the decisions from `pos`, each followed by a comma, up to `stop` (where the
    next plain decision starts, or the end of `text` + 1); False if they do not fit."""
    try:
        while pos < stop:
            record, pos = _DECODER.raw_decode(text, pos)
            rows.append(_dumps(decision_row(record, kinds)))
            if pos < len(text) and text[pos] != ",":
                return False
            pos += 1
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return False
    return pos == stop


def viewer_json(text: str, logs: Mapping[int, str] | None = None) -> str | None:
    """The viewer's data of a stored replay (its JSON text) as compact JSON text, or None
    when the text is not in the shape the referee writes (then parse it in full)."""
    decisions_at = text.find(',"decisions":[')
    histories_at = text.find('],"histories":', decisions_at)
    faults_at = text.find(',"setup_faults":', histories_at)
    snapshots_at = text.find(',"snapshots":[', faults_at)
    if min(decisions_at, histories_at, faults_at, snapshots_at) < 0 or not text.endswith("]}"):
        return None
    try:
        header = json.loads(text[:decisions_at] + "}")
        setup_faults, _ = _DECODER.raw_decode(text, faults_at + len(',"setup_faults":'))
        players = [f"{b['name']}@{b['version']}" for b in header["bots"]]
        match_id, variant = str(header["match_id"]), str(header["variant"])
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(header.get("version"), int) or header["version"] < 2:
        return None
    kinds: dict[str, int] = {}
    rows = _decision_rows(text[decisions_at + len(',"decisions":[') : histories_at], kinds)
    snapshots = _DROPPED.sub("", text[snapshots_at + len(',"snapshots":') : -1])
    snapshots = snapshots.replace(",}", "}")
    if rows is None or '"hand_sizes"' in snapshots or '"turn_start_tops"' in snapshots:
        return None
    parts = [
        f'{{"schema":{_dumps(DIGEST_SCHEMA_ID)},"match_id":{_dumps(match_id)},',
        f'"variant":{_dumps(variant)},"family":{_dumps(family_of(variant))},',
        f'"players":{_dumps(players)},"kinds":{_dumps(list(kinds))},',
        f'"decisions":[{",".join(rows)}],"snapshots":{snapshots}',
    ]
    if setup_faults:
        parts.append(f',"setup_faults":{_dumps(list(setup_faults))}')
    if logs:
        parts.append(f',"logs":{_dumps({str(s): n for s, n in sorted(logs.items())})}')
    parts.append("}")
    return "".join(parts)
