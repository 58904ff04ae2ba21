"""The arena's HTTP API (Starlette on uvicorn): a thin layer over the arena's files and
the league code. Every answer is JSON; every refusal is a 4xx or 5xx with one sentence in
``{"error": ...}``, and leaves nothing in the archive, the store or the upload folders.

``POST /api/v1/bots`` takes a packed bot (tar.gz or zip) with the author's bearer token;
``GET /api/v1/bots/NAME`` says where each version stands; ``POST
/api/v1/bots/NAME/VERSION/retire`` retires a version (its author's token);
``GET /api/v1/openapi.json`` (and the page ``/api/v1/docs``) describes the API. Each
upload, check and retirement is one line of the server's log (arena/events.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import html
import json
import os
import shutil
import signal
import threading
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route

from arena.background import LadderProcess, SitePublisher, log_line
from arena.checker import CheckQueue, retire_in_store
from arena.config import ArenaConfig
from arena.db import ArenaDb, ArenaDbError
from arena.events import log_event
from arena.games import Game, GameRefused, HumanGames
from arena.play_page import GAME_OVER, NO_GAME, NO_GAMES, PLAY_SCRIPT, play_page_html
from arena.uploads import UploadRefused, read_manifest, unpack
from leaderboard.render import STATIC_SOURCE
from referee.league.archive import changed_files, remove_tree, tree_entries, tree_hash
from referee.league.store import LeagueStore, StoreError, StoreLocked
from referee.limits import safe_name_problem

BODY_TIMEOUT_S = 300.0  # the longest an upload's body may take in all
API = "/api/v1"
BUSY = "busy: the check queue is full, retry later"
MAX_FAULTS = 50  # the last ones shown of a version
MAX_LOGS = 20  # the last log tails shown of a bot (each at most referee.bots.log.TAIL_BYTES)


def refuse(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


class Arena:
    """The server's state: its config, its file, its check queue."""

    def __init__(self, config: ArenaConfig) -> None:
        self.config = config
        self.db = ArenaDb(config.db_path)
        self.queue = CheckQueue(config)
        # One upload at a time is weighed against the queue and the uploads before it.
        self.accept_lock = threading.Lock()
        self.ladder: LadderProcess | None = None  # set by make_app
        self.publisher: SitePublisher | None = None
        self.games = HumanGames(config) if config.human_games > 0 else None

    async def author(self, request: Request) -> str | None:
        """The author whose token the request bears, or None. The store is read in a worker
        thread, as every read of it is: the event loop never waits on SQLite."""
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        return await run_in_threadpool(self.db.author_of_token, token.strip())

    # --- upload ----------------------------------------------------------------------

    async def upload(self, request: Request) -> Response:
        seen: dict[str, str] = {}
        response = await self._upload(request, seen)
        _log_answer("upload", response, seen)
        return response

    async def _upload(self, request: Request, seen: dict[str, str]) -> Response:
        author = await self.author(request)
        if author is None:
            return refuse(401, "a valid token is needed (Authorization: Bearer TOKEN)")
        seen["author"] = author
        caps = self.config.caps
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > caps.packed_bytes:
            return refuse(413, f"the upload is over the cap of {caps.packed_bytes} bytes packed")
        if await run_in_threadpool(self.db.waiting) >= self.config.queue:
            return refuse(503, BUSY, {"Retry-After": "30"})
        incoming = self.config.uploads / f".incoming-{os.getpid()}-{uuid.uuid4().hex}"
        try:
            packed = await self._receive(request, incoming)
            if isinstance(packed, Response):
                return packed
            return await run_in_threadpool(self._accept, author, packed, incoming, seen)
        except UploadRefused as refused:
            return refuse(refused.status, str(refused))
        except OSError as error:
            if error.errno in (errno.ENOSPC, errno.EDQUOT):
                return refuse(507, "the arena's disk is full; retry later")
            raise
        finally:
            await run_in_threadpool(remove_tree, incoming)

    async def _receive(self, request: Request, incoming: Path) -> Path | Response:
        """The body, into ``incoming/packed`` under the packed cap and the time limits."""
        caps = self.config.caps
        incoming.mkdir(parents=True, mode=0o700)
        packed = incoming / "packed"
        size = 0
        stream = request.stream().__aiter__()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BODY_TIMEOUT_S
        with packed.open("wb") as out:
            while True:
                wait = min(self.config.upload_timeout_s, deadline - loop.time())
                try:
                    chunk = await asyncio.wait_for(stream.__anext__(), max(wait, 0.01))
                except StopAsyncIteration:
                    break
                except TimeoutError:
                    return refuse(408, "the upload was too slow; send it again")
                except ClientDisconnect:
                    return refuse(400, "the upload stopped half-way; send it again")
                size += len(chunk)
                if size > caps.packed_bytes:
                    return refuse(
                        413, f"the upload is over the cap of {caps.packed_bytes} bytes packed"
                    )
                out.write(chunk)
        if size == 0:
            return refuse(400, "the upload is empty: send a tar.gz or zip of the bot's folder")
        return packed

    def _accept(self, author: str, packed: Path, incoming: Path, seen: dict[str, str]) -> Response:
        """Unpack, read the manifest, refuse or queue (in a worker thread); `seen` gets
        the bot's key once it is known (for the log)."""
        tree = incoming / "tree"
        unpack(packed, tree, self.config.caps)
        spec = read_manifest(tree)
        seen["bot"] = spec.key
        owner = self.db.owner(spec.name)
        if owner is not None and owner != author:
            return refuse(403, f"bot {spec.name} belongs to another author")
        # The folder takes the bot's name: that name is part of the tree's hash.
        final = self.config.uploads / uuid.uuid4().hex
        folder = final / spec.name
        final.mkdir(parents=True)
        try:
            tree.rename(folder)
            entries = tree_entries(folder)
            digest = tree_hash(entries)
            _read_only(final)
            with self.accept_lock:
                if self.db.waiting() >= self.config.queue:
                    remove_tree(final)
                    return refuse(503, BUSY, {"Retry-After": "30"})
                conflict = self._conflict(spec.name, spec.version, digest, entries)
                if conflict is not None:
                    remove_tree(final)
                    return conflict
                upload_id = self.db.add_upload(author, spec.name, spec.version, digest, str(folder))
        except ArenaDbError as error:
            remove_tree(final)
            return refuse(403, str(error))
        except BaseException:
            remove_tree(final)
            raise
        self.queue.wake.set()
        url = f"{self.config.public_url}{API}/bots/{spec.name}"
        return JSONResponse(
            {
                "upload": upload_id,
                "bot": spec.key,
                "state": "queued",
                "tree_hash": digest,
                "status_url": url,
                "next": f"{spec.key} is queued for the check; follow it at {url}",
            },
            status_code=202,
        )

    def _conflict(self, name: str, version: str, digest: str, entries: Any) -> Response | None:
        """A refusal if `name@version` stands for other contents already (here or in the
        league's store), or an answer if this very tree is queued or registered."""
        for earlier in self.db.uploads(bot=name):
            if earlier.version != version or earlier.state == "rejected":
                continue
            if earlier.tree_hash == digest:
                return JSONResponse(
                    {
                        "upload": earlier.id,
                        "bot": earlier.key,
                        "state": earlier.state,
                        "next": f"{earlier.key} was uploaded already: it is {earlier.state}",
                    },
                    status_code=200,
                )
            try:
                old = tree_entries(next(Path(earlier.folder).parent.iterdir()))
                what = changed_files(old, entries)
            except (OSError, StopIteration):
                what = "other files"
            return refuse(
                409,
                f"bot {name}@{version} was uploaded with other contents ({what}); "
                "give the changed bot a new version",
            )
        return None

    # --- status ----------------------------------------------------------------------

    async def status(self, request: Request) -> Response:
        name = request.path_params["name"]
        if safe_name_problem(name):
            return refuse(404, f"no bot {name!r} here")
        author = await self.author(request)
        return await run_in_threadpool(self._status, name, author)

    def _status(self, name: str, author: str | None) -> Response:
        owner = self.db.owner(name)
        mine = owner is not None and owner == author
        versions = []
        ratings, faults, played = self._league_rows(name)
        detail = mine or self.config.public_logs
        logs = self._logs(name) if detail else {}
        for upload in self.db.uploads(bot=name):
            public = upload.state in ("active", "retired")
            if not (mine or public):
                continue
            item: dict[str, Any] = {
                "upload": upload.id,
                "version": upload.version,
                "state": upload.state,
                "tree_hash": upload.tree_hash,
                "uploaded_at": upload.created_at,
                "updated_at": upload.updated_at,
            }
            if upload.check_s is not None:
                item["check_s"] = round(upload.check_s, 3)
            if upload.state == "rejected":
                item["reason"] = upload.reason
            if mine or self.config.public_logs:
                item["output"] = upload.output
            item.update(ratings.get(upload.key, {}))
            item["matches"] = played.get(upload.key, 0)
            if upload.retired_at is not None:
                item["retired_at"] = upload.retired_at
            if upload.state == "retired" and upload.reason:
                item["reason"] = upload.reason
            if detail and upload.key in faults:  # what its faults said: its author only
                item["faults"] = faults[upload.key][-MAX_FAULTS:]
            if detail and upload.key in logs:  # what it printed in its matches: likewise
                item["logs"] = logs[upload.key]
            versions.append(item)
        if not versions:
            return refuse(404, f"no bot {name} here")
        return JSONResponse({"bot": name, "yours": mine, "versions": versions})

    def _league_rows(
        self, name: str
    ) -> tuple[dict[str, dict[str, Any]], dict[str, list[dict[str, Any]]], dict[str, int]]:
        """Each version's rating, matches and faults count in each variant, its faults
        (match, kind, decision, detail), and its finished matches over all variants, from
        the league's store."""
        found: dict[str, dict[str, Any]] = {}
        faults: dict[str, list[dict[str, Any]]] = {}
        played: dict[str, int] = {}
        if not self.config.store.is_file():
            return found, faults, played
        try:
            with LeagueStore.open_readonly(self.config.store) as store:
                played = store.matches_played(name)
                for fault in store.faults():
                    if str(fault["bot"]).split("@")[0] == name:
                        faults.setdefault(str(fault["bot"]), []).append(
                            {
                                k: fault[k]
                                for k in ("match_id", "seat", "kind", "decision", "detail")
                            }
                        )
                for variant in store.variants():
                    for row in store.standings(variant["id"]):
                        if row.name == name:
                            entry = found.setdefault(row.bot, {"ratings": {}})
                            entry["ratings"][variant["id"]] = {
                                "rating": round(row.rating, 3),
                                "matches": row.matches,
                                "faults": row.faults,
                            }
        except StoreError:
            return found, faults, played
        return found, faults, played

    def _logs(self, name: str) -> dict[str, list[dict[str, Any]]]:
        """The last log tails the league kept of each version of bot `name` (match, seat,
        what it printed made printable, and how much it printed), by version."""
        found: dict[str, list[dict[str, Any]]] = {}
        if not self.config.store.is_file():
            return found
        try:
            with LeagueStore.open_readonly(self.config.store) as store:
                for log in store.logs_of(name, MAX_LOGS):
                    found.setdefault(log.bot, []).append(log.to_json())
        except StoreError:
            return {}
        return found

    # --- retire ------------------------------------------------------------------------

    async def retire(self, request: Request) -> Response:
        name, version = request.path_params["name"], request.path_params["version"]
        seen = {"bot": f"{name}@{version}"}
        response = await self._retire(request, name, version, seen)
        _log_answer("retire", response, seen)
        return response

    async def _retire(
        self, request: Request, name: str, version: str, seen: dict[str, str]
    ) -> Response:
        author = await self.author(request)
        if author is None:
            return refuse(401, "a valid token is needed (Authorization: Bearer TOKEN)")
        seen["author"] = author
        if safe_name_problem(name) or safe_name_problem(version):
            return refuse(404, f"no bot {name!r} version {version!r} here")
        return await run_in_threadpool(self._retire_version, author, name, version)

    def _retire_version(self, author: str, name: str, version: str) -> Response:
        """Retire `name@version` for its author (in a worker thread): in the league store
        first (once registered there), then in the arena's file."""
        owner = self.db.owner(name)
        if owner is None:
            return refuse(404, f"no bot {name} here")
        if owner != author:
            return refuse(403, f"bot {name} belongs to another author")
        uploads = [u for u in self.db.uploads(bot=name) if u.version == version]
        live = [u for u in uploads if u.state != "rejected"]
        if not uploads:
            return refuse(404, f"no version {version} of bot {name} here")
        if not live:
            return refuse(409, f"bot {name}@{version} was rejected: it never joined the league")
        upload = live[-1]
        # A retry after a refusal here does it all again: each step is idempotent.
        try:
            retire_in_store(self.config, upload.key)
            with self.accept_lock:  # the server's connection: one transaction at a time
                done = self.db.retire(upload.id)
            if upload.state in ("queued", "checking"):
                # Its check may have registered it meanwhile: retired there too.
                retire_in_store(self.config, upload.key)
        except StoreLocked:
            return refuse(503, "busy: the league's store is locked, retry later",
                          {"Retry-After": "10"})  # fmt: skip
        except StoreError as error:
            return refuse(500, f"the league's store cannot be written: {error}")
        item: dict[str, Any] = {
            "upload": done.id,
            "bot": done.key,
            "state": done.state,
            "reason": done.reason,
            "retired_at": done.retired_at,
        }
        return JSONResponse(item)

    # --- schema ------------------------------------------------------------------------

    async def openapi(self, request: Request) -> Response:
        return JSONResponse(openapi_schema(self.config.public_url))

    async def docs(self, request: Request) -> Response:
        schema = json.dumps(openapi_schema(self.config.public_url), indent=2)
        return HTMLResponse(
            "<!doctype html><title>Bullring arena API</title><h1>Bullring arena API</h1>"
            f"<p>OpenAPI 3.1: <a href='{API}/openapi.json'>{API}/openapi.json</a></p>"
            f"<pre>{html.escape(schema)}</pre>"
        )

    async def limits(self, request: Request) -> Response:
        caps = self.config.caps
        return JSONResponse(
            {
                "packed_bytes": caps.packed_bytes,
                "unpacked_bytes": caps.unpacked_bytes,
                "files": caps.files,
                "depth": caps.depth,
                "ratio": caps.ratio,
                "check_timeout_s": self.config.check_timeout_s,
            }
        )

    async def health(self, request: Request) -> Response:
        body: dict[str, Any] = {"ok": True, "waiting": await run_in_threadpool(self.db.waiting)}
        if self.ladder is not None:
            body["ladder"] = self.ladder.state
        if self.publisher is not None:
            body["site_builds"] = self.publisher.builds
            body["site_matches"] = max(self.publisher.published, 0)
        return JSONResponse(body)

    # --- visitors' games (arena/games.py) ---------------------------------------------

    async def play_page(self, request: Request) -> Response:
        """The page where a visitor picks a variant and starts a game."""
        if self.games is None:
            return HTMLResponse(NO_GAMES, status_code=404)
        active = await run_in_threadpool(self._active_names)
        return HTMLResponse(play_page_html(self.config, active))

    def _active_names(self) -> list[str]:
        if not self.config.store.is_file():
            return []
        try:
            with LeagueStore.open_readonly(self.config.store) as store:
                return [spec.name for spec in store.active_bots()]
        except StoreError:
            return []

    async def play_script(self, request: Request) -> Response:
        return Response(PLAY_SCRIPT, media_type="text/javascript; charset=utf-8")

    async def new_game(self, request: Request) -> Response:
        if self.games is None:
            return refuse(404, "this arena has no games for visitors (human_games = 0)")
        try:
            body = await request.json() if await request.body() else {}
        except ValueError:
            return refuse(400, 'send JSON: {"variant": ID, "bots": [NAME, ...]}')
        variant, bots = body.get("variant"), body.get("bots", [])
        if not (variant is None or isinstance(variant, str)) or not (
            isinstance(bots, list) and all(isinstance(b, str) for b in bots)
        ):
            return refuse(400, "variant is a variant id and bots a list of bot names")
        try:
            game = await run_in_threadpool(self.games.start, variant, bots)
        except GameRefused as refused:
            return refuse(refused.status, str(refused))
        log_line(f"game {game.id[:8]} started: {game.variant}, seats {', '.join(game.seats)}")
        return JSONResponse(game.to_json(), status_code=201)

    async def game_file(self, request: Request) -> Response:
        """The visitor's page of a game and its calls, passed through to the game's own
        loopback page (human_seat/web.py), which checks every choice."""
        game = None if self.games is None else self.games.get(request.path_params["game"])
        if game is None or not game.desk:
            return HTMLResponse(NO_GAME, status_code=404)
        path = request.path_params.get("path", "")
        if "path" not in request.path_params:  # /play/GAME: its page's links are relative
            return RedirectResponse(f"/play/{game.id}/", status_code=308)
        if request.method == "GET" and path in game.cache:
            cached: Response = game.cache[path]
            return cached
        if not game.running:
            return HTMLResponse(GAME_OVER.format(id=game.id), status_code=410)
        headers = {"Content-Type": request.headers.get("content-type", "")}
        body = await request.body() if request.method == "POST" else None
        try:
            async with httpx.AsyncClient(timeout=30) as client:
                answer = await self._pass(client, game, request.method, path, body, headers)
                if path == "replay.html" and answer.status_code == 200:
                    # The page's last screen: once the game has served the files it loads,
                    # it stops. They are fetched (and kept) now, for the browser to find.
                    for asset in REPLAY_ASSETS:
                        with contextlib.suppress(httpx.HTTPError):
                            await self._pass(client, game, "GET", asset, None, headers)
                return answer
        except httpx.HTTPError:
            return HTMLResponse(GAME_OVER.format(id=game.id), status_code=410)

    async def _pass(
        self,
        client: httpx.AsyncClient,
        game: Game,
        method: str,
        path: str,
        body: bytes | None,
        headers: dict[str, str],
    ) -> Response:
        """One request passed to the game's page; its files (not its state) are kept, so
        the replay page and its scripts still load once the game has stopped."""
        answer = await client.request(method, game.desk + path, content=body, headers=headers)
        passed = {k: v for k, v in answer.headers.items() if k.lower() in PASSED_HEADERS}
        response = Response(answer.content, status_code=answer.status_code, headers=passed)
        if method == "GET" and answer.status_code == 200 and path in KEPT_FILES:
            game.cache[path] = response
        return response

    # --- the site --------------------------------------------------------------------

    async def static_file(self, request: Request) -> Response:
        """The site's scripts and styles, from the package (the play page uses them
        before any build of the site exists)."""
        name = request.path_params["name"]
        found = STATIC_SOURCE / name
        if "/" in name or not name.endswith((".js", ".css")) or not found.is_file():
            return HTMLResponse("<!doctype html><title>Not found</title><p>Not found.", 404)
        return FileResponse(found, media_type=media_type(found))

    async def site_file(self, request: Request) -> Response:
        """A file of the live build of the site (``SITE/current``, swapped atomically by
        each build: a request reads one build whole)."""
        found = site_path(self.config.site, request.path_params["path"])
        if found is None:
            if not (self.config.site / "current").exists():
                return HTMLResponse(NO_SITE_YET, status_code=503, headers={"Retry-After": "10"})
            return HTMLResponse("<!doctype html><title>Not found</title><p>Not found.", 404)
        return FileResponse(found, media_type=media_type(found))


