"""An index into a text the unit writes out, wrapped by another number than the text's length: the number made the
length, in Python and Go, left alone where it is the length already, and a shifted alphabet fixed through the real
repair."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_among_the_first

from pedro.repair.wrap_lengths import wrap_lengths, wrapped_codes

ENCRYPT = (
    "def encrypt(s):\n    d = 'abcdefghijklmnopqrstuvwxyz'\n    out = ''\n    for c in s:\n        if c in d:\n"
    "            out += d[(d.index(c) + 4) % 24]\n        else:\n            out += c\n    return out\n"
)


def test_an_index_wrapped_by_another_number_than_its_texts_length_wraps_by_the_length() -> None:
    assert [(change.row, change.text) for change in wrap_lengths(ENCRYPT.splitlines())] == [
        (5, "            out += d[(d.index(c) + 4) % 26]")
    ]
    go = ['\td := "abcdefghijklmnopqrstuvwxyz"', "\tfor _, c := range s {", "\t\tpos := strings.IndexRune(d, c)",
          "\t\tout = append(out, []rune(d)[(pos+4)%24])", "\t}"]  # fmt: skip
    assert [(change.row, change.text) for change in wrap_lengths(go)] == [
        (3, "\t\tout = append(out, []rune(d)[(pos+4)%26])")
    ]


def test_an_index_wrapped_by_its_texts_length_or_into_a_text_the_unit_does_not_write_is_left_alone() -> None:
    assert wrap_lengths(["    d = 'abcdef'", "    x = d[(i + 1) % 6]", "    y = e[i % 3]"]) == []
    # A name given texts of two lengths: no one length to wrap by.
    assert wrap_lengths(["    d = 'abc'", "    if upper:", "        d = 'ABCD'", "    x = d[i % 3]"]) == []


def test_a_shifted_alphabet_that_wraps_two_letters_early_is_fixed(repo: Path) -> None:
    test = (
        "from cipher import encrypt\n\n\ndef test_encrypt():\n    assert encrypt('hi') == 'lm'\n"
        "    assert encrypt('wxyz') == 'abcd'\n"
    )
    fixed_among_the_first(repo, {"cipher.py": ENCRYPT, "test_cipher.py": test}, "`% 24` → `% 26`")
    assert "% 26]" in (repo / "cipher.py").read_text()


CODES = (
    "def encrypt(text):\n"
    '    """Each letter four further along the alphabet, wrapping past z."""\n'
    "    out = []\n"
    "    for ch in text:\n"
    "        code = ord(ch) + 4\n"
    "        if code > ord('z'):\n"
    "            code -= 24\n"
    "        out.append(chr(code))\n"
    '    return "".join(out)\n'
)


def test_a_letters_code_gone_past_z_steps_back_by_the_alphabet() -> None:
    (change,) = wrapped_codes(CODES.splitlines())
    assert (change.row, change.text) == (6, "            code -= 26")
    js = ["    let p = s[i].charCodeAt() + 4", "    if (p > 122) { p -= 24 }"]
    assert [c.text for c in wrapped_codes(js)] == ["    if (p > 122) { p -= 26 }"]
    go = ["		if r > 'Z' {", "			r -= 25", "		}"]
    assert [c.text for c in wrapped_codes(go)] == ["			r -= 26"]
    # by the alphabet already, or a bound that is not a letter's
    assert wrapped_codes(["    if (p > 122) { p -= 26 }", "    if (n > 100) { n -= 24 }"]) == []


def test_a_cipher_whose_letters_past_z_land_two_early_is_fixed(repo: Path) -> None:
    test = (
        "from cipher import encrypt\n\n\ndef test_encrypt():\n    assert encrypt('hi') == 'lm'\n"
        "    assert encrypt('wxyz') == 'abcd'\n"
    )
    fixed_among_the_first(repo, {"cipher.py": CODES, "test_cipher.py": test}, "`-= 24` → `-= 26`", first=1)
    assert "            code -= 26\n" in (repo / "cipher.py").read_text()
