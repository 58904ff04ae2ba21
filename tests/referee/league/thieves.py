"""A league of deal thieves (tests/referee/bad_bots/deal_thief.py) and what to check after
it: that no thief found a deal or predicted hands better than chance, and that the league
key was on no command line and in no environment any thief could read."""

from __future__ import annotations

import base64
import json
import math
import os
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.league.keyfile import key_path
from referee.league.store import LeagueStore
from referee.replay.model import Replay
from referee.replay.resimulate import new_state
from tests.referee.bad_bots.deal_recovery import hands
from tests.referee.helpers import bad_bots_copy

THIEF_MODULE = "tests.referee.bad_bots.deal_thief"
HAND = 10  # 6nimmt:rounds=1
UNSEEN = 104 - HAND - 4  # what a seat cannot see at the deal: all but its hand and the rows
FALSE_ALARM = 1e-9  # the chance that a fair run fails the bound


def report_folder(folder: Path) -> Path:
    """Where thieves report: a folder every bot uid may write (and the sandbox lets them:
    see :func:`thief_sandbox`)."""
    out = folder / "reports"
    out.mkdir()
    out.chmod(0o777)
    return out


def thief_sandbox(out: Path) -> str:
    """The league file's [sandbox] table that lets thieves write their reports."""
    return f'[sandbox]\nwritable = ["{out}"]\n'


def thief_manifest(folder: Path, out: Path) -> Path:
    """A manifest of the thief that reports to `out`, in a copy of the bots' code (a
    sandboxed bot sees its manifest's folder, not the checkout)."""
    manifest = bad_bots_copy(folder) / "thief.toml"
    manifest.write_text(
        'name = "deal_thief"\nversion = "1"\n'
        f'command = ["{{python}}", "-m", "{THIEF_MODULE}"]\nworkdir = "../../.."\n'
        f'[env]\nTHIEF_DIR = "{out}"\n'
    )
    return manifest


def thief_league(folder: Path, games: int, parallel: int, name: str = "heist") -> Path:
    """A league file of four thieves at 6nimmt:rounds=1 (one set of four: `games`
    matches) whose store already has a key made from a seeded generator."""
    out = report_folder(folder)
    manifest = thief_manifest(folder, out)
    bots = "".join(f'[[bots]]\nmanifest = "{manifest}"\nname = "t{n}"\n\n' for n in range(4))
    file = folder / f"{name}.toml"
    file.write_text(
        f'[league]\nname = "{name}"\nseed = 3\nseats = 4\ngames = {games}\n'
        f'parallel = {parallel}\nstore = "{name}.sqlite"\n\n'
        "[clock]\ndecision_ms = 10000\ntime_bank_ms = 30000\nsetup_ms = 30000\n\n"
        '[[variants]]\nid = "6nimmt"\noptions = { rounds = 1 }\n\n' + thief_sandbox(out) + bots
    )
    key = random.Random(f"{name}:{games}").randbytes(32)
    fd = os.open(key_path(folder / f"{name}.sqlite"), os.O_WRONLY | os.O_CREAT, 0o600)
    with os.fdopen(fd, "w") as written:
        written.write(key.hex() + "\n")
    return file


def league_key(store: Path) -> bytes:
    return bytes.fromhex(key_path(store).read_text())


def reports(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.open()]


def upper_bound(n: int, p: float, alpha: float = FALSE_ALARM) -> int:
    """The least b with P(X >= b) <= alpha for X ~ Binomial(n, p)."""
    tail, b = 0.0, n
    while b >= 0:
        tail += math.comb(n, b) * p**b * (1 - p) ** (n - b)
        if tail > alpha:
            return b + 1
        b -= 1
    return 0


@dataclass(frozen=True)
class Verdict:
    predictions: int  # (thief, match) pairs
    found: int  # deals the thieves claim they found
    hits: int  # opponents' cards predicted right
    guesses: int  # opponents' cards predicted
    bound: int  # the most hits chance explains (FALSE_ALARM)
    least_tried: int  # the fewest candidate deals any attack tried


def judge(out: Path, replays: Mapping[str, Mapping[str, Any]]) -> Verdict:
    """Score every thief's prediction against the deal its match's replay re-deals."""
    records = reports(out)
    hits = guesses = 0
    for record in records:
        truth = hands(new_state(Replay.from_json(replays[record["match_id"]])))
        for seat, cards in record["hands"].items():
            assert len(cards) == HAND
            hits += len(set(cards) & set(truth[int(seat)]))
            guesses += len(cards)
    found = sum(1 for r in records if r["found"])
    bound = upper_bound(guesses, HAND / UNSEEN)
    least = min((r["tried"] for r in records), default=0)
    return Verdict(len(records), found, hits, guesses, bound, least)


def store_replays(store: Path) -> dict[str, dict[str, Any]]:
    """Every finished match's replay in a league store, by match id."""
    with LeagueStore.open_readonly(store) as db:
        found = {m.match_id: db.replay(m.match_id) for m in db.matches(status="finished")}
    return {match_id: replay for match_id, replay in found.items() if replay is not None}


def leaked_key_forms(key: bytes) -> list[bytes]:
    """The key as it could appear on a command line or in an environment."""
    return [
        key,
        key.hex().encode(),
        key.hex().upper().encode(),
        base64.b64encode(key).rstrip(b"="),
        base64.urlsafe_b64encode(key).rstrip(b"="),
    ]


def seen_by_thieves(out: Path) -> list[bytes]:
    """What each thief process read: its environment, its folder and its ancestors'
    command lines and environments."""
    return [f.read_bytes() for f in sorted(out.glob("*.seen"))]
