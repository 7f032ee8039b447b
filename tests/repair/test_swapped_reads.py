"""Two places of one sequence read on two lines at each other's places, swapped together: offered for such pairs
alone, and a date read day-first where it is month-first fixed through the real repair."""

from __future__ import annotations

from pathlib import Path

from test_repairer import repair
from test_spectrum import make_repo

from pedro.repair.swapped_reads import swapped_reads

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
    make_repo(
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
    tried = [(e.data["n"], e.data.get("change"), e.data["status"]) for e in events if e.type == "repair.candidate"]
    assert "swapped between the two lines" in str(fixed[0].get("change")), "\n".join(map(str, tried))
    text = (repo / "dates.py").read_text()
    assert "    month = int(parts[0])\n    day = int(parts[1])\n" in text
