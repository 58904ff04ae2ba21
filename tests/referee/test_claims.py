"""Hello claims that carry options (sdk/wire/claims.py): ``6nimmt`` claims every format of 6
nimmt!, ``6nimmt:rounds=1`` that format only. ``bot check`` plays each claimed format
first and fails invalid claims in one line; ``bullring play`` and ``bot submit`` (a
league's entry) refuse a bot in a format it did not claim. Real bot processes over gRPC."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sdk.game import PRESETS, RulesError, parse_variant
from sdk.wire.claims import claim_problems, claimed_formats, claims_cover, parse_claim, parse_claims
from tests.referee.helpers import bad_bots_copy
from tests.referee.league.leagues import bullring, write_league

QUICK = ("--games", "1", "--decision-ms", "3000", "--setup-ms", "30000")


# --- the claims themselves --------------------------------------------------------------


def test_a_bare_name_claims_every_format_and_options_claim_one() -> None:
    assert claims_cover(["6nimmt"], "6nimmt:rounds=1")
    assert claims_cover(["6nimmt"], "6nimmt:end=reach66,rounds=3")
    assert claims_cover(["6nimmt:rounds=1"], "6nimmt:rounds=1")
    assert not claims_cover(["6nimmt:rounds=1"], "6nimmt")
    assert not claims_cover(["6nimmt:rounds=1"], "6nimmt:rounds=2")
    assert not claims_cover(["6nimmt:rounds=1"], "6nimmt:rounds=1,end=reach66")
    assert not claims_cover(["6nimmt:rounds=1"], "6nimmt-pro:rounds=1")  # another variant
    assert not claims_cover(["6nimmt"], "xnimmt")
    assert claims_cover([], "hornochsen")  # no claims: everything


def test_claims_compare_resolved_formats_not_spelling() -> None:
    default_end = parse_variant("6nimmt").options["end"]
    spelled = f"6nimmt: end = {default_end} , rounds=1"
    assert claims_cover([spelled], "6nimmt:rounds=1")
    assert claims_cover(["6nimmt:rounds=1"], parse_variant("6nimmt", {"rounds": "1"}))
    assert parse_claim(spelled).format == "6nimmt:rounds=1"


def test_claimed_formats_put_the_one_format_claims_first() -> None:
    assert claimed_formats(["xnimmt", "6nimmt:rounds=1", "6nimmt"]) == [
        "6nimmt:rounds=1",
        "xnimmt",
        "6nimmt",
    ]
    assert claimed_formats(["6nimmt:rounds=1", "6nimmt:rounds=1,end=over66"]) == ["6nimmt:rounds=1"]
    assert claimed_formats([]) == list(PRESETS)


@pytest.mark.parametrize(
    ("claim", "says"),
    [
        ("7nimmt", "invalid claim '7nimmt': unknown variant '7nimmt'"),
        ("6nimmt:rounds=x", "invalid claim '6nimmt:rounds=x': "),
        ("6nimmt:colour=red", "invalid claim '6nimmt:colour=red': "),
        ("6nimmt:rounds", "must look like name=value"),
    ],
)
def test_an_invalid_claim_is_one_line_naming_it(claim: str, says: str) -> None:
    (problem,) = claim_problems(["6nimmt", claim])
    assert says in problem and "\n" not in problem
    with pytest.raises(RulesError, match=re.escape(says)):
        parse_claims([claim])
    assert not claims_cover([claim], "6nimmt")  # an invalid claim covers nothing


# --- the referee's commands -------------------------------------------------------------


def manifest(folder: Path, claims: str) -> Path:
    """A manifest of tests/referee/bad_bots/claims.py claiming `claims` (";"-separated)."""
    file = bad_bots_copy(folder) / "claims.toml"
    file.write_text(
        'name = "claims"\nversion = "1"\n'
        'command = ["{python}", "-m", "tests.referee.bad_bots.claims"]\n'
        f'workdir = "../../.."\n[env]\nCLAIMS = "{claims}"\n'
    )
    return file


def check(bot: Path, *args: str) -> tuple[int, dict[str, Any]]:
    done = bullring("bot", "check", str(bot), "--json", *QUICK, *args, cwd=bot.parent, timeout=600)
    assert "Traceback" not in done.stderr, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return done.returncode, report


@pytest.mark.slow
def test_check_plays_each_claimed_format_first(tmp_path: Path) -> None:
    code, report = check(manifest(tmp_path, "xnimmt;6nimmt:rounds=1"))
    assert code == 0, report
    assert report["hello"]["variants"] == ["xnimmt", "6nimmt:rounds=1"]
    assert [v["variant"] for v in report["variants"]] == ["6nimmt:rounds=1", "xnimmt"]


def test_check_refuses_a_format_the_bot_did_not_claim(tmp_path: Path) -> None:
    code, report = check(manifest(tmp_path, "6nimmt:rounds=1"), "--variant", "6nimmt:rounds=2")
    assert code == 1
    assert report["problems"] == [
        "6nimmt:rounds=2: the bot does not claim this format (it claims 6nimmt:rounds=1)"
    ]
    assert report["variants"] == []  # nothing played


def test_check_fails_invalid_claims_in_one_line_each(tmp_path: Path) -> None:
    code, report = check(manifest(tmp_path, "6nimmt:rounds=x;7nimmt;6nimmt"))
    assert code == 1
    problems = report["problems"]
    assert len(problems) == 2, problems
    assert problems[0].startswith("hello: invalid claim '6nimmt:rounds=x': ")
    assert problems[1].startswith("hello: invalid claim '7nimmt': unknown variant '7nimmt'")
    assert report["variants"] == []


def test_play_refuses_a_bot_in_a_format_it_did_not_claim(tmp_path: Path) -> None:
    bot = str(manifest(tmp_path, "6nimmt:rounds=1"))
    played = bullring(
        "play", "6nimmt:rounds=2", "--setup-ms", "30000", "--bot", bot, "--bot", bot, cwd=tmp_path
    )
    assert played.returncode == 2, played.stdout + played.stderr
    assert (
        "claims@1 cannot play: it does not claim 6nimmt:rounds=2 (it claims 6nimmt:rounds=1)"
    ) in played.stderr
    assert "result" not in played.stdout


def test_play_refuses_a_bot_with_an_invalid_claim(tmp_path: Path) -> None:
    bot = str(manifest(tmp_path, "6nimmt;6nimmt:rounds=0"))
    played = bullring(
        "play", "6nimmt", "--setup-ms", "30000", "--bot", bot, "--bot", bot, cwd=tmp_path
    )
    assert played.returncode == 2, played.stdout + played.stderr
    assert "claims@1 cannot play: its Hello has an invalid claim '6nimmt:rounds=0'" in (
        played.stderr
    )


LEAGUE = """
[league]
name = "formats"
seed = 5
seats = 2
games = 1
parallel = 1
store = "formats.sqlite"

[clock]
decision_ms = 3000
setup_ms = 30000

[[variants]]
id = "6nimmt"
options = { rounds = 1 }
"""


@pytest.mark.slow
def test_a_league_admits_a_bot_only_to_formats_it_claims(tmp_path: Path) -> None:
    only = manifest(tmp_path, "6nimmt:rounds=1")
    joined = bullring(
        "bot",
        "submit",
        str(only),
        "--league",
        str(write_league(tmp_path, LEAGUE, bots=["a"], name="one")),
        cwd=tmp_path,
        timeout=600,
    )
    assert joined.returncode == 0, joined.stdout + joined.stderr
    two = LEAGUE.replace("formats", "two").replace("rounds = 1", "rounds = 2")
    refused = bullring(
        "bot",
        "submit",
        str(only),
        "--league",
        str(write_league(tmp_path, two, bots=["a"], name="two")),
        cwd=tmp_path,
        timeout=600,
    )
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert refused.stderr.strip().splitlines() == [  # (the whole of stderr)
        "claims@1 not registered: 6nimmt:rounds=2: the bot does not claim this format "
        "(it claims 6nimmt:rounds=1)"
    ], refused.stderr
