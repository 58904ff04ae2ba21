"""Match seeds: the deal and every seat's ``seed_hint``, derived from a secret key.

A match is named by its league and its match seed (the seed a league's schedule gives
it). Under the league's secret key, its deal seed and each seat's seed hint are
HMAC-SHA256 values, each with its own domain label::

    deal seed        = HMAC(key, "bullring/deal/v1"      | league | seed)         52 bits
    seat's seed_hint = HMAC(key, "bullring/seed-hint/v1" | league | seed | seat)  63 bits

Every field is typed and length-prefixed, so no two identities encode alike. HMAC is a
pseudo-random function: without the key, a seed hint says nothing about the deal or about
another seat's hint, and one match's deal seed (a published replay shows it) says nothing
about any other match's deal. Two matches share a deal only when they share (league,
seed): the seatings of one deal of the ``duplicate`` format, by design.

The referee, :func:`sdk.play_local` and ``bullring bot check`` all derive seeds here, so
``play_local`` with a league's key, name and match seed reproduces that league's match.
Without a league (``bullring play``, ``play_local``'s default) the key is
:data:`LOCAL_KEY`, which is public: the bot can compute the deal, which is fine for an
author debugging their own bot and never for a competition.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

KEY_BYTES = 32
DEAL_SEED_BITS = 52  # exact in JSON and JavaScript numbers, like the schedule's seeds
SEED_HINT_BITS = 63  # a protobuf uint64 that is also a non-negative int64
LOCAL_KEY = hashlib.sha256(b"bullring/local-play-key/v1 (public: never for a league)").digest()
LOCAL_LEAGUE = "local"

_DEAL = b"bullring/deal/v1"
_SEED_HINT = b"bullring/seed-hint/v1"
_KEY_ID = b"bullring/key-id/v1"


def new_key() -> bytes:
    """A fresh secret key (32 random bytes from the operating system)."""
    return secrets.token_bytes(KEY_BYTES)


def _field(value: str | int) -> bytes:
    """A typed, length-prefixed field: ``s`` or ``i``, 4-byte length, UTF-8 text."""
    tag, text = (b"s", value) if isinstance(value, str) else (b"i", str(int(value)))
    data = text.encode()
    return tag + len(data).to_bytes(4, "big") + data


def _prf(key: bytes, label: bytes, *fields: str | int, bits: int) -> int:
    if len(key) != KEY_BYTES:
        raise ValueError(f"a seed key is {KEY_BYTES} bytes, not {len(key)}")
    message = _field(label.decode()) + b"".join(_field(f) for f in fields)
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - bits)


def deal_seed(key: bytes, league: str, seed: int) -> int:
    """The seed the engine deals match (`league`, `seed`) from."""
    return _prf(key, _DEAL, league, seed, bits=DEAL_SEED_BITS)


def seed_hint(key: bytes, league: str, seed: int, seat: int) -> int:
    """The ``seed_hint`` seat `seat` of match (`league`, `seed`) gets for its own randomness."""
    return _prf(key, _SEED_HINT, league, seed, seat, bits=SEED_HINT_BITS)


def key_id(key: bytes) -> str:
    """A public fingerprint of a key (16 hex digits): tells keys apart, reveals nothing."""
    return f"{_prf(key, _KEY_ID, bits=64):016x}"


@dataclass(frozen=True)
class MatchSeeds:
    """What one match is dealt from and what each seat is told: derived, never the key."""

    deal: int
    hints: tuple[int, ...]  # by seat

    def hint(self, seat: int) -> int:
        return self.hints[seat]


def match_seeds(key: bytes, league: str, seed: int, players: int) -> MatchSeeds:
    """The deal seed and every seat's seed hint of match (`league`, `seed`)."""
    return MatchSeeds(
        deal_seed(key, league, seed),
        tuple(seed_hint(key, league, seed, seat) for seat in range(players)),
    )


def local_seeds(seed: int, players: int) -> MatchSeeds:
    """The seeds of a match played without a league (public :data:`LOCAL_KEY`)."""
    return match_seeds(LOCAL_KEY, LOCAL_LEAGUE, seed, players)
