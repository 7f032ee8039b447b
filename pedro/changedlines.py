"""The lines a change adds or rewrites, per file, read from the hunks of `git diff -U0` against a base commit."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pedro import gitlayer

# `@@ -12,3 +14,5 @@`: the new side starts at line 14 and has 5 lines (a missing count means 1, 0 a deletion).
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(?P<start>\d+)(?:,(?P<count>\d+))? @@")
_QUOTED_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


@dataclass(frozen=True)
class ChangedLines:
    """For each file the change touches (as it is now, deleted files left out), its added or rewritten lines."""

    lines: dict[str, frozenset[int]] = field(default_factory=dict)

    @property
    def files(self) -> list[str]:
        return sorted(self.lines)

    def touches(self, path: str, line: int) -> bool:
        return line in self.lines.get(path, frozenset())


def changed_lines(root: Path, base: str) -> ChangedLines:
    """The working tree's changed lines against `base`, from git's own hunks (no rename pairing: a renamed file's
    lines all count as new, which is what a linter reports them as)."""
    result = gitlayer.run(
        root, "diff", "-U0", "--no-ext-diff", "--no-textconv", "--no-color", "--no-renames", base, "--", timeout=120
    )
    return parse_changed_lines(result.out if result.ok else "")


def parse_changed_lines(diff: str) -> ChangedLines:
    """The new-side line numbers of every hunk in a unified diff, by the file's path (`b/` side)."""
    found: dict[str, set[int]] = {}
    current: set[int] | None = None
    for line in diff.splitlines():
        if line.startswith("+++ "):
            path = _unquote(line[4:].rstrip("\t"))
            current = None if path == "/dev/null" else found.setdefault(path.removeprefix("b/"), set())
        elif current is not None and (hunk := _HUNK.match(line)) is not None:
            start, count = int(hunk.group("start")), int(hunk.group("count") or "1")
            current.update(range(start, start + count))
    return ChangedLines({path: frozenset(lines) for path, lines in found.items()})


def _unquote(name: str) -> str:
    """git's C-style quoting of a path with unusual characters ("b/caf\\303\\251.py"), undone."""
    if not (len(name) >= 2 and name.startswith('"') and name.endswith('"')):
        return name
    body, out, index = name[1:-1], bytearray(), 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            following = body[index + 1]
            if following in "01234567" and re.fullmatch(r"[0-7]{3}", body[index + 1 : index + 4]):
                out.append(int(body[index + 1 : index + 4], 8))
                index += 4
                continue
            out.append(_QUOTED_ESCAPES.get(following, ord(following)))
            index += 2
            continue
        out.extend(char.encode("utf-8"))
        index += 1
    return out.decode("utf-8", errors="surrogateescape")
