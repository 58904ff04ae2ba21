"""The bot runtime, served by a real bot process over a Unix socket and over TCP."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from sdk import runtime
from sdk.game import (
    DecisionKind,
    Event,
    EventKind,
    Option,
    OptionKind,
    SixNimmtView,
    ViewHeader,
)
from sdk.match import MatchInfo, MatchOutcome
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.protocol.bullring.v1 import bot_pb2_grpc as pb_grpc
from sdk.wire import codec

ROOT = Path(__file__).resolve().parents[2]
BOT = Path(__file__).parent / "bots" / "counting_bot.py"
HAND = (7, 23, 55, 81)


@dataclass
class BotProcess:
    process: subprocess.Popen[str]
    address: str

    def stub(self) -> pb_grpc.BotStub:
        return pb_grpc.BotStub(grpc.insecure_channel(self.address))


def bot_env() -> dict[str, str]:
    """The bot process imports the sdk of this checkout, whatever is installed."""
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def start_bot(listen: str) -> BotProcess:
    process = subprocess.Popen(
        [sys.executable, str(BOT), "--listen", listen],
        cwd=ROOT,
        env=bot_env(),
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    assert line.startswith("LISTENING "), f"bot printed {line!r}"
    return BotProcess(process, line.removeprefix("LISTENING "))


def stop_bot(bot: BotProcess) -> int:
    bot.process.send_signal(signal.SIGTERM)
    return bot.process.wait(timeout=15)


@pytest.fixture(scope="module", params=["unix", "tcp"])
def bot(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BotProcess]:
    if request.param == "unix":
        listen = f"unix:{tmp_path_factory.mktemp('sock') / 'bot.sock'}"
    else:
        listen = "127.0.0.1:0"
    running = start_bot(listen)
    yield running
    assert stop_bot(running) == 0


def start(stub: pb_grpc.BotStub, match_id: str, seat: int) -> None:
    info = MatchInfo(match_id, "6nimmt", {"deck": "full"}, seat, 3, ("a", "b", "c"), 500, 2000)
    stub.StartMatch(codec.match_info_to_proto(info), timeout=10)


def decide_request(match_id: str, seat: int, index: int = 0) -> pb.DecideRequest:
    header = ViewHeader("6nimmt", {}, 3, seat, 1, (0, 0, 0), (0, 1, 2), DecisionKind.PICK_CARD)
    rows = ((3,), (40,), (66,), (90,))
    view = SixNimmtView(
        header, HAND, rows, (4, 4, 4), (0, 0, 0), 104, (False,) * 3, (), 0, (), False, ()
    )
    options = [Option(OptionKind.CARD, card) for card in HAND]
    return codec.decide_request(match_id, seat, index, view, options, 500, 2000)


def decide(stub: pb_grpc.BotStub, match_id: str, seat: int, index: int = 0) -> int:
    reply = stub.Decide(decide_request(match_id, seat, index), timeout=30)
    assert reply.HasField("option_index")
    return reply.option_index


def test_history_deltas_give_the_bot_its_whole_history(bot: BotProcess) -> None:
    """The SDK asks for history deltas and puts each session's history together."""
    stub = bot.stub()
    hello = stub.Hello(pb.HelloRequest(protocol_version=1, referee="tests"), timeout=10)
    assert hello.history_deltas
    start(stub, "history", 0)
    events = tuple(Event(EventKind.REVEAL, 0, card) for card in range(1, 11))
    header = ViewHeader("6nimmt", {}, 3, 0, 1, (0, 0, 0), (0,), DecisionKind.PICK_CARD)
    options = [Option(OptionKind.CARD, card) for card in range(1, 12)]
    # (history length, offset): deltas, an empty delta, a resent delta, then the whole.
    for length, offset in ((3, 0), (5, 3), (5, 5), (8, 5), (9, 6), (10, 9), (10, 0)):
        view = SixNimmtView(
            replace(header, history=events[:length]),
            HAND, ((3,), (40,), (66,), (90,)), (4, 4, 4), (0, 0, 0), 104,
            (False,) * 3, (), 0, (), False, (),
        )  # fmt: skip
        request = codec.decide_request("history", 0, 0, view, options, 500, 2000, offset)
        assert len(request.view.header.history) == length - offset
        assert stub.Decide(request, timeout=30).option_index == length
    view = replace(view, header=replace(header, history=events[:2]))
    beyond = codec.decide_request("history", 0, 0, view, options, 500, 2000, 11)
    with pytest.raises(grpc.RpcError) as error:
        stub.Decide(beyond, timeout=30)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "beyond" in (error.value.details() or "")


