"""Other players at the champion's self-play tables (``train.py --others``): who sits
where, what each plays, and a tiny mixed run that is seeded, recorded and refuses what it
cannot use."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from example_bots.champion_bot.bot import ChampionBot
from example_bots.champion_bot.net import initial, load, save
from example_bots.champion_bot.others import OTHERS, other_player, seat_players
from example_bots.champion_bot.train import main
from example_bots.rules_bot.bot import RulesBot
from sdk import DecisionClock, MatchInfo, SixNimmtView, new_game
from tests.example_bots.test_champion_pipeline import TINY, metrics


def samples(out: Path) -> int:
    count = metrics(out)[-1]["new_samples"]
    assert isinstance(count, int)
    return count


@pytest.mark.parametrize("players", [2, 4, 10])
def test_one_seat_is_always_the_networks(players: int) -> None:
    rng = random.Random(players)
    for _ in range(200):
        every = seat_players(players, ("mc", "rules_bot"), 1.0, rng)
        assert every.count("") == 1 and set(every) <= {"", "mc", "rules_bot"}
        assert seat_players(players, ("mc",), 0.0, rng) == [""] * players
    # Each seat but the network's is an other with the given chance.
    others = sum(seat_players(players, ("mc",), 0.3, rng).count("mc") for _ in range(2000))
    assert others / (2000 * (players - 1)) == pytest.approx(0.3, abs=0.03)
    again = random.Random(7), random.Random(7)
    assert [seat_players(players, OTHERS, 0.5, again[0]) for _ in range(20)] == [
        seat_players(players, OTHERS, 0.5, again[1]) for _ in range(20)
    ]


def test_every_other_plays_whole_games_legally(tmp_path: Path) -> None:
    weights = tmp_path / "start.npz"
    save(weights, initial(5, (16,), (8,)))
    net = load(weights)
    rules, raw = RulesBot(), ChampionBot(net, search=False)
    clock = DecisionClock(deadline_ms=0, time_bank_ms=0)
    for players in (2, 5):
        state = new_game("6nimmt", players, players, {"rounds": "1"})
        rng = random.Random(players)
        raw.start_match(MatchInfo("m", "6nimmt", {"rounds": "1"}, 0, players))
        names = [OTHERS[seat % len(OTHERS)] for seat in range(players)]
        played = {name: 0 for name in OTHERS}
        while not state.is_terminal():
            for seat in state.pending():
                options = state.legal_options(seat)
                view = state.view(seat)
                assert isinstance(view, SixNimmtView)
                name = names[seat]
                index = other_player(name, str(weights))(view, options, rng)
                assert 0 <= index < len(options)
                if name == "rules_bot":  # the rule-based bot's own choice
                    assert options[index] == rules.decide(view, options, clock)
                if name == "start":  # the bot's raw policy on those weights
                    assert index == raw.decide(view, options, clock)
                played[name] += 1
                state.apply(seat, options[index])
        assert all(count > 0 for name, count in played.items() if name in names)


def test_the_mc_player_is_seeded_by_the_games_generator() -> None:
    state = new_game("6nimmt", 4, 11, {"rounds": "1"})
    view, options = state.view(0), state.legal_options(0)
    assert isinstance(view, SixNimmtView)
    mc = other_player("mc", "")
    first = [mc(view, options, random.Random(seed)) for seed in range(6)]
    assert first == [mc(view, options, random.Random(seed)) for seed in range(6)]


def test_it_refuses_others_it_cannot_seat() -> None:
    with pytest.raises(ValueError, match="one of rules_bot, mc, start"):
        other_player("winner_bot", "")
    with pytest.raises(ValueError, match="needs --start-from"):
        other_player("start", "")


def test_a_mixed_run_is_seeded_recorded_and_learns_only_at_the_networks_seats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = tmp_path / "start.npz"
    save(start, initial(3, (128, 64), (64,)))
    mixed = ["--others", "mc", "rules_bot", "start", "--others-share", "1", "--start-from",
             str(start), "--iterations", "1", *TINY]  # fmt: skip
    one, two, alone = tmp_path / "one", tmp_path / "two", tmp_path / "alone"
    assert main(["--out", str(one), *mixed]) == 0
    assert main(["--out", str(two), *mixed]) == 0
    assert [m["iteration"] for m in metrics(one)] == [0, 1]
    assert metrics(one) == metrics(two)
    made = load(one / "weights.npz").meta["config"]
    assert isinstance(made, dict)
    assert made["others"] == ["mc", "rules_bot", "start"] and made["others_share"] == 1.0
    # One seat of three is the network's: about a third of the samples of a run of itself.
    assert main(["--out", str(alone), "--start-from", str(start), "--iterations", "1",
                 *TINY]) == 0  # fmt: skip
    assert 0 < samples(one) < 0.6 * samples(alone)
    # What it cannot use is refused with a line, no traceback.
    assert main(["--out", str(tmp_path / "a"), "--others", "winner_bot", *TINY]) == 2
    assert main(["--out", str(tmp_path / "b"), "--others", "mc", "--others-share", "2",
                 *TINY]) == 2  # fmt: skip
    assert main(["--out", str(tmp_path / "c"), "--others", "start", *TINY]) == 2
    err = capsys.readouterr().err
    assert "error: --others: no other player 'winner_bot'; one of rules_bot, mc, start" in err
    assert "--others-share is a chance" in err
    assert "error: --others: the 'start' player needs --start-from weights" in err
    assert not any((tmp_path / name).exists() for name in "abc")  # a refusal leaves nothing