REPLAY_ASSETS = (  # the replay file first: the game stops once it served the others
    "replay", "page.css", "static/bullring.css", "static/bullring_tables.js",
    "static/bullring_cards.js", "static/bullring_graph.js", "static/bullring.js",
)  # fmt: skip
KEPT_FILES = {*REPLAY_ASSETS, "replay.html", "page.js"}
PASSED_HEADERS = {
    "content-type", "cache-control", "content-security-policy", "x-content-type-options",
}  # fmt: skip


NO_SITE_YET = (
    "<!doctype html><title>Bullring arena</title><h1>Bullring arena</h1>"
    "<p>The leaderboard is being built; it appears here in a moment.</p>"
    f"<p>The API: <a href='{API}/docs'>{API}/docs</a></p>"
)
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".gz": "application/gzip",
}


def media_type(path: Path) -> str:
    return MEDIA_TYPES.get(path.suffix, "application/octet-stream")


def site_path(site: Path, wanted: str) -> Path | None:
    """The file of the live build that `wanted` (a URL path) names, or None: nothing
    outside the build (``..``, absolute paths, links out of it) is ever served; a folder
    serves its index.html."""
    try:
        root = (site / "current").resolve(strict=True)
    except OSError:
        return None
    parts = [part for part in wanted.split("/") if part]
    if any(part in (".", "..") or "\\" in part or "\x00" in part for part in parts):
        return None
    try:
        found = root.joinpath(*parts).resolve(strict=True)
    except (OSError, ValueError):
        return None
    if found.is_dir():
        found = found / "index.html"
    if not found.is_file():
        return None
    if not (found.is_relative_to(root) or found.is_relative_to(site.resolve())):
        return None
    return found


