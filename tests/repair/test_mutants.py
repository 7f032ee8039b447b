"""One-token variants of suspicious lines: how they are made, and repair fixing real bugs with them, unasked."""

from __future__ import annotations

import ast
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from repo_util import PYTEST, commit_files, git, node_test
from test_repairer import FIX, repair, statuses

from pedro.backends.scripted import ScriptedBackend
from pedro.messages import Event
from pedro.repair.empty_pieces import empty_piece_guards
from pedro.repair.everywhere import everywhere
from pedro.repair.locate import Unit
from pedro.repair.loop_additions import loop_additions
from pedro.repair.mutants import line_mutants, replaced_calls, replaced_names, unit_names


def changes(line: str, language: str = "python") -> list[str]:
    return [mutant.line.strip() for mutant in line_mutants(line, language)]  # type: ignore[arg-type]


def fixed_by_a_variant(repo: Path, files: dict[str, str], mutants: int = 40, command: str = PYTEST) -> list[Event]:
    """Repair of `files` with variants only and coverage on: it must fix them without a model request."""
    commit_files(repo, files)
    outcome, backend, events = repair(repo, [], coverage=True, mutants=mutants, candidates=0, command=command)
    assert outcome.fixed and backend.requests == [], outcome.summary
    return events


def tried_by_node(repo: Path, files: dict[str, str]) -> list[dict[str, Any]]:
    """Each candidate a variants-only repair of the node project `files` tried, in order, the last one its fix."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    events = fixed_by_a_variant(repo, files, command="node --test")
    return [event.data for event in events if event.type == "repair.candidate"]


def tried_changes(events: list[Event]) -> list[tuple[Any, Any, Any]]:
    """Each candidate a repair tried, in order: (its number, its change in words, how it ended)."""
    return [(e.data["n"], e.data.get("change"), e.data["status"]) for e in events if e.type == "repair.candidate"]


def fixed_among_the_first(repo: Path, files: dict[str, str], change: str, first: int = 5) -> None:
    """Repair of `files` with variants only fixes them with a change that says `change`, among the first tried: the
    code or the failure shows the slip, so it is tried before the budget a busy machine has runs out."""
    tried = [event.data for event in fixed_by_a_variant(repo, files) if event.type == "repair.candidate"]
    kept = [data for data in tried if data["status"] == "fixed"]
    changes = [data.get("change") for data in tried]
    assert kept and change in str(kept[0]["change"]), changes
    assert tried.index(kept[0]) < first, changes


def test_the_likeliest_slips_come_first() -> None:
    assert changes("    return sum(values) // len(values)")[0] == "return sum(values) / len(values)"
    assert changes("        if item < best:")[:2] == ["if item <= best:", "if item > best:"]
    # An off-by-one bound: a variable shifted inside the call, without needless brackets.
    assert "return list(range(first, last + 1))" in changes("    return list(range(first, last))")
    # Two operands of a division swapped: 9 / 5 where 5 / 9 was meant.
    assert "return (f - 32) * 5 / 9" in changes("    return (f - 32) * 9 / 5")
    assert "return Math.min(max, Math.max(min, value));" in changes(
        "  return Math.min(min, Math.max(max, value));", "javascript"
    )
    assert "for i := len(fields) - 1; i >= 0; i-- {" in changes("\tfor i := len(fields) - 1; i > 0; i-- {", "go")
    tiers = [mutant.tier for mutant in line_mutants("    return (f - 32) * 9 / 5", "python")]
    assert tiers == sorted(tiers)


def test_an_assignment_that_should_have_added_to_what_was_there() -> None:
    assert "stock[item] += qty" in changes("    stock[item] = qty")
    assert "stock[item] = stock.get(item, 0) + qty" in changes("    stock[item] = qty")
    assert "counts[word] = (counts[word] || 0) + 1;" in changes("  counts[word] = 1;", "javascript")
    assert "total += p" in changes("\ttotal = p", "go")
    # Not where the target is read already, nor for a keyword argument, a declaration or a tuple.
    assert not [c for c in changes("    total = total + p") if "+=" in c]
    assert not [c for c in changes("    f(x=1)") if "+=" in c]
    assert not [c for c in changes("  let n = 1;", "javascript") if "+=" in c]
    assert not [c for c in changes("    a, b = b, a") if "+=" in c]


def test_a_collection_is_never_swapped_with_its_own_index_nor_made_one_more() -> None:
    for language in ("python", "go", "javascript"):
        got = changes("    distance = numbers[i] - numbers[j]", language)
        assert "distance = numbers[j] - numbers[i]" in got  # two indices may swap
        assert "distance = i[numbers] - i[j]" not in got and not any("(numbers +" in line for line in got)
    grid = changes("    return grid[r][c] + a[i] - b[i]")
    # Two indices, and two collections, may swap; a collection and an index never do.
    assert "return grid[c][r] + a[i] - b[i]" in grid and "return a[r][c] + grid[i] - b[i]" in grid
    assert not [line for line in grid if line.startswith("return c[") or "[grid]" in line or "i[r]" in line]
    # What a length measures is a collection too, and a length is never dropped for it.
    length = changes("    return xs[len(xs) - k]")
    assert "return xs[len(xs) - (k + 1)]" in length
    assert not [line for line in length if "len(xs + 1)" in line or "xs[xs - k]" in line]


def test_text_comments_declarations_and_assignment_targets_are_left_alone() -> None:
    assert all('"a < b"' in line for line in changes('    message = "a < b" + name'))
    assert all("# a - b" in line for line in changes("    total = x  # a - b"))
    assert changes("def add(a, b):") == [] and changes("func Add(a, b int) int {", "go") == []
    assert changes('    """Return a - b."""') == []
    # The targets stay: only the value changes (here, the call dropped for its argument).
    assert all(line.startswith("top, n = ") for line in changes("    top, n = f(x)"))
    assert "top, n = x" in changes("    top, n = f(x)")
    # The target's names stay; only what the assignment does to it may change (see the accumulating test).
    assert all(line.startswith(("fields = line.split(", "fields += line.split(")) for line in changes(
        "    fields = line.split(sep)"
    ))  # fmt: skip
    # A `-` that opens an operand is a sign, not an operator to flip.
    assert "return +x" not in changes("    return -x")


def rounding_repo(repo: Path) -> Path:
    """A three-module project whose test never names the module with the bug: `//` for `/` in stats.mean."""
    return commit_files(
        repo,
        {
            "stats.py": (
                'def mean(values):\n    """The arithmetic mean, 0.0 for no values."""\n    if not values:\n'
                "        return 0.0\n    return sum(values) // len(values)\n"
            ),
            "report.py": (
                "from stats import mean\n\n\ndef summary(scores):\n    average = mean(scores)\n"
                '    return f"{len(scores)} scores, mean {average:.2f}"\n'
            ),
            "test_report.py": (
                "from report import summary\n\n\n"
                'def test_summary():\n    assert summary([3, 2]) == "2 scores, mean 2.50"\n\n\n'
                'def test_no_scores():\n    assert summary([]) == "0 scores, mean 0.00"\n'
            ),
        },
    )


def test_a_one_token_bug_in_a_module_the_test_never_names_is_fixed_without_asking(repo: Path) -> None:
    outcome, backend, events = repair(rounding_repo(repo), [], coverage=True, mutants=24, candidates=0)
    assert outcome.fixed and backend.requests == []
    assert "return sum(values) / len(values)" in (repo / "stats.py").read_text()
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert fixed == [
        {"n": fixed[0]["n"], "status": "fixed", "reason": "", "unit": "stats.py:1 mean", "question": "mutation",
         "line": 5, "change": "`//` → `/`"}
    ]  # fmt: skip
    assert "test_report.py" not in outcome.summary and "passes" in outcome.summary


def temperature_repo(repo: Path) -> Path:
    """A bug that needs two edits, one in each function: neither alone makes both tests pass."""
    return commit_files(
        repo,
        {
            "temperature.py": (
                "def to_fahrenheit(celsius):\n    return celsius * 9 / 5 - 32\n\n\n"
                "def to_celsius(fahrenheit):\n    return (fahrenheit - 32) * 9 / 5\n"
            ),
            "test_temperature.py": (
                "from temperature import to_celsius, to_fahrenheit\n\n\n"
                "def test_to_fahrenheit():\n    assert to_fahrenheit(100) == 212\n\n\n"
                "def test_to_celsius():\n    assert to_celsius(212) == 100\n"
            ),
        },
    )


def test_two_one_token_slips_are_fixed_one_after_the_other(repo: Path) -> None:
    outcome, backend, events = repair(temperature_repo(repo), [], coverage=True, mutants=24, candidates=0)
    assert outcome.fixed and backend.requests == []
    text = (repo / "temperature.py").read_text()
    assert "celsius * 9 / 5 + 32" in text and "(fahrenheit - 32) * 5 / 9" in text
    kept = [e.data for e in events if e.type == "repair.kept"]
    assert len(kept) == 1  # the first slip fixed one test and stayed while the second was looked for
    assert "progress" in statuses(events) and statuses(events)[-1] == "fixed"


LCS_CASES = [("witch", "sandwich", 2), ("meow", "homeowner", 4), ("fun", "function", 3), ("cyborg", "cyber", 3)]


def test_kept_changes_that_lead_nowhere_are_taken_back_and_the_variants_before_them_tried(repo: Path) -> None:
    tests = "".join(f"def test_{n}():\n    assert lcs_length({a!r}, {b!r}) == {v}\n\n\n" for n, (a, b, v) in
                    enumerate(LCS_CASES))  # fmt: skip
    events = fixed_by_a_variant(
        repo,
        {
            "lcs.py": (
                "def lcs_length(s, t):\n    from collections import Counter\n\n    dp = Counter()\n\n"
                "    for i in range(len(s)):\n        for j in range(len(t)):\n            if s[i] == t[j]:\n"
                "                dp[i, j] = dp[i - 1, j] + 1\n\n    return max(dp.values()) if dp else 0\n"
            ),
            "test_lcs.py": "from lcs import lcs_length\n\n\n" + tests,
        },
        mutants=200,
    )
    # A change that makes more tests pass is kept first; nothing on top of it fixes the rest.
    assert "dp[i, j] = dp[i - 1, j - 1] + 1" in (repo / "lcs.py").read_text()
    dropped = [e.data for e in events if e.type == "repair.dropped"]
    assert dropped and "goes on from the code before it" in dropped[0]["reason"]
    kept = [e.data["n"] for e in events if e.type == "repair.kept"]
    assert dropped[0]["n"] == kept[: len(dropped[0]["n"])]


EXPIRY = (
    "class Item:\n    def __init__(self, value, expire):\n"
    "        self.value = value\n        self.expire = expire\n\n\n"
    "def alive(item, now):\n    return not (item.expire < now)\n\n\n"
    "def get(items, key, now):\n    item = items.get(key)\n    if item is None or item.expire < now:\n"
    "        return None\n    return item.value\n\n\n"
    "def count(items, now):\n    return sum(1 for item in items.values() if not (item.expire < now))\n"
)


def test_a_comparison_written_in_several_functions_is_changed_in_all_of_them_at_once(repo: Path) -> None:
    events = fixed_by_a_variant(
        repo,
        {
            "expiry.py": EXPIRY,
            "test_expiry.py": (
                "from expiry import Item, alive, count, get\n\n\n"
                "def test_an_item_is_gone_when_it_expires():\n    items = {'a': Item(1, 10)}\n"
                "    assert not alive(items['a'], 10)\n    assert get(items, 'a', 10) is None\n"
                "    assert count(items, 10) == 0\n\n\n"
                "def test_an_item_is_there_before():\n    items = {'a': Item(1, 10)}\n"
                "    assert alive(items['a'], 9) and get(items, 'a', 9) == 1 and count(items, 9) == 1\n"
            ),
        },
        mutants=200,
    )
    assert (repo / "expiry.py").read_text() == EXPIRY.replace("expire < now", "expire <= now")
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert "wherever the file makes that comparison (3 lines)" in fixed[0]["change"]


def test_the_same_comparison_is_found_on_either_side_and_nothing_else_is_widened() -> None:
    units = [Unit("e.py", "f", "f", "python", 1, 4, ""), Unit("e.py", "g", "g", "python", 5, 6, "")]
    text = "def f(a, now):\n    if now > a.end:\n        return 1\n    return now > a.end\n"
    text += "def g(a, now):\n    return now > a.end or now > a.start\n"
    wide = everywhere("    if now > a.end:", "    if now >= a.end:", text, lambda: units)
    assert wide is not None and wide.lines == 3 and [unit.name for unit, _ in wide.edits] == ["f", "g"]
    assert wide.edits[1][1] == "def g(a, now):\n    return now >= a.end or now > a.start"
    # Not a comparison, or a comparison made on one line only: the variant alone.
    assert everywhere("    if now > a.end:", "    if now > a.end + 1:", text, lambda: units) is None
    assert everywhere("    return now > a.start", "    return now >= a.start", text, lambda: units) is None


def test_variants_that_do_not_parse_cost_no_test_run(repo: Path) -> None:
    (repo / "pages.py").write_text("def pages(first, last):\n    out = seen = []\n    for page in range(first, last):\n"
                                   "        out.append(page)\n    return out\n")  # fmt: skip
    (repo / "test_pages.py").write_text("from pages import pages\n\n\ndef test_pages():\n"
                                        "    assert pages(1, 3) == [1, 2, 3]\n")  # fmt: skip
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "pages")
    outcome, _, events = repair(repo, [], coverage=True, mutants=24, candidates=0)
    assert outcome.fixed and "range(first, last + 1)" in (repo / "pages.py").read_text()
    unusable = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "unusable"]
    assert unusable and all("not valid python" in str(data["reason"]) for data in unusable)  # `out += seen = []`
    runs = [e for e in events if e.type == "tests.run" and e.data.get("scope") == "failing"]  # each candidate's first
    tried = [e for e in events if e.type == "repair.candidate"]
    assert len(runs) == len(tried) - len(unusable)


def test_the_model_is_asked_at_once_beside_the_variants(calc: Path) -> None:
    # `a * b - b` for `a + b`: no single token undoes it; the model's answer, asked at the start, fixes it.
    (calc / "calc.py").write_text((calc / "calc.py").read_text().replace("return a - b", "return a * b - b"))
    git(calc, "commit", "-qam", "a slip no single token undoes")
    outcome, backend, events = repair(calc, [FIX], mutants=24)
    assert outcome.fixed and backend.requests
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert [data["question"] for data in fixed] == ["function"]
    assert "return a + b" in (calc / "calc.py").read_text()


def _go_module(repo: Path, name: str, code: str, test: str) -> Path:
    """A committed Go module `name` of one file and its test."""
    (repo / "go.mod").write_text(f"module example.com/{name}\n\ngo 1.19\n")
    (repo / f"{name}.go").write_text(code)
    (repo / f"{name}_test.go").write_text(test)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", name)
    return repo


def _go_repo(repo: Path) -> Path:
    return _go_module(
        repo,
        "count",
        "package count\n\n// Above counts the values over limit.\nfunc Above(values []int, limit int) int {\n"
        "\tn := 0\n\tfor _, v := range values {\n\t\tif v >= limit {\n\t\t\tn++\n\t\t}\n\t}\n\treturn n\n}\n",
        'package count\n\nimport "testing"\n\nfunc TestAbove(t *testing.T) {\n'
        '\tif got := Above([]int{1, 5, 7}, 5); got != 1 {\n\t\tt.Errorf("Above = %d, want 1", got)\n\t}\n}\n',
    )


def test_a_go_comparison_slip_is_fixed_by_a_variant(repo: Path) -> None:
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    outcome, backend, events = repair(_go_repo(repo), [], command="go test ./...", mutants=24, candidates=0)
    assert outcome.fixed and backend.requests == []
    assert "\t\tif v > limit {" in (repo / "count.go").read_text()
    assert any(isinstance(e, Event) and e.data.get("change") == "`>=` → `>`" for e in events)
    # A probe program calls the Go function on the test's own input's neighbours: where a value equals the limit,
    # the fix counts one fewer, and the summary says so.
    assert "Beyond the tests, the fix changes Above([7, 5, 1], 5): 2 → 1" in outcome.summary
    assert not list(repo.glob("*pedro*")), "the probe program never lands in the repository"


def test_a_javascript_fix_is_called_on_other_inputs_by_a_probe_program(repo: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    (repo / "count.js").write_text(
        "function above(values, limit) {\n  let n = 0;\n  for (const v of values) {\n    if (v >= limit) n++;\n"
        "  }\n  return n;\n}\n\nmodule.exports = { above };\n"
    )
    (repo / "count.test.js").write_text(
        'const test = require("node:test");\nconst assert = require("node:assert/strict");\n'
        'const { above } = require("./count");\n\ntest("above", () => {\n  assert.equal(above([1, 5, 7], 5), 1);\n'
        "});\n"
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "count")
    outcome, backend, _ = repair(repo, [], command="node --test", mutants=24, candidates=0)
    assert outcome.fixed and backend.requests == []
    assert "if (v > limit) n++;" in (repo / "count.js").read_text()
    assert "Beyond the tests, the fix changes above([7, 5, 1], 5): 2 → 1" in outcome.summary
    assert not list(repo.glob("*probe*")), "the probe program never lands in the repository"


def test_a_caller_bent_to_fit_a_buggy_callee_is_put_back_once_the_callee_is_fixed(repo: Path) -> None:
    # `* 255` → `+ 255` makes to_byte's test pass on the buggy clamp and is kept; once swapping clamp's bounds
    # fixes clamp, the tests pass without the change to to_byte, so it must not stay.
    (repo / "shade.py").write_text(
        "def clamp(value, low, high):\n    return min(low, max(high, value))\n\n\n"
        "def to_byte(fraction):\n    return round(clamp(fraction, 0, 1) * 255)\n"
    )
    (repo / "test_shade.py").write_text(
        "from shade import clamp, to_byte\n\n\n"
        "def test_clamp_inside():\n    assert clamp(5, 0, 10) == 5\n\n\n"
        "def test_clamp_outside():\n    assert clamp(-1, 0, 10) == 0\n    assert clamp(11, 0, 10) == 10\n\n\n"
        "def test_to_byte():\n    assert to_byte(1) == 255\n"
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "shade")
    outcome, backend, events = repair(repo, [], coverage=True, mutants=24, candidates=0)
    assert outcome.fixed and backend.requests == []
    text = (repo / "shade.py").read_text()
    assert "return min(high, max(low, value))" in text
    assert "return round(clamp(fraction, 0, 1) * 255)" in text  # as it was
    # Once clamp's fix makes its tests pass, only to_byte's test fails: the bend is what is left to repair, and it
    # goes (taken back as no longer needed, or undone by the variant that restores it).
    kept = [e.data["unit"] for e in events if e.type == "repair.kept"]
    assert kept[:2] == ["shade.py:5 to_byte", "shade.py:1 clamp"], kept


def test_types_and_builtins_passed_as_values_are_not_shifted_or_swapped() -> None:
    found = changes("    if isinstance(val, (str, bytes)) and kind is int:")
    assert not [line for line in found if "str +" in line or "(int + 1)" in line or "bytes, str" in line], found
    assert "if isinstance(val + 1, (str, bytes)) and kind is int:" in found, found
    assert not [c for c in changes("    return sorted(map(str, items))") if "str + 1" in c or "str - 1" in c]


def test_a_default_value_a_returned_name_and_a_format_width_have_variants() -> None:
    assert 'def slugify(title, sep="-"):' in changes('def slugify(title, sep="_"):')
    assert "def page(items, size=11):" in changes("def page(items, size=10):")
    # A variable that starts at zero may have been meant to start at -1 (nothing found yet); a zero elsewhere not.
    assert "max := -1" in changes("\tmax := 0", "go") and "let best = -1;" in changes("  let best = 0;", "javascript")
    assert not [line for line in changes("    x = f(0)") + changes("    return 0") if "-1" in line]
    # A variable started at a number other than 0 may have been meant to start at nothing (`t := 42` for the most
    # repeats seen); a number elsewhere keeps its place.
    assert "t := 0" in changes("\tt := 42", "go") and "limit = 0" in changes("    limit = 7")
    assert "x = f(0)" not in changes("    x = f(42)") and "return 0" not in changes("    return 42")
    # A sum bracketed as a whole value lost what the brackets were for: a halving (a midpoint, a half-perimeter).
    assert "s := (a + b + c) / 2" in changes("\ts := (a + b + c)", "go")
    assert {"mid = (lo + hi) / 2", "mid = (lo + hi) // 2"} <= set(changes("    mid = (lo + hi)"))
    assert not [c for c in changes("    total = (a + b) * 3") + changes("    mid = lo + hi") if "/ 2" in c]
    # Only the values after `=`: the names of the signature stay.
    assert all(line.startswith("def slugify(title, sep=") for line in changes('def slugify(title, sep="_"):'))
    assert 'return f"{metres / 1000:.1f} km"' in changes('    return f"{metres / 1000:.0f} km"')
    assert 'return fmt.Sprintf("%02d:%02d", h, m)' in changes('\treturn fmt.Sprintf("%d:%02d", h, m)', "go")
    assert [m.formats for m in line_mutants('    return f"{x:.0f}"', "python")] == [True]
    gcd = "func GCD(a, b int) int {\n\tfor b != 0 {\n\t\ta, b = b, a%b\n\t}\n\treturn b\n}"
    names = unit_names(gcd, "go")
    assert set(names) == {"a", "b"}
    # Go's words that open a statement are no names.
    sign = "func Sign(n int) int {\n\tswitch {\n\tcase n < 0:\n\t\treturn -1\n\t}\n\treturn n\n}"
    assert set(unit_names(sign, "go")) == {"n"}
    returned = replaced_names("\treturn b", "go", names)
    assert [(m.line, m.tier) for m in returned] == [("\treturn a", 3)]
    twice = [m.line for m in replaced_names("\treturn h*60 + h, nil", "go", ["h", "m"]) if m.tier == 3]
    assert "\treturn h*60 + m, nil" in twice


def test_a_method_that_changes_its_object_in_place_is_also_called_on_the_units_other_names() -> None:
    receivers = [m.line for m in replaced_names("    odds.sort()", "python", ["evens", "odds", "ans"])]
    assert receivers == ["    evens.sort()", "    ans.sort()"]
    js = replaced_names("  l.sort((a, b) => (a - b));", "javascript", ["even", "l"])
    assert ("  even.sort((a, b) => (a - b));", "`l.sort` → `even.sort`") in [(m.line, m.change) for m in js]
    # Only a call that is the whole line: a value taken from a call (`x = items.pop()`) is not changed in place.
    assert replaced_names("    x = items.pop()", "python", ["tail", "items"]) == []
    assert not [m for m in replaced_names("    math.floor(x)", "python", ["x", "y"]) if "floor" in m.change]


SORT_TAIL = (
    'def sort_tail(items):\n    """The first item, then the others sorted."""\n    head = items[:1]\n'
    "    tail = items[1:]\n    head.sort()\n    return head + tail\n"
)


def test_a_list_sorted_in_place_where_another_was_meant_is_fixed_in_python_and_javascript(repo: Path) -> None:
    test = "from tail import sort_tail\n\n\ndef test_sort_tail():\n    assert sort_tail([3, 2, 1]) == [3, 1, 2]\n"
    commit_files(repo, {"tail.py": SORT_TAIL, "test_tail.py": test})
    outcome, backend, _events = repair(repo, [], coverage=True, mutants=200, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    assert "    tail.sort()\n" in (repo / "tail.py").read_text()
    if shutil.which("node") is None:
        return
    js = (
        "function sortTail(items) {\n  const head = items.slice(0, 1);\n  const tail = items.slice(1);\n"
        "  head.sort((a, b) => a - b);\n  return head.concat(tail);\n}\n\nmodule.exports = { sortTail };\n"
    )
    (repo / "tail.py").unlink()
    (repo / "test_tail.py").unlink()
    (repo / "tail.js").write_text(js)
    (repo / "tail.test.js").write_text(
        node_test("tail", "sortTail", "assert.deepEqual(sortTail([3, 2, 1]), [3, 1, 2]);")
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "javascript")
    outcome, backend, _events = repair(repo, [], command="node --test", mutants=200, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    assert "  tail.sort((a, b) => a - b);\n" in (repo / "tail.js").read_text()


def test_a_slices_step_javascripts_or_and_an_append_each_have_their_twin() -> None:
    assert 'return " ".join(words[::-1])' in changes('    return " ".join(words[::1])')
    assert "return text[::1]" in changes("    return text[::-1]")
    assert not [line for line in changes("    return text[1:2]") if "-1]" in line or "[-" in line]
    assert "return config.port ?? 8080;" in changes("  return config.port || 8080;", "javascript")
    # A list added whole where its items were meant, and the other way.
    assert "result.extend(flatten(item))" in changes("        result.append(flatten(item))")
    assert "parts.append(piece)" in changes("    parts.extend(piece)")
    # Go's `append` is no method and has no such twin.
    assert not [line for line in changes("\tout = append(out, x)", "go") if "extend" in line]


def test_a_function_that_returns_the_wrong_variable_is_fixed_by_a_variant(repo: Path) -> None:
    commit_files(repo, {
        "gcd.py": "def gcd(a, b):\n    while b:\n        a, b = b, a % b\n    return b\n",
        "test_gcd.py": "from gcd import gcd\n\n\ndef test_gcd():\n    assert gcd(12, 18) == 6\n",
    })  # fmt: skip
    outcome, backend, events = repair(repo, [], coverage=True, mutants=24, candidates=0)
    assert outcome.fixed and backend.requests == []
    assert "    return a\n" in (repo / "gcd.py").read_text()


def test_a_wrong_default_separator_is_fixed_when_the_failure_shows_it(repo: Path) -> None:
    commit_files(repo, {
        "slug.py": 'def slugify(title, sep="_"):\n    return sep.join(title.lower().split())\n',
        "test_slug.py": 'from slug import slugify\n\n\ndef test_slugify():\n'
                        '    assert slugify("Hello World") == "hello-world"\n',
    })  # fmt: skip
    outcome, backend, _events = repair(repo, [], coverage=True, mutants=24, candidates=0)
    assert outcome.fixed and backend.requests == []
    assert 'def slugify(title, sep="-"):' in (repo / "slug.py").read_text()


def test_two_slips_that_each_bring_the_value_nearer_are_tried_together_at_once(repo: Path) -> None:
    # Either fix alone leaves both tests failing (mean([5]) divides by zero, or is 6), but each brings
    # mean([2, 4, 6]) nearer 4 (6.5 → 6, or 6.5 → 4.33): the two are tried together as soon as both are known.
    commit_files(repo, {
        "stats.py": "def total(xs):\n    return sum(xs) + 1\n\n\ndef mean(xs):\n    return total(xs) / (len(xs) - 1)\n",
        "test_stats.py": "from stats import mean\n\n\ndef test_mean():\n    assert mean([2, 4, 6]) == 4\n\n\n"
                         "def test_mean_of_one():\n    assert mean([5]) == 5\n",
    })  # fmt: skip
    outcome, backend, events = repair(repo, [], coverage=True, mutants=40, candidates=0)
    assert outcome.fixed and backend.requests == []
    module: dict[str, Any] = {}
    exec((repo / "stats.py").read_text(), module)  # noqa: S102 (the repaired file, run to see what it computes)
    assert module["mean"]([2, 4, 6]) == 4 and module["mean"]([1, 2]) == 1.5
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert fixed[0]["question"] == "pair"
    # Tried during the search, as soon as its second half was tested, not among the pairs tried once all of the
    # two functions' variants (dozens) had failed; no pair was kept for a value that merely moved.
    tried = [e.data for e in events if e.type == "repair.candidate"]
    assert len([data for data in tried if data["question"] == "mutation"]) < 10
    assert not [e for e in events if e.type == "repair.kept"]


def test_a_change_that_failed_before_another_was_kept_is_tried_again_after_it(repo: Path) -> None:
    # `- 1` dropped in mean() fails while total() adds 1; once total()'s own fix is kept (its test passes), the
    # same change to mean() is what fixes the rest, and it is tried again rather than skipped as a duplicate.
    commit_files(repo, {
        "stats.py": "def total(xs):\n    return sum(xs) + 1\n\n\ndef mean(xs):\n    return total(xs) / (len(xs) - 1)\n",
        "test_stats.py": "from stats import mean, total\n\n\ndef test_mean():\n    assert mean([2, 4, 6]) == 4\n\n\n"
                         "def test_total():\n    assert total([1, 2]) == 3\n",
    })  # fmt: skip
    outcome, _backend, events = repair(repo, [], coverage=True, mutants=40, candidates=0)
    assert outcome.fixed
    tried = [e.data for e in events if e.type == "repair.candidate"]
    dropped = [data for data in tried if data.get("change") == "`- 1` dropped"]
    assert [data["status"] for data in dropped][-1] == "fixed", dropped
    assert not [data for data in tried if data["status"] == "duplicate"]


def test_a_function_first_suspected_after_a_kept_change_is_tried_not_taken_for_a_users_edit(repo: Path) -> None:
    # parse() raises before compute() is reached; once parse()'s slip is kept, the failure that remains points at
    # compute() in a file repair had not read yet: it is read then, not mistaken for a file someone changed.
    commit_files(repo, {
        "parse.py": "def parse(text):\n    return int(text[1:])\n",
        "pricing.py": "def compute(n):\n    return n * 3\n",
        "shop.py": "import pricing\nfrom parse import parse\n\n\ndef total(text):\n"
                   "    return pricing.compute(parse(text))\n",
        "test_shop.py": "from parse import parse\nfrom shop import total\n\n\ndef test_parse():\n"
                        "    assert parse('7') == 7\n\n\ndef test_total():\n    assert total('7') == 14\n",
    })  # fmt: skip
    outcome, _backend, events = repair(repo, [], coverage=True, mutants=60, candidates=0)
    tried = [e.data for e in events if e.type == "repair.candidate"]
    assert not [data for data in tried if data["status"] == "stopped"], tried
    assert outcome.fixed and "return n * 2" in (repo / "pricing.py").read_text()


def test_a_kept_change_that_made_one_test_pass_gives_way_to_its_lines_variant_that_passes_both(repo: Path) -> None:
    # `*` → `+` passes the test at a rate of 0 and is kept; the fix, `rate` → `(rate + 1)`, is a variant of the
    # original line, which the variants of the kept line (`cents + rate`) never reach.
    commit_files(repo, {
        "tax.py": "def with_tax(cents, rate):\n    return round(cents * rate)\n",
        "test_tax.py": "from tax import with_tax\n\n\ndef test_no_tax():\n    assert with_tax(350, 0) == 350\n\n\n"
                       "def test_tax():\n    assert with_tax(350, 0.2) == 420\n",
    })  # fmt: skip
    outcome, _backend, events = repair(repo, [], coverage=True, mutants=40, candidates=0)
    kept = [e.data for e in events if e.type == "repair.kept"]
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert kept and kept[0]["n"] < fixed[0]["n"]
    assert outcome.fixed and "round(cents * (rate + 1))" in (repo / "tax.py").read_text()
    assert f"in place of candidate {kept[0]['n']}'s change" in fixed[0]["change"]


def test_two_arguments_of_a_call_in_each_others_place_are_a_variant() -> None:
    changes = {m.line.strip(): m.change for m in line_mutants("        return gcd(a % b, b)", "python")}
    assert changes["return gcd(b, a % b)"] == "arguments `a % b` and `b` swapped"
    # Named and unpacked arguments keep their places; a tuple after a keyword is not a call.
    for line in ("    print(x, sep=y)", "    f(*rest, first)", "    if (a, b) == c:"):
        assert not [m for m in line_mutants(line, "python") if m.change.startswith("arguments")], line


def test_a_recursive_call_with_its_arguments_in_the_wrong_order_is_fixed_by_a_variant(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "gcd.py": "def gcd(a, b):\n    if b == 0:\n        return a\n    else:\n        return gcd(a % b, b)\n",
            "test_gcd.py": (
                "from gcd import gcd\n\n\ndef test_gcd():\n    assert gcd(35, 21) == 7\n\n\n"
                "def test_gcd_zero():\n    assert gcd(17, 0) == 17\n"
            ),
        },
        mutants=24,
    )
    assert "return gcd(b, a % b)" in (repo / "gcd.py").read_text()


def test_a_method_called_on_its_argument_where_the_argument_was_its_receiver_is_a_variant() -> None:
    js = changes("  return strings.filter(x => substring.indexOf(x) != -1);", "javascript")
    assert "return strings.filter(x => x.indexOf(substring) != -1);" in js
    assert "return [s for s in xs if s.startswith(sub)]" in changes("    return [s for s in xs if sub.startswith(s)]")
    # A method whose argument is no kin of its receiver, an attribute's method and an argument that is no plain name
    # are left as they are.
    for line in ("    xs.append(x)", "    return self.sub.startswith(s)", "    return sub.startswith(s.strip())"):
        assert not [c for c in changes(line) if c.startswith(("x.", "s.", "return s."))], line


def test_a_filter_that_asks_the_prefix_whether_it_starts_with_the_word_is_fixed(repo: Path) -> None:
    code = (
        'def with_prefix(words, prefix):\n    """The words that start with `prefix`, in order."""\n'
        "    return [word for word in words if prefix.startswith(word)]\n"
    )
    test = (
        "from words import with_prefix\n\n\ndef test_with_prefix():\n"
        "    assert with_prefix(['abc', 'bcd', 'ab', 'a'], 'ab') == ['abc', 'ab']\n"
    )
    fixed_among_the_first(repo, {"words.py": code, "test_words.py": test}, "`prefix.startswith(word)` →")
    assert "if word.startswith(prefix)]" in (repo / "words.py").read_text()


def test_bitwise_and_augmented_operators_have_their_kin_as_variants() -> None:
    changes = {m.line.strip() for m in line_mutants("        n ^= n - 1", "python")}
    assert {"n &= n - 1", "n |= n - 1"} <= changes  # bitcount: clearing the lowest set bit is `&=`
    assert "total -= x" in {m.line.strip() for m in line_mutants("    total += x", "python")}
    assert not [m for m in line_mutants('    s += "a"', "python") if "-=" in m.line]  # joining text


def test_a_product_where_a_power_was_meant_is_a_variant_where_the_language_has_powers(repo: Path) -> None:
    assert "total += math.ceil(x) ** 2" in changes("        total += math.ceil(x) * 2")
    assert "p += y ** 2;" in changes("    p += y * 2;", "javascript")
    assert "return a * b" in changes("    return a ** b")
    assert not [line for line in changes("\treturn a * b", "go") if "**" in line]
    # Go has none: a square written as a double is the term times itself, a call or a group taken whole.
    assert "squared += int(math.Ceil(i)*math.Ceil(i))" in changes("\t\tsquared += int(math.Ceil(i)*2)", "go")
    assert "return (a + b) * (a + b)" in changes("\treturn (a + b) * 2", "go")
    assert not [
        line for line in changes("\treturn a / b * 2", "go") + changes("\treturn b * 2.5", "go") if line.endswith("* b")
    ]
    # Text or a list repeated is no number to raise: `[v] * n`, `"-" * n`; an item indexed is (`a[i] * 2`).
    assert not [line for line in changes("    out.extend([v] * n)") + changes('    return "-" * n') if "**" in line]
    assert "x = a[i] ** 2" in changes("    x = a[i] * 2")
    code = (
        'def sum_squares(values):\n    """The sum of the squares of the values."""\n    total = 0\n'
        "    for v in values:\n        total += v * 2\n    return total\n"
    )
    test = "from squares import sum_squares\n\n\ndef test_sum_squares():\n    assert sum_squares([1, 2, 3]) == 14\n"
    events = fixed_by_a_variant(repo, {"squares.py": code, "test_squares.py": test})
    assert "        total += v ** 2\n" in (repo / "squares.py").read_text(), statuses(events)


def test_a_base_case_that_returns_an_empty_list_gets_the_units_names_in_it(repo: Path) -> None:
    filled = [m.line for m in replaced_names("    return [];", "javascript", ["n"])]
    assert filled == ["    return [n];", "    return [[]];"]
    fixed_by_a_variant(
        repo,
        {
            "factors.py": (
                "def get_factors(n):\n    if n == 1:\n        return []\n\n    for i in range(2, int(n**0.5) + 1):\n"
                "        if n % i == 0:\n            return [i] + get_factors(n // i)\n\n    return []\n"
            ),
            "test_factors.py": (
                "from factors import get_factors\n\n\ndef test_one():\n    assert get_factors(1) == []\n\n\n"
                "def test_prime():\n    assert get_factors(101) == [101]\n\n\n"
                "def test_composite():\n    assert get_factors(100) == [2, 2, 5, 5]\n"
            ),
        },
    )
    assert (repo / "factors.py").read_text().endswith("    return [n]\n")


def test_a_generator_that_yields_a_call_where_it_meant_the_value_is_fixed_by_a_variant(repo: Path) -> None:
    assert not [m for m in line_mutants("    n = int(x)", "python") if m.change.startswith("`int(x)`")]  # a type
    fixed_by_a_variant(
        repo,
        {
            "flat.py": (
                "def flatten(arr):\n    for x in arr:\n        if isinstance(x, list):\n"
                "            for y in flatten(x):\n                yield y\n        else:\n"
                "            yield flatten(x)\n"
            ),
            "test_flat.py": (
                "from flat import flatten\n\n\n"
                "def test_nested():\n    assert list(flatten([1, [2, [3]]])) == [1, 2, 3]\n\n\n"
                "def test_empty():\n    assert list(flatten([])) == []\n"
            ),
        },
    )
    assert "            yield x\n" in (repo / "flat.py").read_text()


def test_a_called_function_gets_its_twin_and_a_name_that_is_not_called_keeps_its_own() -> None:
    assert "if all(n % p > 0 for p in primes):" in changes("        if any(n % p > 0 for p in primes):")
    assert "return Math.max(lo, x);" in changes("  return Math.min(lo, x);", "javascript")
    assert "if word.endswith(prefix):" in changes("    if word.startswith(prefix):")
    # A pattern matched at the start, where the whole text was meant; a project's own `match()` keeps its name.
    assert "if not INDEX.fullmatch(part):" in changes("    if not INDEX.match(part):")
    assert not [line for line in changes("    return match(a, b)") if "fullmatch" in line]
    # Go's and JavaScript's twins, called as the library's functions or methods.
    assert "check := strings.ToLower(last)" in changes("\tcheck := strings.ToUpper(last)", "go")
    assert "if strings.HasSuffix(s, p) {" in changes("\tif strings.HasPrefix(s, p) {", "go")
    assert "return s.toLowerCase();" in changes("  return s.toUpperCase();", "javascript")
    assert "if (w.endsWith(p)) {" in changes("  if (w.startsWith(p)) {", "javascript")
    # A function of the project's own that shares a twin's name is no library call: it keeps its name.
    assert not [line for line in changes("	return Max(a, b)", "go") if "Min" in line]
    # `max` as a parameter's name is a value, not the built-in: no `min` takes its place.
    assert not [line for line in changes("    for n in range(2, max + 1):") if "min" in line]


def test_a_sieve_that_asks_any_where_it_meant_all_is_fixed_by_a_variant(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "sieve.py": (
                "def sieve(max):\n    primes = []\n    for n in range(2, max + 1):\n"
                "        if any(n % p > 0 for p in primes):\n            primes.append(n)\n    return primes\n"
            ),
            "test_sieve.py": (
                "from sieve import sieve\n\n\ndef test_one():\n    assert sieve(1) == []\n\n\n"
                "def test_ten():\n    assert sieve(10) == [2, 3, 5, 7]\n"
            ),
        },
    )
    assert "if all(n % p > 0 for p in primes):" in (repo / "sieve.py").read_text()


def test_text_built_at_the_wrong_end_gets_its_operands_swapped() -> None:
    assert "result = alphabet[i] + result" in changes("        result = result + alphabet[i]")
    assert "out = String(d) + out;" in changes("  out = out + String(d);", "javascript")
    # An operand that is not one term keeps its place.
    assert "x = a if a else b + x" not in changes("    x = x + a if a else b")


def test_digits_written_last_to_first_are_fixed_by_a_variant(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "to_base.py": (
                "import string\n\n\ndef to_base(num, b):\n    result = ''\n"
                "    alphabet = string.digits + string.ascii_uppercase\n    while num > 0:\n        i = num % b\n"
                "        num = num // b\n        result = result + alphabet[i]\n    return result\n"
            ),
            "test_to_base.py": (
                "from to_base import to_base\n\n\ndef test_one_digit():\n    assert to_base(7, 2) == '111'\n\n\n"
                "def test_hex():\n    assert to_base(31, 16) == '1F'\n"
            ),
        },
        mutants=60,
    )
    assert "result = alphabet[i] + result" in (repo / "to_base.py").read_text()


def test_words_the_failure_shows_differing_by_case_alone_are_lower_cased_first(repo: Path) -> None:
    events = fixed_by_a_variant(
        repo,
        {
            "words.py": (
                "import string\n\n\ndef words(text):\n    found = []\n    for raw in text.split():\n"
                "        word = raw.strip(string.punctuation)\n        if word:\n            found.append(word)\n"
                "    return found\n"
            ),
            "top.py": (
                "from collections import Counter\n\nfrom words import words\n\n\ndef top_words(text, n):\n"
                "    return Counter(words(text)).most_common(n)\n"
            ),
            "test_top.py": (
                "from top import top_words\n\n\ndef test_top_word_ignores_case():\n"
                "    assert top_words('The cat saw the dog. The end.', 1) == [('the', 3)]\n"
            ),
        },
        mutants=12,
    )
    assert "word = raw.strip(string.punctuation).lower()" in (repo / "words.py").read_text()
    tried = [e.data["change"] for e in events if e.type == "repair.candidate" and e.data.get("change")]
    assert "lower case" in tried[0]


def test_a_length_off_by_one_a_count_too_many_and_indices_swapped_are_variants() -> None:
    assert "return [1] + (len(digits) - 1) * [0] + [1]" in changes("    return [1] + (len(digits)) * [0] + [1]")
    assert "while (i < (xs.length - 1)) {" in changes("  while (i < xs.length) {", "javascript")
    # A bound already moved by a number has the number's variants; the length's own would repeat them.
    assert not [c for c in changes("    for i in range(len(xs) + 1):") if "((len(xs)" in c]
    assert "return f(rest[1:])" in changes("    return 1 + f(rest[1:])")
    assert not [c for c in changes("    return n * 1 + f(x)") if "dropped" in c]  # `n * 1` binds tighter
    swapped = "d[i, j] = min(d[i, j], d[i, k] + d[k, j])"
    assert swapped in changes("    d[i, j] = min(d[i, j], d[i, k] + d[j, k])")
    assert not [c for c in changes("    return xs[1:]") if "indices" in c]  # a slice is one index
    assert not [m for m in line_mutants("    pair = [a, b]", "python") if "indices" in m.change]  # a list


def test_a_loops_own_names_are_never_changed() -> None:
    # `for (i + 1) in` is no code, and `for j in` leaves the body reading a name the loop no longer binds.
    for line in ("    for i in range(1, n):", "    return [x for x in xs if x > 0]", "  for (const x of xs) {"):
        loops = [c for c in changes(line, "javascript" if "const" in line else "python") if "for" in c]
        assert loops and all(("for i in" in c) or ("for x in" in c) or ("const x of" in c) for c in loops), loops


def test_an_attribute_slip_and_an_endless_loop_are_fixed_by_variants(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "order.py": (
                "class Node:\n    def __init__(self, name, incoming=(), outgoing=()):\n        self.name = name\n"
                "        self.incoming = list(incoming)\n        self.outgoing = list(outgoing)\n\n\n"
                "def ready(done, node):\n    return set(done).issuperset(node.outgoing)\n"
            ),
            "test_order.py": (
                "from order import Node, ready\n\n\ndef test_ready():\n"
                "    assert ready(['a'], Node('b', incoming=['a'], outgoing=['c']))\n\n\n"
                "def test_waiting():\n    assert not ready([], Node('b', incoming=['a']))\n\n\n"
                "def test_node():\n    node = Node('b', incoming=['a'], outgoing=['c'])\n"
                "    assert (node.name, node.incoming, node.outgoing) == ('b', ['a'], ['c'])\n"
            ),
        },
    )
    assert "issuperset(node.incoming)" in (repo / "order.py").read_text()


def test_a_loop_that_never_ends_runs_while_its_worklist_holds_something(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "drain.py": (
                "def drain(items):\n    queue = list(items)\n    seen = []\n    while True:\n"
                "        seen.append(queue.pop())\n    return seen\n"
            ),
            "test_drain.py": (
                "from drain import drain\n\n\ndef test_drain():\n    assert drain([1, 2]) == [2, 1]\n\n\n"
                "def test_empty():\n    assert drain([]) == []\n"
            ),
        },
    )
    assert "while queue:" in (repo / "drain.py").read_text()


def test_a_wrong_number_in_a_table_the_function_reads_is_fixed_by_a_variant(repo: Path) -> None:
    events = fixed_by_a_variant(
        repo,
        {
            "duration.py": (
                '"""Durations such as "2 h"."""\n\nSECONDS = {"s": 1, "m": 60, "h": 360}\n\n\n'
                "def to_seconds(text):\n    number, unit = text.split()\n    return int(number) * SECONDS[unit]\n"
            ),
            "test_duration.py": (
                "from duration import to_seconds\n\n\ndef test_hours():\n    assert to_seconds('2 h') == 7200\n\n\n"
                "def test_minutes():\n    assert to_seconds('3 m') == 180\n"
            ),
        },
    )
    assert '"h": 3600}' in (repo / "duration.py").read_text()
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] in ("fixed", "plausible")]
    assert fixed[0]["unit"].endswith("SECONDS") and fixed[0]["line"] == 3


def test_pairs_are_tried_while_the_model_writes_once_the_variants_are_spent(repo: Path) -> None:
    # Two slips, each a variant: the table's 100 for 1000, and the format's `.0f` for `.1f`. Neither fixes a test
    # alone, so only a pair can; it must not wait until the model has written all its answers.
    def slow_and_wrong(_messages: Any, _tools: Any) -> str:
        time.sleep(0.5)
        return "```python\npass\n```"

    commit_files(
        repo,
        {
            "distance.py": (
                'UNITS = {"km": 100, "m": 1}\n\n\ndef parse_distance(text):\n    number, unit = text.split()\n'
                "    return float(number) * UNITS[unit]\n\n\ndef format_km(metres):\n"
                '    return f"{metres / 1000:.0f} km"\n\n\ndef trip_total(legs):\n'
                "    return format_km(sum(parse_distance(leg) for leg in legs))\n"
            ),
            "test_distance.py": (
                "from distance import trip_total\n\n\ndef test_trip():\n"
                "    assert trip_total(['2 km', '500 m']) == '2.5 km'\n"
            ),
        },
    )
    backend = ScriptedBackend(slow_and_wrong)
    outcome, _, events = repair(repo, [], coverage=True, mutants=60, candidates=40, backend=backend)
    assert outcome.fixed, outcome.summary
    text = (repo / "distance.py").read_text()
    assert '"km": 1000' in text and ":.1f}" in text
    assert [e.data["question"] for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"] == [
        "pair"
    ]
    assert len(backend.requests) < 40  # found while the model was still being asked


def test_a_method_called_on_its_class_is_called_on_the_instance_the_function_checked(repo: Path) -> None:
    # `timedelta.total_seconds()` raises "unbound method … needs an argument": the failure names the class, and the
    # variable the function compared with it (`isinstance(period, timedelta)`) is the instance meant, tried first.
    events = fixed_by_a_variant(
        repo,
        {
            "throttle.py": (
                "from datetime import timedelta\n\n\ndef seconds(period, scale=1):\n"
                "    if isinstance(period, timedelta):\n        period = timedelta.total_seconds()\n"
                "    return period * scale\n"
            ),
            "test_throttle.py": (
                "from datetime import timedelta\n\nfrom throttle import seconds\n\n\n"
                "def test_timedelta():\n    assert seconds(timedelta(minutes=1)) == 60\n\n\n"
                "def test_number():\n    assert seconds(5, 2) == 10\n"
            ),
        },
    )
    assert "period = period.total_seconds()" in (repo / "throttle.py").read_text()
    tried = [e.data for e in events if e.type == "repair.candidate"]
    assert len(tried) <= 3 and "an instance for the class" in tried[-1]["change"], tried


def test_a_negation_is_dropped_or_added_where_a_condition_stands() -> None:
    assert "if seen:" in changes("    if not seen:")
    assert "if x in xs:" in changes("    if x not in xs:") and "if x is None:" in changes("    if x is not None:")
    assert "if not seen:" in changes("    if seen:") and "elif not ok(x):" in changes("    elif ok(x):")
    assert "if x is not None:" in changes("    if x is None:")
    assert "if not (a in b or c):" in changes("    if a in b or c:")
    assert "return done;" in changes("  return !done;", "javascript")
    assert "if (!(a && b)) {" in changes("  if (a && b) {", "javascript")
    assert "if !ok {" in changes("\tif ok {", "go")
    # Braces inside a Go condition are a composite literal's; a condition after a statement is left alone.
    assert "if !bytes.Contains(vowels, []byte{c}) {" in changes("\tif bytes.Contains(vowels, []byte{c}) {", "go")
    assert not [c for c in changes("\tif n := f(); n > 0 {", "go") if "!" in c]
    # A comparison is negated by its opposite operator, which its own variants try; `!=` is no negation to drop.
    assert not [c for c in changes("    if lo < hi:") if "not" in c]
    assert not [c for c in changes("  if (a != b) {", "javascript") if "!(" in c or "a  b" in c]


def test_a_condition_that_should_have_been_negated_is_fixed_by_a_variant(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "unique.py": (
                "def unique(items):\n    seen = set()\n    kept = []\n    for item in items:\n"
                "        if item in seen:\n            kept.append(item)\n        seen.add(item)\n    return kept\n"
            ),
            "test_unique.py": (
                "from unique import unique\n\n\ndef test_unique():\n    assert unique([1, 2, 1, 3]) == [1, 2, 3]\n\n\n"
                "def test_empty():\n    assert unique([]) == []\n"
            ),
        },
    )
    assert "if item not in seen:" in (repo / "unique.py").read_text()


def test_a_sequence_walked_whole_where_the_function_slices_a_part_gets_that_part(repo: Path) -> None:
    # A k-heap sort seeds its heap with arr[:k], then must push the rest, arr[k:], not arr again.
    fixed_by_a_variant(
        repo,
        {
            "ksort.py": (
                "import heapq\n\n\ndef ksort(arr, k):\n    heap = arr[:k]\n    heapq.heapify(heap)\n    out = []\n"
                "    for x in arr:\n        out.append(heapq.heappushpop(heap, x))\n"
                "    while heap:\n        out.append(heapq.heappop(heap))\n    return out\n"
            ),
            "test_ksort.py": (
                "from ksort import ksort\n\n\n"
                "def test_almost_sorted():\n    assert ksort([3, 2, 1, 5, 4], 2) == [1, 2, 3, 4, 5]\n"
            ),
        },
    )
    assert "    for x in arr[k:]:\n" in (repo / "ksort.py").read_text()


def test_an_argument_passed_whole_beside_one_sliced_gets_the_same_slice(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "lcs.py": (
                "def lcs(a, b):\n    if not a or not b:\n        return ''\n    elif a[0] == b[0]:\n"
                "        return a[0] + lcs(a[1:], b)\n    else:\n"
                "        return max(lcs(a, b[1:]), lcs(a[1:], b), key=len)\n"
            ),
            "test_lcs.py": (
                "from lcs import lcs\n\n\ndef test_lcs():\n    assert lcs('headache', 'pentadactyl') == 'eadac'\n"
                "    assert lcs('aa', 'a') == 'a'\n    assert lcs('a', 'aa') == 'a'\n"
            ),
        },
    )
    assert "return a[0] + lcs(a[1:], b[1:])" in (repo / "lcs.py").read_text()


def test_a_base_case_that_stops_only_at_nothing_is_widened_to_one_item() -> None:
    assert "if len(arr) <= 1:" in changes("    if len(arr) == 0:")
    assert "if (xs.length <= 1) {" in changes("    if (xs.length === 0) {", "javascript")
    assert not [line for line in changes("    if n == 0:") if "<= 1" in line]  # a number, not a length


def test_a_variable_a_loop_reads_and_never_moves_on_is_set_in_it(repo: Path) -> None:
    # A list's reversal returns a `prev` it never moves on: `prev = node` belongs in the loop.
    fixed_by_a_variant(
        repo,
        {
            "links.py": (
                "class Node:\n    def __init__(self, value, after=None):\n        self.value = value\n"
                "        self.after = after\n\n\n"
                "def reverse(node):\n    prev = None\n    while node:\n        nxt = node.after\n"
                "        node.after = prev\n        node = nxt\n    return prev\n"
            ),
            "test_links.py": (
                "from links import Node, reverse\n\n\ndef values(node):\n    out = []\n    while node:\n"
                "        out.append(node.value)\n        node = node.after\n    return out\n\n\n"
                "def test_reverse():\n    assert values(reverse(Node(1, Node(2, Node(3))))) == [3, 2, 1]\n"
            ),
        },
    )
    assert "        node.after = prev\n        prev = node\n" in (repo / "links.py").read_text()


def test_the_piece_a_loop_leaves_when_it_ends_is_appended_after_it(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "wrap.py": (
                "def wrap(text, cols):\n    lines = []\n    while len(text) > cols:\n"
                "        end = text.rfind(' ', 0, cols + 1)\n        if end == -1:\n            end = cols\n"
                "        line, text = text[:end], text[end:]\n        lines.append(line)\n    return lines\n"
            ),
            "test_wrap.py": (
                "from wrap import wrap\n\n\ndef test_wrap():\n"
                "    assert wrap('aaa bbb ccc', 4) == ['aaa', ' bbb', ' ccc']\n"
            ),
        },
        mutants=200,
    )
    assert "        lines.append(line)\n    lines.append(text)\n    return lines\n" in (repo / "wrap.py").read_text()


def test_the_last_item_a_loop_over_all_but_the_last_leaves_out_is_appended_after_it() -> None:
    text = (
        "def intersperse(numbers, mark):\n    result = []\n    for n in numbers[:-1]:\n"
        "        result.append(n)\n        result.append(mark)\n    return result\n"
    )
    unit = Unit("marks.py", "intersperse", "intersperse", "python", 1, 6, text)
    added = {change: new for _, new, change in loop_additions(unit)}
    assert added["`result.append(numbers[-1])` added after the loop"].endswith("\n    result.append(numbers[-1])")
    counted = "def f(xs):\n    out = []\n    for i in range(len(xs) - 1):\n        out.append(xs[i])\n    return out\n"
    changes = [change for _, _, change in loop_additions(Unit("f.py", "f", "f", "python", 1, 5, counted))]
    assert "`out.append(xs[-1])` added after the loop" in changes


def test_a_stack_the_loop_only_pops_gets_the_push_it_misses(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "rpn.py": (
                "PRECEDENCE = {'+': 1, '-': 1, '*': 2, '/': 2}\n\n\n"
                "def to_rpn(tokens):\n    out = []\n    ops = []\n    for token in tokens:\n"
                "        if isinstance(token, int):\n            out.append(token)\n        else:\n"
                "            while ops and PRECEDENCE[token] <= PRECEDENCE[ops[-1]]:\n"
                "                out.append(ops.pop())\n"
                "    while ops:\n        out.append(ops.pop())\n    return out\n"
            ),
            "test_rpn.py": (
                "from rpn import to_rpn\n\n\ndef test_rpn():\n"
                "    assert to_rpn([3, '+', 4, '*', 2]) == [3, 4, 2, '*', '+']\n"
            ),
        },
        mutants=200,
    )
    assert "                out.append(ops.pop())\n            ops.append(token)\n" in (repo / "rpn.py").read_text()


def test_a_plain_return_true_after_a_loop_that_counts_checks_the_count(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "parens.py": (
                "def balanced(text):\n    depth = 0\n    for char in text:\n        if char == '(':\n"
                "            depth += 1\n        else:\n            depth -= 1\n            if depth < 0:\n"
                "                return False\n    return True\n"
            ),
            "test_parens.py": (
                "from parens import balanced\n\n\ndef test_balanced():\n    assert balanced('(())')\n"
                "    assert not balanced('(()')\n    assert not balanced(')(')\n"
            ),
        },
        mutants=200,
    )
    assert (repo / "parens.py").read_text().endswith("    return depth == 0\n")


def test_a_table_a_loop_fills_by_item_is_not_taken_for_a_value_it_never_moves_on() -> None:
    text = (
        "def lcs_length(s, t):\n    dp = Counter()\n    for i in range(len(s)):\n        for j in range(len(t)):\n"
        "            if s[i] == t[j]:\n                dp[i, j] = dp[i - 1, j] + 1\n"
        "    return max(dp.values()) if dp else 0\n"
    )
    unit = Unit("lcs.py", "lcs_length", "lcs_length", "python", 1, 7, text)
    assert not [added for _, _, added in loop_additions(unit) if added.startswith("`dp =")]


def test_items_built_from_a_list_and_returned_without_it_get_the_list_added(repo: Path) -> None:
    assert "return rest + [[first] + s for s in rest]" in changes("    return [[first] + s for s in rest]")
    assert not [c for c in changes("    return [x * 2 for x in xs]", "javascript") if c.startswith("return xs +")]
    fixed_by_a_variant(
        repo,
        {
            "subsets.py": (
                "def powerset(arr):\n    if arr:\n        first, *rest = arr\n"
                "        rest_subsets = powerset(rest)\n        return [[first] + subset for subset in rest_subsets]\n"
                "    else:\n        return [[]]\n"
            ),
            "test_subsets.py": (
                "from subsets import powerset\n\n\ndef test_powerset():\n"
                "    assert powerset(['a', 'b']) == [[], ['b'], ['a'], ['a', 'b']]\n"
            ),
        },
        mutants=200,
    )
    assert "return rest_subsets + [[first] + subset for subset in rest_subsets]" in (repo / "subsets.py").read_text()


def test_a_best_so_far_a_loop_overwrites_is_kept_instead(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "lis.py": (
                "def lis(arr):\n    ends = {}\n    longest = 0\n\n    for i, val in enumerate(arr):\n"
                "        prefix_lengths = [j for j in range(1, longest + 1) if arr[ends[j]] < val]\n"
                "        length = max(prefix_lengths) if prefix_lengths else 0\n"
                "        if length == longest or val < arr[ends[length + 1]]:\n"
                "            ends[length + 1] = i\n            longest = length + 1\n\n    return longest\n"
            ),
            "test_lis.py": (
                "from lis import lis\n\n\ndef test_lis():\n    assert lis([4, 1, 5, 3, 7, 6, 2]) == 3\n"
                "    assert lis([10, 22, 9, 33, 21, 50, 41, 60, 80]) == 6\n"
                "    assert lis([7, 10, 9, 2, 3, 8, 1]) == 3\n"
            ),
        },
        mutants=200,
    )
    assert "            longest = max(longest, length + 1)\n" in (repo / "lis.py").read_text()


def test_a_list_unpacked_empty_gets_its_end_in_the_base_case(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "change.py": (
                "def ways(coins, total):\n    if total == 0:\n        return 1\n    if total < 0:\n        return 0\n\n"
                "    first, *rest = coins\n    return ways(coins, total - first) + ways(rest, total)\n"
            ),
            "test_change.py": (
                "from change import ways\n\n\ndef test_ways():\n    assert ways([1, 5, 10, 25], 11) == 4\n"
            ),
        },
        mutants=200,
    )
    assert "    if total < 0 or not coins:\n" in (repo / "change.py").read_text()


def test_a_discount_returned_where_the_discounted_price_was_meant_gets_the_price_less_it(repo: Path) -> None:
    assert "return cents - cents * percent // 100" in changes("    return cents * percent // 100")
    assert "return price + price * rate;  // taxed" in changes("  return price * rate;  // taxed", "javascript")
    fixed_by_a_variant(
        repo,
        {
            "shop.py": "def discounted(cents, percent):\n    return cents * percent // 100\n",
            "test_shop.py": (
                "from shop import discounted\n\n\ndef test_ten_percent():\n    assert discounted(1000, 10) == 900\n\n\n"
                "def test_none():\n    assert discounted(300, 0) == 300\n"
            ),
        },
        mutants=200,
    )
    assert "return cents - cents * percent // 100" in (repo / "shop.py").read_text()


def test_a_number_the_failure_wants_zero_padded_is_padded_where_the_line_formats_it(repo: Path) -> None:
    events = fixed_by_a_variant(
        repo,
        {
            "clock.py": 'def clock(minutes):\n    return f"{minutes // 60}:{minutes % 60}"\n',
            "test_clock.py": "from clock import clock\n\n\ndef test_clock():\n    assert clock(65) == '1:05'\n",
        },
    )
    assert '    return f"{minutes // 60}:{minutes % 60:02d}"\n' in (repo / "clock.py").read_text()
    tried = [e.data for e in events if e.type == "repair.candidate"]
    assert len(tried) <= 2 and "zero-padded" in str(tried[-1]["change"]), tried


def test_a_javascript_template_pads_the_number_the_failure_wants_wider(repo: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    (repo / "duration.js").write_text(
        "function formatDuration(seconds) {\n  const minutes = Math.floor(seconds / 60);\n"
        "  const rest = seconds % 60;\n  return `${minutes}:${rest}`;\n}\n\nmodule.exports = { formatDuration };\n"
    )
    (repo / "duration.test.js").write_text(
        'const test = require("node:test");\nconst assert = require("node:assert/strict");\n'
        'const { formatDuration } = require("./duration");\n\n'
        'test("formatDuration", () => {\n  assert.equal(formatDuration(65), "1:05");\n});\n'
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "duration")
    outcome, backend, _ = repair(repo, [], command="node --test", mutants=8, candidates=0)
    assert outcome.fixed and backend.requests == []
    assert '`${minutes}:${String(rest).padStart(2, "0")}`' in (repo / "duration.js").read_text()


def test_a_variable_stored_and_never_read_takes_the_place_of_a_name_read_twice(repo: Path) -> None:
    # `m` is split out of the text and never read: a linter would say so, and the variants that read it come first.
    events = fixed_by_a_variant(
        repo,
        {
            "clock.py": 'def minutes(text):\n    h, m = text.split(":")\n    return int(h) * 60 + int(h)\n',
            "test_clock.py": "from clock import minutes\n\n\ndef test_minutes():\n    assert minutes('08:30') == 510\n",
        },
    )
    assert "    return int(h) * 60 + int(m)\n" in (repo / "clock.py").read_text()
    assert len([e for e in events if e.type == "repair.candidate"]) <= 2


def test_a_value_computed_again_is_replaced_by_the_variable_that_holds_it(repo: Path) -> None:
    held = ["best", "out", "v"]
    swapped = [m.line.strip() for m in replaced_calls("        out.append(largest(values))", "python", held)]
    # The call's own names and the line's target are not offered; nor is a builtin, a method or a call alone.
    assert swapped == ["out.append(best)", "out.append(out)", "out.append(v)"]
    assert replaced_calls("    total = total + len(items)", "python", ["total", "n"]) == []
    assert replaced_calls("    n = self.count(items) + 1", "python", ["n", "k"]) == []
    assert replaced_calls("    heappush(heap, item)", "python", ["heap", "k"]) == []
    assert [m.line for m in replaced_calls("    n = size(xs) + 1", "python", ["n", "k"])] == ["    n = k + 1"]
    # A conversion to a type is no function of the project: `[]byte(s)`, `float64(n)`.
    assert replaced_calls('\tif bytes.Contains([]byte("aeiou"), b) {', "go", ["out", "k"]) == []
    assert replaced_calls("\tmean := float64(total) / 2", "go", ["out", "k"]) == []
    # Through the real loop: a running maximum that asks a helper for the largest of all instead.
    events = fixed_by_a_variant(
        repo,
        {
            "runmax.py": (
                "def largest(values):\n    return max(values)\n\n\n"
                "def running_max(values):\n    best = None\n    out = []\n    for v in values:\n"
                "        best = v if best is None else max(best, v)\n        out.append(largest(values))\n"
                "    return out\n"
            ),
            "test_runmax.py": (
                "from runmax import running_max\n\n\ndef test_running_max():\n"
                "    assert running_max([1, 3, 2]) == [1, 3, 3]\n"
            ),
        },
    )
    assert "        out.append(best)\n" in (repo / "runmax.py").read_text()
    (fixed,) = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert fixed["change"] == "`largest(values)` → `best`, a value the function holds"


def test_a_running_sum_that_should_start_again_from_zero_is_kept_above_it(repo: Path) -> None:
    assert "best_here = max(0, best_here + x)" in changes("        best_here = best_here + x")
    assert "sum = Math.max(0, sum + v);" in changes("  sum = sum + v;", "javascript")
    assert not [c for c in changes("        total = x + total") if "max(0" in c]
    fixed_by_a_variant(
        repo,
        {
            "runs.py": (
                "def best_run(gains):\n    best_here = 0\n    best = 0\n    for x in gains:\n"
                "        best_here = best_here + x\n        best = max(best, best_here)\n    return best\n"
            ),
            "test_runs.py": (
                "from runs import best_run\n\n\ndef test_best_run():\n    assert best_run([4, -5, 2, 1, -1, 3]) == 5\n"
                "    assert best_run([1, 2]) == 3\n"
            ),
        },
    )
    assert "        best_here = max(0, best_here + x)\n" in (repo / "runs.py").read_text()


def test_a_result_stored_in_the_wrong_place_goes_where_its_value_reads_from(repo: Path) -> None:
    events = fixed_by_a_variant(
        repo,
        {
            "paths.py": (
                "def shortest(source, weight_by_edge):\n"
                "    weight_by_node = {v: float('inf') for u, v in weight_by_edge}\n"
                "    weight_by_node[source] = 0\n"
                "    for i in range(len(weight_by_node) - 1):\n"
                "        for (u, v), weight in weight_by_edge.items():\n"
                "            weight_by_edge[u, v] = min(\n"
                "                weight_by_node[u] + weight,\n"
                "                weight_by_node[v]\n"
                "            )\n"
                "    return weight_by_node\n"
            ),
            "test_paths.py": (
                "from paths import shortest\n\n\ndef test_shortest():\n"
                "    graph = {('A', 'B'): 3, ('A', 'C'): 3, ('C', 'B'): -2}\n"
                "    assert shortest('A', graph) == {'A': 0, 'B': 1, 'C': 3}\n"
            ),
        },
        mutants=80,
    )
    assert "            weight_by_node[v] = min(\n" in (repo / "paths.py").read_text()
    (fixed,) = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert fixed["change"] == "the result stored in `weight_by_node[v]`, not `weight_by_edge[u, v]`"


def test_a_piece_handed_on_empty_is_guarded_where_the_failure_shows_one_empty_item_too_many(repo: Path) -> None:
    # split_after's bug in more-itertools: the rest after the last split is yielded even when nothing is left.
    unit = (
        "def chunks(items, size):\n    buf = []\n    it = iter(items)\n    for item in it:\n        buf.append(item)\n"
        "        if len(buf) == size:\n            yield buf\n            buf = []\n    yield list(it) + buf\n"
    )
    tree = ast.parse(unit)
    guarded = {g.row: g.text for g in empty_piece_guards(unit, tree)}
    # Each value handed on; a computed one once, into a name of its own.
    assert guarded == {
        4: "        if item:\n            buf.append(item)",
        6: "            if buf:\n                yield buf",
        8: "    piece = list(it) + buf\n    if piece:\n        yield piece",
    }
    # None where an `if` already tests the value, nor for a literal.
    assert empty_piece_guards("def f(out):\n    out.append(0)\n    if out:\n        yield out\n", ast.parse(
        "def f(out):\n    out.append(0)\n    if out:\n        yield out\n")) == []  # fmt: skip
    fixed_by_a_variant(
        repo,
        {
            "split.py": (
                "def split_at(items, sep):\n    buf = []\n    it = iter(items)\n    for item in it:\n"
                "        if item == sep:\n            yield buf\n            yield list(it)\n            return\n"
                "        buf.append(item)\n    yield buf\n"
            ),
            "test_split.py": (
                "import unittest\n\nfrom split import split_at\n\n\nclass SplitTest(unittest.TestCase):\n"
                "    def test_split(self):\n        self.assertEqual(list(split_at([1, 0, 2], 0)), [[1], [2]])\n"
                "        self.assertEqual(list(split_at([1, 0], 0)), [[1]])\n"
            ),
        },
        mutants=12,
    )
    fixed = "            piece = list(it)\n            if piece:\n                yield piece\n            return\n"
    assert fixed in (repo / "split.py").read_text()


def test_a_lookup_that_gave_none_where_a_number_was_added_gets_a_default(repo: Path) -> None:
    events = fixed_by_a_variant(
        repo,
        {
            "inventory.py": (
                "def total_stock(stock, names):\n    total = 0\n    for name in names:\n"
                "        total += stock.get(name)\n    return total\n"
            ),
            "test_inventory.py": (
                "from inventory import total_stock\n\n\ndef test_total_stock():\n"
                "    assert total_stock({'apple': 3, 'pear': 2}, ['apple', 'kiwi', 'pear']) == 5\n"
            ),
        },
    )
    assert "total += stock.get(name, 0)" in (repo / "inventory.py").read_text()
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert fixed[0]["n"] <= 3, fixed


def test_a_key_a_lookup_did_not_find_becomes_the_nearest_key_the_failure_shows(repo: Path) -> None:
    events = fixed_by_a_variant(
        repo,
        {
            "users.py": 'def emails(users):\n    return [user["mail"] for user in users]\n',
            "test_users.py": (
                "from users import emails\n\n\ndef test_emails():\n"
                '    assert emails([{"name": "a", "email": "a@x.org"}]) == ["a@x.org"]\n'
            ),
        },
    )
    assert 'user["email"]' in (repo / "users.py").read_text()
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert fixed[0]["n"] == 1 and "the key the failure shows nearest" in fixed[0]["change"], fixed


def test_a_condition_with_its_block_on_its_line_gets_the_variants_of_its_names() -> None:
    # `p = 0` in the block stores into `p` alone: the condition's names are values, swapped and shifted like any.
    found = changes("      if (j % i == 0) { p = 0; break }", "javascript")
    assert "if (i % j == 0) { p = 0; break }" in found
    assert "if ((j + 1) % i == 0) { p = 0; break }" in found
    assert not [change for change in found if change.startswith("if (j % i == 0) { (p")]
    assert "if i % j == 0: p = 0" in changes("    if j % i == 0: p = 0")


def test_an_arrays_join_separator_gets_a_space_more_or_less() -> None:
    assert "return strings.join('');" in changes("  return strings.join(' ');", "javascript")
    assert 'return parts.join(", ");' in changes('  return parts.join(",");', "javascript")
    # Not a string that is one argument of several, nor one that is not what `.join(…)` puts between items.
    assert "return f(' ', x);" not in changes("  return f(' ', x);", "javascript")


def test_a_range_of_letters_is_recased_at_both_ends_at_once() -> None:
    assert "if 'A' <= i && i <= 'Z' {" in changes("        if 'a' <= i && i <= 'z' {", "go")
    assert "return 'a' <= c <= 'z'" in changes("    return 'A' <= c <= 'Z'")
    # One letter, or letters of both cases already: no range to recase.
    for line in ("    if c == 'a':", "    if c == 'a' or c == 'Z':", "    if c == 'a' or c == 'z':"):
        assert not [m for m in line_mutants(line, "python") if "other case" in m.change], line


def test_a_recurrences_term_written_twice_is_made_the_next_one() -> None:
    line = "\t\treturn Fib4(n-1) + Fib4(n-2) + Fib4(n-3) + Fib4(n-2)"
    assert "return Fib4(n-1) + Fib4(n-2) + Fib4(n-3) + Fib4(n-4)" in changes(line, "go")
    assert "return a[i - 2] + a[i - 3] + a[i - 1]" in changes("    return a[i - 2] + a[i - 3] + a[i - 2]")
    # None for two terms, or three distinct ones.
    for line in ("    return f(n-1) + f(n-1)", "    return f(n-1) + f(n-2) + f(n-3)"):
        assert not [m for m in line_mutants(line, "python") if m.change.startswith("`f(") and "→ `f(" in m.change], line


def test_gos_strings_join_separator_gets_a_space_more_or_less() -> None:
    assert 'return strings.Join(strs, " ")' in changes('    return strings.Join(strs, "")', "go")
    assert 'return strings.Join(f(a, b), ", ")' in changes('    return strings.Join(f(a, b), ",")', "go")
    # The last argument of another call, or a text inside a call that Join is given, is no separator.
    assert 'x := foo(strs, " ")' not in changes('    x := foo(strs, "")', "go")
    assert 'return strings.Join(g(x, " "), ",")' not in changes('    return strings.Join(g(x, ""), ",")', "go")


def test_a_comparison_is_also_turned_over_whole_after_its_neighbours() -> None:
    tiers = {m.line.strip(): m.tier for m in line_mutants("  if (l1 <= l2)", "javascript")}
    assert tiers["if (l1 > l2)"] == 2 and tiers["if (l1 < l2)"] == 1
    assert "if a < b:" in changes("    if a >= b:")


def test_a_length_is_replaced_by_the_name_the_unit_never_reads() -> None:
    found = {m.line.strip(): m.change for m in replaced_names("    for i in range(len(xs)):", "python", ["k", "xs"])}
    assert found["for i in range(k):"] == "`len(xs)` → `k`"
    assert "for i in range(xs):" not in found  # the name the length counts is not its own length
    js = [m.line.strip() for m in replaced_names("  for (let i = 0; i < arr.length; i++) {", "javascript", ["k"])]
    assert "for (let i = 0; i < k; i++) {" in js


def test_a_sum_over_the_whole_list_where_its_first_k_items_were_meant_is_fixed_by_variants(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "head.py": (
                "def head_total(xs, k):\n"
                '    """The sum of the first k items of xs."""\n'
                "    total = 0\n    for i in range(len(xs)):\n        total += xs[i]\n    return total\n"
            ),
            "test_head.py": (
                "from head import head_total\n\n\ndef test_head_total():\n"
                "    assert head_total([1, 2, 3, 4], 2) == 3\n    assert head_total([5, 1, 1], 1) == 5\n"
            ),
        },
        mutants=200,
    )
    assert "for i in range(k):" in (repo / "head.py").read_text()


def test_a_sequence_walked_whole_beside_a_count_never_read_is_cut_to_that_count(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "small.py": (
                "def small_total(arr, k):\n"
                '    """The sum of the items of at most two digits among the first k items of arr."""\n'
                "    return sum(x for x in arr if abs(x) < 100)\n"
            ),
            "test_small.py": (
                "from small import small_total\n\n\ndef test_small_total():\n"
                "    assert small_total([111, 21, 3, 4000, 5, 6], 4) == 24\n"
            ),
        },
    )
    assert "return sum(x for x in arr[:k] if abs(x) < 100)" in (repo / "small.py").read_text()


def test_a_go_range_over_a_whole_slice_beside_a_count_never_read_is_cut_to_that_count(repo: Path) -> None:
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    _go_module(
        repo,
        "small",
        "package small\n\n// SmallTotal sums the items of at most two digits among the first k items of arr.\n"
        "func SmallTotal(arr []int, k int) int {\n\tsum := 0\n\tfor _, x := range arr {\n"
        "\t\tif x > -100 && x < 100 {\n\t\t\tsum += x\n\t\t}\n\t}\n\treturn sum\n}\n",
        'package small\n\nimport "testing"\n\nfunc TestSmallTotal(t *testing.T) {\n'
        "\tif got := SmallTotal([]int{111, 21, 3, 4000, 5, 6}, 4); got != 24 {\n"
        '\t\tt.Errorf("SmallTotal = %d, want 24", got)\n\t}\n}\n',
    )
    outcome, backend, _ = repair(repo, [], command="go test ./...", mutants=24, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    assert "\tfor _, x := range arr[:k] {" in (repo / "small.go").read_text()


def test_two_names_compared_whole_are_also_compared_as_their_items() -> None:
    found = {m.line.strip(): m.tier for m in line_mutants("    return s0 == s1", "python")}
    assert found["return set(s0) == set(s1)"] == 4 and found["return sorted(s0) == sorted(s1)"] == 4
    assert not [line for line in changes("    if node.left == other:") if "set(" in line]
    assert not [line for line in changes("  return a === b;", "javascript") if "set(" in line]


def test_a_helper_no_unittest_traceback_reaches_is_repaired_through_its_coverage(repo: Path) -> None:
    # The failing test calls `total`, the slip is two calls below it, and a failed assertEqual names no frame of
    # either: only the coverage of Python's own runner, test by test, leads repair there.
    files = {
        "rates.py": "def discount(amount):\n    if amount > 100:\n        return 0.1\n    return 0.0\n",
        "pricing.py": "from rates import discount\n\n\ndef net(amount):\n    return amount * (1 - discount(amount))\n",
        "app.py": "from pricing import net\n\n\ndef total(items):\n    return round(sum(net(p) for p in items), 2)\n",
        "test_app.py": (
            "import unittest\n\nfrom app import total\n\n\nclass TotalTests(unittest.TestCase):\n"
            "    def test_small(self):\n        self.assertEqual(total([10]), 10.0)\n\n"
            "    def test_large(self):\n        self.assertEqual(total([200]), 180.0)\n\n"
            "    def test_from_a_hundred(self):\n        self.assertEqual(total([100]), 90.0)\n"
        ),
    }
    command = f"{sys.executable} -m unittest -v test_app.TotalTests.test_from_a_hundred"
    events = fixed_by_a_variant(repo, files, command=command)
    spectrum = [event.data for event in events if event.type == "repair.spectrum"]
    assert spectrum and spectrum[0]["passing"] == 2, spectrum
    assert "if amount >= 100:" in (repo / "rates.py").read_text()


def test_an_index_pattern_matched_only_at_its_start_is_matched_whole_by_a_variant(repo: Path) -> None:
    fixed_among_the_first(
        repo,
        {
            "pointer.py": (
                "import re\n\nINDEX = re.compile('0|[1-9][0-9]*')\n\n\ndef index(part):\n"
                "    if not INDEX.match(part):\n        raise ValueError(part)\n    return int(part)\n"
            ),
            "test_pointer.py": (
                "import pytest\n\nfrom pointer import index\n\n\ndef test_index():\n    assert index('10') == 10\n\n\n"
                "def test_a_leading_zero_is_no_index():\n    with pytest.raises(ValueError):\n        index('01')\n"
            ),
        },
        "`match` → `fullmatch`",
    )


def test_an_item_is_taken_from_or_put_at_the_other_end_of_a_list() -> None:
    changes = {m.line: m.change for m in line_mutants("        return self.items.pop()", "python")}
    assert changes["        return self.items.pop(0)"] == "`pop()` → `pop(0)`, the other end"
    assert "`pop(0)` → `pop()`, the other end" in [m.change for m in line_mutants("x = q.pop(0)", "python")]
    assert not [m for m in line_mutants("x = d.pop(key)", "python") if "other end" in m.change]
    shifted = [m.line for m in line_mutants("  queue.push(job);", "javascript") if "other end" in m.change]
    assert shifted == ["  queue.unshift(job);"]


def test_a_true_division_becomes_a_floor_division_in_python_alone() -> None:
    # `mid = (lo + hi) / 2` indexes a list with a float: 79 candidates went by without `//`, and `/ 2` dropped was kept.
    assert "        mid = (lo + hi) // 2" in [m.line for m in line_mutants("        mid = (lo + hi) / 2", "python")]
    assert not [m for m in line_mutants("  mid = (lo + hi) / 2;", "javascript") if "//" in m.line]
