"""Shipping archived bots (referee/league/shipping.py) without Ray: a real bot folder is
archived, packed, unpacked into a node's cache and checked against its tree hash; bytes
altered on the way, a wrong hash and a tar that would write outside the tree are refused."""

from __future__ import annotations

import io
import os
import re
import stat
import tarfile
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from referee.bots.manifest import load_manifest
from referee.league.archive import STAGING, BotArchive, tree_entries, tree_hash
from referee.league.shipping import (
    ShipmentError,
    TreeCache,
    archived_entry,
    localized,
    pack_tree,
    unpack_tree,
)
from referee.spec import BotSpec, MatchSpec

MANIFEST = 'name = "tb"\nversion = "1"\ncommand = ["{python}", "bot.py"]\n'
ODD_NAME = "d\u00e9j\u00e0 vu.txt"


def archived_bot(folder: Path) -> BotSpec:
    """A bot folder with a subfolder, an executable, a link and an odd name, archived in
    the archive `folder`/archive: its spec runs the archived copy."""
    root = folder / "tb"
    (root / "lib").mkdir(parents=True)
    (root / "bot.toml").write_text(MANIFEST)
    (root / "bot.py").write_text("print('hi')\n")
    (root / "run.sh").write_text("#!/bin/sh\n")
    (root / "run.sh").chmod(0o755)
    (root / "lib" / ODD_NAME).write_text("1 2 3\n")
    (root / "lib" / "link").symlink_to("../bot.py")
    (root / "__pycache__").mkdir()  # left out of the tree, so not shipped
    (root / "__pycache__" / "bot.pyc").write_bytes(b"x")
    bot = BotArchive(folder / "archive").add(load_manifest(root / "bot.toml"))
    assert bot.spec.tree_hash == bot.digest
    return bot.spec


class Fetch:
    """The bytes of a shipment, counting how often they are asked for."""

    def __init__(self, blob: bytes, calls: list[int]) -> None:
        self.blob, self.calls = blob, calls

    def __call__(self) -> bytes:
        self.calls.append(1)
        return self.blob


def test_a_shipped_tree_arrives_whole_and_the_match_runs_the_nodes_copy(tmp_path: Path) -> None:
    spec = archived_bot(tmp_path)
    source = archived_entry(spec)
    assert source.name == spec.tree_hash and source.parent == tmp_path / "archive"
    calls: list[int] = []
    cache = TreeCache(tmp_path / "node")
    entry = cache.entry(spec, Fetch(pack_tree(source), calls))
    assert entry == tmp_path / "node" / str(spec.tree_hash) and calls == [1]
    copy = entry / "tb"
    assert tree_hash(tree_entries(copy)) == spec.tree_hash
    assert (copy / "lib" / ODD_NAME).read_text() == "1 2 3\n"
    assert os.readlink(copy / "lib" / "link") == "../bot.py"
    assert os.stat(copy / "run.sh").st_mode & stat.S_IXUSR
    assert not os.stat(copy / "bot.py").st_mode & stat.S_IWUSR  # read-only, as archived
    assert not (copy / "__pycache__").exists()
    assert os.listdir(tmp_path / "node" / STAGING) == []

    match = MatchSpec("m-1", "6nimmt", {}, 1, (spec, BotSpec("ep", endpoint="unix:/x")))
    local = localized(match, {str(spec.tree_hash): entry})
    moved, endpoint = local.bots
    assert endpoint == match.bots[1]
    assert moved.manifest == str(copy / "bot.toml") and moved.workdir == str(copy)
    assert moved.tree_hash == spec.tree_hash and moved.command == spec.command
    assert load_manifest(str(moved.manifest)).command == spec.command

    # Asked again, by this worker or another on the node: the copy there, no fetch.
    assert cache.entry(spec, Fetch(b"", calls)) == entry
    assert TreeCache(tmp_path / "node").entry(spec, Fetch(b"", calls)) == entry
    assert calls == [1]


