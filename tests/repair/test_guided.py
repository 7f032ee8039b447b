"""Repair guided by the failure and checked beyond the visible tests, through the real CLI (`pedro debug`) against a
stub server: the failure picks the variants, plausible candidates are compared on probes, and what the kept fix
changes beyond the tests is named at the end of the job, in `jobs show`, the JSON and the commit."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro
from repo_util import PYTEST, commit_files, git, node_test

NOTHING = "I am not sure what is wrong here."
REPORT = (
    "def write_report(rows, output):\n"
    '    """Write one line per row to output and say how many were written.\n\n'
    '    This is useful for play by play logs.\n    """\n'
    "    # The file is replaced, never appended to.\n"
    '    with open(output_path, "w") as handle:\n'
    "        for row in rows:\n"
    '            handle.write(f"{row}\\n")\n'
    "    return len(rows)\n"
)
# Not pytest's tmp_path: this repository lies in this suite's own, and the project's pytest would prune it.
REPORT_TEST = (
    "import tempfile\nfrom pathlib import Path\n\nfrom report import write_report\n\n\n"
    "def test_write_report():\n"
    "    with tempfile.TemporaryDirectory() as folder:\n"
    '        target = Path(folder) / "out.txt"\n'
    '        assert write_report(["a", "b"], target) == 2\n'
    '        assert target.read_text() == "a\\nb\\n"\n'
)
CART = (
    "def total(prices):\n"
    '    """The sum of all the prices."""\n'
    "    result = 0\n"
    "    for p in prices[1:]:\n"
    "        result += p\n"
    "    return result\n"
)
CART_TEST = "from cart import total\n\n\ndef test_total():\n    assert total([1, 2, 3]) == 6\n"
RIGHT = "```python\ndef total(prices):\n    return sum(prices)\n```"


def debug(
    repo: Path, server: Any, env: dict[str, str], *extra: str, command: str = PYTEST
) -> tuple[list[dict[str, Any]], Any]:
    """`pedro debug --json` against the stub; its events and the process."""
    proc = pedro(
        "debug", "--test", command, "-d", "fix the failing test", "--backend", "openai", "--base-url",
        f"{server.url}/v1", "--model", "m", "--no-input", "--json", *extra, env=env, cwd=repo,
    )  # fmt: skip
    assert "Traceback" not in proc.stderr, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")], proc


def candidates(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "repair.candidate"]


def fixed_variant(events: list[dict[str, Any]], *, within: int) -> dict[str, Any]:
    """The first variant that fixed the tests, which must be among the first `within` variants tried (the model's
    answers, tried as they come, are not counted)."""
    variants = [c for c in candidates(events) if c["question"] == "mutation"]
    fixed = [k for k, c in enumerate(variants) if c["status"] == "fixed"]
    assert fixed and fixed[0] < within, [(c.get("line"), c.get("change")) for c in variants]
    return variants[fixed[0]]


def fixed_through_the_cli(
    repo: Path, files: dict[str, str], stub_server: Any, cli_env: dict[str, str], *, within: int
) -> dict[str, Any]:
    """The project's files committed, `pedro debug` run against a model that never helps, and the variant that fixed
    the tests, which must be among the first `within` tried."""
    commit_files(repo, files)
    events, proc = debug(repo, stub_server([NOTHING] * 20), cli_env)
    assert proc.returncode == 0, proc.stderr
    return fixed_variant(events, within=within)


