"""A text read with its byte order mark kept: each read in the suspects' files made to drop it, only where a failure
shows the mark, and repair fixing such a bug unasked."""

from __future__ import annotations

from pathlib import Path

from repo_util import commit_files
from test_mutants import fixed_by_a_variant

from pedro.repair.byte_order_marks import dropped_marks

PARSER = """\
class Reader:
    def __init__(self, stream):
        self.text = stream.read()
        self.at = 0


def load(path):
    with open(path, encoding="utf-8") as handle:
        return parse(handle)


def parse(stream):
    reader = Reader(stream)
    pairs = {}
    for line in reader.text.splitlines():
        key, _, value = line.partition("=")
        pairs[key.strip()] = value.strip()
    return pairs
"""
PARSER_TESTS = """\
import io

from envfile import parse


def test_plain():
    assert parse(io.StringIO("a=b\\nc=d")) == {"a": "b", "c": "d"}


def test_marked():
    assert parse(io.StringIO("\\ufeffa=b\\nc=d")) == {"a": "b", "c": "d"}
"""
FAILURE = "AssertionError: assert {'\\ufeffa': 'b', 'c': 'd'} == {'a': 'b', 'c': 'd'}"


def test_each_read_drops_the_mark_where_a_failure_shows_one(repo: Path) -> None:
    commit_files(repo, {"envfile.py": PARSER})
    found = {variant.line: variant.text.strip() for variant in dropped_marks(repo, ["envfile.py"], [FAILURE])}
    assert found == {
        3: 'self.text = stream.read().lstrip("\\ufeff")',
        8: 'with open(path, encoding="utf-8-sig") as handle:',
    }
    assert dropped_marks(repo, ["envfile.py"], ["AssertionError: assert {'a': 'x'} == {'a': 'b'}"]) == []


def test_repair_drops_the_mark_where_the_stream_is_read(repo: Path) -> None:
    # The failure is in what `parse` returns; the mark stays because `Reader` keeps it as it reads.
    events = fixed_by_a_variant(repo, {"envfile.py": PARSER, "test_envfile.py": PARSER_TESTS})
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert fixed and "lstrip" in fixed[0]["change"], fixed
    assert 'self.text = stream.read().lstrip("\\ufeff")' in (repo / "envfile.py").read_text()
