"""The JSON files published beside the pages, and their JSON Schemas (docs/leaderboard.md).

``league.json`` describes the league; ``standings-<variant>.json`` holds exactly what the
variant's standings page shows, plus every bot's full rating series.
"""

from __future__ import annotations

from typing import Any

from leaderboard import paths
from leaderboard.model import LeagueInfo, VariantStandings
from referee.replay.digest import DIGEST_SCHEMA_ID

LEAGUE_SCHEMA_ID = "bullring.league/1"
STANDINGS_SCHEMA_ID = "bullring.standings/2"

_NUMBER = {"type": "number"}
_COUNT = {"type": "integer", "minimum": 0}

LEAGUE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Bullring league (league.json)",
    "type": "object",
    "required": ["schema", "name", "built_at", "matches_played", "bots", "variants"],
    "additionalProperties": False,
    "properties": {
        "schema": {"const": LEAGUE_SCHEMA_ID},
        "name": {"type": "string"},
        "built_at": {"type": "string"},
        "matches_played": _COUNT,
        "bots": _COUNT,
        "variants": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["variant", "title", "matches", "page", "standings"],
                "additionalProperties": False,
                "properties": {
                    "variant": {"type": "string"},
                    "title": {"type": "string"},
                    "matches": _COUNT,
                    "page": {"type": "string"},
                    "standings": {"type": "string"},
                },
            },
        },
    },
}

STANDINGS_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Bullring standings of one variant (standings-<variant>.json)",
    "type": "object",
    "required": [
        "schema",
        "variant",
        "title",
        "matches",
        "built_at",
        "rows",
        "series",
        "head_to_head",
    ],
    "additionalProperties": False,
    "properties": {
        "schema": {"const": STANDINGS_SCHEMA_ID},
        "variant": {"type": "string"},
        "title": {"type": "string"},
        "matches": _COUNT,
        "built_at": {"type": "string"},
        "rows": {
            "type": "array",
            "items": {
                "type": "object",
                "required": [
                    "rank",
                    "bot",
                    "name",
                    "version",
                    "conservative",
                    "mu",
                    "sigma",
                    "matches",
                    "wins",
                    "mean_score",
                    "fault_rate",
                    "win_share",
                    "mean_rank",
                    "change",
                    "change_over",
                    "retired",
                    "author",
                    "description",
                ],
                "additionalProperties": False,
                "properties": {
                    "rank": {"type": "integer", "minimum": 1},
                    "bot": {"type": "string", "description": "name@version"},
                    "name": {"type": "string"},
                    "version": {"type": "string"},
                    "conservative": {**_NUMBER, "description": "mu - 3 sigma"},
                    "mu": _NUMBER,
                    "sigma": {"type": "number", "minimum": 0},
                    "matches": _COUNT,
                    "wins": _COUNT,
                    "mean_score": _NUMBER,
                    "fault_rate": {"type": "number", "minimum": 0},
                    "win_share": {"type": "number", "minimum": 0, "maximum": 1},
                    "mean_rank": {**_NUMBER, "description": "mean finishing rank, 1 = first"},
                    "change": {
                        **_NUMBER,
                        "description": "change of mu - 3 sigma over the last change_over matches",
                    },
                    "change_over": _COUNT,
                    "retired": {
                        "type": "boolean",
                        "description": "a newer version of the bot is registered",
                    },
                    "author": {"type": "string", "description": "from the bot's manifest"},
                    "description": {"type": "string", "description": "from the bot's manifest"},
                },
            },
        },
        "series": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["bot", "points"],
                "additionalProperties": False,
                "properties": {
                    "bot": {"type": "string"},
                    "points": {
                        "description": "[match_number, league_match, mu, sigma], oldest first;"
                        " at most 240 points, evenly spaced, the first and the last kept",
                        "type": "array",
                        "items": {
                            "type": "array",
                            "prefixItems": [_COUNT, _COUNT, _NUMBER, _NUMBER],
                            "minItems": 4,
                            "maxItems": 4,
                        },
                    },
                },
            },
        },
        "head_to_head": {
            "description": "each ordered pair of bots that met: bot's results against opponent",
            "type": "array",
            "items": {
                "type": "object",
                "required": ["bot", "opponent", "matches", "wins", "losses", "ties"],
                "additionalProperties": False,
                "properties": {
                    "bot": {"type": "string"},
                    "opponent": {"type": "string"},
                    "matches": _COUNT,
                    "wins": _COUNT,
                    "losses": _COUNT,
                    "ties": _COUNT,
                },
            },
        },
    },
}

