"""A bot process that the machine keeps off a core while the referee connects still has
its Hello answered: a connection attempt waits for the bot's side of the handshake as long
as the call's deadline allows. It once gave up after 100 ms ("connection attempt timed out
before receiving SETTINGS frame"), which failed good bots on a loaded machine."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal

import grpc

from referee.bots.manifest import load_manifest
from referee.bots.process import BotProcess, ProcessLimits
from referee.sandbox.config import SandboxConfig
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire import codec
from sdk.wire.service import BOT_SERVICE
from tests.referee.helpers import RANDOM_BOT

PAUSE_S = 0.6  # the bot's process is stopped this long while the referee connects


async def hello_from_a_paused_bot() -> pb.HelloReply:
    bot = BotProcess(
        load_manifest(str(RANDOM_BOT / "bot.toml")), ProcessLimits(), SandboxConfig(enabled=False)
    )
    try:
        await bot.wait_ready(60)
        os.killpg(bot.pid, signal.SIGSTOP)  # as a loaded machine's scheduler might
        asyncio.get_running_loop().call_later(PAUSE_S, os.killpg, bot.pid, signal.SIGCONT)
        hello = bot.channel().unary_unary(f"/{BOT_SERVICE}/Hello", None, None)  # a new connection
        request = pb.HelloRequest(protocol_version=codec.PROTOCOL_VERSION, referee="test")
        data = await hello(request.SerializeToString(), timeout=PAUSE_S + 30)
        return pb.HelloReply.FromString(data)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(bot.pid, signal.SIGCONT)
        await bot.astop()


def test_a_bot_paused_during_the_handshake_still_answers_hello() -> None:
    try:
        reply = asyncio.run(hello_from_a_paused_bot())
    except grpc.aio.AioRpcError as error:
        raise AssertionError(f"Hello failed: {error.code().name}: {error.details()}") from None
    assert reply.name == "random_bot"
