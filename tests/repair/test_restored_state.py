"""An object restored (unpickled, copied) without the set-up its `__init__` calls: the set-up call added where it is
restored, found from the attribute the failure says is missing, and repair fixing such a bug unasked."""

from __future__ import annotations

from pathlib import Path

from repo_util import commit_files
from test_mutants import fixed_by_a_variant

from pedro.repair.restored_state import restored_without_set_up

SHELF = '''\
class Shelf:
    """Items and where each stands."""

    def __init__(self, items):
        self.items = list(items)
        self._build_index()

    def _build_index(self):
        self._index = {item: n for n, item in enumerate(self.items)}

    def position(self, item):
        return self._index[item]

    def __getstate__(self):
        return {"items": self.items}

    def __setstate__(self, state):
        for key, value in state.items():
            setattr(self, key, value)

    def __copy__(self):
        made = Shelf.__new__(Shelf)
        made.items = list(self.items)
        return made

    def reversed(self):
        made = type(self).__new__(type(self))
        made.items = self.items[::-1]
        return made
'''
SHELF_TESTS = """\
import copy
import pickle

from shelf import Shelf


def test_position():
    assert Shelf(["a", "b"]).position("b") == 1


def test_unpickled():
    assert pickle.loads(pickle.dumps(Shelf(["a", "b"]))).position("b") == 1


def test_deep_copied():
    assert copy.deepcopy(Shelf(["a", "b"])).position("a") == 0
"""
MISSING = "AttributeError: 'Shelf' object has no attribute '_index'"


def test_the_set_up_is_added_where_the_object_is_restored(repo: Path) -> None:
    commit_files(repo, {"shelf.py": SHELF})
    found = {variant.unit.name: variant for variant in restored_without_set_up(repo, [MISSING])}
    assert set(found) == {"__setstate__", "__copy__", "reversed"}
    # At the end of a method that restores `self`; before the return of one that makes another object.
    assert found["__setstate__"].text.splitlines() == [
        "            setattr(self, key, value)",
        "        self._build_index()",
    ]
    assert found["__copy__"].text.splitlines() == ["        made._build_index()", "        return made"]
    assert found["reversed"].text.splitlines() == ["        made._build_index()", "        return made"]
    assert "`_index`" in found["__setstate__"].change


def test_no_set_up_is_added_where_it_is_made_already_or_the_failure_names_no_such_attribute(repo: Path) -> None:
    done = SHELF.replace("setattr(self, key, value)\n", "setattr(self, key, value)\n        self._build_index()\n")
    commit_files(
        repo, {"shelf.py": done.replace("        return made\n", "        made._build_index()\n        return made\n")}
    )
    assert restored_without_set_up(repo, [MISSING]) == []
    commit_files(repo, {"shelf.py": SHELF})
    assert restored_without_set_up(repo, ["AttributeError: 'Shelf' object has no attribute 'items'"]) == []
    assert restored_without_set_up(repo, ["AssertionError: assert 0 == 1"]) == []


def test_repair_adds_the_set_up_to_the_unpickling_method(repo: Path) -> None:
    # The failure is raised in `position`, which reads `_index`: the bug is in `__setstate__`, which no frame shows.
    events = fixed_by_a_variant(repo, {"shelf.py": SHELF, "test_shelf.py": SHELF_TESTS})
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert fixed and "self._build_index()" in fixed[0]["change"], fixed
    assert "            setattr(self, key, value)\n        self._build_index()\n" in (repo / "shelf.py").read_text()
