"""The authors' client (httpx): pack and upload a bot folder, follow its check, read a
bot's status, retire a version. Every failure is one line (:class:`ArenaClientError`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from arena.config import Caps
from arena.uploads import UploadRefused, pack
from sdk.errors import BullringError

API = "/api/v1"
POLL_S = 0.25
FINAL = ("active", "rejected")


class ArenaClientError(BullringError, RuntimeError):
    """An upload or a status read that did not work (one line: why)."""


def _client(url: str, token: str | None, timeout: float = 60.0) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=url.rstrip("/"), headers=headers, timeout=timeout)


def _answer(response: httpx.Response) -> dict[str, Any]:
    try:
        data = response.json()
    except ValueError:
        data = None
    if response.status_code >= 400:
        message = data.get("error") if isinstance(data, dict) else None
        raise ArenaClientError(
            f"the arena refused ({response.status_code}): {message or response.reason_phrase}"
        )
    if not isinstance(data, dict):
        raise ArenaClientError(f"the arena answered something else than JSON ({response.url})")
    return data


def _request(url: str, call: Callable[[], httpx.Response]) -> httpx.Response:
    try:
        return call()
    except httpx.ConnectError as error:
        raise ArenaClientError(f"cannot reach the arena at {url} ({error})") from None
    except httpx.TimeoutException:
        raise ArenaClientError(f"the arena at {url} did not answer in time") from None
    except httpx.HTTPError as error:
        raise ArenaClientError(f"the arena at {url}: {error}") from None


def status(url: str, name: str, token: str | None) -> dict[str, Any]:
    """``GET /api/v1/bots/NAME``."""
    with _client(url, token) as client:
        return _answer(_request(url, lambda: client.get(f"{API}/bots/{name}")))


def retire(url: str, name: str, version: str, token: str) -> dict[str, Any]:
    """``POST /api/v1/bots/NAME/VERSION/retire``: the version as it stands then."""
    with _client(url, token) as client:
        return _answer(_request(url, lambda: client.post(f"{API}/bots/{name}/{version}/retire")))


def upload(
    folder: Path,
    url: str,
    token: str,
    say: Callable[[str], None],
    timeout_s: float = 3600.0,
) -> dict[str, Any]:
    """Pack `folder`, upload it, follow its check until it is active or rejected; the
    final version entry. ArenaClientError (one line) on any refusal."""
    with _client(url, token) as client:
        limits = _answer(_request(url, lambda: client.get(f"{API}/limits")))
    caps = Caps(
        packed_bytes=int(limits["packed_bytes"]),
        unpacked_bytes=int(limits["unpacked_bytes"]),
        files=int(limits["files"]),
        depth=int(limits["depth"]),
        ratio=int(limits["ratio"]),
    )
    try:
        packed = pack(folder, caps)
    except UploadRefused as refused:
        raise ArenaClientError(str(refused)) from None
    if packed.left_out:
        say(f"left out {len(packed.left_out)} symbolic link(s): uploads hold none")
    say(f"uploading {folder} ({packed.files} files, {len(packed.data) / 1024:.0f} KiB packed)")
    with _client(url, token) as client:
        reply = _answer(
            _request(
                url,
                lambda: client.post(
                    f"{API}/bots",
                    content=packed.data,
                    headers={"Content-Type": "application/gzip"},
                ),
            )
        )
        say(str(reply.get("next", "")))
        upload_id = reply.get("upload")
        name = str(reply.get("bot", "")).split("@")[0]
        deadline = time.monotonic() + timeout_s
        last = ""
        while time.monotonic() < deadline:
            data = _answer(_request(url, lambda: client.get(f"{API}/bots/{name}")))
            version = next((v for v in data["versions"] if v.get("upload") == upload_id), None)
            if version is None:
                raise ArenaClientError(f"the arena lost upload {upload_id} of {name}")
            if version["state"] != last:
                last = version["state"]
                say(f"{reply.get('bot')}: {last}")
            if last in FINAL:
                return dict(version)
            time.sleep(POLL_S)
    raise ArenaClientError(f"{reply.get('bot')} was not checked within {timeout_s:g} s")
