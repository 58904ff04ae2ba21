"""Visitors play the arena's bots: a game is ``bullring play VARIANT --bot human --web`` in a
child process, the other seats the active bots' archived copies in the sandbox, and the
arena passes the page through at ``/play/GAME/`` (docs/arena.md, Play the bots).

Nothing of a visitor's game reaches the league: ``bullring play`` keeps its replay in the
game's folder (``STORE.games/GAME/``), never in the store, so the ladder's ratings are
untouched. The human seat is a seat of the referee like any other (human_seat/): the
page sees that seat's view only, and the engine checks every choice.

At most ``human_games`` games run at once; each ends with its match (its page stays up
for its last screen a while), or after ``MAX_GAME_S``; a game's folder is removed an hour
after it ended. Every game's process dies with the server (arena/lifeline.py).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.config import ArenaConfig
from referee.league.config import VariantConfig
from referee.league.store import LeagueStore, StoreError

MAX_GAME_S = 3 * 3600.0  # the longest a visitor's game may stay up
KEEP_ENDED_S = 3600.0  # an ended game's replay stays this long
START_S = 60.0  # the page must be up by then
STOP_S = 20.0  # a stopped game's time to close its page and bots
LINGER_S = 900  # the page's last screen stays up this long (bullring play --web-linger-s)
URL_LINE = re.compile(r"play in your browser: (http://127\.0\.0\.1:\d+/)")
GAME_ID = re.compile(r"[0-9a-f]{32}")


class GameRefused(Exception):
    """A game that cannot start: the HTTP status and one sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Game:
    """One visitor's game."""

    id: str
    variant: str
    seats: list[str]  # "human" for the visitor's seat
    folder: Path
    process: subprocess.Popen[str]
    desk: str = ""  # the human seat's page (a loopback URL), once it is up
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    cache: dict[str, Any] = field(default_factory=dict)  # its page's files, by path

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.id,
            "variant": self.variant,
            "seats": self.seats,
            "url": f"/play/{self.id}/",
            "running": self.running,
        }


class HumanGames:
    """The arena's visitors' games (see the module docstring)."""

    def __init__(self, arena: ArenaConfig) -> None:
        self.arena = arena
        self.root = arena.store.absolute().with_name(arena.store.name + ".games")
        self.games: dict[str, Game] = {}
        self.lock = threading.Lock()

    def opponents(self, variant: VariantConfig, wanted: list[str]) -> list[str]:
        """Bot keys for the other seats: the active bots named in `wanted`, or else the
        best rated active bots of the variant (GameRefused when there are too few)."""
        need = variant.seats - 1
        try:
            with LeagueStore.open_readonly(self.arena.store) as store:
                active = {spec.name: spec.key for spec in store.active_bots()}
                ranked = [row.bot for row in store.standings(variant.id)]
        except (StoreError, OSError):
            active, ranked = {}, []
        if wanted:
            unknown = [name for name in wanted if name not in active]
            if unknown:
                raise GameRefused(404, f"no active bot {unknown[0]!r} in this arena")
            if len(wanted) != need:
                raise GameRefused(
                    400, f"{variant.id} seats {variant.seats}: name {need} bots, or none"
                )
            return [active[name] for name in wanted]
        best = [key for key in ranked if key in active.values()]
        best += [key for key in active.values() if key not in best]
        if len(best) < need:
            raise GameRefused(409, f"the arena has {len(best)} active bots; {need} are needed")
        return best[:need]

    def start(self, variant_id: str | None, wanted: list[str]) -> Game:
        variants = {v.id: v for v in self.arena.league.variants}
        variant = variants.get(variant_id or self.arena.league.variants[0].id)
        if variant is None:
            raise GameRefused(404, f"no variant {variant_id!r} here ({', '.join(variants)})")
        self.sweep()
        with self.lock:
            if sum(g.running for g in self.games.values()) >= self.arena.human_games:
                raise GameRefused(503, "every table is taken; retry in a few minutes")
            keys = self.opponents(variant, wanted)
            seat = secrets.randbelow(variant.seats)
            seats = [*keys[:seat], "human", *keys[seat:]]
            game_id = secrets.token_hex(16)
            folder = self.root / game_id
            folder.mkdir(parents=True, mode=0o700)
            game = Game(game_id, variant.id, seats, folder, self._spawn(variant, seats, folder))
            self.games[game_id] = game
        game.desk = self._wait_desk(game)
        return game

    def _spawn(
        self, variant: VariantConfig, seats: list[str], folder: Path
    ) -> subprocess.Popen[str]:
        with LeagueStore.open_readonly(self.arena.store) as store:
            specs = store.bot_specs()
        clock = self.arena.league.clock
        bullring = str(Path(sys.executable).with_name("bullring"))
        argv = [bullring, "play", variant.id, "--web", "--no-browser", "--quiet", "--quiet-bots"]
        for key in seats:
            # The archive's paths are relative to the server's folder; the game runs in its own.
            manifest = "human" if key == "human" else Path(str(specs[key].manifest)).absolute()
            argv += ["--bot", str(manifest)]
        argv += [
            "--seed",
            str(secrets.randbits(31)),
            "--replay-out",
            str(folder / "replay.json.gz"),
        ]
        argv += ["--decision-ms", str(clock.decision_ms), "--time-bank-ms", str(clock.time_bank_ms)]
        argv += ["--setup-ms", str(clock.setup_ms), "--web-linger-s", str(LINGER_S)]
        wrapper = [sys.executable, "-m", "arena.lifeline", str(os.getpid()), "--"]
        log = (folder / "play.log").open("w")
        return subprocess.Popen(
            [*wrapper, *argv],
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            start_new_session=True,
        )

    def _wait_desk(self, game: Game) -> str:
        """The page's loopback URL, read from the game's first lines (GameRefused if it
        does not come up)."""
        found: list[str] = []

        def read() -> None:
            assert game.process.stdout is not None
            for line in game.process.stdout:
                match = URL_LINE.search(line)
                if match and not found:
                    found.append(match.group(1))
            game.process.stdout.close()

        threading.Thread(target=read, name=f"game-{game.id[:8]}", daemon=True).start()
        deadline = time.monotonic() + START_S
        while not found and game.running and time.monotonic() < deadline:
            time.sleep(0.05)
        if not found:
            self.end(game)
            raise GameRefused(500, "the game did not start; retry")
        return found[0]

    def get(self, game_id: str) -> Game | None:
        if not GAME_ID.fullmatch(game_id):
            return None
        return self.games.get(game_id)

    def end(self, game: Game) -> None:
        """Stop a game as Ctrl-C stops ``bullring play`` (its seat's page and its bots
        are closed, the replay kept), then make sure of its whole process group."""
        if game.running:
            game.process.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                game.process.wait(STOP_S)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(game.process.pid, signal.SIGKILL)  # its own session: only its own
        game.process.wait()
        if game.ended is None:
            game.ended = time.monotonic()

    def sweep(self) -> None:
        """End games past MAX_GAME_S; forget (and remove) games ended KEEP_ENDED_S ago."""
        now = time.monotonic()
        with self.lock:
            for game in list(self.games.values()):
                if game.running and now - game.started > MAX_GAME_S:
                    self.end(game)
                if not game.running and game.ended is None:
                    game.ended = now
                if game.ended is not None and now - game.ended > KEEP_ENDED_S:
                    del self.games[game.id]
                    shutil.rmtree(game.folder, ignore_errors=True)

    def close(self) -> None:
        with self.lock:
            for game in self.games.values():
                with contextlib.suppress(OSError):
                    self.end(game)
