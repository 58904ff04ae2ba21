"""Bad input against a real arena server on a loopback port (issue 28, item 3): each is
a 4xx or 5xx with one sentence, leaves nothing in the archive, the store or the upload
folders, and the server keeps serving."""

from __future__ import annotations

import io
import os
import random
import tarfile
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arena.uploads import pack
from tests.arena.servers import (
    MANIFEST,
    Server,
    arena_server,
    log_lines,
    member,
    new_bot,
    raw_request,
    tar_gz,
    with_manifest,
)
from tests.referee.league.leagues import bullring

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with arena_server(tmp_path_factory.mktemp("arena")) as running:
        yield running


@pytest.fixture(scope="module")
def tokens(server: Server) -> dict[str, str]:
    return {name: server.author(name) for name in ("alice", "bob", "carol")}


def refused(server: Server, response: object, status: int, words: str) -> str:
    """Assert a one-sentence refusal with `status` holding `words`; the server serves."""
    code = getattr(response, "status_code", None)
    body = response.json()  # type: ignore[attr-defined]
    assert code == status, (code, body)
    message = body["error"]
    assert words in message, message
    assert "\n" not in message and "Traceback" not in message
    assert server.status("nobody-at-all").status_code == 404  # still serving
    return str(message)


def test_tokens_none_wrong_or_revoked_are_one_answer(
    server: Server, tokens: dict[str, str]
) -> None:
    before = server.leftovers()
    data = with_manifest()
    for token in (None, "bra_wrong", tokens["alice"] + "x"):
        refused(server, server.post(data, token), 401, "a valid token is needed")
    carol = tokens["carol"]
    revoked = bullring("arena", "author", "revoke", "carol", str(server.file), cwd=server.folder)
    assert revoked.returncode == 0, revoked.stderr
    message = refused(server, server.post(data, carol), 401, "a valid token is needed")
    assert carol not in message
    assert server.leftovers() == before
    assert carol not in (server.folder / "serve.log").read_text()


