"""Fill the site's data model (model.py) from a league store's read API (docs/store.md).

Only :class:`referee.league.store.LeagueStore`'s read methods are used; the store is
opened read-only, so a league may keep running while the site is built.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Set
from pathlib import Path
from typing import Any

from leaderboard.model import (
    BotPage,
    FaultRecord,
    HeadToHead,
    LeagueInfo,
    MatchSummary,
    PairRecord,
    RatingPoint,
    RatingSeries,
    SeatResult,
    Site,
    StandingRow,
    VariantStandings,
)
from referee.league.store import LeagueStore, MatchRow
from referee.terminal_text import inert_line
from sdk.game import PRESETS

RECENT_PER_BOT = 20
RECENT_CHANGE = 10  # the standings' rating change covers a bot's last this many matches
FAULTS_PER_BOT = 200
MANIFEST_BYTES = 64 * 1024  # a bot's manifest, read for its author and description


def iso_time(epoch: float | None) -> str:
    """An epoch time as ISO 8601 UTC to the second ('' for None)."""
    if epoch is None:
        return ""
    moment = dt.datetime.fromtimestamp(epoch, dt.UTC).replace(microsecond=0)
    return moment.isoformat().replace("+00:00", "Z")


def option_words(name: str, value: str) -> str:
    """A variant option as words: ``rounds=1`` -> "1 round", ``end=reach66`` -> "end reach66"."""
    if name == "rounds":
        return f"{value} round" + ("" if value == "1" else "s")
    return f"{name.replace('_', ' ')} {value}"


def variant_title(variant: Mapping[str, Any]) -> str:
    """The preset's title, with the variant's non-default options in words when it has any
    ("6 nimmt! · 1 round")."""
    preset = PRESETS.get(str(variant["preset"]))
    title = preset.title if preset else str(variant["preset"])
    _, _, extra = str(variant["id"]).partition(":")
    words = [option_words(*pair.partition("=")[::2]) for pair in extra.split(",") if pair]
    return " · ".join([title, *words])


def manifest_text(manifest: str | None) -> tuple[str, str]:
    """(author, description) from a bot's manifest file, ("", "") when it cannot be read.

    The store names the file, and a store may come from elsewhere: only a regular file of
    at most MANIFEST_BYTES is read (never a device, a pipe or a folder, which could
    block the build or fill its memory). The texts are the bot's author's: their control
    characters are shown escaped (as a terminal shows them), the pages escape the rest."""
    if not manifest:
        return "", ""
    path = Path(manifest)
    try:
        if not path.is_file():
            return "", ""
        with path.open("rb") as file:
            raw = file.read(MANIFEST_BYTES + 1)
        if len(raw) > MANIFEST_BYTES:
            return "", ""
        data = tomllib.loads(raw.decode("utf-8"))
    except (OSError, ValueError):
        return "", ""
    return inert_line(str(data.get("author", ""))), inert_line(str(data.get("description", "")))


def retired_versions(store: LeagueStore) -> dict[str, str]:
    """Each superseded bot version's key -> the key of its bot's newest version."""
    newest = {spec.name: spec.key for spec in store.newest_bots()}
    return {
        b.spec.key: newest[b.spec.name]
        for b in store.bots()
        if b.spec.name in newest and newest[b.spec.name] != b.spec.key
    }


def load_site(store: LeagueStore, built_at: str | None = None) -> Site:
    """The whole site's data; replays stay in the store until a match page asks."""
    meta = store.meta()
    variants = store.variants()
    finished = store.matches(status="finished")
    faults_by_match: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for fault in store.faults():
        faults_by_match[fault["match_id"]].append(fault)
    summaries = [_summary(row, store.results(row.match_id), faults_by_match) for row in finished]
    specs = store.bot_specs()
    about = {key: manifest_text(spec.manifest) for key, spec in specs.items()}
    retired = retired_versions(store)
    standings = tuple(_standings(store, v, finished, summaries, about, retired) for v in variants)
    bot_keys = _bots_in_order(store, summaries)
    league = LeagueInfo(
        name=meta.get("name", store.path.stem),
        variants=tuple(str(v["id"]) for v in variants),
        matches_played=len(finished),
        bots=len(bot_keys),
        built_at=built_at or iso_time(dt.datetime.now(dt.UTC).timestamp()),
        titles=tuple((s.variant, s.title) for s in standings),
    )
    variant_of = {m.match_id: m.variant for m in summaries}
    logged = store.logged_seats()
    bots = tuple(
        _bot_page(
            key, store, standings, summaries, faults_by_match, variant_of, about, retired, logged
        )
        for key in bot_keys
    )

    def matches() -> Iterator[MatchSummary]:
        return iter(summaries)

    return Site(
        league=league,
        standings=standings,
        bots=bots,
        matches=matches,
        load_replay=StoreReplays(store),
        recent_matches=tuple(reversed(summaries[-20:])),
    )


