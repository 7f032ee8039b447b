"""A class named where the instance's own class was meant: `return Version(**parts)` inside a method of `Version`,
which a subclass inherits and so hands back a plain `Version`. Where a failing test subclasses a class of the
project, each line of that class's code that names it as a value names `type(self)` instead (`cls` in a class
method); Python."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pedro.repair.locate import RowChange

# `class Tagged(Version):`, `class Tagged(semver.Version, Mixin):`: the first base.
_SUBCLASS = re.compile(r"^\s*class\s+\w+\s*\(\s*(?:[\w]+\.)*(?P<base>[A-Z]\w*)\s*[,)]", re.MULTILINE)
_DEF = re.compile(r"^\s*(?:async\s+)?def\s+\w+\s*\(\s*(?P<first>\w+)")
_STRING = re.compile(r"""(?P<q>['"]).*?(?<!\\)(?P=q)""")


def subclassed(sources: Iterable[str]) -> frozenset[str]:
    """The classes the failing tests' code subclasses, by name."""
    return frozenset(match["base"] for source in sources for match in _SUBCLASS.finditer(source))


def own_class_rows(lines: Sequence[str], bases: frozenset[str]) -> list[RowChange]:
    """Each line that names one of `bases` as a value (called, listed, compared with) in a function whose first
    parameter is `self` or `cls`, the name made `type(self)` (or `cls`): all of them on the line at once."""
    found: list[RowChange] = []
    owner = ""
    for row, line in enumerate(lines):
        if (header := _DEF.match(line)) is not None:
            owner = header["first"] if header["first"] in {"self", "cls"} else ""
            continue
        code = _STRING.sub(lambda string: " " * len(string.group(0)), line.split("#", 1)[0])
        if not owner or code.lstrip().startswith(("class ", "@")):
            continue
        for base in bases:
            # A value, not an annotation (`-> "Version"` is a string) nor an attribute of another name.
            named = [m for m in re.finditer(rf"(?<![\w.]){re.escape(base)}\b(?!\s*=[^=])", code)]
            if not named or re.search(rf"super\(\s*{re.escape(base)}\b|isinstance\(\s*{re.escape(base)}\b", code):
                continue
            own = "type(self)" if owner == "self" else "cls"
            new = line
            for match in reversed(named):
                new = new[: match.start()] + own + new[match.end() :]
            said = f"`{base}` → `{own}`: a subclass the failing test makes inherits this code"
            found.append(RowChange(row, new, said))
    return found
