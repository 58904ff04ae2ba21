"""Before a match by hand (``bullring play``): is every bot ready, and does it play this?

:func:`preflight` starts each distinct bot once in the match's own pool (so the match
reuses the process and its Hello), waits for SERVING and calls Hello. It refuses, with one
line naming the bot, a bot that does not start (quoting the end of its output, a
traceback's lines intact), one whose Hello fails or speaks another protocol, and one whose
Hello does not claim the variant (an empty list claims every variant).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.bot_client import BotClient, protocol_mismatch
from referee.process import BotPool, BotStartError
from referee.spec import BotSpec, Fault
from sdk.errors import BullringError


class BotNotReady(BullringError):
    """A bot cannot play the match: it did not start, or does not claim the variant."""


def _quoted(output: str) -> str:
    return "".join(f"\n  | {line}" for line in output.splitlines())


async def preflight(pool: BotPool, bots: Sequence[BotSpec], variant: str, setup_ms: int) -> None:
    """Check every distinct bot of `bots` against `variant` (a preset id); BotNotReady
    for the first that cannot play it."""
    seen: set[str] = set()
    setup_s = setup_ms / 1000.0
    for bot in bots:
        if bot.key in seen:
            continue
        seen.add(bot.key)
        try:
            lease = await pool.lease(bot, setup_s)
        except BotStartError as exc:
            raise BotNotReady(
                f"{bot.key} is not ready: {exc.kind.value}: {exc.detail}{_quoted(exc.output)}"
            ) from None
        client = BotClient(0, lease)
        try:
            hello = await client.hello(setup_s)
        finally:
            await client.close()
        problem: str | None
        if isinstance(hello, Fault):
            problem = f"its Hello failed: {hello.kind.value}: {hello.detail}"
            problem += _quoted(hello.traceback)
        else:
            problem = protocol_mismatch(hello)
            claimed = list(hello.variants)
            if problem is None and claimed and variant not in claimed:
                problem = f"it does not claim {variant} (it claims {', '.join(claimed)})"
        await pool.release(lease, discard=problem is not None)
        if problem is not None:
            raise BotNotReady(f"{bot.key} cannot play: {problem}")
