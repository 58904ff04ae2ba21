"""A site published with private logs (`python -m leaderboard.publish --private-logs`, as
an arena whose logs go to their authors only runs it) holds nothing a bot printed: no
log tail, no fault detail (an exception's message is the bot's text), anywhere under its
folder, pages, replay files and the viewer's data included; its faults are still listed
(kind, decision, match). The same league published with public logs holds the bot's
text, so the search can find it. The league is played by a real bot that prints a marker
(tests/referee/bad_bots/log_marker.py) and raises at its second decision."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from leaderboard import paths
from leaderboard.publish import CURRENT
from leaderboard.viewer_data import page_data
from tests.leaderboard.test_publish import broken_links, publish_ok
from tests.referee.league.log_league import run_log_league

# What the marker bot prints or says in its exception, never its name (log_marker@1).
PRINTED = (b"marker start", b"marker bug", b"alert(", b"bold</b>", b"bold&lt;/b&gt;")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("private")
    run_log_league(folder)
    return folder / "logs.sqlite"


def everything(root: Path) -> bytes:
    """Every file under `root` (links followed), with what is compressed in it inflated:
    the replay files and each match page's viewer data."""
    found = []
    for folder, _, names in os.walk(root, followlinks=True):
        for name in names:
            data = Path(folder, name).read_bytes()
            found.append(data)
            if name.endswith(".gz"):
                found.append(gzip.decompress(data))
            if name.endswith(".html") and b'id="replay-data"' in data:
                found.append(json.dumps(page_data(data.decode())).encode())
    return b"\n".join(found)


def test_a_private_site_holds_nothing_a_bot_printed(store: Path, tmp_path: Path) -> None:
    public = tmp_path / "public"
    publish_ok(store, public)
    text = everything(public)
    assert all(marker in text for marker in (b"marker start", b"marker bug")), "control"
    private = tmp_path / "private"
    report = publish_ok(store, private, "--private-logs")
    assert report["matches"] == 3
    text = everything(private)  # the whole folder: the builds, the shared pages, the state
    assert [marker for marker in PRINTED if marker in text] == []
    site = private / CURRENT
    assert not list((site / paths.MATCHES_DIR).glob("*.log.txt"))
    assert broken_links(site) == []
    bot = (site / paths.bot_page("log_marker@1")).read_text()
    assert "EXCEPTION: 3" in bot and "not published" in bot and "bot log" not in bot
    for page in (site / paths.MATCHES_DIR).glob("*.html"):
        html = page.read_text()
        assert "bot-log" not in html and "bot log" not in html
        data = page_data(html)
        assert "logs" not in data
        faults = [d[5]["fault"] for d in data["decisions"] if len(d) > 5 and "fault" in d[5]]
        assert [f["kind"] for f in faults] == ["EXCEPTION"] and faults[0]["detail"] == ""
    # Publishing the same root with public logs again reads the store again, details too.
    publish_ok(store, private)
    assert b"marker bug" in everything(private / CURRENT)
