"""The arena's file is shared by the server's threads (the event loop and the worker
threads that accept uploads): reads and transactions from many threads at once must
neither fail nor lose a write. Before the connection was locked, a transaction begun
while another thread's was open failed ("cannot start a transaction within a
transaction"), and an upload got a 500 (seen in a CI run of six uploads at once)."""

from __future__ import annotations

import threading
from pathlib import Path

from arena.db import ArenaDb

THREADS = 6
ROUNDS = 200


def test_reads_and_writes_from_many_threads_neither_fail_nor_get_lost(tmp_path: Path) -> None:
    errors: list[str] = []
    with ArenaDb(tmp_path / "a.arena") as db:
        token = db.add_author("alice")
        start = threading.Barrier(THREADS)

        def work(seat: int) -> None:
            start.wait()
            try:
                for step in range(ROUNDS):
                    assert db.author_of_token(token) == "alice"
                    db.waiting()
                    db.owner(f"bot{seat}")
                    if step % 10 == 0:
                        upload = db.add_upload("alice", f"bot{seat}", f"0.{step}", "h", "f")
                        assert db.uploads_by_id(upload).bot == f"bot{seat}"
                    db.uploads(bot=f"bot{seat}")
            except Exception as error:
                errors.append(repr(error))

        threads = [threading.Thread(target=work, args=(seat,)) for seat in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert db.waiting() == THREADS * ROUNDS // 10
        assert db.state_counts() == {"queued": THREADS * ROUNDS // 10, "checking": 0}
        for seat in range(THREADS):
            assert len(db.uploads(bot=f"bot{seat}")) == ROUNDS // 10
