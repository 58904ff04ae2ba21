"""The human seat in a terminal (issue 30): ``bullring play --bot human`` in a real
pseudo-terminal against real bot processes, a whole game of every family with Enter alone,
a typed card, a card not in the hand refused with a message, and a person who leaves."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.human_seat.terminal import (
    PROMPT,
    RANDOM_BOT,
    Responder,
    Session,
    bullring_argv,
    run_in_pty,
)

# Every family, and the variants whose decisions differ: Logic's draft, Professional's
# two ends, Tactics' small deck. Two players keep the games short.
VARIANTS = [
    "6nimmt:rounds=1",
    "6nimmt-tactics:rounds=1",
    "6nimmt-logic:rounds=1",
    "6nimmt-pro:rounds=1",
    "xnimmt",
    "11nimmt",
    "hornochsen",
]


def play(
    tmp_path: Path,
    variant: str,
    *extra: str,
    respond: Responder | None = None,
    seats: tuple[str, ...] = ("human", RANDOM_BOT),
) -> Session:
    bots: list[str] = []
    for bot in seats:
        bots += ["--bot", bot]
    argv = bullring_argv(
        "play",
        variant,
        *bots,
        "--seed",
        "5",
        "--no-sandbox",
        "--setup-ms",
        "60000",
        "--replay-out",
        str(tmp_path / "replay.json"),
        *extra,
    )
    if respond is None:
        return run_in_pty(argv, tmp_path)
    return run_in_pty(argv, tmp_path, respond)


def replay_of(tmp_path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((tmp_path / "replay.json").read_text())
    return data


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_enter_alone_plays_a_whole_game(tmp_path: Path, variant: str) -> None:
    session = play(tmp_path, variant)
    text = session.text
    assert session.code == 0, text[-3000:]
    assert "Traceback" not in text
    assert "the match is over" in text
    assert "replay written to" in text
    replay = replay_of(tmp_path)
    human = [d for d in replay["decisions"] if d["seat"] == 0]
    # Enter played the highlighted option, which starts on the first legal one.
    assert human and all(d["choice"] == 0 for d in human)
    assert not any(d["fault"] for d in replay["decisions"])
    assert text.count(PROMPT) >= len(human)
    assert "no clock" in text  # the human's clock is off by default


def test_a_typed_card_is_played_and_a_card_not_in_the_hand_is_refused(tmp_path: Path) -> None:
    typed: list[str] = []

    def respond(screen: str, questions: int) -> bytes:
        if questions == 1:
            return b"999\r"  # not a card of this deck, nor of the hand
        if questions == 2:
            # the hand of the first question, as drawn: play its last card by number
            hand = screen.split("your hand:")[1].split("\n")[0]
            cards = [int(tok) for tok in hand.split() if tok.isdigit()]
            typed.append(str(cards[-1]))
            return typed[0].encode() + b"\r"
        return b"\r"

    session = play(tmp_path, "6nimmt:rounds=1", respond=respond)
    text = session.text
    assert session.code == 0, text[-3000:]
    assert "999 is not in your hand" in text
    first = next(d for d in replay_of(tmp_path)["decisions"] if d["seat"] == 0)
    _kind, card = first["options"][first["choice"]][:2]
    assert str(card) == typed[0]


def test_arrow_keys_move_the_highlight(tmp_path: Path) -> None:
    def respond(screen: str, questions: int) -> bytes:
        return b"\x1b[B\x1b[B\r" if questions == 1 else b"\r"

    session = play(tmp_path, "6nimmt:rounds=1", respond=respond)
    assert session.code == 0, session.text[-3000:]
    first = next(d for d in replay_of(tmp_path)["decisions"] if d["seat"] == 0)
    assert first["choice"] == 2


def test_leaving_ends_the_match_cleanly_with_the_replay_kept(tmp_path: Path) -> None:
    def respond(screen: str, questions: int) -> bytes:
        return b"q" if questions == 2 else b"\r"

    session = play(tmp_path, "6nimmt:rounds=1", respond=respond)
    text = session.text
    assert session.code == 0, text[-3000:]
    assert "Traceback" not in text
    human = [d for d in replay_of(tmp_path)["decisions"] if d["seat"] == 0]
    assert human[0]["fault"] is None and human[1]["fault"] is not None
    assert human[-1]["auto"]  # the seat was forfeited and auto-played to the end
    assert "yes" in text.split("result")[-1]


def test_a_closed_terminal_ends_the_match_cleanly_with_the_replay_kept(tmp_path: Path) -> None:
    argv = bullring_argv(
        "play",
        "6nimmt:rounds=1",
        "--bot",
        "human",
        "--bot",
        RANDOM_BOT,
        "--seed",
        "5",
        "--no-sandbox",
        "--setup-ms",
        "60000",
        "--replay-out",
        str(tmp_path / "replay.json"),
    )
    session = run_in_pty(argv, tmp_path, hang_up_at=3)
    assert session.code == 0
    human = [d for d in replay_of(tmp_path)["decisions"] if d["seat"] == 0]
    assert human[-1]["auto"]  # forfeited once the terminal had gone, auto-played to the end


def test_an_interrupt_ends_the_command_and_gives_the_terminal_back(tmp_path: Path) -> None:
    argv = bullring_argv(
        "play", "6nimmt:rounds=1", "--bot", "human", "--bot", RANDOM_BOT, "--seed", "5",
        "--no-sandbox", "--setup-ms", "60000",
    )  # fmt: skip
    session = run_in_pty(argv, tmp_path, interrupt_at=2)
    assert session.code == 130, session.text[-3000:]
    assert "Traceback" not in session.text


def test_two_human_seats_take_turns_at_one_terminal(tmp_path: Path) -> None:
    session = play(tmp_path, "6nimmt:rounds=1", seats=("human", RANDOM_BOT, "human"))
    text = session.text
    assert session.code == 0, text[-3000:]
    assert "you are seat 0" in text and "you are seat 2" in text
    assert not any(d["fault"] for d in replay_of(tmp_path)["decisions"])


OPTION = re.compile(r"(?:> )?\s*(\d+)\. (play \S+(?: on (?:pile|row) \d+)?|take pile \d+|end turn)")


def prefer(kinds: tuple[str, ...]) -> Responder:
    """Keys that move the highlight to the first option starting with one of `kinds`
    (in that order of preference), then Enter; Enter alone when none is offered."""

    def respond(screen: str, questions: int) -> bytes:
        last = screen[screen.rfind("your hand:") :]  # the question just drawn
        found = [(int(n) - 1, label) for n, label in OPTION.findall(last)]
        for kind in kinds:
            for index, label in found:
                if label.startswith(kind):
                    return b"\x1b[B" * index + b"\r"
        return b"\r"

    return respond


@pytest.mark.slow
def test_a_multi_card_turn_of_11_nimmt_from_the_keyboard(tmp_path: Path) -> None:
    session = play(tmp_path, "11nimmt", respond=prefer(("play", "end turn")))
    assert session.code == 0, session.text[-3000:]
    kinds = [(d["kind"], d["options"][d["choice"]][0]) for d in human_decisions(tmp_path)]
    plays = [i for i, (_, option) in enumerate(kinds) if option == 4]  # OptionKind.PLAY
    assert plays, kinds
    assert any(b == a + 1 for a, b in itertools.pairwise(plays)), kinds


@pytest.mark.slow
def test_hornochsen_specials_from_the_keyboard(tmp_path: Path) -> None:
    session = play(tmp_path, "hornochsen", respond=prefer(("play x2", "play +5", "play")))
    assert session.code == 0, session.text[-3000:]
    options = [d["options"][d["choice"]][0] for d in human_decisions(tmp_path)]
    assert 5 in options  # OptionKind.SPECIAL


def test_the_human_clock_is_shown_when_it_is_on(tmp_path: Path) -> None:
    session = play(tmp_path, "6nimmt:rounds=1", "--human-clock", "--decision-ms", "60000")
    assert session.code == 0, session.text[-3000:]
    assert re.search(r"\d+ s left", session.text)
    assert "no clock" not in session.text


def human_decisions(tmp_path: Path) -> list[dict[str, Any]]:
    return [d for d in replay_of(tmp_path)["decisions"] if d["seat"] == 0]


def test_a_script_plays_a_whole_game_with_empty_lines(tmp_path: Path) -> None:
    """Standard input that is not a terminal: one line per decision, empty for the
    highlighted option."""
    argv = bullring_argv(
        "play", "6nimmt:rounds=1", "--bot", "human", "--bot", RANDOM_BOT, "--seed", "5",
        "--no-sandbox", "--setup-ms", "60000", "--replay-out", str(tmp_path / "replay.json"),
    )  # fmt: skip
    done = subprocess.run(
        argv, cwd=tmp_path, input="\n" * 200, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    human = human_decisions(tmp_path)
    assert human and all(d["choice"] == 0 and not d["fault"] for d in human)


def test_json_output_stays_parseable_with_a_human_seat(tmp_path: Path) -> None:
    argv = bullring_argv(
        "play", "6nimmt:rounds=1", "--bot", "human", "--bot", RANDOM_BOT, "--seed", "5",
        "--no-sandbox", "--setup-ms", "60000", "--json",
    )  # fmt: skip
    done = subprocess.run(
        argv, cwd=tmp_path, input="\n" * 200, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["bots"] == ["human@1", "random_bot@1.0"]
    assert "your hand" in done.stderr  # the table, for the person
