"""The TypeScript example bot, with what it needs to run (its node_modules, its compiled
dist/, the bot protocol), uploads under the default caps and passes the check."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.arena.servers import arena_server
from tests.referee.league.leagues import REPO, bullring_argv

pytestmark = pytest.mark.slow
TS_BOT = REPO / "example_bots" / "ts_bot"


def test_the_typescript_example_bot_uploads_under_the_default_caps(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("Node.js and npm are needed for the TypeScript bot")
    folder = tmp_path / "ts_bot"
    shutil.copytree(TS_BOT, folder, ignore=shutil.ignore_patterns("node_modules", "dist"))
    built = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"], cwd=folder, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout + built.stderr
    # The bot protocol travels with the bot: in the arena it has no repository beside it.
    (folder / "proto" / "bullring" / "v1").mkdir(parents=True)
    shutil.copy(REPO / "proto" / "bullring" / "v1" / "bot.proto", folder / "proto/bullring/v1")
    manifest = folder / "bot.toml"
    manifest.write_text(
        manifest.read_text() + '\n[env]\nBULLRING_PROTO = "proto/bullring/v1/bot.proto"\n'
    )
    with arena_server(tmp_path, caps="") as server:
        token = server.author("ts")
        env = {**os.environ, "BULLRING_TOKEN": token}
        done = subprocess.run(
            bullring_argv("bot", "upload", str(folder), "--arena", server.url),
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.strip().splitlines()[-1].startswith("active")
