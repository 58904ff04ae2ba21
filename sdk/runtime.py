"""Serve a bot over gRPC: the bullring.v1.Bot service, health and reflection.

``run(MyBot)`` is all a bot's main needs. The process prints one line
``LISTENING <address>`` once it accepts calls (address ``unix:/path`` or ``host:port``
with the real port when port 0 was asked for), answers until SIGTERM or SIGINT, then
stops accepting, lets calls in flight finish within a grace period and exits 0.

Every (match_id, seat) is a session with its own Bot instance. Calls run on a thread
pool, so sessions of several matches are served at once; one session's calls are
serialised. The same requests may come as calls, a session's decisions on a
DecideStream, or everything on a Play stream (docs/protocol.md); each is answered the
same way. A bot that raises gets an error status for that call (INTERNAL) carrying the
exception's type, message and traceback in the status details (:mod:`sdk.wire.error_status`:
the referee records an EXCEPTION fault); one that returns something that is not an
offered option gets INTERNAL without details (a PROTOCOL fault). The server keeps serving.
"""

from __future__ import annotations

import difflib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures
from dataclasses import dataclass, field
from typing import NoReturn

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from sdk.bot import Bot, BotFactory, InvalidChoice, choice_index
from sdk.errors import BullringError
from sdk.match import DecisionClock
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.protocol.bullring.v1 import bot_pb2_grpc as pb_grpc
from sdk.stop_signals import StopSignals
from sdk.wire import codec, error_status
from sdk.wire.service import BOT_SERVICE, MAX_MESSAGE_BYTES
from sdk.wire.view_decoder import ViewDecoder

log = logging.getLogger("sdk.runtime")

DEFAULT_LISTEN = "127.0.0.1:0"
LISTEN_ENV = "BULLRING_LISTEN"
GRACE_SECONDS = 2.0
SERVER_OPTIONS = [
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ("grpc.so_reuseport", 0),
]


def described_by(factory: BotFactory) -> object:
    """What tells a bot's name, version, author and variants: a Bot subclass tells them
    without being instantiated; a factory makes a bot to ask."""
    return factory if isinstance(factory, type) else factory()


