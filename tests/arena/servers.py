"""A real arena server process on a loopback port, for the arena's tests."""

from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.referee.league.leagues import FIRST_OPTION, bullring, bullring_argv

ARENA = """
[league]
name = "arena"
seed = 5
seats = 2
games = {games}
store = "arena.sqlite"

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

[[bots]]
manifest = "{first_option}"
name = "house"

[arena]
listen = "127.0.0.1:{port}"
queue = {queue}
upload_timeout_s = 2
{caps}
{extra}
"""
START_S = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    """A running ``bullring arena serve`` and its folder."""

    folder: Path
    file: Path
    port: int
    process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        argv = bullring_argv("arena", "serve", str(self.file))
        log = (self.folder / "serve.log").open("a")
        self.process = subprocess.Popen(
            argv, cwd=self.folder, stdout=log, stderr=log, text=True, start_new_session=True
        )
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            assert self.process.poll() is None, (self.folder / "serve.log").read_text()
            try:
                if httpx.get(f"{self.url}/api/v1/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError(f"the arena did not start in {START_S} s")

    def kill(self) -> None:
        """SIGKILL, as a crash: the server only (its check child dies with it)."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(30)

    def author(self, name: str) -> str:
        done = bullring("arena", "author", "add", name, str(self.file), cwd=self.folder)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip().splitlines()[-1]

    def post(self, data: bytes, token: str | None, **kwargs: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.post(f"{self.url}/api/v1/bots", content=data, headers=headers, timeout=60)

    def status(self, name: str, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.get(f"{self.url}/api/v1/bots/{name}", headers=headers, timeout=30)

    def wait_for(self, name: str, upload: int, token: str, timeout: float = 120) -> dict[str, Any]:
        """The upload's version once it is active or rejected (a bounded wait)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            versions = self.status(name, token).json().get("versions", [])
            version = next((v for v in versions if v["upload"] == upload), None)
            if version is not None and version["state"] in ("active", "rejected"):
                return dict(version)
            time.sleep(0.1)
        raise AssertionError(f"upload {upload} of {name} was not checked in {timeout} s")

    def leftovers(self) -> dict[str, Any]:
        """What the arena keeps: its upload folders, archive entries, store bots."""
        store = self.folder / "arena.sqlite"
        uploads = self.folder / "arena.sqlite.uploads"
        archive = self.folder / "arena.sqlite.bots"
        return {
            "uploads": sorted(os.listdir(uploads)) if uploads.is_dir() else [],
            "archive": sorted(p for p in os.listdir(archive) if p != ".staging")
            if archive.is_dir()
            else [],
            "staging": sorted(os.listdir(archive / ".staging"))
            if (archive / ".staging").is_dir()
            else [],
            "store": store.stat().st_size if store.exists() else 0,
        }


SMALL_CAPS = "max_unpacked_mb = 8\nmax_files = 200\nmax_depth = 8"


@contextmanager
def arena_server(
    folder: Path,
    queue: int = 4,
    extra: str = "",
    caps: str = SMALL_CAPS,
    games: int = 1,
    ladder: bool = False,
) -> Iterator[Server]:
    """A running arena in `folder` (small caps unless `caps` says otherwise), playing its
    ladder only with `ladder` (the upload tests leave the store to `league run`)."""
    port = free_port()
    file = folder / "arena.toml"
    extra += "" if ladder else "\nladder = false"
    text = ARENA.format(
        first_option=FIRST_OPTION, port=port, queue=queue, extra=extra, caps=caps, games=games
    )
    file.write_text(text)
    server = Server(folder, file, port)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def new_bot(folder: Path, name: str = "mybot", version: str = "0.1") -> Path:
    """`bullring new-bot NAME` in `folder`, its version set."""
    done = bullring("new-bot", name, cwd=folder)
    assert done.returncode == 0, done.stderr
    manifest = folder / name / "bot.toml"
    manifest.write_text(manifest.read_text().replace('version = "0.1"', f'version = "{version}"'))
    return folder / name


def tar_gz(members: list[tuple[tarfile.TarInfo, bytes | None]]) -> bytes:
    """A tar.gz of hand-made members (their data, or None)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for info, data in members:
            if data is not None:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
            else:
                tar.addfile(info)
    return buffer.getvalue()


def member(
    name: str, kind: bytes = tarfile.REGTYPE, mode: int = 0o644, **kw: Any
) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mode = mode
    for key, value in kw.items():
        setattr(info, key, value)
    return info


MANIFEST = b'name = "evil"\nversion = "1"\ncommand = ["{python}", "bot.py"]\n'


def with_manifest(
    *others: tuple[tarfile.TarInfo, bytes | None], manifest: bytes = MANIFEST
) -> bytes:
    return tar_gz([(member("bot.toml"), manifest), (member("bot.py"), b"print(1)\n"), *others])


assert sys.executable


def raw_request(server: Server, token: str, length: int, body: bytes) -> socket.socket:
    """An upload's request by hand: `length` announced, `body` sent, the socket open."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    head = (
        f"POST /api/v1/bots HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/gzip\r\nContent-Length: {length}\r\n\r\n"
    )
    sock.sendall(head.encode() + body)
    return sock


def slow_bot(folder: Path, name: str, seconds: float) -> Path:
    """A new bot that sleeps `seconds` before it serves: its check takes that long more."""
    bot = new_bot(folder, name)
    code = bot / "bot.py"
    future = "from __future__ import annotations\n"
    assert future in code.read_text()
    code.write_text(
        code.read_text().replace(future, f"{future}import time\ntime.sleep({seconds})\n")
    )
    return bot


def log_lines(server: Server, *words: str) -> list[str]:
    """The lines of the server's log (serve.log) that hold every word."""
    text = (server.folder / "serve.log").read_text(errors="replace")
    return [line for line in text.splitlines() if all(w in line for w in words)]


def wait_log(server: Server, *words: str, timeout: float = 120.0) -> list[str]:
    """The server's log lines holding every word, once there is one (a bounded wait)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = log_lines(server, *words)
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"no log line with {words} in {timeout} s")
