"""The deal-recovery attack: re-derive a match's deal from what a bot is given, with the SDK.

A bot knows its StartMatch (match id, seat, players, clock, ``seed_hint``), its views, its
environment, its command line, its own folder, and whatever its ancestors show in
``/proc`` (their command lines and environments, as ``ps`` does). From these it gathers
candidate match seeds (small integers, every number it saw, seeds near its hint, seeds
whose old-style hint equals its own, the exact inverse of the old ``play_local`` hint),
candidate keys (the public local key, anything that looks like a 32-byte key) and
candidate league names (from the match id), deals each candidate deal seed with the
SDK's engine and keeps the one whose hand for its seat is the hand it holds. Found, it
knows every opponent's hand; not found, it guesses them at random from the unseen cards.

Reading files outside its own folder (the league key beside the store) is not tried
here: keeping a bot away from them is the sandbox's job, tested there.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import os
import random
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from sdk.game import GameState, new_game
from sdk.match import MatchInfo
from sdk.seeding import KEY_BYTES, LOCAL_KEY, LOCAL_LEAGUE, deal_seed, seed_hint

# The attack's work is fixed by counts (the same on a loaded machine); a wall-clock budget
# only caps it so that the bot still answers in time.
SMALL_SEEDS = 4096  # every seed below this is tried as a match seed
BRUTE_FORCE = 20_000  # seeds whose old-style hint is compared with the bot's own
NEAR_HINT = 64  # seeds this close to the hint are tried
ANCESTORS = 12  # /proc levels read above the bot's own process
MAX_TEXT = 1 << 16  # bytes read from any one file
MAX_CANDIDATES = 3000  # deals dealt and compared at most (after the exact hint matches)
_INT = re.compile(r"(?<![0-9])[0-9]{1,20}(?![0-9])")
_HEX_KEY = re.compile(r"(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])")
_B64_KEY = re.compile(r"[A-Za-z0-9+/_-]{43}=?")


def legacy_referee_hint(seed: int, seat: int) -> int:
    """The referee's seed hint before keyed seeds (the deal was ``new_game(seed)``)."""
    return random.Random(f"bullring:{seed}:{seat}").getrandbits(63)


def legacy_local_hint(seed: int, seat: int) -> int:
    """``play_local``'s seed hint before keyed seeds."""
    return (seed * 1_000_003 + seat * 7_919) % 2**64


def invert_legacy_local_hint(hint: int, seat: int) -> int:
    """The seed whose old ``play_local`` hint is `hint` (exact: the map is invertible)."""
    return ((hint - seat * 7_919) * pow(1_000_003, -1, 2**64)) % 2**64


def _read(path: Path) -> bytes:
    with contextlib.suppress(OSError), path.open("rb") as file:
        return file.read(MAX_TEXT)
    return b""


def harvest(workdir: Path | None = None) -> list[bytes]:
    """Everything a bot can read without leaving its own folder: its environment, its
    command line, the files of its folder, and its ancestors' command lines and
    environments (what ``ps`` shows)."""
    found = [f"{k}={v}".encode() for k, v in os.environ.items()]
    folder = workdir or Path.cwd()
    with contextlib.suppress(OSError):
        for path in sorted(folder.iterdir())[:200]:
            if path.is_file():
                found.append(_read(path))
    pid = os.getpid()
    for _ in range(ANCESTORS + 1):
        proc = Path("/proc") / str(pid)
        found += [_read(proc / "cmdline"), _read(proc / "environ")]
        try:
            stat = (proc / "stat").read_text()
            pid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
        if pid <= 1:
            break
    return [text for text in found if text]


def candidate_seeds(info: MatchInfo, texts: Iterable[bytes], budget_s: float) -> list[int]:
    """Match seeds worth trying, most likely first."""
    hint, seat = info.seed_hint, info.seat
    seeds: dict[int, None] = {}  # ordered set

    def add(values: Iterable[int]) -> None:
        for value in values:
            seeds.setdefault(value, None)

    add([invert_legacy_local_hint(hint, seat)])
    add(int(n) for n in _INT.findall(info.match_id))
    add([info.decision_ms, info.time_bank_ms, info.setup_ms, info.players, seat])
    for text in texts:
        add(int(n) for n in _INT.findall(text.decode("latin-1")))
    add(range(hint - NEAR_HINT, hint + NEAR_HINT + 1))
    add(range(SMALL_SEEDS))
    stop = time.monotonic() + budget_s
    for seed in range(BRUTE_FORCE):  # the old referee's hint, inverted by brute force
        if legacy_referee_hint(seed, seat) == hint:
            seeds = {seed: None, **seeds}
            break
        if seed % 1024 == 0 and time.monotonic() > stop:
            break  # a safety cap only
    return [s for s in seeds if s >= 0]


