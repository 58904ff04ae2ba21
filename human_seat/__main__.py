"""The human seat's process: serve :class:`~human_seat.bot.HumanBot` over gRPC.

``python -m human_seat --listen unix:/path [--web]`` serves the human seats of a match
(every seat is a session of the one server, asked at the one desk: this terminal, or a
page served on a loopback port) until SIGTERM or SIGHUP (the terminal closed). Ctrl-C is
the match's, not this process's: the referee that started it stops it.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import logging
import os
import signal
import sys
import termios
from collections.abc import Sequence
from typing import NoReturn

from human_seat.bot import Desk, HumanBot
from human_seat.terminal import TerminalDesk
from human_seat.web import WebDesk
from sdk.runtime import BotServer
from sdk.stop_signals import StopSignals

PR_SET_PDEATHSIG = 1


def follow_parent() -> None:
    """Get SIGTERM (a clean stop) when the command that started this seat dies, even by
    SIGKILL: a seat left behind would hold its page's port and wait for nobody."""
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if parent == 1:  # it died before we could ask to follow it
        os._exit(0)


def main(argv: Sequence[str] | None = None) -> NoReturn:
    parser = argparse.ArgumentParser(prog="python -m human_seat", description=__doc__)
    parser.add_argument("--listen", required=True, help="unix:/path or host:port")
    parser.add_argument("--web", action="store_true", help="ask in a browser page")
    parser.add_argument("--no-open", action="store_true", help="do not open a browser")
    parser.add_argument("--url-file", help="write the page's address to this file")
    parser.add_argument("--replay-page", default="", help="the match's replay, shown at the end")
    parser.add_argument("--replay-data", default="", help="the replay's viewer data, once written")
    parser.add_argument("--end-file", default="", help="written once the replay page is shown")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    terminal_mode = None
    if sys.stdin.isatty():
        with contextlib.suppress(termios.error):
            terminal_mode = termios.tcgetattr(sys.stdin.fileno())
    # The screen is the person's: what decide() raised (a person who left) reaches the
    # referee as the seat's fault, with its traceback in the replay, not on the screen.
    logging.getLogger("sdk.runtime").disabled = True
    with StopSignals((signal.SIGTERM, signal.SIGHUP)) as signals:
        follow_parent()
        web: WebDesk | None = None
        desk: Desk
        if args.web:
            desk = web = WebDesk(args.replay_page, args.replay_data, args.end_file)
            web.start()
            if not args.url_file:  # (else whoever started it says where)
                print(f"play in your browser: {web.url}", flush=True)
            else:
                with open(args.url_file, "w", encoding="utf-8") as out:
                    out.write(web.url + "\n")
            if not args.no_open:
                web.open_browser()
        else:
            desk = TerminalDesk()
            if terminal_mode is not None:  # keys pressed while the bots think: not drawn
                quiet = list(terminal_mode)
                quiet[3] &= ~termios.ECHO
                with contextlib.suppress(termios.error):
                    termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, quiet)
        server = BotServer(lambda: HumanBot(desk), args.listen, max_workers=8)
        server.start()
        signals.wait()
        if web is not None:
            web.stop()
        server.stop(0.5)
    # A question may still wait for the person, in a thread that never ends by itself
    # (no clock): leave now, with the terminal as it was found.
    if terminal_mode is not None:
        with contextlib.suppress(termios.error):
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, terminal_mode)
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
