"""A check a function lacks where the failing test expected a call of it to raise: read from the test, written where
the function's body starts."""

from __future__ import annotations

from pedro.repair.raise_guards import Raising, expected_raises, expected_throws, raise_guards, throw_guards

ROOT = 'def root(x, n=2):\n    """The nth root."""\n    return x ** (1 / n)\n'


def test_the_values_a_test_expects_to_raise_are_read_from_each_form_of_raises() -> None:
    test = (
        "def test_root():\n"
        "    assert root(9, 2) == 3.0\n"
        "    with pytest.raises(ValueError, match='negative'):\n"
        "        root(-4, 2)\n"
        "    pytest.raises(ZeroDivisionError, root, 4, n=0)\n"
        "    with self.assertRaises(TypeError):\n"
        "        root('9', 2)\n"
    )
    assert expected_raises(test) == {
        Raising("ValueError", "root", 0, None, "-4", "negative", "int"),
        Raising("ValueError", "root", 1, None, "2", "negative", "int"),
        Raising("ZeroDivisionError", "root", 0, None, "4", "", "int"),
        Raising("ZeroDivisionError", "root", None, "n", "0", "", ""),
        Raising("TypeError", "root", 0, None, "'9'", "", "int"),
        Raising("TypeError", "root", 1, None, "2", "", "int"),
    }


def test_a_check_for_each_value_and_all_of_them_together_first() -> None:
    raising = expected_raises(
        "def test_root():\n    assert root(9, 2) == 3.0\n"
        "    with pytest.raises(ValueError, match='negative'):\n        root(-4, 2)\n"
        "    with pytest.raises(TypeError):\n        root('9', 2)\n"
    )
    changes = raise_guards(ROOT.splitlines(), "root", raising)
    assert [change.row for change in changes] == [2, 2, 2]  # after the docstring
    # A value's type is checked before anything compares it.
    assert changes[0].text == (
        '    if not isinstance(x, int):\n        raise TypeError(f"invalid x: {x!r}")\n'
        "    if x < 0:\n        raise ValueError('negative')\n"
        "    return x ** (1 / n)"
    )
    assert sorted(change.change for change in changes[1:]) == [
        '`if not isinstance(x, int): raise TypeError(f"invalid x: {x!r}")` added where the body starts',
        "`if x < 0: raise ValueError('negative')` added where the body starts",
    ]


def test_a_methods_arguments_follow_self_and_keywords_find_their_parameter() -> None:
    method = "    def withdraw(self, amount, *, note=''):\n        self.balance -= amount\n"
    raising = expected_raises(
        "def test_overdraw(account):\n    with pytest.raises(ValueError):\n        account.withdraw(0, note='')\n"
    )
    assert [change.change for change in raise_guards(method.splitlines(), "withdraw", raising)] == [
        '`if amount == 0: raise ValueError(f"invalid amount: {amount!r}")`; '
        '`if not note: raise ValueError(f"invalid note: {note!r}")` added where the body starts',
        '`if amount == 0: raise ValueError(f"invalid amount: {amount!r}")` added where the body starts',
        '`if amount <= 0: raise ValueError(f"invalid amount: {amount!r}")` added where the body starts',
        '`if not note: raise ValueError(f"invalid note: {note!r}")` added where the body starts',
    ]


def test_no_check_for_another_function_or_a_value_that_says_nothing() -> None:
    raising = expected_raises("def test_it():\n    with pytest.raises(ValueError):\n        root(5, 3)\n")
    assert raise_guards(ROOT.splitlines(), "root", raising) == []  # positive numbers: no check they call for
    assert raise_guards(ROOT.splitlines(), "other", expected_raises("with pytest.raises(E):\n    root(-1)\n")) == []


ROOT_JS = "const root = (x, n = 2) => {\n  return Math.pow(x, 1 / n);\n};\n"
ROOT_JS_TESTS = (
    'test("root", () => {\n  assert.equal(root(9, 2), 3);\n'
    "  assert.throws(() => root(-4, 2), RangeError);\n"
    '  expect(() => root("9", 2)).toThrow(TypeError);\n'
    "  assert.throws(() => root(null));\n});\n"
)


def test_the_values_a_javascript_test_expects_to_throw_are_read_from_the_statement_that_failed() -> None:
    lines = ROOT_JS_TESTS.splitlines()
    assert expected_throws(lines[2], ROOT_JS_TESTS) == {
        Raising("RangeError", "root", 0, None, "-4", "", "int"),
        Raising("RangeError", "root", 1, None, "2", "", "int"),
    }
    assert expected_throws(lines[3], ROOT_JS_TESTS) == {
        Raising("TypeError", "root", 0, None, "'9'", "", "int"),
        Raising("TypeError", "root", 1, None, "2", "", "int"),
    }
    # No class named: node's assert.throws takes any error.
    assert expected_throws(lines[4], ROOT_JS_TESTS) == {Raising("Error", "root", 0, None, "None", "", "int")}


def test_a_javascript_check_for_each_value_and_all_of_them_together_first() -> None:
    raising = expected_throws(ROOT_JS_TESTS, ROOT_JS_TESTS)
    changes = throw_guards(ROOT_JS, "root", raising)
    assert changes[0].row == 1
    assert changes[0].text == (
        '  if (typeof x !== "number") {\n    throw new TypeError(`invalid x: ${x}`);\n  }\n'
        "  if (x < 0) {\n    throw new RangeError(`invalid x: ${x}`);\n  }\n"
        "  if (x == null) {\n    throw new Error(`invalid x: ${x}`);\n  }\n"
        "  return Math.pow(x, 1 / n);"
    )
    assert "`if (x < 0) { throw new RangeError(`invalid x: ${x}`); }` added where the body starts" in [
        change.change for change in changes
    ]
