"""The layers of pedro's packages and shared modules, as one table: a module imports only from its own layer or one
below, and nothing imports in a circle. A package or a module of the package root the table does not place fails
until it is placed."""

from __future__ import annotations

import ast
import graphlib
from collections import defaultdict
from pathlib import Path

PEDRO = Path(__file__).resolve().parent.parent / "pedro"

# Lowest first. A name is a package of pedro/ or a module of the package root.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("what every layer shares", frozenset({
        "__init__", "limits", "messages", "tooltable", "presets", "startup", "process", "deadline", "effects",
        "reaper", "findings", "rgbinary", "controls", "debuglog", "tokens", "errors", "roles", "config", "gitlayer",
        "prompts", "settings", "changedlines", "reviewbase", "workspace",
    })),
    ("safety", frozenset({"safety"})),
    ("records and rules around a run", frozenset({"instructions", "runlock", "linters", "jobstore", "toolcalls"})),
    ("tools and model servers", frozenset({"tools", "backends"})),
    ("a call, a test run, a model request", frozenset({
        "calls", "evidence", "gate", "modelcall", "dispatch", "reviewchecks", "serve",
    })),
    ("repair", frozenset({"repair"})),
    ("stages and runs built on repair", frozenset({"build", "triage", "eval"})),
    ("the loop", frozenset({"loop"})),
    ("the job service", frozenset({"jobs"})),
    ("front ends", frozenset({"mcp"})),
    ("the command line", frozenset({"cli"})),
    ("the entry point", frozenset({"__main__"})),
)  # fmt: skip


def _node(module: str) -> str:
    """`pedro.repair.search` → repair; `pedro.config` → config; `pedro` → __init__."""
    parts = module.split(".")
    return "__init__" if len(parts) == 1 else parts[1]


def _imports() -> dict[str, dict[str, set[str]]]:
    """For each node, the nodes it imports and the files that import them."""
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for path in sorted(PEDRO.rglob("*.py")):
        rel = path.relative_to(PEDRO)
        source = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        found[source]  # a node that imports nothing is still one
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.startswith("pedro"):
                names = [f"pedro.{a.name}" for a in node.names] if node.module == "pedro" else [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names if alias.name.startswith("pedro")]
            else:
                continue
            for name in names:
                target = _node(name)
                if target not in (source, "__version__"):
                    found[source][target].add(str(rel))
    return found


def test_every_package_and_shared_module_has_a_layer() -> None:
    placed = {name for _, names in LAYERS for name in names}
    assert sum(len(names) for _, names in LAYERS) == len(placed), "a name is in two layers"
    assert sorted(set(_imports()) - placed) == [], "place these in LAYERS"


def test_nothing_imports_from_a_layer_above_its_own() -> None:
    layer = {name: k for k, (_, names) in enumerate(LAYERS) for name in names}
    upward = [
        f"{source} ({LAYERS[layer[source]][0]}) imports {target} ({LAYERS[layer[target]][0]}) in {sorted(files)}"
        for source, targets in _imports().items()
        for target, files in targets.items()
        if source in layer and target in layer and layer[target] > layer[source]
    ]
    assert upward == []


def test_nothing_imports_in_a_circle() -> None:
    graph = {source: set(targets) for source, targets in _imports().items()}
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError, naming the circle
