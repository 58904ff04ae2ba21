"""benchmarks.strength: the Wilson interval and the Monte Carlo bot against rule-based
bots (tiny sizes; the strength figures themselves are read by people, never asserted);
benchmarks.strength_table: the league table's figures from a store."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.strength import (
    TABLES,
    BotStats,
    add_table_outcome,
    duplicate,
    duplicate_parallel,
    pair_summary,
    table_for,
)
from benchmarks.strength_table import markdown
from referee.league.config import parse_league
from referee.league.executors import MatchAttempt
from referee.league.runner import LeagueRunner, RatingKeeper, record_outcome
from referee.replay.result import MatchResult
from referee.spec import MatchSpec
from sdk.game import ranks_from_scores
from sdk.stats import wilson


def test_wilson_matches_the_textbook_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0
    assert high == pytest.approx(0.2775, abs=1e-4)


def test_mc_vs_rules_puts_the_monte_carlo_bot_in_every_seat_of_each_deal() -> None:
    stats = duplicate("6nimmt:rounds=1", 1, 40, 3, TABLES["mc-vs-rules"])
    mc, rules = stats["montecarlo_bot"], stats["rules_bot"]
    assert (mc.games, rules.games) == (4, 12)
    assert mc.wins + rules.wins == pytest.approx(4)  # one win per game, ties shared


def test_a_subject_table_counts_places_and_wins_of_the_bot_in_seat_0() -> None:
    table = table_for("vs-greedy", "rules_bot")
    assert [b.name for b in table] == ["rules_bot", "greedy", "greedy", "greedy"]
    stats = duplicate("6nimmt:rounds=1", 1, 40, 4, table)
    bot, greedy = stats["rules_bot"], stats["greedy"]
    assert (bot.games, greedy.games) == (4, 12)
    assert sum(bot.places) == 4 and sum(greedy.places) == 12
    assert sum(bot.place_shares()) == pytest.approx(1.0)
    assert bot.wins + greedy.wins == pytest.approx(4)
    assert bot.wins <= bot.places[0]  # a shared first place counts 1/k of a win
    with pytest.raises(ValueError):
        table_for("mixed", "rules_bot")


def test_deals_played_in_worker_processes_add_up_to_the_same_totals() -> None:
    # The rule-based bot and the greedy baseline do not search: their games depend on the
    # deal alone, so the totals must be equal whichever process played which deal.
    table = table_for("vs-greedy", "rules_bot")
    alone = duplicate("6nimmt:rounds=1", 3, 40, 11, table)
    seen: list[int] = []
    parallel = duplicate_parallel(
        "6nimmt:rounds=1",
        3,
        40,
        11,
        "vs-greedy",
        "rules_bot",
        jobs=2,
        progress=lambda done, totals: seen.append(done),
    )
    assert seen == [1, 2, 3]
    assert alone.keys() == parallel.keys() == {"rules_bot", "greedy"}
    for name, entry in alone.items():
        other = parallel[name]
        assert (other.score, other.games, other.places) == (entry.score, entry.games, entry.places)
        assert other.wins == pytest.approx(entry.wins)
    assert alone["rules_bot"].games == 12


def test_totals_add_place_by_place() -> None:
    totals = BotStats(score=3, wins=0.5, games=2, places=[1, 1])
    totals.add(BotStats(score=4, wins=1.0, games=3, places=[1, 0, 1, 1]))
    assert (totals.score, totals.wins, totals.games) == (7, 1.5, 5)
    assert totals.places == [2, 1, 1, 1]


def test_the_league_table_shows_each_bots_mean_score_and_win_share(tmp_path: Path) -> None:
    league = {
        "league": {"name": "t", "seed": 5, "seats": 3, "games": 2, "format": "duplicate"},
        "variants": [{"id": "6nimmt", "options": {"rounds": 1}}],
        "bots": [{"name": n, "endpoint": "127.0.0.1:9", "version": "1"} for n in "abc"],
    }
    config = parse_league(league, None, lambda path: NotImplemented)
    store = LeagueRunner(config, store_path=tmp_path / "s.sqlite").prepare()
    expected: dict[str, list[tuple[int, float]]] = {}  # bot -> (score, win share) per match
    with store:
        keeper = RatingKeeper(store, config.variants[0], config)
        scores_rng = random.Random(8)
        for match in store.matches():
            scores = tuple(scores_rng.randrange(3) for _ in match.seats)
            ranks = tuple(ranks_from_scores(scores, higher_is_better=False))
            result = MatchResult(match.match_id, scores, ranks, (), (False,) * 3, 10, 0.1, None)
            spec = MatchSpec(match.match_id, "6nimmt", match.options, match.seed, ())
            assert record_outcome(store, keeper, match, MatchAttempt(spec, result, None, 0, 1))
            firsts = ranks.count(1)
            for seat, bot in enumerate(match.seats):
                share = 1 / firsts if ranks[seat] == 1 else 0.0
                expected.setdefault(bot.split("@")[0], []).append((scores[seat], share))
        table = markdown(store)
    lines = table.splitlines()
    assert lines[0] == "| variant | matches | a mean | a wins | b mean | b wins | c mean | c wins |"
    cells = lines[2].strip("|").split("|")
    assert [c.strip() for c in cells[:2]] == ["6nimmt:rounds=1", "12"]  # 2 deals x 3! seatings
    for index, bot in enumerate("abc"):
        played = expected[bot]
        mean = sum(s for s, _ in played) / len(played)
        wins = sum(w for _, w in played) / len(played)
        assert cells[2 + 2 * index].strip() == f"{mean:.2f}"
        assert cells[3 + 2 * index].strip() == f"{wins:.1%}"


OUTSIDE_BOT = """
from sdk import Bot


