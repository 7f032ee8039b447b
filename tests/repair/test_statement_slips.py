"""Repair of slips of a whole statement: a string meant to format values that does not, a value computed and dropped
where it was to be returned, a `return` left inside the loop it was to follow."""

from __future__ import annotations

import ast
import shutil
import textwrap
from pathlib import Path

import pytest
from repo_util import commit_files, git, node_test
from test_repairer import repair

from pedro.repair.statement_slips import (
    doubled_steps_lines,
    doubled_steps_python,
    dropped_javascript,
    dropped_python,
    dropped_results,
    excess_steps_lines,
    excess_steps_python,
    inverted_flags,
    returned_in_place_javascript,
    returned_in_place_python,
    returns_in_loops,
    shared_defaults,
    unformatted_javascript,
    unformatted_python,
)


def _python(text: str) -> tuple[str, ast.Module, list[str]]:
    source = textwrap.dedent(text)
    return source, ast.parse(source), text.splitlines()


def fixed_by_variants_alone(repo: Path, files: dict[str, str], command: str | None = None, mutants: int = 40) -> int:
    """Repair `repo` by variants alone, at most `mutants` of them; how many were tried."""
    commit_files(repo, files)
    extra = {"command": command} if command else {}
    outcome, backend, events = repair(repo, [], coverage=True, mutants=mutants, candidates=0, rivals=3, **extra)
    assert outcome.fixed and backend.requests == [], outcome.summary
    return sum(1 for event in events if event.type == "repair.candidate")


def test_a_string_with_a_placeholder_for_a_name_the_function_knows_is_made_an_f_string() -> None:
    text = (
        'def greet(name, n):\n    """Say {hello} to `name`."""\n    label = "{n} new"\n'
        '    done = "{name}".format(name=name)\n    other = "{unknown} stays"\n    return f"{name}" + "{label}!"\n'
    )
    changes = unformatted_python(*_python(text))
    assert [(c.row, c.text) for c in changes] == [
        (2, '    label = f"{n} new"'),
        (5, '    return f"{name}" + f"{label}!"'),
    ]
    # A method's lines are indented: the dedented tree's strings are found on the unit's own lines.
    method = '    def show(self, total):\n        return "total: {total:.2f}"\n'
    assert [c.text for c in unformatted_python(*_python(method))] == ['        return f"total: {total:.2f}"']


def test_an_f_written_inside_the_quotes_moves_out_before_them() -> None:
    # json5's `raise ValueError('Illegal JSON5 value: f{obj}')`: the message read `… f{obj}` for every value.
    text = "def check(obj, note):\n    raise ValueError('Illegal value: f{obj}' + 'of{note}' + '\\f{note}')\n"
    assert sorted(c.text for c in unformatted_python(*_python(text))) == [
        "    raise ValueError('Illegal value: f{obj}' + 'of{note}' + f'\\f{note}')",  # an escape's `f` stays
        "    raise ValueError('Illegal value: f{obj}' + f'of{note}' + '\\f{note}')",  # a word's last letter stays
        "    raise ValueError(f'Illegal value: {obj}' + 'of{note}' + '\\f{note}')",
    ]


def test_a_javascript_string_in_quotes_with_a_placeholder_is_made_a_template_literal() -> None:
    lines = ['  const a = "Hello, ${name}!";', "  const b = 'cost: ${price}' + `${x}`;", '  const c = "${";']
    assert [c.text for c in unformatted_javascript(lines)] == [
        "  const a = `Hello, ${name}!`;",
        "  const b = `cost: ${price}` + `${x}`;",
    ]


def test_a_value_computed_and_dropped_is_returned() -> None:
    text = "def double(xs):\n    save(xs)\n    for x in xs:\n        x * 2\n    xs\n"
    _, tree, lines = _python(text)
    assert [(c.row, c.text) for c in dropped_python(tree, lines)] == [(3, "        return x * 2"), (4, "    return xs")]
    js = [
        "function withTax(prices, rate) {", "  return prices.map((price) => {", "    price * (1 + rate);", "  });",
        "  total += price;", "  save(price);", "  count++;", "  x = y === z;", '  "use strict";', "}",
    ]  # fmt: skip
    assert [(c.row, c.text) for c in dropped_javascript(js)] == [(2, "    return price * (1 + rate);")]


