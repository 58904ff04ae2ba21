"""The human seat in the browser: a page on a loopback port, played with the mouse.

:class:`WebDesk` serves, on ``127.0.0.1`` and a free port (the standard library's
``http.server``), one page drawn with the leaderboard's card components
(``leaderboard/static/bullring_cards.js`` and ``bullring.css``), and two calls:

- ``GET /state``: the game as the seat being asked sees it (:func:`human_seat.table.table_of`,
  the seat's view and nothing more), whether the page waits for the bots, and the end;
- ``POST /choose`` (JSON, from a page of this server: the Host must be this server's)
  with ``{"version": N, "index": I}`` or ``{"version": N, "card": C}``:
  the person's choice for question N. A card that is not an option is refused with a
  message (400) and nothing is sent to the referee.

The game lives in the server, so a reload finds it where it was. The page polls ``/state``;
a page that has not polled for ``gone_after_s`` while a question waits counts as a closed
tab, and the seat is left (the referee auto-plays it). At the end the page shows the
scores, the ranks and a link to the match's replay page (``/replay.html``: the leaderboard's
replay viewer on the match's data, which the referee writes when the match is over), and
to the replay file (``/replay``, with ``--replay-out``).
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import sys
import threading
import time
import webbrowser
from collections.abc import Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

from human_seat.bot import SeatClosed
from human_seat.table import Ask, matching, refusal, table_of
from sdk.match import MatchOutcome

HOST = "127.0.0.1"
STATIC = (  # the leaderboard's own files
    "bullring.css",
    "bullring_cards.js",
    "bullring_tables.js",
    "bullring_graph.js",
    "bullring.js",
)
REPLAY_FILE = "replay.html"
REPLAY_ASSETS = frozenset({*STATIC, "page.css"})  # what the replay page loads from here
MAX_BODY = 4096
WAIT_SLICE_S = 0.5  # how often a waiting question checks that the page is still there
PAGE_FILES = {  # the page's own files (package data), by path
    "/": ("page.html", "text/html; charset=utf-8"),
    "/page.js": ("page.js", "text/javascript; charset=utf-8"),
    "/page.css": ("page.css", "text/css; charset=utf-8"),
}
# Nothing but this server's own files; data: for the empty favicon and the card sprite.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def static_file(name: str) -> bytes:
    """A file of the leaderboard's static folder (its card drawing and styles)."""
    return resources.files("leaderboard").joinpath("static", name).read_bytes()


class WebDesk:
    """Asks the person through a page (see the module docstring)."""

    def __init__(
        self,
        replay: str = "",
        replay_data: str = "",
        end_file: str = "",
        gone_after_s: float = 120.0,
    ) -> None:
        self.replay = Path(replay) if replay else None  # the replay file (--replay-out)
        # The replay's viewer data (its digest, packed as the site packs it), written by
        # the referee once the match is over: what the replay page shows.
        self.replay_data = Path(replay_data) if replay_data else None
        self.end_file = Path(end_file) if end_file else None  # written once it was shown
        self.replay_loads: set[str] | None = None  # files served since the replay page
        self.gone_after_s = gone_after_s
        self.cond = threading.Condition()
        self.version = 0  # question number; 0 before the first
        self.ask: Ask | None = None  # the open question
        self.table: dict[str, Any] | None = None  # the last table shown
        self.answer: int | None = None
        self.end: dict[str, Any] | None = None
        self.closed = False
        self.last_poll = time.monotonic()
        self.choose_lock = threading.Lock()  # one question at a time, whatever the seat
        self.httpd = ThreadingHTTPServer((HOST, 0), _handler(self))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.httpd.server_address[1]}/"

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def open_browser(self) -> None:
        """Open the page in a graphical browser, if this machine has a display (never a
        text browser in the match's terminal); the address is printed either way."""
        graphical = sys.platform == "darwin" or any(
            os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY")
        )
        if graphical:
            with contextlib.suppress(webbrowser.Error):
                webbrowser.open(self.url)

    # --- the desk -------------------------------------------------------------------------

    def choose(self, ask: Ask) -> int:
        with self.choose_lock, self.cond:
            if self.closed:
                raise SeatClosed("the page has been closed")
            self.version += 1
            self.ask, self.answer = ask, None
            self.table = table_of(ask)
            self.last_poll = max(self.last_poll, time.monotonic() - self.gone_after_s / 2)
            self.cond.notify_all()
            while self.answer is None:
                if time.monotonic() - self.last_poll > self.gone_after_s:
                    self.closed = True
                    self.ask = None
                    raise SeatClosed("the page has been closed")
                self.cond.wait(WAIT_SLICE_S)
            answer, self.ask = self.answer, None
            return answer

    def ended(self, seat: int, names: Sequence[str], outcome: MatchOutcome) -> None:
        with self.cond:
            self.end = {
                "seat": seat,
                "family": self.table["family"] if self.table else "",
                "players": [
                    {"seat": s, "name": names[s] if s < len(names) else "?", "score": sc, "rank": r}
                    for s, (sc, r) in enumerate(zip(outcome.scores, outcome.ranks, strict=False))
                ],
                "replay": str(self.replay) if self.replay else "",
            }
            self.cond.notify_all()

    # --- the calls ------------------------------------------------------------------------

    def replay_page(self) -> bytes | None:
        """The match's replay page: the leaderboard's viewer (its scripts, its markup) on
        the replay's data, self-contained once loaded. It is the page's last screen: once it
        and the files it loads were served (:meth:`served`), the end file says so, and
        the match's command may then stop this server."""
        with self.cond:
            end = self.end
        data = self.replay_data
        if end is None or data is None or not data.exists():
            return None
        packed = data.read_text(encoding="ascii").strip()
        if not packed.replace("+", "").replace("/", "").replace("=", "").isalnum():
            return None  # (base64 only: it goes into the page as it is)
        names = [str(p["name"]) for p in end["players"]]
        options = [("referee", "the referee (every hand)")] + [
            (f"seat{s}", f"seat {s}: {name}") for s, name in enumerate(names)
        ]
        template = resources.files("human_seat").joinpath(REPLAY_FILE).read_text("utf-8")
        page = (
            template.replace("{{FAMILY}}", html.escape(str(end["family"])))
            .replace(
                "{{PERSPECTIVES}}",
                "".join(
                    f'<option value="{v}">{html.escape(label)}</option>' for v, label in options
                ),
            )
            .replace("{{DATA}}", packed)
        )
        with self.cond:
            self.replay_loads = set()
        return page.encode()

    def served(self, name: str) -> None:
        """A file of the page was served: once the replay page and every file it loads
        were, the page is self-contained in the browser, and the end file says so (the
        match's command may then stop this server without cutting the page short)."""
        with self.cond:
            loads = self.replay_loads
            if loads is None:
                return
            loads.add(name)
            done = loads >= REPLAY_ASSETS
        if done and self.end_file is not None and not self.end_file.exists():
            self.end_file.write_text("shown\n", encoding="utf-8")

    def state(self) -> dict[str, Any]:
        with self.cond:
            self.last_poll = time.monotonic()
            ready = self.replay_data is not None and self.replay_data.exists()
            if self.end is not None:
                status = "over"
            elif self.ask is not None:
                status = "asking"
            else:
                status = "waiting"
            left = self.ask.seconds_left() if self.ask is not None else None
            return {
                "status": status,
                "version": self.version,
                "clock": None if left is None else round(left, 1),
                "table": self.table,
                "end": self.end,
                "replay_ready": ready,
            }

    def choose_from_page(self, body: dict[str, Any]) -> tuple[HTTPStatus, str]:
        """Take the page's choice; (status, message)."""
        with self.cond:
            ask = self.ask
            if ask is None or body.get("version") != self.version:
                return HTTPStatus.CONFLICT, "that question has already been answered"
            index = body.get("index")
            card = body.get("card")
            if isinstance(card, int) and not isinstance(card, bool):
                found = matching(ask.options, card)
                if not found:
                    why = refusal(ask.view, ask.options, card) or "not an option"
                    return HTTPStatus.BAD_REQUEST, why
                if len(found) > 1:
                    return HTTPStatus.BAD_REQUEST, f"{card} can go to several places: choose one"
                index = found[0]
            if not isinstance(index, int) or isinstance(index, bool):
                return HTTPStatus.BAD_REQUEST, "choose a card or an option"
            if not 0 <= index < len(ask.options):
                return HTTPStatus.BAD_REQUEST, f"options are 1..{len(ask.options)}"
            self.answer = index
            self.cond.notify_all()
            return HTTPStatus.OK, ""


