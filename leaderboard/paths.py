"""Where each page of the site lives. Every link is relative, so the site works from
file:// and from any static host, at any path."""

from __future__ import annotations

import hashlib
import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")

STATIC_DIR = "static"
BOTS_DIR = "bots"
MATCHES_DIR = "matches"
LISTS_DIR = "lists"
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
    """The `number`-th page (1-based) of the list of every match: page 1 holds the first
    MATCH_LIST_PAGE_SIZE matches to finish, page 2 the next ones, and so on, so a full page
    never changes (each page lists its own matches newest first)."""
    return f"{LISTS_DIR}/matches-{number}.html"


def latest_matches_page() -> str:
    """The newest page of the match list (the one still filling), under a name that does
    not change: what the navigation links."""
    return f"{LISTS_DIR}/latest.html"


def last_hour_page() -> str:
    """The matches that finished in the hour before the newest one."""
    return "last-hour.html"


def submit_page() -> str:
    """How to submit a bot to the arena (only in a site published with the arena's facts)."""
    return "submit.html"


def log_tail(match_id: str, seat: int) -> str:
    """The tail of a seat's bot log in a match, where the league kept one."""
    return f"{MATCHES_DIR}/{slug(match_id)}.seat{seat}.log.txt"


def replay_file(match_id: str) -> str:
    """A match's replay, as ``bullring replay FILE`` opens it (gzip-compressed JSON)."""
    return f"{MATCHES_DIR}/{slug(match_id)}.replay.json.gz"


def rules_page() -> str:
    """Each game family's rules summary."""
    return "rules.html"
