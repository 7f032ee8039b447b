"""A `return` that raised where a result was wanted: the exception caught and the function's other results given."""

from __future__ import annotations

from pedro.repair.fallbacks import fallbacks

CELL = (
    "def cell(val, kind, fmt, missing=''):\n"
    "    if val is None:\n"
    "        return missing\n"
    "    if kind is str:\n"
    "        return f'{val}'\n"
    "    elif kind is int:\n"
    "        return format(val, fmt)\n"
    "    digits = str(val).strip()\n"
    "    return digits.rjust(4)\n"
)


def test_the_line_that_raised_answers_the_functions_other_results_nearest_first() -> None:
    changes = fallbacks(CELL.splitlines(), 6, frozenset({"ValueError"}))
    assert [change.change for change in changes] == [
        "`return f'{val}'` where `format(val, fmt)` raises ValueError",
        "`return missing` where `format(val, fmt)` raises ValueError",
    ]
    assert changes[0].row == 6
    assert changes[0].text == (
        "        try:\n            return format(val, fmt)\n        except ValueError:\n            return f'{val}'"
    )


def test_a_result_that_reads_a_local_is_never_offered() -> None:
    # `digits` is assigned below the line that raised: where it raised, it has no value.
    assert all("digits" not in change.text for change in fallbacks(CELL.splitlines(), 6, frozenset({"TypeError"})))


def test_several_exceptions_are_caught_together() -> None:
    changes = fallbacks(CELL.splitlines(), 6, frozenset({"ValueError", "TypeError"}))
    assert "except (TypeError, ValueError):" in changes[0].text


def test_a_slip_of_the_code_itself_is_never_caught() -> None:
    # A name, an index or a division that failed is the bug; catching it would hide it.
    for slip in ("NameError", "IndexError", "ZeroDivisionError", "AttributeError", "AssertionError"):
        assert fallbacks(CELL.splitlines(), 6, frozenset({slip})) == []


def test_only_a_return_line_is_wrapped() -> None:
    assert fallbacks(CELL.splitlines(), 7, frozenset({"ValueError"})) == []  # an assignment
    assert fallbacks(CELL.splitlines(), 0, frozenset({"ValueError"})) == []  # the signature
