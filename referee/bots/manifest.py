"""Bot manifests (``bot.toml``) and endpoint strings, turned into :class:`BotSpec`.

A manifest::

    name = "random_bot"            # required
    version = "1.0"                # optional, default "0"
    command = ["{python}", "bot.py"]  # required: argv, "{python}" = the referee's python
    workdir = "."                  # optional, relative to the manifest's folder
    [env]                          # optional extra environment variables
    MY_SETTING = "1"

``--bot`` arguments accept a manifest file, a folder holding ``bot.toml``, or an
endpoint of an already running bot: ``host:port`` or ``unix:PATH``.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from referee.limits import safe_name_problem
from referee.spec import BotSpec
from sdk.errors import BullringError

PYTHON_PLACEHOLDER = "{python}"
MANIFEST_NAME = "bot.toml"
_HOST_PORT = re.compile(r"^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.\-]+):(\d{1,5})$")
_KNOWN_FIELDS = {"name", "version", "command", "workdir", "env", "author", "description"}


class ManifestError(BullringError, ValueError):
    """A manifest or endpoint that cannot be used; the message names the file and field."""


def is_endpoint(text: str) -> bool:
    """Whether `text` names a running bot (``host:port`` or ``unix:PATH``)."""
    return text.startswith("unix:") or bool(_HOST_PORT.match(text))


def endpoint_spec(endpoint: str, name: str | None = None) -> BotSpec:
    """A BotSpec for an already running bot; its name defaults to the endpoint."""
    if endpoint.startswith("unix:"):
        if not endpoint[len("unix:") :]:
            raise ManifestError(f"endpoint {endpoint!r}: missing socket path after 'unix:'")
    elif not _HOST_PORT.match(endpoint):
        raise ManifestError(f"endpoint {endpoint!r} must look like host:port or unix:PATH")
    elif not 0 < int(endpoint.rsplit(":", 1)[1]) < 65536:
        raise ManifestError(f"endpoint {endpoint!r}: port out of range")
    return BotSpec(name=name or endpoint, version="endpoint", endpoint=endpoint)


def load_manifest(path: str | Path) -> BotSpec:
    """Read a ``bot.toml`` (or a folder holding one) into a BotSpec with absolute workdir."""
    file = Path(path)
    if file.is_dir():
        file = file / MANIFEST_NAME
    if not file.is_file():
        raise ManifestError(f"{file}: no such manifest file")
    if file.suffix == ".py":
        raise ManifestError(
            f"{file}: a Python file, not a bot's manifest: give its bot.toml, or the folder "
            f'that holds it (a bot.toml beside it names the bot and how to run it: name = "..." '
            f'and command = ["{{python}}", "{file.name}"]; see `bullring new-bot`)'
        )
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{file}: not valid TOML: {exc}") from None
    return manifest_from_dict(data, file)


def manifest_from_dict(data: Mapping[str, Any], file: Path) -> BotSpec:
    """Validate parsed manifest data; `file` locates it (workdir is relative to it)."""
    unknown = sorted(set(data) - _KNOWN_FIELDS)
    if unknown:
        raise ManifestError(f"{file}: unknown field(s) {', '.join(unknown)}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ManifestError(f"{file}: field 'name' is required and must be a non-empty string")
    problem = safe_name_problem(name)
    if problem:
        raise ManifestError(f"{file}: field 'name': {problem}")
    version = data.get("version", "0")
    if not isinstance(version, str | int | float) or isinstance(version, bool):
        raise ManifestError(f"{file}: field 'version' must be a string")
    problem = safe_name_problem(str(version))
    if problem:
        raise ManifestError(f"{file}: field 'version': {problem}")
    command = data.get("command")
    if not _is_str_list(command) or not command:
        raise ManifestError(
            f"{file}: field 'command' is required and must be a non-empty list of strings, "
            f'e.g. command = ["{{python}}", "bot.py"]'
        )
    workdir_text = data.get("workdir", ".")
    if not isinstance(workdir_text, str):
        raise ManifestError(f"{file}: field 'workdir' must be a string")
    workdir = (file.parent / workdir_text).resolve()
    if not workdir.is_dir():
        raise ManifestError(f"{file}: field 'workdir': folder {workdir} does not exist")
    env = data.get("env", {})
    if not isinstance(env, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in env.items()
    ):
        raise ManifestError(f"{file}: field 'env' must be a table of string values")
    return BotSpec(
        name=name,
        version=str(version),
        command=tuple(command),
        workdir=str(workdir),
        env=dict(env),
        manifest=str(file.resolve()),
    )


def _is_str_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def resolve_bot(text: str) -> BotSpec:
    """A ``--bot`` argument: an endpoint, a manifest file or a folder with ``bot.toml``."""
    if is_endpoint(text) and not Path(text).exists():
        return endpoint_spec(text)
    return load_manifest(text)


def expand_command(command: Sequence[str]) -> list[str]:
    """The argv to run: ``{python}`` becomes the referee's own interpreter."""
    return [part.replace(PYTHON_PLACEHOLDER, sys.executable) for part in command]
