"""Repair of copied code where one copy parts from its twin: the names the copies swap are read from the lines that
are the same but for them, and the parted line is made like its twin."""

from __future__ import annotations

from pathlib import Path

from repo_util import commit_files
from test_repairer import repair

from pedro.repair.parted_twins import parted_twins

DIGITS = (
    "def smaller_digit_sum(a, b):\n"
    '    """Whether the digits of `a` add up to less than those of `b`; a negative number\'s first digit counts\n'
    '    negative."""\n'
    "    sign_a = 1\n"
    "    sign_b = 1\n"
    "    if a < 0:\n"
    "        sign_a, a = -1, -a\n"
    "    if b < 0:\n"
    "        sign_b, b = -1, -b\n"
    "    total_a = 0\n"
    "    total_b = 0\n"
    "    while a >= 10:\n"
    "        total_a += a % 10\n"
    "        a //= 10\n"
    "    while b >= 10:\n"
    "        total_b += b % 10\n"
    "        b //= 10\n"
    "    total_a += sign_a * a + a\n"
    "    total_b += sign_b * b\n"
    "    return total_a < total_b\n"
)


def test_a_line_that_parts_from_its_copy_is_made_like_it_each_way_round() -> None:
    changes = parted_twins(DIGITS.splitlines(), "python")
    assert [(change.row, change.text.strip(), change.change, like) for change, like in changes] == [
        (17, "total_a += sign_a * a", "`total_a += sign_a * a + a` → `total_a += sign_a * a`, as its copy "
         "`total_b += sign_b * b` reads", 18),
        (18, "total_b += sign_b * b + b", "`total_b += sign_b * b` → `total_b += sign_b * b + b`, as its copy "
         "`total_a += sign_a * a + a` reads", 17),
    ]  # fmt: skip


def test_code_with_no_copies_or_copies_in_step_offers_nothing() -> None:
    in_step = DIGITS.replace("sign_a * a + a", "sign_a * a")
    plain = ["def f(x, y):", "    a = x + 1", "    b = y * 2", "    return a - b"]
    # One line the same but for its names is no evidence of copied code.
    once = ["def f(x, y):", "    a = x + 1", "    b = y + 1", "    return a * x - b"]
    assert parted_twins(in_step.splitlines(), "python") == parted_twins(plain, "python") == []
    assert parted_twins(once, "python") == []


def test_a_digit_sum_whose_copy_for_the_first_number_adds_a_term_is_fixed_by_its_twin(repo: Path) -> None:
    commit_files(
        repo,
        {
            "digits.py": DIGITS,
            "test_digits.py": (
                "from digits import smaller_digit_sum\n\n\ndef test_smaller_digit_sum():\n"
                "    assert smaller_digit_sum(5, 6)\n    assert smaller_digit_sum(-12, 2)\n"
                "    assert smaller_digit_sum(3, -15)\n    assert not smaller_digit_sum(7, 4)\n"
                "    assert not smaller_digit_sum(19, 11)\n"
            ),
        },
    )
    outcome, backend, events = repair(repo, [], coverage=True, mutants=60, candidates=0)
    assert outcome.fixed and backend.requests == [], outcome.summary
    fixed = [event.data for event in events if event.type == "repair.candidate" and event.data["status"] == "fixed"]
    tried = [
        (e.data["n"], e.data["status"], e.data.get("line"), e.data.get("change"))
        for e in events
        if e.type == "repair.candidate"
    ]
    assert "as its copy `total_b += sign_b * b` reads" in fixed[0]["change"], "\n".join(map(str, tried))
    text = (repo / "digits.py").read_text()
    assert "    total_a += sign_a * a\n    total_b += sign_b * b\n" in text