class StoreReplays:
    """Loads a match's replay JSON text from the store (None if none). Picklable, for
    worker processes: a copy in another process opens the store read-only on first use."""

    def __init__(self, store: LeagueStore) -> None:
        self.path = store.path
        self.store: LeagueStore | None = store

    def __call__(self, match_id: str) -> bytes | None:
        if self.store is None:
            self.store = LeagueStore.open_readonly(self.path)
        return self.store.replay_text(match_id)

    def blob(self, match_id: str) -> bytes | None:
        """A match's replay as stored (zlib-compressed JSON), or None."""
        if self.store is None:
            self.store = LeagueStore.open_readonly(self.path)
        return self.store.replay_blob(match_id)

    def digest(self, match_id: str) -> bytes | None:
        """The match's digest as the store keeps it (zlib-compressed JSON: the viewer's
        data less the log links), or None (a match recorded before digests were)."""
        if self.store is None:
            self.store = LeagueStore.open_readonly(self.path)
        return self.store.digest_zlib(match_id)

    def logs(self, match_id: str) -> dict[int, str]:
        """Each seat's bot log tail kept for the match (by seat), if the store keeps them
        (a store with a ``bot_logs(match_id)`` method); {} otherwise."""
        if self.store is None:
            self.store = LeagueStore.open_readonly(self.path)
        read = getattr(self.store, "bot_logs", None)
        if read is None:
            return {}
        return {int(seat): str(text) for seat, text in read(match_id).items() if text}

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "store": None}


def _summary(
    row: MatchRow, results: list[dict[str, Any]], faults: Mapping[str, list[dict[str, Any]]]
) -> MatchSummary:
    per_seat = Counter(int(f["seat"]) for f in faults.get(row.match_id, ()))
    seats = tuple(
        SeatResult(
            seat=int(r["seat"]),
            bot=str(r["bot"]),
            score=int(r["score"]),
            rank=int(r["rank"]),
            faults=per_seat[int(r["seat"])],
            forfeited=bool(r["forfeited"]),
        )
        for r in results
    )
    return MatchSummary(
        match_id=row.match_id,
        variant=row.variant,
        seed=row.seed,
        finished_at=iso_time(row.finished_at),
        decisions=row.decisions or 0,
        seats=seats,
    )


def _standings(
    store: LeagueStore,
    variant: Mapping[str, Any],
    finished: list[MatchRow],
    summaries: list[MatchSummary],
    about: Mapping[str, tuple[str, str]],
    retired: Mapping[str, str],
) -> VariantStandings:
    variant_id = str(variant["id"])
    order = {m.seq: i for i, m in enumerate((m for m in finished if m.variant == variant_id), 1)}
    played = [m for m in summaries if m.variant == variant_id]
    ranks: dict[str, list[int]] = defaultdict(list)
    for match in played:
        for seat in match.seats:
            ranks[seat.bot].append(seat.rank)
    rows = []
    series = []
    for rank, standing in enumerate(store.standings(variant_id), start=1):
        history = store.rating_history(variant_id, standing.bot)
        points = tuple(
            RatingPoint(number, order.get(seq, 0), rating.mu, rating.sigma)
            for number, (seq, _, rating) in enumerate(history, start=1)
        )
        series.append(RatingSeries(standing.bot, variant_id, points))
        change, over = rating_change(points, standing.rating)
        author, description = about.get(standing.bot, ("", ""))
        mine = ranks.get(standing.bot, [])
        rows.append(
            StandingRow(
                rank=rank,
                bot=standing.bot,
                name=standing.name,
                version=standing.version,
                conservative=standing.rating,
                mu=standing.mu,
                sigma=standing.sigma,
                matches=standing.matches,
                wins=standing.wins,
                win_share=standing.win_share,
                mean_score=standing.mean_score,
                fault_rate=standing.faults / standing.matches if standing.matches else 0.0,
                mean_rank=sum(mine) / len(mine) if mine else 0.0,
                change=change,
                change_over=over,
                retired=standing.bot in retired,
                author=author,
                description=description,
            )
        )
    preset = PRESETS.get(str(variant["preset"]))
    return VariantStandings(
        variant=variant_id,
        title=variant_title(variant),
        matches=len(order),
        rows=tuple(rows),
        series=tuple(series),
        family=preset.family if preset else "",
        head_to_head=pair_records(played),
    )


