"""The league's secret key: made once, kept in a mode-0600 file beside the store.

Every deal and seed hint of a league derives from this key (sdk/seeding.py). The file
``<store>.key`` (``demo/league.sqlite.key``) holds it as 64 hex digits. It is never
written to the store (which keeps only its public fingerprint, ``key_id`` in ``meta``),
the site, a command line or an environment: the league process reads it and sends
workers only the seeds it derives for each match.

* A store without a recorded key (new, or made before keys existed) adopts the key file
  if there is one (the operator's copy, to reproduce a league in a new store), else a new
  key is made.
* A store with a recorded key needs that key file: a missing one is an error (restore it
  from a backup), unless the operator asks for a new key (``league run --new-key``):
  finished matches keep their results and replays, unplayed ones get new deals.

The league runner reads the key with :func:`load_key` before it writes to the store, then
records its fingerprint with :func:`record_key_id`.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from referee.league.store import LeagueStore
from sdk.errors import BullringError
from sdk.seeding import KEY_BYTES, key_id, new_key

KEY_SUFFIX = ".key"
META_KEY_ID = "key_id"
KEY_MODE = 0o600


class LeagueKeyError(BullringError, RuntimeError):
    """The league's key file is missing, unreadable, too open or from another league."""


def key_path(store_path: Path) -> Path:
    """Where the key of the league stored at `store_path` is kept."""
    return store_path.with_name(store_path.name + KEY_SUFFIX)


def read_key(path: Path) -> bytes:
    """The key in `path`; LeagueKeyError if the file is readable by others or malformed."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise LeagueKeyError(f"cannot read the league key {path}: {error}") from None
    if mode & 0o077:
        raise LeagueKeyError(
            f"the league key {path} is open to other users (mode {mode:04o}): chmod 600 {path}"
        )
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise LeagueKeyError(f"{path} is not a league key ({2 * KEY_BYTES} hex digits)")
    return key


def write_new_key(path: Path) -> bytes:
    """Make a new key in a new file `path`: written whole to a private temporary file
    (mode 0600 from the start, flushed to disk), then linked to its name, so a crash never
    leaves half a key and an existing key is never overwritten."""
    key = new_key()
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, KEY_MODE)
        try:
            os.fchmod(fd, KEY_MODE)  # whatever the umask
            os.write(fd, (key.hex() + "\n").encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.link(temporary, path)
    except OSError as error:
        raise LeagueKeyError(f"cannot create the league key {path}: {error}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    with contextlib.suppress(OSError):  # the new name too survives a crash
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    return key


def recorded_key_id(store_path: Path) -> str | None:
    """The fingerprint of the key a store was dealt with (None: no store, or no key yet)."""
    if not store_path.is_file():
        return None
    with LeagueStore.open_readonly(store_path) as store:
        return store.meta().get(META_KEY_ID)


def load_key(store_path: Path, recorded: str | None, new: bool = False) -> bytes:
    """The key of the league stored at `store_path`, whose recorded key fingerprint is
    `recorded` (see the module docstring); makes the key file when there is none to use.
    `new`: replace a lost key by a new one."""
    path = key_path(store_path)
    if path.exists():
        if new:
            raise LeagueKeyError(
                f"--new-key: {path} exists; a new key replaces only a lost one (move the "
                "file away first if you mean it)"
            )
        key = read_key(path)
        if recorded is not None and key_id(key) != recorded:
            raise LeagueKeyError(
                f"the league key {path} (id {key_id(key)}) is not the key of {store_path} "
                f"(id {recorded}): restore the right key file"
            )
        return key
    if recorded is not None and not new:
        raise LeagueKeyError(
            f"the league key {path} (id {recorded}) is missing: restore it from your backup, "
            "or run with --new-key to deal the unplayed matches from a new key"
        )
    return write_new_key(path)


def record_key_id(store: LeagueStore, key: bytes) -> None:
    """Record `key`'s public fingerprint in the store's ``meta`` (if it is not there)."""
    if store.meta().get(META_KEY_ID) != key_id(key):
        with store.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (META_KEY_ID, key_id(key))
            )
