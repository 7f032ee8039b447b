"""Repair's variants for a term in excess or out of place: an operand dropped, a chain's connective flipped whole, a
list's items swapped, a difference made absolute, a remainder where a difference is compared with zero."""

from __future__ import annotations

from pathlib import Path

from test_statement_slips import fixed_by_variants_alone

from pedro.repair.mutants import line_mutants
from pedro.repair.term_slips import moved_counters


def changes(line: str, language: str = "python") -> dict[str, str]:
    """What each variant of the line changed, by its new line (stripped)."""
    return {mutant.line.strip(): mutant.change for mutant in line_mutants(line, language)}  # type: ignore[arg-type]


def test_an_operand_is_dropped_as_its_operators_precedence_binds_it() -> None:
    found = changes("    return [n + 2*i + i for i in range(n)]")
    assert found["return [n + 2*i for i in range(n)]"] == "`+ i` dropped"
    assert found["return [n + i for i in range(n)]"] == "`+ 2*i` dropped"
    assert changes("        n[0] = n[0] * neg * -1")["n[0] = n[0] * neg"] == "`* -1` dropped"
    assert "expression += oprt + str(oprn)" in changes("        expression += expression + oprt + str(oprn)")
    # A condition one too many, as a whole comparison, never its half.
    chain = changes("    if a == b and b == c:")
    assert chain["if a == b:"] == "`and b == c` dropped"
    assert "if a == b == c:" not in chain


def test_in_arithmetic_the_token_a_tighter_operator_binds_is_dropped_too_after_the_operands() -> None:
    mutants = line_mutants("    prod = (-1) ** 2 * len(negatives)", "python")
    tiers = {mutant.line.strip(): mutant.tier for mutant in mutants}
    assert tiers["prod = len(negatives)"] == 3
    assert tiers["prod = (-1) ** len(negatives)"] == 4


def test_text_is_never_dropped_from_a_line() -> None:
    assert all('"total: "' in line for line in changes('    label = "total: " + str(n) + unit'))


def test_a_chain_of_ands_becomes_a_chain_of_ors_whole_and_not_a_mixed_one() -> None:
    found = changes("      if s[i] == s[i+1] and s[i+1] == s[i+2] and s[i] == s[i+2]:")
    assert found["if s[i] == s[i+1] or s[i+1] == s[i+2] or s[i] == s[i+2]:"] == "every `and` → `or`"
    js = changes("  return a > 0 || b > 0 || c > 0;", "javascript")
    assert js["return a > 0 && b > 0 && c > 0;"] == "every `||` → `&&`"
    assert not [line for line in changes("    if a and b or c and d:") if line.count("or") == 3]


def test_two_items_of_a_list_or_tuple_written_out_are_swapped_but_never_a_tuple_of_types() -> None:
    found = changes("    return [arr.index(min(evens)), min(evens)]")
    assert found["return [min(evens), arr.index(min(evens))]"].startswith("items ")
    assert "return (hi, lo)" in changes("    return (lo, hi)")
    assert "if isinstance(val, (bytes, str)):" not in changes("    if isinstance(val, (str, bytes)):")


def test_two_literals_a_line_compares_are_swapped_when_of_a_kind() -> None:
    found = changes("  if (S[0] == ' ' && S[1] == 'I') { t = 1 }", "javascript")
    assert found["if (S[0] == 'I' && S[1] == ' ') { t = 1 }"] == "`' '` and `'I'` swapped"
    assert "if x == 3 and y == 5:" in changes("    if x == 5 and y == 3:")
    # A number is never swapped with a string, nor a literal nothing compares.
    assert "if x == 2 and y == 'a':" not in changes("    if x == 'a' and y == 2:")
    assert "print(2, 1)" not in changes("    print(1, 2)")


def test_a_difference_that_stands_alone_is_made_absolute_and_one_compared_with_zero_a_remainder() -> None:
    assert changes("        distance = elem - elem2")["distance = abs(elem - elem2)"] == (
        "`elem - elem2` → `abs(elem - elem2)`"
    )
    assert "const gap = Math.abs(a - b);" in changes("  const gap = a - b;", "javascript")
    assert changes("        if n - i == 0:")["if n % i == 0:"] == "`-` → `%`"
    assert "if n % 2 == 1:" not in changes("        if n - 2 == 1:")
    # Already absolute, or a part of a longer sum: left as it is.
    assert not [line for line in changes("    d = abs(a - b)") if "abs(abs(" in line]
    assert not [line for line in changes("    d = a - b + c") if "abs(" in line]


