"""League files: the TOML schema, its validation and the resolved :class:`LeagueConfig`.

Everything wrong with a league file is reported as one :class:`LeagueFileError` whose
message names the file and the field (``league.games``, ``variants[2].options.rounds``,
``bots[1].manifest``), before anything is started or written. docs/leagues.md is the
reference for users.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from referee.bots.manifest import load_manifest
from referee.limits import (
    CLOCK_LIMITS,
    MAX_BATCH,
    MAX_MATCHES,
    parallel_problem,
    safe_name_problem,
)
from referee.sandbox.config import SandboxConfig
from referee.spec import BotSpec, ClockSpec
from sdk.errors import BullringError
from sdk.game.core import RulesError
from sdk.game.variants import check_players, parse_variant

FORMATS = ("round-robin", "random", "duplicate", "quality")
EXECUTORS = ("local", "ray")


class LeagueFileError(BullringError, ValueError):
    """A league file (or a bot manifest it names) that cannot be used; the message says why."""


@dataclass(frozen=True)
class RatingConfig:
    """TrueSkill parameters (the `trueskill` package's defaults unless set)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300
    draw_probability: float = 0.10

    def to_json(self) -> dict[str, float]:
        return {
            "mu": self.mu,
            "sigma": self.sigma,
            "beta": self.beta,
            "tau": self.tau,
            "draw_probability": self.draw_probability,
        }


@dataclass(frozen=True)
class VariantConfig:
    """One variant of the league: canonical id, resolved options, seats and games."""

    id: str  # canonical variant id (preset plus non-default options)
    preset: str
    options: Mapping[str, str]
    seats: int
    games: int
    format: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "preset": self.preset,
            "options": dict(self.options),
            "seats": self.seats,
            "games": self.games,
            "format": self.format,
        }


