"""The arena server's event loop never waits on its store. An upload's transaction can wait
for SQLite's write lock (the checker process, or any other connection, may hold it; up to
the 30 s busy timeout), holding the server's store while it waits. A request that bears a
token reads the store too: read on the event loop, it would stop every request until the
lock came free. Here another connection holds the lock while an upload waits on it, a
token-bearing request waits behind the upload, and a request that needs no store still
answers at once."""

from __future__ import annotations

import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from arena.uploads import pack
from tests.arena.servers import arena_server, new_bot

pytestmark = pytest.mark.slow
ANSWER_S = 10.0  # far below the store's 30 s busy timeout, far above a loaded answer


def test_a_transaction_waiting_for_the_store_leaves_the_server_answering(tmp_path: Path) -> None:
    with arena_server(tmp_path) as server:
        alice = server.author("alice")
        data = pack(new_bot(tmp_path, "patient")).data
        uploads = server.folder / "arena.sqlite.uploads"
        holder = sqlite3.connect(server.folder / "arena.sqlite.arena", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # the store's write lock, held from outside
        try:
            with ThreadPoolExecutor(2) as pool:
                upload = pool.submit(server.post, data, alice)
                # The upload's folder is made just before its transaction begins.
                deadline = time.monotonic() + 60
                while not list(uploads.glob("[!.]*/patient")):
                    assert time.monotonic() < deadline, "the upload never reached its transaction"
                    assert not upload.done(), upload.result().text
                    time.sleep(0.05)
                time.sleep(1.0)  # into the transaction, waiting for the lock
                assert not upload.done(), upload.result().text
                status = pool.submit(server.status, "patient", alice)  # a token to read
                time.sleep(0.5)
                began = time.monotonic()
                limits = httpx.get(f"{server.url}/api/v1/limits", timeout=ANSWER_S)
                answered_s = time.monotonic() - began
                assert limits.status_code == 200
                assert answered_s < ANSWER_S
                assert not upload.done()  # it was still waiting for the lock all along
                holder.execute("ROLLBACK")
                assert upload.result(timeout=60).status_code == 202
                assert status.result(timeout=60).status_code == 200
        finally:
            holder.close()
        versions = server.status("patient", alice).json()["versions"]
        assert [v["version"] for v in versions] == ["0.1"]