def candidate_keys(texts: Iterable[bytes]) -> list[bytes]:
    """The public local key and anything that looks like a 32-byte key."""
    keys = [LOCAL_KEY]
    for text in texts:
        if len(text) == KEY_BYTES:
            keys.append(text)
        decoded = text.decode("latin-1")
        keys += [bytes.fromhex(h) for h in _HEX_KEY.findall(decoded)]
        for b64 in _B64_KEY.findall(decoded):
            with contextlib.suppress(ValueError):
                raw = base64.b64decode(b64 + "=" * (-len(b64) % 4), altchars=b"-_")
                if len(raw) == KEY_BYTES:
                    keys.append(raw)
    return list(dict.fromkeys(keys))


def candidate_leagues(match_id: str) -> list[str]:
    """League names the match id suggests (``demo-000042`` -> ``demo``)."""
    names = [LOCAL_LEAGUE, match_id.rsplit("-", 1)[0], match_id, ""]
    return list(dict.fromkeys(names))


def candidate_deals(info: MatchInfo, texts: Sequence[bytes], budget_s: float) -> Iterator[int]:
    """Deal seeds to try: any candidate (key, league, seed) whose derived hint is the bot's
    own (then it is certainly the deal), the old scheme (the deal seed was the match
    seed), then every candidate (key, league, seed)."""
    stop = time.monotonic() + budget_s
    seeds = candidate_seeds(info, texts, budget_s / 2)
    pairs = list(itertools.product(candidate_keys(texts), candidate_leagues(info.match_id)))
    for key, league in pairs:
        for seed in seeds:
            if seed_hint(key, league, seed, info.seat) == info.seed_hint:
                yield deal_seed(key, league, seed)
        if time.monotonic() > stop:
            break
    yield from seeds
    for key, league in pairs:
        for seed in seeds:
            yield deal_seed(key, league, seed)


def hands(state: GameState) -> list[tuple[int, ...]]:
    """Every seat's hand in `state`."""
    places = state.card_locations()
    return [tuple(sorted(places[f"hand {seat}"])) for seat in range(state.players)]


@dataclass(frozen=True)
class Recovery:
    state: GameState | None  # the dealt game, if found
    tried: int  # candidate deals tried


def recover(
    info: MatchInfo, my_hand: Sequence[int], texts: Sequence[bytes], budget_s: float = 2.0
) -> Recovery:
    """Try to re-deal the match: the dealt game whose hand at the bot's seat is `my_hand`
    (the bot's hand before it played a card), giving up after about `budget_s` seconds."""
    stop = time.monotonic() + budget_s
    mine = tuple(sorted(my_hand))
    tried = 0
    for deal in itertools.islice(candidate_deals(info, texts, budget_s), MAX_CANDIDATES):
        tried += 1
        state = new_game(info.variant, info.players, deal, info.options)
        if hands(state)[info.seat] == mine:
            return Recovery(state, tried)
        if time.monotonic() > stop:
            break
    return Recovery(None, tried)


def predict_hands(
    info: MatchInfo,
    my_hand: Sequence[int],
    visible: Iterable[int],
    deck: Iterable[int],
    hand_sizes: Sequence[int],
    recovery: Recovery,
) -> dict[int, list[int]]:
    """Each opponent's hand: the recovered deal's, or a random draw from the unseen cards
    (seeded from the hint) when the deal was not found."""
    if recovery.state is not None:
        dealt = hands(recovery.state)
        return {s: list(dealt[s]) for s in range(info.players) if s != info.seat}
    seen = set(my_hand) | set(visible)
    unseen = sorted(c for c in deck if c not in seen)
    random.Random(info.seed_hint).shuffle(unseen)
    guess: dict[int, list[int]] = {}
    for seat in range(info.players):
        if seat != info.seat:
            guess[seat], unseen = unseen[: hand_sizes[seat]], unseen[hand_sizes[seat] :]
    return guess
