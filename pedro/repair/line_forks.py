"""A line's forks: wherever the line as it stands meets a token the model rates nearly as likely as the line's own, a
candidate line takes that token instead, followed once by the line's own rest and once by what the model writes
after it. Candidates ranked by the model's own probabilities, each a few tokens to write and one test to try: how a
125M model fills in the buggy line thousands of times over in AlphaRepair, for a model that writes left to right."""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pedro.messages import TokenChoice

LIKELIEST = 5
"""Tokens asked for at each place the model writes: its own and four others."""
MOST_FORKS = 12
"""Forks tried per line, the likeliest first: each gives two candidates, and a line has 5-20 tokens."""
_FLOOR = math.log(0.02)
"""A token the model gives less than this probability at its place is no fork: below it SmolLM2's tokens are noise."""
_PIECE = re.compile(r"\s*(?:\w+|[^\w\s])")
"""A word or a sign, with the spaces before it: where the line is written on when the model left it."""

Write = Callable[[str], tuple[str, Sequence[TokenChoice]]]
"""What the model writes greedily to the line's end after its opening and the given text: the text, and its tokens
with the likeliest at each."""


@dataclass(frozen=True)
class Fork:
    """One place the model would write another token: the line's own text before it, the token and its
    log-probability, the line's own text after the token the fork replaces, and what the model wrote after the token
    when that is known already (the model's own greedy line left the line there)."""

    before: str
    token: str
    logprob: float
    after: str
    written: str | None = None


class LineForks:
    """The forks of one line (`rest`: the line after its answer's opening), found from the greedy answer's tokens when
    first asked for, and taken one candidate line at a time."""

    def __init__(self, rest: str, greedy: Sequence[TokenChoice]) -> None:
        self.rest = rest
        self.greedy = tuple(greedy)
        self._forks: deque[Fork] | None = None
        self._ready: deque[str | Fork] = deque()

    @property
    def done(self) -> bool:
        """Whether every fork was given."""
        return self._forks is not None and not self._forks and not self._ready

    def next_line(self, write: Write) -> str | None:
        """The next candidate for the line's rest, or None once every fork was given. A failing `write` (the repair
        stopped the model) leaves the fork it was writing to be written the next time."""
        if self._forks is None:
            self._forks = deque(forks(self.rest, self.greedy, write))
        while True:
            if self._ready:
                first = self._ready[0]
                line = (
                    first
                    if isinstance(first, str)
                    else first.before + first.token + write(first.before + first.token)[0]
                )
                self._ready.popleft()
                return line
            if not self._forks:
                return None
            fork = self._forks.popleft()
            self._ready.append(fork.before + fork.token + fork.after)
            self._ready.append(fork if fork.written is None else fork.before + fork.token + fork.written)


def forks(rest: str, greedy: Sequence[TokenChoice], write: Write, *, most: int = MOST_FORKS) -> list[Fork]:
    """The `most` likeliest forks along `rest`. The greedy answer's tokens give the model's choices wherever it wrote
    the line as it is; where it left the line, the line's own text is given it up to the next word or sign, and the
    model writes on from there."""
    found: list[Fork] = []
    tokens: Sequence[TokenChoice] = tuple(greedy)
    at = 0
    while True:
        at, here = _follow(rest, at, tokens)
        found.extend(here)
        if at >= len(rest.rstrip()):
            break
        piece = _PIECE.match(rest, at)
        at = piece.end() if piece is not None else len(rest)
        if at >= len(rest.rstrip()):
            break
        _, tokens = write(rest[:at])
        if not tokens:
            break
    found.sort(key=lambda fork: -fork.logprob)
    return _distinct(found)[:most]


def _follow(rest: str, at: int, tokens: Sequence[TokenChoice]) -> tuple[int, list[Fork]]:
    """Along the tokens while they write the line as it is, from `at`: the forks at each token, and where the tokens
    left the line (or ended)."""
    found: list[Fork] = []
    for number, token in enumerate(tokens):
        follows = bool(token.text) and rest.startswith(token.text, at)
        replaced = len(token.text) if follows else _piece_length(rest, at)
        for text, logprob in token.likeliest:
            if logprob < _FLOOR or "\n" in text or not text.strip() or rest.startswith(text, at):
                continue
            # The model's own token where it left the line: what it wrote after it is known.
            written = "".join(one.text for one in tokens[number + 1 :]) if text == token.text else None
            found.append(Fork(rest[:at], text, logprob, rest[at + replaced :], written))
        if not follows:
            return at, found
        at += len(token.text)
    return at, found


def _piece_length(rest: str, at: int) -> int:
    piece = _PIECE.match(rest, at)
    return piece.end() - at if piece is not None else len(rest) - at


def _distinct(found: Sequence[Fork]) -> list[Fork]:
    """The forks but those that give the same line before their token as an earlier one with the same token."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for fork in found:
        key = (fork.before, fork.token)
        if key not in seen:
            seen.add(key)
            kept.append(fork)
    return kept
