"""Where each page of the site lives. Every link is relative, so the site works from
file:// and from any static host, at any path."""

from __future__ import annotations

import hashlib
import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")

STATIC_DIR = "static"
BOTS_DIR = "bots"
MATCHES_DIR = "matches"
MATCH_LIST_PAGE_SIZE = 200


def slug(text: str) -> str:
    """A file-name-safe, unique form of `text` (variant ids hold ':' and '=', keys '@')."""
    safe = _UNSAFE.sub("_", text).strip("._") or "x"
    if safe == text:
        return safe
    return f"{safe}-{hashlib.sha1(text.encode()).hexdigest()[:6]}"


def standings_page(variant: str) -> str:
    return f"standings-{slug(variant)}.html"


def standings_json(variant: str) -> str:
    return f"standings-{slug(variant)}.json"


def bot_page(bot: str) -> str:
    return f"{BOTS_DIR}/{slug(bot)}.html"


def match_page(match_id: str) -> str:
    return f"{MATCHES_DIR}/{slug(match_id)}.html"


def match_list_page(number: int) -> str:
    """The `number`-th page (1-based) of the list of every match, newest first."""
    return f"{MATCHES_DIR}/list-{number}.html"


def log_tail(match_id: str, seat: int) -> str:
    """The tail of a seat's bot log in a match, where the league kept one."""
    return f"{MATCHES_DIR}/{slug(match_id)}.seat{seat}.log.txt"


def replay_file(match_id: str) -> str:
    """A match's replay, as ``bullring replay FILE`` opens it (gzip-compressed JSON)."""
    return f"{MATCHES_DIR}/{slug(match_id)}.replay.json.gz"


def rules_page() -> str:
    """Each game family's rules summary."""
    return "rules.html"
