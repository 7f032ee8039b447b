"""What the model is asked for a direct build: the file (or the part around the place) and the request, and the
first words of the answer, written by pedro: the fence and the definition up to the function's name."""

from __future__ import annotations

import re

from pedro.build.place import Place
from pedro.prompts import render_prompt
from pedro.repair.answers import FENCE_NAMES, WHOLE_FILE_LINES
from pedro.repair.opening import answer_stops as answer_stops_for
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


def answer_opening(place: Place, file_text: str, description: str = "") -> str:
    """The answer's first words: the fence and the definition up to the name (`def median(`, `func IsEven(`, a Go
    method with its type's receiver as the file writes it, a Python or JavaScript method indented in its class);
    the whole signature when the request writes it (`median(values)`, `Max(a, b int) int`) or names the argument a
    changed function gains, so that what is left to write is the body."""
    opening = f"```{FENCE_NAMES[place.language]}\n"
    head = _head(place, file_text)
    signature = _signature(place, file_text, description) if description else None
    if signature is None:
        return opening + head + ("" if place.exists else "(")
    return opening + head + signature


def answer_stops(place: Place) -> tuple[str, ...]:
    """Where an answer ends (repair's rule, opening.answer_stops), a method's at the next method of its class."""
    return answer_stops_for(place.language, indent="    " if place.owner and place.language == "python" else "")


def _head(place: Place, file_text: str) -> str:
    """The definition up to the function's name."""
    if place.exists:
        found = next((s for s in extract_symbols(file_text.encode(), place.path) if s.name == place.name), None)
        if found is not None:
            line = file_text.splitlines()[found.start_line - 1]
            at = re.search(rf"\b{re.escape(place.name)}\b", line)
            if at is not None:
                return line.lstrip()[: len(line.lstrip()) - len(line) + at.end()]
    if place.language == "python":
        return ("    " if place.owner else "") + f"def {place.name}"
    if place.language == "go":
        receiver = (
            re.search(_GO_RECEIVER.format(owner=re.escape(place.owner)), file_text, re.M) if place.owner else None
        )
        return "func " + (receiver.group(1) if receiver else "") + place.name
    return f"  {place.name}" if place.owner else f"function {place.name}"


def _signature(place: Place, file_text: str, description: str) -> str | None:
    """The rest of the definition's first line, from the request, ending where the body begins; None when the
    request does not write it."""
    if place.exists:
        return _with_new_argument(place, file_text, description)
    written = re.search(rf"\b{re.escape(place.name)}\s*\((?P<params>[^()]*)\)(?P<rest>[^\n]*)", description)
    if written is None:
        return None
    params = " ".join(written.group("params").split())
    if place.language == "python":
        if not re.fullmatch(r"(\s*[A-Za-z_]\w*(\s*=\s*[^,]+)?\s*,?)*", params):
            return None
        params = ", ".join(p for p in ("self" if place.owner else "", params) if p)
        return f"({params}):\n" + _PY_BODY * (2 if place.owner else 1)
    if place.language == "go":
        result = re.match(r"\s*(?P<type>\[\]\w+|\*?\w+|\([^)]*\))", written.group("rest"))
        typed = result.group("type") if result and _go_type(result.group("type")) else ""
        return f"({params}) {typed} {{\n\t".replace("  ", " ")
    if not re.fullmatch(r"(\s*[A-Za-z_$][\w$]*(\s*=\s*[^,]+)?\s*,?)*", params):
        return None
    return f"({params}) {{\n" + "  " * (2 if place.owner else 1)


# The body's first indentation ends the opening: after a whole signature and a bare newline, a small model closes
# the code block at once.
_PY_BODY = "    "
_GO_TYPES = frozenset({"bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
                       "float32", "float64", "string", "byte", "rune", "error", "any"})  # fmt: skip


def _go_type(text: str) -> bool:
    base = text.lstrip("[]*")
    return base in _GO_TYPES or text.startswith("(") or (base[:1].isupper() and base.isidentifier())


def _with_new_argument(place: Place, file_text: str, description: str) -> str | None:
    """A Python function's signature with the argument the request adds (`a keyword argument times ..., default
    1`): its parameters so far, then the new one with its default."""
    if place.language != "python":
        return None
    named = re.search(r"\b(?:keyword\s+)?(?:argument|parameter|option|flag)\s+`?(?P<name>[A-Za-z_]\w*)`?", description)
    if named is None:
        return None
    default = re.search(
        r"\bdefault(?:s| value)?(?:\s+(?:is|to|of))?\s+`?(?P<value>[^\s,;:`]+?)`?[.,;:]?(?:\s|$)", description
    )
    found = re.search(rf"^\s*def\s+{re.escape(place.name)}\s*\((?P<params>[^)]*)\)", file_text, re.M)
    if found is None:
        return None
    params = [p.strip() for p in found.group("params").split(",") if p.strip()]
    name = named.group("name")
    if any(p.split("=")[0].strip() == name for p in params):
        return None
    value = default.group("value") if default else "None"
    return f"({', '.join([*params, f'{name}={value}'])}):\n{_PY_BODY}"
