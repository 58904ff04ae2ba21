"""Start a bot (run as ``python -I -S launch.py OPTIONS -- COMMAND...``) and watch over it.

The referee starts every bot through this tiny launcher instead of a ``preexec_fn``:
forking a threaded process (gRPC runs threads) and running Python code before ``exec`` is
unsafe, while a fresh interpreter can prepare the bot's process and replace it with the
command. The launcher forks; the child prepares and ``exec``s the command, the parent stays
behind as the **watchdog**.

The child, in this order: joins the bot's cgroups (``--join``), bind-mounts folders the
bot's uid could not reach by path into a private mount namespace of its own (``--stage``:
the sandbox then binds them from there), sets resource limits (``--rlimit``), drops to the
bot's uid and gid with no supplementary groups (``--uid``/``--gid``), and ``exec``s the
command (bubblewrap, when sandboxed: see :mod:`referee.sandbox.box`).

The watchdog waits for the command to end and exits the way it did (the same code, or
killed by the same signal), so the referee sees the bot's own fate. Bubblewrap reports a
death by signal N as exit code 128+N (``--bwrap``); the watchdog turns it back into that
signal. It also ends the bot when:

* the referee dies without cleaning up (``kill -9`` of a league): it kills the bot's whole
  tree, and removes its private folder (``--private``) and cgroups (``--cleanup``);
* it gets SIGTERM, SIGINT or SIGHUP while sandboxed (a league worker told to die at once
  signals its bots' watchdogs): the same, at once;
* the bot's cgroup records a limit hit (the kernel's OOM kill, a refused fork at the
  process limit): it kills the whole tree, so a limit always ends the bot and the referee
  records a RESOURCE fault, whatever the bot does about it. It learns of them without
  reading costly files often: ``--oom-event DIR`` (cgroup v1: an eventfd the kernel
  signals on OOM in the memory cgroup DIR), ``--notify FILE KEY`` (cgroup v2: a counter
  file the kernel flags on change, also read every ``SLOW_POLL_S``), ``--watch FILE KEY``
  (a cheap counter read every ``LIMIT_POLL_S``: v1's ``pids.events``, which has no
  notification).

Sandboxed (``--procs``: the bot's cgroup), the bot runs in a process group of its own and
the watchdog is a child subreaper, so it reaps the whole tree before it exits. Unsandboxed,
the bot shares the watchdog's process group, which the referee signals to stop it, and the
watchdog kills that group if the referee dies.
It imports nothing from the project (and no json or argparse), so it starts in a few ms.
"""

import contextlib
import ctypes
import os
import resource
import select
import signal
import sys
import time

PARENT_POLL_S = 0.5  # only used where pidfd_open is missing
LIMIT_POLL_S = 0.1  # how often the watchdog reads --watch counters
SLOW_POLL_S = 1.0  # how often it reads --notify counters besides their notifications
LIMIT_FILE = "limit"  # in the private folder: which limit ended the bot
REAP_WAIT_S = 2.0
BWRAP_SIGNAL_BASE = 128
CLONE_NEWNS = 0x00020000
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
PR_SET_CHILD_SUBREAPER = 36
# Signals whose default action ends a process: only these are mirrored by dying of them.
FATAL = {
    signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGILL, signal.SIGTRAP,
    signal.SIGABRT, signal.SIGBUS, signal.SIGFPE, signal.SIGKILL, signal.SIGUSR1,
    signal.SIGSEGV, signal.SIGUSR2, signal.SIGPIPE, signal.SIGALRM, signal.SIGTERM,
    signal.SIGXCPU, signal.SIGXFSZ, signal.SIGVTALRM, signal.SIGPROF, signal.SIGSYS,
}  # fmt: skip
REFEREE_ENV = "BULLRING_REFEREE_PID"  # set by the referee, removed before the bot starts


class Options:
    """The launcher's options (see the module docstring)."""

    def __init__(self) -> None:
        self.rlimits: list[tuple[str, int]] = []
        self.join: list[str] = []
        self.stage: list[tuple[str, str]] = []
        self.uid: int | None = None
        self.gid: int | None = None
        self.procs: str | None = None  # cgroup.procs: the tree to kill
        self.kill: str | None = None  # v2 cgroup.kill
        self.watch: list[tuple[str, str]] = []  # counters read often
        self.notify: list[tuple[str, str]] = []  # counters the kernel flags on change
        self.oom_event: str | None = None  # v1 memory cgroup: an eventfd on its OOMs
        self.cleanup: list[str] = []  # cgroup folders to remove if the referee dies
        self.private: str | None = None  # the bot's private folder, same
        self.bwrap = False
        self.command: list[str] = []


