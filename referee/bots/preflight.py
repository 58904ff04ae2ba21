"""Before a match by hand (``bullring play``): is every bot ready, and does it play this?

:func:`preflight` starts each distinct bot once in the match's own pool (so the match
reuses the process and its Hello), waits for SERVING and calls Hello. It refuses, with
one line naming the bot, a bot that does not start (quoting the end of its output, a
traceback's lines intact, unless it was shown live), one whose Hello fails or speaks
another protocol, and one whose Hello does not claim the match's format (sdk/wire/claims.py:
a bare variant name claims every format of it, ``6nimmt:rounds=1`` only that one, an
empty list every variant) or claims something invalid."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.bots.client import BotClient, protocol_mismatch
from referee.bots.process import BotPool, BotStartError
from referee.faults import Fault
from referee.spec import BotSpec
from sdk.errors import BullringError
from sdk.game.variants import parse_variant
from sdk.wire.claims import claim_problems, claims_cover


class BotNotReady(BullringError):
    """A bot cannot play the match: it did not start, or does not claim the variant."""


def _quoted(output: str) -> str:
    return "".join(f"\n  | {line}" for line in output.splitlines())


async def preflight(
    pool: BotPool,
    bots: Sequence[BotSpec],
    variant: str,
    setup_ms: int,
    options: Mapping[str, str] | None = None,
    shown_live: bool = False,
) -> None:
    """Check every distinct bot of `bots` against `variant` (a variant id, options
    allowed) with `options`; BotNotReady for the first that cannot play it.

    A bot that does not start has the end of its output quoted, unless `shown_live`
    (the pool echoes the bots' output as it comes: it is on the screen already)."""
    spec = parse_variant(variant, options)
    seen: set[str] = set()
    setup_s = setup_ms / 1000.0
    for bot in bots:
        if bot.key in seen:
            continue
        seen.add(bot.key)
        try:
            lease = await pool.lease(bot, setup_s)
        except BotStartError as exc:
            if not exc.output:
                output = ""
            elif shown_live:
                output = " (its output is above)"
            else:
                output = _quoted(exc.output)
            raise BotNotReady(
                f"{bot.key} is not ready: {exc.kind.value}: {exc.detail}{output}"
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
            invalid = claim_problems(claimed)
            if problem is None and invalid:
                problem = f"its Hello has an {invalid[0]}"
            elif problem is None and not claims_cover(claimed, spec):
                problem = f"it does not claim {spec.id} (it claims {', '.join(claimed)})"
        await pool.release(lease, discard=problem is not None)
        if problem is not None:
            raise BotNotReady(f"{bot.key} cannot play: {problem}")
