"""pedro triage's SARIF validates against the SARIF 2.1.0 schema, and every `uri` in it is a relative reference to a
file inside the repository: no absolute path, no `..`, no `file://`, nothing a consumer could resolve outside.

tests/fixtures/sarif-schema-2.1.0.json is the OASIS schema, whole and unmodified (CRLF line ends included): the
file `Schemata/sarif-schema-2.1.0.json` of the OASIS TC's sarif-spec repository at commit
f1f6ae7f191705ec18e80a985749edc8e427063c (2021-04-09, JSON Schema draft-07), the version its `$id` names."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from cli_util import pedro
from jsonschema import Draft7Validator
from recorded import LOGS, log, project
from repo_util import git

from pedro.safety.paths import repository_path
from pedro.triage.logparse import parse_log
from pedro.triage.report import artifact_changes, build_report, to_sarif

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "fixtures" / "sarif-schema-2.1.0.json"
SCHEMA_SHA256 = "dab33ff9cba60ce2786f72fcb93ca129d00ccc0c6b25815fdd80d21d69c7a70a"
# RFC 3986 relative-ref with a path-noscheme and nothing else: no scheme, no authority, no query or fragment, and a
# first segment without a colon (`a:b.py` would read as the scheme `a`).
_PCHAR = r"(?:[A-Za-z0-9\-._~!$&'()*+,;=@:]|%[0-9A-Fa-f]{2})"
_FIRST = r"(?:[A-Za-z0-9\-._~!$&'()*+,;=@]|%[0-9A-Fa-f]{2})+"
RELATIVE_REF = re.compile(rf"{_FIRST}(?:/{_PCHAR}*)*")
CALC = "def add(a, b):\n    return a - b\n\n\ndef neg(a):\n    return -a\n"
TESTS = (
    "from calc import add, neg\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_add_zero():\n    assert add(0, 4) == 4\n\n\n"
    "def test_neg():\n    assert neg(2) == -2\n"
)
DIAGNOSIS = "TASK COMPLETE\nProbable cause: add subtracts."
RIGHT = "```python\ndef add(a, b):\n    return a + b\n```"
# A folder whose name a URI must percent-encode (`#` starts a fragment, `%` an escape) and git's diff quotes (`"`).
ODD = 'lib#1%"café'
ODD_URI = "lib%231%25%22caf%C3%A9"


@pytest.fixture(scope="module")
def validator() -> Draft7Validator:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema, format_checker=Draft7Validator.FORMAT_CHECKER)


def uris(node: Any) -> Iterator[str]:
    """Every artifactLocation's `uri`, wherever it sits in the log."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "uri":
                yield value
            else:
                yield from uris(value)
    elif isinstance(node, list):
        for item in node:
            yield from uris(item)


def assert_valid(sarif: dict[str, Any], validator: Draft7Validator, repo: Path) -> list[str]:
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(sarif)]
    assert errors == []
    found = list(uris(sarif))
    for uri in found:
        assert RELATIVE_REF.fullmatch(uri), f"not a relative URI reference: {uri!r}"
        path = unquote(uri)
        assert not path.startswith("/") and "file:" not in path and ".." not in path.split("/"), uri
        # The URI names a file of the repository, as the repository names it.
        assert repository_path(repo, path) == path and (repo / path).is_file(), uri
    text = json.dumps(sarif)
    assert str(repo) not in text and "file://" not in text
    return found


def test_the_shipped_schema_is_the_oasis_sarif_2_1_0_schema_for_draft_07() -> None:
    import hashlib

    assert hashlib.sha256(SCHEMA_FILE.read_bytes()).hexdigest() == SCHEMA_SHA256
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert (
        schema["$id"]
        == "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"
    )
    assert schema["properties"]["version"]["enum"] == ["2.1.0"]


