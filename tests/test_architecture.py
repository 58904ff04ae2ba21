"""The import contract (docs/architecture.md, "Layers"): imports run one way.

Every import of every module is read with ``ast``, the ones inside functions too; only
imports under ``if TYPE_CHECKING:`` are left out (they never run). Three rules follow:

- between packages, a package imports only the packages listed for it (:data:`ALLOWED`);
- between modules, there is no circle anywhere;
- inside a package, a module imports only modules of its own layer or of a layer below
  (:data:`LAYERS`, top layer first); every module of a layered package is in a layer.

There is no allow-list: a new circle or an import up the layers fails the test.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# Each package and the packages of this project it may import.
ALLOWED: dict[str, frozenset[str]] = {
    "sdk": frozenset(),
    "example_bots": frozenset({"sdk"}),
    "referee": frozenset({"sdk"}),
    "leaderboard": frozenset({"referee", "sdk"}),
    "arena": frozenset({"referee", "leaderboard", "sdk"}),
    "bullring_cli": frozenset({"arena", "referee", "leaderboard", "sdk"}),
    "human_seat": frozenset({"sdk"}),  # a bot process, started by `bullring play`
}
# The layers inside each package, top first: a module may import its own layer and the
# ones below it. A layer is a list of module names; a name stands for itself and, when it
# is a package, every module inside it.
LAYERS: dict[str, list[list[str]]] = {
    "sdk": [
        ["sdk.runtime", "sdk.envs", "sdk.testing", "sdk.view_docs"],
        ["sdk.local", "sdk.search"],
        ["sdk.bot", "sdk.montecarlo", "sdk.wire"],
        ["sdk.match", "sdk.seeding", "sdk.stop_signals", "sdk.protocol"],
        ["sdk.game"],
        ["sdk.errors", "sdk.stats", "sdk.lifeline"],
    ],
    "sdk.wire": [
        ["sdk.wire.view_decoder"],
        ["sdk.wire.codec"],
        ["sdk.wire.claims", "sdk.wire.error_status", "sdk.wire.service"],
    ],
    "sdk.envs": [
        ["sdk.envs.gymnasium"],
        ["sdk.envs.pettingzoo", "sdk.envs.openspiel"],
        ["sdk.envs.encoding"],
        ["sdk.envs.family_codecs", "sdk.envs.stepper"],
        ["sdk.envs.codec_base"],
    ],
    "sdk.testing": [["sdk.testing.runs"], ["sdk.testing.checks"]],
    "sdk.game": [
        ["sdk.game.variants"],
        ["sdk.game.sixnimmt", "sdk.game.xnimmt", "sdk.game.elevennimmt", "sdk.game.hornochsen"],
        ["sdk.game.driver", "sdk.game.engine", "sdk.game.family"],
        ["sdk.game.views", "sdk.game.history", "sdk.game.cards"],
        ["sdk.game.core"],
    ],
    "sdk.game.sixnimmt": [
        ["sdk.game.sixnimmt.batch"],
        ["sdk.game.sixnimmt.constructors"],
        ["sdk.game.sixnimmt.rules"],
        ["sdk.game.sixnimmt.position", "sdk.game.sixnimmt.view"],
        ["sdk.game.sixnimmt.setup"],
    ],
    "sdk.game.xnimmt": [
        ["sdk.game.xnimmt.constructors"],
        ["sdk.game.xnimmt.rules"],
        ["sdk.game.xnimmt.view"],
        ["sdk.game.xnimmt.setup"],
    ],
    "sdk.game.elevennimmt": [
        ["sdk.game.elevennimmt.constructors"],
        ["sdk.game.elevennimmt.rules"],
        ["sdk.game.elevennimmt.turnoptions", "sdk.game.elevennimmt.view"],
        ["sdk.game.elevennimmt.table", "sdk.game.elevennimmt.setup"],
    ],
    "sdk.game.engine": [
        ["sdk.game.engine.support", "sdk.game.engine.eventlog"],
        ["sdk.game.engine.dealing"],
    ],
    "sdk.game.hornochsen": [
        ["sdk.game.hornochsen.constructors"],
        ["sdk.game.hornochsen.rules"],
        ["sdk.game.hornochsen.position", "sdk.game.hornochsen.view"],
        ["sdk.game.hornochsen.setup"],
    ],
    "referee": [
        ["referee.cli"],
        ["referee.check"],
        ["referee.league"],
        ["referee.match"],
        ["referee.bots", "referee.replay"],
        ["referee.sandbox"],
        ["referee.limits", "referee.decompress", "referee.terminal_text"],
        ["referee.spec", "referee.faults"],
    ],
    "referee.cli": [
        ["referee.cli.bot"],
        [
            "referee.cli.check",
            "referee.cli.debug",
            "referee.cli.league",
            "referee.cli.play",
            "referee.cli.replay",
        ],
        [
            "referee.cli.human",
            "referee.cli.options",
            "referee.cli.output",
            "referee.cli.progress",
            "referee.cli.replay_browser",
            "referee.cli.trace",
        ],
        ["referee.cli.errors"],
    ],
    "referee.league": [
        ["referee.league.status", "referee.league.replays", "referee.league.ladder_runner"],
        ["referee.league.runner"],
        ["referee.league.executors", "referee.league.keyfile", "referee.league.ladder"],
        [
            "referee.league.store",
            "referee.league.local_pool",
            "referee.league.run_lock",
            "referee.league.shipping",
        ],
        ["referee.league.store_reads"],
        ["referee.league.store_rows"],
        ["referee.league.formats", "referee.league.ratings", "referee.league.archive"],
        ["referee.league.config"],
    ],
    "referee.match": [["referee.match.runner"], ["referee.match.encoder"], ["referee.match.wire"]],
    "referee.bots": [
        ["referee.bots.preflight"],
        ["referee.bots.client"],
        ["referee.bots.output", "referee.bots.transport"],
        ["referee.bots.process"],
        ["referee.bots.log", "referee.bots.manifest", "referee.bots.grpc_tuning"],
    ],
    "referee.replay": [
        ["referee.replay.digest"],
        ["referee.replay.resimulate"],
        ["referee.replay.record"],
        ["referee.replay.result", "referee.replay.values", "referee.replay.files"],
        ["referee.replay.model"],
        ["referee.replay.shape", "referee.replay.snapshots"],
    ],
    "referee.sandbox": [
        ["referee.sandbox.probe"],
        ["referee.sandbox.box"],
        ["referee.sandbox.bubblewrap", "referee.sandbox.folders"],
        ["referee.sandbox.config"],
        ["referee.sandbox.cgroups", "referee.sandbox.launch"],
    ],
    "leaderboard": [
        ["leaderboard.cli"],
        ["leaderboard.publish"],
        ["leaderboard.build"],
        ["leaderboard.render"],
        [
            "leaderboard.match_files",
            "leaderboard.jsondata",
            "leaderboard.state",
            "leaderboard.from_store",
            "leaderboard.screenshots",
        ],
        ["leaderboard.pages", "leaderboard.viewer_data"],
        [
            "leaderboard.charts",
            "leaderboard.model",
            "leaderboard.rules",
            "leaderboard.viewer_text",
            "leaderboard.paths",
            "leaderboard.files",
        ],
    ],
    "arena": [
        ["arena.cli"],
        ["arena.server", "arena.client"],
        [
            "arena.checker",
            "arena.background",
            "arena.ladder",
            "arena.games",
            "arena.play_page",
            "arena.status",
        ],
        ["arena.uploads", "arena.db", "arena.lifeline"],
        ["arena.config", "arena.events"],
    ],
    "bullring_cli": [
        ["bullring_cli.app"],
        ["bullring_cli.demo", "bullring_cli.new_bot", "bullring_cli.help_format"],
    ],
    "human_seat": [
        ["human_seat.__main__"],
        ["human_seat.terminal", "human_seat.web"],
        ["human_seat.bot"],
        ["human_seat.table"],
    ],
    "example_bots": [
        ["example_bots.champion_bot"],
        ["example_bots.winner_bot", "example_bots.gym_env"],
        [
            "example_bots.montecarlo_bot",
            "example_bots.learned_bot",
            "example_bots.openspiel_ismcts_bot",
        ],
        ["example_bots.rules_bot", "example_bots.random_bot"],
    ],
}
GENERATED = "sdk.protocol.bullring"  # protoc's output: not ours to layer


def modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name (a package by its own)."""
    found: dict[str, Path] = {}
    for package in ALLOWED:
        for path in sorted((REPO / package).rglob("*.py")):
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            if "node_modules" in parts:
                continue
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            if not name.startswith(GENERATED):
                found[name] = path
    return found


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes under an ``if TYPE_CHECKING:``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                skipped.update(id(n) for n in ast.walk(inner))
    return skipped


