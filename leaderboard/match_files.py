"""Every match's page, holding its replay viewer data (leaderboard/viewer_data.py).

One file per match: the page carries its data (deflated, base64) in a data block: the
match's digest the league stored when it was played (referee/replay/digest.py), or, for a
match stored before digests were, cut from the stored replay's text without simulating
or fully parsing it (viewer_text.py),
and everything the match pages share (header, replay controls, help) is rendered once,
into a frame each page fills (pages.Frame). With many matches, worker processes write
them, each reading the store itself, while the builder writes the other pages.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import re
import struct
import zlib
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import escape

from leaderboard import files, paths
from leaderboard.model import LeagueInfo, MatchSummary, ReplayLoader
from leaderboard.pages import PageRenderer
from leaderboard.viewer_data import family_of, packed_data, packed_from_digest
from referee.decompress import inflate
from referee.league.store import StoreError
from referee.limits import MAX_REPLAY_BYTES, json_items_problem
from referee.terminal_text import inert_line
from sdk.lifeline import die_with_parent

PARALLEL_FROM = 256  # matches before worker processes pay off
CHUNK = 250


def label(seat: int, players: Sequence[str]) -> str:
    return "Referee view (every hand)" if seat < 0 else f"Seat {seat}: {players[seat]}"


def perspectives(match: MatchSummary) -> list[dict[str, str]]:
    """The viewer's perspective menu of a match: the referee, then each seat."""
    players = [s.bot for s in match.seats]
    return [
        {"name": "referee" if seat < 0 else f"seat{seat}", "label": label(seat, players)}
        for seat in range(-1, len(players))
    ]


@dataclass(frozen=True)
class Job:
    """Matches whose pages to write."""

    out: Path
    league: LeagueInfo
    load_replay: ReplayLoader
    matches: Sequence[MatchSummary]
    public_logs: bool = True  # False: no log tails, and no fault's detail (the bot's text)


class MatchPages:
    """Match pages filled into two frames rendered once (with and without a replay): only
    the title, result table and perspective menu are rendered per match
    (templates/match_parts.html)."""

    def __init__(self, league: LeagueInfo) -> None:
        self.renderer = PageRenderer(league)
        sample = paths.match_page("sample")
        self.frames = {
            has_replay: self.renderer.frame(sample, "match.html", has_replay=has_replay)
            for has_replay in (True, False)
        }
        self.parts = self.renderer.macros("match_parts.html")
        self.root = "../" * sample.count("/")

    def html(
        self,
        match: MatchSummary,
        data: str | None,
        logs: Mapping[int, str],
        texts: Mapping[int, str] | None = None,
    ) -> str:
        """The page of `match`; `data`: its packed replay data (None: no replay stored);
        `logs`: its log tail files by seat, `texts` the tails themselves (printable text:
        the template escapes it)."""
        title = self.renderer.title_of(match.variant)
        replay = paths.replay_file(match.match_id).rsplit("/", 1)[-1] if data else None
        values = {
            "title": self.parts.title(match, title),
            "head": self.parts.head(match, title, logs, self.root)
            + self.parts.files(match, replay, texts or {}),
        }
        if data is not None:
            values["replay_data"] = data  # base64: nothing to escape
            values["family"] = escape(family_of(match.variant))
            values["perspectives"] = self.parts.perspectives(perspectives(match))
        return self.frames[data is not None].fill(values)


_PAGES: dict[LeagueInfo, MatchPages] = {}


def write_matches(job: Job) -> tuple[int, int]:
    """Write each match's page, with its replay data when the store has a replay (and its
    replay file and log tails beside it); (pages with replay data, files written).
    StoreError when a match's rows and its replay or viewer data disagree (see
    :func:`replay_problem`)."""
    pages = _PAGES.get(job.league) or _PAGES.setdefault(job.league, MatchPages(job.league))
    with_data = written = 0
    read_digest = getattr(job.load_replay, "digest", None)
    for match in job.matches:
        blob, text = replay_of(match.match_id, job.load_replay)
        packed = read_digest(match.match_id) if read_digest is not None else None
        problem = match_problem(match, text, packed)
        if problem is not None:
            where = getattr(job.load_replay, "path", "the store")
            raise StoreError(f"{where}: match {inert_line(match.match_id)}: {problem}")
        texts = log_texts(match.match_id, job.load_replay) if job.public_logs else {}
        logs = log_files(job.out, match.match_id, texts)
        data = _replay_data(text, packed, logs)
        if data is not None and not job.public_logs:
            data = without_fault_details(data)
        if data is not None and text is not None:
            if not job.public_logs and _may_hold_details(text):
                blob, text = None, _scrubbed_json(text)
            write_replay_file(job.out, match.match_id, blob, text)
        with_data += data is not None
        written += 1 + len(logs) + (data is not None and text is not None)
        html = pages.html(match, data, logs, texts)
        files.write_text(job.out / paths.match_page(match.match_id), html)
    return with_data, written


