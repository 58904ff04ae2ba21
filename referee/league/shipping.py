"""Shipping archived bots to the nodes that play their matches, with no shared folder.

A league runs each bot from its archived copy (:mod:`referee.league.archive`): a folder
named by the copy's tree hash, holding the bot's folder. An executor whose workers run on
other machines (Ray) cannot count on that folder being there, so the league process
*packs* each archived tree once (:func:`pack_tree`: a tar of its folders, files and links,
modes as the tree hash sees them) and hands the bytes to the workers; a worker *unpacks*
a tree into its node's :class:`TreeCache` (once per node: a folder named by the tree
hash, laid out as the archive is), recomputes its tree hash with the archive's own
functions and refuses a tree whose hash differs from the one registered
(:class:`ShipmentError`, naming the bot and both hashes): nothing of it runs. The match's
bots are then pointed at the node's copy (:func:`localized`).

Two workers on one node may unpack the same tree at once: each unpacks into a folder of
its own under the cache's ``.staging/``, checks it, and renames it into place in one step;
the one that comes second drops its copy and uses the first. A copy is whole or absent.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import tarfile
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path, PurePosixPath

from referee.league.archive import (
    DIR_MODE,
    EXEC_MODE,
    LINK_MODE,
    STAGING,
    ArchiveError,
    BotArchive,
    make_read_only,
    remove_tree,
    tree_entries,
    tree_hash,
)
from referee.spec import BotSpec, MatchSpec
from sdk.errors import BullringError

CACHE_ENV = "BULLRING_BOT_CACHE"  # a node's bot cache, if not the default
ERRORS = "surrogateescape"  # file names as the OS gives them, any bytes


class ShipmentError(BullringError, RuntimeError):
    """An archived bot that could not be shipped to a node, or arrived altered."""


def default_cache_root() -> Path:
    """A node's bot cache when none is named: ``$BULLRING_BOT_CACHE``, else
    ``bullring-bots-<uid>`` in the system's temporary folder."""
    named = os.environ.get(CACHE_ENV)
    if named:
        return Path(named)
    return Path(tempfile.gettempdir()) / f"bullring-bots-{os.getuid()}"


def archived_entry(bot: BotSpec) -> Path:
    """The archive folder that `bot` runs from (its manifest's ancestor named by its tree
    hash); ShipmentError if it runs no archived copy."""
    if not bot.tree_hash or not bot.manifest:
        raise ShipmentError(f"bot {bot.key} runs no archived copy, so there is nothing to ship")
    for folder in Path(bot.manifest).parents:
        if folder.name == bot.tree_hash:
            return folder
    raise ShipmentError(
        f"bot {bot.key}: its manifest {bot.manifest} is not in an archive folder named by "
        f"its tree hash {bot.tree_hash}, so it cannot be shipped"
    )


def pack_tree(entry: Path) -> bytes:
    """The archived tree in the folder `entry` (the one folder inside it, as
    :func:`~referee.league.archive.tree_entries` sees it) as tar bytes; ArchiveError if
    it is missing or holds anything but folders, files and links."""
    folders = sorted(os.listdir(entry)) if entry.is_dir() else []
    if len(folders) != 1:
        raise ArchiveError(f"{entry}: the archived copy is missing, so it cannot be shipped")
    root = entry / folders[0]
    buffer = io.BytesIO()
    with tarfile.open(
        fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT, encoding="utf-8", errors=ERRORS
    ) as tar:
        tar.addfile(_info(folders[0], tarfile.DIRTYPE, 0o755))
        for item in tree_entries(root):
            path = entry / item.path
            if item.mode == DIR_MODE:
                tar.addfile(_info(item.path, tarfile.DIRTYPE, 0o755))
            elif item.mode == LINK_MODE:
                info = _info(item.path, tarfile.SYMTYPE, 0o777)
                info.linkname = os.readlink(path)
                tar.addfile(info)
            else:
                data = path.read_bytes()
                info = _info(item.path, tarfile.REGTYPE, 0o755 if item.mode == EXEC_MODE else 0o644)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _info(name: str, kind: bytes, mode: int) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.mtime = kind, mode, 0
    return info


def unpack_tree(blob: bytes, into: Path) -> Path:
    """Unpack :func:`pack_tree`'s bytes into the empty folder `into`; the bot's folder
    made there. ShipmentError for anything pack_tree does not make: a path that leads
    out of the tree or through a link, a second root, an entry twice, a kind of file
    other than folders, files and links."""
    made: set[str] = set()
    folders: set[str] = set()
    root: str | None = None
    try:
        with tarfile.open(
            fileobj=io.BytesIO(blob), mode="r:", encoding="utf-8", errors=ERRORS
        ) as tar:
            for member in tar:
                name = _checked_name(member.name)
                parent = str(PurePosixPath(name).parent)
                if root is None:
                    if not member.isdir() or "/" in name:
                        raise ShipmentError("a shipped bot tree must begin with its folder")
                    root = name
                elif parent not in folders:  # never through a link, never out of the tree
                    raise ShipmentError(f"a shipped bot tree holds {name!r} outside its folders")
                if name in made:
                    raise ShipmentError(f"a shipped bot tree holds {name!r} twice")
                made.add(name)
                path = into / name
                if member.isdir():
                    path.mkdir(mode=0o755)
                    folders.add(name)
                elif member.issym():
                    os.symlink(member.linkname, path)
                elif member.isreg():
                    source = tar.extractfile(member)
                    assert source is not None  # a regular file's contents
                    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                    mode = 0o755 if member.mode & stat.S_IXUSR else 0o644
                    with os.fdopen(os.open(path, flags, mode), "wb") as file:
                        while chunk := source.read(1 << 20):
                            file.write(chunk)
                    os.chmod(path, mode)  # whatever the umask took away
                else:
                    raise ShipmentError(f"a shipped bot tree holds {name!r}: not a file")
    except tarfile.TarError as error:
        raise ShipmentError(f"a shipped bot tree does not unpack: {error}") from None
    if root is None:
        raise ShipmentError("a shipped bot tree is empty")
    return into / root


