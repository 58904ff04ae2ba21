"""``bullring new-bot NAME [--lang python|typescript]``: a ready folder for a new bot.

Python: ``bot.py`` (a Bot subclass that plays the lowest option), ``bot.toml``,
``test_bot.py`` (a local game with ``play_local``, then ``bullring bot check``) and a README.
TypeScript: the example TypeScript bot (``example_bots/ts_bot``) under the new name, with
its own copy of the protocol's .proto files, so that the folder works wherever it is
(``npm ci`` installs and builds it). Either passes ``bullring bot check`` as generated.
"""

from __future__ import annotations

import re
import shutil
from importlib import resources
from pathlib import Path
from string import Template
from typing import Annotated

import typer

from sdk.errors import BullringError

NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
LANGUAGES = ("python", "typescript")
TEMPLATES = Path(str(resources.files("bullring_cli").joinpath("templates")))
TS_BOT = Path(str(resources.files("example_bots").joinpath("ts_bot")))
PROTO = Path(str(resources.files("sdk").joinpath("protocol"))).parent.parent / "proto"
TS_FILES = ("package.json", "package-lock.json", "tsconfig.json", "src/bot.ts", "src/strategy.ts")


class NewBotError(BullringError):
    """The bot cannot be made as asked (bad name, folder in the way)."""


def class_name(name: str) -> str:
    """``my_bot`` -> ``MyBot``."""
    return "".join(part.capitalize() for part in name.split("_") if part) or "MyBot"


def bot_proto() -> Path:
    """The protocol's bot.proto (the checkout's proto/ folder, or the installed copy)."""
    for candidate in (PROTO / "bullring" / "v1" / "bot.proto", TS_BOT / "proto" / "bot.proto"):
        if candidate.is_file():
            return candidate
    raise NewBotError("cannot find bot.proto (proto/bullring/v1/bot.proto) to copy")


def write_python(folder: Path, name: str) -> None:
    values = {"name": name, "class_name": class_name(name)}
    for template in sorted((TEMPLATES / "python").glob("*.tmpl")):
        text = Template(template.read_text(encoding="utf-8")).substitute(values)
        (folder / template.name.removesuffix(".tmpl")).write_text(text, encoding="utf-8")


def write_typescript(folder: Path, name: str) -> None:
    for file in TS_FILES:
        target = folder / file
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(TS_BOT / file, target)
    (folder / "proto").mkdir()
    shutil.copyfile(TS_BOT / "proto" / "health.proto", folder / "proto" / "health.proto")
    shutil.copyfile(bot_proto(), folder / "proto" / "bot.proto")
    source = folder / "src" / "bot.ts"
    text = source.read_text(encoding="utf-8")
    replaced = text.replace(
        'path.resolve(HERE, "..", "..", "proto", "bullring", "v1", "bot.proto")',
        'path.resolve(HERE, "proto", "bot.proto")',
    )
    replaced = re.sub(r'const NAME = "[^"]*";', f'const NAME = "{name}";', replaced)
    replaced = re.sub(r'const VERSION = "[^"]*";', 'const VERSION = "0.1.0";', replaced)
    if replaced.count(f'"{name}"') != 1 or '"0.1.0"' not in replaced:
        raise NewBotError(f"{TS_BOT / 'src' / 'bot.ts'} is not the expected template")
    source.write_text(replaced, encoding="utf-8")
    (folder / "bot.toml").write_text(
        f"# The manifest: how the referee starts {name}. Install first: `npm ci` here\n"
        "# (it compiles src/ to dist/).\n"
        f'name = "{name}"\nversion = "0.1.0"\nauthor = ""\n'
        'description = "A new Bullring bot in TypeScript"\n'
        'command = ["node", "dist/bot.js"]\n',
        encoding="utf-8",
    )
    (folder / "README.md").write_text(
        f"# {name}\n\nA Bullring bot in TypeScript, made by `bullring new-bot {name} --lang "
        "typescript`\n(from the example TypeScript bot; docs/protocol.md explains the "
        "protocol).\n\n```\nnpm ci                # installs and compiles src/ to dist/\n"
        "bullring bot check .  # as a league checks it\n```\n\nKeep `VERSION` in "
        "`src/bot.ts` equal to `version` in `bot.toml`.\n",
        encoding="utf-8",
    )


def new_bot(
    name: Annotated[str, typer.Argument(help="The bot's name (lower case, digits, _)")],
    lang: Annotated[str, typer.Option(help="python or typescript")] = "python",
    directory: Annotated[
        Path | None, typer.Option("--dir", help="Folder to create (default: ./NAME)")
    ] = None,
) -> None:
    """Make a folder with a new bot, its manifest, a test and a README."""
    if not NAME.fullmatch(name):
        raise NewBotError(
            f"bot name {name!r}: use a lower-case letter, then letters, digits or _ (at most 40)"
        )
    if lang not in LANGUAGES:
        raise NewBotError(f"--lang: {lang!r} is not one of: {', '.join(LANGUAGES)}")
    folder = directory or Path(name)
    if folder.exists():
        raise NewBotError(f"{folder} already exists: nothing written")
    folder.mkdir(parents=True)
    try:
        (write_python if lang == "python" else write_typescript)(folder, name)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    typer.echo(f"made {folder}/ ({lang}): edit the bot, then `bullring bot check {folder}`")
    if lang == "typescript":
        typer.echo(f"first install it: cd {folder} && npm ci")
