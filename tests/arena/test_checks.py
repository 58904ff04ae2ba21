"""Authors' paths through a real arena server: the client commands, a rejected check and
who sees its output, the bounded queue, a full disk (issue 28, items 2 and 3)."""

from __future__ import annotations

import json
import os
import random
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from arena.db import ArenaDb
from arena.uploads import pack
from tests.arena.servers import arena_server, member, new_bot, slow_bot, wait_log, with_manifest
from tests.referee.league.leagues import bullring_argv

pytestmark = pytest.mark.slow
RAISES = "        raise RuntimeError('decide is broken')\n"


def client(*args: str, cwd: Path, token: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "BULLRING_TOKEN"}
    if token is not None:
        env["BULLRING_TOKEN"] = token
    return subprocess.run(
        bullring_argv(*args), cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def test_upload_and_status_from_the_cli_and_a_rejection_only_its_author_reads(
    tmp_path: Path,
) -> None:
    with arena_server(tmp_path) as server:
        alice, bob = server.author("alice"), server.author("bob")
        good = new_bot(tmp_path, "goodbot")
        done = client("bot", "upload", str(good), "--arena", server.url, cwd=tmp_path, token=alice)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip().splitlines()[-1].startswith("active")
        assert alice not in done.stdout + done.stderr
        shown = client("bot", "status", "goodbot", "--arena", server.url, "--json",
                       cwd=tmp_path, token=None)  # fmt: skip
        assert shown.returncode == 0, shown.stderr
        assert [v["state"] for v in json.loads(shown.stdout)["versions"]] == ["active"]

        bad = new_bot(tmp_path, "badbot")
        code = bad / "bot.py"
        code.write_text(code.read_text().replace("        return 0\n", RAISES, 1))
        done = client("bot", "upload", str(bad), "--arena", server.url, cwd=tmp_path, token=alice)
        assert done.returncode == 1, done.stderr
        rejected = [line for line in done.stderr.splitlines() if line.startswith("rejected: ")]
        assert len(rejected) == 1 and "EXCEPTION" in rejected[0], done.stderr
        assert done.stderr.strip().splitlines()[-1] == rejected[0]  # it ends in that line
        assert "decide is broken" in done.stderr  # its own traceback, to its author
        mine = server.status("badbot", alice).json()["versions"][0]
        assert mine["state"] == "rejected" and "decide is broken" in mine["output"]
        # The server's log line of the check: its reason's first line, how long it took.
        (logged,) = wait_log(server, "arena check bot=badbot@0.1")
        assert "state=rejected" in logged and "seconds=" in logged
        assert f"reason={mine['reason'].splitlines()[0]}" in logged.replace('"', "")
        # To anyone else a never-active bot does not exist: the same answer as no bot.
        for token in (bob, None):
            other = server.status("badbot", token)
            nothing = server.status("no-such-bot", token)
            assert other.status_code == nothing.status_code == 404
            assert other.json()["error"].replace("badbot", "X") == nothing.json()["error"].replace(
                "no-such-bot", "X"
            )

        # Client-side errors, one line each.
        done = client("bot", "upload", str(good), "--arena", server.url, cwd=tmp_path, token="no")
        assert done.returncode == 2 and done.stderr.count("\n") == 1 + done.stderr.count(
            "uploading"
        ), done.stderr
        assert "401" in done.stderr
        big = new_bot(tmp_path, "bigbot")
        (big / "blob.bin").write_bytes(random.Random(1).randbytes(9 << 20))
        done = client("bot", "upload", str(big), "--arena", server.url, cwd=tmp_path, token=alice)
        assert done.returncode == 2
        assert done.stderr.strip().splitlines()[-1].startswith("error: ")
        assert "9.0 MiB" in done.stderr and "8.0 MiB" in done.stderr
        done = client("bot", "upload", str(good), "--arena", "http://127.0.0.1:9",
                      cwd=tmp_path, token=alice)  # fmt: skip
        assert done.returncode == 2 and "cannot reach the arena" in done.stderr
        done = client("bot", "upload", str(good), "--arena", server.url, cwd=tmp_path, token=None)
        assert done.returncode == 2 and "no token" in done.stderr


def test_a_full_queue_answers_busy_and_loses_nothing(tmp_path: Path) -> None:
    with arena_server(tmp_path, queue=1) as server:
        alice = server.author("alice")
        slow = new_bot(tmp_path, "slowbot")
        code = slow / "bot.py"
        future = "from __future__ import annotations\n"
        assert future in code.read_text()
        code.write_text(code.read_text().replace(future, future + "import time\ntime.sleep(4)\n"))
        first = server.post(pack(slow).data, alice)
        assert first.status_code == 202, first.text
        other = new_bot(tmp_path, "otherbot")
        before = server.leftovers()
        busy = server.post(pack(other).data, alice)
        assert busy.status_code == 503, busy.text
        assert busy.json()["error"] == "busy: the check queue is full, retry later"
        assert busy.headers["retry-after"] == "30"
        assert server.leftovers() == before
        assert server.wait_for("slowbot", first.json()["upload"], alice)["state"] == "active"
        again = server.post(pack(other).data, alice)  # room again once it is checked
        assert again.status_code == 202, again.text


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
def test_a_full_disk_is_a_507_and_leaves_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2500k", "tmpfs", str(folder)])
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        with arena_server(folder) as server:
            alice = server.author("alice")
            before = server.leftovers()
            noise = random.Random(2).randbytes(1500 << 10)
            full = server.post(with_manifest((member("noise.bin"), noise)), alice)
            assert full.status_code == 507, full.text
            assert full.json()["error"] == "the arena's disk is full; retry later"
            assert server.leftovers() == before
            fine = server.post(with_manifest(), alice)
            assert fine.status_code == 202, fine.text
    finally:
        subprocess.run(["umount", "-l", str(folder)])


def test_many_uploads_at_once_are_queued_or_told_to_retry(tmp_path: Path) -> None:
    """Six uploads at once against a queue of 2 whose first check lasts 8 s and more:
    two are queued, four are told busy, and the four leave nothing behind."""
    with arena_server(tmp_path, queue=2) as server:
        alice = server.author("alice")
        packs = [pack(slow_bot(tmp_path, f"crowd{i}", 8)).data for i in range(6)]
        before = server.leftovers()
        with ThreadPoolExecutor(max_workers=6) as pool:
            replies = list(pool.map(lambda data: server.post(data, alice), packs))
        codes = sorted(reply.status_code for reply in replies)
        assert codes == [202, 202, 503, 503, 503, 503], [r.text for r in replies]
        accepted = [r.json()["upload"] for r in replies if r.status_code == 202]
        with ArenaDb(server.folder / "arena.sqlite.arena") as db:
            assert sorted(u.id for u in db.uploads()) == sorted(accepted)
            folders = {Path(u.folder).parent.name for u in db.uploads()}
        assert set(server.leftovers()["uploads"]) - set(before["uploads"]) == folders


def test_a_check_past_the_arena_s_time_limit_is_rejected_and_the_queue_goes_on(
    tmp_path: Path,
) -> None:
    with arena_server(tmp_path, extra="check_timeout_s = 3") as server:
        alice = server.author("alice")
        slow = server.post(pack(slow_bot(tmp_path, "sleeper", 8)).data, alice)
        after = server.post(pack(new_bot(tmp_path, "after")).data, alice)
        assert slow.status_code == after.status_code == 202, (slow.text, after.text)
        version = server.wait_for("sleeper", slow.json()["upload"], alice)
        assert version["state"] == "rejected"
        assert version["reason"] == "the check took longer than the arena's limit of 3 s"
        assert server.wait_for("after", after.json()["upload"], alice)["state"] == "active"