def replay_of(match_id: str, loader: ReplayLoader) -> tuple[bytes | None, bytes | None]:
    """A match's replay as stored (zlib-compressed JSON, when the loader gives it:
    ``blob(match_id)``) and as JSON text (inflated, at most MAX_REPLAY_BYTES); (None,
    None) when it has none."""
    read = getattr(loader, "blob", None)
    blob: bytes | None = read(match_id) if read is not None else None
    if blob is not None:
        return blob, inflate(blob, MAX_REPLAY_BYTES)
    return None, loader(match_id)


def _replay_data(text: bytes | None, packed: bytes | None, logs: Mapping[int, str]) -> str | None:
    """A match's packed viewer data: copied from the digest the league stored when the
    match was played (`packed`, checked by :func:`match_problem`), else made from its
    replay's text; None when there is no replay."""
    if packed is not None:
        return packed_from_digest(packed, logs)
    return packed_data(text, logs) if text is not None else None


def _may_hold_details(text: bytes) -> bool:
    return b'"detail"' in text or b'"traceback"' in text


def _scrub(value: Any) -> Any:
    """`value` (parsed JSON) with every fault's detail emptied and traceback left out (a
    fault: an object with a ``kind`` and a ``detail``)."""
    if isinstance(value, list):
        return [_scrub(item) for item in value]
    if isinstance(value, dict):
        if "kind" in value and "detail" in value:
            return {k: "" if k == "detail" else v for k, v in value.items() if k != "traceback"}
        return {k: _scrub(v) for k, v in value.items()}
    return value


def _scrubbed_json(text: bytes) -> bytes:
    """A replay's or digest's JSON text without what its faults quote of the bot: a fault's
    detail can hold the bot's own text (an exception's message) and its traceback the bot's
    output. Parsed in full (the caller has checked it is not a bomb)."""
    problem = json_items_problem(text)
    if problem is not None:
        raise StoreError(f"a replay holds {problem}")
    return json.dumps(_scrub(json.loads(text)), separators=(",", ":")).encode()


def without_fault_details(packed: str) -> str:
    """Packed viewer data (viewer_data.packed_data) without its faults' details."""
    text = inflate(base64.b64decode(packed), MAX_REPLAY_BYTES)
    if not _may_hold_details(text):
        return packed
    return base64.b64encode(zlib.compress(_scrubbed_json(text), 6)).decode("ascii")


def log_texts(match_id: str, loader: ReplayLoader) -> dict[int, str]:
    """The bot log tails the league kept for a match, by seat, as printable text (a
    loader that can read them has a ``logs(match_id)`` method: from_store.StoreReplays)."""
    read = getattr(loader, "logs", None)
    return dict(read(match_id)) if read is not None else {}


def write_replay_file(out: Path, match_id: str, blob: bytes | None, text: bytes) -> None:
    """Write the match's replay file beside its page (``bullring replay FILE`` opens it):
    the stored compressed replay `blob` rewrapped as gzip when there is one (its `text`
    gives gzip's checksum and length), else `text` compressed here."""
    data = gzip_of(blob, text) if blob is not None else None
    if data is None:
        data = gzip.compress(text, compresslevel=6, mtime=0)
    files.write_bytes(out / paths.replay_file(match_id), data)


# --- the store's rows against the match's replay and viewer data -----------------------
#
# A store may come from elsewhere (another organiser's): its standings and match lists are
# made from its rows, its replays are what anyone can check (`bullring replay` re-simulates
# one), its digests are what the viewer shows. The build refuses a match whose rows say
# otherwise than its replay (match id, variant, seed, bots, scores, ranks, forfeits, faults
# per seat) or whose digest is of another match. It reads a replay's header and result
# where the referee writes them, when each of their keys occurs once in the text (a key's
# name cannot occur inside a string: JSON escapes the quotes), so that they are what
# `bullring replay` reads of a replay it accepts (a duplicated key, which a JSON reader
# takes the last of, makes the build parse the whole); otherwise it parses the replay in
# full. It re-simulates nothing: a replay whose recorded result is not what its choices
# give is `bullring replay`'s to find.

