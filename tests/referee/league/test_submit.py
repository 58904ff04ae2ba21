"""bullring bot submit: a checked bot is registered; a new version is rated apart."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from referee.league.config import load_league
from referee.league.runner import plan_static
from referee.league.store import LeagueStore
from tests.referee.helpers import BAD_BOTS
from tests.referee.league.leagues import REPO, bullring, write_league

pytestmark = pytest.mark.slow
RANDOM_BOT = REPO / "example_bots" / "random_bot" / "bot.toml"
LEAGUE = """
[league]
name = "sub"
seed = 5
seats = 2
games = 2
parallel = 1
store = "sub.sqlite"

[[variants]]
id = "6nimmt"
options = { rounds = 1 }
"""


def version_of(manifest: Path, folder: Path, version: str, code_version: str | None = None) -> Path:
    """A copy of the example bot of `manifest` (its package, code and manifest) under
    `folder`, its manifest saying `version` and its code (its Hello) `code_version` (default:
    unchanged). A bot's manifest lives with its code: the sandbox shows a bot its own folder
    and nothing else of the host's files."""
    bot = manifest.parent
    package = folder / f"{version}-{code_version}" / bot.parent.name
    shutil.copytree(bot, package / bot.name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(bot.parent / "__init__.py", package / "__init__.py")
    if code_version is not None:
        code = package / bot.name / "bot.py"
        text = re.sub(
            r'(?m)^    version = ".*"$', f'    version = "{code_version}"', code.read_text()
        )
        code.write_text(text)
    copy = package / bot.name / manifest.name
    copy.write_text(re.sub(r'(?m)^version = ".*"$', f'version = "{version}"', manifest.read_text()))
    return copy


def random_bot_version(folder: Path, version: str) -> Path:
    """A real new version of the random bot: its code says `version` too."""
    return version_of(RANDOM_BOT, folder, version, code_version=version)


def test_submit_registers_and_new_versions_keep_history_apart(tmp_path: Path) -> None:
    file = write_league(tmp_path, LEAGUE, bots=["a", "b"])
    store = tmp_path / "sub.sqlite"

    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\n')
    refused = bullring("bot", "submit", str(bad), "--league", str(file), cwd=tmp_path)
    assert refused.returncode == 2 and "command" in refused.stderr
    assert "Traceback" not in refused.stderr and not store.exists()

    # A bot that plays illegal options fails the conformance check and is not registered.
    faulty = bullring(
        "bot", "submit", str(BAD_BOTS / "illegal.toml"), "--league", str(file), cwd=tmp_path
    )
    assert faulty.returncode == 1 and "ILLEGAL" in faulty.stderr, faulty.stderr
    assert "not registered" in faulty.stderr and not store.exists()

    done = bullring("bot", "submit", str(RANDOM_BOT), "--league", str(file), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "registered random_bot@1.0" in done.stdout
    ran = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    shown = bullring("league", "status", str(file), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "random_bot@1.0" in shown.stdout
    assert "win %" in shown.stdout and "mean score" in shown.stdout, shown.stdout
    assert "…" not in shown.stdout  # nothing cut when piped
    with LeagueStore.open_readonly(store) as db:
        assert db.counts() == (6, 6)  # 3 pairs x 2 games
        old_history = db.rating_history("6nimmt:rounds=1", "random_bot@1.0")
        assert len(old_history) == 4

    # A new version in the manifest only: Hello still says 1.0, so it is refused.
    bumped = version_of(RANDOM_BOT, tmp_path, "2.0")
    refused = bullring("bot", "submit", str(bumped), "--league", str(file), cwd=tmp_path)
    assert refused.returncode == 1 and "version '1.0'" in refused.stderr, refused.stderr

    v2 = random_bot_version(tmp_path, "2.0")
    done = bullring("bot", "submit", str(v2), "--league", str(file), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "new version of random_bot" in done.stdout
    # Before the next run, status counts the matches the submission added.
    shown = bullring("league", "status", str(file), "--json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    counts = json.loads(shown.stdout)
    assert (counts["finished"], counts["scheduled"], counts["unscheduled"]) == (6, 6, 4)
    shown = bullring("league", "status", str(file), cwd=tmp_path)
    assert "6/6 matches played (4 to be scheduled by the next league run)" in shown.stdout
    ran = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    with LeagueStore.open_readonly(store) as db:
        assert db.counts() == (10, 10)  # + (a, v2) and (b, v2), 2 games each
        assert db.rating_history("6nimmt:rounds=1", "random_bot@1.0") == old_history
        assert len(db.rating_history("6nimmt:rounds=1", "random_bot@2.0")) == 4
        assert [b.key for b in db.active_bots()] == ["a@1", "b@1", "random_bot@2.0"]


def test_the_documented_example_schedules_what_the_docs_say(tmp_path: Path) -> None:
    text = (REPO / "docs" / "leagues.md").read_text()
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    league = tmp_path / "example.toml"
    league.write_text(example.replace('"../example_bots', f'"{REPO}/example_bots'))
    config = load_league(league)
    planned = plan_static(config, config.bots)
    assert sum(1 for m in planned if m.variant == "6nimmt:rounds=1") == 3
    assert sum(1 for m in planned if m.variant == "xnimmt") == 12


def test_the_strength_league_plays_each_deal_in_every_seating_of_every_variant() -> None:
    config = load_league(REPO / "leagues" / "strength.toml")
    assert [b.name for b in config.bots] == ["random_bot", "rules_bot", "montecarlo_bot"]
    assert config.clock.decision_ms == 1000  # the league default the README's table states
    planned = plan_static(config, config.bots)
    assert {m.variant for m in planned} == {v.id for v in config.variants}
    assert len(config.variants) == 7  # every preset
    for v in config.variants:
        deals: dict[str | None, set[tuple[str, ...]]] = {}
        for m in planned:
            if m.variant == v.id:
                deals.setdefault(m.deal, set()).add(m.seats)
        assert len(deals) == v.games
        assert all(len(seatings) == 6 for seatings in deals.values())  # 3! seatings


def test_a_changed_manifest_under_a_registered_version_is_refused_before_the_check(
    tmp_path: Path,
) -> None:
    """The refusal is known from the store alone: it comes at once, one line, exit 2,
    without playing the check first (a minute or more for a slow bot)."""
    file = write_league(tmp_path, LEAGUE, bots=["a", "b"])
    manifest = random_bot_version(tmp_path, "2.0")
    first = bullring("bot", "submit", str(manifest), "--league", str(file), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    manifest.write_text(manifest.read_text() + "\n# changed after it was registered\n")
    again = bullring("bot", "submit", str(manifest), "--league", str(file), cwd=tmp_path)
    assert again.returncode == 2, again.stderr
    assert "checking" not in again.stdout + again.stderr
    assert again.stderr.strip().splitlines() == [
        "error: bot random_bot@2.0 is already registered with other contents "
        "(random_bot/bot.toml changed); give the changed bot a new version"
    ]