@dataclass
class Session:
    """One seat of one match: its Bot instance and the decoder of its views."""

    bot: Bot
    decoder: ViewDecoder = field(default_factory=ViewDecoder)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _failure(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= 500 else text[:497] + "..."


def _raised(
    context: grpc.ServicerContext, message: str, error: BaseException, skip: int = 1
) -> NoReturn:
    """Fail the call with INTERNAL and `message`, with the bot's exception (type, message,
    traceback without the SDK's `skip` frames) in the status details."""
    code = grpc.StatusCode.INTERNAL
    details = error_status.exception_details(code.value[0], message, error, skip)
    context.set_trailing_metadata(((error_status.DETAILS_KEY, details),))
    context.abort(code, message)


class BotService(pb_grpc.BotServicer):
    """bullring.v1.Bot over a bot factory: one Bot instance per (match_id, seat)."""

    def __init__(self, factory: BotFactory) -> None:
        self._factory = factory
        about = described_by(factory)
        self.name = str(getattr(about, "name", Bot.name))
        self.version = str(getattr(about, "version", Bot.version))
        self.author = str(getattr(about, "author", Bot.author))
        self.variants = tuple(str(v) for v in getattr(about, "variants", ()))
        self._sessions: dict[tuple[str, int], Session] = {}
        self._sessions_lock = threading.Lock()

    def session_count(self) -> int:
        return len(self._sessions)

    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloReply:
        return pb.HelloReply(
            name=self.name,
            version=self.version,
            protocol_version=codec.PROTOCOL_VERSION,
            variants=self.variants,
            author=self.author,
            history_deltas=True,
            decide_stream=True,
            play_stream=True,
        )

    def StartMatch(
        self, request: pb.StartMatchRequest, context: grpc.ServicerContext
    ) -> pb.StartMatchReply:
        info = codec.match_info_from_proto(request)
        try:
            bot = self._factory()
        except Exception as error:
            log.exception("creating the bot failed")
            _raised(context, f"creating the bot failed: {_failure(error)}", error)
        session = Session(bot)
        with self._sessions_lock:
            self._sessions[(info.match_id, info.seat)] = session
        self._call(session, lambda: bot.start_match(info), "start_match", context)
        return pb.StartMatchReply()

    def Decide(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> pb.DecideReply:
        clock = DecisionClock(request.deadline_ms, request.time_bank_ms)
        session = self._session(request.match_id, request.seat, context)
        with session.lock:
            try:
                view = session.decoder.decode(request.view, request.history_offset)
                options = codec.options_from_proto(request.options)
            except codec.CodecError as error:
                bad_request = f"bad request: {error}"
            else:
                bad_request = "" if options else "bad request: no options offered"
            if bad_request:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, bad_request)
            try:
                chosen = session.bot.decide(view, options, clock)
            except Exception as error:
                log.exception("decide() raised")
                _raised(context, f"decide() raised {_failure(error)}", error)
            try:
                index = choice_index(chosen, options)
            except InvalidChoice as error:
                failure = str(error)
            else:
                return pb.DecideReply(option_index=index, decision_index=request.decision_index)
        context.abort(grpc.StatusCode.INTERNAL, failure)

    def DecideStream(
        self, request_iterator: Iterator[pb.DecideRequest], context: grpc.ServicerContext
    ) -> Iterator[pb.DecideReply]:
        """Decide, for each request of a session's stream in turn (a failure ends the
        stream with the status Decide would have failed with)."""
        for request in request_iterator:
            yield self.Decide(request, context)

    def Play(
        self, request_iterator: Iterator[pb.PlayRequest], context: grpc.ServicerContext
    ) -> Iterator[pb.PlayReply]:
        """StartMatch, Decide and EndMatch, each request of the process's stream in turn,
        answered by a reply of its kind (a failure ends the stream with the status the call
        would have failed with)."""
        for request in request_iterator:
            kind = request.WhichOneof("request")
            if kind == "decide":
                yield pb.PlayReply(decide=self.Decide(request.decide, context))
            elif kind == "start_match":
                yield pb.PlayReply(start_match=self.StartMatch(request.start_match, context))
            elif kind == "end_match":
                yield pb.PlayReply(end_match=self.EndMatch(request.end_match, context))
            else:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, "bad request: an empty PlayRequest")

    def EndMatch(
        self, request: pb.EndMatchRequest, context: grpc.ServicerContext
    ) -> pb.EndMatchReply:
        session = self._session(request.match_id, request.seat, context)
        with self._sessions_lock:
            self._sessions.pop((request.match_id, request.seat), None)
        outcome = codec.outcome_from_proto(request)
        self._call(session, lambda: session.bot.end_match(outcome), "end_match", context)
        return pb.EndMatchReply()

    def _session(self, match_id: str, seat: int, context: grpc.ServicerContext) -> Session:
        session = self._sessions.get((match_id, seat))
        if session is None:
            context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"no session for match {match_id!r} seat {seat}: call StartMatch first",
            )
        return session

    @staticmethod
    def _call(
        session: Session, hook: Callable[[], object], what: str, context: grpc.ServicerContext
    ) -> None:
        """Run a bot hook under the session lock; fail the call if it raised."""
        with session.lock:
            try:
                hook()
            except Exception as error:
                log.exception("%s() raised", what)
                # skip 2 frames: this method's and the lambda calling the hook
                _raised(context, f"{what}() raised {_failure(error)}", error, skip=2)


class BotServer:
    """A running gRPC server for one bot factory (Bot, health, reflection)."""

    def __init__(self, factory: BotFactory, listen: str, max_workers: int = 16) -> None:
        self.service = BotService(factory)
        self.health = health.HealthServicer()
        self._server = grpc.server(
            futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="bot"),
            options=SERVER_OPTIONS,
        )
        pb_grpc.add_BotServicer_to_server(self.service, self._server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self._server)
        reflection.enable_server_reflection(
            (BOT_SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME), self._server
        )
        self.address = bind(self._server, listen)

    def start(self) -> None:
        self._server.start()
        for service in ("", BOT_SERVICE):
            self.health.set(service, health_pb2.HealthCheckResponse.SERVING)

    def stop(self, grace: float = GRACE_SECONDS) -> None:
        """Stop accepting calls; calls in flight get `grace` seconds to finish."""
        self.health.enter_graceful_shutdown()
        self._server.stop(grace).wait()