_DECODER = json.JSONDecoder()
# The keys read from a replay's text, and from a digest's: each must occur once (one scan).
_REPLAY_KEYS = re.compile(rb'"(?:match_id|variant|seed|bots|decisions|result)"')
_DIGEST_KEYS = re.compile(rb'"(?:match_id|variant|players|kinds)"')


def _each_once(keys: re.Pattern[bytes], count: int, text: bytes) -> bool:
    found = keys.findall(text)
    return len(found) == count == len(set(found))


def recorded(text: bytes) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """(header, result) of a replay's JSON text: its top-level object less the decisions,
    histories and snapshots, and its ``result``. ValueError if it is not a replay's JSON
    (or holds more values than MAX_REPLAY_ITEMS: then it is not parsed)."""
    header_end = text.find(b',"decisions":[')
    result_at = text.find(b',"result":{', header_end)
    if header_end > 0 and result_at > 0 and _each_once(_REPLAY_KEYS, 6, text):
        try:
            header = json.loads(text[:header_end] + b"}")
            tail = text[result_at + len(b',"result":') :].decode("utf-8")
            result, _ = _DECODER.raw_decode(tail)
        except (ValueError, RecursionError):
            pass
        else:
            if isinstance(header, dict) and isinstance(result, dict):
                return header, result
    problem = json_items_problem(text)
    if problem is not None:
        raise ValueError(problem)
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if not isinstance(data, dict) or not isinstance(data.get("result"), dict):
        raise ValueError("not a replay")
    return data, data["result"]


def _seat_line(bot: object, score: object, rank: object, forfeited: object, faults: int) -> str:
    line = f"{inert_line(str(bot))} {score} (rank {rank}{', forfeited' if forfeited else ''}"
    return line + (f", {faults} fault{'s' if faults != 1 else ''})" if faults else ")")


def replay_problem(match: MatchSummary, text: bytes) -> str | None:
    """How the replay `text` of `match` disagrees with the store's rows of it (None: they
    agree, or it is not one: ``bullring replay`` would say so too)."""
    try:
        header, result = recorded(text)
    except ValueError as error:
        return f"its replay is not one ({inert_line(str(error))[:200]})"
    try:
        bots = [f"{b['name']}@{b['version']}" for b in header["bots"]]
        variant, seed, match_id = header["variant"], header["seed"], header["match_id"]
        said = [
            (bots[seat], result["scores"][seat], result["ranks"][seat],
             bool(result["forfeited"][seat]),
             sum(1 for f in result["faults"] if f["seat"] == seat))
            for seat in range(len(bots))
        ]  # fmt: skip
    except (KeyError, TypeError, IndexError):
        return "its replay is not one (a field is missing or of the wrong type)"
    if match_id != match.match_id:
        return f"its replay is of match {inert_line(str(match_id))[:200]!r}"
    if variant != match.variant.partition(":")[0] or seed != match.seed:
        return f"its replay is of {inert_line(str(variant))[:200]} seed {seed}, not the match's"
    rows = [(s.bot, s.score, s.rank, s.forfeited, s.faults) for s in match.seats]
    if [s.seat for s in match.seats] != list(range(len(match.seats))) or rows != said:
        return (
            f"its results say {', '.join(_seat_line(*row) for row in rows)}; "
            f"its replay says {', '.join(_seat_line(*seat) for seat in said)}"
        )
    return None


def digest_problem(match: MatchSummary, packed: bytes) -> str | None:
    """How the stored digest (viewer data) of `match` disagrees with its rows: its match
    id, variant and players; or it is too big, or not JSON (None: it agrees)."""
    text = inflate(packed, MAX_REPLAY_BYTES)  # DecompressError: a bomb, or not zlib
    problem = json_items_problem(text)
    if problem is not None:
        return f"its viewer data holds {problem}"
    head_end = text.find(b',"kinds":[')
    unique = _each_once(_DIGEST_KEYS, 4, text)
    try:  # the head (as digest_text writes it), or the whole
        data = json.loads(text[:head_end] + b"}" if head_end > 0 and unique else text)
        match_id, variant, players = data["match_id"], data["variant"], data["players"]
    except (ValueError, RecursionError, KeyError, TypeError):
        return "its viewer data is not the digest of a match"
    if match_id != match.match_id:
        return f"its viewer data is of match {inert_line(str(match_id))[:200]!r}"
    if variant != match.variant.partition(":")[0] or players != [s.bot for s in match.seats]:
        return "its viewer data is of another variant or other players"
    return None


