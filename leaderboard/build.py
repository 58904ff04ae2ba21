"""`build_site`: a league store in, a static site out (what `bullring leaderboard build`
and `bullring demo` call)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from leaderboard.from_store import load_site
from leaderboard.render import render_site
from referee.league.store import LeagueStore, StoreError, store_errors
from sdk.errors import BullringError


class BuildError(BullringError, ValueError):
    """The site cannot be built (missing or unreadable store, unwritable output)."""


@dataclass(frozen=True)
class BuildReport:
    """What a build wrote, and how long it took."""

    out_dir: Path
    index: Path
    pages: int
    files: int
    matches: int
    replays_made: int  # match pages holding replay data
    seconds: float

    def summary(self) -> str:
        return (
            f"built {self.pages} pages ({self.files} files, {self.matches} matches, "
            f"{self.replays_made} with replay data) "
            f"in {self.seconds:.2f} s: {self.index}"
        )


def build_site(store_path: str | Path, out_dir: str | Path, workers: int = 0) -> BuildReport:
    """Build the static leaderboard of the league in `store_path` into `out_dir`.

    `workers` processes write the match pages (0: up to 4, by cores; see match_files.py).
    """
    started = time.perf_counter()
    store_file = Path(store_path)
    if not store_file.is_file():
        raise BuildError(f"no league store at {store_file}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise BuildError(f"{out} exists and is not a folder")
    try:
        store = LeagueStore.open_readonly(store_file)
    except StoreError as exc:  # a damaged file, or not a store: it says which, in one line
        raise BuildError(str(exc)) from None
    except Exception as exc:  # sqlite errors name the file badly; say it plainly
        raise BuildError(f"{store_file}: cannot open the league store: {exc}") from None
    with store:
        try:
            with store_errors(store_file):
                site = load_site(store)
                written = render_site(site, out, workers)
        except StoreError as exc:
            raise BuildError(str(exc)) from None
    return BuildReport(
        out_dir=out,
        index=out / "index.html",
        pages=written.pages,
        files=written.files,
        matches=written.matches,
        replays_made=written.replays_made,
        seconds=time.perf_counter() - started,
    )