def imported_names(source: str, module: str, is_package: bool) -> Iterator[str]:
    """Every dotted name `source` imports at run time: ``from a import b`` gives ``a.b``,
    which names module ``a.b`` where there is one and otherwise a name of ``a``."""
    tree = ast.parse(source)
    skipped = _type_checking_only(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield from (f"{base}.{alias.name}" for alias in node.names)


def module_graph(known: Mapping[str, Path]) -> dict[str, set[str]]:
    """For each module, the project's modules it imports (the longest known prefix of each
    imported name; a module's import of itself is dropped)."""
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        targets: set[str] = set()
        for imported in imported_names(
            path.read_text(encoding="utf-8"), name, path.name == "__init__.py"
        ):
            while imported and imported not in known:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def imported_packages(module: Path) -> set[str]:
    """The top-level names `module` imports (relative imports stay in its package)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def circles(
    graph: Mapping[str, set[str] | Sequence[str] | Mapping[str, object]],
) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in order:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], order[target])
        if low[node] == order[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in list(graph):
        if node not in order:
            visit(node)
    return found


def layer_of(module: str, layers: Sequence[Sequence[str]]) -> int | None:
    """The index of the layer `module` belongs to (the longest matching name wins)."""
    best: tuple[int, int] | None = None
    for index, layer in enumerate(layers):
        for name in layer:
            if (module == name or module.startswith(name + ".")) and (
                best is None or len(name) > best[1]
            ):
                best = (index, len(name))
    return None if best is None else best[0]


def upward_imports(
    graph: Mapping[str, set[str]], layers: Mapping[str, Sequence[Sequence[str]]]
) -> list[str]:
    """Each import that runs up a package's layers, and each module in no layer."""
    wrong: list[str] = []
    for package, package_layers in layers.items():
        for module, targets in sorted(graph.items()):
            if module != package and not module.startswith(package + "."):
                continue
            if module == package:
                continue  # the package's face: it may hand on names from any layer
            own = layer_of(module, package_layers)
            if own is None:
                wrong.append(f"{module} is in no layer of {package}")
                continue
            for target in sorted(targets):
                if not target.startswith(package + ".") or target == package:
                    continue
                theirs = layer_of(target, package_layers)
                if theirs is not None and theirs < own:
                    wrong.append(f"{module} imports {target}, a layer above it")
    return wrong


def package_graph() -> dict[str, dict[str, list[str]]]:
    """For each package: each other project package it imports, and the modules that do."""
    graph: dict[str, dict[str, list[str]]] = {package: {} for package in ALLOWED}
    for package in ALLOWED:
        for module in sorted((REPO / package).rglob("*.py")):
            if "node_modules" in module.parts:
                continue
            for name in imported_packages(module) & ALLOWED.keys() - {package}:
                graph[package].setdefault(name, []).append(str(module.relative_to(REPO)))
    return graph


def test_every_package_imports_only_what_it_may() -> None:
    graph = package_graph()
    wrong = [
        f"{package} imports {target} ({', '.join(modules[:3])})"
        for package, targets in graph.items()
        for target, modules in targets.items()
        if target not in ALLOWED[package]
    ]
    assert wrong == []


def test_no_circle_between_packages() -> None:
    assert circles(package_graph()) == []


def test_no_circle_between_modules() -> None:
    assert circles(module_graph(modules())) == []


def test_no_import_runs_up_the_layers() -> None:
    assert upward_imports(module_graph(modules()), LAYERS) == []


def test_the_checks_see_circles_and_imports_up(tmp_path: Path) -> None:
    graph = {"sdk": {"referee": ["sdk/x.py"]}, "referee": {"sdk": ["referee/y.py"]}}
    assert circles(graph) == [["referee", "sdk"]]
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from leaderboard.build import build_site\nimport sdk.game\n")
    assert imported_packages(module) == {"leaderboard", "sdk"}
    # A deferred import closes a circle; one under TYPE_CHECKING does not.
    a = tmp_path / "a.py"
    a.write_text("import b\n")
    b = tmp_path / "b.py"
    b.write_text("def f():\n    from a import x\n")
    c = tmp_path / "c.py"
    c.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a\n")
    assert circles(module_graph({"a": a, "b": b, "c": c})) == [["a", "b"]]
    # A relative import is read in its package.
    assert set(imported_names("from .x import y\n", "p.q", False)) == {"p.x.y"}
    layers = {"p": [["p.top"], ["p.low"]]}
    ups = upward_imports({"p.low.m": {"p.top"}, "p.top": {"p.low.m"}, "p.stray": set()}, layers)
    assert ups == ["p.low.m imports p.top, a layer above it", "p.stray is in no layer of p"]


def test_the_rules_import_no_grpc() -> None:
    for module in (REPO / "sdk" / "game").rglob("*.py"):
        assert "grpc" not in imported_packages(module), module


# What bot authors import: the SDK's public modules (docs/sdk.md). Everything else in sdk
# is internal and may be renamed.
PUBLIC_SDK = (
    "sdk",
    "sdk.game",
    "sdk.game.sixnimmt",
    "sdk.game.sixnimmt.batch",
    "sdk.game.xnimmt",
    "sdk.game.elevennimmt",
    "sdk.game.hornochsen",
    "sdk.montecarlo",
    "sdk.search",
    "sdk.stats",
    "sdk.lifeline",
    "sdk.testing",
    "sdk.envs.encoding",
    "sdk.envs.gymnasium",
    "sdk.envs.pettingzoo",
    "sdk.envs.openspiel",
)
_SDK_IMPORT = re.compile(r"^\s*(?:from (sdk[\w.]*) import (.+)|import (sdk[\w.]*))", re.M)


def sdk_imports(text: str) -> Iterator[tuple[str, list[str]]]:
    """Each ``from sdk... import names`` (one line, or in parentheses) and ``import sdk...``
    of a text: code, a template or a document's code blocks."""
    for match in _SDK_IMPORT.finditer(text):
        module, names, whole = match.groups()
        if whole:
            yield whole, []
            continue
        if names.strip().startswith("("):
            names = text[match.start(2) : text.index(")", match.start(2))]
        cleaned = names.split("#")[0].replace("(", "").replace("\\", "")
        yield module, [n.split(" as ")[0].strip() for n in cleaned.split(",") if n.strip()]


def public_surface_violations(text: str) -> list[str]:
    """The imports of `text` that reach past the public SDK modules or their ``__all__``."""
    wrong: list[str] = []
    for module, names in sdk_imports(text):
        if module not in PUBLIC_SDK:
            wrong.append(f"{module} is internal")
            continue
        exported = set(getattr(importlib.import_module(module), "__all__", ()))
        for name in names:
            if name not in exported and f"{module}.{name}" not in PUBLIC_SDK:
                wrong.append(f"{module}.{name} is not in {module}.__all__")
    return wrong


def author_facing_texts() -> dict[str, str]:
    """The example bots, the new-bot templates and every document, by path."""
    paths = [
        *(REPO / "example_bots").rglob("*.py"),
        *(REPO / "bullring_cli" / "templates").rglob("*.tmpl"),
        *(REPO / "docs").glob("*.md"),
        *(REPO / "example_bots").glob("*.md"),
        REPO / "README.md",
    ]
    return {
        str(path.relative_to(REPO)): path.read_text(encoding="utf-8")
        for path in sorted(paths)
        if "node_modules" not in path.parts
    }


def test_bot_authors_are_shown_only_the_public_sdk() -> None:
    wrong = [
        f"{path}: {problem}"
        for path, text in author_facing_texts().items()
        for problem in public_surface_violations(text)
    ]
    assert wrong == []


def test_the_public_surface_check_sees_internal_imports() -> None:
    text = "from sdk.game.core import Option\nfrom sdk import (\n    Bot,\n    Nope,\n)\n"
    assert public_surface_violations(text) == [
        "sdk.game.core is internal",
        "sdk.Nope is not in sdk.__all__",
    ]
    assert public_surface_violations("from sdk.game import sixnimmt, HEADS\n") == []


CLI = ("bullring_cli", "referee.cli", "leaderboard.cli", "arena.cli")
BOT_RUNTIME = ("sdk.runtime", "sdk.stop_signals")  # the bot's gRPC server and its signals


def _within(module: str, roots: Sequence[str]) -> bool:
    return any(module == root or module.startswith(root + ".") for root in roots)


def imports_into(targets: Sequence[str], allowed: Callable[[str], bool]) -> list[str]:
    """Each import of a module under `targets` by a module that `allowed` refuses."""
    graph = module_graph(modules())
    return [
        f"{module} imports {target}"
        for module, imported in sorted(graph.items())
        for target in sorted(imported)
        if _within(target, targets) and not allowed(module)
    ]


def test_only_the_cli_imports_cli_modules() -> None:
    assert imports_into(CLI, lambda module: _within(module, CLI)) == []


def test_the_referee_and_the_site_never_import_the_bot_runtime() -> None:
    referee_or_site = ("referee", "leaderboard")
    assert imports_into(BOT_RUNTIME, lambda module: not _within(module, referee_or_site)) == []