def match_problem(match: MatchSummary, text: bytes | None, packed: bytes | None) -> str | None:
    """How a match's rows disagree with its replay (`text`) or its digest (`packed`);
    a digest without a replay is refused too (the league stores both or only the replay)."""
    if text is None:
        return "its viewer data has no replay" if packed is not None else None
    return replay_problem(match, text) or (
        digest_problem(match, packed) if packed is not None else None
    )


def gzip_of(zlib_blob: bytes, text: bytes) -> bytes | None:
    """The gzip file of `text`, made from `zlib_blob` (the zlib stream of `text`) without
    compressing again: the same deflate data between gzip's header and trailer. None if
    the blob is not a plain zlib stream (a preset dictionary)."""
    if len(zlib_blob) < 6 or zlib_blob[0] & 0x0F != 8 or zlib_blob[1] & 0x20:
        return None
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, no time
    trailer = struct.pack("<II", zlib.crc32(text), len(text) & 0xFFFFFFFF)
    return header + zlib_blob[2:-4] + trailer


def log_files(out: Path, match_id: str, tails: Mapping[int, str]) -> dict[int, str]:
    """Write a match's bot log tails (`tails`, by seat) beside the match's page; their
    file names by seat (the viewer links a fault to its seat's file)."""
    names: dict[int, str] = {}
    for seat, tail in sorted(tails.items()):
        name = paths.log_tail(match_id, seat)
        files.write_text(out / name, tail)
        names[seat] = name.rsplit("/", 1)[-1]
    return names


class MatchFiles:
    """Writes every match's page: in worker processes when there are many (each reads the
    store itself), while the builder writes the other pages.

    :meth:`start` hands the work out (or does it at once when there is little);
    :meth:`finish` waits for it and counts.
    """

    def __init__(
        self,
        out_dir: Path,
        league: LeagueInfo,
        load_replay: ReplayLoader,
        workers: int = 0,
        public_logs: bool = True,
    ) -> None:
        self.out = out_dir
        self.public_logs = public_logs
        self.league = league
        self.load_replay = load_replay
        self.workers = workers or min(4, os.cpu_count() or 1)
        self.pages = 0
        self.with_data = 0
        self._pool: ProcessPoolExecutor | None = None
        self._pending: list[Future[tuple[int, int]]] = []
        self.files = 0  # files written: pages, replay files, log tails

    def start(self, matches: Sequence[MatchSummary], fresh: bool = True) -> None:
        """Write the pages of `matches`; `fresh`: the folder holds none of this state's
        pages yet (a whole build), so what older builds left there is cleaned up."""
        if fresh:
            _remove_old_data_files(self.out)
        self.pages = len(matches)
        if len(matches) < PARALLEL_FROM or self.workers == 1:
            self.with_data, self.files = write_matches(self._job(matches))
            return
        # The workers die with the publish (killed, it leaves none behind).
        self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=die_with_parent)
        for i in range(0, len(matches), CHUNK):
            job = self._job(matches[i : i + CHUNK])
            self._pending.append(self._pool.submit(write_matches, job))

    def _job(self, matches: Sequence[MatchSummary]) -> Job:
        return Job(self.out, self.league, self.load_replay, matches, self.public_logs)

    def finish(self) -> None:
        try:
            for future in self._pending:
                with_data, written = future.result()
                self.with_data += with_data
                self.files += written
        finally:
            if self._pool is not None:
                self._pool.shutdown(cancel_futures=True)


def _remove_old_data_files(out: Path) -> None:
    """Remove what builds before replay data moved into the pages left in `out`: a data
    file per match and the cache of them (nothing links to them any more)."""
    matches = out / paths.MATCHES_DIR
    (matches / "replays.cache.json").unlink(missing_ok=True)
    for old in matches.glob("*.replay.js"):  # (not the .replay.json.gz files)
        old.unlink()
