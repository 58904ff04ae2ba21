"""The JSON files published beside the pages, and their JSON Schemas (docs/leaderboard.md).

``league.json`` describes the league; ``standings-<variant>.json`` holds exactly what the
variant's standings page shows, plus every bot's full rating series.
"""

from __future__ import annotations

from typing import Any

from leaderboard import paths
from leaderboard.model import LeagueInfo, VariantStandings

LEAGUE_SCHEMA_ID = "bullring.league/1"
STANDINGS_SCHEMA_ID = "bullring.standings/1"

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
    "required": ["schema", "variant", "title", "matches", "built_at", "rows", "series"],
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
                        "description": "[match_number, league_match, mu, sigma], oldest first",
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
    }