def _handler(desk: WebDesk) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        """The page, its static files, /state, /choose and /replay."""

        server_version = "bullring-human/1"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the terminal belongs to the match

        def _send(self, status: HTTPStatus, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Security-Policy", POLICY)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: HTTPStatus, data: object) -> None:
            self._send(status, json.dumps(data).encode(), "application/json")

        def _ours(self) -> bool:
            """Whether the request names this server (a page elsewhere that resolves its
            own name to 127.0.0.1, DNS rebinding, does not)."""
            port = desk.httpd.server_address[1]
            if self.headers.get("Host") in (f"{HOST}:{port}", f"localhost:{port}"):
                return True
            self._json(HTTPStatus.FORBIDDEN, {"message": "not this server's page"})
            return False

        def do_GET(self) -> None:
            if not self._ours():
                return
            path = self.path.split("?", 1)[0]
            if path in PAGE_FILES:
                name, kind = PAGE_FILES[path]
                self._send(
                    HTTPStatus.OK, resources.files("human_seat").joinpath(name).read_bytes(), kind
                )
                desk.served(name)
            elif path.startswith("/static/") and path[len("/static/") :] in STATIC:
                name = path[len("/static/") :]
                kind = "text/css" if name.endswith(".css") else "text/javascript"
                self._send(HTTPStatus.OK, static_file(name), kind + "; charset=utf-8")
                desk.served(name)
            elif path == "/state":
                self._json(HTTPStatus.OK, desk.state())
            elif path == "/replay.html" and desk.replay_data is not None:
                page = desk.replay_page()
                if page is None:
                    self._send(HTTPStatus.NOT_FOUND, b"the replay is not written yet", "text/plain")
                else:
                    self._send(HTTPStatus.OK, page, "text/html; charset=utf-8")
            elif path == "/replay" and desk.replay is not None and desk.replay.exists():
                kind = "application/gzip" if desk.replay.suffix == ".gz" else "application/json"
                self._send(HTTPStatus.OK, desk.replay.read_bytes(), kind)
            else:
                self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain")

        def do_POST(self) -> None:
            if not self._ours():
                return
            # JSON only: a page of another origin cannot send that without asking first
            # (a CORS preflight, which this server never grants).
            kind = self.headers.get("Content-Type", "").split(";")[0].strip()
            if kind != "application/json":
                self._json(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, {"message": "JSON only"})
                return
            if self.path != "/choose":
                self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain")
                return
            try:
                length = int(self.headers.get("Content-Length", "0"))
            except ValueError:
                length = -1
            if not 0 <= length <= MAX_BODY:
                self._json(HTTPStatus.BAD_REQUEST, {"message": "bad request"})
                return
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                body = None
            if not isinstance(body, dict):
                self._json(HTTPStatus.BAD_REQUEST, {"message": "bad request"})
                return
            status, message = desk.choose_from_page(body)
            self._json(status, {"message": message})

    return Handler
