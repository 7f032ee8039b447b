"""Two places of one sequence read on two lines at each other's places, swapped together: offered for such pairs
alone, and a date read day-first where it is month-first fixed through the real repair."""

from __future__ import annotations

from pathlib import Path

from repo_util import commit_files
from test_mutants import tried_changes
from test_repairer import repair

from pedro.repair.swapped_reads import crossed_attributes, reordered_reads, swapped_reads, swapped_throughout

DATE = (
    "def parse_date(text):\n"
    '    """A date written month-day-year, as (year, month, day)."""\n'
    '    parts = text.split("-")\n'
    "    month = int(parts[1])\n"
    "    day = int(parts[0])\n"
    "    year = int(parts[2])\n"
    "    if not 1 <= month <= 12:\n"
    '        raise ValueError(f"no month {month} in {text}")\n'
    "    return (year, month, day)\n"
)


def test_each_pair_of_places_read_on_two_lines_is_swapped_on_both() -> None:
    changes = swapped_reads(DATE.splitlines(), "python")
    assert [(c.row, c.text.strip(), c.also) for c in changes] == [
        (3, "month = int(parts[0])", ((4, "    day = int(parts[1])"),)),
        (3, "month = int(parts[2])", ((5, "    year = int(parts[1])"),)),
        (4, "day = int(parts[2])", ((5, "    year = int(parts[0])"),)),
    ]
    go = [
        "func Valid(date string) bool {",
        '\tsplit := strings.Split(date, "-")',
        "\tmonth, err := strconv.Atoi(split[1])",
        "\tday, err := strconv.Atoi(split[0])",
        "\treturn err == nil && month > 0 && day > 0",
        "}",
    ]
    assert [c.text.strip() for c in swapped_reads(go, "go")] == ["month, err := strconv.Atoi(split[0])"]


def test_the_swap_that_puts_a_sequences_places_in_order_down_the_unit_is_told_apart() -> None:
    (change,) = reordered_reads(DATE.splitlines(), "python")
    assert (change.row, change.text.strip(), change.also) == (
        3,
        "month = int(parts[0])",
        ((4, "    day = int(parts[1])"),),
    )
    assert change.change == "`parts[1]` and `parts[0]` swapped so that `parts` is read in order"
    in_order = ["def f(p):", "    a = p[0]", "    b = p[1]", "    c = p[2]", "    return a + b + c"]
    # Two swaps needed (2, 0, 1): no single pair is the slip.
    rotated = ["def f(p):", "    a = p[2]", "    b = p[0]", "    c = p[1]", "    return a + b + c"]
    assert reordered_reads(in_order, "python") == reordered_reads(rotated, "python") == []


def test_reads_of_one_place_writes_and_lines_that_read_two_places_are_left_alone() -> None:
    lines = [
        "def f(xs, ys):",
        "    a = xs[0]",
        "    b = xs[0]",  # the same place
        "    ys[1] = a",  # written, not read
        "    c = ys[0] + ys[1]",  # two places on one line: a sum, not a slip
        "    return a + b + c + obj.items[1]",
    ]
    assert swapped_reads(lines, "python") == []


def test_a_date_read_day_first_is_fixed_by_the_two_places_swapped(repo: Path) -> None:
    commit_files(
        repo,
        {
            "dates.py": DATE,
            "test_dates.py": (
                "import pytest\nfrom dates import parse_date\n\n\ndef test_parse_date():\n"
                '    assert parse_date("03-11-2000") == (2000, 3, 11)\n'
                '    assert parse_date("12-01-1999") == (1999, 12, 1)\n'
                "    with pytest.raises(ValueError):\n"
                '        parse_date("13-01-2000")\n'
            ),
        },
    )
    outcome, backend, events = repair(repo, [], coverage=True, mutants=60, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    tried = tried_changes(events)
    assert "swapped so that `parts` is read in order" in str(fixed[0].get("change")), "\n".join(map(str, tried))
    assert tried[0][2] == "fixed", "\n".join(map(str, tried))
    text = (repo / "dates.py").read_text()
    assert "    month = int(parts[0])\n    day = int(parts[1])\n" in text


VALID_DATE = (
    "def valid_date(text):\n"
    '    """Whether a date written month-day-year names a day of the calendar."""\n'
    '    t = [int(part) for part in text.split("-")]\n'
    "    if t[1] < 1 or t[1] > 12 or t[0] < 1:\n"
    "        return False\n"
    "    if t[1] == 2 and t[0] > 29:\n"
    "        return False\n"
    "    if t[1] in (4, 6, 9, 11) and t[0] > 30:\n"
    "        return False\n"
    "    return t[0] <= 31\n"
)


def test_two_places_read_all_through_a_unit_are_swapped_wherever_they_are_read() -> None:
    (change,) = swapped_throughout(VALID_DATE.splitlines(), "python")
    assert change.change == "`t[0]` and `t[1]` swapped wherever the unit reads them"
    assert (change.row, change.text) == (3, "    if t[0] < 1 or t[0] > 12 or t[1] < 1:")
    assert change.also == (
        (5, "    if t[0] == 2 and t[1] > 29:"),
        (7, "    if t[0] in (4, 6, 9, 11) and t[1] > 30:"),
        (9, "    return t[1] <= 31"),
    )
    # Read at three places, or at two places twice in all (the pair swap's case): not this change.
    three = ["def f(t):", "    a = t[0] + t[1]", "    return a * t[2] + t[0]"]
    twice = ["def f(t):", "    return t[0] - t[1]"]
    assert swapped_throughout(three, "python") == swapped_throughout(twice, "python") == []


def test_a_date_check_that_takes_the_day_for_the_month_throughout_is_fixed_by_one_swap(repo: Path) -> None:
    commit_files(
        repo,
        {
            "dates.py": VALID_DATE,
            "test_dates.py": (
                "from dates import valid_date\n\n\ndef test_valid_date():\n"
                '    assert valid_date("03-11-2000")\n    assert valid_date("12-25-2000")\n'
                '    assert valid_date("01-31-2020")\n    assert not valid_date("02-30-2000")\n'
                '    assert not valid_date("04-31-2020")\n    assert not valid_date("13-01-2020")\n'
            ),
        },
    )
    outcome, backend, events = repair(repo, [], coverage=True, mutants=60, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    assert fixed[0]["change"] == "`t[0]` and `t[1]` swapped wherever the unit reads them", fixed
    assert "    if t[0] < 1 or t[0] > 12 or t[1] < 1:\n" in (repo / "dates.py").read_text()


def test_two_lines_that_each_assign_the_attribute_named_after_the_other_are_crossed_back() -> None:
    # humanize's fractional: either line alone changed leaves both names one value; 249 candidates went by.
    lines = [
        "def fractional(value):",
        "    frac = Fraction(value)",
        "    numerator = frac.denominator",
        "    denominator = frac.numerator  # in lowest terms",
        "    return f'{numerator}/{denominator}'",
    ]
    (change,) = crossed_attributes(lines, "python")
    assert (change.row, change.text) == (2, "    numerator = frac.numerator")
    assert change.also == ((3, "    denominator = frac.denominator  # in lowest terms"),)
    assert change.change == "`.denominator` and `.numerator` swapped between the two lines that assign them"
    # Names that only resemble the attributes, or reads of two objects, are left alone.
    assert crossed_attributes(["  let w = box.height;", "  let h = box.width;"], "javascript") == []
    assert crossed_attributes(["a = x.b", "b = y.a"], "python") == []
