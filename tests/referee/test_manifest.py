"""Manifests and endpoint strings."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.bots.manifest import (
    ManifestError,
    endpoint_spec,
    expand_command,
    load_manifest,
    resolve_bot,
)


def write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "bot").mkdir(exist_ok=True)
    file = tmp_path / "bot" / "bot.toml"
    file.write_text(text)
    return file


def test_manifest_fields_and_workdir_relative_to_the_file(tmp_path: Path) -> None:
    file = write(
        tmp_path,
        'name = "b1"\nversion = 2\ncommand = ["{python}", "x.py"]\nworkdir = ".."\n'
        '[env]\nA = "1"\n',
    )
    spec = load_manifest(file.parent)
    assert (spec.name, spec.version, spec.command) == ("b1", "2", ("{python}", "x.py"))
    assert spec.workdir == str(tmp_path.resolve())
    assert dict(spec.env) == {"A": "1"}
    assert spec.manifest == str(file.resolve())
    assert spec.key == "b1@2"
    assert (
        expand_command(spec.command)[0].endswith("python")
        or "python" in expand_command(spec.command)[0]
    )


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('command = ["a"]', "'name'"),
        ('name = ""\ncommand = ["a"]', "'name'"),
        ('name = "b"', "'command'"),
        ('name = "b"\ncommand = "python bot.py"', "'command'"),
        ('name = "b"\ncommand = ["a", 3]', "'command'"),
        ('name = "b"\ncommand = ["a"]\nworkdir = "nowhere"', "'workdir'"),
        ('name = "b"\ncommand = ["a"]\nenv = { A = 1 }', "'env'"),
        ('name = "b"\ncommand = ["a"]\ncolor = "red"', "color"),
        ('name = "b c"\ncommand = ["a"]', "'name'"),
        ("name = ", "TOML"),
    ],
)
def test_bad_manifests_name_the_field(tmp_path: Path, text: str, field: str) -> None:
    file = write(tmp_path, text)
    with pytest.raises(ManifestError) as info:
        load_manifest(file)
    assert field in str(info.value)
    assert str(file) in str(info.value)


def test_missing_manifest(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="no such manifest"):
        resolve_bot(str(tmp_path / "nope.toml"))


def test_a_python_file_given_as_a_manifest_says_what_to_give(tmp_path: Path) -> None:
    """A newcomer's first try, ``--bot my_bot.py``, used to read "not valid TOML"."""
    script = tmp_path / "my_bot.py"
    script.write_text("from sdk import Bot, run\n")
    with pytest.raises(ManifestError) as info:
        resolve_bot(str(script))
    message = str(info.value)
    assert message.startswith(f"{script}: a Python file, not a bot's manifest")
    assert 'command = ["{python}", "my_bot.py"]' in message
    assert "TOML" not in message


def test_endpoints() -> None:
    assert resolve_bot("localhost:50051").endpoint == "localhost:50051"
    assert resolve_bot("unix:/tmp/bot.sock").endpoint == "unix:/tmp/bot.sock"
    assert resolve_bot("[::1]:7000").endpoint == "[::1]:7000"
    with pytest.raises(ManifestError, match="port"):
        endpoint_spec("localhost:70000")
    with pytest.raises(ManifestError, match="socket path"):
        endpoint_spec("unix:")