@pytest.mark.parametrize("which", list(LOGS))
def test_the_sarif_of_each_recorded_runner_log_validates(
    tmp_path: Path, which: str, validator: Draft7Validator
) -> None:
    folder, name = LOGS[which]
    repo = project(tmp_path, folder)
    text = log(folder, name, repo)
    parsed = parse_log("", junit=text, root=repo) if name.endswith(".xml") else parse_log(text, root=repo)
    sarif = to_sarif(build_report(None, "no_model", parsed, "", repo))
    found = assert_valid(sarif, validator, repo)
    results = sarif["runs"][0]["results"]
    # Both failures, each with the test's place or at least the function it leads to.
    assert len(results) == 2 and len(found) >= 2


def test_a_log_naming_files_outside_the_repository_gives_no_uri_for_them(
    tmp_path: Path, validator: Draft7Validator
) -> None:
    repo = project(tmp_path, "py")
    outside = tmp_path / "outside.py"
    outside.write_text("x = 1\n")
    text = log("py", "pytest_plain.log", repo)
    text = text.replace("tests/test_stats.py:5: AssertionError", f"{outside}:1: AssertionError", 1)
    text = text.replace("tests/test_stats.py:13: ", "../outside.py:1: ", 1)
    report = build_report(None, "no_model", parse_log(text, root=repo), "", repo)
    sarif = to_sarif(report)
    assert_valid(sarif, validator, repo)
    assert "outside.py" not in json.dumps(sarif)


def test_paths_that_are_not_uri_characters_are_percent_encoded(tmp_path: Path, validator: Draft7Validator) -> None:
    repo = project(tmp_path, "py")
    (repo / ODD).mkdir()
    git(repo, "mv", "stats", f"{ODD}/stats")
    git(repo, "mv", "tests", f"{ODD}/tests")
    git(repo, "commit", "-qm", "Move the package")
    text = log("py", "pytest_plain.log", repo).replace("tests/test_stats.py", f"{ODD}/tests/test_stats.py")
    text = text.replace("stats/mean.py", f"{ODD}/stats/mean.py")
    report = build_report(None, "no_model", parse_log(text, root=repo), "", repo)
    found = assert_valid(to_sarif(report), validator, repo)
    assert f"{ODD_URI}/tests/test_stats.py" in found


def test_the_sarif_of_a_triage_run_with_a_verified_fix_validates(
    repo: Path, stub_server: Any, cli_env: dict[str, str], tmp_path: Path, validator: Draft7Validator
) -> None:
    folder = repo / ODD
    folder.mkdir()
    (folder / "calc.py").write_text(CALC)
    (folder / "test_calc.py").write_text(TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "calc")
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]
    failing = subprocess.run(command, cwd=repo, capture_output=True, text=True).stdout
    server = stub_server([DIAGNOSIS, RIGHT])
    env = {
        **cli_env,
        "PEDRO_AGENT__TEST_COMMAND": " ".join([*command, "-q"]),
        "PEDRO_REPAIR__CANDIDATES": "1",
        "PEDRO_REPAIR__MAX_FUNCTIONS": "1",
    }
    sarif_path = tmp_path / "triage.sarif"
    proc = pedro(
        "triage", "--no-input", "--base-url", f"{server.url}/v1", "--model", "m", "--sarif", str(sarif_path),
        env=env, cwd=repo, stdin=failing,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    sarif = json.loads(sarif_path.read_text(encoding="utf-8"))
    found = assert_valid(sarif, validator, repo)
    (change,) = sarif["runs"][0]["results"][0]["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"]["uri"] == f"{ODD_URI}/calc.py"
    assert f"{ODD_URI}/test_calc.py" in found


def test_a_diff_of_a_path_with_a_space_and_a_colon_gives_its_uri(repo: Path) -> None:
    name = "first: second.py"  # git ends the diff's `+++` line for it with a tab; the colon would read as a scheme
    (repo / name).write_text("x = 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "x")
    (repo / name).write_text("x = 2\n")
    diff = git(repo, "diff", "HEAD")
    (change,) = artifact_changes(diff)
    assert change["artifactLocation"] == {"uri": "first%3A%20second.py"}
    assert change["replacements"][0]["insertedContent"] == {"text": "x = 2\n"}
