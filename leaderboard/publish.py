"""Publish a league's site so that it is always current and never half-built.

    python -m leaderboard.publish STORE ROOT [--about ABOUT.json] [--private-logs]

prints one JSON line (the :class:`PublishReport`) and exits 0, or prints one error line
on stderr and exits 1. Serve ``ROOT/current/`` (docs/leaderboard.md, "Publishing").

Each build is written into a fresh folder, ``ROOT/builds/NNNNNN/``, and published by
replacing the symbolic link ``ROOT/current`` (made under another name, then renamed over
it: one atomic step), so a reader, or a publish killed at any point, only ever leaves the
previous build in place, whole. The next publish removes what a killed one left half
made, and every publish keeps the last KEEP_BUILDS builds.

A rebuild costs what changed: the site's state (``ROOT/state.sqlite``,
leaderboard/state.py) remembers what it read of the store, so a publish reads the new
rows only, writes the new matches' pages (and the match list's pages that filled) once,
into ``ROOT/shared/gNNNNNN/`` which every build links (``matches`` is a relative symbolic
link there; a full list page is hard-linked into each build's ``lists/``), and renders
again only the pages whose size does not grow with the matches played. Nothing in the
shared folder ever changes once written. The state is committed only once the build it
fed is published, so a killed publish leaves it as it was.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import re
import shutil
import sqlite3
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from leaderboard import files, paths
from leaderboard.build import (
    BuildError,
    frame_key,
    open_store,
    read_site,
    snapshot,
    write_site,
)
from leaderboard.pages import keep_compiled_templates
from leaderboard.state import SiteState
from referee.league.store import StoreError, store_errors
from referee.terminal_text import inert_line
from sdk.errors import BullringError

KEEP_BUILDS = 3  # the published build and the two before it
CURRENT = "current"
BUILDS = "builds"
SHARED = "shared"
STATE = "state.sqlite"
TEMPLATES = "templates.cache"  # the templates, compiled (leaderboard/pages.py)
LOCK = ".lock"
_BUILD_NAME = re.compile(r"^\d{6,}$")
_SHARED_NAME = re.compile(r"^g\d{6,}$")


class PublishError(BullringError, ValueError):
    """The site cannot be published (a bad root folder or about file)."""


@dataclass(frozen=True)
class PublishReport:
    """What a publish did."""

    build: int  # the build's number: ROOT/builds/NNNNNN
    path: Path  # that folder (ROOT/current links it)
    matches: int  # finished matches in the store when the build read it
    new_matches: int  # of them, those this build read first (and wrote pages for)
    newest_finished_at: str  # ISO 8601 UTC, "" when none has finished
    built_at: str  # ISO 8601 UTC
    seconds: float
    files: int  # files written (hard links and the two symbolic links not counted)

    def to_json(self) -> dict[str, Any]:
        return {
            "build": self.build,
            "path": str(self.path),
            "matches": self.matches,
            "new_matches": self.new_matches,
            "newest_finished_at": self.newest_finished_at,
            "built_at": self.built_at,
            "seconds": round(self.seconds, 3),
            "files": self.files,
        }


def check_about(about: object) -> dict[str, Any]:
    """The arena's facts for the submit page, checked: a JSON object with `url` (text),
    `variants` (objects with `id`, `title`, `seats`), `clock` (text), `caps` (an object of
    numbers), `commands` (texts), `public_logs` (true or false), and optionally `play`
    (the address where visitors play the bots). PublishError otherwise."""
    if not isinstance(about, dict):
        raise PublishError("about: not a JSON object")
    kinds: dict[str, type | tuple[type, ...]] = {
        "url": str,
        "variants": list,
        "clock": str,
        "caps": dict,
        "commands": list,
        "public_logs": bool,
    }
    for key, kind in kinds.items():
        if not isinstance(about.get(key), kind):
            raise PublishError(f"about: {key!r} is missing or of the wrong type")
    for variant in about["variants"]:
        if not (
            isinstance(variant, dict)
            and isinstance(variant.get("id"), str)
            and isinstance(variant.get("title"), str)
            and isinstance(variant.get("seats"), (int, str, list))
        ):
            raise PublishError("about: each variant needs an 'id', a 'title' and 'seats'")
    if not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in about["caps"].values()
    ):
        raise PublishError("about: 'caps' must hold numbers")
    if not all(isinstance(line, str) for line in about["commands"]):
        raise PublishError("about: 'commands' must be texts")
    if not isinstance(about.get("play", ""), str):
        raise PublishError("about: 'play' (where visitors play the bots) must be a text")
    return dict(about)


def publish(
    store_path: str | Path,
    root: str | Path,
    *,
    about: Mapping[str, Any] | None = None,
    public_logs: bool = True,
    workers: int = 0,
) -> PublishReport:
    """Build the league's site from `store_path` into a new folder under `root` and
    publish it as ``root/current`` (see the module's docstring). BuildError or
    PublishError (one line) when it cannot; the published site is then unchanged."""
    started = time.perf_counter()
    top = Path(root)
    if top.exists() and not top.is_dir():
        raise PublishError(f"{top} exists and is not a folder")
    facts = check_about(about) if about is not None else None
    for sub in (BUILDS, SHARED):
        (top / sub).mkdir(parents=True, exist_ok=True)
    with (top / LOCK).open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one publish at a time; a killed one lets go
        tidy(top)
        keep_compiled_templates(top / TEMPLATES)
        files.step()
        store = open_store(store_path)
        state = SiteState(top / STATE)
        try:
            number = 1 + max([state.number("build"), *_numbers(top / BUILDS, _BUILD_NAME)])
            folder = top / BUILDS / f"{number:06d}"
            with store, snapshot(store):
                synced, site = read_site(store, state, about=facts, public_logs=public_logs)
                shared = _generation(top, state, frame_key(site.league), synced.reset)
                with store_errors(store.path):
                    written = write_site(
                        store, state, site, folder, shared, workers=workers,
                        public_logs=public_logs,
                    )  # fmt: skip
            _link_shared(folder, shared, state.number("lists"))
            _swap(top, folder)
            files.step()
            state.put("build", number)
            state.commit()
        except StoreError as exc:
            raise BuildError(str(exc)) from None
        finally:
            state.close()
        files.step()
        prune(top)
    return PublishReport(
        build=number,
        path=folder,
        matches=synced.finished,
        new_matches=len(synced.new),
        newest_finished_at=site.league.newest_finished,
        built_at=site.league.built_at,
        seconds=time.perf_counter() - started,
        files=written.files,
    )


def _numbers(folder: Path, pattern: re.Pattern[str]) -> list[int]:
    if not folder.is_dir():
        return []
    return [int(p.name.lstrip("g")) for p in folder.iterdir() if pattern.match(p.name)]


def _generation(root: Path, state: SiteState, key: str, reset: bool) -> Path:
    """The shared folder of the match pages: the state's, unless what every match page
    shows of the league changed (or the state was reset): then a new, empty one."""
    number = state.number("generation")
    shared = root / SHARED / f"g{number:06d}"
    if number and not reset and state.get("frame") == key and shared.is_dir():
        return shared
    number = 1 + max([number, *_numbers(root / SHARED, _SHARED_NAME)])
    state.put("generation", number)
    state.put("frame", key)
    state.put("pages", 0)
    state.put("lists", 0)
    shared = root / SHARED / f"g{number:06d}"
    shared.mkdir(parents=True, exist_ok=True)
    return shared


def _link_shared(folder: Path, shared: Path, full_lists: int) -> None:
    """Link the shared match pages into the build: ``matches`` a relative symbolic link to
    the shared folder's, each full page of the match list a hard link."""
    files.step()
    os.symlink(os.path.relpath(shared / paths.MATCHES_DIR, folder), folder / paths.MATCHES_DIR)
    for number in range(1, full_lists + 1):
        name = paths.match_list_page(number)
        target = folder / name
        target.unlink(missing_ok=True)
        os.link(shared / name, target)


def _swap(root: Path, folder: Path) -> None:
    """Publish `folder`: ``root/current`` replaced by a link to it in one rename."""
    link = root / f".{CURRENT}.tmp"
    link.unlink(missing_ok=True)
    os.symlink(os.path.relpath(folder, root), link)
    files.step()
    os.replace(link, root / CURRENT)


def published(root: Path) -> Path | None:
    """The build ``root/current`` links (None: nothing published yet)."""
    link = root / CURRENT
    if not link.is_symlink():
        return None
    return (root / os.readlink(link)).resolve()


def tidy(root: Path) -> None:
    """Remove what a killed publish left: a half-made link, build folders newer than the
    published one, shared folders no kept build links."""
    (root / f".{CURRENT}.tmp").unlink(missing_ok=True)
    prune(root)


def prune(root: Path, keep: int = KEEP_BUILDS) -> None:
    """Keep the published build and the `keep` - 1 before it; remove every other build,
    and every shared folder that neither a kept build nor the state uses."""
    current = published(root)
    builds = sorted(_numbers(root / BUILDS, _BUILD_NAME))
    live = int(current.name) if current is not None and _BUILD_NAME.match(current.name) else 0
    kept = {n for n in builds if n <= live}
    kept = set(sorted(kept)[-keep:])
    used: set[str] = set()
    for number in builds:
        folder = root / BUILDS / f"{number:06d}"
        if number in kept:
            link = folder / paths.MATCHES_DIR
            if link.is_symlink():
                used.add(Path(os.path.normpath(folder / os.readlink(link))).parent.name)
            continue
        files.step()
        shutil.rmtree(folder, ignore_errors=True)
    committed = _committed_generation(root)
    for name in _numbers(root / SHARED, _SHARED_NAME):
        shared = f"g{name:06d}"
        if shared not in used and name != committed:
            files.step()
            shutil.rmtree(root / SHARED / shared, ignore_errors=True)


def _committed_generation(root: Path) -> int:
    """The shared folder's number that the state file has committed (0: none)."""
    file = root / STATE
    if not file.is_file():
        return 0
    try:
        db = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return 0
    return int(row[0]) if row else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m leaderboard.publish", description=__doc__.splitlines()[0]
    )
    parser.add_argument("store", type=Path, help="the league's SQLite store")
    parser.add_argument("root", type=Path, help="the folder to publish into (serve ROOT/current)")
    parser.add_argument("--about", type=Path, help="the arena's facts, a JSON file")
    parser.add_argument(
        "--private-logs",
        action="store_true",
        help="publish no bot log tails and no fault details",
    )
    parser.add_argument("--workers", type=int, default=0, help="processes writing match pages")
    args = parser.parse_args(argv)
    try:
        about = None
        if args.about is not None:
            try:
                about = json.loads(args.about.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise PublishError(f"{args.about}: cannot read the about file ({exc})") from None
        report = publish(
            args.store,
            args.root,
            about=about,
            public_logs=not args.private_logs,
            workers=args.workers,
        )
    except BullringError as exc:
        print(f"error: {inert_line(str(exc))}", file=sys.stderr)
        return 1
    except sqlite3.Error as exc:  # the state file (the store's errors are BuildErrors)
        print(f"error: {args.root / STATE}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        where = exc.filename or args.root
        print(f"error: {where}: cannot publish the site ({exc.strerror or exc})", file=sys.stderr)
        return 1
    print(json.dumps(report.to_json()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
