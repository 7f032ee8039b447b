"""A Go function that dropped its only call of a package the file imports, so the package does not build."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro
from repo_util import git

from pedro.repair.clues import read_clues
from pedro.repair.dropped_calls import dropped_calls, dropped_checks
from pedro.tools.testreport import FailedTest

COMMON = (
    "func Common(l1 []int, l2 []int) []int {\n"
    "\tm := make(map[int]bool)\n"
    "\tfor _, e1 := range l1 {\n"
    "\t\tfor _, e2 := range l2 {\n"
    "\t\t\tif e1 == e2 {\n"
    "\t\t\t\tm[e1] = true\n"
    "\t\t\t}\n"
    "\t\t}\n"
    "\t}\n"
    "\tres := make([]int, 0, len(m))\n"
    "\tfor k := range m {\n"
    "\t\tres = append(res, k)\n"
    "\t}\n"
    "\treturn res\n"
    "}\n"
)
# The same promise kept in the order of the second list, so that no run depends on the order Go walks a map in.
IN_ORDER = (
    "func Common(l1 []int, l2 []int) []int {\n"
    "\tseen := make(map[int]bool)\n"
    "\tfor _, e := range l1 {\n"
    "\t\tseen[e] = true\n"
    "\t}\n"
    "\tres := make([]int, 0)\n"
    "\tfor _, e := range l2 {\n"
    "\t\tif seen[e] {\n"
    "\t\t\tres = append(res, e)\n"
    "\t\t\tseen[e] = false\n"
    "\t\t}\n"
    "\t}\n"
    "\treturn res\n"
    "}\n"
)


def changes(text: str, unused: set[str]) -> list[str]:
    return [change.change.rpartition(": ")[0] for change in dropped_calls(text.splitlines(), frozenset(unused))]


def test_a_slice_is_sorted_after_the_loop_that_fills_it_first_then_where_it_is_walked_and_then_downwards() -> None:
    assert changes(COMMON, {"sort"}) == [
        "`sort.Ints(res)` added before `return res`",
        "`sort.Ints(l1)` added before `for _, e1 := range l1 {`",
        "`sort.Sort(sort.Reverse(sort.IntSlice(res)))` added before `return res`",
        "`sort.Sort(sort.Reverse(sort.IntSlice(l1)))` added before `for _, e1 := range l1 {`",
    ]
    (first,) = [c for c in dropped_calls(COMMON.splitlines(), frozenset({"sort"})) if c.row == 13][:1]
    assert first.text == "\tsort.Ints(res)\n\treturn res"
    # A slice filled by one loop and read by the next, in a body indented with spaces and tabs alike (as written by
    # hand), a sort between them; strings and floats by their own names.
    third = (
        "func SortThird(l []int, words []string) []int {\n    temp := make([]int, 0)\n"
        "\tfor i := 0; i < len(l); i = i + 3 {\n\t\ttemp = append(temp, l[i])\n\t}\n\tj := 0\n"
        "\tfor i := 0; i < len(l); i = i + 3 {\n\t\tl[i] = temp[j]\n\t\tj++\n\t}\n\treturn l\n}\n"
    )
    assert changes(third, {"sort"})[:2] == [
        "`sort.Ints(temp)` added before `j := 0`",
        "`sort.Ints(l)` added before `return l`",
    ]
    # Braces in strings and comments are not the code's; a slice of another type is left alone.
    quoted = 'func F(xs []float64, ps []*int) []float64 {\n\ts := "{"  // }\n\treturn xs\n}\n'
    assert changes(quoted, {"sort"}) == [
        "`sort.Float64s(xs)` added before `return xs`",
        "`sort.Sort(sort.Reverse(sort.Float64Slice(xs)))` added before `return xs`",
    ]


def test_a_text_parameter_is_put_in_one_case_or_trimmed_where_strings_is_imported_and_unused() -> None:
    count = "func CountDistinct(str string, n int) int {\n\tseen := map[rune]bool{}\n\treturn len(seen) + n\n}\n"
    assert changes(count, {"strings"}) == [
        "`str = strings.ToLower(str)` added where the body starts",
        "`str = strings.ToUpper(str)` added where the body starts",
        "`str = strings.TrimSpace(str)` added where the body starts",
    ]
    # Nothing without the failure's word that the package is unused.
    assert changes(count, set()) == [] and changes(COMMON, {"strings"}) == []


def test_both_ways_go_words_an_unused_import_are_read(tmp_path: Path) -> None:
    old = FailedTest("task", "", './solution.go:4:5: imported and not used: "sort"')
    new = FailedTest("task", "", './solution.go:4:5: "golang.org/x/exp/slices" imported and not used')
    assert read_clues([old, new], tmp_path).unused == {"sort", "slices"}


def test_a_go_job_whose_package_stopped_building_when_a_sort_was_dropped_is_repaired_and_completes(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    (repo / "go.mod").write_text("module example.com/common\n\ngo 1.19\n")
    (repo / "common.go").write_text(f'package common\n\nimport (\n\t"sort"\n)\n\n{IN_ORDER}')
    (repo / "common_test.go").write_text(
        'package common\n\nimport (\n\t"reflect"\n\t"testing"\n)\n\nfunc TestCommon(t *testing.T) {\n'
        "\tgot := Common([]int{5, 3, 2, 8, 1, 9}, []int{3, 2, 9, 1, 7, 4})\n"
        '\tif !reflect.DeepEqual(got, []int{1, 2, 3, 9}) {\n\t\tt.Errorf("got %v", got)\n\t}\n}\n'
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "common")
    server = stub_server(["```go\nfunc Common(l1 []int, l2 []int) []int {\n\treturn l1\n}\n```"] * 4)
    proc = pedro(
        "debug", "--test", "go test ./...", "-d", "the package does not build", "--backend", "openai",
        "--base-url", f"{server.url}/v1", "--model", "m", "--no-input", "--json", env=cli_env, cwd=repo,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    end = [event for event in events if event["type"] == "job.finished"][-1]
    assert end["reason"] == "repaired", end["summary"]
    assert end["evidence"]["verdict"] == {
        "example.com/common": "fixed",
        "example.com/common.TestCommon": "added_passing",
    }
    # The first variant tried is the fix; the model's answers, asked alongside, do not build.
    tried = [event for event in events if event["type"] == "repair.candidate"]
    variants = [event for event in tried if "change" in event]
    assert variants[0]["change"].startswith("`sort.Ints(res)` added before `return res`"), tried
    assert variants[0]["status"] == "fixed", tried
    assert "\tsort.Ints(res)\n\treturn res\n" in (repo / "common.go").read_text()


def test_a_check_declared_and_never_used_is_added_to_each_condition_on_each_name_it_reads() -> None:
    intersection = (
        "func Intersection(a [2]int, b [2]int) string {\n"
        "\tis_prime := func(num int) bool {\n\t\tif num < 2 {\n\t\t\treturn false\n\t\t}\n\t\treturn true\n\t}\n"
        "\tlength := b[1] - a[0]\n"
        '\tif length > 0 || a[0] == 0 {\n\t\treturn "YES"\n\t}\n\treturn "NO"\n}\n'
    )
    found = dropped_checks(intersection.splitlines(), frozenset({"is_prime"}))
    # Not inside the check itself, nor on a collection it indexes; an `||` bracketed before the `&&` joins it.
    assert [(c.row, c.text) for c in found] == [
        (8, "\tif (length > 0 || a[0] == 0) && is_prime(length) {"),
        (8, "\tif (length > 0 || a[0] == 0) && !is_prime(length) {"),
    ]
    assert (
        found[0].change
        == "`&& is_prime(length)` added to `if length > 0 || a[0] == 0`: is_prime is declared and not used"
    )
    assert dropped_checks(intersection.splitlines(), frozenset({"length"})) == []


def test_both_ways_go_words_a_local_declared_and_not_used_are_read(tmp_path: Path) -> None:
    old = FailedTest("task", "", "./solution.go:21:5: is_prime declared but not used")
    new = FailedTest("task", "", "./solution.go:21:5: declared and not used: seen")
    assert read_clues([old, new], tmp_path).unused_locals == {"is_prime", "seen"}
