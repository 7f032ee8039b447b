"""Go's and JavaScript's probes: the inputs read from the tests and the function's own text, and a real Go fix's
outputs beyond the tests named through repair."""

from __future__ import annotations

import ast
import os
import shutil
from pathlib import Path

import pytest
from repo_util import git
from test_repairer import repair

from pedro.calls.literals import literal_arguments
from pedro.calls.tables import table_arguments
from pedro.repair.choose import against_docs
from pedro.repair.locate import Unit, file_units
from pedro.repair.native_probes import (
    _go_params,
    _go_said,
    _js_said,
    go_parameters,
    native_probe_spec,
    pinning_test,
    probe_outputs,
)
from pedro.repair.probes import ProbeSpec


def test_literal_arguments_of_both_languages_read_as_values() -> None:
    assert literal_arguments("f(5, 'a', [1, 2], true, null)", "f") == [((5, "a", [1, 2], True, None), {})]
    assert literal_arguments('x := shop.Above([]int{1, 5, 7}, 5, "}")', "Above") == [(([1, 5, 7], 5, "}"), {})]
    # A variable, a struct, a template literal or a method of a value's value is not an input the probes can use.
    assert literal_arguments("f(items, 5); f(quote.Item{Qty: 2}); f(`a ${b}`); a.b.f(1); g().f(2)", "f") == []


def test_go_parameters_share_a_type_as_go_writes_them() -> None:
    assert _go_params("a, b int, s string") == ("int", "int", "string")
    assert _go_params("values []int, limit int") == ("[]int", "int")
    assert _go_params("") == ()
    # Types the probes cannot build leave the function unprobed.
    assert _go_params("items []quote.Item") is None
    assert _go_params("xs ...int") is None
    # The names beside their types, for what reads a signature otherwise (dropped_calls.py's slices to sort).
    assert go_parameters("l1, l2 []int, s  string") == [("l1", "[]int"), ("l2", "[]int"), ("s", "string")]
    assert go_parameters("int, string") is None


def _unit(root: Path, path: str, name: str, language: str) -> Unit:
    text = (root / path).read_text()
    return Unit(path, name, name, language, 1, text.count("\n"), text)  # type: ignore[arg-type]