@dataclass(frozen=True)
class LeagueConfig:
    """A validated league file."""

    name: str
    path: Path | None
    seed: int
    format: str
    games: int
    seats: int
    parallel: int  # matches at once; 0: as many as cores
    store: Path
    executor: str
    ray_address: str | None
    batch: int  # matches per scheduling batch of the quality format
    bots: tuple[BotSpec, ...]
    variants: tuple[VariantConfig, ...]
    clock: ClockSpec = field(default_factory=ClockSpec)
    rating: RatingConfig = field(default_factory=RatingConfig)
    sandbox: SandboxConfig = field(default_factory=SandboxConfig)

    @property
    def workers(self) -> int:
        """How many matches run at once (``parallel``, 0 meaning every core)."""
        return self.parallel or (os.cpu_count() or 1)

    def schedule_json(self) -> dict[str, Any]:
        """What fixes the schedule and the ratings (not paths, parallelism or executor)."""
        return {
            "name": self.name,
            "seed": self.seed,
            "batch": self.batch,
            "variants": [v.to_json() for v in self.variants],
            "clock": self.clock.to_json(),
            "rating": self.rating.to_json(),
        }

    def digest(self) -> str:
        """A hash of :meth:`schedule_json`: a store refuses a league file that changed it."""
        text = json.dumps(self.schedule_json(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def with_overrides(self, **changes: Any) -> LeagueConfig:
        return replace(self, **changes)


ManifestLoader = Callable[[Path], BotSpec]


def default_manifest_loader(path: Path) -> BotSpec:
    """Load a bot manifest (bot.toml) with the referee's loader."""
    return load_manifest(path)


_LEAGUE_KEYS = {
    "name",
    "seed",
    "format",
    "games",
    "seats",
    "parallel",
    "store",
    "executor",
    "ray_address",
    "batch",
}
# "arena": an arena file is a league file with an [arena] table (docs/arena.md), which
# `bullring arena` reads and the league commands leave alone.
_TOP_KEYS = {"league", "bots", "variants", "clock", "rating", "sandbox", "arena"}
_BOT_KEYS = {"manifest", "endpoint", "name", "version"}
_VARIANT_KEYS = {"id", "options", "seats", "games", "format"}


class _Reader:
    """Typed access to a TOML table that reports errors by field path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> LeagueFileError:
        return LeagueFileError(f"{self.source}: {where}: {problem}")

    def table(self, data: Any, where: str, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(where, "must be a table")
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise self.fail(
                f"{where}.{unknown[0]}" if where else unknown[0],
                f"unknown field (known: {', '.join(sorted(allowed))})",
            )
        return data

    def string(self, data: Mapping[str, Any], key: str, where: str, default: str | None) -> str:
        value = data.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{where}.{key}", "must be a non-empty string")
        return value.strip()

    def integer(
        self,
        data: Mapping[str, Any],
        key: str,
        where: str,
        default: int,
        minimum: int,
        maximum: int | None = None,
    ) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{where}.{key}", f"must be a whole number, not {value!r}")
        if value < minimum:
            raise self.fail(f"{where}.{key}", f"must be at least {minimum}, not {value}")
        if maximum is not None and value > maximum:
            raise self.fail(f"{where}.{key}", f"must be at most {maximum:,}, not {value:,}")
        return value

    def name(self, data: Mapping[str, Any], key: str, where: str, default: str | None) -> str:
        """A bot name or version: a safe name (see referee.limits.safe_name_problem)."""
        value = self.string(data, key, where, default)
        problem = safe_name_problem(value)
        if problem:
            raise self.fail(f"{where}.{key}", problem)
        return value

    def number(
        self, data: Mapping[str, Any], key: str, where: str, default: float, positive: bool
    ) -> float:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(f"{where}.{key}", f"must be a number, not {value!r}")
        if (positive and value <= 0) or value < 0:
            raise self.fail(f"{where}.{key}", f"must be {'> 0' if positive else '>= 0'}")
        return float(value)

    def choice(
        self, data: Mapping[str, Any], key: str, where: str, default: str, choices: tuple[str, ...]
    ) -> str:
        value = self.string(data, key, where, default)
        if value not in choices:
            raise self.fail(f"{where}.{key}", f"{value!r} is not one of: {', '.join(choices)}")
        return value


def load_league(
    path: str | os.PathLike[str], manifest_loader: ManifestLoader | None = None
) -> LeagueConfig:
    """Read and validate a league file; LeagueFileError names the field of any problem."""
    file = Path(path)
    try:
        text = file.read_text()
    except OSError as error:
        raise LeagueFileError(f"{file}: cannot read: {error.strerror or error}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LeagueFileError(f"{file}: not valid TOML: {error}") from None
    return parse_league(data, file, manifest_loader or default_manifest_loader)


def tidy_path(path: Path) -> Path:
    """`path` without its ``folder/..`` steps (``example_bots/../demo/league.sqlite`` is
    ``demo/league.sqlite``), where that names the same place (a step back out of a
    symbolic link may not): the form to print and to open."""
    tidy = Path(os.path.normpath(path))
    return tidy if tidy == path or tidy.resolve() == path.resolve() else path


def parse_league(
    data: Mapping[str, Any], file: Path | None, manifest_loader: ManifestLoader
) -> LeagueConfig:
    """Validate parsed TOML; relative paths are relative to the league file's folder."""
    r = _Reader(str(file) if file else "<league>")
    base = file.parent if file else Path.cwd()
    r.table(dict(data), "", _TOP_KEYS)
    league = r.table(data.get("league", {}), "league", _LEAGUE_KEYS)
    name = r.string(league, "name", "league", file.stem if file else None)
    fmt = r.choice(league, "format", "league", "round-robin", FORMATS)
    games = r.integer(league, "games", "league", 1, 1, MAX_MATCHES)
    seats = r.integer(league, "seats", "league", 2, 2)
    store_text = r.string(league, "store", "league", f"{name}.sqlite")
    ray_address = league.get("ray_address")
    if ray_address is not None and not isinstance(ray_address, str):
        raise r.fail("league.ray_address", "must be a string such as 'auto' or 'host:port'")

    clock_table = r.table(data.get("clock", {}), "clock", set(ClockSpec().to_json()))
    default_clock = ClockSpec()
    clock_values = {
        key: r.integer(clock_table, key, "clock", getattr(default_clock, key), low, high)
        for key, (low, high) in CLOCK_LIMITS.items()
    }
    clock = ClockSpec(
        **clock_values, enabled=_flag(r, clock_table, "enabled", "clock", default_clock.enabled)
    )

    rating_table = r.table(data.get("rating", {}), "rating", set(RatingConfig().to_json()))
    d = RatingConfig()
    rating = RatingConfig(
        mu=r.number(rating_table, "mu", "rating", d.mu, False),
        sigma=r.number(rating_table, "sigma", "rating", d.sigma, True),
        beta=r.number(rating_table, "beta", "rating", d.beta, True),
        tau=r.number(rating_table, "tau", "rating", d.tau, False),
        draw_probability=r.number(
            rating_table, "draw_probability", "rating", d.draw_probability, False
        ),
    )
    if rating.draw_probability >= 1:
        raise r.fail("rating.draw_probability", "must be below 1")

    variants = _variants(r, data.get("variants"), seats, games, fmt)
    bots = _bots(r, data.get("bots"), base, manifest_loader)
    executor = r.choice(league, "executor", "league", "local", EXECUTORS)
    parallel = r.integer(league, "parallel", "league", 0, 0)
    problem = parallel_problem(parallel, on_cluster=executor == "ray" and bool(ray_address))
    if problem:
        raise r.fail("league.parallel", problem)
    return LeagueConfig(
        name=name,
        path=file,
        seed=r.integer(league, "seed", "league", 0, 0),
        format=fmt,
        games=games,
        seats=seats,
        parallel=parallel,
        store=tidy_path(base / store_text),
        executor=executor,
        ray_address=ray_address,
        batch=r.integer(league, "batch", "league", 8, 1, MAX_BATCH),
        bots=bots,
        variants=variants,
        clock=clock,
        rating=rating,
        sandbox=_sandbox(r, data.get("sandbox", {})),
    )


_SANDBOX_KEYS = {
    "enabled",
    "memory_mb",
    "processes",
    "cpus",
    "tmp_mb",
    "uids",
    "bwrap",
    "read_only",
    "writable",
}
_SANDBOX_MAX_MB = 1 << 20  # 1 TiB
_MAX_UID = (1 << 32) - 2  # (uid_t)-1 means "no change" to the kernel


def _sandbox(r: _Reader, data: Any) -> SandboxConfig:
    """The ``[sandbox]`` table: how bots are confined (docs/leagues.md)."""
    table = r.table(data, "sandbox", _SANDBOX_KEYS)
    d = SandboxConfig()
    memory_mb = r.integer(table, "memory_mb", "sandbox", d.memory_mb, 16)
    tmp_mb = r.integer(table, "tmp_mb", "sandbox", d.tmp_mb, 1)
    for key, value in (("memory_mb", memory_mb), ("tmp_mb", tmp_mb)):
        if value > _SANDBOX_MAX_MB:
            raise r.fail(f"sandbox.{key}", f"must be at most {_SANDBOX_MAX_MB}, not {value}")
    processes = r.integer(table, "processes", "sandbox", d.processes, 4)
    if processes > 1_000_000:
        raise r.fail("sandbox.processes", f"must be at most 1000000, not {processes}")
    cpus = r.number(table, "cpus", "sandbox", d.cpus, True)
    if cpus > 4096:
        raise r.fail("sandbox.cpus", f"must be at most 4096, not {cpus}")
    uids = table.get("uids", list(d.uids))
    if (
        not isinstance(uids, list)
        or len(uids) != 2
        or not all(isinstance(u, int) and not isinstance(u, bool) for u in uids)
        or not 1000 <= uids[0] <= uids[1] <= _MAX_UID
    ):
        raise r.fail(
            "sandbox.uids",
            f"must be [first, last] host uids, 1000 <= first <= last <= {_MAX_UID}, "
            "that no user of the host has",
        )
    bwrap = table.get("bwrap")
    if bwrap is not None and (not isinstance(bwrap, str) or not bwrap.strip()):
        raise r.fail("sandbox.bwrap", "must be the path of the bwrap executable")
    paths: dict[str, list[str]] = {}
    for key in ("read_only", "writable"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(
            isinstance(p, str) and os.path.isabs(p) for p in value
        ):
            raise r.fail(f"sandbox.{key}", "must be a list of absolute paths")
        paths[key] = value
    return SandboxConfig(
        enabled=_flag(r, table, "enabled", "sandbox", d.enabled),
        memory_mb=memory_mb,
        processes=processes,
        cpus=cpus,
        tmp_mb=tmp_mb,
        uids=(uids[0], uids[1]),
        bwrap=bwrap,
        read_only=tuple(paths["read_only"]),
        writable=tuple(paths["writable"]),
    )


def _flag(r: _Reader, table: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise r.fail(f"{where}.{key}", "must be true or false")
    return value


def _variants(
    r: _Reader, items: Any, seats: int, games: int, fmt: str
) -> tuple[VariantConfig, ...]:
    if not isinstance(items, list) or not items:
        raise r.fail("variants", 'list at least one variant: [[variants]] with id = "6nimmt"')
    result: list[VariantConfig] = []
    for index, item in enumerate(items):
        where = f"variants[{index}]"
        table = r.table(item, where, _VARIANT_KEYS)
        raw_options = table.get("options", {})
        if not isinstance(raw_options, dict):
            raise r.fail(f"{where}.options", "must be a table such as { rounds = 1 }")
        options: dict[str, str] = {}
        for key, value in raw_options.items():
            if isinstance(value, bool) or not isinstance(value, str | int):
                raise r.fail(f"{where}.options.{key}", "must be a string or a whole number")
            options[key] = str(value)
        variant_seats = r.integer(table, "seats", where, seats, 2)
        try:
            spec = parse_variant(r.string(table, "id", where, None), options)
            check_players(spec.preset, variant_seats)
        except RulesError as error:
            raise r.fail(where, str(error)) from None
        if any(v.id == spec.id for v in result):
            raise r.fail(f"{where}.id", f"variant {spec.id!r} is listed twice")
        result.append(
            VariantConfig(
                id=spec.id,
                preset=spec.preset.name,
                options=dict(spec.options),
                seats=variant_seats,
                games=r.integer(table, "games", where, games, 1, MAX_MATCHES),
                format=r.choice(table, "format", where, fmt, FORMATS),
            )
        )
    return tuple(result)


def _bots(
    r: _Reader, items: Any, base: Path, manifest_loader: ManifestLoader
) -> tuple[BotSpec, ...]:
    if items is None:
        return ()
    if not isinstance(items, list):
        raise r.fail("bots", "must be a list of [[bots]] tables")
    result: list[BotSpec] = []
    for index, item in enumerate(items):
        where = f"bots[{index}]"
        table = r.table(item, where, _BOT_KEYS)
        if ("manifest" in table) == ("endpoint" in table):
            raise r.fail(where, "give exactly one of manifest (a bot.toml) or endpoint")
        if "manifest" in table:
            manifest = base / r.string(table, "manifest", where, None)
            if manifest.is_dir():
                manifest = manifest / "bot.toml"
            if not manifest.is_file():
                raise r.fail(f"{where}.manifest", f"no such file: {manifest}")
            try:
                bot = manifest_loader(manifest)
            except (ValueError, OSError) as error:
                raise r.fail(f"{where}.manifest", str(error)) from None
            if "name" in table:
                bot = replace(bot, name=r.name(table, "name", where, None))
            if "version" in table:
                bot = replace(bot, version=r.name(table, "version", where, None))
        else:
            bot = BotSpec(
                name=r.name(table, "name", where, None),
                version=r.name(table, "version", where, "0"),
                endpoint=r.string(table, "endpoint", where, None),
            )
        if any(b.key == bot.key for b in result):
            raise r.fail(where, f"bot {bot.key} is listed twice")
        result.append(bot)
    return tuple(result)
