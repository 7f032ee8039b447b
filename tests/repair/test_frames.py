"""Frames read from real runners' failure texts, kept only where they point into the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from pedro.repair.frames import Frame, frames_of, is_doctest, is_test_code, is_test_file

PYTEST_TEXT = """def test_total() -> None:
>       assert total([1, 2]) == 3

test_shop.py:7: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

items = [1, 2]

    def total(items):
>       return items[0] + helper(items)

shop.py:3: in total
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

items = [1, 2]

    def helper(items):
>       return items[5]
E       IndexError: list index out of range

shop.py:7: IndexError"""


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    (tmp_path / "shop.py").write_text("def total(items):\n    return items[0] + helper(items)\n\n\n\n\n")
    (tmp_path / "test_shop.py").write_text("from shop import total\n" * 8)
    return tmp_path


def test_pytest_frames_come_innermost_first(shop: Path) -> None:
    frames = frames_of(PYTEST_TEXT, shop)
    assert [(f.path, f.line) for f in frames] == [("shop.py", 7), ("shop.py", 3), ("test_shop.py", 7)]


def test_python_traceback_and_absolute_paths(shop: Path) -> None:
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{shop}/test_shop.py", line 4, in test_total\n'
        f'  File "{shop}/shop.py", line 2, in total\n'
        '  File "/usr/lib/python3.11/json/__init__.py", line 9, in loads\n'
        "ValueError: x"
    )
    assert frames_of(text, shop) == [Frame("shop.py", 2, "total"), Frame("test_shop.py", 4, "test_total")]


def test_node_stack_keeps_repository_files_only(tmp_path: Path) -> None:
    (tmp_path / "clamp.js").write_text("x\n" * 5)
    (tmp_path / "clamp.test.js").write_text("x\n" * 5)
    text = (
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n"
        f"    at clamp ({tmp_path}/clamp.js:2:10)\n"
        f"    at TestContext.<anonymous> ({tmp_path}/clamp.test.js:4:35)\n"
        "    at Test.runInAsyncScope (node:async_hooks:206:9)\n"
    )
    assert frames_of(text, tmp_path) == [Frame("clamp.js", 2, "clamp"), Frame("clamp.test.js", 4, "<anonymous>")]


def test_go_test_output_and_panic(tmp_path: Path) -> None:
    (tmp_path / "words.go").write_text("x\n" * 9)
    (tmp_path / "words_test.go").write_text("x\n" * 9)
    text = f"    words_test.go:8: Reverse() = x, want y\npanic: boom\n\t{tmp_path}/words.go:5 +0x1d\n"
    assert frames_of(text, tmp_path) == [Frame("words_test.go", 8), Frame("words.go", 5)]


def test_a_path_outside_the_repository_is_no_frame(tmp_path: Path) -> None:
    inside = tmp_path / "repo"
    inside.mkdir()
    (tmp_path / "secret.py").write_text("x\n" * 5)
    assert frames_of("../secret.py:2: in f\n/etc/passwd.py:1: in g", inside) == []


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("test_calc.py", True),
        ("calc_test.py", True),
        ("tests/helpers.py", True),
        ("pkg/words_test.go", True),
        ("src/clamp.test.js", True),
        ("src/clamp.spec.ts", True),
        ("__tests__/x.js", True),
        ("conftest.py", True),
        ("tests.py", True),  # one module of tests at the root, or in a Django app
        ("app/test.py", True),
        ("contests.py", False),
        ("calc.py", False),
        ("pkg/words.go", False),
        ("src/testing_utils_impl.js", False),
        ("contest.py", False),
        ("python_testcases/node.py", True),  # a helper the tests import, in a folder of tests by a longer name
        ("unit_tests/fixtures.py", True),
        ("integration-tests/db.py", True),
        ("src/attest/sign.py", False),
        ("pytest_plugin/hooks.py", False),
        ("latest/build.py", False),
    ],
)
def test_test_files_are_recognised_by_name(path: str, expected: bool) -> None:
    assert is_test_file(path) is expected


@pytest.mark.parametrize(
    ("test_id", "expected"),
    [
        ("mathx.py::mathx.cube", True),
        ("src/shop/cart.py::shop.cart.Cart.total", True),
        ("shop/__init__.py::shop.price", True),
        ("mathx.py::mathx", True),  # the module's own docstring
        ("test_calc.py::test_add", False),
        ("tests/test_cart.py::TestCart::test_total", False),
        ("test_calc.py::test_add[1.5-2.5]", False),  # a parameter's dot is not a module's
        ("README.txt::README.txt", False),  # a text file of examples is the tests'
        ("test_calc.py", False),
    ],
)
def test_a_doctests_id_is_told_from_a_tests(test_id: str, expected: bool) -> None:
    assert is_doctest(test_id) is expected


def test_a_go_helper_that_imports_testing_is_test_code_under_any_name(tmp_path: Path) -> None:
    (tmp_path / "check").mkdir()
    (tmp_path / "check" / "equal.go").write_text(
        'package check\n\nimport (\n\t"reflect"\n\t"testing"\n)\n\nfunc Equal(t *testing.T, a, b any) {\n'
        '\tif !reflect.DeepEqual(a, b) {\n\t\tt.Errorf("%v != %v", a, b)\n\t}\n}\n'
    )
    (tmp_path / "calc.go").write_text('package calc\n\nimport "strings"\n\nfunc Up(s string) string {\n\treturn s\n}\n')
    (tmp_path / "calc.py").write_text("import unittest\n")
    assert is_test_code(tmp_path, "check/equal.go") and is_test_code(tmp_path, "calc_test.go")
    assert not is_test_code(tmp_path, "calc.go") and not is_test_code(tmp_path, "calc.py")
    assert not is_test_code(tmp_path, "gone.go")