def parse(argv: list[str]) -> Options:
    opts = Options()
    i = 0
    while i < len(argv) and argv[i] != "--":
        flag = argv[i]
        if flag == "--rlimit":
            opts.rlimits.append((argv[i + 1], int(argv[i + 2])))
            i += 3
        elif flag == "--stage":
            opts.stage.append((argv[i + 1], argv[i + 2]))
            i += 3
        elif flag in ("--watch", "--notify"):
            getattr(opts, flag[2:]).append((argv[i + 1], argv[i + 2]))
            i += 3
        elif flag == "--bwrap":
            opts.bwrap = True
            i += 1
        elif flag in ("--join", "--cleanup"):
            getattr(opts, flag[2:]).append(argv[i + 1])
            i += 2
        elif flag in ("--uid", "--gid"):
            setattr(opts, flag[2:], int(argv[i + 1]))
            i += 2
        elif flag in ("--procs", "--kill", "--private", "--oom-event"):
            setattr(opts, flag[2:].replace("-", "_"), argv[i + 1])
            i += 2
        else:
            raise ValueError(f"unknown option {flag!r}")
    opts.command = argv[i + 1 :]
    if not opts.command:
        raise ValueError("no command after --")
    return opts


# --- the child: prepare, then exec ------------------------------------------------------


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"{what}: {os.strerror(number)}")


def _stage(pairs: list[tuple[str, str]]) -> None:
    """Bind each source onto its mount point, in a private mount namespace of our own."""
    libc = _libc()
    _check(libc.unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)")
    _check(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "make / private")
    for source, target in pairs:
        _check(
            libc.mount(os.fsencode(source), os.fsencode(target), None, MS_BIND | MS_REC, None),
            f"bind {source}",
        )


def _set_rlimits(limits: list[tuple[str, int]]) -> None:
    for name, value in limits:
        which = getattr(resource, f"RLIMIT_{name}")
        _, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))


def _child(opts: Options) -> None:
    try:
        if opts.procs:
            os.setpgid(0, 0)  # out of the watchdog's group: a signal to it is not to us
        for procs in opts.join:
            with open(procs, "w") as file:
                file.write(str(os.getpid()))
        if opts.stage:
            _stage(opts.stage)
        _set_rlimits(opts.rlimits)
        if opts.uid is not None:
            gid = opts.uid if opts.gid is None else opts.gid
            os.setgroups([])
            os.setresgid(gid, gid, gid)
            os.setresuid(opts.uid, opts.uid, opts.uid)
        os.execvp(opts.command[0], opts.command)
    except (OSError, ValueError, AttributeError) as exc:
        sys.stderr.write(f"bullring launcher: cannot run {opts.command[0]!r}: {exc}\n")
        sys.stderr.flush()
        os._exit(127)


# --- the watchdog -------------------------------------------------------------------------


def _mirror(status: int, decode_bwrap: bool) -> None:
    """Exit as the bot did: same exit code, or killed by the same signal."""
    sig = 0
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
    elif decode_bwrap and os.WIFEXITED(status):
        code = os.WEXITSTATUS(status)
        if code - BWRAP_SIGNAL_BASE in FATAL:
            sig = code - BWRAP_SIGNAL_BASE
    if sig:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file of the watchdog
        with contextlib.suppress(OSError, ValueError):  # (SIGKILL has no handler to reset)
            signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        time.sleep(1.0)  # the signal ends us; never fall through while it is delivered
    sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128)


def _counter(path: str, key: str) -> int:
    try:
        with open(path) as file:
            for line in file:
                name, _, value = line.partition(" ")
                if name == key:
                    return int(value)
    except (OSError, ValueError):
        pass
    return 0


def _kill_tree(opts: Options) -> None:
    """SIGKILL every process of the bot's cgroup until none is left (bounded). Ended
    processes leave the cgroup at once (zombies are not listed), reaped or not."""
    if opts.kill:
        with contextlib.suppress(OSError), open(opts.kill, "w") as file:
            file.write("1")
    end = time.monotonic() + REAP_WAIT_S
    while opts.procs and time.monotonic() < end:
        try:
            with open(opts.procs) as file:
                pids = [int(line) for line in file]
        except (OSError, ValueError):
            return
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.002)


def _reap_all() -> None:
    """Reap every child (and orphan: we are a subreaper) until none is left (bounded)."""
    end = time.monotonic() + REAP_WAIT_S
    while time.monotonic() < end:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.002)


def _clean_up(opts: Options) -> None:
    """Kill the bot's tree, then remove its cgroups and its private folder."""
    _kill_tree(opts)
    _reap_all()
    for folder in opts.cleanup:
        end = time.monotonic() + REAP_WAIT_S
        while True:
            try:
                os.rmdir(folder)
                break
            except FileNotFoundError:
                break
            except OSError:
                if time.monotonic() >= end:
                    break
                time.sleep(0.005)
    _remove_private(opts)


def _remove_private(opts: Options) -> None:
    if opts.private:
        import shutil  # only now; its rmtree never follows the bot's symlinks

        shutil.rmtree(opts.private, ignore_errors=True)