def test_a_return_that_ends_a_loops_body_after_other_statements_is_moved_out_to_follow_it() -> None:
    text = (
        "def index_of(values, target):\n    for i, value in enumerate(values):\n        if value == target:\n"
        "            return i\n        return -1\n"
    )
    _, tree, lines = _python(text)
    assert [(c.row, c.text) for c in returns_in_loops(tree, lines)] == [(4, "    return -1")]
    # A loop whose only statement is a return, or one with an else, is left alone.
    alone = "def first(xs):\n    for x in xs:\n        return x\n"
    assert returns_in_loops(*_python(alone)[1:]) == []


def test_a_list_default_the_function_changes_becomes_none_and_a_new_list_on_each_call() -> None:
    text = (
        '    def add(self, item, items=[], seen={}, *, log=list(), size=3):\n        """Add."""\n'
        "        items.append(item)\n        seen[item] = True\n        return items\n"
    )
    change, seen = shared_defaults(*_python(text))
    assert seen.also == ((0, "    def add(self, item, items=[], seen=None, *, log=list(), size=3):"),)
    assert (change.row, change.also) == (
        2,
        ((0, "    def add(self, item, items=None, seen={}, *, log=list(), size=3):"),),
    )
    assert change.text == "        if items is None:\n            items = []\n        items.append(item)"
    # `seen` is changed too (an item assigned), in a change of its own; `log` is not until it is appended to.
    text = text.replace("        return items", "        log.append(item)\n        return items")
    assert len(shared_defaults(*_python(text))) == 3
    assert shared_defaults(*_python("def f(items=[]):\n    return len(items)\n")) == []


def test_a_returned_in_place_call_is_made_then_its_object_returned_or_its_object_returned_alone() -> None:
    text = (
        "def top(arr, k):\n    arr.sort()\n    ans = arr[-k:]\n    return ans.sort(reverse=True)\n"
        "def keep(x):\n    return sorted(x)\n"
    )
    assert [(c.row, c.text) for c in returned_in_place_python(*_python(text))] == [
        (3, "    ans.sort(reverse=True)\n    return ans"),
        (3, "    return ans"),
    ]
    method = "    def add(self, x):\n        return self.items.append(x)\n"
    assert [c.text for c in returned_in_place_python(*_python(method))][0] == (
        "        self.items.append(x)\n        return self.items"
    )
    # JavaScript's sort returns the array; push returns the new length.
    lines = ["  return xs.sort();", "  return seen.push(item);"]
    assert [(c.row, c.text) for c in returned_in_place_javascript(lines)] == [
        (1, "  seen.push(item);\n  return seen;"),
        (1, "  return seen;"),
    ]


def test_a_sorted_copy_returned_as_the_none_sort_gives_is_fixed_by_variants(repo: Path) -> None:
    fixed_by_variants_alone(
        repo,
        {
            "rank.py": (
                'def ranked(scores):\n    """The scores from highest to lowest."""\n    result = list(scores)\n'
                "    return result.sort(reverse=True)\n"
            ),
            "test_rank.py": (
                "from rank import ranked\n\n\ndef test_ranked():\n    assert ranked([2, 9, 4]) == [9, 4, 2]\n"
            ),
        },
    )
    assert "    result.sort(reverse=True)\n    return result\n" in (repo / "rank.py").read_text()


def test_a_greeting_missing_its_f_is_fixed_at_the_first_candidate(repo: Path) -> None:
    fixed_by_variants_alone(
        repo,
        {
            "greet.py": 'def greeting(name, count):\n    return "Hello, {name}! You have {count} new messages."\n',
            "test_greet.py": (
                "from greet import greeting\n\n\ndef test_greeting():\n"
                "    assert greeting('Ann', 3) == 'Hello, Ann! You have 3 new messages.'\n"
            ),
        },
    )
    assert 'return f"Hello, {name}!' in (repo / "greet.py").read_text()


def test_a_search_that_returns_inside_its_loop_is_fixed_by_moving_the_return_out(repo: Path) -> None:
    fixed_by_variants_alone(
        repo,
        {
            "search.py": (
                "def index_of(values, target):\n    for i, value in enumerate(values):\n        if value == target:\n"
                "            return i\n        return -1\n"
            ),
            "test_search.py": (
                "from search import index_of\n\n\ndef test_index_of():\n"
                "    assert index_of([4, 5, 6], 6) == 2\n    assert index_of([4, 5, 6], 7) == -1\n"
            ),
        },
    )
    assert (repo / "search.py").read_text().endswith("            return i\n    return -1\n")


