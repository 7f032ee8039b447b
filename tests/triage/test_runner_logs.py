"""Real logs of real runners (tests/fixtures/triage): each failing test with its file and line relative to the
repository, the message with the comparison the runner printed, and where the failure leads in the code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from recorded import LOGS, log, project

from pedro.triage.logparse import parse_log
from pedro.triage.report import build_report, github_annotations, to_sarif

PY_MEAN = ("tests/test_stats.py", 5, "assert 1.5 == 2")
PY_MEDIAN = ("tests/test_stats.py", 13, "IndexError: list index out of range")
GO_MEAN = ("stats/mean_test.go", 7, "Mean([1 2 3]) = 1.5, want 2")
GO_MEDIAN = ("stats/mean_test.go", 18, "panic: runtime error: index out of range [2] with length 2")
JS_MEDIAN = "Cannot read properties of undefined (reading 'valueOf')"
# Per log: (runner, passed, failed), then each failing test: name, file, line, a piece of its message.
EXPECTED = {
    "pytest": (("pytest", 1, 2), [("tests/test_stats.py::test_mean_of_three", *PY_MEAN),
                                  ("tests/test_stats.py::test_median_of_two", *PY_MEDIAN)]),
    "pytest -rA": (("pytest", 1, 2), [("tests/test_stats.py::test_mean_of_three", *PY_MEAN),
                                      ("tests/test_stats.py::test_median_of_two", *PY_MEDIAN)]),
    "junit": (("pytest", 1, 2), [("tests/test_stats.py::test_mean_of_three", *PY_MEAN),
                                 ("tests/test_stats.py::test_median_of_two", *PY_MEDIAN)]),
    "go test": (("go test", 0, 2), [("TestMean", *GO_MEAN), ("TestMedian", *GO_MEDIAN)]),
    "go test -json": (("go test", 1, 2), [("example.com/stats/stats.TestMean", *GO_MEAN),
                                          ("example.com/stats/stats.TestMedian", *GO_MEDIAN)]),
    "jest": (("jest", 1, 2), [("mean › of three", "test/math.test.js", 5, "Expected: 2\nReceived: 1.5"),
                              ("median of two", "test/math.test.js", 14, JS_MEDIAN)]),
    "node --test spec": (("node --test", 1, 2), [("of three", "test/math.test.js", 7, "1.5 !== 2"),
                                                 ("median of two", "test/math.test.js", 16, JS_MEDIAN)]),
    "node --test tap": (("node --test", 1, 2), [("of three", "test/math.test.js", 7, "1.5 !== 2"),
                                                ("median of two", "test/math.test.js", 16, JS_MEDIAN)]),
}  # fmt: skip
# Where each failure leads: the function, and the deepest frame in non-test code where the runner printed one.
CULPRITS = {
    "py": [("mean", "stats/mean.py", None), ("median", "stats/mean.py", 11)],
    "go": [("Mean", "stats/mean.go", None), ("Median", "stats/mean.go", 18)],
    "jest": [("mean", "src/math.js", None), ("median", "src/math.js", 8)],
    "node": [("mean", "src/math.js", None), ("median", "src/math.js", 8)],
}


def parsed_report(tmp_path: Path, which: str) -> tuple[Path, dict]:  # type: ignore[type-arg]
    folder, name = LOGS[which]
    repo = project(tmp_path, folder)
    text = log(folder, name, repo)
    parsed = parse_log("", junit=text, root=repo) if name.endswith(".xml") else parse_log(text, root=repo)
    return repo, build_report(None, "no_model", parsed, "", repo).to_dict()


@pytest.mark.parametrize("which", list(LOGS))
def test_each_failing_test_has_its_place_and_the_comparison_the_runner_printed(tmp_path: Path, which: str) -> None:
    _, data = parsed_report(tmp_path, which)
    (runner, passed, failed), failures = EXPECTED[which]
    assert (data["runner"], data["counts"]) == (runner, {"passed": passed, "failed": failed})
    got = [(t["name"], t["file"], t["line"]) for t in data["failing_tests"]]
    assert got == [(name, file, line) for name, file, line, _ in failures]
    for test, (_, _, _, said) in zip(data["failing_tests"], failures, strict=True):
        assert said in test["message"], test["message"]


@pytest.mark.parametrize("which", list(LOGS))
def test_each_failure_leads_to_its_function_and_the_commit_that_last_changed_it(tmp_path: Path, which: str) -> None:
    _, data = parsed_report(tmp_path, which)
    for test, (function, file, frame_line) in zip(data["failing_tests"], CULPRITS[LOGS[which][0]], strict=True):
        assert (test["function"]["name"], test["function"]["file"]) == (function, file)
        frame = test["deepest_frame"]
        assert (frame and (frame["file"], frame["line"])) == ((file, frame_line) if frame_line else None)
        # The code was last changed in the first commit; the second changed only the tests.
        assert test["last_change"]["subject"] == "Compute the mean and the median"
        assert len(test["last_change"]["commit"]) == 40 and test["last_change"]["date"][:2] == "20"


@pytest.mark.parametrize("which", ["node --test spec", "node --test tap", "jest", "go test -json"])
def test_annotations_and_sarif_name_files_relative_to_the_repository(tmp_path: Path, which: str) -> None:
    folder, name = LOGS[which]
    repo = project(tmp_path, folder)
    text = log(folder, name, repo)
    assert str(repo) in text or which in ("jest", "go test -json")
    report = build_report(None, "no_model", parse_log(text, root=repo), "", repo)
    annotations = github_annotations(report)
    assert len(annotations) == 2 and all(line.startswith("::error file=") for line in annotations)
    assert str(repo) not in "\n".join(annotations)
    sarif = json.dumps(to_sarif(report))
    uris = [loc["physicalLocation"]["artifactLocation"]["uri"] for result in to_sarif(report)["runs"][0]["results"]
            for loc in result["locations"] + result.get("relatedLocations", [])]  # fmt: skip
    assert uris and all(not uri.startswith(("/", "file:")) and ".." not in uri for uri in uris)
    assert str(repo) not in sarif