def test_a_distance_written_as_a_plain_difference_is_fixed_by_variants(repo: Path) -> None:
    fixed_by_variants_alone(
        repo,
        {
            "close.py": (
                "def has_close(numbers, threshold):\n"
                '    """Whether any two of the numbers are closer to each other than threshold."""\n'
                "    for i, a in enumerate(numbers):\n        for j, b in enumerate(numbers):\n"
                "            if i != j:\n                gap = a - b\n                if gap < threshold:\n"
                "                    return True\n    return False\n"
            ),
            "test_close.py": (
                "from close import has_close\n\n\ndef test_has_close():\n"
                "    assert has_close([1.0, 2.0, 3.9, 4.0], 0.3) is True\n"
                "    assert has_close([1.0, 2.0, 3.9, 4.5], 0.3) is False\n"
            ),
        },
        mutants=200,
    )
    assert "gap = abs(a - b)" in (repo / "close.py").read_text()


def test_a_factor_applied_twice_is_fixed_by_dropping_it(repo: Path) -> None:
    fixed_by_variants_alone(
        repo,
        {
            "tax.py": (
                "def with_tax(price, rate):\n"
                '    """The price with the tax rate (1.2 for 20%) applied once."""\n'
                "    return price * rate * rate\n"
            ),
            "test_tax.py": (
                "from tax import with_tax\n\n\ndef test_with_tax():\n    assert with_tax(100, 1.5) == 150\n"
            ),
        },
    )
    assert "    return price * rate\n" in (repo / "tax.py").read_text()


def test_a_joins_separator_gains_or_loses_its_space_where_the_failure_compares_text() -> None:
    found = {m.line.strip(): m for m in line_mutants("    return ' '.join(sorted(word) for word in words)", "python")}
    assert found["return ''.join(sorted(word) for word in words)"].formats
    assert 'return ", ".join(names)' in changes('    return ",".join(names)')
    assert not [line for line in changes('    return "and".join(names)') if "join" in line and "and" not in line]


def test_a_counter_moved_on_the_wrong_name_is_moved_on_each_of_the_others() -> None:
    lines = ["def depth(s):", "    depth = max_depth = 0", "    for c in s:", "        if c == '(':",
             "            depth += 1", "            max_depth = max(depth, max_depth)", "        else:",
             "            max_depth -= 1", "    return max_depth"]  # fmt: skip
    assert list(moved_counters(lines)) == [
        (4, "            max_depth += 1", "`depth` → `max_depth`, the counter moved"),
        (7, "            depth -= 1", "`max_depth` → `depth`, the counter moved"),
    ]


def test_a_depth_that_undoes_the_wrong_counter_is_fixed_by_moving_the_other(repo: Path) -> None:
    fixed_by_variants_alone(
        repo,
        {
            "nesting.py": (
                "def deepest(text):\n"
                '    """How deep the parentheses of text nest at most."""\n'
                "    depth = max_depth = 0\n    for c in text:\n        if c == '(':\n            depth += 1\n"
                "            max_depth = max(depth, max_depth)\n        elif c == ')':\n            max_depth -= 1\n"
                "    return max_depth\n"
            ),
            "test_nesting.py": (
                "from nesting import deepest\n\n\ndef test_deepest():\n"
                "    assert deepest('(()())') == 2\n    assert deepest('()()()') == 1\n"
            ),
        },
        mutants=200,
    )
    assert "        elif c == ')':\n            depth -= 1\n" in (repo / "nesting.py").read_text()


def test_arithmetic_whose_brackets_were_left_out_is_taken_together() -> None:
    found = changes("        return (l[len(l) - 1 // 2] + l[len(l) // 2]) / 2.0")
    assert found["return (l[(len(l) - 1) // 2] + l[len(l) // 2]) / 2.0"] == "`len(l) - 1` taken together before `//`"
    assert changes("    mid = lo + hi / 2")["mid = (lo + hi) / 2"] == "`lo + hi` taken together before `/`"
    assert changes("    return total / n + 1")["return total / (n + 1)"] == "`n + 1` taken together after `/`"
    assert changes("  const mid = lo + hi / 2;", "javascript")["const mid = (lo + hi) / 2;"]
    # Nothing where the operators bind alike or the tighter one already has its brackets, and never around text.
    for line in ("    return a + b - c", "    return (a + b) / 2", '    s = "a" + b * 2'):
        assert not [change for change in changes(line).values() if "taken together" in change], line