def _checked_name(name: str) -> str:
    path = PurePosixPath(name)
    if path.is_absolute() or not path.parts or any(p in ("..", ".", "") for p in path.parts):
        raise ShipmentError(f"a shipped bot tree names {name!r}: not a path inside it")
    return str(path)


class TreeCache:
    """A node's copies of shipped bot trees: ``ROOT/<tree hash>/<bot folder>/...``, the
    archive's layout (so a copy is read as :class:`BotArchive` reads one). Each tree is
    checked against its hash once per cache object (a worker keeps one), whether this
    worker unpacked it or found it there."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.archive = BotArchive(root)
        self.checked: set[str] = set()
        self._prepared = False

    def prepare(self) -> None:
        """Make the cache folder (this user's only), and sweep the staging folders of
        workers that died unpacking; ShipmentError if it is someone else's or others may
        write to it (a folder in /tmp could have been made by anyone)."""
        if self._prepared:
            return
        try:
            self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
            info = self.root.stat()
        except OSError as error:
            raise ShipmentError(
                f"cannot make the bot cache {self.root}: {error.strerror}"
            ) from None
        if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            raise ShipmentError(
                f"the bot cache {self.root} belongs to another user or others may write to "
                f"it; remove it, or name another folder in {CACHE_ENV}"
            )
        self.archive.sweep_staging()
        self._prepared = True

    def entry(self, bot: BotSpec, fetch: Callable[[], bytes]) -> Path:
        """The folder of this node's checked copy of `bot`'s tree: the one here, else the
        bytes `fetch` gives, unpacked and checked. ShipmentError if the bytes are not the
        tree registered (nothing of them is kept) or cannot be unpacked here."""
        digest = bot.tree_hash
        if digest is None:
            raise ShipmentError(f"bot {bot.key} runs no archived copy, so there is nothing to ship")
        target = self.archive.entry(digest)
        if digest in self.checked and target.is_dir():
            return target
        self.prepare()  # first: a copy in a folder others may write could change after
        held = self._holds(digest)
        if held:
            return target
        if held is False:  # altered since it was unpacked: unpack it again
            remove_tree(target)
        try:
            staging = Path(tempfile.mkdtemp(prefix=f"copy-{os.getpid()}-", dir=self._staging()))
        except OSError as error:
            why = error.strerror
            raise ShipmentError(f"cannot unpack bot {bot.key} in {self.root}: {why}") from None
        try:
            folder = unpack_tree(fetch(), staging)
            found = tree_hash(tree_entries(folder))
            if found != digest:
                raise ShipmentError(
                    f"bot {bot.key}: the copy shipped to this node has tree hash {found}, "
                    f"not {digest} as registered; nothing of it runs"
                )
            make_read_only(folder)
            staging.chmod(0o555)
            try:
                os.rename(staging, target)
            except OSError:  # another worker of this node put it there first: use that
                if not self._holds(digest):
                    raise
            self.checked.add(digest)
            return target
        except OSError as error:
            raise ShipmentError(
                f"cannot unpack bot {bot.key} in {self.root}: {error.strerror or error}"
            ) from None
        finally:
            remove_tree(staging)  # gone if it was renamed into place

    def _holds(self, digest: str) -> bool | None:
        """Whether the cache holds the tree `digest` as it should (then noted as checked):
        None if it holds no copy of it, False if its copy is altered. (An absent copy is
        never removed: another worker may put it there meanwhile.)"""
        if not self.archive.entry(digest).is_dir():
            return None
        with contextlib.suppress(ArchiveError):
            if tree_hash(self.archive.entries(digest)) == digest:
                self.checked.add(digest)
                return True
        return False

    def _staging(self) -> Path:
        staging = self.root / STAGING
        staging.mkdir(mode=0o700, exist_ok=True)
        return staging


def localized(spec: MatchSpec, entries: Mapping[str, Path]) -> MatchSpec:
    """`spec` with each archived bot pointed at the copy of its tree in `entries` (tree
    hash -> the copy's folder on this node); other bots as they are."""
    return replace(
        spec,
        bots=tuple(
            bot if bot.tree_hash is None else relocated(bot, entries[bot.tree_hash])
            for bot in spec.bots
        ),
    )


def relocated(bot: BotSpec, entry: Path) -> BotSpec:
    """`bot` run from the copy of its archived tree in the folder `entry`: its manifest
    and workdir at the same places inside it."""
    source = archived_entry(bot)
    assert bot.manifest is not None  # archived_entry found its folder through it
    moved = {}
    for key, path in (("manifest", bot.manifest), ("workdir", bot.workdir)):
        inside = os.path.relpath(os.path.normpath(path), source)
        if inside == ".." or inside.startswith("../") or os.path.isabs(inside):
            raise ShipmentError(f"bot {bot.key}: its {key} {path} is outside its archived copy")
        moved[key] = os.path.normpath(entry / inside)
    return replace(bot, manifest=moved["manifest"], workdir=moved["workdir"])
