"""The arena file: a league file with an ``[arena]`` table (docs/arena.md).

::

    [arena]
    listen = "127.0.0.1:8470"      # where `bullring arena serve` listens
    url = "http://127.0.0.1:8470"  # the public address authors use
    public_logs = false            # true: anyone may read checks' output and bots' logs
    queue = 16                     # uploads waiting for the check at most ("busy" past it)
    check_timeout_s = 600          # the longest one check may run
    upload_timeout_s = 30          # the longest wait for the next part of an upload
    max_packed_mb = 64             # the caps on an upload (packed, unpacked, files, depth,
    max_unpacked_mb = 256          # compression ratio)
    max_files = 20000
    max_depth = 32
    max_ratio = 100
    ladder = true                  # false: serve uploads only (play with `league run`)
    new_sigma = 2.5                # the ladder: a version plays first while its sigma is above
    new_share = 0.75               # the share of draws a new version gets meanwhile
    min_share = 0.5                # of its fair share of games, every bot gets at least
    site_every_matches = 50        # the site is rebuilt after this many matches...
    site_every_s = 60              # ...or this many seconds after a match, whichever first
    human_games = 4                # visitors' games against the bots at once (0: none)

The league part is read as ``league run`` reads it (:func:`referee.league.config.parse_league`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.league.config import LeagueConfig, default_manifest_loader, parse_league
from referee.league.ladder import LadderPolicy, predicted_matches
from sdk.errors import BullringError

MIB = 1 << 20
DEFAULT_LISTEN = "127.0.0.1:8470"


class ArenaFileError(BullringError, ValueError):
    """An arena file that cannot be used; the message names the field."""


@dataclass(frozen=True)
class Caps:
    """What an upload may be at most."""

    packed_bytes: int = 64 * MIB
    unpacked_bytes: int = 256 * MIB
    files: int = 20000
    depth: int = 32
    ratio: int = 100  # unpacked bytes per packed byte


@dataclass(frozen=True)
class ArenaConfig:
    """An arena: its league, where it listens and its caps."""

    league: LeagueConfig
    path: Path
    listen: str = DEFAULT_LISTEN
    url: str = ""
    public_logs: bool = False
    queue: int = 16
    check_timeout_s: float = 600.0
    upload_timeout_s: float = 30.0
    caps: Caps = field(default_factory=Caps)
    ladder: bool = True  # whether `arena serve` plays the ladder
    policy: LadderPolicy = field(default_factory=LadderPolicy)
    site_every_matches: int = 50
    site_every_s: float = 60.0
    human_games: int = 4  # visitors' games against the bots at once (0: none)

    @property
    def store(self) -> Path:
        return self.league.store

    @property
    def db_path(self) -> Path:
        """The arena's own SQLite file (authors, tokens, uploads), beside the store."""
        return self.store.absolute().with_name(self.store.name + ".arena")

    @property
    def uploads(self) -> Path:
        """Where accepted uploads wait for their check, each in a folder of its own."""
        return self.store.absolute().with_name(self.store.name + ".uploads")

    @property
    def site(self) -> Path:
        """Where the arena publishes its static site (``site/current`` is the live one)."""
        return self.store.absolute().with_name(self.store.name + ".site")

    @property
    def public_url(self) -> str:
        return self.url or f"http://{self.listen}"

    def new_version_matches(self) -> dict[str, int]:
        """Per variant, about how many matches a new version plays before its sigma
        falls below ``new_sigma`` (referee/league/ladder.py predicted_matches)."""
        return {
            v.id: predicted_matches(self.league.rating, v.seats, self.policy.new_sigma)
            for v in self.league.variants
        }


def _number(table: Mapping[str, Any], key: str, default: float, low: float, file: Path) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < low:
        raise ArenaFileError(f"{file}: arena.{key} must be a number of at least {low}")
    return float(value)


def _flag(table: Mapping[str, Any], key: str, default: bool, file: Path) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise ArenaFileError(f"{file}: arena.{key} must be true or false")
    return value


def _share(table: Mapping[str, Any], key: str, default: float, file: Path) -> float:
    value = _number(table, key, default, 0, file)
    if value > 1:
        raise ArenaFileError(f"{file}: arena.{key} must be a share between 0 and 1")
    return value


def parse_listen(text: str, where: str) -> tuple[str, int]:
    """``HOST:PORT`` as a host and a port (ArenaFileError otherwise)."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ArenaFileError(f"{where}: {text!r} is not HOST:PORT")
    return host.strip("[]"), int(port)


KNOWN = {
    "listen", "url", "public_logs", "queue", "check_timeout_s", "upload_timeout_s",
    "max_packed_mb",
    "max_unpacked_mb", "max_files", "max_depth", "max_ratio",
    "ladder", "new_sigma", "new_share", "min_share", "site_every_matches", "site_every_s",
    "human_games",
}  # fmt: skip


def load_arena(path: str | Path) -> ArenaConfig:
    """Read and check an arena file (ArenaFileError, or the league file's own errors)."""
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except OSError as error:
        raise ArenaFileError(f"{file}: cannot read: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ArenaFileError(f"{file}: not valid TOML: {error}") from None
    table = data.pop("arena", None)
    if not isinstance(table, dict):
        raise ArenaFileError(f"{file}: an arena file needs an [arena] table (docs/arena.md)")
    unknown = sorted(set(table) - KNOWN)
    if unknown:
        raise ArenaFileError(f"{file}: unknown field(s) in [arena]: {', '.join(unknown)}")
    league = parse_league(data, file, default_manifest_loader)
    listen = str(table.get("listen", DEFAULT_LISTEN))
    parse_listen(listen, f"{file}: arena.listen")
    public_logs = _flag(table, "public_logs", False, file)
    caps = Caps(
        packed_bytes=int(_number(table, "max_packed_mb", 64, 0.001, file) * MIB),
        unpacked_bytes=int(_number(table, "max_unpacked_mb", 256, 0.001, file) * MIB),
        files=int(_number(table, "max_files", 20000, 1, file)),
        depth=int(_number(table, "max_depth", 32, 1, file)),
        ratio=int(_number(table, "max_ratio", 100, 1, file)),
    )
    return ArenaConfig(
        league=league,
        path=file,
        listen=listen,
        url=str(table.get("url", "")).rstrip("/"),
        public_logs=public_logs,
        queue=int(_number(table, "queue", 16, 1, file)),
        check_timeout_s=_number(table, "check_timeout_s", 600, 1, file),
        upload_timeout_s=_number(table, "upload_timeout_s", 30, 0.1, file),
        caps=caps,
        ladder=_flag(table, "ladder", True, file),
        policy=LadderPolicy(
            new_sigma=_number(table, "new_sigma", 2.5, 0.01, file),
            new_share=_share(table, "new_share", 0.75, file),
            min_share=_share(table, "min_share", 0.5, file),
        ),
        site_every_matches=int(_number(table, "site_every_matches", 50, 1, file)),
        site_every_s=_number(table, "site_every_s", 60, 1, file),
        human_games=int(_number(table, "human_games", 4, 0, file)),
    )