def test_bound_address_is_real(bot: BotProcess) -> None:
    if bot.address.startswith("unix:"):
        assert Path(bot.address.removeprefix("unix:")).is_socket()
    else:
        host, _, port = bot.address.rpartition(":")
        assert host == "127.0.0.1" and int(port) > 0


def test_health_reports_serving(bot: BotProcess) -> None:
    health = health_pb2_grpc.HealthStub(grpc.insecure_channel(bot.address))
    for service in ("", "bullring.v1.Bot"):
        reply = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING


def test_reflection_lists_the_bot_service(bot: BotProcess) -> None:
    reflection = reflection_pb2_grpc.ServerReflectionStub(grpc.insecure_channel(bot.address))
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    replies = list(reflection.ServerReflectionInfo(iter([request]), timeout=10))
    names = {s.name for s in replies[0].list_services_response.service}
    assert {"bullring.v1.Bot", "grpc.health.v1.Health"} <= names


def test_hello_tells_name_version_and_protocol(bot: BotProcess) -> None:
    reply = bot.stub().Hello(pb.HelloRequest(protocol_version=1, referee="tests"), timeout=10)
    assert (reply.name, reply.version, reply.author) == ("counting", "1.2", "tests")
    assert reply.protocol_version == 1
    assert list(reply.variants) == ["6nimmt", "xnimmt"]


def test_a_whole_match(bot: BotProcess) -> None:
    stub = bot.stub()
    start(stub, "whole", 2)
    # The bot answers 0, 1, 2, 3, 0 (odd ones as Options): all reach the referee as indexes.
    assert [decide(stub, "whole", 2, i) for i in range(5)] == [0, 1, 2, 3, 0]
    outcome = MatchOutcome(scores=(10, 4, 30), ranks=(2, 1, 3), faults=1)
    stub.EndMatch(codec.outcome_to_proto("whole", 2, outcome), timeout=10)
    with pytest.raises(grpc.RpcError) as error:
        decide(stub, "whole", 2)
    assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION


def test_concurrent_sessions_get_their_own_bot(bot: BotProcess) -> None:
    stub = bot.stub()
    match = f"barrier-{bot.address}"
    start(stub, match, 0)
    start(stub, match, 1)
    # Each bot waits until both decisions are in progress: this only ends when the two
    # sessions are served at once.
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda seat: decide(stub, match, seat), (0, 1)))
    assert answers == [0, 0]
    start(stub, "plain", 0)
    start(stub, "plain", 1)
    assert [decide(stub, "plain", 0), decide(stub, "plain", 0), decide(stub, "plain", 1)] == [
        0,
        1,
        0,
    ]


def test_a_failing_bot_gets_an_error_status_and_the_server_keeps_serving(bot: BotProcess) -> None:
    stub = bot.stub()
    start(stub, "raise-1", 0)
    start(stub, "invalid-1", 1)
    with pytest.raises(grpc.RpcError) as raised:
        decide(stub, "raise-1", 0)
    assert raised.value.code() == grpc.StatusCode.INTERNAL
    assert "this bot always fails" in str(raised.value.details())
    with pytest.raises(grpc.RpcError) as invalid:
        decide(stub, "invalid-1", 1)
    assert invalid.value.code() == grpc.StatusCode.INTERNAL
    assert "index 4" in str(invalid.value.details())
    start(stub, "fine-after-failures", 0)
    assert decide(stub, "fine-after-failures", 0) == 0


def test_sigterm_exits_zero_promptly(tmp_path: Path) -> None:
    running = start_bot(f"unix:{tmp_path / 'bot.sock'}")
    start(running.stub(), "m", 0)
    assert stop_bot(running) == 0


def test_sigterm_the_moment_a_bot_listens_stops_it(tmp_path: Path) -> None:
    # The main thread has only just printed LISTENING: a handler that took a lock there
    # deadlocked about one bot in a hundred under load (sdk/stop_signals.py).
    for i in range(8):
        running = start_bot(f"unix:{tmp_path / f'bot{i}.sock'}")
        assert stop_bot(running) == 0


def test_a_bad_listen_address_is_a_one_line_error() -> None:
    result = subprocess.run(
        [sys.executable, str(BOT), "--listen", "nonsense"],
        cwd=ROOT,
        env=bot_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: listen address 'nonsense' must be unix:/path or host:port"
    ]


