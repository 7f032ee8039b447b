"""The first words of a repair answer, written by pedro: a small model that starts inside the code block finishes it.

Asked for a corrected function, Gemma-3-270M greedily echoes the question back and repeats its last line; started
with the fence and the function's own signature up to its name, it writes the function. pedro sends the opening as
an unfinished assistant turn, which llama-server and Ollama continue instead of answering.
"""

from __future__ import annotations

import re
import textwrap

from pedro.repair.candidate import LINE_HEAD
from pedro.repair.locate import Unit
from pedro.tools.symbols import LanguageName


def answer_opening(unit: Unit, fence: str, *, whole_function: bool, line: str = "") -> str:
    """The opening of the answer: the code fence, and for a whole function its definition up to its name, for a
    line its head (`return `, `if `, `total = `), so that what is left to write is the expression."""
    opening = f"```{fence}\n"
    if not whole_function:
        head = LINE_HEAD.match(line.strip())
        # Without its last space: a model's tokens carry the space before a word (` x`); opened after a space,
        # SmolLM2 most often ends the line at once, an empty answer (35 of 186 line answers in one eval run).
        return opening + (head.group("head").rstrip() if head is not None else "")
    name = re.compile(rf"\b{re.escape(unit.name)}\b")
    for line in textwrap.dedent(unit.text).splitlines():
        found = name.search(line)
        if found and not line.lstrip().startswith(("@", "#", "//")):
            return opening + line[: found.end()]
    return opening


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
