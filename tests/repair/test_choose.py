"""Which plausible candidate stays (choose.py): agreement on the probes first, then the fewest outputs changed that the
tests do not pin, then the smallest edit; and what the job says the fix changes and where candidates disagree."""

from __future__ import annotations

from pedro.repair.choose import (
    Passing,
    agreement,
    changed_lines,
    choose,
    crashes_beyond,
    ignores_input,
    judge_pool,
    new_texts,
    same,
    shifts,
)
from pedro.repair.probes import ProbeSpec

ORIGINAL = ("= 1", "= 2", "= 3", "= 4")
"""The unrepaired code's outputs on four probes; the first is the test's own input."""


def test_the_candidate_most_others_agree_with_wins_and_ties_go_to_the_smallest_change() -> None:
    right = Passing(1, "a", ("= 2", "= 3", "= 1"), change=4)
    also_right = Passing(2, "b", ("= 2", "= 3", "= 1"), change=2)
    fitted = Passing(3, "c", ("= 2", "= 2.5", "! ZeroDivisionError"), change=1)
    assert agreement([right, also_right, fitted]) == [4, 4, 2]
    assert choose([right, also_right, fitted]) == 1  # the two agree; the smaller change of them
    assert choose([fitted, right]) == 0  # two that disagree: the smaller change
    assert changed_lines("a\nb\nc", "a\nB\nc") == 2


def test_only_a_value_that_is_the_same_on_every_varied_probe_is_taken_for_one_the_tests_were_fitted_with() -> None:
    varied = ("= 1", "= 3", "= 2", "= 5")
    assert ignores_input(("= 2",) * 4, varied)
    # A yes or no may well be the same on every probe; so may a function the original answered alike.
    assert not ignores_input(("= True",) * 4, varied)
    assert not ignores_input(("= 2",) * 4, ("= 1",) * 4)
    # Too few probes, or outputs that differ, say nothing.
    assert not ignores_input(("= 2",) * 3, varied[:3])
    assert not ignores_input(("= 2", "= 2", "= 2", "= 3"), varied)


def test_outputs_that_differ_only_where_an_object_with_no_repr_lives_are_one_answer() -> None:
    # A function that returns an iterator: each run prints it at another address, which is no change of behaviour.
    one, other = "= <parse.ResultIterator object at 0x7f22f8aef150>", "= <parse.ResultIterator object at 0x7fb58963>"
    assert same(one, other)
    assert not same(one, "= <parse.Result object at 0x7fb58963>")
    assert not same("= 0x10", "= 0x11")


def test_between_candidates_others_agree_with_alike_the_one_that_changes_fewer_unpinned_outputs_stays() -> None:
    # Both give the test's answer on its own input and agree on the last probe; the wide one also changes the two
    # probes in between, which no test pins, where the narrow one leaves them as they were.
    wide = Passing(1, "a", ("= 6", "= 9", "= 9", "= 9"), change=1)
    narrow = Passing(2, "b", ("= 6", "= 2", "= 3", "= 9"), change=3)
    assert agreement([wide, narrow]) == [2, 2]
    assert choose([wide, narrow], ORIGINAL, pinned=1) == 1  # fewer unpinned changes beats the smaller edit
    # Where the tests pin every probe, nothing is unpinned, and the smaller edit stays.
    assert choose([wide, narrow], ORIGINAL, pinned=4) == 0
    # Agreement comes before either: a third candidate that answers as the wide one outvotes the narrow one.
    twin = Passing(3, "c", wide.outputs, change=2)
    assert choose([narrow, wide, twin], ORIGINAL, pinned=1) == 1


def test_the_verdict_names_what_the_kept_fix_changes_where_candidates_disagree_and_the_test_that_would_settle_it() -> (
    None
):
    spec = ProbeSpec("stats", "stats.middle", ("([[3, 1, 2]], {})", "([[1, 2]], {})", "([[]], {})"), pinned=1)
    median = Passing(1, "a", ("= 2", "= 1.5", "! IndexError"), change=1)
    also_median = Passing(3, "c", median.outputs, change=2)
    mean = Passing(2, "b", ("= 2", "= 1.5", "! ZeroDivisionError"), change=1)
    verdict = judge_pool([median, mean, also_median], spec, ("= 1", "= 1", "! IndexError"))
    assert verdict.index == 0
    assert verdict.beyond == ("middle([1, 2]): 1 → 1.5",)
    assert verdict.disputes == (
        "middle([]): raises IndexError (candidate 1) or raises ZeroDivisionError (candidate 2)",
    )
    # No value to assert where the kept fix raises: no test is suggested then.
    assert verdict.suggestion == ""
    apart = Passing(2, "b", ("= 2", "= 1", "! IndexError"), change=1)
    verdict = judge_pool([median, apart, also_median], spec, ("= 1", "= 1", "! IndexError"))
    assert verdict.disputes == ("middle([1, 2]): 1.5 (candidate 1) or 1 (candidate 2)",)
    assert verdict.suggestion == "assert middle([1, 2]) == 1.5"