class _Limits:
    """How the watchdog learns that the bot's cgroup hit a limit (see the docstring)."""

    def __init__(self, opts: Options, poller: select.poll) -> None:
        self.opts = opts
        self.fds: dict[int, tuple[str, str] | None] = {}  # fd -> its counter (None: eventfd)
        if opts.oom_event:
            try:
                event = os.eventfd(0, os.EFD_CLOEXEC | os.EFD_NONBLOCK)
                control = os.open(os.path.join(opts.oom_event, "memory.oom_control"), os.O_RDONLY)
                with open(os.path.join(opts.oom_event, "cgroup.event_control"), "w") as file:
                    file.write(f"{event} {control}")
            except OSError:  # no notifications: read the counter instead
                opts.watch.append((os.path.join(opts.oom_event, "memory.oom_control"), "oom_kill"))
            else:
                self.fds[event] = None
                poller.register(event, select.POLLIN)
        for counter in opts.notify:
            try:
                fd = os.open(counter[0], os.O_RDONLY)
                os.read(fd, 4096)  # (a notification is for a change after a read)
            except OSError:
                continue
            self.fds[fd] = counter
            poller.register(fd, select.POLLPRI | select.POLLERR)
        if opts.watch:
            self.wait_s: float | None = LIMIT_POLL_S
        elif opts.notify:
            self.wait_s = SLOW_POLL_S
        else:
            self.wait_s = None

    def check(self, ready: set[int], woken_by_timeout: bool) -> str | None:
        """The limit hit ("memory" or "processes"), or None."""
        counters = list(self.opts.watch)
        for fd, counter in self.fds.items():
            if counter is None and fd in ready:
                return "memory"  # the kernel's OOM notification
            if counter is not None and (fd in ready or woken_by_timeout):
                os.lseek(fd, 0, os.SEEK_SET)
                counters.append(counter)
        for file, key in counters:
            if _counter(file, key) > 0:
                return "memory" if key == "oom_kill" else "processes"
        return None


def _record_limit(opts: Options, limit: str) -> None:
    """Tell the referee which limit ended the bot: a file in the private folder (the
    referee's; the bot cannot write there), read when it types the bot's fault."""
    if opts.private:
        with contextlib.suppress(OSError), open(os.path.join(opts.private, LIMIT_FILE), "w") as f:
            f.write(limit)


def _watch(child: int, referee: int, opts: Options) -> None:
    """Wait for the bot to end; end it if the referee goes away or a limit is hit."""
    sandboxed = bool(opts.procs)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        if sandboxed:
            # The referee never signals a sandboxed bot's watchdog to stop the bot (it
            # kills the cgroup): a signal means the referee is going away at once.
            signal.signal(sig, lambda signum, frame: _leave(opts))
        else:
            # Unsandboxed, the referee stops bots by signalling the whole group; the
            # watchdog waits for the bot to go, so "has it exited" means the bot exited.
            signal.signal(sig, signal.SIG_IGN)
    try:
        child_fd = os.pidfd_open(child)
        referee_fd = os.pidfd_open(referee)
    except (AttributeError, OSError):
        child_fd = referee_fd = -1
    poller = select.poll()
    if child_fd >= 0:
        poller.register(child_fd, select.POLLIN)
        poller.register(referee_fd, select.POLLIN)
    limits = _Limits(opts, poller)
    wait_s = limits.wait_s if child_fd >= 0 else min(limits.wait_s or PARENT_POLL_S, PARENT_POLL_S)
    killed = False
    while True:
        events = poller.poll(None if wait_s is None else wait_s * 1000)
        ready = {fd for fd, _ in events}
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            if sandboxed:
                _kill_tree(opts)
                _reap_all()
            _mirror(status, opts.bwrap)
        if referee_fd in ready or os.getppid() != referee:
            if not sandboxed:  # the bot shares our group: remove its folder, then kill all
                _remove_private(opts)
                os.killpg(0, signal.SIGKILL)
            _leave(opts)
        if sandboxed and not killed and (limit := limits.check(ready, not events)):
            killed = True
            _record_limit(opts, limit)
            _kill_tree(opts)


def _leave(opts: Options) -> None:
    """The referee is gone (or going): take the bot and everything it had with us."""
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    _clean_up(opts)
    os._exit(1)


def main(argv: list[str]) -> None:
    try:
        opts = parse(argv)
    except (ValueError, IndexError) as exc:
        sys.stderr.write(f"usage: launch.py [OPTIONS] -- COMMAND... ({exc})\n")
        sys.exit(2)
    # The referee names itself: if it died before this line, getppid() is already
    # whoever adopted us, and watching that would let the bot outlive its referee.
    referee = int(os.environ.pop(REFEREE_ENV, "0")) or os.getppid()
    if opts.procs:
        # Orphans of the bot's tree (bubblewrap's init, once bubblewrap is gone) become
        # our children, so that we reap them and the cgroup empties before we exit.
        _libc().prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    child = os.fork()
    if child == 0:
        _child(opts)
    _watch(child, referee, opts)


if __name__ == "__main__":
    main(sys.argv[1:])
