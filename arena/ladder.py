"""The arena's ladder: ``python -m arena.ladder ARENA_FILE SERVER_PID``, a child process of
``bullring arena serve`` that plays the arena's league for as long as the server runs
(referee/league/ladder_runner.py; the matchmaking: referee/league/ladder.py).

It writes a line per match to stderr (the server's). SIGTERM: it draws no more matches,
finishes the ones in flight and exits 0. SIGINT: it abandons them (they stay scheduled
and go first on the next start) and exits 130. Either way it says which matches.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

from arena.config import load_arena
from referee.league.ladder_runner import LadderRunner, stderr_line
from sdk.errors import BullringError
from sdk.lifeline import die_with_parent

INTERRUPTED = 130


def matches(count: int) -> str:
    return f"{count} match" + ("es" if count != 1 else "")


def start_line(runner: LadderRunner, predicted: dict[str, int]) -> str:
    policy = runner.policy
    variants = ", ".join(
        f"{v.id} at {v.seats} seats (a new version: about {predicted[v.id]} matches first)"
        for v in runner.config.variants
    )
    return (
        f"ladder {runner.config.name}: playing {variants}; a new version plays first "
        f"while its sigma is above {policy.new_sigma:g}"
    )


def main(argv: list[str]) -> int:
    die_with_parent(parent=int(argv[1]))
    try:
        arena = load_arena(argv[0])
    except BullringError as error:
        stderr_line(f"ladder: {error}")
        return 2
    runner = LadderRunner(arena.league, arena.policy)
    finishing: list[str] = []

    def on_term(signum: int, frame: FrameType | None) -> None:
        if not runner.stopping:
            finishing.extend(runner.in_flight)
            runner.stop()

    signal.signal(signal.SIGTERM, on_term)
    stderr_line(start_line(runner, arena.new_version_matches()))
    try:
        summary = runner.run()
    except KeyboardInterrupt:
        left = runner.abandoned
        stderr_line(
            f"ladder: interrupted; abandoned {matches(len(left))} in flight"
            + (f" ({', '.join(left)})" if left else "")
            + ": they stay scheduled and are played first on the next start"
        )
        return INTERRUPTED
    except BullringError as error:
        stderr_line(f"ladder: stopped: {error}")
        return 1
    done = sorted(finishing)
    stderr_line(
        f"ladder: stopped; finished {matches(len(done))} in flight"
        + (f" ({', '.join(done)})" if done else "")
        + f"; {matches(summary.played)} played by this run"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
