"""Uploads: a bot folder packed by its author (tar.gz or zip), unpacked here under caps,
then its manifest read as TOML only: nothing uploaded runs outside the sandbox.

Refused, each with one sentence: a pack over the packed size; an archive of another kind;
absolute paths, ``..``, names with control characters or repeated; symbolic and hard
links, devices, FIFOs; set-uid and set-gid bits; more files, more depth, more unpacked
bytes or a higher compression ratio than the caps allow (counted as the bytes come out,
never from the headers alone); a folder without ``bot.toml`` at its top; a manifest that
``bot.toml`` rules refuse, or one whose text holds control characters.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import tarfile
import tomllib
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from arena.config import Caps
from referee.bots.manifest import MANIFEST_NAME, ManifestError, manifest_from_dict
from referee.league.archive import IGNORED_FOLDERS, shown
from referee.spec import BotSpec
from sdk.errors import BullringError

CHUNK = 1 << 16
MIB = 1 << 20


class UploadRefused(BullringError, ValueError):
    """An upload that is refused; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _mb(size: int) -> str:
    return f"{size / MIB:.1f} MiB"


# --- packing (the author's side) ---------------------------------------------------------


@dataclass
class Packed:
    data: bytes
    files: int
    unpacked: int
    left_out: list[str]


def pack(folder: Path, caps: Caps | None = None) -> Packed:
    """The folder as a tar.gz of its contents (``__pycache__`` and symbolic links left
    out: an upload holds neither). UploadRefused, with the figures, when it is over
    `caps` or holds what no upload may (a device, a FIFO)."""
    caps = caps or Caps()
    if not (folder / MANIFEST_NAME).is_file():
        raise UploadRefused(f"{folder}: no {MANIFEST_NAME} at the top of the folder")
    buffer = io.BytesIO()
    files, unpacked, left_out = 0, 0, []
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=6) as tar:
        for path in _walk(folder):
            rel = path.relative_to(folder).as_posix()
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                left_out.append(rel)
                continue
            if not (stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode)):
                raise UploadRefused(f"{folder}: {shown(rel)} is not a file or a folder")
            entry = tar.gettarinfo(str(path), arcname=rel)
            entry.uid = entry.gid = 0
            entry.uname = entry.gname = ""
            entry.mode &= 0o755
            files += 1
            unpacked += entry.size
            if stat.S_ISREG(info.st_mode):
                with path.open("rb") as file:
                    tar.addfile(entry, file)
            else:
                tar.addfile(entry)
    data = buffer.getvalue()
    over = []
    if len(data) > caps.packed_bytes:
        over.append(f"packed {_mb(len(data))} > {_mb(caps.packed_bytes)}")
    if unpacked > caps.unpacked_bytes:
        over.append(f"unpacked {_mb(unpacked)} > {_mb(caps.unpacked_bytes)}")
    if files > caps.files:
        over.append(f"{files} files > {caps.files}")
    if over:
        raise UploadRefused(f"{folder} is over the arena's caps: {', '.join(over)}", 413)
    return Packed(data, files, unpacked, left_out)


def _walk(folder: Path) -> Iterator[Path]:
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        path = Path(entry.path)
        yield path
        if entry.is_dir(follow_symlinks=False) and entry.name not in IGNORED_FOLDERS:
            yield from _walk(path)
        elif entry.is_dir(follow_symlinks=False):
            continue


# --- unpacking (the server's side) -------------------------------------------------------


class _Budget:
    """What is unpacked so far, against the caps."""

    def __init__(self, caps: Caps, packed: int) -> None:
        self.caps = caps
        self.packed = max(packed, 1)
        self.files = 0
        self.bytes = 0
        self.names: set[str] = set()

    def entry(self, name: str) -> str:
        """Check a member's name; return it as a relative path."""
        if not name or "\\" in name or any(not ch.isprintable() for ch in name):
            raise UploadRefused(f"the upload holds a file name with control characters: {name!r}")
        clean = name.rstrip("/")
        if clean.startswith("/") or os.path.isabs(clean):
            raise UploadRefused(f"the upload holds an absolute path: {shown(name)}")
        parts = clean.split("/")
        if ".." in parts:
            raise UploadRefused(f"the upload holds a path that climbs out with '..': {shown(name)}")
        parts = [p for p in parts if p not in ("", ".")]
        if not parts:
            return ""
        if len(parts) > self.caps.depth:
            raise UploadRefused(
                f"the upload is deeper than the cap of {self.caps.depth} folders", 413
            )
        rel = "/".join(parts)
        if rel in self.names:
            raise UploadRefused(f"the upload holds {shown(rel)} twice")
        self.names.add(rel)
        self.files += 1
        if self.files > self.caps.files:
            raise UploadRefused(f"the upload holds more than {self.caps.files} files", 413)
        return rel

    def grow(self, size: int) -> None:
        self.bytes += size
        if self.bytes > self.caps.unpacked_bytes:
            raise UploadRefused(
                f"the upload unpacks to more than {_mb(self.caps.unpacked_bytes)}", 413
            )
        if self.bytes > self.caps.ratio * self.packed and self.bytes > MIB:
            raise UploadRefused(
                f"the upload unpacks to more than {self.caps.ratio} times its packed size "
                "(a compression bomb?)",
                413,
            )