def test_bytes_altered_on_the_way_or_a_wrong_hash_are_refused(tmp_path: Path) -> None:
    spec = archived_bot(tmp_path)
    blob = pack_tree(archived_entry(spec))
    assert blob.count(b"print('hi')") == 1
    tampered = blob.replace(b"print('hi')", b"print('HI')")
    cache = TreeCache(tmp_path / "node")
    with pytest.raises(ShipmentError) as refused:
        cache.entry(spec, Fetch(tampered, []))
    message = str(refused.value)
    assert "bot tb@1" in message and f"not {spec.tree_hash} as registered" in message
    [found] = [h for h in re.findall("[0-9a-f]{64}", message) if h != spec.tree_hash]
    assert found == tree_hash(tree_entries(_unpacked(tampered, tmp_path / "look")))
    assert not (tmp_path / "node" / str(spec.tree_hash)).exists()  # nothing of it is kept
    assert os.listdir(tmp_path / "node" / STAGING) == []

    wrong = replace(spec, tree_hash="0" * 64)  # the genuine tree under another hash
    with pytest.raises(ShipmentError, match=f"has tree hash {spec.tree_hash}, not 0{{64}}"):
        cache.entry(wrong, Fetch(blob, []))
    assert sorted(os.listdir(tmp_path / "node")) == [STAGING]


def _unpacked(blob: bytes, folder: Path) -> Path:
    folder.mkdir()
    return unpack_tree(blob, folder)


def test_a_copy_altered_in_the_cache_is_replaced_by_the_shipment(tmp_path: Path) -> None:
    spec = archived_bot(tmp_path)
    blob = pack_tree(archived_entry(spec))
    entry = TreeCache(tmp_path / "node").entry(spec, Fetch(blob, []))
    (entry / "tb").chmod(0o755)
    (entry / "tb" / "bot.py").chmod(0o644)
    (entry / "tb" / "bot.py").write_text("print('evil')\n")
    calls: list[int] = []
    assert TreeCache(tmp_path / "node").entry(spec, Fetch(blob, calls)) == entry
    assert calls == [1] and (entry / "tb" / "bot.py").read_text() == "print('hi')\n"


def test_two_workers_unpacking_one_tree_at_once_both_get_it(tmp_path: Path) -> None:
    spec = archived_bot(tmp_path)
    blob = pack_tree(archived_entry(spec))
    both = threading.Barrier(2, timeout=60)

    def fetch() -> bytes:
        both.wait()  # both have found no copy and unpack their own
        return blob

    found: list[Path | BaseException] = []

    def worker() -> None:
        try:
            found.append(TreeCache(tmp_path / "node").entry(spec, fetch))
        except BaseException as error:
            found.append(error)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    entry = tmp_path / "node" / str(spec.tree_hash)
    assert found == [entry, entry]
    assert tree_hash(tree_entries(entry / "tb")) == spec.tree_hash
    assert os.listdir(tmp_path / "node" / STAGING) == []


def tar_of(*members: tuple[str, bytes, str]) -> bytes:
    """A tar of (name, type, link or contents) members."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, kind, data in members:
            info = tarfile.TarInfo(name)
            info.type = kind
            if kind == tarfile.SYMTYPE:
                info.linkname = data
                tar.addfile(info)
            elif kind == tarfile.REGTYPE:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data.encode()))
            else:
                tar.addfile(info)
    return buffer.getvalue()


DIR, FILE, LINK = tarfile.DIRTYPE, tarfile.REGTYPE, tarfile.SYMTYPE


@pytest.mark.parametrize(
    ("members", "why"),
    [
        ([("b", DIR, ""), ("../out", FILE, "x")], "not a path inside it"),
        ([("b", DIR, ""), ("/tmp/out", FILE, "x")], "not a path inside it"),
        ([("b", DIR, ""), ("b/l", LINK, ".."), ("b/l/out", FILE, "x")], "outside its folders"),
        ([("b", DIR, ""), ("c", DIR, "")], "outside its folders"),  # a second root
        ([("b", DIR, ""), ("b/f", FILE, "x"), ("b/f", FILE, "y")], "twice"),
        ([("b", DIR, ""), ("b/fifo", tarfile.FIFOTYPE, "")], "not a file"),
        ([("b/f", FILE, "x")], "must begin with its folder"),
        ([], "is empty"),
    ],
)
def test_a_tar_that_pack_tree_does_not_make_is_refused(
    tmp_path: Path, members: list[tuple[str, bytes, str]], why: str
) -> None:
    (tmp_path / "into").mkdir()
    with pytest.raises(ShipmentError, match=why):
        unpack_tree(tar_of(*members), tmp_path / "into")
    assert not list(tmp_path.rglob("out"))


def test_a_cache_folder_others_may_write_is_refused(tmp_path: Path) -> None:
    spec = archived_bot(tmp_path)
    (tmp_path / "node").mkdir()
    (tmp_path / "node").chmod(0o777)
    with pytest.raises(ShipmentError, match="others may write to it"):
        TreeCache(tmp_path / "node").entry(spec, Fetch(pack_tree(archived_entry(spec)), []))