def run_bot_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BOT), *args],
        cwd=ROOT,
        env=bot_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_help_prints_the_usage_and_does_not_serve() -> None:
    result = run_bot_script("--help")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "usage: counting_bot.py [--listen ADDRESS]"
    assert "Serves the bot 'counting'" in lines[2]
    assert not any(line.startswith("LISTENING ") for line in lines)  # it never served
    assert not result.stderr


@pytest.mark.parametrize("flag", ["--lisen", "-listen", "--listn=unix:/tmp/x.sock"])
def test_a_mistyped_listen_option_is_a_one_line_error(flag: str) -> None:
    """Ignored, it would leave the bot serving on another address than the one typed."""
    result = run_bot_script(flag, "unix:/tmp/never.sock")
    assert result.returncode == 2
    name = flag.partition("=")[0]
    assert result.stderr.strip().splitlines() == [
        f"error: unknown option {name}; did you mean --listen ADDRESS?"
    ]


@pytest.mark.parametrize(
    ("argv", "flagged"),
    [
        (["--lisen", "x"], "--lisen"),
        (["--listen:unix:/tmp/b.sock"], "--listen:unix:/tmp/b.sock"),
        (["--LISTEN", "x"], None),  # too far from it: the bot's own, or nothing
        (["--Listen", "x"], "--Listen"),
        (["--listen", "x", "--depth", "3"], None),  # a bot's own options are its own
        (["--list"], None),
        (["--listener"], None),
        (["--silent"], None),
        (["-v", "--port=3"], None),
    ],
)
def test_only_near_misses_of_listen_are_flagged(argv: list[str], flagged: str | None) -> None:
    assert runtime.misspelt_option(argv) == flagged


def test_a_decision_stream_answers_each_request_in_turn(bot: BotProcess) -> None:
    stub = bot.stub()
    hello = stub.Hello(pb.HelloRequest(protocol_version=1, referee="tests"), timeout=10)
    assert hello.decide_stream
    start(stub, "stream", 1)
    replies = stub.DecideStream(iter([decide_request("stream", 1, i) for i in range(5)]))
    # The bot answers 0, 1, 2, 3, 0, as on calls; the stream ends when the requests do.
    assert [r.option_index for r in replies] == [0, 1, 2, 3, 0]
    start(stub, "raise-stream", 0)
    failing = stub.DecideStream(iter([decide_request("raise-stream", 0)]))
    with pytest.raises(grpc.RpcError) as raised:
        list(failing)
    assert raised.value.code() == grpc.StatusCode.INTERNAL  # as a Decide call would fail
    assert "this bot always fails" in str(raised.value.details())


def test_a_play_stream_carries_matches_from_start_to_end(bot: BotProcess) -> None:
    """Play answers each request as its call would, with a reply of the request's kind:
    two matches one after the other on one stream, then a failure that ends it."""
    stub = bot.stub()
    assert stub.Hello(pb.HelloRequest(protocol_version=1, referee="tests"), timeout=10).play_stream
    requests: list[pb.PlayRequest] = []
    for match_id in ("play-a", "play-b"):
        info = MatchInfo(match_id, "6nimmt", {}, 1, 3, ("a", "b", "c"), 500, 2000)
        requests.append(pb.PlayRequest(start_match=codec.match_info_to_proto(info)))
        requests += [pb.PlayRequest(decide=decide_request(match_id, 1, i)) for i in range(5)]
        outcome = codec.outcome_to_proto(match_id, 1, MatchOutcome((3, 1, 2), (3, 1, 2), 0))
        requests.append(pb.PlayRequest(end_match=outcome))
    replies = list(stub.Play(iter(requests), timeout=30))
    assert [r.WhichOneof("reply") for r in replies] == [
        "start_match",
        *["decide"] * 5,
        "end_match",
    ] * 2
    # Each match is a session of its own: its instance answers 0, 1, 2, 3, 0.
    decided = [(r.decide.option_index, r.decide.decision_index) for r in replies[1:6]]
    assert decided == [(0, 0), (1, 1), (2, 2), (3, 3), (0, 4)]
    assert [r.decide.option_index for r in replies[8:13]] == [0, 1, 2, 3, 0]
    # A request after EndMatch finds no session: the stream ends with the call's status.
    late = pb.PlayRequest(decide=decide_request("play-a", 1, 5))
    with pytest.raises(grpc.RpcError) as raised:
        list(stub.Play(iter([late]), timeout=30))
    assert raised.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.RpcError) as raised:
        list(stub.Play(iter([pb.PlayRequest()]), timeout=30))
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
