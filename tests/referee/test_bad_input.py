"""Bad input is capped and explained: one line naming the field and the cap, exit code 2,
nothing started and nothing written (not even an empty store)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bullring_cli.app import app
from referee.bots.manifest import ManifestError, load_manifest
from referee.bots.process import BotProcess, ProcessLimits
from referee.league.config import LeagueFileError, load_league
from referee.limits import MAX_MATCHES, PARALLEL_PER_CORE, parallel_cap
from sdk.game import RulesError, parse_variant
from tests.referee.helpers import BAD_BOTS, bot_named
from tests.referee.league.leagues import bullring

FIRST = BAD_BOTS / "first_option.toml"
HEAD = '[league]\nname = "x"\nseats = 2\n'
BOTS = "".join(f'\n[[bots]]\nmanifest = "{FIRST}"\nname = "{name}"\n' for name in "ab")
ARABIC_ONE, ARABIC_THREE = "\u0661", "\u0663"  # digits int() takes, ids must not
CORES = parallel_cap(False).maximum // PARALLEL_PER_CORE


def league(
    head: str = "", variant: str = "", bots: str = BOTS, tail: str = "", vid: str = "6nimmt"
) -> str:
    return f'{HEAD}{head}\n[[variants]]\nid = "{vid}"\n{variant}{bots}{tail}'


# (league file, the field its one line names, what the line says)
REFUSED = [
    (league(head=f"games = {MAX_MATCHES + 1}\n"), "league.games", "at most 1,000,000"),
    (league(variant="games = 10000000\n"), "variants[0].games", "at most 1,000,000"),
    (league(head="batch = 100000\n"), "league.batch", "at most 10,000"),
    (league(variant="options = { rounds = 101 }\n"), "variants[0]", "rounds=101 must be at most"),
    (league(variant=f'options = {{ rounds = "{ARABIC_ONE}" }}\n'), "variants[0]", "ASCII digits"),
    (league(variant='options = { rounds = "1_0" }\n'), "variants[0]", "ASCII digits"),
    (league(vid=f"6nimmt:rounds={ARABIC_THREE}"), "variants[0]", "ASCII digits"),
    (league(tail="[clock]\ndecision_ms = 100000000000\n"), "clock.decision_ms", "at most 600,000"),
    (league(tail="[clock]\ntime_bank_ms = -1\n"), "clock.time_bank_ms", "at least 0"),
    (league(tail="[clock]\nsetup_ms = 4294967296\n"), "clock.setup_ms", "at most 600,000"),
    (league(tail="[clock]\nmax_faults = 1000000\n"), "clock.max_faults", "at most 1,000"),
    (league(head=f"parallel = {PARALLEL_PER_CORE * CORES + 1}\n"), "league.parallel", "per core"),
    (league(head="parallel = -1\n"), "league.parallel", "at least 0"),
    (
        league(bots=BOTS.replace('name = "b"', 'name = "../../x"')),
        "bots[1].name",
        "not a safe name",
    ),
    (league(bots=BOTS.replace('name = "b"', 'name = ".hidden"')), "bots[1].name", "safe name"),
    (league(bots=BOTS.replace('name = "b"', 'name = "b/c"')), "bots[1].name", "safe name"),
    (
        league(bots=BOTS.replace('name = "b"', 'name = "b"\nversion = "../1"')),
        "bots[1].version",
        "safe name",
    ),
    (
        league(bots='\n[[bots]]\nendpoint = "localhost:1"\nname = "../up"\n'),
        "bots[0].name",
        "safe name",
    ),
]


@pytest.mark.parametrize(("body", "field", "says"), REFUSED)
def test_the_league_file_refuses_values_beyond_their_caps(
    tmp_path: Path, body: str, field: str, says: str
) -> None:
    file = tmp_path / "bad.toml"
    file.write_text(body)
    with pytest.raises(LeagueFileError) as error:
        load_league(file)
    assert str(error.value).startswith(f"{file}: {field}")
    assert says in str(error.value)


def run_cli(*args: str) -> tuple[int, str]:
    """`bullring ARGS` in this process; (exit code, stderr)."""
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr


@pytest.mark.parametrize(("body", "field", "says"), REFUSED)
def test_league_run_refuses_in_one_line_and_writes_nothing(
    tmp_path: Path, body: str, field: str, says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "bad.toml"
    file.write_text(body)
    monkeypatch.chdir(tmp_path)
    code, err = run_cli("league", "run", str(file), "--no-progress")
    assert code == 2
    assert field in err and says in err
    assert len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == [file]


def test_a_schedule_above_the_cap_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    # Duplicate with 2 seats plays each deal twice: 600,000 deals are 1,200,000 matches,
    # though `games` itself is under the cap.
    file = tmp_path / "big.toml"
    file.write_text(league(head='format = "duplicate"\ngames = 600000\n'))
    done = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path, timeout=60)
    assert done.returncode == 2
    assert "1,200,000 matches, more than the cap of 1,000,000" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == [file]


def test_a_bot_named_like_a_path_is_refused_by_a_real_league_run(tmp_path: Path) -> None:
    file = tmp_path / "l.toml"
    file.write_text(league(bots=BOTS.replace('name = "b"', 'name = "../../escaped"')))
    done = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and "bots[1].name" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == [file]
    assert not list(Path("/").glob("escaped*")) and not list(tmp_path.parent.glob("escaped*"))


def test_run_refuses_a_parallel_override_above_the_cap(tmp_path: Path) -> None:
    file = tmp_path / "l.toml"
    file.write_text(league())
    code, err = run_cli("league", "run", str(file), "--parallel", "100000", "--no-progress")
    assert code == 2 and err.startswith("error: --parallel: must be at most")
    code, err = run_cli("league", "run", str(file), "--lock-timeout", "0", "--no-progress")
    assert code == 2 and "--lock-timeout" in err
    assert list(tmp_path.iterdir()) == [file]


PLAY = ["play", "6nimmt:rounds=1", "--bot", str(FIRST), "--bot", str(FIRST)]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--decision-ms", str(10**11)], "--decision-ms: must be at most 600,000"),
        (["--decision-ms", "0"], "--decision-ms: must be at least 1"),
        (["--time-bank-ms", "-1"], "--time-bank-ms: must be at least 0"),
        (["--setup-ms", str(2**32)], "--setup-ms: must be at most 600,000"),
        (["--max-faults", "0"], "--max-faults: must be at least 1"),
    ],
)
def test_play_refuses_clock_values_beyond_their_caps(args: list[str], says: str) -> None:
    code, err = run_cli(*PLAY, *args)
    assert code == 2
    assert err.strip() == f"error: {says}, not {int(args[1]):,}"


@pytest.mark.parametrize(
    ("variant", "says"),
    [
        (f"6nimmt:rounds={ARABIC_ONE}", "ASCII digits"),
        ("6nimmt:rounds=1_0", "ASCII digits"),
        ("6nimmt:rounds=+3", "ASCII digits"),
        ("6nimmt:rounds=1000", "must be at most 100"),
        ("6nimmt:rounds=" + "9" * 40, "must be from 1 to 100"),
        ("6nimmt:rounds=-3", "must be at least 1"),
    ],
)
def test_play_refuses_bad_variant_numbers(variant: str, says: str) -> None:
    code, err = run_cli("play", variant, "--bot", str(FIRST), "--bot", str(FIRST))
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1
    with pytest.raises(RulesError, match=says):
        parse_variant(variant)


def test_bot_check_refuses_clock_values_and_games_beyond_their_caps() -> None:
    code, err = run_cli("bot", "check", str(FIRST), "--decision-ms", str(10**11))
    assert code == 2 and err.startswith("error: --decision-ms: must be at most")
    code, err = run_cli("bot", "check", str(FIRST), "--setup-ms", "0")
    assert code == 2 and err.startswith("error: --setup-ms: must be at least 1")
    code, err = run_cli("bot", "check", str(FIRST), "--games", "1000000")
    assert code == 2 and err.startswith("error: --games: must be at most")


def test_a_real_play_with_a_huge_clock_is_one_line_not_a_traceback() -> None:
    done = bullring(*PLAY, "--decision-ms", str(10**11), cwd=Path.cwd(), timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("name", ["../../x", "..", ".x", "-x", "a b", "é", "x" * 65])
def test_manifests_refuse_unsafe_names(tmp_path: Path, name: str) -> None:
    manifest = tmp_path / "bot.toml"
    manifest.write_text(f'name = "{name}"\ncommand = ["true"]\n')
    with pytest.raises(ManifestError, match="field 'name'"):
        load_manifest(manifest)


def test_a_bot_log_stays_in_its_folder_whatever_the_name(tmp_path: Path) -> None:
    """Names are checked when loaded; the path is built safely even so."""
    logs = tmp_path / "logs" / "deep"
    spec = replace(bot_named("first_option"), name="../../escaped")
    process = BotProcess(spec, ProcessLimits(log_dir=str(logs)))
    try:
        assert process.log_path.parent == logs
        assert process.log_path.name.startswith("_.._escaped-")
    finally:
        process.stop()
    assert not list(tmp_path.glob("escaped*")) and not list(tmp_path.glob("*/escaped*"))
