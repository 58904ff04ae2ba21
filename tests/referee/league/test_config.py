"""Bad league files and bad manifests: one clear line naming the field, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.league.config import LeagueFileError, load_league
from tests.referee.league.leagues import SMALL, bullring, write_league

GOOD_HEAD = '[league]\nname = "x"\nseats = 2\n\n[[variants]]\nid = "6nimmt"\n'


def test_a_good_file_resolves_everything(tmp_path: Path) -> None:
    config = load_league(write_league(tmp_path, SMALL))
    assert config.name == "small"
    assert [v.id for v in config.variants] == ["6nimmt:rounds=1", "xnimmt"]
    assert [(v.seats, v.games, v.format) for v in config.variants] == [
        (3, 3, "round-robin"),
        (2, 1, "duplicate"),
    ]
    assert config.store == tmp_path / "small.sqlite"
    assert [b.key for b in config.bots] == ["a@1", "b@1", "c@1", "d@1"]
    assert config.clock.decision_ms == 5000
    assert config.digest() == load_league(write_league(tmp_path, SMALL)).digest()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('[league]\nname = "x"\ngames = 0\n[[variants]]\nid = "6nimmt"\n', "league.games"),
        ('[league]\nname = "x"\ngames = "3"\n[[variants]]\nid = "6nimmt"\n', "league.games"),
        ('[league]\nname = "x"\nformat = "swiss"\n[[variants]]\nid = "6nimmt"\n', "league.format"),
        ('[league]\nname = "x"\nsaets = 2\n[[variants]]\nid = "6nimmt"\n', "league.saets"),
        ('[league]\nname = "x"\n', "variants"),
        ('[league]\nname = "x"\n[[variants]]\nid = "7nimmt"\n', "variants[0]"),
        ('[league]\nname = "x"\nseats = 5\n[[variants]]\nid = "xnimmt"\n', "variants[0]"),
        (GOOD_HEAD + "options = { rounds = 0 }\n", "variants[0]"),
        (GOOD_HEAD + 'options = { colour = "red" }\n', "variants[0]"),
        (GOOD_HEAD + "[rating]\nsigma = -1\n", "rating.sigma"),
        (GOOD_HEAD + "[clock]\ndecision_ms = 0\n", "clock.decision_ms"),
        (GOOD_HEAD + '[[bots]]\nname = "a"\n', "bots[0]"),
        (GOOD_HEAD + '[[bots]]\nmanifest = "nowhere/bot.toml"\n', "bots[0].manifest"),
        (
            GOOD_HEAD + '[[bots]]\nendpoint = "x:1"\nname = "a"\n[[bots]]\nendpoint = "y:1"\n'
            'name = "a"\n',
            "bots[1]",
        ),
        ("[league\n", "not valid TOML"),
    ],
)
def test_bad_files_name_the_field(tmp_path: Path, body: str, field: str) -> None:
    file = tmp_path / "bad.toml"
    file.write_text(body)
    with pytest.raises(LeagueFileError) as error:
        load_league(file)
    assert str(error.value).startswith(f"{file}: {field}")


def test_a_bad_manifest_is_named(tmp_path: Path) -> None:
    manifest = tmp_path / "bot.toml"
    manifest.write_text('name = "broken"\n')  # no command
    file = tmp_path / "l.toml"
    file.write_text(GOOD_HEAD + f'[[bots]]\nmanifest = "{manifest}"\n')
    with pytest.raises(LeagueFileError, match=r"bots\[0\]\.manifest: .*command"):
        load_league(file)


def test_cli_reports_a_bad_file_in_one_line_and_writes_nothing(tmp_path: Path) -> None:
    file = write_league(tmp_path, SMALL.replace("games = 3", "games = -3"))
    done = bullring("league", "run", str(file), cwd=tmp_path)
    assert done.returncode == 2
    assert "league.games" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == [file]


def test_cli_refuses_a_league_with_too_few_bots_before_writing(tmp_path: Path) -> None:
    file = write_league(tmp_path, SMALL, bots=["a", "b"])
    done = bullring("league", "run", str(file), cwd=tmp_path)
    assert done.returncode == 2
    assert "3 seats need at least 3 bots" in done.stderr
    assert list(tmp_path.iterdir()) == [file]
