"""An uploaded bot is a hostile bot like any other: sandboxed in its check as a local one
is. This one tries, at its first decision, to read the league's store, key and archive,
the arena's file and the other uploads, and to write its own folder; any success makes its
decide() raise (a fault: rejected, with what it got). It ends active: nothing leaked (the
folders above its own show only the way to it, as they do for a local bot)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.uploads import pack
from tests.arena.servers import arena_server, new_bot

pytestmark = pytest.mark.slow
ATTACK = """
def _attack(targets: list[str]) -> list[str]:
    import os

    got = []
    mine = set(os.path.abspath(__file__).split(os.sep))  # the folders above it show only it
    for path in targets:
        try:
            if os.path.isdir(path):
                names = sorted(os.listdir(path))
                if set(names) - mine:
                    got.append(f"listed {{path}}: {{names[:5]}}")
            else:
                with open(path, "rb") as file:
                    got.append(f"read {{path}}: {{file.read(40)!r}}")
        except OSError:
            pass
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "bot.py"), "a") as f:
            f.write("# hostile was here")
        got.append("wrote its own bot.py")
    except OSError:
        pass
    with open(os.path.abspath(__file__), "rb") as own:  # the control: its own file reads
        assert own.read(10)
    return got


LEAKED = _attack({targets!r})
"""


def test_an_uploaded_snooper_gets_nothing_of_the_arena(tmp_path: Path) -> None:
    with arena_server(tmp_path) as server:
        token = server.author("mallory")
        folder = tmp_path
        targets = [
            str(folder / name)
            for name in (
                "arena.sqlite",
                "arena.sqlite.key",
                "arena.sqlite.arena",
                "arena.sqlite.bots",
                "arena.sqlite.uploads",
                "arena.toml",
            )
        ]
        (tmp_path / "src").mkdir()
        bot = new_bot(tmp_path / "src", "snoop")
        code = bot / "bot.py"
        text = code.read_text()
        main = 'if __name__ == "__main__":'
        assert main in text and "        return 0\n" in text
        text = text.replace(
            "        return 0\n", "        assert not LEAKED, LEAKED\n        return 0\n"
        )
        code.write_text(text.replace(main, ATTACK.format(targets=targets) + "\n\n" + main))
        other = server.post(pack(new_bot(tmp_path / "src", "plain")).data, token)
        assert other.status_code == 202, other.text  # someone else's upload, to be hidden
        assert server.wait_for("plain", other.json()["upload"], token)["state"] == "active"
        reply = server.post(pack(bot).data, token)
        assert reply.status_code == 202, reply.text
        version = server.wait_for("snoop", reply.json()["upload"], token)
        assert version["state"] == "active", version.get("output")
