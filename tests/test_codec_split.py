"""The codec's three parts keep apart: the shared conversions (sdk/wire/codec.py) import
neither end's fast path, the referee's encoder (referee/match/encoder.py) never imports the
bot's decoder (sdk/wire/view_decoder.py), and the decoder never imports the encoder (or
anything of the referee)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED, ENCODER, DECODER = "sdk.wire.codec", "referee.match.encoder", "sdk.wire.view_decoder"


def imported_modules(module: str) -> set[str]:
    """Every module `module`'s source names in an import statement (at any depth, so
    imports inside functions count too)."""
    path = ROOT / (module.replace(".", "/") + ".py")
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def refers_to(imports: set[str], module: str) -> bool:
    return any(name == module or name.startswith(module + ".") for name in imports)


def test_the_ast_reader_sees_the_imports_it_should() -> None:
    assert refers_to(imported_modules(ENCODER), SHARED)
    assert refers_to(imported_modules(DECODER), SHARED)


@pytest.mark.parametrize(
    ("module", "forbidden"),
    [
        (SHARED, (ENCODER, DECODER, "referee")),
        (ENCODER, (DECODER,)),
        (DECODER, (ENCODER, "referee")),
    ],
)
def test_no_part_imports_the_other_sides_code(module: str, forbidden: tuple[str, ...]) -> None:
    imports = imported_modules(module)
    for other in forbidden:
        assert not refers_to(imports, other), f"{module} imports {other}"


@pytest.mark.parametrize(
    ("module", "absent"),
    [(DECODER, ENCODER), (ENCODER, DECODER), (SHARED, ENCODER), (SHARED, DECODER)],
)
def test_loading_one_side_does_not_load_the_other(module: str, absent: str) -> None:
    """Not even indirectly: a fresh interpreter that imports one part has not loaded
    the other."""
    probe = f"import sys, {module}; print({absent!r} in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"
