"""The functions a Python file imports from the project's own modules: a line answer that drops every call of them
is set aside, as one that drops its own file's."""

from __future__ import annotations

from pathlib import Path

from repo_util import commit_files

from pedro.repair.answers import Answer, Question
from pedro.repair.clues import Clues
from pedro.repair.locate import file_units
from pedro.repair.project_imports import imported_functions
from pedro.repair.search import Search
from pedro.repair.spectrum import Suspect

UTIL = "def is_number(x):\n    return isinstance(x, int | float) and not isinstance(x, bool)\n\n\nLIMIT = 10\n"
CORE = (
    "from os.path import join\n"
    "from .util import is_number, LIMIT\n"
    "from calc.util import is_number as numeric\n\n\n"
    "def less(left, right):\n"
    "    if not (is_number(left) and numeric(right)):\n"
    "        return None\n"
    "    return left < right\n"
)


def test_the_functions_imported_from_the_project_and_not_from_elsewhere(repo: Path) -> None:
    commit_files(repo, {"calc/__init__.py": "", "calc/util.py": UTIL, "calc/core.py": CORE})
    # `join` comes from the standard library, LIMIT is no function; `numeric` is the name the file calls.
    assert imported_functions(repo, "calc/core.py") == {"is_number", "numeric"}
    commit_files(repo, {"src/calc/__init__.py": "", "src/calc/util.py": UTIL, "src/calc/core.py": CORE})
    assert imported_functions(repo, "src/calc/core.py") == {"is_number", "numeric"}
    assert imported_functions(repo, "missing.py") == frozenset()


def test_a_line_answer_that_drops_the_imported_calls_is_set_aside(repo: Path) -> None:
    commit_files(repo, {"calc/__init__.py": "", "calc/util.py": UTIL, "calc/core.py": CORE})
    unit = next(unit for unit in file_units(repo, "calc/core.py") if unit.name == "less")
    search = Search(repo, None, None, lambda *_a, **_k: None, frozenset(), None, Clues(), [], None,  # type: ignore[arg-type]
                    lambda _unit: None, suspects=[Suspect(unit, (7,), 1.0)])  # fmt: skip
    proposal = search._from_answer(Answer(Question(unit, "line", 7), 0, "```python\nif left == right:"))
    assert proposal is not None and not proposal.edits
    assert "it no longer calls is_number, numeric" in proposal.label["problem"]
    kept = search._from_answer(
        Answer(Question(unit, "line", 7), 1, "```python\nif not (is_number(left) or numeric(right)):")
    )
    assert kept is not None and kept.edits