def rating_change(points: tuple[RatingPoint, ...], now: float) -> tuple[float, int]:
    """(change of mu - 3 sigma over the bot's last RECENT_CHANGE matches, matches covered):
    from the rating before the first of them (the rating before its first match counts
    as 0, TrueSkill's prior mu - 3 sigma) to `now`."""
    if not points:
        return 0.0, 0
    over = min(RECENT_CHANGE, len(points))
    before = points[-over - 1].conservative if len(points) > over else 0.0
    return now - before, over


def pair_records(matches: Iterable[MatchSummary]) -> tuple[PairRecord, ...]:
    """Every ordered pair of bots that met in `matches`, with its pairwise results by rank
    (a bot met in several seats of one match counts once per pair of seats)."""
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for match in matches:
        for mine in match.seats:
            for other in match.seats:
                if other.seat == mine.seat or other.bot == mine.bot:
                    continue
                counts = tally[(mine.bot, other.bot)]
                counts[0] += 1
                counts[1 if mine.rank < other.rank else 2 if mine.rank > other.rank else 3] += 1
    return tuple(
        PairRecord(bot, opponent, n, wins, losses, ties)
        for (bot, opponent), (n, wins, losses, ties) in sorted(tally.items())
    )


def _bots_in_order(store: LeagueStore, summaries: Iterable[MatchSummary]) -> list[str]:
    """Registered bots first (registration order), then any other key seen in results."""
    keys = [b.spec.key for b in store.bots()]
    seen = set(keys)
    for match in summaries:
        for seat in match.seats:
            if seat.bot not in seen:
                seen.add(seat.bot)
                keys.append(seat.bot)
    return keys


def head_to_head(bot: str, summaries: Iterable[MatchSummary]) -> tuple[HeadToHead, ...]:
    """Pairwise results of `bot` against every opponent it met, per variant (by rank)."""
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for match in summaries:
        mine = match.seat_of(bot)
        if mine is None:
            continue
        for other in match.seats:
            if other.bot == bot:
                continue
            counts = tally[(other.bot, match.variant)]
            counts[0] += 1
            counts[1 if mine.rank < other.rank else 2 if mine.rank > other.rank else 3] += 1
    return tuple(
        HeadToHead(opponent, variant, n, wins, losses, ties)
        for (opponent, variant), (n, wins, losses, ties) in sorted(tally.items())
    )


def _bot_page(
    key: str,
    store: LeagueStore,
    standings: tuple[VariantStandings, ...],
    summaries: list[MatchSummary],
    faults_by_match: Mapping[str, list[dict[str, Any]]],
    variant_of: Mapping[str, str],
    about: Mapping[str, tuple[str, str]],
    retired: Mapping[str, str],
    logged: Set[tuple[str, int]] = frozenset(),
) -> BotPage:
    spec = store.bot_specs().get(key)
    name, _, version = key.partition("@")
    mine = [m for m in summaries if m.seat_of(key) is not None]
    faults = [
        FaultRecord(
            match_id=str(f["match_id"]),
            variant=variant_of.get(str(f["match_id"]), ""),
            seat=int(f["seat"]),
            decision=int(f["decision"]),
            kind=str(f["kind"]),
            detail=str(f["detail"]),
            has_log=(str(f["match_id"]), int(f["seat"])) in logged,
        )
        for m in mine
        for f in faults_by_match.get(m.match_id, ())
        if f["bot"] == key
    ]
    return BotPage(
        bot=key,
        name=spec.name if spec else name,
        version=spec.version if spec else version,
        series=tuple(s for v in standings for s in v.series if s.bot == key and s.points),
        head_to_head=head_to_head(key, mine),
        recent_matches=tuple(reversed(mine[-RECENT_PER_BOT:])),
        faults=tuple(reversed(faults[-FAULTS_PER_BOT:])),
        fault_kinds=dict(Counter(f.kind for f in faults)),
        author=about.get(key, ("", ""))[0],
        description=about.get(key, ("", ""))[1],
        retired_by=retired.get(key, ""),
    )
