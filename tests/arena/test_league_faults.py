"""Once the league plays an uploaded bot, its status shows its ratings to everyone, and
what its faults said and what it printed to its author only (issue 28: faults' detail and
the bot's logs to the author's token)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.uploads import pack
from tests.arena.servers import arena_server, new_bot
from tests.referee.league.leagues import bullring

pytestmark = pytest.mark.slow
# Raises from its 25th decision in one process on. The check plays one game in a process
# of its own: 10 picks and at most as many row choices, so at most 20 decisions. The
# league's four matches run in one worker (--parallel 1) whose pooled process makes 40 or
# more, whatever the machine's cores (with a worker a core, one could make fewer than 25).
FLAKY = """        global CALLS
        CALLS += 1
        if CALLS >= 25:
            raise RuntimeError(f"tired after {CALLS} decisions")
        return 0
"""


def test_faults_detail_goes_to_the_author_only(tmp_path: Path) -> None:
    with arena_server(tmp_path, games=4) as server:
        alice, bob = server.author("alice"), server.author("bob")
        (tmp_path / "src").mkdir()
        bot = new_bot(tmp_path / "src", "flaky")
        code = bot / "bot.py"
        text = code.read_text()
        assert "        return 0\n" in text and 'if __name__ == "__main__":' in text
        text = text.replace("        return 0\n", FLAKY, 1)
        code.write_text(
            text.replace('if __name__ == "__main__":', 'CALLS = 0\n\n\nif __name__ == "__main__":')
        )
        reply = server.post(pack(bot).data, alice)
        assert reply.status_code == 202, reply.text
        assert server.wait_for("flaky", reply.json()["upload"], alice)["state"] == "active"
        played = bullring(
            "league", "run", str(server.file), "--no-progress", "--parallel", "1", cwd=tmp_path
        )
        assert played.returncode == 0, played.stderr
        mine = server.status("flaky", alice).json()["versions"][0]
        (rating,) = mine["ratings"].values()
        assert rating["matches"] == 4 and rating["faults"] > 0
        assert mine["faults"] and {f["kind"] for f in mine["faults"]} == {"EXCEPTION"}
        assert any("tired after" in f["detail"] for f in mine["faults"])
        # What it printed in the league's matches (the SDK's traceback of its exception).
        assert mine["logs"] and all(log["bot"] == "flaky@0.1" for log in mine["logs"])
        assert any("tired after" in log["text"] for log in mine["logs"])
        for token in (bob, None):
            theirs = server.status("flaky", token).json()["versions"][0]
            assert theirs["ratings"] == mine["ratings"]
            assert "faults" not in theirs and "output" not in theirs and "logs" not in theirs