def test_the_rest_of_a_chain_is_dropped_with_the_first_term_too_many() -> None:
    mutants = {m.line.strip(): m for m in line_mutants("    return abs(a % 10) * abs(b % 10) * a * b", "python")}
    assert mutants["return abs(a % 10) * abs(b % 10)"].change == "`* a * b` dropped"
    assert mutants["return abs(a % 10) * abs(b % 10)"].tier == 4
    # The chain ends where an operator binds otherwise: `+ s` stays when `* 2` goes.
    assert "return h + m" not in changes("    return h + m * 2 + s")
    assert "if x:" in changes("    if x and y and z:")


def test_two_terms_whose_order_counts_are_swapped_but_never_numbers_added() -> None:
    rotated = changes("        return s[:len(s) - shift] + s[len(s) - shift:]")
    assert rotated["return s[len(s) - shift:] + s[:len(s) - shift]"].endswith("swapped")
    assert changes("    return len(xs) - i")["return i - len(xs)"] == "`len(xs)` and `i` swapped"
    assert 'return name + "x"' in changes('    return "x" + name')
    assert "return g(y) + f(x)" not in changes("    return f(x) + g(y)")
    # JavaScript's parts of a text are methods' results.
    js = changes("    return s.slice(0, -shift) + s.slice(-shift);", "javascript")
    assert js["return s.slice(-shift) + s.slice(0, -shift);"].endswith("swapped")


def test_a_sort_is_tried_the_other_way_round() -> None:
    assert changes("    ranked = sorted(arr)")["ranked = sorted(arr, reverse=True)"].startswith("`sorted(…)`")
    assert "xs.sort(key=len, reverse=True)" in changes("    xs.sort(key=len)")
    assert "ys.sort(reverse=True)" in changes("    ys.sort()")
    # Already reversed: the flag is a word to turn over, not a second `reverse=`.
    assert not [line for line in changes("    return sorted(xs, reverse=True)") if line.count("reverse") > 1]
    assert not [line for line in changes("    x = my_sorted(a)") if "reverse" in line]


def test_a_separator_written_out_alone_is_tried_as_a_space() -> None:
    found = {m.line.strip(): m for m in line_mutants("            parts.append(',')", "python")}
    assert found["parts.append(' ')"].formats  # tried only where the failure compares text
    assert "out += ','" in changes("    out += ' '")


def test_words_split_on_the_wrong_separator_are_fixed_by_variants(repo: Path) -> None:
    fixed_by_variants_alone(
        repo,
        {
            "words.py": (
                "def words(s):\n"
                '    """The words of s, which commas or spaces separate."""\n'
                "    letters = []\n    for letter in s:\n        if letter == ',':\n"
                "            letters.append(',')\n        else:\n            letters.append(letter)\n"
                '    return "".join(letters).split()\n'
            ),
            "test_words.py": (
                "from words import words\n\n\ndef test_words():\n"
                '    assert words("Hi, my name") == ["Hi", "my", "name"]\n'
                '    assert words("one,two") == ["one", "two"]\n'
            ),
        },
        mutants=200,
    )
    assert "letters.append(' ')" in (repo / "words.py").read_text()


def test_a_rotation_that_joins_its_parts_the_wrong_way_round_is_fixed_by_variants(repo: Path) -> None:
    fixed_by_variants_alone(
        repo,
        {
            "rotate.py": (
                "def rotate_right(s, k):\n"
                '    """s with its last k characters moved to the front."""\n'
                "    k = k % len(s)\n    return s[:len(s) - k] + s[len(s) - k:]\n"
            ),
            "test_rotate.py": (
                "from rotate import rotate_right\n\n\ndef test_rotate_right():\n"
                '    assert rotate_right("abcde", 2) == "deabc"\n    assert rotate_right("ab", 1) == "ba"\n'
            ),
        },
        mutants=200,
    )
    assert "return s[len(s) - k:] + s[:len(s) - k]" in (repo / "rotate.py").read_text()
