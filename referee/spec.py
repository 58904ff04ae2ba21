"""The referee's plain data: bots, clocks and match specs (faults are in
:mod:`referee.faults`, a match's result in :mod:`referee.replay.result`).

These are what the referee's match runner takes and gives, what a league schedules and
stores, and what executors ship between processes (all picklable, all JSON-able through
``to_json``/``from_json``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sdk.seeding import MatchSeeds, local_seeds


@dataclass(frozen=True)
class BotSpec:
    """A bot: a manifest to start as a child process, or an already running endpoint.

    Exactly one of ``command`` (with ``workdir``) or ``endpoint`` is set. ``endpoint`` is
    ``host:port`` or ``unix:PATH``. ``tree_hash``: the tree hash of the archived copy of
    its folder that it runs (referee/league/archive.py): its manifest and workdir then lie
    inside the archive's folder named by that hash; None for a bot run from where it is.
    """

    name: str
    version: str = "0"
    command: tuple[str, ...] = ()
    workdir: str = "."
    env: Mapping[str, str] = field(default_factory=dict)
    endpoint: str | None = None
    manifest: str | None = None  # path of the bot.toml it came from, if any
    tree_hash: str | None = None  # the archived copy it runs, if any (see above)

    @property
    def key(self) -> str:
        """``name@version``: how stores and leaderboards tell bot versions apart."""
        return f"{self.name}@{self.version}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "version": self.version,
            "command": list(self.command),
            "workdir": self.workdir,
            "env": dict(self.env),
            "endpoint": self.endpoint,
            "manifest": self.manifest,
        }
        if self.tree_hash is not None:
            data["tree_hash"] = self.tree_hash
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BotSpec:
        return cls(
            name=str(data["name"]),
            version=str(data.get("version", "0")),
            command=tuple(data.get("command") or ()),
            workdir=str(data.get("workdir", ".")),
            env=dict(data.get("env") or {}),
            endpoint=data.get("endpoint"),
            manifest=data.get("manifest"),
            tree_hash=data.get("tree_hash"),
        )


@dataclass(frozen=True)
class ClockSpec:
    """Time limits, in milliseconds, and the fault limit."""

    decision_ms: int = 1000  # each decision's deadline
    time_bank_ms: int = 5000  # per seat per match, drawn on by overruns
    setup_ms: int = 10000  # start the process, reach SERVING, Hello and StartMatch
    max_faults: int = 3  # after this many faults the seat is forfeited and auto-played
    enabled: bool = True  # False: no deadlines (debugging)

    def to_json(self) -> dict[str, Any]:
        return {
            "decision_ms": self.decision_ms,
            "time_bank_ms": self.time_bank_ms,
            "setup_ms": self.setup_ms,
            "max_faults": self.max_faults,
            "enabled": self.enabled,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClockSpec:
        return cls(**{k: data[k] for k in cls().to_json() if k in data})


@dataclass(frozen=True)
class MatchSpec:
    """One match: a game of `variant` with `bots[seat]` at each seat and a seed.

    ``seeds`` holds the deal seed and the seats' seed hints, derived from a secret key by
    whoever made the spec (a league, the check: :mod:`sdk.seeding`); the key itself never
    travels with a spec. Without ``seeds`` they derive from ``seed`` with the public local
    key, as ``bullring play`` and ``play_local`` do.
    """

    match_id: str
    variant: str  # preset id
    options: Mapping[str, str]
    seed: int  # the match seed (a league's schedule gives it)
    bots: tuple[BotSpec, ...]
    clock: ClockSpec = ClockSpec()
    seeds: MatchSeeds | None = None
    # Its bots' processes end with it, never pooled for another match: a duplicate deal is
    # played in several seatings, and a process that saw it must not play it again.
    single_use: bool = False
    # Seats on no clock (a person's seat in ``bullring play``): their decisions have no
    # deadline and draw on no time bank; every other seat keeps ``clock``.
    unclocked_seats: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if self.seeds is not None and len(self.seeds.hints) != len(self.bots):
            raise ValueError(
                f"match {self.match_id}: {len(self.seeds.hints)} seed hints "
                f"for {len(self.bots)} seats"
            )

    @property
    def derived_seeds(self) -> MatchSeeds:
        return self.seeds or local_seeds(self.seed, len(self.bots))

    @property
    def deal_seed(self) -> int:
        """The seed the engine deals this match from."""
        return self.derived_seeds.deal

    def clocked(self, seat: int) -> bool:
        """Whether `seat`'s decisions are held to the clock."""
        return self.clock.enabled and seat not in self.unclocked_seats

    def seed_hint(self, seat: int) -> int:
        """The seed hint StartMatch gives `seat`."""
        return self.derived_seeds.hint(seat)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "match_id": self.match_id,
            "variant": self.variant,
            "options": dict(self.options),
            "seed": self.seed,
            "bots": [b.to_json() for b in self.bots],
            "clock": self.clock.to_json(),
        }
        if self.seeds is not None:
            data["seeds"] = {"deal": self.seeds.deal, "hints": list(self.seeds.hints)}
        if self.unclocked_seats:
            data["unclocked_seats"] = sorted(self.unclocked_seats)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchSpec:
        seeds = data.get("seeds")
        return cls(
            match_id=str(data["match_id"]),
            variant=str(data["variant"]),
            options=dict(data.get("options") or {}),
            seed=int(data["seed"]),
            bots=tuple(BotSpec.from_json(b) for b in data["bots"]),
            clock=ClockSpec.from_json(data.get("clock") or {}),
            seeds=(
                MatchSeeds(int(seeds["deal"]), tuple(int(h) for h in seeds["hints"]))
                if seeds
                else None
            ),
            unclocked_seats=frozenset(int(s) for s in data.get("unclocked_seats") or ()),
        )