def test_an_undefined_name_is_fixed_by_the_name_in_scope_and_no_variant_touches_prose(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    commit_files(repo, {"report.py": REPORT, "test_report.py": REPORT_TEST})
    events, proc = debug(repo, stub_server([NOTHING] * 20), cli_env)
    assert proc.returncode == 0, proc.stderr
    tried = candidates(events)
    fixed = [c for c in tried if c["status"] == "fixed"]
    assert fixed and fixed[0]["n"] <= 3, tried[:4]
    assert fixed[0]["change"].startswith("`output_path` → `output`"), fixed[0]
    assert 'with open(output, "w") as handle:' in (repo / "report.py").read_text()
    # Lines 2-5 are the docstring, line 6 a comment: no variant ever changed them.
    assert not [c for c in tried if c["question"] == "mutation" and 2 <= c["line"] <= 6]


ORDER = (
    "class Order:\n"
    "    def __init__(self, items, shipping):\n        self.items = items\n        self.shipping = shipping\n\n"
    "    @property\n    def subtotal(self):\n        return sum(self.items)\n"
)
INVOICE = "def amount_due(order):\n    return order.subtotl + order.shipping\n"
INVOICE_TEST = (
    "from invoice import amount_due\nfrom models import Order\n\n\n"
    "def test_amount_due():\n    assert amount_due(Order([2, 3], 4)) == 9\n"
)


def test_a_missing_attribute_is_fixed_by_the_attribute_its_object_has_though_its_file_never_names_it(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    fixed = fixed_through_the_cli(
        repo,
        {"models.py": ORDER, "invoice.py": INVOICE, "test_invoice.py": INVOICE_TEST},
        stub_server,
        cli_env,
        within=3,
    )
    assert fixed["change"] == "`.subtotl` → `.subtotal`, the object's attribute nearest in spelling", fixed
    assert "return order.subtotal + order.shipping" in (repo / "invoice.py").read_text()


def test_one_of_two_reads_of_an_attribute_is_fixed_as_its_twin_however_unlike_their_names(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # `self.w * self.w`: `h` is nothing like `w` in spelling, so the file's attributes nearest in spelling never
    # offered it; 42 candidates went by without it, and a wrong fix (`self.w + self.w * self.w`) was kept.
    rect = (
        "class Rect:\n    def __init__(self, w, h):\n        self.w = w\n        self.h = h\n\n"
        "    def area(self):\n        return self.w * self.w\n"
    )
    test = "from shapes import Rect\n\n\ndef test_area():\n    assert Rect(2, 3).area() == 6\n"
    fixed = fixed_through_the_cli(repo, {"shapes.py": rect, "test_shapes.py": test}, stub_server, cli_env, within=8)
    assert fixed["change"].endswith("for one of its two reads"), fixed
    assert "self.h" in (repo / "shapes.py").read_text()


CELL = 'def cell(val, kind, fmt):\n    if kind is str:\n        return f"{val}"\n    return format(val, fmt)\n'
CELL_TEST = (
    "from table import cell\n\n\n"
    "def test_a_number_given_as_text_in_a_column_of_numbers():\n"
    '    assert cell(82642, int, ",") == "82,642"\n'
    '    assert cell("1500", int, ",") == "1500"\n'
)


def test_a_return_that_raised_where_a_result_was_wanted_answers_as_the_function_answers_text(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    fixed = fixed_through_the_cli(repo, {"table.py": CELL, "test_table.py": CELL_TEST}, stub_server, cli_env, within=10)
    assert fixed["change"] == '`return f"{val}"` where `format(val, fmt)` raises ValueError', fixed
    assert "    try:\n        return format(val, fmt)\n    except ValueError:\n" in (repo / "table.py").read_text()


ROOT = 'def root(x, n=2):\n    """The nth root of x; a negative x has none."""\n    return x ** (1 / n)\n'
ROOT_TEST = (
    "import pytest\n\nfrom roots import root\n\n\n"
    "def test_square_root():\n    assert root(9) == 3.0\n\n\n"
    "def test_no_root_of_a_negative_number():\n    with pytest.raises(ValueError):\n        root(-4)\n"
)


def test_a_call_the_test_expected_to_raise_gets_the_check_its_argument_calls_for(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    fixed = fixed_through_the_cli(repo, {"roots.py": ROOT, "test_roots.py": ROOT_TEST}, stub_server, cli_env, within=3)
    assert fixed["change"] == '`if x < 0: raise ValueError(f"invalid x: {x!r}")` added where the body starts', fixed
    assert (
        '    if x < 0:\n        raise ValueError(f"invalid x: {x!r}")\n    return x' in (repo / "roots.py").read_text()
    )


ROOT_JS = "function root(x, n = 2) {\n  return Math.pow(x, 1 / n);\n}\n\nmodule.exports = { root };\n"


def test_a_javascript_call_the_test_expected_to_throw_gets_the_check_its_argument_calls_for(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    test = node_test("roots", "root", "assert.equal(root(9), 3);", "assert.throws(() => root(-4), RangeError);")
    commit_files(repo, {"roots.js": ROOT_JS, "roots.test.js": test})
    # Math.pow(-4, 0.5) is NaN: node says "Missing expected exception (RangeError)."
    events, proc = debug(repo, stub_server([NOTHING] * 20), cli_env, command="node --test")
    assert proc.returncode == 0, proc.stderr
    fixed = fixed_variant(events, within=3)
    assert fixed["change"] == "`if (x < 0) { throw new RangeError(`invalid x: ${x}`); }` added where the body starts"
    assert "  if (x < 0) {\n    throw new RangeError(`invalid x: ${x}`);\n  }\n" in (repo / "roots.js").read_text()


SUM_JS = "function sum(values) {\n  let total = 0;\n  for (const v of values) total += v;\n  return totl;\n}\n"
SUM_GO = (
    "package sum\n\nfunc Sum(values []int) int {\n\ttotal := 0\n"
    "\tfor _, v := range values {\n\t\ttotal += v\n\t}\n\treturn totl\n}\n"
)
SUM_GO_TEST = (
    'package sum\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {\n'
    '\tif got := Sum([]int{1, 2, 3}); got != 6 {\n\t\tt.Errorf("Sum = %d", got)\n\t}\n}\n'
)


@pytest.mark.parametrize("language", ["javascript", "go"])
def test_an_undefined_name_in_javascript_or_go_is_fixed_by_the_name_in_scope(
    repo: Path, stub_server: Any, cli_env: dict[str, str], language: str
) -> None:
    tool = "node" if language == "javascript" else "go"
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    if language == "javascript":
        test = node_test("sum", "sum", "assert.equal(sum([1, 2, 3]), 6);")
        commit_files(repo, {"sum.js": SUM_JS + "\nmodule.exports = { sum };\n", "sum.test.js": test})
        command, fixed_file, line = "node --test", "sum.js", "  return total;\n"
    else:
        commit_files(
            repo, {"go.mod": "module example.com/sum\n\ngo 1.19\n", "sum.go": SUM_GO, "sum_test.go": SUM_GO_TEST}
        )
        command, fixed_file, line = "go test ./...", "sum.go", "\treturn total\n"
    events, proc = debug(repo, stub_server([NOTHING] * 20), cli_env, command=command)
    assert proc.returncode == 0, proc.stderr
    # ReferenceError: totl is not defined; Go's compiler: undefined: totl.
    fixed = fixed_variant(events, within=3)
    assert fixed["change"].startswith("`totl` → `total`, the name in scope nearest in spelling"), fixed
    assert line in (repo / fixed_file).read_text()


def test_a_variant_that_only_fits_the_visible_test_loses_to_the_right_answer_beside_it(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    commit_files(repo, {"cart.py": CART, "test_cart.py": CART_TEST})
    events, proc = debug(repo, stub_server([RIGHT] + [NOTHING] * 20), cli_env)
    assert proc.returncode == 0, proc.stderr
    (chosen,) = [e for e in events if e["type"] == "repair.chosen"]
    assert len(chosen["candidates"]) >= 2, chosen
    # `result = 1` passes total([1, 2, 3]) == 6 too, and gives total([5, 5]) == 11: it must not be what stays.
    check = "from cart import total\nassert total([5, 5]) == 10 and total([]) == 0 and total([7]) == 7\n"
    done = run_python(repo, check)
    assert done.returncode == 0, (repo / "cart.py").read_text()
    assert "result = 1" not in (repo / "cart.py").read_text()


def test_with_no_right_answer_the_job_names_what_the_fix_changes_beyond_the_tests(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # The mean divides by a constant: only `/ 2` passes the test, and it is not the mean of any other list.
    commit_files(
        repo,
        {
            "stats.py": "def mean(values):\n    return sum(values) / 3\n",
            "test_stats.py": "from stats import mean\n\n\ndef test_mean():\n    assert mean([2, 4]) == 3\n",
        },
    )
    events, proc = debug(repo, stub_server([NOTHING] * 20), cli_env)
    assert proc.returncode == 0, proc.stderr
    finished = next(e for e in events if e["type"] == "job.finished")
    said = finished["summary"]
    beyond = "Beyond the tests, the fix changes mean([4, 2]): 2.0 → 3.0; mean([4]): 1.3333333333333333 → 2.0"
    assert beyond in said, said
    (chosen,) = [e for e in events if e["type"] == "repair.chosen"]
    assert "mean([4]): 1.3333333333333333 → 2.0" in chosen["beyond"]
    shown = pedro("jobs", "show", finished["job_id"], env=cli_env, cwd=repo).stdout
    assert "Beyond the tests, the fix changes mean([4, 2])" in " ".join(shown.split()), shown
    body = git(repo, "log", "-1", "--format=%B")
    assert "mean([4]): 1.3333333333333333 → 2.0" in body and "Beyond the tests" in body, body


def run_python(repo: Path, code: str) -> Any:
    """`code` run by this interpreter in the repository."""
    return subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, check=False)


STATS = "def total(xs):\n    return sum(xs) + 1\n\n\ndef mean(xs):\n    return total(xs) / len(xs)\n"
STATS_TEST = (
    "from stats import mean, total\n\n\n"
    "def test_mean():\n    assert mean([2, 4, 6]) == 4\n\n\n"
    "def test_total():\n    assert total([1, 2]) == 3\n"
)
# mean() that sums the list itself: its test passes, and total() stays broken for every other caller.
AROUND = "```python\ndef mean(xs):\n    return sum(xs) / len(xs)\n```"


def test_an_answer_that_routes_around_the_other_broken_function_is_not_taken(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    commit_files(repo, {"stats.py": STATS, "test_stats.py": STATS_TEST})
    server = stub_server([AROUND] * 40)  # never out of replies: the model is asked from the start of repair
    env = {**cli_env, "PEDRO_REPAIR__CANDIDATES": "2", "PEDRO_REPAIR__MUTANTS": "40"}
    events, proc = debug(repo, server, env)
    around = [c for c in candidates(events) if c.get("question") == "function" and c["unit"] == "stats.py:5 mean"]
    assert around and all(c["status"] == "overfits" for c in around), around
    assert "it no longer calls total, which the failure also points at" in around[0]["reason"]
    # A variant of total() itself fixes both tests, and mean() still calls it.
    assert proc.returncode == 0, proc.stderr
    fixed = (repo / "stats.py").read_text()
    assert "return total(xs) / len(xs)" in fixed and "return sum(xs) + 1" not in fixed, fixed


CALLS = (
    "def apply_all(items, callback):\n"
    "    results = []\n"
    "    for item in items:\n"
    "        results.append(callback(item))\n"
    "    results = list(results)\n"
    "    return results[1:]\n"
)
CALLS_TEST = (
    "from calls import apply_all\n\n\n"
    "def test_apply_all():\n    assert apply_all([1, 2, 3], lambda n: 2 * n) == [2, 4, 6]\n"
)


def test_a_name_that_is_no_number_is_moved_by_one_once(repo: Path, stub_server: Any, cli_env: dict[str, str]) -> None:
    # `(results + 1)` fails as arithmetic on a list: moving `results` by one on its other lines would fail alike,
    # a run each on a real project, so those variants are never tried.
    commit_files(repo, {"calls.py": CALLS, "test_calls.py": CALLS_TEST})
    events, proc = debug(repo, stub_server([NOTHING] * 40), cli_env)
    assert proc.returncode == 0, proc.stderr
    nudges: dict[str, list[dict[str, Any]]] = {}
    for tried in candidates(events):
        change = tried.get("change", "")
        for name in ("results", "items", "callback"):
            if change.startswith(f"`{name}` → `") and (f"{name} + 1" in change or f"{name} - 1" in change):
                nudges.setdefault(name, []).append(tried)
    failed = nudges.get("results", [])
    assert failed and "can only concatenate" in failed[0]["reason"], failed
    assert len(failed) == 1, [c["change"] for c in failed]
    assert (
        "return results[0:]" in (repo / "calls.py").read_text() or "return results" in (repo / "calls.py").read_text()
    )


FIRST_N = (
    "def first_n(iterable, n, too_short):\n"
    '    """Yield the first n items; call too_short once if there are fewer."""\n'
    "    it = iter(iterable)\n"
    "    for _ in range(n):\n"
    "        try:\n"
    "            item = next(it)\n"
    "        except StopIteration:\n"
    "            too_short()\n"
    "        else:\n"
    "            yield item\n"
)
FIRST_N_TEST = (
    "from first import first_n\n\n\n"
    "def test_too_short_is_called_once():\n"
    "    calls = []\n"
    "    assert list(first_n([1], 3, lambda: calls.append(1))) == [1]\n"
    "    assert calls == [1]\n"
)


def test_a_call_that_should_end_the_function_gets_its_missing_return(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    commit_files(repo, {"first.py": FIRST_N, "test_first.py": FIRST_N_TEST})
    events, proc = debug(repo, stub_server([NOTHING] * 40), cli_env)
    assert proc.returncode == 0, proc.stderr
    fixed = [c for c in candidates(events) if c["status"] == "fixed"]
    assert fixed and fixed[0]["change"] == "`return` added after the call", fixed
    assert "            too_short()\n            return\n" in (repo / "first.py").read_text()


FINDER = (
    "import re\n\n\nclass Finder:\n"
    "    def __init__(self, pattern, flags=0):\n        self.regex = re.compile(pattern, flags)\n\n"
    "    def findall(self, text):\n        return self.regex.findall(text)\n\n\n"
    "def findall(pattern, text, ignore_case=False):\n"
    "    finder = Finder(pattern, re.IGNORECASE if ignore_case else 0)\n"
    "    return Finder(pattern).findall(text)\n"
)
FINDER_TEST = (
    "from finder import findall\n\n\n"
    "def test_ignore_case():\n    assert findall('a', 'AaA', ignore_case=True) == ['A', 'a', 'A']\n"
)


def test_a_result_computed_and_never_used_takes_the_place_of_the_call_that_repeats_it(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    commit_files(repo, {"finder.py": FINDER, "test_finder.py": FINDER_TEST})
    events, proc = debug(repo, stub_server([NOTHING] * 40), cli_env)
    assert proc.returncode == 0, proc.stderr
    fixed = [c for c in candidates(events) if c["status"] == "fixed"]
    assert fixed and fixed[0]["n"] <= 3, candidates(events)[:4]
    assert fixed[0]["change"].startswith("`Finder(…)` → `finder`"), fixed[0]
    assert "    return finder.findall(text)\n" in (repo / "finder.py").read_text()


DOCUMENTED = (
    "def page_count(items, size):\n"
    '    """How many pages of size items hold all of them.\n\n'
    "    Optionally the last page is shorter than the others.\n"
    '    """\n'
    "    pages = len(items) // size\n"
    "    return pages\n"
)
DOCUMENTED_TEST = (
    "from pages import page_count\n\n\ndef test_short_last_page():\n    assert page_count([1, 2, 3], 2) == 2\n"
)


def test_no_variant_puts_a_docstring_word_in_place_of_a_name(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    commit_files(repo, {"pages.py": DOCUMENTED, "test_pages.py": DOCUMENTED_TEST})
    events, _ = debug(repo, stub_server([NOTHING] * 40), cli_env)
    changes = [c.get("change", "") for c in candidates(events) if c["question"] == "mutation"]
    assert changes, candidates(events)
    words = ("Optionally", "last", "page", "shorter", "others", "hold", "many")
    assert not [c for c in changes if any(f"→ `{word}`" in c for word in words)], changes


SEARCH = (
    "def find(items, x):\n"
    "    lo, hi = 0, len(items)\n"
    "    while lo <= hi:\n"
    "        mid = (lo + hi) // 2\n"
    "        if items[mid] == x:\n"
    "            return mid\n"
    "        if items[mid] < x:\n"
    "            lo = mid + 1\n"
    "        else:\n"
    "            hi = mid\n"
    "    return -1\n"
)
SEARCH_TEST = (
    "from search import find\n\n\n"
    "def test_present():\n    assert find([1, 3, 5], 3) == 1\n\n\n"
    "def test_past_the_end():\n    assert find([1, 3, 5], 9) == -1\n"
)


def test_an_index_out_of_range_inside_a_loop_tries_the_loops_bound_first(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # The IndexError is raised on `items[mid]`, but the slip is the loop's bound: the loop around the failing line
    # is where an index that ran past the end (or a test that hung) starts, so its header is tried among the first.
    commit_files(repo, {"search.py": SEARCH, "test_search.py": SEARCH_TEST})
    events, proc = debug(repo, stub_server([NOTHING] * 20), cli_env)
    assert proc.returncode == 0, proc.stderr
    tried = candidates(events)
    fixed = [c for c in tried if c["status"] == "fixed"]
    assert fixed and fixed[0]["n"] <= 3 and fixed[0]["line"] == 3, [(c.get("line"), c.get("change")) for c in tried]


RUNNING = (
    "def running_best(values):\n"
    '    """The largest sum of consecutive values, 0 for none."""\n'
    "    best = here = 0\n"
    "    for v in values:\n"
    "        here = here + v\n"
    "        best = max(best, here)\n"
    "    return best\n"
)
RUNNING_TEST = (
    "from running import running_best\n\n\n"
    "def test_running_best():\n    assert running_best([4, -5, 2, 1, -1, 3]) == 5\n    assert running_best([-1]) == 0\n"
)


def test_an_answer_whose_tests_hang_gets_no_variants_of_its_line(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # The model's one line loops for ever; a number changed in it would loop as long, each to the candidate's limit.
    hangs = RUNNING.replace("        best = max(best, here)", "        while here > -1: best = max(best, here)")
    commit_files(repo, {"running.py": RUNNING, "test_running.py": RUNNING_TEST})
    events, _proc = debug(repo, stub_server([f"```python\n{hangs}```"] + [NOTHING] * 20), cli_env)
    tried = candidates(events)
    answered = [c for c in tried if c["question"] == "function"]
    assert answered and "did not finish" in answered[0]["reason"], tried
    assert not [c for c in tried if c["question"] == "answer_variant"], tried


def test_an_answer_one_token_from_the_fix_is_fixed_by_a_variant_of_the_line_it_changed(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # No variant of `here = here + v` passes; the model's line keeps the running sum from falling but never lets it
    # start again at the current value, and its first two names swapped (`max(v, v + here)`) does.
    near = RUNNING.replace("here = here + v", "here = max(here, here + v)")
    commit_files(repo, {"running.py": RUNNING, "test_running.py": RUNNING_TEST})
    events, proc = debug(repo, stub_server([f"```python\n{near}```"] + [NOTHING] * 20), cli_env)
    assert proc.returncode == 0, proc.stderr
    fixed = [c for c in candidates(events) if c["status"] == "fixed"]
    assert fixed and fixed[0]["question"] == "answer_variant", candidates(events)
    assert fixed[0]["change"].startswith("answer 1's line 5, then "), fixed[0]
    check = "from running import running_best\nassert running_best([2, -3, 5, -1, 4]) == 8 and running_best([]) == 0\n"
    assert run_python(repo, check).returncode == 0, (repo / "running.py").read_text()


COUNTING = (
    "def sort_small(values, limit):\n"
    '    """The values (each at least 0 and under limit) in ascending order, by counting them."""\n'
    "    counts = [0] * limit\n"
    "    for v in values:\n"
    "        counts[v] += 1\n"
    "    ordered = []\n"
    "    for v, n in enumerate(values):\n"
    "        ordered.extend([v] * n)\n"
    "    return ordered\n"
)
COUNTING_TEST = (
    "from counting import sort_small\n\n\n"
    "def test_sort_small():\n    assert sort_small([3, 1, 2, 1], 4) == [1, 1, 2, 3]\n"
)


def test_a_collection_filled_and_never_read_takes_the_place_of_the_name_read_instead(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # `counts` is filled (`counts[v] += 1`) and read nowhere: the loop that should read it reads `values`.
    fixed = fixed_through_the_cli(
        repo, {"counting.py": COUNTING, "test_counting.py": COUNTING_TEST}, stub_server, cli_env, within=15
    )
    assert fixed["change"] == "`values` → `counts`" and fixed["line"] == 7, fixed
    assert "for v, n in enumerate(counts):" in (repo / "counting.py").read_text()


MERGE = (
    "def merge_sort(items):\n"
    "    if len(items) == 0:\n"
    "        return items\n"
    "    middle = len(items) // 2\n"
    "    left, right = merge_sort(items[:middle]), merge_sort(items[middle:])\n"
    "    merged = []\n"
    "    while left and right:\n"
    "        merged.append((left if left[0] <= right[0] else right).pop(0))\n"
    "    return merged + left + right\n"
)
MERGE_TEST = (
    "from merging import merge_sort\n\n\n"
    "def test_merge_sort():\n    assert merge_sort([3, 1, 2]) == [1, 2, 3]\n    assert merge_sort([]) == []\n"
)


def test_a_recursion_that_never_ends_tries_its_base_case_first(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # Every line runs in the endless recursion, and the spectrum ranks the recursive calls highest; the base case
    # that stops one item too late is where such a failure starts.
    fixed = fixed_through_the_cli(
        repo, {"merging.py": MERGE, "test_merging.py": MERGE_TEST}, stub_server, cli_env, within=4
    )
    assert fixed["change"] == "`len(items) == 0` → `len(items) <= 1`", fixed


SELECT = (
    "def select(values, k):\n"
    '    """The k-th smallest of the values, 0 for the smallest."""\n'
    "    pivot = values[0]\n"
    "    smaller = [v for v in values if v < pivot]\n"
    "    larger = [v for v in values if v > pivot]\n"
    "    below = len(smaller)\n"
    "    upto = len(values) - len(larger)\n"
    "    if k < below:\n"
    "        return select(smaller, k)\n"
    "    if k >= upto:\n"
    "        return select(larger, k)\n"
    "    return pivot\n"
)
SELECT_TEST = (
    "from selecting import select\n\n\n"
    "def test_select():\n    assert select([1, 5, 4], 2) == 5\n    assert select([1, 2, 3], 2) == 3\n"
    "    assert select([3, 1, 2, 5, 4], 4) == 5\n    assert select([3, 1, 2], 0) == 1\n"
)


def test_a_position_handed_unchanged_to_a_smaller_part_is_rebased_by_the_count_left_behind(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # `select(larger, k)`: in the larger part, the k-th smallest is the (k - upto)-th.
    fixed = fixed_through_the_cli(
        repo, {"selecting.py": SELECT, "test_selecting.py": SELECT_TEST}, stub_server, cli_env, within=10
    )
    assert fixed["change"] == "`k` → `k - upto`", fixed
    assert "return select(larger, k - upto)" in (repo / "selecting.py").read_text()


PARSE = (
    "def parse_int(text, default=0):\n"
    '    """int(text), or default when text is not a number."""\n'
    "    try:\n        return int(text)\n    except KeyError:\n        return default\n"
)
PARSE_TEST = (
    "from parse import parse_int\n\n\n"
    "def test_number():\n    assert parse_int('42') == 42\n\n\n"
    "def test_not_a_number():\n    assert parse_int('abc') == 0\n    assert parse_int('x', default=-1) == -1\n"
)


def test_a_handler_that_names_another_exception_than_the_one_raised_in_its_try_is_made_to_catch_it(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # Before, no one-token change reached it, and a second `try` was wrapped around `return int(text)` inside the
    # first: the tests passed, and the code read as two handlers for one call.
    files = {"parse.py": PARSE, "test_parse.py": PARSE_TEST}
    fixed = fixed_through_the_cli(repo, files, stub_server, cli_env, within=2)
    assert fixed["change"] == "`KeyError` → `ValueError`", fixed
    assert (repo / "parse.py").read_text() == PARSE.replace("except KeyError:", "except ValueError:")


QUEUE = (
    "class Queue:\n    def __init__(self):\n        self.items = []\n\n"
    "    def push(self, item):\n        self.items.append(item)\n\n"
    "    def pop(self):\n        return self.items.pop()\n"
)
QUEUE_TEST = (
    "import unittest\n\nfrom lines import Queue\n\n\n"
    "class QueueTest(unittest.TestCase):\n"
    "    def setUp(self):\n        self.q = Queue()\n        for item in (1, 2, 3):\n            self.q.push(item)\n\n"
    "    def test_first_in_first_out(self):\n        self.assertEqual(self.q.pop(), 1)\n"
    "        self.assertEqual(self.q.pop(), 2)\n"
)


def test_a_queue_served_from_the_wrong_end_takes_from_the_other(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # 113 candidates went by without `pop(0)`: no one-token change adds an argument.
    fixed = fixed_through_the_cli(
        repo, {"lines.py": QUEUE, "test_lines.py": QUEUE_TEST}, stub_server, cli_env, within=8
    )
    assert fixed["change"] == "`pop()` → `pop(0)`, the other end", fixed
    assert "return self.items.pop(0)" in (repo / "lines.py").read_text()


POINT = (
    "class Point:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n\n"
    "    def __eq__(self, other):\n"
    "        return isinstance(other, Point) and self.x == other.x and self.y == other.x\n"
)
POINT_TEST = (
    "from point import Point\n\n\n"
    "def test_equal():\n    assert Point(1, 2) == Point(1, 2)\n    assert Point(1, 2) != Point(2, 1)\n"
)


def test_two_objects_compared_field_by_field_pair_the_odd_comparisons_fields_as_the_others_do(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # `self.y == other.x`: `==` → `!=` passes both tests too, and came first; no probe calls `__eq__`, so the
    # earlier of the two was committed.
    files = {"point.py": POINT, "test_point.py": POINT_TEST}
    fixed = fixed_through_the_cli(repo, files, stub_server, cli_env, within=2)
    assert fixed["change"] == "`.x` → `.y`, as the line's other comparisons pair its fields", fixed
    assert "self.y == other.y" in (repo / "point.py").read_text()


WIDTH = "def pad(text, width):\n    return text + ' ' * (width - len(text) - 1)\n"
WIDTH_TEST = (
    "import pytest\n\nfrom width import pad\n\n\n"
    "@pytest.mark.parametrize('n', range(12))\n"
    "def test_pad(n):\n    assert len(pad('ab', n + 3)) == n + 3\n"
)


def test_a_candidate_is_first_tried_on_a_few_of_many_failing_tests_and_the_fix_on_all_of_them(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # Twelve tests fail for one bug: each candidate ran all twelve, where a few tell a wrong one as well.
    commit_files(repo, {"width.py": WIDTH, "test_width.py": WIDTH_TEST})
    events, proc = debug(repo, stub_server([NOTHING] * 20), cli_env)
    assert proc.returncode == 0, proc.stderr
    runs = [e for e in events if e["type"] == "tests.run" and e.get("scope") == "failing"]
    assert runs and all(sum(run["counts"].values()) <= 6 for run in runs), [run["counts"] for run in runs]
    fixed = fixed_variant(events, within=6)
    assert fixed["change"] == "`- 1` dropped", fixed
    whole = [e for e in events if e["type"] == "tests.run" and e.get("scope") == "all"]
    assert whole and whole[-1]["counts"]["passed"] == 12


LENGTHS = (
    "import asyncio\n\n\nasync def lengths(words):\n    async def one(word):\n        await asyncio.sleep(0)\n"
    "        return len(word) + 1\n    return await asyncio.gather(*(one(w) for w in words))\n"
)
LENGTHS_TEST = (
    "import asyncio\n\nfrom words import lengths\n\n\n"
    "def test_lengths():\n    assert asyncio.run(lengths(['a', 'abc'])) == [1, 3]\n"
)


def test_an_async_functions_probes_compare_the_values_it_gives_not_its_coroutines(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # Each probe got a coroutine, whose repr says only where it lives: the job said the fix answered every other
    # input as the code did.
    commit_files(repo, {"words.py": LENGTHS, "test_words.py": LENGTHS_TEST})
    events, proc = debug(repo, stub_server([NOTHING] * 20), cli_env)
    assert proc.returncode == 0, proc.stderr
    end = [e for e in events if e["type"] == "job.finished"][-1]
    assert "Beyond the tests, the fix changes lengths(" in end["summary"], end["summary"]
    assert "[4] → [3]" in end["summary"] or "[2] → [1]" in end["summary"], end["summary"]
