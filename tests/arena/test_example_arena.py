"""The shipped league files seat the champion: the example arena (`leagues/ladder.toml`,
the README's "Run an arena") and the demo league (`make demo`) both load, and their house
bots are the example bots, the champion among them."""

from __future__ import annotations

from pathlib import Path

from arena.config import load_arena
from referee.league.config import load_league

REPO = Path(__file__).resolve().parents[2]


def test_the_example_arena_is_a_4_seat_ladder_with_the_champion() -> None:
    arena = load_arena(REPO / "leagues" / "ladder.toml")
    names = [bot.name for bot in arena.league.bots]
    assert names == ["rules_bot", "montecarlo_bot", "winner_bot", "champion_bot"]
    assert arena.ladder and arena.league.seats == 4
    assert [v.id for v in arena.league.variants] == ["6nimmt:rounds=1"]
    # Its store lies outside the source tree's packages (and .gitignore keeps it out).
    assert arena.league.store.resolve().parent == REPO / "ladder"
    assert "/ladder/" in (REPO / ".gitignore").read_text().splitlines()


def test_the_demo_seats_every_python_example_bot_with_the_champion() -> None:
    league = load_league(REPO / "example_bots" / "demo.toml")
    names = {bot.name for bot in league.bots}
    assert names == {"random_bot", "rules_bot", "montecarlo_bot", "champion_bot"}
    assert league.seats == len(names)
