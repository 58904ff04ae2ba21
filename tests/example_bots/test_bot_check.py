"""`bullring bot check` on the example bots (they pass) and on the referee's misbehaving
bots (they fail, with the reason). Real bot processes over real gRPC."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.bots.manifest import load_manifest
from referee.check import run_check
from referee.spec import ClockSpec

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "example_bots"
BAD_BOTS = ROOT / "tests" / "referee" / "bad_bots"
BULLRING = [str(Path(sys.executable).with_name("bullring"))]

# The reason each misbehaving bot must be failed for (a fault kind or Hello's complaint).
EXPECTED_REASON = {
    "never_ready": "UNAVAILABLE",
    "crash_at_start": "CRASH",
    "wrong_version": "protocol version",
    "crash_mid_match": "CRASH",
    "exit_mid_call": "CRASH",
    "close_connection": "UNAVAILABLE",
    "hang": "TIMEOUT",
    "slow": "TIMEOUT",
    "illegal": "ILLEGAL",
    "empty_reply": "PROTOCOL",
    "huge_reply": "PROTOCOL",
    "error_status": "PROTOCOL",
    "garbage_reply": "PROTOCOL",
    "nested_reply": "PROTOCOL",
    "compressed_bomb": "PROTOCOL",
    "huge_status": "PROTOCOL",
    "double_reply": "PROTOCOL",
    "garbage_hello": "PROTOCOL",
    "hello_hang": "TIMEOUT",
    "start_hang": "TIMEOUT",
    "raises": "EXCEPTION",
    "log_marker": "EXCEPTION",  # raises at its second decision of each match
    "hostile_exception": "fault(s), first",  # PROTOCOL or EXCEPTION: see the bot
    "crash_at_import": "SyntaxError",
    "no_command": "CRASH",  # its command does not exist
    "version_mismatch": "version '9.9'",
    "hostile_text": "EXCEPTION",  # and its Hello's name is not its manifest's
    "hostile_text_crash": "CRASH",
}
# Misbehaving, but in nothing a fault counts: a hung EndMatch costs the referee its
# EndMatch limit and the process, after the result is known.
NOT_FAULTS = {"end_hang"}
QUICK_CLOCK = ClockSpec(decision_ms=100, time_bank_ms=100, setup_ms=3000, max_faults=2)

# Bots (the example ones as opponents too) must answer within short clocks: run alone.
pytestmark = pytest.mark.serial


def bullring_check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*BULLRING, "bot", "check", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def test_every_bad_bot_has_an_expected_reason() -> None:
    manifests = {p.stem for p in BAD_BOTS.glob("*.toml")}
    well_behaved = {
        "first_option", "seeded_random", "spy", "steady", "chatty", "sixnimmt_only", "where_am_i",
    }  # fmt: skip
    assert manifests - well_behaved - NOT_FAULTS == set(EXPECTED_REASON)


@pytest.mark.parametrize("name", sorted(EXPECTED_REASON))
def test_check_fails_a_misbehaving_bot_with_the_reason(name: str) -> None:
    spec = load_manifest(BAD_BOTS / f"{name}.toml")
    report = run_check(spec, games=1, variants=["6nimmt:rounds=1"], clock=QUICK_CLOCK)
    assert not report.passed
    assert any(EXPECTED_REASON[name] in problem for problem in report.problems), report.problems


def test_check_passes_a_plain_bot_and_measures_it() -> None:
    spec = load_manifest(BAD_BOTS / "first_option.toml")
    report = run_check(spec, games=2, variants=["6nimmt:rounds=1", "xnimmt"], clock=QUICK_CLOCK)
    assert report.passed, report.problems
    assert report.healthy and report.hello["protocol_version"] == 1
    assert [v.games for v in report.variants] == [2, 2]
    summary = report.to_json()
    assert summary["decisions"] == len(report.latency.samples) > 20
    assert 0 < summary["p50_ms"] <= summary["p99_ms"] <= summary["max_ms"]


def test_cli_exit_status_and_json() -> None:
    good = bullring_check(
        str(BAD_BOTS / "first_option.toml"), "--variant", "6nimmt:rounds=1", "--games", "1",
        "--json",
    )  # fmt: skip
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["passed"] is True
    bad = bullring_check(
        str(BAD_BOTS / "illegal.toml"), "--variant", "6nimmt:rounds=1", "--games", "1",
        "--decision-ms", "200",
    )  # fmt: skip
    assert bad.returncode == 1
    assert "FAIL" in bad.stdout and "ILLEGAL" in bad.stdout
    missing = bullring_check(str(ROOT / "no_such_bot.toml"))
    assert missing.returncode == 2
    assert "no such manifest" in missing.stderr and "Traceback" not in missing.stderr


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["random_bot", "rules_bot", "montecarlo_bot", "champion_bot"])
def test_python_example_bot_passes_the_check(bot: str) -> None:
    # A short deadline keeps the check quick; a roomy setup limit keeps a loaded CI machine
    # (several test workers starting bot processes at once) from failing a start-up, and a
    # roomy time bank keeps a machine that stalls a bot's process past the deadline from
    # turning that into a TIMEOUT. Whether a bot itself answers in time is not a question
    # a shared machine's wall clock can settle: test_montecarlo_clock holds the Monte Carlo
    # bot to its deadline in its own CPU time, and tests/sdk/test_local.py the clock rules.
    result = bullring_check(
        str(EXAMPLES / bot), "--games", "1", "--decision-ms", "150", "--setup-ms", "60000",
        "--time-bank-ms", "30000", "--json",
    )  # fmt: skip
    report = json.loads(result.stdout)
    assert result.returncode == 0, report["problems"]
    assert report["passed"] and not report["faults"]
    assert report["hello"]["decide_stream"] and report["hello"]["history_deltas"]
    assert report["decisions"] > 0 and 0 <= report["overruns"] <= report["decisions"]
    assert {v["variant"] for v in report["variants"]} >= {"6nimmt", "xnimmt"}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("bot", "args", "variants"),
    [
        (
            "learned_bot",
            ["--decision-ms", "400", "--time-bank-ms", "10000"],
            {"6nimmt", "6nimmt-tactics", "6nimmt-logic", "6nimmt-pro"},
        ),
        (
            # IS-MCTS thinks for 60% of each deadline, and its first search of a decision
            # runs whatever the clock: a roomy bank keeps a loaded machine from a TIMEOUT.
            "openspiel_ismcts_bot",
            ["--decision-ms", "1000", "--time-bank-ms", "60000", "--variant",
             "6nimmt:rounds=1", "--variant", "hornochsen"],
            {"6nimmt:rounds=1", "hornochsen"},
        ),
    ],
)  # fmt: skip
def test_learned_and_openspiel_bots_pass_the_check(
    bot: str, args: list[str], variants: set[str]
) -> None:
    # Sandboxed like every check: the learned bot finds its weights in its own folder and
    # both import numpy (and OpenSpiel) from the runtime only.
    result = bullring_check(
        str(EXAMPLES / bot), "--games", "1", "--setup-ms", "60000", "--json", *args
    )
    report = json.loads(result.stdout)
    assert result.returncode == 0, report["problems"]
    assert report["passed"] and not report["faults"]
    assert {v["variant"] for v in report["variants"]} == variants


@pytest.mark.slow
def test_typescript_bot_installs_and_passes_the_check() -> None:
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("Node.js and npm are needed for the TypeScript bot")
    folder = EXAMPLES / "ts_bot"
    subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"], cwd=folder, check=True, timeout=600,
        capture_output=True,
    )  # fmt: skip
    assert (folder / "dist" / "bot.js").is_file()
    result = bullring_check(str(folder), "--games", "1", "--decision-ms", "500", "--json")
    report = json.loads(result.stdout)
    assert result.returncode == 0, report["problems"]
    assert report["hello"]["name"] == "ts_bot"
    assert report["hello"]["decide_stream"]  # so the check played it on decision streams
    assert report["passed"] and not report["faults"]