def test_another_author_s_name_and_the_same_version_with_other_contents(
    server: Server, tokens: dict[str, str], tmp_path: Path
) -> None:
    folder = new_bot(tmp_path, "taken")
    first = server.post(pack(folder).data, tokens["alice"])
    assert first.status_code == 202, first.text
    version = server.wait_for("taken", first.json()["upload"], tokens["alice"])
    assert version["state"] == "active", version
    before = server.leftovers()
    refused(server, server.post(pack(folder).data, tokens["bob"]), 403, "belongs to another")
    (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# changed\n")
    message = refused(server, server.post(pack(folder).data, tokens["alice"]), 409, "other")
    assert "bot.py changed" in message
    assert server.leftovers() == before
    # A stranger never learns that a name exists unless a version of it is public.
    assert server.status("taken", tokens["bob"]).json()["yours"] is False
    assert "output" not in server.status("taken", tokens["bob"]).json()["versions"][0]


@pytest.mark.parametrize(
    ("case", "status", "words"),
    [
        ("traversal", 400, "climbs out"),
        ("absolute", 400, "absolute path"),
        ("symlink_to_store", 400, "a link"),
        ("symlink_to_key", 400, "a link"),
        ("hard_link", 400, "a link"),
        ("device", 400, "device"),
        ("fifo", 400, "device, FIFO"),
        ("setuid", 400, "set-uid"),
        ("too_deep", 413, "deeper than"),
        ("too_many_files", 413, "more than 200 files"),
        ("huge_unpacked", 413, "unpacks to more than 8.0 MiB"),
        ("high_ratio", 413, "times its packed size"),
        ("not_an_archive", 415, "neither a tar.gz nor a zip"),
        ("zip_symlink", 400, "a link"),
        ("zip_traversal", 400, "climbs out"),
        ("no_manifest", 400, "no bot.toml"),
        ("bad_command", 400, "field 'command'"),
        ("escape_in_field", 400, "control characters"),
        ("html_name", 400, "not a safe name"),
        ("control_name", 400, "control characters"),
        ("workdir_out", 400, "workdir"),
    ],
)
def test_a_hostile_pack_is_refused_and_leaves_nothing(
    server: Server, tokens: dict[str, str], case: str, status: int, words: str
) -> None:
    before = server.leftovers()
    response = server.post(hostile(case, server), tokens["alice"])
    message = refused(server, response, status, words)
    assert str(server.folder) not in message  # no path of the server's
    assert server.leftovers() == before


def hostile(case: str, server: Server) -> bytes:
    """The packed upload of one hostile `case`."""
    store = str(server.folder / "arena.sqlite")
    noise = random.Random(28).randbytes(9 << 20)  # incompressible: over the unpacked cap
    packs: dict[str, Callable[[], bytes]] = {
        "traversal": lambda: with_manifest((member("../escape.py"), b"x")),
        "absolute": lambda: with_manifest((member("/etc/cron.d/x"), b"x")),
        "symlink_to_store": lambda: with_manifest(
            (member("store", tarfile.SYMTYPE, linkname=store), None)
        ),
        "symlink_to_key": lambda: with_manifest(
            (member("key", tarfile.SYMTYPE, linkname=store + ".key"), None)
        ),
        "hard_link": lambda: with_manifest(
            (member("key", tarfile.LNKTYPE, linkname="bot.py"), None)
        ),
        "device": lambda: with_manifest(
            (member("null", tarfile.CHRTYPE, devmajor=1, devminor=3), None)
        ),
        "fifo": lambda: with_manifest((member("pipe", tarfile.FIFOTYPE), None)),
        "setuid": lambda: with_manifest((member("run", mode=0o4755), b"x")),
        "too_deep": lambda: with_manifest((member("a/" * 9 + "x.py"), b"x")),
        "too_many_files": lambda: with_manifest(*[(member(f"f{i}.txt"), b"x") for i in range(201)]),
        "huge_unpacked": lambda: with_manifest((member("noise.bin"), noise)),
        "high_ratio": lambda: with_manifest((member("zeros.bin"), b"\0" * (5 << 20))),
        "not_an_archive": lambda: b"just some text, not a pack\n",
        "zip_symlink": lambda: zipped(
            ("bot.toml", MANIFEST, 0o100644), ("s", store.encode(), 0o120777)
        ),
        "zip_traversal": lambda: zipped(("bot.toml", MANIFEST, 0o100644), ("../x", b"x", 0o100644)),
        "no_manifest": lambda: tar_gz([(member("bot.py"), b"print(1)\n")]),
        "bad_command": lambda: with_manifest(
            manifest=b'name = "evil"\nversion = "1"\ncommand = "rm -rf /"\n'
        ),
        "escape_in_field": lambda: with_manifest(
            manifest=MANIFEST + b'description = "\\u001b[2J\\u001b]0;owned\\u0007"\n'
        ),
        "html_name": lambda: with_manifest(
            manifest=b'name = "<script>alert(1)</script>"\ncommand = ["{python}", "bot.py"]\n'
        ),
        "control_name": lambda: with_manifest((member("x\x1b[31m.py"), b"x")),
        "workdir_out": lambda: with_manifest(manifest=MANIFEST + b'workdir = ".."\n'),
    }
    return packs[case]()


def zipped(*files: tuple[str, bytes, int]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            archive.writestr(info, data)
    return buffer.getvalue()


def test_an_upload_that_stops_half_way_leaves_nothing(
    server: Server, tokens: dict[str, str]
) -> None:
    before = server.leftovers()
    answered = len(log_lines(server, "upload refused", "half-way"))
    data = with_manifest()
    sock = raw_request(server, tokens["alice"], len(data), data[: len(data) // 2])
    sock.close()
    # The server's answer is logged after its upload folder is removed: wait for it (on a
    # loaded machine the request may not even have started when the socket closes).
    deadline = time.monotonic() + 60
    while len(log_lines(server, "upload refused", "half-way")) == answered:
        assert time.monotonic() < deadline, "no refusal logged for the half-way upload"
        time.sleep(0.1)
    assert server.leftovers() == before
    assert server.status("nobody-at-all").status_code == 404


def test_a_slow_client_is_cut_off_and_others_are_served_meanwhile(
    server: Server, tokens: dict[str, str]
) -> None:
    before = server.leftovers()
    data = with_manifest()
    sock = raw_request(server, tokens["alice"], len(data), data[:10])
    assert server.status("nobody-at-all").status_code == 404  # served while it trickles
    reply = b""
    while chunk := sock.recv(4096):  # the server answers after upload_timeout_s (2 s)
        reply += chunk
        if b"\r\n\r\n" in reply and b"}" in reply:
            break
    sock.close()
    assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
    assert b"too slow" in reply
    assert server.leftovers() == before


def test_nothing_uploaded_is_left_in_staging(server: Server) -> None:
    assert server.leftovers()["staging"] == []
    assert not [n for n in os.listdir(server.folder / "arena.sqlite.uploads") if n.startswith(".")]
