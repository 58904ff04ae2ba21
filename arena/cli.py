"""The arena's commands: ``bullring arena serve|author|status``, and the authors'
``bullring bot upload|status|retire`` (registered in bullring_cli/app.py; only the CLI
imports this module)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType, ModuleType
from typing import Annotated, Any

import typer

from arena.background import log_line
from arena.config import ArenaConfig, load_arena, parse_listen
from arena.db import ArenaDb
from referee.cli.errors import fail
from referee.limits import safe_name_problem
from referee.sandbox.probe import available
from referee.terminal_text import inert_line, inert_text
from sdk.errors import BullringError

app = typer.Typer(help="Serve an arena: uploads from authors with their own tokens.")
author_app = typer.Typer(help="The arena's authors and their tokens.", no_args_is_help=True)
app.add_typer(author_app, name="author")
TOKEN_ENV = "BULLRING_TOKEN"


@app.command()
def serve(
    file: Annotated[Path, typer.Argument(help="The arena file (a league file with [arena]).")],
    listen: Annotated[
        str | None, typer.Option("--listen", help="HOST:PORT (default: the file's).")
    ] = None,
) -> None:
    """Serve the arena's HTTP API and check uploads, until stopped."""
    try:
        ArenaServer = _arena_server()
    except ImportError as error:
        raise fail(
            f"bullring arena serve needs the arena extra: pip install 'bullring[arena]' ({error})"
        ) from None

    arena = load_arena(file)
    if not arena.league.sandbox.enabled:
        raise fail(f"{file}: [sandbox] enabled = false, but an arena checks uploads only in it")
    problem = available(arena.league.sandbox)
    if problem is not None:
        raise fail(problem)
    host, port = parse_listen(listen or arena.listen, "--listen")
    typer.echo(f"arena {arena.league.name} serving on http://{host}:{port}", err=True)
    server = ArenaServer(arena, host, port)
    server.run()
    raise typer.Exit(INTERRUPTED if server.stop_signal == signal.SIGINT else 0)


INTERRUPTED = 130


def _arena_server() -> type[Any]:
    import uvicorn

    from arena.server import make_app

    class Server(uvicorn.Server):
        """uvicorn's server, noting which signal stopped it (the ladder is stopped with
        the same, and the exit code says it) and not raising it again afterwards."""

        def __init__(self, arena: ArenaConfig, host: str, port: int) -> None:
            self.stop_signal = signal.SIGTERM
            self.signalled = False
            app = make_app(arena, lambda: self.stop_signal)
            super().__init__(
                uvicorn.Config(
                    app,
                    host=host,
                    port=port,
                    log_level="warning",
                    access_log=False,
                    timeout_graceful_shutdown=5,
                )
            )

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if not self.signalled:
                self.signalled = True
                self.stop_signal = signal.Signals(sig)
                how = "abandoning" if sig == signal.SIGINT else "finishing"
                name = signal.Signals(sig).name
                log_line(f"arena: stopping ({name}): {how} the matches in flight")
            super().handle_exit(sig, frame)

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            handled = (signal.SIGINT, signal.SIGTERM)
            before = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
            try:
                yield
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)

    return Server


