"""The calls pedro makes against a project's function (probes, a build's examples) under their limits: once one call
ran too long, each later call is held to a shorter limit, and the calls together to a whole one, in each language;
a repair's probes hold the neighbours of the tests' own calls to that limit from the start."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest

from pedro.calls.run import AFTER_SLOW, SECONDS_PER_CALL, Call, run_calls
from pedro.repair import pytest_probes

SPINS = {
    "python": ("spin.py", "def spin(n):\n    while n != 0:\n        n -= 2\n    return n\n"),
    "javascript": (
        "spin.js",
        "function spin(n) {\n  while (n !== 0) n -= 2;\n  return n;\n}\n\nmodule.exports = { spin };\n",
    ),
    "go": ("spin.go", "package spin\n\nfunc Spin(n int) int {\n\tfor n != 0 {\n\t\tn -= 2\n\t}\n\treturn n\n}\n"),
}
HANGING = 16
"""Odd inputs never end: at the first call's limit each, they alone would take 32 s, past the outer limit below."""
OUTER_S = 15.0


def spin_project(folder: Path, language: str) -> tuple[str, str]:
    """A project in `folder` whose spin function never ends on odd inputs: its file's name and the function's."""
    program = "node" if language == "javascript" else language if language == "go" else "python3"
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    name, source = SPINS[language]
    (folder / name).write_text(source)
    if language == "go":
        (folder / "go.mod").write_text("module example.com/spin\n\ngo 1.19\n")
    return name, "Spin" if language == "go" else "spin"


@pytest.mark.parametrize("language", ["python", "javascript", "go"])
def test_a_function_that_hangs_on_many_inputs_costs_one_limit_then_short_ones(tmp_path: Path, language: str) -> None:
    name, spin = spin_project(tmp_path, language)
    calls = [Call(f"{spin}(4)"), *(Call(f"{spin}({2 * k + 1})") for k in range(HANGING)), Call(f"{spin}(6)")]
    made = run_calls(language, name, tmp_path, os.environ, calls, OUTER_S)
    assert made.problem == "", made.problem
    outputs = [result.output for result in made.results]
    assert outputs[0] == "= 0"
    assert outputs[1 : 1 + HANGING] == ["! too slow"] * HANGING
    # The last input ends at once, but the calls' whole time is spent: it is not made.
    assert outputs[-1] == "! too slow"
    if language != "go":  # Go's report names no limit
        said = [result.said for result in made.results[1:]]
        assert said[0] == f"ran longer than {SECONDS_PER_CALL:g} s"
        assert f"ran longer than {AFTER_SLOW['floor_s']:g} s" in said[1:]
        assert said[-1] == f"the calls ran longer than {AFTER_SLOW['total_s']:g} s in all"


@pytest.mark.parametrize("language", ["python", "javascript", "go"])
def test_calls_after_the_pinned_ones_are_held_to_a_multiple_of_them_from_the_start(
    tmp_path: Path, language: str
) -> None:
    # The pinned calls (a test's own among probes, a build's examples) say how long a call takes: the first
    # neighbour that hangs is stopped at the short limit, not the whole one.
    name, spin = spin_project(tmp_path, language)
    calls = [Call(f"{spin}(4)", pinned=True), Call(f"{spin}(6)", expected="0"), Call(f"{spin}(5)"), Call(f"{spin}(8)")]
    made = run_calls(language, name, tmp_path, os.environ, calls, OUTER_S)
    assert made.problem == "", made.problem
    assert [result.output for result in made.results] == ["= 0", "= 0", "! too slow", "= 0"]
    if language != "go":  # Go's report names no limit
        assert made.results[2].said == f"ran longer than {AFTER_SLOW['floor_s']:g} s"


def test_a_probes_neighbours_are_held_to_a_multiple_of_the_tests_own_calls_from_the_start() -> None:
    # The repair's pytest probes: the tests' own calls (the first `pinned`) under the whole limit, then each
    # neighbour under `factor` times the slowest of them, at least `floor_s`, before any call ran too long. The
    # function reads the limit it runs under, so nothing here depends on the machine's speed.
    limits: list[float] = []

    def halve(n: int) -> int:
        limits.append(signal.getitimer(signal.ITIMER_REAL)[0])
        while n % 2:
            pass  # an odd count never ends: the neighbours' `n + 1` of an even one
        return n // 2

    spec = {"inputs": ["((4,), {})", "((8,), {})", "((5,), {})", "((9,), {})"], "pinned": 2, "after_slow": AFTER_SLOW}
    previous = signal.signal(signal.SIGALRM, pytest_probes._stop)
    try:
        outputs = pytest_probes._calls(halve, spec)
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert outputs == ["= 2", "= 4", "! too slow", "! too slow"]
    assert [round(limit, 1) for limit in limits[:2]] == [pytest_probes.SECONDS_PER_CALL] * 2
    assert all(limit <= AFTER_SLOW["floor_s"] for limit in limits[2:]), limits
    # Without the count of the tests' own calls, the first neighbour waits the whole limit, as before.
    limits.clear()
    previous = signal.signal(signal.SIGALRM, pytest_probes._stop)
    try:
        pytest_probes._calls(halve, {**spec, "pinned": 0})
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert round(limits[2], 1) == pytest_probes.SECONDS_PER_CALL


def test_an_iterator_a_call_returns_is_read_for_its_items_under_the_calls_limit(tmp_path: Path) -> None:
    # A generator's repr says only where it lives, so two runs of the same code would differ and two different
    # fixes agree: its items are what a probe compares, the first 20 of an endless one, made under the limit.
    (tmp_path / "gen.py").write_text(
        "import itertools\n\n\ndef evens(n):\n    return (k for k in range(n) if k % 2 == 0)\n\n\n"
        "def forever():\n    return itertools.count()\n\n\ndef stuck():\n    while True:\n        yield from ()\n"
    )
    calls = [Call("evens(5)", pinned=True), Call("forever()"), Call("stuck()")]
    made = run_calls("python", "gen.py", tmp_path, os.environ, calls, OUTER_S)
    assert made.problem == "", made.problem
    outputs = [result.output for result in made.results]
    assert outputs[:2] == ["= iter([0, 2, 4])", f"= iter({list(range(20))!r}, ...)"]
    assert outputs[2] == "! too slow"
    # The repair's pytest probes read a result the same way.
    assert pytest_probes._shown(iter([1, 2])) == "iter([1, 2])" and pytest_probes._shown([1, 2]) == "[1, 2]"