def test_a_crash_counts_only_beyond_the_tests_where_the_code_answered_and_no_test_expects_it() -> None:
    spec = ProbeSpec(
        "order.js", "later", ("([1, 2], {})", "([1, 3], {})", "([1, 4], {})"), pinned=1, language="javascript"
    )
    original = ("= false", "= null", "! TypeError")
    # On the tests' own input, and where the code raised already, a crash says nothing new.
    assert crashes_beyond(("! TypeError", "= true", "! TypeError"), original, spec) == ""
    assert crashes_beyond(("= true", "! ReferenceError", "= 1"), original, spec) == (
        "it makes later(1, 3) raise ReferenceError, where the code it replaces returned null"
    )
    # An error a failing test names is what the fix may mean to raise; one a program raises on purpose is no misuse.
    assert crashes_beyond(("= true", "! ReferenceError", "= 1"), original, spec, "expected ReferenceError") == ""
    assert crashes_beyond(("= true", "! RangeError", "= 1"), original, spec) == ""
    assert crashes_beyond(("= true", "! TypeError"), original, spec) == ""


def test_a_shift_is_read_past_the_inputs_both_answer_with_the_same_error() -> None:
    original = ("= 3", "= 3", "= 5", "! UnboundLocalError")
    assert shifts(("= 2", "= 2", "= 4", "! UnboundLocalError"), original)
    # An error only one of them raises is a difference, not a number: no shift.
    assert not shifts(("= 2", "= 2", "= 4", "= 0"), original)
    # Fewer than two numbers left: nothing to read a shift from.
    assert not shifts(("= 2", "! KeyError", "! UnboundLocalError"), ("= 3", "! KeyError", "! UnboundLocalError"))


def test_between_candidates_tied_on_the_probes_one_that_writes_the_expected_text_in_loses() -> None:
    # capitalize: `word.slice(2)` drops a letter. The test expects 'Hello' from 'hello': putting in the "e" it lacks
    # passes it as `slice(1)` does, and the probes, each moved alike, cannot tell them apart.
    original = "return word[0].toUpperCase() + word.slice(2);"
    pasted = 'return word[0].toUpperCase() + "e" + word.slice(2);'
    sliced = "return word[0].toUpperCase() + word.slice(1);"
    assert (new_texts(original, pasted), new_texts(original, sliced), new_texts('f("a")', "f('a', 'b', `c`)")) == (
        1,
        0,
        2,
    )
    probes = ProbeSpec("words.js", "capitalize", ("(['hello'], {})", "(['olleh'], {})", "(['HELLO'], {})"), 1)
    first = Passing(1, pasted, ("= 'Hello'", "= 'Oeleh'", "= 'HeLLO'"), 1, new_texts(original, pasted))
    second = Passing(7, sliced, ("= 'Hello'", "= 'Olleh'", "= 'HELLO'"), 1, new_texts(original, sliced))
    verdict = judge_pool([first, second], probes, ("= 'Hllo'", "= 'Oleh'", "= 'HLLO'"))
    assert verdict.index == 1 and verdict.unpinned == 2
    assert verdict.disputes[0] == "capitalize('olleh'): 'Olleh' (candidate 7) or 'Oeleh' (candidate 1)"


def test_between_candidates_that_answer_alike_everywhere_the_shortest_code_stays() -> None:
    # `len(word) + 1`: `+` → `*` and `+ 1` dropped give the same outputs on every probe, and change a line each.
    times_one = Passing(11, "        return len(word) * 1", ("= 1", "= 3", "= 5"), 1)
    dropped = Passing(12, "        return len(word)", ("= 1", "= 3", "= 5"), 1)
    assert choose([times_one, dropped], ("= 2", "= 4", "= 6"), pinned=1) == 1


def test_fewer_tokens_never_outweigh_the_order_between_candidates_that_answer_differently() -> None:
    # Binary search's `mid = (lo + hi) / 2`: `//` (first) and `/ 2` dropped (shorter) disagree on one probe only.
    floored = Passing(11, "        mid = (lo + hi) // 2", ("= 3", "= 3"), 1)
    dropped = Passing(39, "        mid = (lo + hi)", ("= 3", "= -1"), 1)
    assert choose([floored, dropped], ("! TypeError", "! TypeError"), pinned=1) == 0