def bind(server: grpc.Server, listen: str) -> str:
    """Bind `listen` ("unix:/path" or "host:port", port 0 allowed); the bound address."""
    if listen.startswith("unix:"):
        if server.add_insecure_port(listen) == 0:
            raise ListenError(f"cannot listen on {listen}")
        return listen
    host, colon, port = listen.rpartition(":")
    if not colon or not host or not port.isdigit():
        raise ListenError(f"listen address {listen!r} must be unix:/path or host:port")
    try:
        bound = server.add_insecure_port(listen)
    except RuntimeError:
        bound = 0
    if bound == 0:
        raise ListenError(f"cannot listen on {listen}")
    return f"{host}:{bound}"


class ListenError(BullringError, RuntimeError):
    """The server could not listen on the requested address."""


def listen_address(argv: Sequence[str] | None = None) -> str:
    """The address to listen on: ``--listen ADDR`` in argv, else $BULLRING_LISTEN."""
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args):
        if arg.startswith("--listen="):
            return arg.partition("=")[2]
        if arg == "--listen" and i + 1 < len(args):
            return args[i + 1]
    return os.environ.get(LISTEN_ENV) or DEFAULT_LISTEN


def serve(factory: BotFactory, listen: str | None = None, grace: float = GRACE_SECONDS) -> None:
    """Serve `factory`'s bots until SIGTERM or SIGINT (call from the main thread).

    Prints ``LISTENING <address>`` on stdout once calls are accepted.
    """
    with StopSignals() as signals:
        server = BotServer(factory, listen or listen_address())
        server.start()
        print(f"LISTENING {server.address}", flush=True)
        signals.wait()
        started = time.monotonic()
        server.stop(grace)
        log.info("stopped in %.2fs", time.monotonic() - started)


def usage(factory: BotFactory, program: str) -> str:
    """What ``python bot.py --help`` prints."""
    name = str(getattr(described_by(factory), "name", Bot.name))
    return (
        f"usage: {program} [--listen ADDRESS]\n"
        "\n"
        f"Serves the bot {name!r} to a Bullring referee over gRPC (bullring.v1.Bot).\n"
        "\n"
        "  --listen ADDRESS  unix:/path, or host:port (port 0: any free port); default\n"
        f"                    ${LISTEN_ENV}, else {DEFAULT_LISTEN}\n"
        "\n"
        "It prints LISTENING <address> once it takes calls, and stops on SIGTERM or\n"
        "Ctrl-C. The referee starts it by itself: to play it, give its bot.toml (or the\n"
        "folder holding it) to `bullring play --bot`; or start it here with --listen\n"
        "HOST:PORT and give that address to --bot.\n"
    )


def misspelt_option(argv: Sequence[str]) -> str | None:
    """An argument that looks like a mistyped ``--listen`` (``--lisen``, ``-listen``,
    ``--listen:x``), which would otherwise be ignored and the bot serve elsewhere."""
    for arg in argv:
        if not arg.startswith("-") or arg == "--listen" or arg.startswith("--listen="):
            continue
        flag = arg.partition("=")[0]
        near = flag.partition(":")[0]  # --listen:unix:/path
        if near == "--listen" or (
            abs(len(near) - len("--listen")) <= 1
            and difflib.SequenceMatcher(None, near, "--listen").ratio() >= 0.75
        ):
            return flag
    return None


def program_name() -> str:
    """How this bot was started, for its usage line: ``bot.py``, or ``python -m pkg``."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name:
        return f"python -m {spec.name.removesuffix('.__main__')}"
    return os.path.basename(sys.argv[0]) or "bot.py"


def run(factory: BotFactory, listen: str | None = None) -> NoReturn:
    """The whole main of a bot: ``if __name__ == "__main__": run(MyBot)``.

    Exits 0 after a clean shutdown. ``-h``/``--help`` prints the usage and exits 0; a
    bad listen address, or an option that looks like a mistyped ``--listen``, is a
    one-line error, exit 2. Other arguments are left to the bot, which may read its own.
    """
    argv = sys.argv[1:]
    if listen is None and ("-h" in argv or "--help" in argv):
        print(usage(factory, program_name()), end="")
        sys.exit(0)
    if listen is None and (flag := misspelt_option(argv)) is not None:
        print(f"error: unknown option {flag}; did you mean --listen ADDRESS?", file=sys.stderr)
        sys.exit(2)
    try:
        serve(factory, listen)
    except ListenError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    sys.exit(0)