def _log_answer(event: str, response: Response, seen: dict[str, str]) -> None:
    """One log line for an upload's or a retirement's answer: who, which bot, the upload
    id and its state, or the HTTP status and the refusal's first line."""
    try:
        data = json.loads(bytes(response.body))
    except ValueError:
        data = {}
    data = data if isinstance(data, dict) else {}
    outcome = "refused" if response.status_code >= 400 else "accepted"
    error = data.get("error")
    log_event(
        f"{event} {outcome}",
        author=seen.get("author"),
        bot=data.get("bot") or seen.get("bot"),
        upload=data.get("upload"),
        state=data.get("state"),
        status=response.status_code,
        error=None if error is None else str(error).splitlines()[0],
    )


def _read_only(root: Path) -> None:
    for folder, dirs, files in os.walk(root, topdown=False):
        for name in files:
            path = os.path.join(folder, name)
            os.chmod(path, 0o555 if os.stat(path).st_mode & 0o100 else 0o444)
        for name in dirs:
            os.chmod(os.path.join(folder, name), 0o555)
    os.chmod(root, 0o555)


def sweep_uploads(arena: ArenaConfig, db: ArenaDb) -> None:
    """At start: drop what a killed server left half-made (incoming bodies, folders no
    upload row names), and queue again what it was checking."""
    root = arena.uploads
    root.mkdir(parents=True, exist_ok=True)
    named = {Path(u.folder).parent.name for u in db.uploads()}
    for entry in os.scandir(root):
        if entry.name.startswith(".incoming-") or entry.name not in named:
            remove_tree(Path(entry.path))
    db.requeue_unfinished()
    shutil.rmtree(root / ".tmp", ignore_errors=True)