class LowestCard(Bot):
    name = "lowest_card"

    def decide(self, view, options, clock):
        return 0
"""


def test_an_opponent_from_a_file_fills_the_other_seats(tmp_path: Path) -> None:
    path = tmp_path / "outside.py"
    path.write_text(OUTSIDE_BOT)
    table = table_for("vs-winner", "rules_bot", f"{path}:LowestCard")
    assert [b.name for b in table] == ["rules_bot", "lowest_card", "lowest_card", "lowest_card"]
    assert table_for("vs-mc64", None, f"{path}:LowestCard")[1] is table[1]  # loaded once
    assert [b.name for b in table_for("vs-winner", None)] == ["champion_bot"] + ["winner_bot"] * 3
    # In worker processes too: the file is loaded where the deal is played.
    totals = duplicate_parallel(
        "6nimmt:rounds=1", 2, 40, 5, "vs-winner", "rules_bot", jobs=2,
        opponent=f"{path}:LowestCard",
    )  # fmt: skip
    assert totals["rules_bot"].games == 8 and totals["lowest_card"].games == 24
    for wrong in (f"{path}:Missing", f"{tmp_path / 'none.py'}:LowestCard", str(path)):
        with pytest.raises(ValueError, match="--opponent"):
            table_for("vs-winner", None, wrong)


def test_seat_0_can_take_a_bot_from_a_file_too(tmp_path: Path) -> None:
    path = tmp_path / "outside.py"
    path.write_text(OUTSIDE_BOT)
    table = table_for("vs-mc64", f"{path}:LowestCard")
    assert [b.name for b in table] == ["lowest_card", "mc64", "mc64", "mc64"]
    for wrong in ("no_such_bot", f"{path}:Missing", f"{tmp_path / 'none.py'}:LowestCard"):
        with pytest.raises(ValueError, match="--bot"):
            table_for("vs-mc64", wrong)


def test_a_pairs_table_seats_two_bots_twice_each_and_plays_each_seating_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "outside.py"
    path.write_text(OUTSIDE_BOT)
    table = table_for("pairs", "rules_bot", f"{path}:LowestCard")
    assert [b.name for b in table] == ["rules_bot", "lowest_card"] * 2
    assert [b.name for b in table_for("pairs", None)] == ["champion_bot", "winner_bot"] * 2
    stats = duplicate("6nimmt:rounds=1", 2, 40, 9, table)
    rules, lowest = stats["rules_bot"], stats["lowest_card"]
    # Two deals, each in its two seatings (A B A B and B A B A): 4 games, 8 seats a bot.
    assert (rules.tables, lowest.tables) == (4, 4)
    assert (rules.games, lowest.games) == (8, 8)
    assert rules.table_wins + lowest.table_wins == pytest.approx(4)
    assert rules.wins + lowest.wins == pytest.approx(4)
    line = pair_summary("6nimmt:rounds=1", stats, table)
    assert "rules_bot pair against lowest_card pair" in line and "games 4" in line
    with pytest.raises(ValueError, match="two different bots"):
        table_for("pairs", "winner_bot")  # the second bot is winner_bot by default


def test_a_table_is_won_by_the_bot_whose_seats_took_the_fewest_heads_in_all() -> None:
    stats: dict[str, BotStats] = {}
    add_table_outcome(stats, ["a", "b", "a", "b"], [1, 5, 9, 4])  # a 10, b 9
    assert (stats["a"].table_wins, stats["b"].table_wins) == (0.0, 1.0)
    add_table_outcome(stats, ["a", "b", "a", "b"], [3, 2, 3, 4])  # a 6, b 6: a tie
    assert (stats["a"].table_wins, stats["b"].table_wins) == (0.5, 1.5)
    assert (stats["a"].tables, stats["b"].tables) == (2, 2)
    add_table_outcome(stats, ["s", "o", "o", "o"], [8, 1, 2, 3])  # one seat against three
    assert (stats["s"].table_wins, stats["o"].table_wins) == (0.0, 1.0)
    merged = BotStats(tables=1, table_wins=1.0)
    merged.add(stats["a"])
    assert (merged.tables, merged.table_wins) == (3, 1.5)
