"""A number a line turns into text, zero-padded where the failure wants it wider: each language's own way."""

from __future__ import annotations

from pedro.repair.padding import zero_padded
from pedro.tools.symbols import LanguageName


def padded(line: str, language: LanguageName) -> list[str]:
    return [new for new, _change in zero_padded(line, 2, language)]


def test_each_place_a_number_becomes_text_is_padded_alone_in_the_languages_own_way() -> None:
    assert padded('    return f"{h}:{m}"', "python") == ['    return f"{h:02d}:{m}"', '    return f"{h}:{m:02d}"']
    assert padded('    return "{}:{}".format(h, m)', "python") == [
        '    return "{:02d}:{}".format(h, m)',
        '    return "{}:{:02d}".format(h, m)',
    ]
    assert padded('    return "%d:%d" % (h, m)', "python") == [
        '    return "%02d:%d" % (h, m)',
        '    return "%d:%02d" % (h, m)',
    ]
    assert padded('    return str(h) + ":" + str(m)', "python") == [
        '    return str(h).zfill(2) + ":" + str(m)',
        '    return str(h) + ":" + str(m).zfill(2)',
    ]
    assert padded("  return `${minutes}:${rest}`;", "javascript") == [
        '  return `${String(minutes).padStart(2, "0")}:${rest}`;',
        '  return `${minutes}:${String(rest).padStart(2, "0")}`;',
    ]
    assert padded("  return String(m) + s.toString();", "typescript") == [
        '  return String(m).padStart(2, "0") + s.toString();',
        '  return String(m) + s.toString().padStart(2, "0");',
    ]
    assert padded('\treturn fmt.Sprintf("%d:%02d", minutes/60, minutes%60)', "go") == [
        '\treturn fmt.Sprintf("%02d:%02d", minutes/60, minutes%60)'
    ]


def test_a_field_already_formatted_an_escaped_percent_code_and_a_comment_are_left_alone() -> None:
    assert padded('    return f"{h:>3}:{m!r}"', "python") == []
    assert padded('    return "100%%d" % n', "python") == []
    assert padded("    x = a %d", "python") == []  # the remainder by a name, not a field
    assert padded('    total = n  # printed as f"{n}" and str(n)', "python") == []
    assert padded('  return "${m}" + name;', "javascript") == []  # not a template
