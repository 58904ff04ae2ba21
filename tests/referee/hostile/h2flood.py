"""HTTP/2 control frames flooded at the referee: the bot serves gRPC on a socket of its own
in its /tmp and puts a proxy of its own on its real socket, which passes the frames on
both ways (the referee's PING acknowledgements it swallows) and, from the bot's first
decision on, for ``seconds`` (bounded), writes ``kind`` frames to every connection of the
referee's as fast as it can: ``ping`` (each asks for an acknowledgement), ``settings``
(same) or ``window`` (a WINDOW_UPDATE of 1 on the connection). Its first decision is
answered when the flood is over. It reports how many frames it sent."""

from __future__ import annotations

import contextlib
import os
import socket
import struct
import threading
import time
from typing import Any

from tests.referee.bad_bots.rawbot import serve
from tests.referee.hostile.common import HostileBot

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
OUTER = "/run/bullring/bot.sock"
INNER = "/tmp/inner.sock"
PING, SETTINGS, WINDOW_UPDATE, ACK = 6, 4, 8, 1
MAX_SECONDS = 5.0


def frame(kind: int, flags: int, payload: bytes) -> bytes:
    """An HTTP/2 frame on stream 0 (the connection)."""
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + bytes(4) + payload


FLOOD = {
    "ping": frame(PING, 0, bytes(8)),
    "settings": frame(SETTINGS, 0, b""),
    "window": frame(WINDOW_UPDATE, 0, struct.pack(">I", 1)),
}


def recv_exact(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        part = sock.recv(size - len(data))
        if not part:
            raise EOFError
        data += part
    return data


class Connection:
    """One connection of the referee's, passed on to the inner server frame by frame."""

    def __init__(self, client: socket.socket) -> None:
        self.client = client
        self.inner = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.inner.connect(INNER)
        self.to_client = threading.Lock()  # whole frames only: the pump's and the flood's
        self.flooded = False
        for target in (self.upstream, self.downstream):
            threading.Thread(target=target, daemon=True).start()

    def upstream(self) -> None:
        with contextlib.suppress(EOFError, OSError):
            self.inner.sendall(recv_exact(self.client, len(PREFACE)))
            while True:
                head = recv_exact(self.client, 9)
                body = recv_exact(self.client, int.from_bytes(head[:3], "big"))
                if head[3] in (PING, SETTINGS) and head[4] & ACK and self.flooded:
                    continue  # an acknowledgement of the flood's, not of the inner server's
                self.inner.sendall(head + body)
        self.close()

    def downstream(self) -> None:
        with contextlib.suppress(EOFError, OSError):
            while True:
                head = recv_exact(self.inner, 9)
                body = recv_exact(self.inner, int.from_bytes(head[:3], "big"))
                with self.to_client:
                    self.client.sendall(head + body)
        self.close()

    def close(self) -> None:
        for sock in (self.client, self.inner):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


class H2Flood(HostileBot):
    name = "h2flood"

    def __init__(self) -> None:
        super().__init__()
        self.connections: list[Connection] = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while not os.path.exists(INNER):
            time.sleep(0.01)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(OUTER)
        listener.listen(16)
        while True:
            client, _ = listener.accept()
            self.connections.append(Connection(client))

    def attack(self) -> dict[str, Any]:
        one = FLOOD[self.config.get("kind", "ping")]
        block = one * (65536 // len(one))
        sent, refused = 0, 0
        end = time.monotonic() + min(float(self.config.get("seconds", 1.0)), MAX_SECONDS)
        live = list(self.connections)
        for connection in live:
            connection.flooded = True
        while live and time.monotonic() < end:
            for connection in list(live):
                try:
                    with connection.to_client:
                        connection.client.sendall(block)
                    sent += len(block) // len(one)
                except OSError:
                    refused += 1  # the referee closed it (or it was a finished health check)
                    live.remove(connection)
        return {"frames": sent, "connections_closed": refused}


if __name__ == "__main__":
    os.environ["BULLRING_LISTEN"] = f"unix:{INNER}"
    serve(H2Flood())