VIEWER_SCHEMA_ID = DIGEST_SCHEMA_ID  # the viewer reads the match digest (+ log links)

VIEWER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Bullring replay viewer data (in matches/<match>.html, deflated and base64)",
    "type": "object",
    "required": [
        "schema",
        "match_id",
        "variant",
        "family",
        "players",
        "kinds",
        "decisions",
        "snapshots",
    ],
    "additionalProperties": False,
    "properties": {
        "schema": {"const": VIEWER_SCHEMA_ID},
        "match_id": {"type": "string"},
        "variant": {"type": "string"},
        "family": {"type": "string"},
        "players": {"type": "array", "items": {"type": "string", "description": "name@version"}},
        "kinds": {"type": "array", "items": {"type": "string"}},
        "decisions": {
            "description": "[seat, kind (index into kinds), chosen option, ms, options "
            "offered] and, when there is one, {fault, auto}",
            "type": "array",
            "items": {
                "type": "array",
                "prefixItems": [
                    _COUNT,
                    _COUNT,
                    {
                        "type": "array",
                        "items": {"type": "integer"},
                        "minItems": 1,
                        "maxItems": 5,
                        "description": "[kind, card, row, side, target], trailing defaults off",
                    },
                    {"type": "number", "minimum": 0},
                    _COUNT,
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "fault": {
                                "type": "object",
                                "required": ["kind"],
                                "properties": {
                                    "kind": {"type": "string"},
                                    "detail": {"type": "string"},
                                },
                            },
                            "auto": {"const": True},
                        },
                    },
                ],
                "minItems": 5,
                "maxItems": 6,
            },
        },
        "snapshots": {
            "description": "the table at the deal, then the fields that changed after each "
            "decision; an object value patches a list ({index: new item})",
            "type": "array",
            "minItems": 1,
            "items": {"type": "object"},
        },
        "setup_faults": {"type": "array", "items": {"type": "object"}},
        "logs": {
            "description": "seat -> file name of the bot log tail the league kept",
            "type": "object",
            "additionalProperties": {"type": "string"},
        },
    },
}


def league_json(league: LeagueInfo, standings: tuple[VariantStandings, ...]) -> dict[str, Any]:
    return {
        "schema": LEAGUE_SCHEMA_ID,
        "name": league.name,
        "built_at": league.built_at,
        "matches_played": league.matches_played,
        "bots": league.bots,
        "variants": [
            {
                "variant": s.variant,
                "title": s.title,
                "matches": s.matches,
                "page": paths.standings_page(s.variant),
                "standings": paths.standings_json(s.variant),
            }
            for s in standings
        ],
    }


def standings_json(standings: VariantStandings, built_at: str) -> dict[str, Any]:
    return {
        "schema": STANDINGS_SCHEMA_ID,
        "variant": standings.variant,
        "title": standings.title,
        "matches": standings.matches,
        "built_at": built_at,
        "rows": [
            {
                "rank": r.rank,
                "bot": r.bot,
                "name": r.name,
                "version": r.version,
                "conservative": r.conservative,
                "mu": r.mu,
                "sigma": r.sigma,
                "matches": r.matches,
                "wins": r.wins,
                "mean_score": r.mean_score,
                "fault_rate": r.fault_rate,
                "win_share": r.win_share,
                "mean_rank": r.mean_rank,
                "change": r.change,
                "change_over": r.change_over,
                "retired": r.retired,
                "author": r.author,
                "description": r.description,
            }
            for r in standings.rows
        ],
        "series": [
            {
                "bot": s.bot,
                "points": [[p.match_number, p.league_match, p.mu, p.sigma] for p in s.points],
            }
            for s in standings.series
        ],
        "head_to_head": [
            {
                "bot": p.bot,
                "opponent": p.opponent,
                "matches": p.matches,
                "wins": p.wins,
                "losses": p.losses,
                "ties": p.ties,
            }
            for p in standings.head_to_head
        ],
    }