def _mode_problem(mode: int, name: str) -> None:
    if mode & (stat.S_ISUID | stat.S_ISGID):
        raise UploadRefused(f"the upload holds a set-uid or set-gid file: {shown(name)}")


def _write(source: IO[bytes], target: Path, budget: _Budget, executable: bool) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("xb") as out:
        while chunk := source.read(CHUNK):
            budget.grow(len(chunk))
            out.write(chunk)
    target.chmod(0o755 if executable else 0o644)


def unpack(packed: Path, target: Path, caps: Caps) -> None:
    """Unpack the upload `packed` (tar.gz or zip) into the new folder `target`
    (UploadRefused, with `target` left for the caller to remove)."""
    size = packed.stat().st_size
    if size > caps.packed_bytes:
        raise UploadRefused(f"the upload is over the cap of {_mb(caps.packed_bytes)} packed", 413)
    with packed.open("rb") as file:
        magic = file.read(4)
    target.mkdir(parents=True)
    budget = _Budget(caps, size)
    if magic[:2] == b"\x1f\x8b":
        _untar(packed, target, budget)
    elif magic == b"PK\x03\x04" or magic == b"PK\x05\x06":
        _unzip(packed, target, budget)
    else:
        raise UploadRefused("the upload is neither a tar.gz nor a zip file", 415)


def _disk_full(error: BaseException) -> None:
    """Raise `error` again if it is the server's disk being full (not the upload's fault)."""
    if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
        raise error


def _untar(packed: Path, target: Path, budget: _Budget) -> None:
    try:
        with tarfile.open(packed, mode="r|gz") as tar:
            for member in tar:
                rel = budget.entry(member.name)
                _mode_problem(member.mode, member.name)
                if member.issym() or member.islnk():
                    raise UploadRefused(
                        f"the upload holds a link ({shown(member.name)}): uploads hold "
                        "only files and folders"
                    )
                if not (member.isdir() or member.isreg()):
                    raise UploadRefused(
                        f"the upload holds a device, FIFO or other special file: "
                        f"{shown(member.name)}"
                    )
                if not rel:
                    continue
                if member.isdir():
                    (target / rel).mkdir(parents=True, exist_ok=True)
                    continue
                budget.grow(0)
                if member.size > budget.caps.unpacked_bytes:
                    raise UploadRefused(
                        f"the upload unpacks to more than {_mb(budget.caps.unpacked_bytes)}", 413
                    )
                source = tar.extractfile(member)
                assert source is not None
                _write(source, target / rel, budget, bool(member.mode & 0o100))
    except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
        _disk_full(error)
        raise UploadRefused(f"the upload is not a readable tar.gz ({error})") from None


def _unzip(packed: Path, target: Path, budget: _Budget) -> None:
    try:
        with zipfile.ZipFile(packed) as archive:
            for info in archive.infolist():
                rel = budget.entry(info.filename)
                mode = info.external_attr >> 16
                _mode_problem(mode, info.filename)
                kind = stat.S_IFMT(mode)
                if kind == stat.S_IFLNK:
                    raise UploadRefused(
                        f"the upload holds a link ({shown(info.filename)}): uploads hold "
                        "only files and folders"
                    )
                if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
                    raise UploadRefused(
                        f"the upload holds a device, FIFO or other special file: "
                        f"{shown(info.filename)}"
                    )
                if not rel:
                    continue
                if info.is_dir():
                    (target / rel).mkdir(parents=True, exist_ok=True)
                    continue
                with archive.open(info) as source:
                    _write(source, target / rel, budget, bool(mode & 0o100))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, zlib.error) as error:
        _disk_full(error)
        raise UploadRefused(f"the upload is not a readable zip file ({error})") from None


# --- the manifest ------------------------------------------------------------------------


def _control_problem(value: Any, where: str) -> None:
    if isinstance(value, str):
        if any(not ch.isprintable() for ch in value):
            raise UploadRefused(f"bot.toml: field {where} holds control characters")
    elif isinstance(value, list):
        for item in value:
            _control_problem(item, where)
    elif isinstance(value, dict):
        for key, item in value.items():
            _control_problem(key, where)
            _control_problem(item, f"{where}.{key}" if isinstance(key, str) else where)


def read_manifest(folder: Path) -> BotSpec:
    """The unpacked bot's manifest, read as TOML only (UploadRefused with the reason,
    naming ``bot.toml`` and never a path of this server)."""
    file = folder / MANIFEST_NAME
    if not file.is_file():
        raise UploadRefused(f"the upload has no {MANIFEST_NAME} at its top")
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise UploadRefused(f"bot.toml: not valid TOML: {error}") from None
    for key, value in data.items():
        _control_problem(value, key)
    try:
        spec = manifest_from_dict(data, file)
    except ManifestError as error:
        raise UploadRefused(str(error).replace(str(file), MANIFEST_NAME)) from None
    workdir = Path(spec.workdir)
    if workdir != folder.resolve() and folder.resolve() not in workdir.parents:
        raise UploadRefused("bot.toml: field 'workdir' must stay inside the bot's folder")
    return spec
