"""Triage's hostile inputs: a log too large to hold, paths leaving the repository, escape sequences, XML bombs."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_util import pedro
from repo_util import git

from pedro.triage.logparse import parse_log
from pedro.triage.logread import LINE_CHARS, read_log

CALC = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a + b\n"
TESTS = (
    "from calc import add, mul\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_mul():\n    assert mul(2, 3) == 6\n\n\n"
    "def test_fine():\n    assert add(0, 0) == 0\n"
)
MiB = 1024 * 1024

# Runs `pedro triage` as its only child, writes the log into its stdin piece by piece (never holding it), and
# prints the largest resident set of that child and its descendants, in KiB (Linux's ru_maxrss).
FEEDER = """
import json, resource, subprocess, sys
spec = json.load(open(sys.argv[1]))
with open(spec["stdout"], "wb") as out, open(spec["stderr"], "wb") as err:
    proc = subprocess.Popen(spec["argv"], cwd=spec["cwd"], env=spec["env"], stdin=subprocess.PIPE, stdout=out,
                            stderr=err)
    for text, times in spec["pieces"]:
        data = text.encode()
        for _ in range(times):
            proc.stdin.write(data)
    proc.stdin.close()
    code = proc.wait()
print(json.dumps({"code": code, "maxrss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


@pytest.fixture
def failing(repo: Path) -> Path:
    (repo / "calc.py").write_text(CALC)
    (repo / "test_calc.py").write_text(TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    return repo


def pytest_log(repo: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout + done.stderr


def feed(tmp_path: Path, argv: list[str], cwd: Path, env: dict[str, str], pieces: list[tuple[str, int]]) -> Any:
    spec = tmp_path / "feed.json"
    out, err = tmp_path / "feed.out", tmp_path / "feed.err"
    spec.write_text(
        json.dumps(
            {"argv": argv, "cwd": str(cwd), "env": env, "pieces": pieces, "stdout": str(out), "stderr": str(err)}
        )
    )
    done = subprocess.run(
        [sys.executable, "-c", FEEDER, str(spec)], capture_output=True, text=True, timeout=600, check=True
    )
    result = json.loads(done.stdout)
    return result["code"], result["maxrss_kib"] * 1024, out.read_text(), err.read_text()


@pytest.mark.slow
def test_an_80_mib_log_through_a_pipe_is_read_in_bounded_memory_and_its_failures_still_found(
    failing: Path, stub_server: Any, cli_env: dict[str, str], tmp_path: Path
) -> None:
    lines = pytest_log(failing).splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if " FAILURES " in line)
    end = next(i for i, line in enumerate(lines) if " short test summary info " in line)
    head, failures, summary = "".join(lines[:start]), "".join(lines[start:end]), "".join(lines[end:])
    passed = "tests/test_generated.py::test_case PASSED" + " " * 33 + "[ 50%]\n"
    warned = "  /usr/lib/python3/dist-packages/old.py:12: DeprecationWarning: old_api() is going away, use new_api()\n"
    server = stub_server(["TASK COMPLETE\nProbable cause: add subtracts and mul adds."])
    report = tmp_path / "triage.json"
    argv = [sys.executable, "-m", "pedro", "triage", "--no-input", "--base-url", f"{server.url}/v1", "--model", "m"]
    # The FAILURES section sits between 40 MiB of passing tests and 40 MiB of warnings: neither the start nor the
    # end of the log holds it.
    pieces = [
        (head, 1),
        (passed * (MiB // len(passed)), 40),
        (failures, 1),
        ("=" * 20 + " warnings summary " + "=" * 20 + "\n", 1),
        (warned * (MiB // len(warned)), 40),
        (summary, 1),
    ]
    code, peak, _, err = feed(tmp_path, [*argv, "--report", str(report)], failing, cli_env, pieces)
    assert code == 0, err
    data = json.loads(report.read_text())
    assert data["counts"] == {"passed": 1, "failed": 2}
    where = {t["name"]: (t["file"], t["line"], t["message"]) for t in data["failing_tests"]}
    assert where["test_calc.py::test_add"][:2] == ("test_calc.py", 5)
    assert where["test_calc.py::test_mul"][:2] == ("test_calc.py", 9)
    assert "assert -1 == 5" in where["test_calc.py::test_add"][2]
    # The model read the end of the log, and what the parser found in its middle.
    sent = json.dumps(server.requests[0]["messages"])
    assert "test_calc.py::test_mul (test_calc.py:9)" in sent and "short test summary info" in sent
    # pedro with a small log stays near 100 MiB; holding this log took 260 MiB.
    assert peak < 160 * MiB, f"peak resident memory {peak / MiB:.0f} MiB"


UNITTEST_LOG = (
    "F.\n======================================================================\n"
    "FAIL: test_add (test_u.T.test_add)\n----------------------------------------------------------------------\n"
    'Traceback (most recent call last):\n  File "/src/test_u.py", line 7, in test_add\n'
    "    self.assertEqual(add(2, 3), 5)\nAssertionError: -1 != 5\n\n"
)
GO_LOG = "=== RUN   TestReport\n--- FAIL: TestReport (0.00s)\n    report_test.go:9: Report() = wrong\n"


@pytest.mark.parametrize(
    ("start", "noise", "end"),
    [
        (
            UNITTEST_LOG,
            "debug: a line the test printed\n",
            "-" * 70 + "\nRan 2 tests in 0.01s\n\nFAILED (failures=1)\n",
        ),
        (GO_LOG, "=== RUN   TestOther\noutput of TestOther\n", "--- PASS: TestOther\nFAIL\nFAIL\tgrades\t0.002s\n"),
    ],
    ids=["unittest", "go"],
)
def test_a_failure_block_far_from_the_end_is_kept(start: str, noise: str, end: str) -> None:
    whole = start + noise * (3 * MiB // len(noise)) + end
    kept = read_log(io.StringIO(whole, newline="\n"))
    assert len(kept) < len(whole) // 2 and "lines left out ...]" in kept
    assert parse_log(kept) == parse_log(whole)


def test_a_line_without_end_is_cut_and_the_log_read_on() -> None:
    endless = "x" * (LINE_CHARS * 50) + "\n" + GO_LOG + "FAIL\tgrades\t0.1s\n"
    kept = read_log(io.StringIO(endless, newline="\n"))
    assert kept.splitlines()[0] == "x" * LINE_CHARS
    parsed = parse_log(kept)
    assert parsed is not None and [(f.name, f.file, f.line) for f in parsed.failures] == [
        ("TestReport", "report_test.go", 9)
    ]


def hostile_junit(repo: Path) -> str:
    cases = [
        ("test_passwd", "../../../../etc/passwd"),
        ("test_shadow", "/etc/shadow"),
        ("test_hosts", "file:///etc/hosts"),
        ("test_add", f"{repo}/test_calc.py"),
    ]
    body = "".join(
        f'<testcase classname="test_calc" name="{name}" file="{file}" line="3">'
        f'<failure message="assert -1 == 5">boom</failure></testcase>'
        for name, file in cases
    )
    return f'<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="4">{body}</testsuite></testsuites>'


def test_paths_outside_the_repository_are_left_out_of_every_output_and_the_findings_kept(
    failing: Path, stub_server: Any, cli_env: dict[str, str], tmp_path: Path
) -> None:
    (tmp_path / "outside.py").write_text("secret = 1\n")
    junit = tmp_path / "junit.xml"
    junit.write_text(hostile_junit(failing))
    server = stub_server(
        ["TASK COMPLETE\nProbable cause: add subtracts.\nSuspected files: ../outside.py:1, /etc/passwd.py:1, calc.py:2"]
    )
    step_summary, report, sarif = tmp_path / "summary.md", tmp_path / "triage.json", tmp_path / "triage.sarif"
    env = {**cli_env, "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(step_summary)}
    proc = pedro(
        "triage", "--no-input", "--base-url", f"{server.url}/v1", "--model", "m", "--junit", str(junit),
        "--report", str(report), "--sarif", str(sarif), env=env, cwd=failing, stdin="",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = json.loads(report.read_text())
    assert [t["file"] for t in data["failing_tests"]] == [None, None, None, "test_calc.py"]
    assert [t["line"] for t in data["failing_tests"]] == [None, None, None, 4]
    assert {(s["file"], s["source"]) for s in data["suspected_files"]} == {
        ("calc.py", "parser"),  # where the failure leads: add(), which the failing line calls
        ("test_calc.py", "parser"),
        ("calc.py", "model"),
    }
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    assert len(results) == 4
    uris = [loc["physicalLocation"]["artifactLocation"]["uri"] for r in results for loc in r.get("locations", [])]
    assert uris == ["test_calc.py"]
    annotations = [line for line in proc.stderr.splitlines() if line.startswith("::error")]  # the runner reads both
    assert len(annotations) == 4
    assert [line.split(",", 1)[0] for line in annotations if "file=" in line] == ["::error file=test_calc.py"]
    rows = [line for line in step_summary.read_text().splitlines() if line.startswith("| `")]
    assert [row.split(" | ")[1] for row in rows] == ["", "", "", "test_calc.py:4"]
    assert "outside.py" not in step_summary.read_text()


def test_escape_sequences_from_the_model_and_the_log_never_reach_the_markdown(
    failing: Path, stub_server: Any, cli_env: dict[str, str], tmp_path: Path
) -> None:
    log = pytest_log(failing).replace("assert -1 == 5", "assert -1 == 5 \x1b]0;owned\x07\x1b[2J")
    server = stub_server(
        [
            "TASK COMPLETE\nProbable cause: \x1b]8;;https://evil.example/\x07add\x1b]8;;\x07 subtracts\x1b[2J\r"
            "\nSuggested fix: \x1b[31mreturn a + b\x1b[0m\x9b2J\x7f\nConfidence: high"
        ]
    )
    step_summary, report = tmp_path / "summary.md", tmp_path / "triage.md"
    env = {**cli_env, "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(step_summary)}
    proc = pedro(
        "triage", "--no-input", "--base-url", f"{server.url}/v1", "--model", "m", "--report", str(report),
        env=env, cwd=failing, stdin=log,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    for written in (step_summary.read_text(), report.read_text()):
        assert "Probable cause" in written and "return a + b" in written
        controls = [c for c in written if c not in "\n\t" and (ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0)]
        assert controls == []
        assert "␛" in written  # shown, as on the terminal, rather than dropped unseen


LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
    + "".join(f' <!ENTITY lol{n} "{(f"&lol{n - 1};" if n > 1 else "&lol;") * 10}">\n' for n in range(1, 10))
    + ']>\n<testsuites><testsuite name="pytest"><testcase classname="t" name="test_x" file="t.py">'
    '<failure message="&lol9;">x</failure></testcase></testsuite></testsuites>\n'
)
EXTERNAL = (
    '<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
    '<testsuites><testsuite name="pytest"><testcase classname="t" name="test_x" file="t.py">'
    '<failure message="&xxe;">x</failure></testcase></testsuite></testsuites>\n'
)
# 4 MiB from 40 KiB: under the parser's own amplification check, which starts at 8 MiB.
QUADRATIC = (
    f'<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY big "{"x" * 40_000}">]>\n'
    '<testsuites><testsuite name="pytest"><testcase classname="t" name="test_x" file="t.py">'
    f'<failure message="m">{"&big;" * 100}</failure></testcase></testsuite></testsuites>\n'
)


@pytest.mark.parametrize("xml", [LAUGHS, EXTERNAL, QUADRATIC], ids=["billion-laughs", "external", "quadratic"])
def test_a_junit_report_declaring_entities_is_refused_with_the_fix_named(
    xml: str, failing: Path, cli_env: dict[str, str], tmp_path: Path
) -> None:
    junit = tmp_path / "junit.xml"
    junit.write_text(xml)
    proc = pedro(
        "triage", "--no-input", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--junit", str(junit),
        env=cli_env, cwd=failing, stdin="",
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "declares XML entities, which pedro does not expand" in proc.stderr
    assert "pass the XML file the runner wrote" in proc.stderr and "Traceback" not in proc.stderr


def _through_a_pipe_at_a_terminal(argv: list[str], log: str, cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    """`cat LOG | pedro ...` typed at a terminal: stdin a real pipe, stdout and stderr a pseudo-terminal."""
    import os
    import pty

    controller, terminal = pty.openpty()
    with subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=terminal, stderr=terminal) as proc:
        os.close(terminal)
        assert proc.stdin is not None
        proc.stdin.write(log.encode())
        proc.stdin.close()
        shown = b""
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the terminal's other end closed: pedro has exited
                break
            if not chunk:
                break
            shown += chunk
        code = proc.wait(timeout=120)
    os.close(controller)
    return code, shown.decode(errors="replace")


@pytest.mark.parametrize("ci", [False, True], ids=["terminal", "CI"])
def test_a_log_piped_in_at_a_terminal_is_triaged(failing: Path, cli_env: dict[str, str], ci: bool) -> None:
    env = {k: v for k, v in cli_env.items() if k != "CI"} | ({"CI": "true"} if ci else {})
    code, shown = _through_a_pipe_at_a_terminal(
        [sys.executable, "-m", "pedro", "triage", "--no-model"], pytest_log(failing), failing, env
    )
    assert "internal error" not in shown and "Traceback" not in shown, shown
    assert code == 5, shown  # failing tests found, no model asked
    assert "test_calc.py::test_add" in shown and "test_calc.py::test_mul" in shown, shown