@app.command("status")
def arena_status(
    file: Annotated[Path, typer.Argument(help="The arena file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Where the arena stands, from its files (the server need not run): the queue, the
    matches finished and a minute, the active bots with their matches and ratings."""
    from arena.status import arena_status as read_status
    from arena.status import status_table

    try:
        found = read_status(load_arena(file))
    except BullringError as error:
        fail(str(error).splitlines()[0] if str(error).strip() else type(error).__name__)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(found, indent=2))
        return
    for line in status_table(found):
        typer.echo(line)


@author_app.command("add")
def author_add(
    name: Annotated[str, typer.Argument(help="The author's name.")],
    file: Annotated[Path, typer.Argument(help="The arena file.")],
) -> None:
    """Add an author; print their new token (once: only its hash is kept) on the last line."""
    arena = load_arena(file)
    with ArenaDb(arena.db_path) as db:
        token = db.add_author(name)
    typer.echo(f"author {name} added; their token (shown once, keep it secret):")
    typer.echo(token)


@author_app.command("list")
def author_list(
    file: Annotated[Path, typer.Argument(help="The arena file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the authors (never their tokens)."""
    with ArenaDb(load_arena(file).db_path) as db:
        authors = db.authors()
    if as_json:
        typer.echo(json.dumps(authors, indent=2))
        return
    for author in authors:
        state = "revoked" if author["revoked_at"] else "live"
        typer.echo(f"{author['name']}\t{state}")


@author_app.command("revoke")
def author_revoke(
    name: Annotated[str, typer.Argument(help="The author's name.")],
    file: Annotated[Path, typer.Argument(help="The arena file.")],
) -> None:
    """Revoke an author's token: it is refused from now on."""
    with ArenaDb(load_arena(file).db_path) as db:
        db.revoke_author(name)
    typer.echo(f"author {name}: token revoked")


def _client() -> ModuleType:
    """The client module; it needs the arena extra (httpx), which a core install lacks."""
    try:
        from arena import client
    except ImportError as error:
        raise fail(
            f"the arena client needs the arena extra: pip install 'bullring[arena]' ({error})"
        ) from None
    return client


def read_token(token_file: Path | None) -> str:
    if token_file is not None:
        try:
            token = token_file.read_text(encoding="utf-8").strip()
        except OSError as error:
            raise fail(f"cannot read the token file {token_file}: {error.strerror}") from None
    else:
        token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise fail(f"no token: set {TOKEN_ENV} or give --token-file FILE")
    return token


ARENA_OPTION = typer.Option("--arena", help="The arena's URL (http://host:port).")
TOKEN_FILE_OPTION = typer.Option("--token-file", help=f"A file holding the token ({TOKEN_ENV}).")


def upload(
    folder: Annotated[Path, typer.Argument(help="The bot's folder (bot.toml on top).")],
    arena: Annotated[str, ARENA_OPTION],
    token_file: Annotated[Path | None, TOKEN_FILE_OPTION] = None,
) -> None:
    """Upload a bot to an arena and follow its check: exit 0 once it is active."""
    token = read_token(token_file)

    def say(line: str) -> None:
        if line:
            typer.echo(line, err=True)

    version = _client().upload(folder, arena, token, say)
    if version["state"] == "active":
        typer.echo(f"active: {folder} is in the arena's league")
        return
    output = version.get("output")  # the check's report (the bot's traceback), then one line
    if output and output != version.get("reason"):
        sys.stderr.write(inert_text(output.rstrip("\n")) + "\n")
    reason = inert_line(version.get("reason") or "the check failed")
    typer.echo(f"rejected: {reason}", err=True)
    raise typer.Exit(1)


def status(
    name: Annotated[str, typer.Argument(help="The bot's name.")],
    arena: Annotated[str, ARENA_OPTION],
    token_file: Annotated[Path | None, TOKEN_FILE_OPTION] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Where each version of a bot stands in an arena (its check's output: yours only)."""
    token = None
    if token_file is not None or os.environ.get(TOKEN_ENV):
        token = read_token(token_file)
    data = _client().status(arena, name, token)
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    for version in data["versions"]:
        line = f"{name}@{version['version']}\t{version['state']}"
        if version.get("reason"):
            line += f"\t{inert_line(version['reason'])}"
        for variant, rating in version.get("ratings", {}).items():
            line += f"\t{variant}: {rating['rating']:.2f} ({rating['matches']} matches)"
        typer.echo(line)


def retire(
    bot: Annotated[str, typer.Argument(help="The version to retire: NAME@VERSION.")],
    arena: Annotated[str, ARENA_OPTION],
    token_file: Annotated[Path | None, TOKEN_FILE_OPTION] = None,
) -> None:
    """Retire a version of your bot: it keeps its results and ratings, and the arena's
    league schedules it no more (a queued or checking one is never activated)."""
    name, at, version = bot.partition("@")
    problem = safe_name_problem(name) or safe_name_problem(version)
    if not at or problem:
        raise fail(f"{bot!r} is not NAME@VERSION ({problem or 'no @'})")
    token = read_token(token_file)
    done = _client().retire(arena, name, version, token)
    typer.echo(f"{inert_line(str(done.get('bot', bot)))}: {inert_line(str(done.get('state')))}")
