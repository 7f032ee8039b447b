"""What the model is asked for a direct build: the file (or the part around the place) and the request, and the
first words of the answer, written by pedro: the fence and the definition up to the function's name."""

from __future__ import annotations

import re

from pedro.build.place import Place
from pedro.prompts import render_prompt
from pedro.repair.answers import FENCE_NAMES, WHOLE_FILE_LINES
from pedro.tools.symbols import extract_symbols

_HEAD_LINES = 40
_GO_RECEIVER = r"^func\s+(\([^)]*\b{owner}\)\s*)"


def question(place: Place, file_text: str, description: str) -> str:
    """The prompt: the file whole when it is small, else its head and the code around the place; then the request."""
    fence = FENCE_NAMES[place.language]
    lines = file_text.rstrip("\n").splitlines()
    if len(lines) <= WHOLE_FILE_LINES:
        code, what = "\n".join(lines), f"This is {place.path}"
    else:
        code, what = _around(place, file_text, lines), f"This is part of {place.path}"
    if place.exists:
        thing = f"changed {place.name} function"
    elif place.owner:
        thing = f"new {place.name} method of {place.owner}"
    else:
        thing = f"new {place.name} function"
    return render_prompt("build/write.md", what=what, fence=fence, code=code, request=description.strip(), thing=thing)


def _around(place: Place, file_text: str, lines: list[str]) -> str:
    """The file's head (its imports) and the function changed or the class extended, with a gap marked between."""
    symbols = extract_symbols(file_text.encode(), place.path)
    wanted = place.name if place.exists else place.owner
    found = next((s for s in symbols if s.name == wanted), None)
    head = lines[:_HEAD_LINES]
    if found is None or found.start_line <= _HEAD_LINES:
        end = max(_HEAD_LINES, found.end_line if found is not None else 0)
        return "\n".join(lines[: min(end, WHOLE_FILE_LINES)])
    body = lines[found.start_line - 1 : min(found.end_line, found.start_line - 1 + WHOLE_FILE_LINES)]
    return "\n".join([*head, "...", *body])


def answer_opening(place: Place, file_text: str) -> str:
    """The answer's first words: the fence and the definition up to the name (`def median(`, `func IsEven(`, a Go
    method with its type's receiver as the file writes it, a Python or JavaScript method indented in its class)."""
    opening = f"```{FENCE_NAMES[place.language]}\n"
    if place.exists:
        found = next((s for s in extract_symbols(file_text.encode(), place.path) if s.name == place.name), None)
        if found is not None:
            line = file_text.splitlines()[found.start_line - 1]
            at = re.search(rf"\b{re.escape(place.name)}\b", line)
            if at is not None:
                return opening + line.lstrip()[: len(line.lstrip()) - len(line) + at.end()]
    if place.language == "python":
        return opening + ("    " if place.owner else "") + f"def {place.name}("
    if place.language == "go":
        receiver = (
            re.search(_GO_RECEIVER.format(owner=re.escape(place.owner)), file_text, re.M) if place.owner else None
        )
        return opening + "func " + (receiver.group(1) if receiver else "") + f"{place.name}("
    if place.owner:
        return opening + f"  {place.name}("
    return opening + f"function {place.name}("
