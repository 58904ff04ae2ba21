"""Publishing (leaderboard/publish.py): `python -m leaderboard.publish STORE ROOT` as the
arena runs it, in a process of its own, on real SQLite stores that grow between publishes
(benchmarks/site_publish.py: matches played by stand-in bots on the real engine, recorded
through the store's write API, finished in any order).

A publish is atomic (killed with SIGKILL at seeded points, the published site is still
the previous whole build, and the next publish succeeds), incremental (it reads only the
new rows and writes only the new matches' files, and its site equals a whole build of the
same store), and every link of the published site resolves.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from benchmarks.site_publish import finish, grow, new_store, schedule
from leaderboard import charts, paths
from leaderboard.build import build_site
from leaderboard.files import KILL_AT_ENV
from leaderboard.from_store import iso_time
from leaderboard.publish import BUILDS, CURRENT, SHARED, publish, published
from leaderboard.state import thinned
from referee.league.store import LeagueStore
from referee.spec import BotSpec
from tests.leaderboard.conftest import RETIRED_BOT
from tests.referee.league.leagues import REPO

KEYS = {"build", "path", "matches", "new_matches", "newest_finished_at", "built_at", "seconds",
        "files"}  # fmt: skip
_LINK = re.compile(r'(?:href|src)="([^"]*)"')
_BUILT = re.compile(r"<footer>.*?</footer>|<time id=\"built-at\">[^<]*</time>|built <time>[^<]*"
                    r"</time>|Built <time>[^<]*</time>|\"built_at\":\"[^\"]*\"", re.S)  # fmt: skip


def run_publish(
    store: Path, root: Path, *args: str, kill_at: int = 0
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != KILL_AT_ENV}
    if kill_at:
        env[KILL_AT_ENV] = str(kill_at)
    return subprocess.run(
        [sys.executable, "-m", "leaderboard.publish", str(store), str(root), *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def publish_ok(store: Path, root: Path, *args: str) -> dict[str, object]:
    done = run_publish(store, root, *args)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    report: dict[str, object] = json.loads(lines[0])
    assert set(report) == KEYS
    return report


def site_files(site: Path) -> dict[str, str]:
    """Every file of a site (links followed): its path in the site -> sha256."""
    found = {}
    for folder, _, names in os.walk(site, followlinks=True):
        for name in names:
            file = Path(folder, name)
            found[str(file.relative_to(site))] = hashlib.sha256(file.read_bytes()).hexdigest()
    return found


def broken_links(site: Path) -> list[str]:
    """Every relative link of every page that leads nowhere (links followed)."""
    broken = []
    for folder, _, names in os.walk(site, followlinks=True):
        for name in names:
            if not name.endswith(".html"):
                continue
            page = Path(folder, name)
            for link in _LINK.findall(page.read_text(encoding="utf-8")):
                target = link.split("#")[0].split("?")[0]
                if not target or re.match(r"^[a-z]+:", target):
                    continue
                # A browser and a web server resolve ".." in an address, not the file system
                # (the page may be in the shared folder a link leads to).
                if not Path(os.path.normpath(page.parent / target)).exists():
                    broken.append(f"{page.relative_to(site)} -> {link}")
    return broken


def without_build_times(text: str) -> str:
    return _BUILT.sub("", text)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "league.sqlite"
    new_store(path)
    grow(path, 24, seed=1)
    return path


def test_a_publish_links_current_to_a_whole_build(store: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    report = publish_ok(store, root)
    assert report["build"] == 1 and report["matches"] == report["new_matches"] == 24
    assert os.readlink(root / CURRENT) == f"{BUILDS}/000001"
    site = root / CURRENT
    link = os.readlink(site / paths.MATCHES_DIR)
    assert not os.path.isabs(link) and link.startswith(f"../../{SHARED}/")
    assert broken_links(site) == []
    assert len(list((site / paths.MATCHES_DIR).glob("*.html"))) == 24
    latest = (site / paths.latest_matches_page()).read_text()
    assert latest == (site / paths.match_list_page(1)).read_text()
    index = (site / "index.html").read_text()
    assert f'href="{paths.latest_matches_page()}"' in index
    assert str(report["newest_finished_at"]) in index and str(report["built_at"]) in index


def test_a_rebuild_reads_and_writes_only_what_is_new_and_equals_a_whole_build(
    store: Path, tmp_path: Path
) -> None:
    root = tmp_path / "root"
    publish_ok(store, root)
    first = published(root)
    assert first is not None
    old_page = first / paths.MATCHES_DIR / next(iter(sorted(os.listdir(first / "matches"))))
    inode = old_page.stat().st_ino
    unchanged = publish_ok(store, root)
    assert unchanged["new_matches"] == 0 and unchanged["matches"] == 24
    grow(store, 7, seed=2)
    report = publish_ok(store, root)
    assert report["new_matches"] == 7 and report["matches"] == 31
    bounded = unchanged["files"]
    assert isinstance(bounded, int) and report["files"] == bounded + 7 * 2  # page, replay file
    assert old_page.stat().st_ino == inode  # an old match's page was not written again
    whole = build_site(store, tmp_path / "whole").out_dir
    site = root / CURRENT
    mine, theirs = site_files(site), site_files(whole)
    assert set(mine) == set(theirs)
    for name in sorted(mine):
        if name.endswith(".gz"):
            assert mine[name] == theirs[name], name
            continue
        ours = without_build_times((site / name).read_text(encoding="utf-8"))
        assert ours == without_build_times((whole / name).read_text(encoding="utf-8")), name
    assert len(os.listdir(root / BUILDS)) == 3  # the published build and the two before it


def test_matches_that_finish_out_of_schedule_order_are_each_read_once(tmp_path: Path) -> None:
    """The state reads the store from its rowid marks: matches that finish after a later
    one (as a league's workers finish them) are read once each, in the order they
    finished, and the site equals a whole build of the same store."""
    store, root = tmp_path / "league.sqlite", tmp_path / "root"
    new_store(store)
    seqs = schedule(store, 12, seed=3)
    order = seqs[:]
    random.Random(4).shuffle(order)
    finish(store, order[:5])
    first = publish_ok(store, root)
    assert first["new_matches"] == first["matches"] == 5
    finish(store, order[5:9])
    assert publish_ok(store, root)["new_matches"] == 4
    finish(store, order[9:])
    last = publish_ok(store, root)
    assert (last["new_matches"], last["matches"]) == (3, 12)
    latest = (root / CURRENT / paths.latest_matches_page()).read_text()
    listed = re.findall(r'<td data-value="(bench-\d+)">', latest)
    assert listed == [f"bench-{seq:06d}" for seq in reversed(order)]  # newest first
    league = json.loads((root / CURRENT / "league.json").read_text())
    whole = build_site(store, tmp_path / "whole").out_dir
    assert league["matches_played"] == 12
    for variant in league["variants"]:
        ours = json.loads((root / CURRENT / variant["standings"]).read_text())
        theirs = json.loads((whole / variant["standings"]).read_text())
        assert {**ours, "built_at": ""} == {**theirs, "built_at": ""}
        assert sum(r["matches"] for r in ours["rows"]) > 0


def test_a_publish_killed_at_any_point_leaves_the_previous_site_whole(
    store: Path, tmp_path: Path
) -> None:
    root = tmp_path / "root"
    publish_ok(store, root)
    grow(store, 30, seed=5)
    # How many steps a whole publish of the new matches takes: one on copies, uninterrupted.
    trial_root, trial_store = tmp_path / "trial", tmp_path / "trial.sqlite"
    shutil.copytree(root, trial_root, symlinks=True)
    shutil.copyfile(store, trial_store)
    writes = int(str(publish_ok(trial_store, trial_root)["files"]))
    before = site_files(root / CURRENT)
    killed = swapped = 0
    # Seeded points among the file writes, then each step around the swap (linking the
    # shared files, the new link, the rename, the state's commit, pruning).
    points = [*sorted(random.Random(6).sample(range(1, writes), 8)), *range(writes, writes + 8)]
    for kill_at in points:
        done = run_publish(store, root, kill_at=kill_at)
        if done.returncode == 0:  # the point was past the publish's end
            before = site_files(root / CURRENT)
            continue
        assert done.returncode == -signal.SIGKILL, done.stderr
        killed += 1
        now = site_files(root / CURRENT)
        if all(now.get(name) == digest for name, digest in before.items()):
            # The previous build, whole; beside it only new matches' files in the shared
            # folder, which none of its pages links.
            assert all(name.startswith("matches/") for name in set(now) - set(before))
        else:  # killed after the swap: the new build is published, whole
            pages = [n for n in now if re.fullmatch(r"matches/bench-\d+\.html", n)]
            assert len(pages) == 54
            assert "54" in (root / CURRENT / "index.html").read_text()
            before = now
            swapped += 1
        assert broken_links(root / CURRENT) == []
    assert killed >= 8 and swapped >= 1
    report = publish_ok(store, root)
    assert report["matches"] == 54
    site = root / CURRENT
    assert len(list((site / paths.MATCHES_DIR).glob("*.html"))) == 54
    assert broken_links(site) == []
    # What the killed publishes left half made is gone.
    assert len(os.listdir(root / BUILDS)) <= 3 and not (root / f".{CURRENT}.tmp").exists()
    assert len(os.listdir(root / SHARED)) == 1


ABOUT = {
    "url": "https://arena.example.org/",
    "variants": [{"id": "6nimmt:rounds=1", "title": "6 nimmt! · 1 round", "seats": 4}],
    "clock": "1,000 ms a decision, a 10 s bank",
    "caps": {"packed_bytes": 5_000_000, "unpacked_bytes": 20_000_000, "files": 500},
    "commands": [
        "bullring bot upload ./mybot --arena https://arena.example.org/",
        "bullring bot status mybot --arena https://arena.example.org/",
    ],
    "public_logs": False,
}


def test_the_arenas_facts_make_a_submit_page_linked_from_every_page(
    store: Path, tmp_path: Path
) -> None:
    root = tmp_path / "root"
    publish_ok(store, root)
    assert not (root / CURRENT / paths.submit_page()).exists()
    assert "Submit a bot" not in (root / CURRENT / "index.html").read_text()
    about = tmp_path / "about.json"
    about.write_text(json.dumps(ABOUT))
    publish_ok(store, root, "--about", str(about))
    site = root / CURRENT
    page = (site / paths.submit_page()).read_text()
    for text in ("https://arena.example.org/", "6nimmt:rounds=1", "1,000 ms a decision",
                 "5,000,000", "20,000,000", "500", *ABOUT["commands"]):  # type: ignore[misc]  # fmt: skip
        assert str(text) in page, text
    match_page = next((site / paths.MATCHES_DIR).glob("*.html")).read_text()
    for html in ((site / "index.html").read_text(), match_page):
        assert f'href="{paths.submit_page()}"' in html or f'href="../{paths.submit_page()}"' in html
    assert broken_links(site) == []
    about.write_text(json.dumps({**ABOUT, "caps": "big"}))
    done = run_publish(store, root, "--about", str(about))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "caps" in done.stderr


def test_a_bad_store_or_root_is_one_line_and_exit_1(store: Path, tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    for args, said in (
        ((tmp_path / "nope.sqlite", tmp_path / "root"), "no league store"),
        ((junk, tmp_path / "root"), "junk.sqlite"),
        ((store, a_file), "not a folder"),
    ):
        done = run_publish(*args)
        assert done.returncode == 1 and done.stdout == "", done.stderr
        assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_the_last_hour_is_the_hour_before_the_newest_match(tmp_path: Path) -> None:
    store, root = tmp_path / "league.sqlite", tmp_path / "root"
    new_store(store)
    seqs = schedule(store, 9, seed=7)
    start = 1_800_000_000.0
    finish(store, seqs[:4], at=start)  # 2 hours before the others
    finish(store, seqs[4:], at=start + 7200)
    report = publish_ok(store, root)
    assert report["newest_finished_at"] == iso_time(start + 7200 + 4)
    page = (root / CURRENT / paths.last_hour_page()).read_text()
    assert "5 matches finished in the hour up to the newest" in page
    listed = re.findall(r'<td data-value="(bench-\d+)">', page)
    assert listed == [f"bench-{seq:06d}" for seq in reversed(seqs[4:])]
    index = (root / CURRENT / "index.html").read_text()
    assert f'<time id="newest-finished">{iso_time(start + 7200 + 4)}</time>' in index
    assert f'<a href="{paths.last_hour_page()}">5 matches</a>' in index


def test_a_bots_page_lists_every_version_of_its_name(site_dir: Path, store_path: Path) -> None:
    """The demo league registers random_bot 1.0 and 1.1 (which retires 1.0): each version's
    page lists both, with its registration time, its rating per variant and its status."""
    with LeagueStore.open_readonly(store_path) as league:
        registered = {b.spec.key: b.registered_at for b in league.bots()}
        ratings = {
            (v["id"], s.bot): s.rating for v in league.variants() for s in league.standings(v["id"])
        }
    versions = [key for key in registered if key.startswith("random_bot@")]
    assert versions == [RETIRED_BOT, "random_bot@1.1"]
    for key in versions:
        html = (site_dir / paths.bot_page(key)).read_text()
        table = html[html.index('<table class="versions">') : html.index("</table>")]
        rows = table.split("<tr")[2:]
        assert len(rows) == 2
        for row, version in zip(rows, versions, strict=True):
            assert f'href="../{paths.bot_page(version)}">{version.partition("@")[2]}</a>' in row
            assert f"<time>{iso_time(registered[version])}</time>" in row
            assert ("retired" in row) == (version == RETIRED_BOT)
            assert ("current" in row) == (version != RETIRED_BOT)
            assert (' class="this-version"' in row) == (version == key)
            for (_, bot), rating in ratings.items():
                if bot == version:
                    assert f"{rating:.2f}" in row
    assert "Versions" not in (site_dir / paths.bot_page("rules_bot@1.0")).read_text()


def test_versions_rated_in_one_variant_share_a_chart(tmp_path: Path) -> None:
    store, root = tmp_path / "league.sqlite", tmp_path / "root"
    new_store(store)
    newer = BotSpec("random", "2.0", endpoint="unix:/nonexistent")
    finish(store, schedule(store, 16, seed=8, bots=[newer]))
    publish_ok(store, root)
    for key in ("random@1.0", "random@2.0"):
        html = (root / CURRENT / paths.bot_page(key)).read_text()
        assert html.count('aria-label="random: every version in ') >= 1
        chart = html[html.index('aria-label="random: every version in ') :]
        chart = chart[: chart.index("</svg>")]
        assert "<title>random@1.0</title>" in chart and "<title>random@2.0</title>" in chart
    retired = (root / CURRENT / paths.bot_page("random@1.0")).read_text()
    assert 'href="random_2.0' in retired or paths.bot_page("random@2.0") in retired


def test_a_static_server_serves_current_and_sees_each_new_build(
    store: Path, tmp_path: Path
) -> None:
    """Served as an arena would serve it (Starlette's StaticFiles at ROOT/current, which
    must follow the links: `follow_symlink=True`, under uvicorn on a loopback port), every
    file of the published build answers, and a new build is served as soon as it is
    published, with no restart."""
    import httpx
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles

    root = tmp_path / "root"
    publish_ok(store, root)
    files = StaticFiles(directory=root / CURRENT, html=True, follow_symlink=True)
    app = Starlette(routes=[Mount("/", app=files)])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(600):
            if server.started:
                break
            time.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            names = sorted(site_files(root / CURRENT))
            for name in names:
                answer = client.get(f"/{name}")
                assert answer.status_code == 200, name
                assert answer.content == (root / CURRENT / name).read_bytes(), name
            assert '<dd id="matches-played">24</dd>' in client.get("/").text
            grow(store, 3, seed=9)
            publish_ok(store, root)
            assert '<dd id="matches-played">27</dd>' in client.get("/index.html").text
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def test_the_thinned_numbers_are_the_points_a_chart_keeps() -> None:
    """state.thinned picks the rows to read without making every point first."""
    for count in (0, 1, 7, 240, 241, 1000, 54_321):
        kept = charts.thin([(n, 0.0) for n in range(1, count + 1)])
        assert thinned(count) == [round(x) for x, _ in kept], count


def test_full_pages_of_the_match_list_are_written_once_and_linked(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With 5 matches a page (200 on a real site): a page that fills is written once into
    the shared folder and hard-linked into every later build, unchanged; each page links
    the next by number, and the newest page is also lists/latest.html."""
    monkeypatch.setattr(paths, "MATCH_LIST_PAGE_SIZE", 5)
    root = tmp_path / "root"
    publish(store, root)  # 24 matches: pages 1 to 4 full, page 5 holds 4
    site = root / CURRENT
    first = (site / paths.match_list_page(1)).stat()
    assert first.st_nlink == 2  # the shared folder's file and this build's link
    grow(store, 3, seed=10)  # 27: page 5 fills, page 6 holds 2
    report = publish(store, root)
    assert report.new_matches == 3
    site = root / CURRENT
    again = (site / paths.match_list_page(1)).stat()
    assert (again.st_ino, again.st_mtime_ns) == (first.st_ino, first.st_mtime_ns)
    assert again.st_nlink == 3  # and the build before's
    latest = (site / paths.latest_matches_page()).read_text()
    assert latest == (site / paths.match_list_page(6)).read_text()
    assert 'Matches <span class="version">26\u201327, the newest</span>' in latest
    page5 = (site / paths.match_list_page(5)).read_text()
    assert 'href="../lists/matches-6.html">← newer</a>' in page5
    assert 'href="../lists/matches-4.html">older →</a>' in page5
    assert len(re.findall(r'<td data-value="bench-\d+">', page5)) == 5
    assert not (site / paths.match_list_page(7)).exists()
    assert broken_links(site) == []