def make_app(
    config: ArenaConfig, stop_signal: Callable[[], int] = lambda: signal.SIGTERM
) -> Starlette:
    """The arena's app: the API, the site, and (from its lifespan) the check queue, the
    ladder and the site's rebuilds. `stop_signal` says, at shutdown, which signal stopped
    the server: the ladder is stopped with it (SIGTERM: the matches in flight finish;
    SIGINT: they are abandoned, and stay scheduled)."""
    arena = Arena(config)
    ladder = LadderProcess(config) if config.ladder else None
    publisher = SitePublisher(config)
    arena.ladder, arena.publisher = ladder, publisher

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        sweep_uploads(config, arena.db)
        arena.queue.start()
        if ladder is not None:
            ladder.start()
        publisher.start()
        try:
            yield
        finally:
            if ladder is not None:
                await run_in_threadpool(ladder.stop, stop_signal())
            publisher.stop()
            if arena.games is not None:
                arena.games.close()
            arena.queue.close()
            arena.db.close()

    return Starlette(
        routes=[
            Route(f"{API}/bots", arena.upload, methods=["POST"]),
            Route(f"{API}/bots/{{name}}", arena.status, methods=["GET"]),
            Route(f"{API}/bots/{{name}}/{{version}}/retire", arena.retire, methods=["POST"]),
            Route(f"{API}/openapi.json", arena.openapi, methods=["GET"]),
            Route(f"{API}/docs", arena.docs, methods=["GET"]),
            Route(f"{API}/health", arena.health, methods=["GET"]),
            Route(f"{API}/limits", arena.limits, methods=["GET"]),
            Route(f"{API}/games", arena.new_game, methods=["POST"]),
            Route("/play", arena.play_page, methods=["GET"]),
            Route("/play.js", arena.play_script, methods=["GET"]),
            Route("/play/{game}", arena.game_file, methods=["GET"]),
            Route("/play/{game}/{path:path}", arena.game_file, methods=["GET", "POST"]),
            Route("/static/{name}", arena.static_file, methods=["GET", "HEAD"]),
            Route("/{path:path}", arena.site_file, methods=["GET", "HEAD"]),
        ],
        lifespan=lifespan,
    )


