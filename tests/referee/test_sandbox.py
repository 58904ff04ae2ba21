"""The sandbox as users meet it: a benign bot plays in it exactly as outside; the league
file's [sandbox] table; what a bot's folder is; and failing closed, for real (bubblewrap
pointed at a file that does not exist), with the one exception of the demo."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.bots.manifest import load_manifest
from referee.bots.process import BotPool, BotStartError
from referee.league.config import LeagueFileError, load_league
from referee.match.runner import play_match
from referee.replay.result import MatchResult
from referee.sandbox.bubblewrap import BWRAP_ENV
from referee.sandbox.config import NO_SANDBOX, SandboxConfig, SandboxUnavailable
from referee.sandbox.folders import (
    PRIVATE_PREFIX,
    bot_folder,
    on_tmpfs,
    private_folder,
    runtime_mounts,
    socket_root,
)
from referee.sandbox.probe import ensure_available
from referee.spec import BotSpec, MatchSpec
from tests.referee.helpers import BAD_BOTS, REPO, ROOMY_CLOCK, descendants

BULLRING = str(Path(sys.executable).with_name("bullring"))
EXAMPLES = REPO / "example_bots"
MISSING_BWRAP = "/nonexistent/bin/bwrap"


def bullring(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BULLRING, *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "200", **(env or {})},
    )


def play(spec: MatchSpec, sandbox: SandboxConfig) -> MatchResult:
    async def run() -> MatchResult:
        async with BotPool(sandbox=sandbox) as pool:
            return await play_match(spec, pool)

    return asyncio.run(run())


@pytest.mark.parametrize(
    ("variant", "options", "seed"),
    [("6nimmt", {"rounds": "1"}, 1), ("6nimmt", {"rounds": "1"}, 2), ("xnimmt", {}, 3)],
)
def test_a_benign_bot_plays_in_the_sandbox_exactly_as_outside(
    variant: str, options: dict[str, str], seed: int
) -> None:
    bots = (
        load_manifest(EXAMPLES / "random_bot"),
        load_manifest(EXAMPLES / "rules_bot"),
        load_manifest(EXAMPLES / "random_bot"),
    )
    spec = MatchSpec(f"same-{seed}", variant, options, seed, bots, ROOMY_CLOCK)
    inside, outside = play(spec, SandboxConfig()), play(spec, NO_SANDBOX)
    assert inside.faults == outside.faults == ()
    assert inside.scores == outside.scores and inside.ranks == outside.ranks
    choices = [[d.choice for d in r.recorded_replay().decisions] for r in (inside, outside)]
    assert choices[0] == choices[1] and len(choices[0]) > 10
    assert descendants() == []


# --- the league file's [sandbox] --------------------------------------------------------

LEAGUE = f"""
[league]
name = "sbx"
seats = 2
store = "sbx.sqlite"

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

[[bots]]
manifest = "{BAD_BOTS / "first_option.toml"}"
name = "a"

