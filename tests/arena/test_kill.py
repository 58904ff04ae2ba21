"""``kill -9`` of the arena server during an upload, during a check and between them,
then a restart (issue 28, item 4): no half-registered bot, every accepted upload is still
queued or checked, nothing is recorded twice. Seeded kill points; waits are bounded."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

from arena.db import ArenaDb
from arena.uploads import pack
from referee.league.store import LeagueStore
from tests.arena.servers import Server, arena_server, new_bot, raw_request, slow_bot

pytestmark = pytest.mark.slow
WAIT_S = 120.0


def state_of(server: Server, upload: int) -> str:
    with ArenaDb(server.folder / "arena.sqlite.arena") as db:
        return db.uploads_by_id(upload).state


def wait_state(server: Server, upload: int, wanted: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while state_of(server, upload) != wanted:
        assert time.monotonic() < deadline, f"upload {upload} never became {wanted}"
        time.sleep(0.05)


def checkers_of(pid: int) -> list[int]:
    """The check processes a server `pid` started that are still alive."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"arena.checker" in argv and argv[-2:] == [str(pid).encode(), b""]:
                found.append(int(entry))
    return found


def test_kill_9_during_an_upload_a_check_and_between_then_restart(tmp_path: Path) -> None:
    rng = random.Random(28)
    with arena_server(tmp_path, queue=8) as server:
        alice = server.author("alice")
        one, two = slow_bot(tmp_path, "one", 2), slow_bot(tmp_path, "two", 2)
        three = new_bot(tmp_path, "three")

        # 1. During an upload: half its body sent, then the server is killed.
        data = pack(three).data
        sock = raw_request(server, alice, len(data), data[: len(data) // 2])
        time.sleep(rng.uniform(0.05, 0.3))
        server.kill()
        sock.close()
        server.start()
        with ArenaDb(server.folder / "arena.sqlite.arena") as db:
            assert db.uploads() == []  # never accepted: no trace of it
        assert server.leftovers()["uploads"] == []

        # 2. During a check, with another upload queued behind it (between the two).
        accepted = {}
        for bot in (one, two):
            reply = server.post(pack(bot).data, alice)
            assert reply.status_code == 202, reply.text
            accepted[reply.json()["upload"]] = bot.name
        first = min(accepted)
        wait_state(server, first, "checking")
        time.sleep(rng.uniform(0.0, 1.5))  # somewhere in the check (2 s and more)
        assert server.process is not None
        killed = server.process.pid
        server.kill()
        deadline = time.monotonic() + 30
        while checkers_of(killed):  # the check dies with its server
            assert time.monotonic() < deadline, "a check outlived its killed server"
            time.sleep(0.1)
        server.start()

        # 3. Between an upload and its check: killed as soon as it is accepted.
        reply = server.post(pack(three).data, alice)
        assert reply.status_code == 202, reply.text
        accepted[reply.json()["upload"]] = "three"
        server.kill()
        assert state_of(server, reply.json()["upload"]) in ("queued", "checking")
        server.start()

        for upload, name in accepted.items():
            assert server.wait_for(name, upload, alice, timeout=WAIT_S)["state"] == "active"
        with ArenaDb(server.folder / "arena.sqlite.arena") as db:
            rows = db.uploads()
            assert sorted(u.id for u in rows) == sorted(accepted)  # each upload once
            assert all(u.state == "active" for u in rows)
            named = {Path(u.folder).parent.name for u in rows}
        assert set(server.leftovers()["uploads"]) == named  # nothing half-made is left
        with LeagueStore.open_readonly(server.folder / "arena.sqlite") as store:
            keys = [b.spec.key for b in store.bots()]
            store.verify_archive()  # every registered bot's copy is whole
        assert sorted(keys) == sorted(["house@1", "one@0.1", "two@0.1", "three@0.1"])
