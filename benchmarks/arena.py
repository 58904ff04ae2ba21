"""The arena, as a real server process on a loopback port with real sandboxed bots.

Uploads (issue 28): upload-to-active time of the Python example bot (the ``bullring
new-bot`` template) against the check's own time, and the status API's requests per
second while a check runs (an arena with ``ladder = false``, so nothing else runs).

The ladder (issue 29), on the four Python example bots (random, rules, learned and Monte
Carlo) at 6 nimmt! ``rounds=1``, 4 seats, the same clock and workers:

* matches per second of ``bullring league run`` (a round-robin) and of ``arena serve``'s
  ladder, both from the store's finish times (the steady rate, first match to last);
* a new version (the new-bot template) uploaded to the running ladder of 5 bots: the time
  from its activation to its first match's start, and the matches until its sigma fell
  below ``new_sigma`` against what the arena file predicts;
* the site's lag: sampled every 0.5 s, how many finished matches the live build lacks,
  and the age of the oldest of them, against ``max(N matches, T s)`` plus a build.

    .venv/bin/python -m benchmarks.arena --uploads 3 --seconds 5 --clients 4 --ladder-s 60
"""

from __future__ import annotations

import argparse
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from arena.client import upload
from arena.uploads import pack
from referee.league.config import RatingConfig
from referee.league.ladder import predicted_matches

REPO = Path(__file__).resolve().parents[1]
HOUSE = REPO / "example_bots" / "random_bot" / "bot.toml"
ARENA = """
[league]
name = "bench"
seed = 1
seats = 2
games = 1
store = "bench.sqlite"

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

[[bots]]
manifest = "{house}"

[arena]
listen = "127.0.0.1:{port}"
ladder = false
"""


def bullring(*args: str, cwd: Path) -> str:
    exe = str(Path(sys.executable).with_name("bullring"))
    done = subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def new_bot(folder: Path, name: str, sleep_s: float = 0.0) -> Path:
    bullring("new-bot", name, cwd=folder)
    if sleep_s:
        code = folder / name / "bot.py"
        future = "from __future__ import annotations\n"
        code.write_text(
            code.read_text().replace(future, f"{future}import time\ntime.sleep({sleep_s})\n")
        )
    return folder / name


def status_rate(url: str, name: str, seconds: float, clients: int) -> float:
    """GET /api/v1/bots/NAME from `clients` threads for `seconds`: requests per second."""
    counts = [0] * clients
    stop = time.monotonic() + seconds

    def hammer(index: int) -> None:
        with httpx.Client(base_url=url, timeout=30) as client:
            while time.monotonic() < stop:
                assert client.get(f"/api/v1/bots/{name}").status_code == 200
                counts[index] += 1

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.monotonic() - started)


PYTHON_BOTS = ("random_bot", "rules_bot", "learned_bot", "montecarlo_bot")
LADDER = """
[league]
name = "bench"
seed = 29
seats = 4
games = {games}
parallel = {workers}
store = "{store}"

[clock]
decision_ms = {decision_ms}

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

{bots}
[arena]
listen = "127.0.0.1:{port}"
new_sigma = {new_sigma}
site_every_matches = {every_matches}
site_every_s = {every_s}
"""


def python_bots() -> str:
    return "".join(
        f'[[bots]]\nmanifest = "{REPO / "example_bots" / bot / "bot.toml"}"\n\n'
        for bot in PYTHON_BOTS
    )


def steady_rate(store: Path) -> tuple[float, int]:
    """(matches per second from the first finish to the last, matches finished)."""
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        times = sorted(
            t for (t,) in db.execute("SELECT finished_at FROM matches WHERE status = 'finished'")
        )
    if len(times) < 2:
        return 0.0, len(times)
    return (len(times) - 1) / (times[-1] - times[0]), len(times)