[[bots]]
manifest = "{BAD_BOTS / "first_option.toml"}"
name = "b"
"""


def league_file(folder: Path, sandbox: str) -> Path:
    file = folder / "sbx.toml"
    file.write_text(LEAGUE + "\n[sandbox]\n" + sandbox + "\n")
    return file


def test_the_sandbox_table_of_a_league_file(tmp_path: Path) -> None:
    config = load_league(
        league_file(
            tmp_path,
            "memory_mb = 512\nprocesses = 40\ncpus = 0.5\ntmp_mb = 16\nuids = [70000, 70099]\n"
            'bwrap = "/usr/bin/bwrap"\nread_only = ["/opt/node"]\nwritable = ["/srv/out"]',
        )
    )
    assert config.sandbox == SandboxConfig(
        memory_mb=512,
        processes=40,
        cpus=0.5,
        tmp_mb=16,
        uids=(70000, 70099),
        bwrap="/usr/bin/bwrap",
        read_only=("/opt/node",),
        writable=("/srv/out",),
    )
    assert load_league(league_file(tmp_path, "")).sandbox == SandboxConfig()
    # The sandbox is not part of the schedule: changing it keeps a league's store.
    assert config.digest() == load_league(league_file(tmp_path, "")).digest()


@pytest.mark.parametrize(
    ("table", "field"),
    [
        ("memory_mb = 0", "sandbox.memory_mb"),
        ("processes = -1", "sandbox.processes"),
        ("cpus = 0", "sandbox.cpus"),
        ("tmp_mb = 99999999", "sandbox.tmp_mb"),
        ("uids = [0, 10]", "sandbox.uids"),
        ("uids = [70000]", "sandbox.uids"),
        ('enabled = "yes"', "sandbox.enabled"),
        ("bwrap = 3", "sandbox.bwrap"),
        ('read_only = ["relative/path"]', "sandbox.read_only"),
        ('writable = "/tmp"', "sandbox.writable"),
        ("memory = 1", "sandbox.memory"),
    ],
)
def test_a_bad_sandbox_table_names_the_field(tmp_path: Path, table: str, field: str) -> None:
    with pytest.raises(LeagueFileError, match=field.replace(".", r"\.")):
        load_league(league_file(tmp_path, table))


# --- a bot's folder -----------------------------------------------------------------------


def test_a_bots_folder_is_its_manifests_widened_to_its_package() -> None:
    # The example bots are modules of the example_bots package: they see the package.
    assert bot_folder(load_manifest(EXAMPLES / "random_bot")) == EXAMPLES
    assert bot_folder(load_manifest(EXAMPLES / "montecarlo_bot")) == EXAMPLES
    # The TypeScript bot is no Python package: it sees its own folder.
    assert bot_folder(load_manifest(EXAMPLES / "ts_bot")) == EXAMPLES / "ts_bot"
    assert bot_folder(load_manifest(BAD_BOTS / "first_option.toml")) == REPO / "tests"


def test_a_bot_whose_workdir_is_outside_its_folder_is_not_started(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.toml").write_text(f'name = "x"\ncommand = ["true"]\nworkdir = "{REPO}"\n')
    tmp_path.chmod(0o755)
    spec = load_manifest(folder)
    with pytest.raises(BotStartError, match="outside the bot's folder") as raised:
        asyncio.run(lease_once(spec))
    assert raised.value.kind.value == "UNAVAILABLE"


def test_a_bot_folder_its_uid_cannot_read_is_refused_with_the_fix(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    folder.mkdir(mode=0o700)
    (folder / "bot.toml").write_text('name = "x"\ncommand = ["true"]\n')
    with pytest.raises(BotStartError, match=r"chmod -R o\+rX"):
        asyncio.run(lease_once(load_manifest(folder)))


async def lease_once(spec: BotSpec) -> None:
    async with BotPool(sandbox=SandboxConfig()) as pool:
        await pool.lease(spec, 10.0)


# --- failing closed -------------------------------------------------------------------------


def assert_names_bubblewrap(stderr: str) -> None:
    assert stderr.startswith("error: the bot sandbox is not available"), stderr
    assert f"bubblewrap (bwrap) is not installed at {MISSING_BWRAP}" in stderr
    assert "apt-get install bubblewrap" in stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1


def test_without_bubblewrap_the_library_refuses_to_start_bots() -> None:
    with pytest.raises(SandboxUnavailable, match="bubblewrap"):
        ensure_available(SandboxConfig(bwrap=MISSING_BWRAP))
    with pytest.raises(SandboxUnavailable):
        BotPool(sandbox=SandboxConfig(bwrap=MISSING_BWRAP))


def test_league_run_refuses_to_start_bots_without_the_sandbox(tmp_path: Path) -> None:
    file = league_file(tmp_path, f'bwrap = "{MISSING_BWRAP}"')
    done = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path)
    assert done.returncode == 2
    assert_names_bubblewrap(done.stderr)
    assert not (tmp_path / "sbx.sqlite").exists(), "nothing is written"


def test_bot_submit_refuses_to_start_a_bot_without_the_sandbox(tmp_path: Path) -> None:
    file = league_file(tmp_path, "")
    manifest = str(BAD_BOTS / "illegal.toml")
    done = bullring("bot", "submit", manifest, "--league", str(file), cwd=tmp_path,
                    env={BWRAP_ENV: MISSING_BWRAP})  # fmt: skip
    assert done.returncode == 2
    assert_names_bubblewrap(done.stderr)
    off = league_file(tmp_path, "enabled = false")
    refused = bullring("bot", "submit", manifest, "--league", str(off), cwd=tmp_path)
    assert refused.returncode == 2 and "only in the sandbox" in refused.stderr
    assert not (tmp_path / "sbx.sqlite").exists()


def test_play_fails_closed_and_plays_with_no_sandbox(tmp_path: Path) -> None:
    bots = ["--bot", str(BAD_BOTS / "seeded_random.toml")] * 2
    env = {BWRAP_ENV: MISSING_BWRAP}
    refused = bullring("play", "6nimmt:rounds=1", *bots, "-q", cwd=tmp_path, env=env)
    assert refused.returncode == 2
    assert_names_bubblewrap(refused.stderr)
    assert "--no-sandbox" in refused.stderr
    played = bullring("play", "6nimmt:rounds=1", *bots, "-q", "--no-sandbox", cwd=tmp_path, env=env)
    assert played.returncode == 0, played.stderr
    assert "result" in played.stdout


DEMO = f"""
[league]
name = "demo"
seed = 1
seats = 3
games = 1
parallel = 1
store = "unused.sqlite"

[clock]
decision_ms = 200
setup_ms = 30000

[[bots]]
manifest = "{EXAMPLES / "random_bot" / "bot.toml"}"

[[bots]]
manifest = "{EXAMPLES / "rules_bot" / "bot.toml"}"

