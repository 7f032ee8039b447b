"""The values a function reads from the module level, followed through the project's modules to the literal a bug
is in, and repair asking the model about that literal's line: a fix no one-token variant makes."""

from __future__ import annotations

from pathlib import Path

from repo_util import commit_files
from test_repairer import repair

from pedro.messages import Message
from pedro.repair.followed_values import followed_values
from pedro.repair.locate import file_units

# rfc3986's shape: the function reads `misc.NON_PCT`, which is `abnf.NON_PCT_SET`, made of the set of `UNRESERVED`,
# the string that lacks `~`.
ABNF = """\
ALPHA = "abcdefghijklmnopqrstuvwxyz"
DIGIT = "0123456789"
RESERVED = ":/?#"
UNRESERVED = ALPHA + DIGIT + "._-"
RESERVED_SET = set(RESERVED)
UNRESERVED_SET = set(UNRESERVED)
NON_PCT_SET = RESERVED_SET.union(UNRESERVED_SET)
"""
MISC = "from . import abnf\n\nNON_PCT = abnf.NON_PCT_SET\n"
QUOTE = '''\
from . import misc


def quote(text):
    """Each character percent-encoded unless it may stand as it is."""
    out = []
    for char in text:
        if char in misc.NON_PCT:
            out.append(char)
        else:
            out.append("%{0:02X}".format(ord(char)))
    return "".join(out)
'''
TESTS = """\
from uri.quote import quote


def test_reserved_stays():
    assert quote("a/b") == "a/b"


def test_space_is_encoded():
    assert quote("a b") == "a%20b"


def test_tilde_stays():
    assert quote("/~user") == "/~user"
"""
FILES = {"uri/__init__.py": "", "uri/abnf.py": ABNF, "uri/misc.py": MISC, "uri/quote.py": QUOTE,
         "test_quote.py": TESTS}  # fmt: skip


def _unit(root: Path, path: str, name: str):  # type: ignore[no-untyped-def]
    return next(unit for unit in file_units(root, path) if unit.qualified_name == name)


def test_a_value_read_through_two_modules_is_followed_to_its_literal(repo: Path) -> None:
    commit_files(repo, FILES)
    found = [
        (value.path, value.name, value.start_line)
        for value in followed_values(repo, _unit(repo, "uri/quote.py", "quote"))
    ]
    # Nearest first: the strings NON_PCT_SET is made of, then what those are made of; sets made of other values
    # are followed through but hold no literal of their own.
    assert set(found[:2]) == {("uri/abnf.py", "RESERVED", 3), ("uri/abnf.py", "UNRESERVED", 4)}, found
    assert ("uri/abnf.py", "ALPHA", 1) in found and ("uri/abnf.py", "NON_PCT_SET", 7) not in found
    assert all(value.kind == "value" for value in followed_values(repo, _unit(repo, "uri/quote.py", "quote")))


def test_a_class_attribute_read_on_self_is_followed_and_a_local_name_is_not(repo: Path) -> None:
    source = (
        "import re\n\nPATTERN = 'x'\n\n\nclass Heading:\n    RE = re.compile(r'^.*\\n[=-]+$')\n\n"
        "    def test(self, block):\n        PATTERN = 'y'\n        return bool(self.RE.match(block)) and PATTERN\n"
    )
    commit_files(repo, {"blocks.py": source})
    found = followed_values(repo, _unit(repo, "blocks.py", "Heading.test"))
    assert [(value.name, value.start_line, value.text.strip()) for value in found] == [
        ("RE", 7, "RE = re.compile(r'^.*\\n[=-]+$')")
    ]


def test_repair_asks_the_model_about_the_literal_a_value_read_is_made_of(repo: Path) -> None:
    commit_files(repo, FILES)
    right = '```python\nUNRESERVED = ALPHA + DIGIT + "._-~"\n```'

    def reply(messages: list[Message], _tools: object) -> str:
        asked = messages[-1].content
        return right if "```python\nUNRESERVED = ALPHA" in asked.split("most likely to be wrong")[-1] else "No idea."

    outcome, backend, events = repair(repo, reply, candidates=4)
    assert outcome.fixed, [e.data for e in events if e.type in ("repair.candidate", "repair.started")]
    fixed = [e.data for e in events if e.type == "repair.candidate" and e.data["status"] == "fixed"]
    assert fixed[0]["question"] == "line" and fixed[0]["unit"].startswith("uri/abnf.py:4 UNRESERVED"), fixed
    assert 'UNRESERVED = ALPHA + DIGIT + "._-~"' in (repo / "uri" / "abnf.py").read_text()
    # The question showed the value's file (a small one), named the value, and showed the failure.
    asked = next(m[-1].content for m, _ in backend.requests if "with the value UNRESERVED" in m[-1].content)
    assert "This is uri/abnf.py, with the value UNRESERVED" in asked and "/~user" in asked


def test_a_long_table_is_followed_through_and_a_test_module_s_value_is_not_a_unit(repo: Path) -> None:
    table = "WIDTHS = {\n" + "".join(f"    'k{n}': {n},\n" for n in range(30)) + "}\n"
    source = (
        "from tests.fixtures import SAMPLE\nfrom widths import WIDTHS\n\n\n"
        "def width(key):\n    return WIDTHS[key] + len(SAMPLE)\n"
    )
    commit_files(repo, {"widths.py": table, "tests/__init__.py": "", "tests/fixtures.py": "SAMPLE = 'abc'\n",
                        "measure.py": source})  # fmt: skip
    assert followed_values(repo, _unit(repo, "measure.py", "width")) == []
    commit_files(repo, {"widths.py": "WIDTHS = {'a': 1}\n"})
    assert [value.name for value in followed_values(repo, _unit(repo, "measure.py", "width"))] == ["WIDTHS"]
