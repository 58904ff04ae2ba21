"""The bot archive: a registered bot's whole folder, copied once into a content-addressed
folder beside the league store, read-only; the league runs that copy only.

A bot's folder is what the sandbox shows it (:func:`referee.sandbox.folders.bot_folder`:
its manifest's folder, widened to the outermost enclosing Python package). Its *tree
hash* is the sha256 of every entry under it, each a line of its kind and mode
(``040000`` a folder, ``100644`` a file, ``100755`` an executable file, ``120000`` a
symbolic link), the sha256 of its contents (of a link: its target) and its path, the
folder's own name first. ``__pycache__`` folders are left out: Python rebuilds them, and
a bot cannot write to its archived copy. Anything else (a FIFO, a socket, a device) is
refused.

The archive of the store ``league.sqlite`` is the folder ``league.sqlite.bots/``; a
version's copy is ``league.sqlite.bots/<tree hash>/<folder name>/...``. A copy is first
made under ``.staging/`` (a folder the archive owns), hashed as copied, and then renamed
into place in one step, so a copy is whole or absent; the hash is of the copy itself, so
a folder changed while it was copied is caught the next time it is compared. The store
keeps each bot's tree hash and its manifest and working folder relative to its copy, so
the store, its key and its archive move together (docs/store.md).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from referee.sandbox.cgroups import alive
from referee.sandbox.folders import bot_folder
from referee.spec import BotSpec
from sdk.errors import BullringError

ARCHIVE_SUFFIX = ".bots"
_HEX64 = re.compile(r"[0-9a-f]{64}")
STAGING = ".staging"
IGNORED_FOLDERS = frozenset({"__pycache__"})
DIR_MODE = "040000"
FILE_MODE = "100644"
EXEC_MODE = "100755"
LINK_MODE = "120000"
MAX_NAMED = 5  # changed files named in one message
CHUNK = 1 << 20


class ArchiveError(BullringError, RuntimeError):
    """A bot folder that cannot be archived, or an archived copy missing or altered."""


@dataclass(frozen=True)
class Entry:
    """One thing in a bot's folder: its path (the folder's own name first, ``/``
    between parts), its mode (see the module docstring) and the sha256 of its contents."""

    path: str
    mode: str
    digest: str

    def line(self) -> bytes:
        return f"{self.mode} {self.digest} ".encode() + os.fsencode(self.path) + b"\0"


def archive_path(store_path: Path) -> Path:
    """Where the archive of the league stored at `store_path` is kept."""
    return store_path.with_name(store_path.name + ARCHIVE_SUFFIX)


def shown(name: str) -> str:
    """A file name as a message shows it: as it is when printable, else quoted with
    escapes (a name is data: it never writes control characters to a terminal)."""
    return name if name.isprintable() and name.strip() == name else ascii(name)


def _file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _kind(mode: int) -> str:
    for test, kind in (
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
    ):
        if test(mode):
            return kind
    return "special file"


def tree_entries(root: Path, skip: Path | None = None) -> list[Entry]:
    """Every entry under the folder `root` (its name first in each path), sorted by path;
    symbolic links are not followed, ``__pycache__`` folders and `skip` left out.
    ArchiveError for anything but folders, files and links, or a folder that cannot be
    read."""
    entries: list[Entry] = []
    skip_real = os.path.realpath(skip) if skip is not None else None

    def walk(folder: Path, name: str) -> None:
        try:
            children = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as error:
            raise ArchiveError(f"cannot read the bot's folder {folder}: {error.strerror}") from None
        for child in children:
            path = f"{name}/{child.name}"
            try:
                info = child.stat(follow_symlinks=False)
                if stat.S_ISLNK(info.st_mode):
                    target = os.fsencode(os.readlink(child.path))
                    entries.append(Entry(path, LINK_MODE, hashlib.sha256(target).hexdigest()))
                elif stat.S_ISDIR(info.st_mode):
                    if child.name in IGNORED_FOLDERS or os.path.realpath(child.path) == skip_real:
                        continue
                    entries.append(Entry(path, DIR_MODE, ""))
                    walk(Path(child.path), path)
                elif stat.S_ISREG(info.st_mode):
                    mode = EXEC_MODE if info.st_mode & stat.S_IXUSR else FILE_MODE
                    entries.append(Entry(path, mode, _file_digest(Path(child.path))))
                else:
                    raise ArchiveError(
                        f"{child.path}: a {_kind(info.st_mode)} in the bot's folder; a bot's "
                        "folder may hold only files, folders and symbolic links"
                    )
            except OSError as error:
                raise ArchiveError(f"cannot read {child.path}: {error.strerror}") from None

    walk(root, root.name)
    entries.sort(key=lambda e: e.path)
    return entries


def tree_hash(entries: Sequence[Entry]) -> str:
    """The sha256 that names a tree of `entries` (a version's identity)."""
    digest = hashlib.sha256(b"bullring-tree-1\0")
    for entry in entries:
        digest.update(entry.line())
    return digest.hexdigest()


def changed_files(old: Sequence[Entry], new: Sequence[Entry]) -> str:
    """What differs between two trees, in a few words: ``bot.py changed, x.py added``
    (paths inside the bot's folder; at most MAX_NAMED, then how many more)."""
    before = {_inner(e.path): e for e in old}
    after = {_inner(e.path): e for e in new}
    changes: list[str] = []
    if old and new and old[0].path.split("/")[0] != new[0].path.split("/")[0]:
        changes.append("the folder's name changed")
    for path in sorted(before.keys() | after.keys()):
        if path not in after:
            changes.append(f"{shown(path)} removed")
        elif path not in before:
            changes.append(f"{shown(path)} added")
        elif before[path].mode != after[path].mode:
            changes.append(f"{shown(path)} changed mode")
        elif before[path].digest != after[path].digest:
            changes.append(f"{shown(path)} changed")
    if not changes:
        return "no file differs"
    more = len(changes) - MAX_NAMED
    return ", ".join(changes[:MAX_NAMED]) + (f" and {more} more" if more > 0 else "")


def _inner(path: str) -> str:
    return path.split("/", 1)[1] if "/" in path else ""


@dataclass(frozen=True)
class Layout:
    """Where a bot's manifest and working folder are inside its folder's parent (the
    archive entry mirrors that parent): relative paths, ``/`` between parts."""

    folder: Path  # the bot's folder, as the sandbox shows it
    manifest: str
    workdir: str

    @classmethod
    def of(cls, spec: BotSpec) -> Layout:
        """ArchiveError if the bot cannot be archived: no manifest (a running endpoint),
        or a working folder outside its folder and the folder just above it."""
        if spec.endpoint is not None or not spec.manifest:
            raise ArchiveError(f"bot {spec.key} has no manifest, so no folder to archive")
        folder = bot_folder(spec)
        base = folder.parent
        manifest = os.path.relpath(Path(spec.manifest).resolve(), base)
        workdir = os.path.relpath(Path(spec.workdir).resolve(), base)
        for what, rel in (("manifest", manifest), ("workdir", workdir)):
            if rel == ".." or rel.startswith("../") or os.path.isabs(rel):
                raise ArchiveError(
                    f"bot {spec.key}: its {what} {base / rel} is outside its folder {folder} "
                    "and the folder just above it, so it cannot be archived with the bot"
                )
        return cls(folder, Path(manifest).as_posix(), Path(workdir).as_posix())


def relative_spec(spec: BotSpec, layout: Layout) -> dict[str, Any]:
    """The spec as the store keeps it: manifest and workdir relative to the copy's entry
    (the tree hash is the store's column, not part of the kept spec)."""
    data = {**spec.to_json(), "manifest": layout.manifest, "workdir": layout.workdir}
    data.pop("tree_hash", None)
    return data


def make_read_only(root: Path) -> None:
    """Files 0444 (0555 when executable), folders 0555, bottom up; links as they are."""
    for folder, dirs, files in os.walk(root, topdown=False):
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                executable = os.stat(path).st_mode & stat.S_IXUSR
                os.chmod(path, 0o555 if executable else 0o444)
        for name in dirs:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                os.chmod(path, 0o555)
    os.chmod(root, 0o555)


def remove_tree(path: Path) -> None:
    """Remove a (read-only) copy or staging folder; nothing if it is gone."""
    if not os.path.lexists(path):
        return
    for folder, dirs, _ in os.walk(path):
        for name in dirs:
            with contextlib.suppress(OSError):
                child = os.path.join(folder, name)
                if not os.path.islink(child):
                    os.chmod(child, 0o700)
    with contextlib.suppress(OSError):
        os.chmod(path, 0o700)
    shutil.rmtree(path, ignore_errors=True)


def _copy_tree(source: Path, target: Path, skip: Path | None) -> None:
    """Copy the bot folder `source` to the new folder `target` as tree_entries sees it."""
    skip_real = os.path.realpath(skip) if skip is not None else None
    target.mkdir()
    for entry in sorted(os.scandir(source), key=lambda e: e.name):
        to = target / entry.name
        info = entry.stat(follow_symlinks=False)
        if stat.S_ISLNK(info.st_mode):
            os.symlink(os.readlink(entry.path), to)
        elif stat.S_ISDIR(info.st_mode):
            if entry.name in IGNORED_FOLDERS or os.path.realpath(entry.path) == skip_real:
                continue
            _copy_tree(Path(entry.path), to, skip)
        elif stat.S_ISREG(info.st_mode):
            shutil.copyfile(entry.path, to, follow_symlinks=False)
            if info.st_mode & stat.S_IXUSR:
                os.chmod(to, 0o755)
        else:
            raise ArchiveError(
                f"{entry.path}: a {_kind(info.st_mode)} in the bot's folder; a bot's folder "
                "may hold only files, folders and symbolic links"
            )


def _resolved(stored: dict[str, Any], entry: Path, digest: str | None = None) -> BotSpec:
    """The spec kept relative to a copy (`stored`), made to run the copy in `entry`
    (ArchiveError if its paths lead out of the copy); `digest`: the tree hash of the copy
    when `entry` is its archive folder, named by it (BotSpec.tree_hash)."""
    paths = {}
    for key in ("manifest", "workdir"):
        rel = stored.get(key)
        if not isinstance(rel, str) or os.path.isabs(rel) or ".." in Path(rel).parts:
            raise ArchiveError(
                f"the store keeps a bot's {key} outside its copy: {shown(str(rel)[:200])}"
            )
        paths[key] = rel
    return replace(
        BotSpec.from_json(stored),
        manifest=str(entry / paths["manifest"]),
        workdir=os.path.normpath(entry / paths["workdir"]),
        tree_hash=digest,
    )


@dataclass(frozen=True)
class ArchivedBot:
    """A bot whose folder is copied into the archive (or its staging area): `spec` runs
    the copy, `digest` is the copy's tree hash, `stored` the spec as the store keeps it."""

    spec: BotSpec
    digest: str
    stored: dict[str, Any]
    entry: Path  # the folder holding the copy (staging or the archive entry)


class BotArchive:
    """The content-addressed archive of one league store (see the module docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @classmethod
    def of_store(cls, store_path: Path) -> BotArchive:
        return cls(archive_path(store_path))

    def entry(self, digest: str) -> Path:
        """The folder of the copy `digest` (ArchiveError for anything but a sha256 in hex:
        a store from elsewhere may hold any text)."""
        if not _HEX64.fullmatch(digest):
            raise ArchiveError(f"the store names a bot copy {shown(digest[:80])}: not a tree hash")
        return self.root / digest

    def resolve(self, stored: dict[str, Any], digest: str) -> BotSpec:
        """The spec that runs the archived copy `digest`, from the store's relative one."""
        return _resolved(stored, self.entry(digest), digest)

    # --- copying in ----------------------------------------------------------------------

    def stage(self, spec: BotSpec) -> ArchivedBot:
        """Copy the bot's folder into the staging area and hash the copy (ArchiveError if
        the folder cannot be archived). :meth:`commit` then moves it into the archive."""
        layout = Layout.of(spec)
        staging = self.root / STAGING
        try:
            staging.mkdir(parents=True, exist_ok=True)
            entry = Path(tempfile.mkdtemp(prefix=f"copy-{os.getpid()}-", dir=staging))
        except OSError as error:
            raise self._write_error(error, spec) from None
        try:
            entry.chmod(0o755)
            _copy_tree(layout.folder, entry / layout.folder.name, skip=self.root)
            copy = entry / layout.folder.name
            digest = tree_hash(tree_entries(copy))
            make_read_only(copy)
        except OSError as error:
            remove_tree(entry)
            raise self._write_error(error, spec) from None
        except BaseException:
            remove_tree(entry)
            raise
        stored = relative_spec(spec, layout)
        return ArchivedBot(_resolved(stored, entry), digest, stored, entry)

    def _write_error(self, error: OSError, spec: BotSpec) -> ArchiveError:
        """A copy that could not be written, in one line."""
        store = self.root.with_name(self.root.name.removesuffix(ARCHIVE_SUFFIX))
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            return ArchiveError(
                f"{self.root}: the disk is full: no space is left to archive bot "
                f"{spec.key}; free space there and run this again"
            )
        if error.errno == errno.EROFS:
            return ArchiveError(
                f"{store}: its file system is read-only ({error.strerror}); registering a "
                f"bot copies its folder into {self.root.name} beside the store: mount the "
                "file system read-write, or copy the store to a writable folder"
            )
        return ArchiveError(f"cannot archive bot {spec.key}: {error.strerror}")

    def staged(self, spec: BotSpec) -> ArchivedBot | None:
        """The staged copy `spec` runs (as :meth:`stage` made it), or None if it runs
        something else."""
        if not spec.manifest:
            return None
        staging = (self.root / STAGING).resolve()
        manifest = Path(spec.manifest).resolve()
        if staging not in manifest.parents:
            return None
        entry = staging / manifest.relative_to(staging).parts[0]
        layout = Layout.of(spec)
        copy = entry / layout.folder.name
        digest = tree_hash(tree_entries(copy))
        stored = {
            **spec.to_json(),
            "manifest": manifest.relative_to(entry).as_posix(),
            "workdir": os.path.relpath(Path(spec.workdir).resolve(), entry),
        }
        return ArchivedBot(spec, digest, stored, entry)

    def commit(self, bot: ArchivedBot) -> ArchivedBot:
        """Move a staged copy into the archive (or drop it when the archive holds that
        tree already): the bot as it runs from the archive."""
        target = self.entry(bot.digest)
        if bot.entry != target:
            if target.is_dir():
                remove_tree(bot.entry)
            else:
                bot.entry.chmod(0o555)
                os.replace(bot.entry, target)
        return ArchivedBot(self.resolve(bot.stored, bot.digest), bot.digest, bot.stored, target)

    def add(self, spec: BotSpec) -> ArchivedBot:
        """Archive a bot: its staged copy if `spec` runs one; nothing new if the archive
        holds its folder's tree already (another name for the same folder); else a new
        copy."""
        staged = self.staged(spec)
        if staged is None:
            digest, _ = live_tree(spec, self.root)
            if self.entry(digest).is_dir():
                stored = relative_spec(spec, Layout.of(spec))
                return ArchivedBot(self.resolve(stored, digest), digest, stored, self.entry(digest))
        return self.commit(staged or self.stage(spec))

    def discard(self, bot: ArchivedBot) -> None:
        """Drop a staged copy that is not to be registered."""
        if bot.entry.parent.name == STAGING:
            remove_tree(bot.entry)

    def sweep_staging(self) -> None:
        """Remove the staged copies of processes that are gone (killed mid-check)."""
        with contextlib.suppress(OSError), os.scandir(self.root / STAGING) as entries:
            for entry in entries:
                owner = entry.name.removeprefix("copy-").split("-", 1)[0]
                if not owner.isdigit() or not alive(int(owner)):
                    remove_tree(Path(entry.path))

    # --- checking ------------------------------------------------------------------------

    def entries(self, digest: str) -> list[Entry]:
        """The tree archived as `digest` (ArchiveError if it is missing)."""
        entry = self.entry(digest)
        folders = sorted(os.listdir(entry)) if entry.is_dir() else []
        if len(folders) != 1:
            raise ArchiveError(
                f"{entry}: the archived copy is missing; the store, its key and its archive "
                f"{self.root.name} travel together (docs/store.md)"
            )
        return tree_entries(entry / folders[0])

    def verify(self, digest: str, key: str) -> None:
        """ArchiveError (one line) unless the copy of `key` is there as registered."""
        entry = self.entry(digest)
        if not entry.is_dir():
            raise ArchiveError(
                f"the archived copy of bot {key} ({entry}) is missing; the store, its key and "
                f"its archive {self.root.name} travel together: restore them from the same "
                "backup (docs/store.md)"
            )
        try:
            found = self.entries(digest)
        except ArchiveError as error:
            raise ArchiveError(f"bot {key}: {error}") from None
        if tree_hash(found) != digest:
            raise ArchiveError(
                f"the archived copy of bot {key} ({entry}) was altered since it was "
                "registered; nothing of it runs: restore the store and its archive from the "
                "same backup (docs/store.md)"
            )


def live_tree(spec: BotSpec, archive: Path | None = None) -> tuple[str, list[Entry]]:
    """The tree hash and entries of the folder `spec` would run from now (no copy)."""
    layout = Layout.of(spec)
    entries = tree_entries(layout.folder, skip=archive)
    return tree_hash(entries), entries


@contextlib.contextmanager
def staged_copy(archive: BotArchive, spec: BotSpec) -> Iterator[ArchivedBot]:
    """A staged copy of the bot for the length of the block, dropped after it unless
    committed meanwhile."""
    bot = archive.stage(spec)
    try:
        yield bot
    finally:
        archive.discard(bot)