[[bots]]
manifest = "{BAD_BOTS / "seeded_random.toml"}"

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}
"""


def test_the_demo_runs_without_bubblewrap_and_says_so(tmp_path: Path) -> None:
    league = tmp_path / "demo.toml"
    league.write_text(DEMO)
    out = tmp_path / "demo"
    env = {BWRAP_ENV: MISSING_BWRAP}
    done = bullring("demo", "--league", str(league), "--out", str(out), "--no-progress",
                    cwd=tmp_path, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    notices = [line for line in done.stderr.splitlines() if line.startswith("notice:")]
    assert len(notices) == 1, done.stderr
    assert "unsandboxed" in notices[0] and "apt-get install bubblewrap" in notices[0]
    assert "1/1 matches" in done.stdout
    assert descendants() == []


def test_endpoints_need_no_sandbox(tmp_path: Path) -> None:
    # A bot already running (an endpoint) is outside the sandbox by definition: a match of
    # endpoints only starts no process, so it needs no sandbox either. Without bubblewrap,
    # play goes as far as asking the endpoints whether they are ready (these are not:
    # play refuses them before the match), never stopping at the missing sandbox.
    done = bullring("play", "6nimmt:rounds=1", "--bot", "unix:/nonexistent.sock", "--bot",
                    "unix:/nonexistent.sock", "-q", "--setup-ms", "200", cwd=tmp_path,
                    env={BWRAP_ENV: MISSING_BWRAP})  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "unix:/nonexistent.sock@endpoint is not ready" in done.stderr, done.stderr
    assert "its output" not in done.stderr  # an endpoint has none to show
    assert "sandbox" not in done.stderr and "bubblewrap" not in done.stderr
    assert "Traceback" not in done.stderr


def test_the_sandbox_is_on_by_default() -> None:
    assert BotPool().sandbox.enabled
    assert dataclasses.replace(SandboxConfig(), enabled=False) == NO_SANDBOX


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A folder shallow enough for bot sockets (pytest's tmp_path may not be)."""
    with tempfile.TemporaryDirectory(dir="/tmp") as folder:
        yield Path(folder)


def test_private_folders_of_referees_that_are_gone_are_swept(short_tmp: Path) -> None:
    # A referee and its bots' watchdogs all killed with SIGKILL leave private folders.
    tmp_path = short_tmp
    gone = subprocess.Popen(["true"])
    gone.wait()
    stale = tmp_path / f"{PRIVATE_PREFIX}{gone.pid}-abc"
    live = tmp_path / f"{PRIVATE_PREFIX}{os.getpid()}-abc"
    other = tmp_path / "bullring-bot-not-a-referee"
    for folder in (stale, live, other):
        (folder / "sock").mkdir(parents=True)
    made = private_folder(str(tmp_path))  # the first one here sweeps
    assert not stale.exists() and live.exists() and other.exists()
    assert made.name.startswith(f"{PRIVATE_PREFIX}{os.getpid()}-")
    assert made.stat().st_mode & 0o777 == 0o700


def test_private_folders_on_a_disk_are_refused(short_tmp: Path) -> None:
    # A bot writes in its socket folder (in its private folder) before it listens, and a
    # file it opened there and unlinked stays writable after: only on a tmpfs does that
    # count against its memory limit (tests/referee/hostile/test_containment.py).
    if on_tmpfs(short_tmp):
        pytest.skip("/tmp is a tmpfs here")
    assert on_tmpfs(Path("/dev/shm"))
    with pytest.raises(SandboxUnavailable, match=f"on {short_tmp}, which is not a tmpfs"):
        ensure_available(SandboxConfig(private_root=str(short_tmp)))


@pytest.mark.parametrize("sandboxed", [True, False])
def test_a_deep_temporary_folder_still_gives_a_socket_that_binds(
    sandboxed: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A Unix socket's path has at most 107 bytes; pytest's own TMPDIR once broke this.
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    deep_root = str(deep)
    assert socket_root(deep_root) != deep_root
    assert socket_root("/tmp") == "/tmp"
    monkeypatch.setattr(tempfile, "tempdir", deep_root)
    config = SandboxConfig(private_root=deep_root) if sandboxed else NO_SANDBOX
    spec = load_manifest(str(EXAMPLES / "random_bot"))

    async def start() -> str:
        async with BotPool(sandbox=config) as pool:
            lease = await pool.lease(spec, 60.0)
            assert lease.process is not None
            return str(lease.process.socket_path)

    socket = asyncio.run(start())
    assert len(os.fsencode(socket)) < 108 and not socket.startswith(deep_root)


def test_the_runtime_shows_the_checkouts_proto_folder() -> None:
    """Bots in other languages load the protocol from the checkout's proto/ folder (the
    TypeScript bot does); the sandbox's read-only runtime must show it."""
    proto = os.path.realpath(REPO / "proto")
    shown = [m.target for m in runtime_mounts() if m.kind == "ro"]
    assert any(proto == t or proto.startswith(t.rstrip("/") + "/") for t in shown), shown