def league_rate(folder: Path, args: argparse.Namespace) -> tuple[float, int]:
    file = folder / "league.toml"
    file.write_text(
        LADDER.format(
            games=args.league_games, workers=args.workers, store="league.sqlite",
            decision_ms=args.decision_ms, bots=python_bots(), port=free_port(),
            new_sigma=2.5, every_matches=50, every_s=60,
        )
    )  # fmt: skip
    bullring("league", "run", str(file), "--no-progress", cwd=folder)
    return steady_rate(folder / "league.sqlite")


def wait_health(url: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/v1/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit("the arena did not start in 60 s")


def site_lag(url: str, store: Path) -> tuple[int, float]:
    """(finished matches the live build lacks, age in s of the oldest of them)."""
    covered = int(httpx.get(f"{url}/api/v1/health", timeout=10).json().get("site_matches", 0))
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        times = sorted(
            t for (t,) in db.execute("SELECT finished_at FROM matches WHERE status = 'finished'")
        )
    missing = times[covered:]
    return len(missing), (time.time() - missing[0]) if missing else 0.0


def ladder_figures(folder: Path, args: argparse.Namespace) -> None:
    league, league_n = league_rate(folder, args)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    file = folder / "ladder.toml"
    file.write_text(
        LADDER.format(
            games=1, workers=args.workers, store="ladder.sqlite", decision_ms=args.decision_ms,
            bots=python_bots(), port=port, new_sigma=args.new_sigma,
            every_matches=args.site_matches, every_s=args.site_s,
        )
    )  # fmt: skip
    store = folder / "ladder.sqlite"
    token = bullring("arena", "author", "add", "bench", str(file), cwd=folder).splitlines()[-1]
    exe = str(Path(sys.executable).with_name("bullring"))
    log = (folder / "ladder.log").open("w")
    server = subprocess.Popen([exe, "arena", "serve", str(file)], cwd=folder, stderr=log)
    lags: list[tuple[int, float]] = []
    try:
        wait_health(url)
        stop = time.monotonic() + args.ladder_s
        while time.monotonic() < stop:
            time.sleep(0.5)
            if store.exists():
                lags.append(site_lag(url, store))
        ladder, ladder_n = steady_rate(store)
        print(
            f"matches/s, {len(PYTHON_BOTS)} Python example bots, 6 nimmt! rounds=1, 4 seats, "
            f"{args.decision_ms} ms a decision, {args.workers} workers: league run "
            f"{league:.2f} ({league_n} matches), ladder {ladder:.2f} ({ladder_n} matches in "
            f"{args.ladder_s:g} s): "
            + (f"{ladder / league:.0%} of league run" if league else "too few to compare")
        )
        print(
            f"site lag over {len(lags)} samples: at most {max(n for n, _ in lags)} matches "
            f"and {max(a for _, a in lags):.1f} s behind (N = {args.site_matches} matches, "
            f"T = {args.site_s:g} s); median {statistics.median(n for n, _ in lags):.0f} "
            f"matches"
            if lags
            else "site lag: no samples"
        )
        new_version(folder, url, token, store, args)
    finally:
        server.terminate()
        server.wait(120)
        log.close()


def new_version(folder: Path, url: str, token: str, store: Path, args: argparse.Namespace) -> None:
    """Upload a fifth bot to the running ladder; time its first match and count its
    matches until its sigma falls below new_sigma."""
    bot = new_bot(folder, "newbie")
    version = upload(bot, url, token, lambda line: None)
    assert version["state"] == "active", version
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        key, registered = db.execute(
            "SELECT key, registered_at FROM bots WHERE name = 'newbie'"
        ).fetchone()
    deadline = time.monotonic() + 600
    first_start: float | None = None
    crossed: int | None = None
    while time.monotonic() < deadline and crossed is None:
        time.sleep(0.5)
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
            row = db.execute(
                "SELECT MIN(m.started_at) FROM matches m JOIN results r"
                " ON r.match_id = m.match_id WHERE r.bot = ?",
                (key,),
            ).fetchone()
            first_start = row[0]
            sigmas = db.execute(
                "SELECT seq, sigma FROM ratings WHERE bot = ? ORDER BY seq", (key,)
            ).fetchall()
        for number, (_, sigma) in enumerate(sigmas, 1):
            if sigma <= args.new_sigma:
                crossed = number
                break
    arena_predicts = predicted_matches(RatingConfig(), 4, args.new_sigma)
    first = "never" if first_start is None else f"{first_start - registered:.2f} s"
    print(
        f"a new version in a running ladder of 5 bots: first match {first} after it became "
        f"active; sigma below {args.new_sigma:g} after {crossed} of its matches "
        f"(the arena file predicts {arena_predicts})"
    )


def upload_figures(folder: Path, args: argparse.Namespace) -> None:
    port = free_port()
    file = folder / "arena.toml"
    file.write_text(ARENA.format(house=HOUSE, port=port))
    token = bullring("arena", "author", "add", "bench", str(file), cwd=folder).splitlines()[-1]
    exe = str(Path(sys.executable).with_name("bullring"))
    server = subprocess.Popen(
        [exe, "arena", "serve", str(file)],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{url}/api/v1/health", timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        bot = new_bot(folder, "pybot")
        totals, checks = [], []
        for number in range(args.uploads):
            if number:  # a new version each time (manifest and Hello): each is checked
                for file in (bot / "bot.toml", bot / "bot.py"):
                    text = file.read_text()
                    file.write_text(text.replace(f'"0.{number}"', f'"0.{number + 1}"', 1))
            started = time.monotonic()
            version = upload(bot, url, token, lambda line: None)
            totals.append(time.monotonic() - started)
            assert version["state"] == "active", version
            checks.append(float(version["check_s"]))
        over = [t - c for t, c in zip(totals, checks, strict=True)]
        print(
            f"upload to active: median {statistics.median(totals):.2f} s over "
            f"{args.uploads} uploads (the check itself: median "
            f"{statistics.median(checks):.2f} s; the rest: max {max(over):.2f} s)"
        )
        slow = new_bot(folder, "slowbot", sleep_s=args.seconds + 5)
        reply = httpx.post(
            f"{url}/api/v1/bots",
            content=pack(slow).data,
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        )
        assert reply.status_code == 202, reply.text
        while (
            httpx.get(
                f"{url}/api/v1/bots/slowbot", headers={"Authorization": f"Bearer {token}"}
            ).json()["versions"][0]["state"]
            != "checking"
        ):
            time.sleep(0.05)  # fmt: skip
        rate = status_rate(url, "pybot", args.seconds, args.clients)
        print(
            f"status reads while a check runs: {rate:.0f} requests/s "
            f"({args.clients} clients, {args.seconds:g} s)"
        )
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--uploads", type=int, default=3, help="uploads timed (versions)")
    parser.add_argument("--seconds", type=float, default=5.0, help="status reads for this long")
    parser.add_argument("--clients", type=int, default=4, help="status readers at once")
    parser.add_argument("--ladder-s", type=float, default=60.0, help="the ladder runs this long")
    parser.add_argument("--league-games", type=int, default=10, help="round-robin games a set")
    parser.add_argument("--decision-ms", type=int, default=300, help="the clock of each decision")
    parser.add_argument("--workers", type=int, default=2, help="matches at once (both runs)")
    parser.add_argument("--new-sigma", type=float, default=2.5, help="the arena's new_sigma")
    parser.add_argument("--site-matches", type=int, default=50, help="site_every_matches")
    parser.add_argument("--site-s", type=float, default=10.0, help="site_every_s")
    parser.add_argument("--skip-uploads", action="store_true", help="the ladder figures only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bullring-arena-bench-") as tmp:
        if not args.skip_uploads:
            (Path(tmp) / "uploads").mkdir()
            upload_figures(Path(tmp) / "uploads", args)
        (Path(tmp) / "ladder").mkdir()
        ladder_figures(Path(tmp) / "ladder", args)


if __name__ == "__main__":
    main()