def test_a_javascript_arrow_that_drops_its_value_is_fixed_by_returning_it(repo: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    price = (
        "function withTax(prices, rate) {\n  return prices.map((price) => {\n    price * (1 + rate);\n  });\n}\n"
        "module.exports = { withTax };\n"
    )
    test = node_test("price", "withTax", "assert.deepEqual(withTax([100, 200], 0.5), [150, 300]);")
    fixed_by_variants_alone(repo, {"price.js": price, "price.test.js": test}, command="node --test")
    assert "    return price * (1 + rate);\n" in (repo / "price.js").read_text()


def test_a_list_default_every_call_shares_is_fixed_by_a_new_list_on_each_call(repo: Path) -> None:
    fixed_by_variants_alone(
        repo,
        {
            "bag.py": (
                'def add_item(item, items=[]):\n    """`items` with `item` added; a new list when none is given."""\n'
                "    items.append(item)\n    return items\n"
            ),
            "test_bag.py": (
                "from bag import add_item\n\n\ndef test_add_item():\n"
                "    assert add_item('a') == ['a']\n    assert add_item('b') == ['b']\n"
            ),
        },
    )
    assert (repo / "bag.py").read_text() == (
        'def add_item(item, items=None):\n    """`items` with `item` added; a new list when none is given."""\n'
        "    if items is None:\n        items = []\n    items.append(item)\n    return items\n"
    )


def test_a_one_line_update_in_a_block_of_others_is_taken_out() -> None:
    text = (
        "def special(n):\n    fact = 1\n    total = 1\n    for i in range(1, n + 1):\n        i *= n\n"
        "        fact *= i\n        total *= fact\n    if n:\n        n -= 1\n    return total\n"
    )
    rows = [(c.row, c.text, c.change) for c in excess_steps_python(ast.parse(text), text.splitlines())]
    # The block of one statement keeps it (`n -= 1`): taking it out would leave the block empty.
    assert rows == [
        (4, "", "`i *= n` taken out, a step too many"),
        (5, "", "`fact *= i` taken out, a step too many"),
        (6, "", "`total *= fact` taken out, a step too many"),
    ]
    lines = ["function f(xs) {", "  let t = 0;", "  for (const x of xs) {", "    t += x;", "    t *= 2;", "  }", "}"]
    assert [c.row for c in excess_steps_lines(lines, "javascript")] == [3, 4]
    # A count moved once more than meant: `ind--` after `i++` (Go), `n--;` (JavaScript); a declaration is no step.
    go = ["func CanArrange(arr []int) int {", "\tind := -1", "\tfor i < len(arr) {", "\t\ti++", "\t\tind--", "\t}", "}"]
    assert [c.change for c in excess_steps_lines(go, "go")] == [
        "`i++` taken out, a step too many",
        "`ind--` taken out, a step too many",
    ]
    assert [c.row for c in excess_steps_lines(["function f() {", "  let n = 1;", "  n--;", "}"], "javascript")] == [2]


def test_a_step_too_many_in_a_loop_is_fixed_by_taking_it_out(repo: Path) -> None:
    fixed_by_variants_alone(
        repo,
        {
            "fact.py": (
                "def special(n):\n    fact = 1\n    total = 1\n    for i in range(1, n + 1):\n        i *= n\n"
                "        fact *= i\n        total *= fact\n    return total\n"
            ),
            "test_fact.py": "from fact import special\n\n\ndef test_special():\n    assert special(4) == 288\n",
        },
    )
    assert "i *= n" not in (repo / "fact.py").read_text()
    assert "        fact *= i\n" in (repo / "fact.py").read_text()


def test_a_step_done_twice_is_taken_out_the_second_time() -> None:
    text = (
        "def pile(n, xs):\n    out = []\n    for i in range(n):\n        out.append(i)\n        out.append(n)\n"
        "        seen.add(i)\n        a = xs[i]\n        b = xs[0]\n        a = xs[i]\n    out.append(1)\n"
        "    if n:\n        a = 1\n    a = 1\n    return out\n"
    )
    rows = [(c.row, c.text, c.change) for c in doubled_steps_python(ast.parse(text), text.splitlines())]
    # Not `seen.add(i)` after `out.append(n)` (another collection), not the last `append` (another block's), not
    # `a = 1` after the `if` block's own `a = 1`.
    assert rows == [
        (4, "", "`out.append(n)` taken out, an item added twice"),
        (8, "", "`a = xs[i]` taken out, a step done twice"),
    ]
    lines = [
        "const f = (xs) => {", "  let t = []", "  for (let i = 0; i < 3; i++) {", "    t.push(i)", "    t.push(xs[0])",
        "    u.push(i)", "    let tmp = t[0]", "    t[0] = t[1]", "    t[1] = tmp", "    t[0] = t[1]", "  }",
        "  t[0] = t[1]", "  return t", "}",
    ]  # fmt: skip
    rows = [(c.row, c.change) for c in doubled_steps_lines(lines, "javascript")]
    assert rows == [
        (4, "`t.push(xs[0])` taken out, an item added twice"),
        (9, "`t[0] = t[1]` taken out, a step done twice"),
    ]
    go = [
        "func F(xs []int) []int {", "\tt := make([]int, 0)", "\tfor _, x := range xs {", "\t\tt = append(t, x)",
        "\t\tt = append(t, 1)", "\t\tu = append(t, x)", "\t\ttotal += x", "\t}", "\treturn t", "}",
    ]  # fmt: skip
    assert [(c.row, c.change) for c in doubled_steps_lines(go, "go")] == [
        (4, "`t = append(t, 1)` taken out, an item added twice")
    ]
    assert [c.row for c in excess_steps_lines(go, "go")] == [6]


def test_an_item_pushed_twice_is_fixed_by_taking_the_second_out(repo: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    pile = (
        "const makeAPile = (n) => {\n  let t = []\n  for (let i = n; i < n * 3; i += 2) {\n    t.push(i)\n"
        "    t.push(n)\n  }\n  return t\n}\n\nmodule.exports = { makeAPile };\n"
    )
    test = node_test("pile", "makeAPile", "assert.deepEqual(makeAPile(3), [3, 5, 7]);")
    fixed_by_variants_alone(repo, {"pile.js": pile, "pile.test.js": test}, command="node --test")
    assert "t.push(n)" not in (repo / "pile.js").read_text()


def test_an_item_appended_twice_in_go_is_fixed_by_taking_the_second_out(repo: Path) -> None:
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    odd = (
        "package odd\n\nfunc Odd(xs []int) []int {\n\tout := make([]int, 0)\n\tfor _, x := range xs {\n"
        "\t\tif x%2 == 1 {\n\t\t\tout = append(out, x)\n\t\t\tout = append(out, 1)\n\t\t}\n\t}\n\treturn out\n}\n"
    )
    test = (
        'package odd\n\nimport (\n\t"reflect"\n\t"testing"\n)\n\nfunc TestOdd(t *testing.T) {\n'
        "\tif got := Odd([]int{1, 2, 3}); !reflect.DeepEqual(got, []int{1, 3}) {\n"
        '\t\tt.Errorf("Odd = %v", got)\n\t}\n}\n'
    )
    files = {"go.mod": "module example.com/odd\n\ngo 1.19\n", "odd.go": odd, "odd_test.go": test}
    fixed_by_variants_alone(repo, files, command="go test ./...")
    assert "out = append(out, 1)" not in (repo / "odd.go").read_text()


def test_an_assignment_written_again_after_a_swap_is_fixed_by_taking_it_out(repo: Path) -> None:
    commit_files(
        repo,
        {
            "order.py": (
                "def sort_in_place(p):\n    for j in range(len(p)):\n        low = j\n"
                "        for k in range(j + 1, len(p)):\n            if p[k] < p[low]:\n                low = k\n"
                "        tmp = p[j]\n        p[j] = p[low]\n        p[low] = tmp\n        p[j] = p[low]\n    return p\n"
            ),
            "test_order.py": (
                "from order import sort_in_place\n\n\ndef test_sort_in_place():\n"
                "    assert sort_in_place([3, 1, 2]) == [1, 2, 3]\n"
            ),
        },
    )
    outcome, backend, events = repair(repo, [], coverage=True, mutants=40, candidates=0, rivals=3)
    assert outcome.fixed and backend.requests == [], outcome.summary
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    assert fixed[0]["change"] == "`p[j] = p[low]` taken out, a step done twice", fixed
    assert (repo / "order.py").read_text().count("p[j] = p[low]") == 1


def test_a_flag_set_both_ways_is_set_the_other_way_wherever_it_is_set() -> None:
    lines = ["def f(xs):", "    ok = False", "    seen = True", "    for x in xs:", "        if x:",
             "            ok = True", "    return ok, seen"]  # fmt: skip
    (change,) = inverted_flags(lines, "python")
    assert (change.row, change.text, change.also) == (1, "    ok = True", ((5, "            ok = False"),))
    assert change.change == "`ok` set the other way wherever it is set"
    js = ["const f = (t) => {", "  let same = false", "  if (t) {", "    same = true;", "  }", "  return same", "}"]
    (change,) = inverted_flags(js, "javascript")
    assert (change.row, change.text, change.also) == (1, "  let same = true", ((3, "    same = false;"),))
    assert inverted_flags(["    ok = False", "    ok = False"], "python") == []  # set one way only
    go = ["func F(rs []rune) bool {", "\tt := false", "\tfor i := range rs {", "\t\tif rs[i] == 0 {", "\t\t\tt=true",
          "\t\t}", "\t}", "\tvar u bool = true", "\treturn t && u", "}"]  # fmt: skip
    (change,) = inverted_flags(go, "go")
    assert (change.row, change.text, change.also) == (1, "\tt := true", ((4, "\t\t\tt=false"),))


def test_a_palindrome_flag_that_starts_where_it_should_end_is_fixed_first_where_the_failure_shows_it_flipped(
    repo: Path,
) -> None:
    commit_files(
        repo,
        {
            "strings.py": (
                "def reverse_delete(s, c):\n    t = ''.join(ch for ch in s if ch not in c)\n    same = False\n"
                "    for i in range(len(t) // 2):\n        if t[i] != t[-i - 1]:\n            same = True\n"
                "            break\n    return t, same\n"
            ),
            "test_strings.py": (
                "from strings import reverse_delete\n\n\ndef test_reverse_delete():\n"
                "    assert reverse_delete('abcde', 'ae') == ('bcd', False)\n"
                "    assert reverse_delete('abcdedcba', 'ab') == ('cdedc', True)\n"
            ),
        },
    )
    outcome, backend, events = repair(repo, [], coverage=True, mutants=40, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    tried = [event.data for event in events if event.type == "repair.candidate"]
    assert [(t["n"], t["status"], t["change"]) for t in tried] == [
        (1, "fixed", "`same` set the other way wherever it is set")
    ], tried


def test_a_new_values_method_called_alone_has_its_result_stored_back() -> None:
    js = ["const f = (values) => {", "  values.filter(x => x > 0);", "  xs.push(1);", "  s.trim()", "  a.map(f"]
    assert [(c.row, c.text) for c in dropped_results(js, "javascript")] == [
        (1, "  values = values.filter(x => x > 0);"),
        (3, "  s = s.trim()"),
    ]
    python = ["def f(s, xs):", "    s.strip()", "    sorted(xs)", "    xs.sort()", "    print(s.lower())"]
    assert [c.text for c in dropped_results(python, "python")] == ["    s = s.strip()", "    xs = sorted(xs)"]
    assert dropped_results(["func f() {", "\ts.Trim()"], "go") == []


def test_a_stripped_name_whose_result_was_dropped_is_fixed_in_python_and_javascript(repo: Path) -> None:
    code = (
        'def greeting(name):\n    """Hello and the name without the spaces around it."""\n    name.strip()\n'
        "    return 'Hello ' + name\n"
    )
    test = "from greet import greeting\n\n\ndef test_greeting():\n    assert greeting('  Ann ') == 'Hello Ann'\n"
    commit_files(repo, {"greet.py": code, "test_greet.py": test})
    outcome, backend, _events = repair(repo, [], coverage=True, mutants=40, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    assert "    name = name.strip()\n" in (repo / "greet.py").read_text()
    if shutil.which("node") is None:
        return
    js = (
        "function positives(values) {\n  values.filter((x) => x > 0);\n  return values;\n}\n\n"
        "module.exports = { positives };\n"
    )
    (repo / "greet.py").unlink()
    (repo / "test_greet.py").unlink()
    (repo / "pos.js").write_text(js)
    (repo / "pos.test.js").write_text(node_test("pos", "positives", "assert.deepEqual(positives([1, -2, 3]), [1, 3]);"))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "javascript")
    outcome, backend, _events = repair(repo, [], command="node --test", mutants=40, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    assert "  values = values.filter((x) => x > 0);\n" in (repo / "pos.js").read_text()
