"""make lint's code budgets: a function over 15 in complexity (boolean operators counted, as radon counts), over 60
lines or over 6 parameters fails, unless recorded with the figure it had; the repository holds them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "budgets.py"


def budgets() -> ModuleType:
    spec = importlib.util.spec_from_file_location("budgets", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_complexity_counts_boolean_operators_and_each_budget_is_its_own() -> None:
    conditions = " and ".join(f"x{k}" for k in range(15))  # one `if` and 14 `and`s: 1 + 1 + 14
    source = (
        f"def tangled(x0, x1, x2, x3, x4, x5):\n    if {conditions}:\n        return 1\n    return 0\n\n\n"
        "def long(a):\n" + "    a += 1\n" * 59 + "    return a\n\n\n"
        "def many(a, b, c, d, e, f, g):\n    return a\n\n\n"
        "class Kept:\n    def six(self, a, b, c, d, e, f):\n        return a\n"
    )
    found = sorted(budgets().measured(source, "pedro/x.py"))
    assert found == [
        ("pedro/x.py:long", "lines", 61),
        ("pedro/x.py:many", "params", 7),
        ("pedro/x.py:tangled", "complexity", 16),
    ]
    # A command's options are its parameters: cli/ is held to complexity alone.
    assert list(budgets().measured(source, "pedro/cli/x.py")) == [("pedro/cli/x.py:tangled", "complexity", 16)]


def test_the_repository_holds_its_budgets() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout
    assert "none grown" in done.stdout
