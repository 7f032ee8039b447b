"""handler_types.py: an `except` around the failure's line that names another exception than the one raised."""

from __future__ import annotations

from pedro.repair.handler_types import handler_types

LINES = [
    "def load(path, fallback):",
    "    try:",
    "        with open(path) as handle:",
    "            return json.load(handle)",
    "    except (KeyError, IndexError) as exc:",
    "        log(exc)",
    "        return fallback",
    "    finally:",
    "        done()",
]


def test_each_handler_is_made_to_catch_the_raised_exception_then_to_catch_it_as_well() -> None:
    changes = handler_types(LINES, 3, frozenset({"FileNotFoundError"}))
    assert [(c.row, c.text, c.change) for c in changes] == [
        (4, "    except FileNotFoundError as exc:", "`(KeyError, IndexError)` → `FileNotFoundError`"),
        (
            4,
            "    except (KeyError, IndexError, FileNotFoundError) as exc:",
            "FileNotFoundError caught beside `(KeyError, IndexError)`",
        ),
    ]


def test_nothing_where_a_handler_catches_it_already_the_line_is_in_no_try_or_the_error_is_a_slip() -> None:
    assert handler_types(LINES, 3, frozenset({"KeyError"})) == []
    assert handler_types(LINES, 3, frozenset({"NameError"})) == []  # caught, a slip of the code would hide
    assert handler_types(LINES, 6, frozenset({"ValueError"})) == []  # in the handler, not in the `try`
    broad = [*LINES[:4], "    except Exception:", "        return fallback"]
    assert handler_types(broad, 3, frozenset({"ValueError"})) == []
