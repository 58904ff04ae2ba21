"""Per-bot cgroups, for real (this host's cgroup v1 controllers): limits written, a whole
tree (a setsid'd child included) killed at once, the cgroup removed, and empty cgroups
left by referees that died swept away."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from referee.sandbox import cgroups
from referee.sandbox.cgroups import CgroupLimits

# A small tree: a shell in the cgroup, two children and a setsid'd grandchild.
TREE = 'for f in "$@"; do echo $$ > "$f"; done; setsid sleep 30 & sleep 30 & sleep 30 & wait'


def test_a_bot_cgroup_limits_its_tree_kills_it_whole_and_goes() -> None:
    cgroup = cgroups.host().create(CgroupLimits(memory_mb=128, processes=16, cpus=0.5))
    try:
        if cgroup.version == 1:
            limit = (cgroup.folder("memory") / "memory.limit_in_bytes").read_text()
            assert int(limit) == 128 << 20
            quota = (cgroup.folder("cpu") / "cpu.cfs_quota_us").read_text()
            assert int(quota) == 50_000
        assert (cgroup.folder("pids") / "pids.max").read_text().strip() == "16"
        shell = subprocess.Popen(["sh", "-c", TREE, "sh", *cgroup.join_files()])
        deadline = time.monotonic() + 10
        while len(cgroup.pids()) < 4 and time.monotonic() < deadline:
            time.sleep(0.02)
        tree = cgroup.pids()
        assert len(tree) == 4 and shell.pid in tree
        cgroup.kill()
        shell.wait(5)
        assert cgroup.pids() == []
        assert not any(Path(f"/proc/{pid}").exists() and _alive(pid) for pid in tree)
        assert cgroup.usage().oom_kills == 0
    finally:
        cgroup.kill()
        assert cgroup.remove()
    assert not any(folder.exists() for _, folder in cgroup.dirs)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_empty_cgroups_of_dead_referees_are_swept() -> None:
    host = cgroups.host()
    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid that no longer runs (and was ours, so not reused yet)
    stale = [base / f"{cgroups.PREFIX}{gone.pid}-1-test" for _, base in host.bases]
    live = [base / f"{cgroups.PREFIX}{os.getpid()}-0-test" for _, base in host.bases]
    for folder in (*stale, *live):
        folder.mkdir()
    try:
        cgroups.sweep_stale(host)
        assert not any(folder.exists() for folder in stale)
        assert all(folder.exists() for folder in live)  # its referee lives: not stale
    finally:
        for folder in (*stale, *live):
            if folder.exists():
                folder.rmdir()
