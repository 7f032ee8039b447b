"""A division by a name where the count of a sequence the unit walks was meant (`/ mean` → `/ len(numbers)`), and a
rounded sum or difference where a division was meant (`Math.floor(x - base)` → `Math.floor(x / base)`)."""

from __future__ import annotations

from pathlib import Path

from test_mutants import changes, fixed_by_a_variant

from pedro.repair.counts import divided_by_count

MAD = (
    "def mean_absolute_deviation(numbers):\n    mean = sum(numbers) / len(numbers)\n"
    "    return sum(abs(x - mean) for x in numbers) / mean\n"
)


def test_a_division_by_a_name_is_given_the_count_of_each_sequence_the_unit_walks() -> None:
    rows = [(c.row, c.text) for c in divided_by_count(MAD.splitlines(), "python")]
    assert rows == [(2, "    return sum(abs(x - mean) for x in numbers) / len(numbers)")]
    lines = [
        "const mad = (numbers) => {",
        "  var mean = numbers.reduce((a, b) => a + b, 0) / numbers.length;",
        "  // spread / mean",
        "  return numbers.map((x) => Math.abs(x - mean)).reduce((a, b) => a + b, 0) / mean;",
        "};",
    ]
    assert [(c.row, c.change) for c in divided_by_count(lines, "javascript")] == [
        (3, "`/ mean` → `/ numbers.length`, the count of what it walks")
    ]
    # Go's division takes one type on both sides: the length as it is, and as a float64.
    go = ["func Mad(numbers []float64) float64 {", "\tmean := 0.0", "\tfor _, x := range numbers {", "\t\tmean += x",
          "\t}", "\treturn total(numbers) / mean", "}"]  # fmt: skip
    assert [c.text for c in divided_by_count(go, "go")] == [
        "\treturn total(numbers) / float64(len(numbers))",
        "\treturn total(numbers) / len(numbers)",
    ]
    # Nothing where the unit walks no sequence, nor for a division by a call, a length or a whole division.
    assert divided_by_count(["def f(a, b):", "    return a / b"], "python") == []
    for line in ("    return total / len(xs)", "    return total // n", "    return total / f(n)"):
        assert divided_by_count(["def f(xs, n):", "    total = sum(xs)", line], "python") == [], line


def test_a_rounded_sum_or_difference_is_given_a_division() -> None:
    assert "x = Math.floor(x / base);" in changes("    x = Math.floor(x - base);", "javascript")
    assert "return int(a / b) + c" in changes("    return int(a + b) + c")
    # Not outside a rounding call: `f(a - b)` keeps its operator's own variants.
    assert "return f(a / b)" not in changes("    return f(a - b)")


def test_a_mean_deviation_divided_by_the_mean_is_fixed_by_the_count(repo: Path) -> None:
    fixed_by_a_variant(
        repo,
        {
            "stats.py": MAD,
            "test_stats.py": (
                "from stats import mean_absolute_deviation\n\n\ndef test_mad():\n"
                "    assert abs(mean_absolute_deviation([1.0, 2.0, 3.0]) - 2.0 / 3.0) < 1e-6\n"
                "    assert mean_absolute_deviation([1.0, 2.0, 3.0, 4.0]) == 1.0\n"
            ),
        },
    )
    assert (repo / "stats.py").read_text().endswith("/ len(numbers)\n")
