"""The Monte Carlo bot respects the clock: over many decisions at a short deadline, none
overruns it (in-process through sdk.local.play_local; each decide() timed in wall time and
in the thread's CPU time).

The machine may be shared: a decision whose wall time passes the deadline only because the
process was not running (wall minus CPU time larger than the overrun) is the scheduler's
doing, not the bot's; every other overrun fails the test.
"""

from __future__ import annotations

import pytest

from benchmarks.montecarlo_clock import GAMES, TimedMonteCarlo
from example_bots.random_bot.bot import RandomBot
from sdk.local import play_local

DEADLINE_MS = 100
pytestmark = pytest.mark.serial  # decisions timed in wall time: run alone


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "options", "players"), GAMES, ids=[f"{g[0]}-{g[2]}p" for g in GAMES]
)
def test_montecarlo_never_overruns_a_short_deadline(
    variant: str, options: dict[str, str], players: int
) -> None:
    bots = [TimedMonteCarlo(), RandomBot(), TimedMonteCarlo()]
    bots += [RandomBot() for _ in range(players - len(bots))]
    play_local(variant, bots, seed=7, options=options, decision_ms=DEADLINE_MS)
    times = [t for bot in bots if isinstance(bot, TimedMonteCarlo) for t in bot.times]
    assert len(times) >= 10
    limit = DEADLINE_MS / 1000.0
    own_overruns = [
        (wall, cpu) for wall, cpu in times if wall >= limit and wall - cpu < wall - limit
    ]
    assert not own_overruns, f"{variant}: decisions over {DEADLINE_MS} ms: {own_overruns}"
    assert max(cpu for _, cpu in times) < limit
    # It does use the time it is given (it is not answering at random).
    assert sum(wall for wall, _ in times) / len(times) > 0.4 * limit