def test_a_go_helper_the_tests_never_call_is_probed_near_its_own_numbers(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/shop\n\ngo 1.19\n")
    (tmp_path / "shipping").mkdir()
    (tmp_path / "shipping" / "shipping.go").write_text(
        "package shipping\n\nfunc Cost(grams int) int {\n\tif grams <= 1000 {\n\t\treturn 499\n\t}\n"
        "\treturn 499 + (grams-1000)/1000*150\n}\n"
    )
    spec = native_probe_spec(_unit(tmp_path, "shipping/shipping.go", "Cost", "go"), tmp_path)
    assert spec is not None and spec.params == ("int",) and spec.pinned == 0
    values = [ast.literal_eval(text)[0][0] for text in spec.inputs]
    # The boundaries a rounding slip shows at: each constant, one either side, and their multiples.
    assert {999, 1000, 1001, 1999, 2000, 2001}.issubset(values)


def test_a_method_or_an_unexported_javascript_module_has_no_probes(tmp_path: Path) -> None:
    (tmp_path / "shop.go").write_text("package shop\n\nfunc (c Cart) Total() int {\n\treturn 0\n}\n")
    method = Unit("shop.go", "Total", "Cart.Total", "go", 3, 5, "func (c Cart) Total() int {\n\treturn 0\n}\n")
    assert native_probe_spec(method, tmp_path) is None
    (tmp_path / "mean.js").write_text("function mean(xs) {\n  return 0;\n}\n")
    # No test calls it with literals: nothing to probe it on.
    assert native_probe_spec(_unit(tmp_path, "mean.js", "mean", "javascript"), tmp_path) is None


def test_a_go_fix_behind_the_function_the_tests_call_is_named_on_the_helpers_inputs(repo: Path) -> None:
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    (repo / "go.mod").write_text("module example.com/shop\n\ngo 1.19\n")
    (repo / "shipping").mkdir()
    (repo / "shipping" / "shipping.go").write_text(
        "package shipping\n\n// Cost charges 150 for each kilogram or part of one above the first.\n"
        "func Cost(grams int) int {\n\tif grams <= 1000 {\n\t\treturn 499\n\t}\n"
        "\textra := (grams - 1000) / 1000\n\treturn 499 + extra*150\n}\n"
    )
    (repo / "shop.go").write_text(
        'package shop\n\nimport (\n\t"fmt"\n\n\t"example.com/shop/shipping"\n)\n\n'
        "// Line prints a parcel's price.\nfunc Line(grams int) string {\n"
        '\treturn fmt.Sprintf("%d g: %d", grams, shipping.Cost(grams))\n}\n'
    )
    (repo / "shop_test.go").write_text(
        'package shop\n\nimport "testing"\n\nfunc TestLine(t *testing.T) {\n\tgrams := 2500\n'
        '\tif got := Line(grams); got != "2500 g: 799" {\n\t\tt.Errorf("Line() = %q", got)\n\t}\n}\n'
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "shop")
    outcome, backend, _ = repair(repo, [], command="go test ./...", mutants=80, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    assert "\textra := (grams - 1000 + 1000 - 1) / 1000" in (repo / "shipping" / "shipping.go").read_text()
    assert "Beyond the tests, the fix changes Cost(1001): 499 → 649" in outcome.summary
    assert not list(repo.rglob("*pedro_probe*")), "the probe program never lands in the repository"


MEDIAN_TEST = """package stats

import "testing"

type pair struct {
	a, b int // the operands
	want int
}

func TestMedian(t *testing.T) {
	cases := []struct {
		name string
		in   []float64
		want float64
	}{
		{"odd length", []float64{1, 2, 3}, 2},
		{name: "even length", in: []float64{1, 2, 3, 4}, want: 2.5},
		{"empty", nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Median(c.in); got != c.want {
				t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
			}
		})
	}
	for name, tc := range map[string]pair{"small": {1, 2, 3}} {
		_ = name
		_ = Add(tc.a, tc.b)
	}
	for _, tc := range []pair{{5, 6, 11}, {a: -1, b: 1, want: 0}} {
		_ = Add(tc.a, tc.b)
	}
}
"""


def test_the_rows_of_a_go_table_driven_test_are_the_inputs_its_call_passes() -> None:
    # Go's tests loop over a table: `Median(c.in)` has no literal to read, and the probes fell back on inputs built
    # from the types alone, all of an odd length, on which a wrong fix of the even case answers as the code did.
    assert table_arguments(MEDIAN_TEST, "Median") == [(([1, 2, 3],), {}), (([1, 2, 3, 4],), {}), ((None,), {})]
    assert table_arguments(MEDIAN_TEST, "Add") == [((5, 6), {}), ((-1, 1), {})]  # a map's rows have no struct here


def test_a_go_function_tested_through_a_table_is_probed_on_its_rows_and_their_neighbours(tmp_path: Path) -> None:
    (tmp_path / "stats").mkdir()
    (tmp_path / "stats" / "stats_test.go").write_text(MEDIAN_TEST)
    (tmp_path / "stats" / "stats.go").write_text(
        "package stats\n\nfunc Median(xs []float64) float64 {\n\tn := len(xs)\n\tif n == 0 {\n\t\treturn 0\n\t}\n"
        "\tif n%2 == 1 {\n\t\treturn xs[n/2]\n\t}\n\treturn (xs[n/2] + xs[n/2+1]) / 2\n}\n"
    )
    spec = native_probe_spec(_unit(tmp_path, "stats/stats.go", "Median", "go"), tmp_path)
    assert spec is not None and spec.pinned == 2  # the table's two rows a Go literal can write (nil cannot)
    inputs = [ast.literal_eval(text)[0][0] for text in spec.inputs]
    assert inputs[:2] == [[1, 2, 3], [1, 2, 3, 4]] and len(inputs) > 2
    assert (
        pinning_test(spec, 1, "2.5")
        == "if got := Median([]float64{float64(1.0), float64(2.0), float64(3.0), float64(4.0)}); got != 2.5 "
        '{ t.Errorf("got %v, want %v", got, 2.5) }'
    )
    assert pinning_test(spec, 1, "[1, 2]") == ""  # a slice: Go has no `!=` for it


def test_the_test_that_would_settle_a_dispute_is_written_in_the_functions_language() -> None:
    spec = ProbeSpec("words.js", "capitalize", ("(['olleh'], {})",), 0, language="javascript")
    assert pinning_test(spec, 0, "'Olleh'") == 'assert.deepStrictEqual(capitalize("olleh"), "Olleh")'
    python = ProbeSpec("words.py", "capitalize", ("(['olleh'], {})",), 0)
    assert pinning_test(python, 0, "'Olleh'") == "assert capitalize('olleh') == 'Olleh'"


GO_DOCUMENTED = """package stats

import "strings"

// Median of the numbers.
// >>> Median([3, 1, 2, 4, 5])
// 3.0
// >>> Median([]int{4, 1, 2, 3})
// 2.5
func Median(l []int) float64 {
	s := append([]int(nil), l...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	n := len(s)
	if n%2 == 1 {
		return float64(s[n/2])
	}
	return float64(s[n/2-1]+s[n/2]) / 2
}

// Upper says "AB" for Upper("ab"), Upper("x y") == "X Y".
func Upper(s string) string { return strings.ToUpper(s) }

// Evens: Evens(5) == []int{0, 2, 4}, and Evens(0) returns [].
func Evens(n int) []int {
	out := []int{}
	for i := 0; i < n; i += 2 {
		out = append(out, i)
	}
	return out
}

// Odd is true for odd numbers: Odd(3) == true, Odd(4) == false.
func Odd(n int) bool { return n%2 == 1 }
"""

JS_DOCUMENTED = """/* The words of s, each capitalised.
  >>> capitalize('ab cd')
  'Ab Cd'
  */
const capitalize = (s) => s.split(' ').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');

/** Halves: halves([2, 5]) === [1, 2.5], halves([]) === [] and halves([4]) === [2.0]. */
function halves(xs) {
  return xs.map((x) => x / 2);
}

// isEven(4) === true, isEven(3) === false, and isEven(null) === null.
function isEven(n) {
  return n === null ? null : n % 2 === 0;
}

module.exports = { capitalize, halves, isEven };
"""


@pytest.mark.parametrize(
    ("path", "text", "functions", "tool", "slip"),
    [
        ("stats/stats.go", GO_DOCUMENTED, {"Median": 2, "Upper": 1, "Evens": 2, "Odd": 2}, "go",
         ("s[n/2-1]+s[n/2]", "s[n/2]+s[n/2+1]", "Median")),
        ("words.js", JS_DOCUMENTED, {"capitalize": 1, "halves": 3, "isEven": 3}, "node",
         ("x / 2", "x / 2 + 1", "halves")),
    ],
)  # fmt: skip
def test_a_documented_go_or_javascript_function_answers_its_examples_as_its_language_prints_them(
    tmp_path: Path, path: str, text: str, functions: dict[str, int], tool: str, slip: tuple[str, str, str]
) -> None:
    # What the comment promises is compared with what the function's own language prints of its answer: a promise
    # written otherwise would count a right fix as contradicting its documentation.
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    (tmp_path / "go.mod").write_text("module example.com/stats\n\ngo 1.19\n")
    (tmp_path / path).parent.mkdir(exist_ok=True)
    (tmp_path / path).write_text(text)
    for unit in file_units(tmp_path, path):
        spec = native_probe_spec(unit, tmp_path)
        assert spec is not None and spec.pinned == 0, unit.name
        assert len(spec.documented) == functions[unit.name], (unit.name, spec)
        outputs = probe_outputs(spec, tmp_path, dict(os.environ), 60)
        assert outputs is not None, unit.name
        assert not against_docs(outputs, spec.documented), (unit.name, outputs, spec.documented)
    # And a slip in one of them contradicts its examples.
    old, new, slipped_in = slip
    (tmp_path / path).write_text(text.replace(old, new))
    slipped = {}
    for unit in file_units(tmp_path, path):
        spec = native_probe_spec(unit, tmp_path)
        assert spec is not None
        outputs = probe_outputs(spec, tmp_path, dict(os.environ), 60)
        assert outputs is not None
        slipped[unit.name] = len(against_docs(outputs, spec.documented))
    assert [name for name, count in slipped.items() if count] == [slipped_in]


def test_a_documented_answer_is_written_as_the_language_prints_it_or_not_at_all() -> None:
    assert [_js_said(v) for v in (3, 2.0, -1.5, "ab", None, True, [1.0, "a"], [])] == [
        "3", "2", "-1.5", "'ab'", "null", "true", "[ 1, 'a' ]", "[]"
    ]  # fmt: skip
    # node prints these otherwise than Python writes them, or in a shape pedro cannot foretell: no promise is made.
    assert [_js_said(v) for v in (float("inf"), float("nan"), -0.0, "it's", [1] * 7, [[1]], {"a": 1})] == [None] * 7
    assert _go_said([1, 2], "[]int") == "[]int{1, 2}" and _go_said("ab", "string") == '"ab"'
    assert _go_said(2.5, "float64") == "2.5" and _go_said(True, "bool") == "true"
    assert [_go_said([1.0], "[]float64"), _go_said("a\tb", "string"), _go_said(1, "map[string]int")] == [None] * 3
