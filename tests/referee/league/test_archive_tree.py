"""The tree hash and the archive's copies (referee/league/archive.py), on real folders."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.bots.manifest import load_manifest
from referee.league.archive import (
    STAGING,
    ArchiveError,
    BotArchive,
    changed_files,
    live_tree,
    tree_entries,
    tree_hash,
)
from referee.league.store import LeagueStore, StoreError

MANIFEST = 'name = "tb"\nversion = "1"\ncommand = ["{python}", "bot.py"]\n'


def bot(folder: Path, name: str = "tb") -> Path:
    root = folder / name
    (root / "lib").mkdir(parents=True)
    (root / "bot.toml").write_text(MANIFEST)
    (root / "bot.py").write_text("print('hi')\n")
    (root / "lib" / "data.txt").write_text("1 2 3\n")
    return root


def digest(root: Path) -> str:
    return tree_hash(tree_entries(root))


def test_names_modes_contents_and_links_make_the_hash(tmp_path: Path) -> None:
    root = bot(tmp_path)
    first = digest(root)
    assert digest(root) == first  # the same tree, the same hash
    (root / "bot.py").chmod(0o755)
    assert digest(root) != first
    (root / "bot.py").chmod(0o644)
    assert digest(root) == first
    (root / "lib" / "data.txt").write_text("1 2 4\n")
    assert digest(root) != first
    (root / "lib" / "data.txt").write_text("1 2 3\n")
    (root / "lib" / "data.txt").rename(root / "lib" / "data2.txt")
    assert digest(root) != first
    (root / "lib" / "data2.txt").rename(root / "lib" / "data.txt")
    (root / "empty").mkdir()
    assert digest(root) != first
    (root / "empty").rmdir()
    (root / "link").symlink_to("/etc/passwd")
    linked = digest(root)
    assert linked != first
    (root / "link").unlink()
    (root / "link").symlink_to("/etc/hostname")
    assert digest(root) != linked  # a link is its target, never followed


def test_pycache_is_left_out_and_a_fifo_is_refused(tmp_path: Path) -> None:
    root = bot(tmp_path)
    first = digest(root)
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "bot.cpython-311.pyc").write_bytes(b"\0" * 16)
    assert digest(root) == first
    os.mkfifo(root / "pipe")
    with pytest.raises(ArchiveError, match=r"pipe: a FIFO in the bot's folder"):
        tree_entries(root)


def test_changed_files_names_what_differs_and_escapes_names(tmp_path: Path) -> None:
    root = bot(tmp_path)
    old = tree_entries(root)
    (root / "bot.py").write_text("print('changed')\n")
    (root / "lib" / "data.txt").unlink()
    (root / "x\x1b[31m.py").write_text("")
    assert changed_files(old, tree_entries(root)) == (
        "bot.py changed, lib/data.txt removed, 'x\\x1b[31m.py' added"
    )
    assert changed_files(old, old) == "no file differs"


def test_a_copy_is_read_only_hashed_as_copied_and_content_addressed(tmp_path: Path) -> None:
    root = bot(tmp_path)
    (root / "bot.py").chmod(0o755)
    archive = BotArchive(tmp_path / "s.sqlite.bots")
    spec = load_manifest(root)
    added = archive.add(spec)
    assert added.digest == live_tree(spec)[0]
    copy = archive.entry(added.digest) / "tb"
    assert Path(str(added.spec.manifest)) == copy / "bot.toml"
    assert added.spec.workdir == str(copy)
    assert (copy / "bot.py").stat().st_mode & 0o777 == 0o555
    assert (copy / "bot.toml").stat().st_mode & 0o777 == 0o444
    assert (copy / "lib").stat().st_mode & 0o777 == 0o555
    assert archive.add(spec).digest == added.digest  # the same tree: the same copy
    assert sorted(os.listdir(archive.root)) == sorted([added.digest, STAGING])
    assert os.listdir(archive.root / STAGING) == []
    archive.verify(added.digest, "tb@1")


def test_a_staged_copy_is_moved_in_whole_and_a_dead_process_s_is_swept(tmp_path: Path) -> None:
    root = bot(tmp_path)
    archive = BotArchive(tmp_path / "s.sqlite.bots")
    staged = archive.stage(load_manifest(root))
    (root / "bot.py").write_text("print('edited after the copy')\n")
    found = archive.staged(staged.spec)
    assert found is not None and found.digest == staged.digest
    committed = archive.commit(found)
    assert "edited" not in (archive.entry(committed.digest) / "tb" / "bot.py").read_text()
    # A staging folder of a process that is gone (killed mid-check) is swept; ours is not.
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], check=True,
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    dead = archive.root / STAGING / f"copy-{gone}-x"
    dead.mkdir()
    ours = archive.stage(load_manifest(root))
    archive.sweep_staging()
    assert not dead.exists() and ours.entry.exists()
    archive.discard(ours)
    assert not ours.entry.exists()


def test_a_workdir_outside_the_folder_and_above_cannot_be_archived(tmp_path: Path) -> None:
    root = bot(tmp_path / "deep" / "er")
    (root / "bot.toml").write_text(MANIFEST + 'workdir = "../.."\n')
    with pytest.raises(ArchiveError, match=r"its workdir .* is outside its folder"):
        BotArchive(tmp_path / "s.bots").add(load_manifest(root))


def test_a_store_from_before_the_archive_adopts_unchanged_bots_only(tmp_path: Path) -> None:
    """A bot registered before archives has no tree hash: the next writer archives its
    folder if its manifest is still the registered one, and refuses it otherwise."""
    root = bot(tmp_path)
    path = tmp_path / "old.sqlite"
    spec = load_manifest(root)
    with LeagueStore.open(path) as store:
        store.register_bots([spec])
        store.db.execute(
            "UPDATE bots SET tree_hash = NULL, spec = ?", (json.dumps(spec.to_json()),)
        )
        assert store.bots()[0].spec.manifest == spec.manifest  # runs the folder, as before
        assert store.archive_legacy() == ["tb@1"]
        adopted = store.bots()[0]
        assert adopted.tree_hash == live_tree(spec)[0]
        assert store.archive.root in Path(str(adopted.spec.manifest)).parents
        store.db.execute(
            "UPDATE bots SET tree_hash = NULL, spec = ?", (json.dumps(spec.to_json()),)
        )
        (root / "bot.toml").write_text(MANIFEST + "# changed\n")
        with pytest.raises(StoreError, match=r"bot tb@1 was registered before bots were"):
            store.archive_legacy()


def test_a_store_pointing_out_of_its_archive_is_read_but_never_run(tmp_path: Path) -> None:
    """A store from elsewhere may name any path: reading it goes on (the site checks what
    it reads), but verify_archive, which league run and bot submit call first, refuses."""
    path = tmp_path / "s.sqlite"
    with LeagueStore.open(path) as store:
        store.register_bots([load_manifest(bot(tmp_path))])
        store.verify_archive()
        stored = json.loads(store.db.execute("SELECT spec FROM bots").fetchone()[0])
        for manifest in ("../../../../etc/passwd", "/dev/zero", None):
            store.db.execute(
                "UPDATE bots SET spec = ?", (json.dumps({**stored, "manifest": manifest}),)
            )
            assert store.bots()[0].spec.name == "tb"
            with pytest.raises(ArchiveError, match=r"bot tb@1: the store keeps a bot's manifest"):
                store.verify_archive()
        store.db.execute("UPDATE bots SET spec = ?, tree_hash = '../x'", (json.dumps(stored),))
        with pytest.raises(ArchiveError, match=r"not a tree hash"):
            store.verify_archive()
