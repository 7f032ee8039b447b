"""The first words of a repair answer, written by pedro: a small model that starts inside the code block finishes it.

Asked for a corrected function, Gemma-3-270M greedily echoes the question back and repeats its last line; started
with the fence and the function's own signature up to its name, it writes the function. pedro sends the opening as
an unfinished assistant turn, which llama-server and Ollama continue instead of answering.

A Python function documented at length opens with its signature and docstring written out: rewriting them is most
of such an answer's tokens, and the place a small model falls into a loop. On four real projects' functions
SmolLM2-135M's first answers spent their whole 512 tokens inside the docstring (`μμμμ…`, or zero-width joiners one
after another), 11-15 s each, and never reached the code.

A line is rewritten in place: the answer opens with the function down to the line and the line's head, and the model
writes the rest of the line as it would go on writing the code. Asked for the line alone, out of its function,
SmolLM2-135M's answers were mostly prose or another language.
"""

from __future__ import annotations

import ast
import re
import textwrap

from pedro.repair.candidate import LINE_HEAD
from pedro.repair.locate import Unit
from pedro.tools.symbols import LanguageName


def answer_opening(unit: Unit, fence: str) -> str:
    """The opening of a whole function's answer: the code fence and its definition up to its name, or through its
    docstring where that runs over several lines."""
    opening = f"```{fence}\n"
    if unit.language == "python" and (documented := _through_docstring(unit.text)):
        return opening + documented
    name = re.compile(rf"\b{re.escape(unit.name)}\b")
    for line in textwrap.dedent(unit.text).splitlines():
        if _defines(line, unit.name) and (found := name.search(line)) is not None:
            return opening + line[: found.end()]
    return opening


DOCSTRING_LINES = 3
"""A docstring of this many lines or more is written into the opening; a shorter one costs a few tokens to copy, and
a function without one keeps its signature open to the fix (a wrong default)."""


def _through_docstring(text: str) -> str:
    """The function's definition through its docstring's last line and the line's end, dedented, where the docstring
    has DOCSTRING_LINES lines or more; "" otherwise."""
    code = textwrap.dedent(text)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return ""
    function = next((node for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)), None)
    if function is None or ast.get_docstring(function, clean=False) is None:
        return ""
    docstring = function.body[0]
    if docstring.end_lineno is None or docstring.end_lineno - docstring.lineno + 1 < DOCSTRING_LINES:
        return ""
    lines = code.splitlines(keepends=True)
    # From the `def` line (decorators stay as they are: the answer replaces the function from there), and on to the
    # body's indentation: after a docstring's last line alone SmolLM2 greedily closed the block.
    written = "".join(lines[function.lineno - 1 : docstring.end_lineno]).rstrip("\n")
    return f"{written}\n{_before_a_word(' ' * docstring.col_offset)}"


def line_in_place(unit: Unit, fence: str, line: int) -> str:
    """The opening of an answer that rewrites one line where it stands: the function from its definition down to the
    line, then the line's indentation and head (`return`, `if`, `total =`). The model continues the function as code
    is written, not a line out of its context; what it writes up to the line's end is the line."""
    lines = textwrap.dedent(unit.text).splitlines()
    at = line - unit.start_line
    if not 0 <= at < len(lines):
        return f"```{fence}\n"
    start = next((row for row, text in enumerate(lines[:at]) if _defines(text, unit.name)), at)
    return "".join(f"{text}\n" for text in [f"```{fence}", *lines[start:at]]) + _line_head(lines[at])


def line_rest(unit: Unit, line: int) -> str:
    """The line as it stands after the head its in-place answer opens with (line_in_place): what the model writes."""
    lines = textwrap.dedent(unit.text).splitlines()
    at = line - unit.start_line
    return lines[at][len(_line_head(lines[at])) :] if 0 <= at < len(lines) else ""


def _line_head(target: str) -> str:
    """The line's indentation and head (`return`, `if`, `total =`) without its last space: opened after a space,
    SmolLM2 most often ended the line at once, an empty answer (35 of 186 line answers in one eval run)."""
    indent = target[: len(target) - len(target.lstrip())]
    head = LINE_HEAD.match(target.strip())
    return indent + head.group("head").rstrip() if head is not None else _before_a_word(indent)


def the_line_written(answer: str, opening: str, fence: str) -> str:
    """An in-place answer (its opening included) as a line question's answer: its fence and the one line it wrote,
    from the opening's last line to the first line's end (a server that ignores the stop may write on)."""
    line = answer[opening.rfind("\n") + 1 :].split("\n", 1)[0]
    return f"```{fence}\n{line.strip()}"


def _defines(line: str, name: str) -> bool:
    """Whether the line is the unit's definition (not a decorator or a comment above it)."""
    return re.search(rf"\b{re.escape(name)}\b", line) is not None and not line.lstrip().startswith(("@", "#", "//"))


def _before_a_word(indent: str) -> str:
    """An indentation less its last space: code is tokenized as `\\n   ` and ` word`, and a model opened after the
    whole indentation must start with a token it has seldom seen there."""
    return indent[:-1] if indent.endswith(" ") else indent


def answer_stops(language: LanguageName, *, indent: str = "", line: bool = False) -> tuple[str, ...]:
    """Where an answer ends: its closing fence, or the start of the next definition at the function's own level
    (`indent`: a method's, when the answer is written indented in its class); a line question's answer at its line's
    end. A small model goes on with the file's other functions or an example of use, at seconds a line on a small
    CPU, and a server stops at four of these at most (the OpenAI API's limit)."""
    if line:
        return ("\n",)
    if language == "python":
        return ("\n```", f"\n{indent}def ", "\nclass ", "\nprint(")
    if language == "go":
        return ("\n```", "\nfunc ", "\ntype ", "\n// ")
    return ("\n```", "\nfunction ", "\nmodule.exports", "\nconsole.")


def with_opening(reply: str, opening: str) -> str:
    """The whole answer: llama-server sends the opening back with the continuation, Ollama only the continuation."""
    return reply if reply.startswith(opening) else opening + reply
