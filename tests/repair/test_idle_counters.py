"""A counted loop whose body never reads its counter: a name its body reads made the counter."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_among_the_first, fixed_by_a_variant

from pedro.repair.idle_counters import idle_counters, idle_items
from pedro.tools.symbols import LanguageName


def changed(lines: list[str], language: LanguageName) -> list[str]:
    return [read.change.text.strip() for read in idle_counters(lines, language)]


def test_each_name_the_body_reads_is_made_the_counter_in_each_language() -> None:
    go = ["func F(n int) int {", "\tx := 0", "\tfor j := 1; j < n+1; j++ {", "\t\tx += n", "\t}", "\treturn x", "}"]
    assert changed(go, "go") == ["x += j"]  # what the line stores is no name it reads
    js = ["function f(n, k) {", "  let t = 0;", "  for (let i = 0; i < n; i++) {", "    t += k * n;", "  }", "}"]
    assert changed(js, "javascript") == ["t += k * i;", "t += i * n;"]  # `n` bounds the loop: first
    assert changed(["def f(n):", "    t = 0", "    for i in range(n):", "        t += n"], "python") == ["t += i"]


def test_a_name_the_header_also_reads_is_told_apart_from_the_rest_of_the_body() -> None:
    go = ["func F(n int) int {", "\tx := 0", "\tfor j := 1; j <= n; j++ {", "\t\tx += n * k", "\t}", "\treturn x", "}"]
    assert [(read.change.text.strip(), read.bounds) for read in idle_counters(go, "go")] == [
        ("x += j * k", True),
        ("x += n * j", False),
    ]
    python = ["def f(i):", "    x = 0", "    for j in range(1, i + 1):", "        x += i + k"]
    assert [read.bounds for read in idle_counters(python, "python")] == [True, False]
    # Nine names read before the header's: the header's still comes first, within the cap of eight per loop.
    crowded = [
        "def f(i):",
        "    x = 0",
        "    for j in range(1, i + 1):",
        "        x += a + b + c + d + e + g + h + m + p + i",
    ]
    reads = idle_counters(crowded, "python")
    assert len(reads) == 8 and reads[0].bounds and reads[0].change.text.endswith("+ j")


def test_a_loop_that_reads_its_counter_or_names_none_gives_nothing() -> None:
    assert not changed(["def f(xs):", "    t = 0", "    for i in range(len(xs)):", "        t += xs[i]"], "python")
    assert not changed(["def f(n):", "    t = 0", "    for _ in range(n):", "        t += n"], "python")
    # A loop over items is no counted loop: `for x in xs` with `total += 1` counts them.
    assert not changed(["def f(xs):", "    t = 0", "    for x in xs:", "        t += 1"], "python")


def test_a_sum_to_i_that_adds_the_outer_counter_is_fixed_by_a_variant(repo: Path) -> None:
    code = (
        "def triangles(n):\n    out = []\n    for i in range(1, n + 1):\n        x = 0\n"
        "        for j in range(1, i + 1):\n            x += i\n        out.append(x)\n    return out\n"
    )
    test = "from tri import triangles\n\n\ndef test_triangles():\n    assert triangles(4) == [1, 3, 6, 10]\n"
    events = fixed_by_a_variant(repo, {"tri.py": code, "test_tri.py": test})
    tried = [event.data for event in events if event.type == "repair.candidate"]
    kept = [data for data in tried if data["status"] == "fixed"]
    assert kept and kept[0]["change"] == "`i` → `j`: the loop never reads its counter", kept
    # The loop's own header shows the slip, so it is tried among the first, not after the budget a busy machine has.
    assert tried.index(kept[0]) < 5, [data["change"] for data in tried]
    assert "            x += j\n" in (repo / "tri.py").read_text()


def test_an_inner_loop_that_never_reads_its_item_runs_its_body_only_where_the_two_items_are_equal() -> None:
    python = ["def common(l1, l2):", "    ret = set()", "    for e1 in l1:", "        for e2 in l2:"]
    python += ["            ret.add(e1)", "            seen += 1", "    return ret"]
    [change] = idle_items(python, "python")
    assert (change.row, change.text) == (4, "            if e1 == e2:\n                ret.add(e1)")
    assert change.also == ((5, "                seen += 1"),)
    js = ["const f = (l1, l2) => {", "  for (const e1 of l1)", "    for (const e2 of l2)", "      ret.add(e1);", "}"]
    assert [(c.row, c.text) for c in idle_items(js, "javascript")] == [(3, "      if (e1 == e2)\n        ret.add(e1);")]
    go = ["func F(l1 []int, l2 []int) {", "\tfor _, e1 := range l1 {", "\t\tfor _, e2 := range l2 {"]
    go += ["\t\t\tm[e1] = true", "\t\t}", "\t}", "}"]
    [change] = idle_items(go, "go")
    assert (change.row, change.text, change.also) == (2, go[2] + "\n\t\t\tif e1 == e2 {", ((4, "\t\t\t}\n\t\t}"),))


def test_an_inner_loop_that_reads_its_item_or_an_outer_loop_that_counts_gives_nothing() -> None:
    reads = ["def f(l1, l2):", "    for a in l1:", "        for b in l2:", "            out.append(a + b)"]
    assert idle_items(reads, "python") == []
    counted = ["def f(n, l2):", "    for i in range(n):", "        for b in l2:", "            out.append(i)"]
    assert idle_items(counted, "python") == []
    # The body reads neither item: repeating something per pair on purpose, not a comparison left out.
    neither = ["def f(l1, l2):", "    for a in l1:", "        for b in l2:", "            n += 1"]
    assert idle_items(neither, "python") == []


def test_common_items_added_for_every_pair_are_fixed_by_a_variant(repo: Path) -> None:
    code = (
        "def common(l1, l2):\n    ret = set()\n    for e1 in l1:\n        for e2 in l2:\n"
        "            ret.add(e1)\n    return sorted(ret)\n"
    )
    test = "from items import common\n\n\ndef test_common():\n    assert common([1, 4, 3], [5, 3, 1]) == [1, 3]\n"
    fixed_among_the_first(repo, {"items.py": code, "test_items.py": test}, "`e1 == e2`")
    assert (
        "        for e2 in l2:\n            if e1 == e2:\n                ret.add(e1)\n"
        in (repo / "items.py").read_text()
    )
