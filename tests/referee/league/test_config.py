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


def test_a_store_beside_the_league_folder_is_named_without_a_step_back(tmp_path: Path) -> None:
    """``store = "../demo/league.sqlite"`` in ``leagues/x.toml`` is ``demo/league.sqlite``
    (what `league run` prints), not ``leagues/../demo/league.sqlite``."""
    folder = tmp_path / "leagues"
    folder.mkdir()
    file = folder / "x.toml"
    file.write_text(GOOD_HEAD.replace("seats = 2\n", 'seats = 2\nstore = "../demo/x.sqlite"\n'))
    assert load_league(file).store == tmp_path / "demo" / "x.sqlite"


def test_a_step_back_out_of_a_linked_folder_is_kept(tmp_path: Path) -> None:
    """Through a symbolic link, ``link/..`` is the link target's parent, not the link's:
    the path is left as written, so it still names the file the system opens."""
    target = tmp_path / "elsewhere" / "leagues"
    target.mkdir(parents=True)
    (tmp_path / "leagues").symlink_to(target)
    file = tmp_path / "leagues" / "x.toml"
    file.write_text(GOOD_HEAD.replace("seats = 2\n", 'seats = 2\nstore = "../demo/x.sqlite"\n'))
    store = load_league(file).store
    assert store == tmp_path / "leagues" / ".." / "demo" / "x.sqlite"
    assert store.resolve() == tmp_path / "elsewhere" / "demo" / "x.sqlite"
