"""safety/ sits below tools/: read from the source's own import statements, not from what happens to load."""

from __future__ import annotations

import ast
from pathlib import Path

import pedro

PACKAGE = Path(pedro.__file__).parent


def imported_modules(path: Path, top: Path = PACKAGE) -> set[str]:
    """Every module a file imports, at the top or inside a function, absolute or relative."""
    package = ".".join(path.relative_to(top.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def test_no_safety_module_imports_the_tools() -> None:
    offenders = {
        path.name: sorted(m for m in imported_modules(path) if m == "pedro.tools" or m.startswith("pedro.tools."))
        for path in sorted((PACKAGE / "safety").glob("*.py"))
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_reading_sees_imports_inside_functions_and_relative_ones(tmp_path: Path) -> None:
    package = tmp_path / "pedro" / "safety"
    package.mkdir(parents=True)
    sample = package / "sample.py"
    sample.write_text("def f():\n    from ..tools import base\n    import pedro.tools.git\n")
    found = imported_modules(sample, top=tmp_path / "pedro")
    assert {"pedro.tools", "pedro.tools.base", "pedro.tools.git"} <= found
