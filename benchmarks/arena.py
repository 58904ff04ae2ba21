"""The arena: upload-to-active time of the Python example bot (the ``bullring new-bot``
template) against the check's own time, and the status API's requests per second while a
check runs. A real server process on a loopback port, real uploads, real sandboxed checks.

    .venv/bin/python -m benchmarks.arena --uploads 3 --seconds 5 --clients 4
"""

from __future__ import annotations

import argparse
import socket
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--uploads", type=int, default=3, help="uploads timed (versions)")
    parser.add_argument("--seconds", type=float, default=5.0, help="status reads for this long")
    parser.add_argument("--clients", type=int, default=4, help="status readers at once")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bullring-arena-bench-") as tmp:
        folder = Path(tmp)
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


if __name__ == "__main__":
    main()