def openapi_schema(url: str) -> dict[str, Any]:
    """The API's OpenAPI 3.1 description."""
    error = {
        "content": {
            "application/json": {
                "schema": {"type": "object", "properties": {"error": {"type": "string"}}}
            }
        }
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Bullring arena", "version": "1"},
        "servers": [{"url": url}],
        "components": {
            "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
        },
        "paths": {
            f"{API}/bots": {
                "post": {
                    "summary": "Upload a bot (its folder as tar.gz or zip, bot.toml on top)",
                    "security": [{"token": []}],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/gzip": {"schema": {"type": "string", "format": "binary"}},
                            "application/zip": {"schema": {"type": "string", "format": "binary"}},
                        },
                    },
                    "responses": {
                        "202": {"description": "queued: upload, bot, state, status_url, next"},
                        "200": {"description": "this very tree was uploaded already"},
                        "400": {"description": "a bad pack or manifest", **error},
                        "401": {"description": "no valid token", **error},
                        "403": {"description": "the name belongs to another author", **error},
                        "408": {"description": "the upload was too slow", **error},
                        "409": {"description": "the same version with other contents", **error},
                        "413": {"description": "over a cap", **error},
                        "415": {"description": "not a tar.gz or zip", **error},
                        "503": {"description": "busy: retry later (Retry-After)", **error},
                        "507": {"description": "the server's disk is full", **error},
                    },
                }
            },
            f"{API}/limits": {
                "get": {
                    "summary": "The caps on an upload and the check's time limit",
                    "responses": {"200": {"description": "packed_bytes, unpacked_bytes, "
                                          "files, depth, ratio, check_timeout_s"}},
                }
            },
            f"{API}/bots/{{name}}/{{version}}/retire": {
                "post": {
                    "summary": "Retire a version of your bot: it keeps its results and "
                               "ratings and is no longer scheduled (a queued or checking "
                               "one is never activated); idempotent",
                    "parameters": [
                        {"name": "name", "in": "path", "required": True,
                         "schema": {"type": "string"}},
                        {"name": "version", "in": "path", "required": True,
                         "schema": {"type": "string"}},
                    ],
                    "security": [{"token": []}],
                    "responses": {
                        "200": {"description": "upload, bot, state (retired), reason, "
                                               "retired_at"},
                        "401": {"description": "no valid token", **error},
                        "403": {"description": "the bot belongs to another author", **error},
                        "404": {"description": "no such bot or version", **error},
                        "409": {"description": "that version was rejected", **error},
                        "503": {"description": "busy: retry later (Retry-After)", **error},
                    },
                }
            },
            f"{API}/bots/{{name}}": {
                "get": {
                    "summary": "Each version's state, ratings; the check's output (author)",
                    "parameters": [
                        {"name": "name", "in": "path", "required": True,
                         "schema": {"type": "string"}},
                    ],
                    "security": [{}, {"token": []}],
                    "responses": {
                        "200": {"description": "bot, yours, versions: state, reason, "
                                               "ratings, matches"},
                        "404": {"description": "no such bot that you may see", **error},
                    },
                }
            },
        },
    }  # fmt: skip
