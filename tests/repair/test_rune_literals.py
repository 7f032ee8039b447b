"""A Go rune literal of several characters, which Go refuses to build: made one character (the repeated one, else
each in turn), left alone inside text, and a replacement of spaces that does not build fixed through the real
repair."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_mutants import fixed_by_a_variant, tried_changes

from pedro.repair.rune_literals import rune_literals

UNDERSCORES = (
    "package text\n\n"
    "// Underscores is text with each space made an underscore.\n"
    "func Underscores(text string) string {\n"
    "\tout := make([]byte, 0)\n"
    "\tfor i := 0; i < len(text); i++ {\n"
    "\t\tif text[i] == ' ' {\n"
    "\t\t\tout = append(out, '__')\n"
    "\t\t} else {\n"
    "\t\t\tout = append(out, text[i])\n"
    "\t\t}\n"
    "\t}\n"
    "\treturn string(out)\n"
    "}\n"
)


def test_a_rune_of_several_characters_is_made_one() -> None:
    lines = UNDERSCORES.splitlines()[3:]
    assert [(c.row, c.text, c.change) for c in rune_literals(lines, "go")] == [
        (4, "\t\t\tout = append(out, '_')", "`'__'` → `'_'`: a rune holds one character")
    ]
    assert [c.text for c in rune_literals(["\tc := 'ab'"], "go")] == ["\tc := 'a'", "\tc := 'b'"]
    inside = ["\ts := \"it's 'ab' here\"", "\tr := `a 'bc' d`", "\tq := 'x'", "\tw := 'word'"]
    assert rune_literals(inside, "go") == rune_literals(["  c = 'ab'"], "python") == []


def test_a_go_function_that_does_not_build_for_a_rune_of_two_characters_is_fixed(repo: Path) -> None:
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    test = (
        'package text\n\nimport "testing"\n\nfunc TestUnderscores(t *testing.T) {\n'
        '\tif got := Underscores("a b c"); got != "a_b_c" {\n\t\tt.Error(got)\n\t}\n}\n'
    )
    files = {"go.mod": "module example.com/text\n\ngo 1.19\n", "text.go": UNDERSCORES, "text_test.go": test}
    events = fixed_by_a_variant(repo, files, mutants=20, command="go test ./...")
    tried = tried_changes(events)
    assert tried[0][1:] == ("`'__'` → `'_'`: a rune holds one character", "fixed"), tried
    assert "\t\t\tout = append(out, '_')\n" in (repo / "text.go").read_text()
