"""RepetitionDetector: tells, as a reply streams in, when the model has fallen into a loop (pure, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Repetition:
    """What the detector found: a description for people, and how many trailing characters are mere copies."""

    description: str
    surplus: int
    """Characters at the end of the text fed so far that repeat what came just before them; one copy is kept."""


# A line counts only when it says something: `}`, `pass`, blank lines and separators repeat in good code.
LINE_REPEATS = 5
MIN_LINE_CHARS = 10
MIN_LINE_LETTERS = 6
# A passage with words in it (several letters, not one letter over and over), repeated without a break.
SPAN_REPEATS = 4
MIN_SPAN_CHARS = 200
MIN_SPAN_LETTERS = 4
# Anything else (dots, digits, one letter) only once it runs this long: long literals of zeros stay legal.
MIN_RUN_CHARS = 1000
MAX_PERIOD = 1000
# The tail of the text that is searched; older text cannot be part of a loop that is still going on.
WINDOW = 4 * MAX_PERIOD + MIN_RUN_CHARS
# A loop is looked for each time this many characters have arrived: soon after it is certain, never per token.
CHECK_EVERY = 32
_PROBE = 16


class RepetitionDetector:
    """Feed it a reply's text as it arrives; it answers a Repetition once the text is certainly looping.

    Two rules, both on exact repeats only: the same line (non-trivial: several letters) LINE_REPEATS times in a row,
    blank lines between them aside; or the end of the text made of one passage repeated SPAN_REPEATS times and
    MIN_SPAN_CHARS long (a passage of words), or MIN_RUN_CHARS long whatever it holds. Similar lines that differ
    in a single character (a table of asserts with different values) never match.
    """

    def __init__(self) -> None:
        self._text = ""
        self._unchecked = 0
        self._line = ""  # the line being written
        self._last_line: str | None = None
        self._run = 0
        self._run_chars = 0  # characters of the run's copies after the first, blank lines between them included
        self._blank_chars = 0
        self.found: Repetition | None = None

    def feed(self, text: str) -> Repetition | None:
        """Take the next piece of the reply; the Repetition once one is found (and from then on)."""
        if self.found is not None or not text:
            return self.found
        self.found = self._lines(text) or self._span(text)
        return self.found

    def _lines(self, text: str) -> Repetition | None:
        buffer = self._line + text
        *complete, self._line = buffer.split("\n")
        consumed = 0
        for line in complete:
            consumed += len(line) + 1
            found = self._line_done(line)
            if found is not None:
                # What came after the line that settled it is part of the loop too.
                return Repetition(found.description, found.surplus + len(buffer) - consumed)
        return None

    def _line_done(self, line: str) -> Repetition | None:
        size = len(line) + 1
        if not line.strip():
            self._blank_chars += size
            return None
        if line.rstrip() == self._last_line:
            self._run += 1
            self._run_chars += self._blank_chars + size
        else:
            self._last_line = line.rstrip() if _meaningful_line(line) else None
            self._run, self._run_chars = 1, 0
        self._blank_chars = 0
        if self._run >= LINE_REPEATS:
            return Repetition(f"the line {_quote(line.strip())} {self._run} times in a row", self._run_chars)
        return None

    def _span(self, text: str) -> Repetition | None:
        self._text += text
        if len(self._text) > 2 * WINDOW:
            self._text = self._text[-WINDOW:]
        self._unchecked += len(text)
        if self._unchecked < CHECK_EVERY:
            return None
        self._unchecked = 0
        return find_loop(self._text[-WINDOW:])


def find_loop(text: str) -> Repetition | None:
    """The shortest passage whose exact repeats make up the end of `text` long enough to be certain, if any."""
    if len(text) < 2 * _PROBE:
        return None
    probe = text[-_PROBE:]
    end = len(text) - _PROBE
    while True:
        # Each earlier place where the last characters occur again is a candidate length of the repeated passage.
        at = text.rfind(probe, 0, end + _PROBE - 1)
        if at < 0:
            return None
        period = len(text) - _PROBE - at
        if period > MAX_PERIOD:
            return None
        found = _repeats(text, period)
        if found is not None:
            return found
        end = at


def _repeats(text: str, period: int) -> Repetition | None:
    """Whether the end of `text` is its last `period` characters over and over, for as long as the rules ask."""
    unit = text[-period:]
    wordy = _letters(unit) >= MIN_SPAN_LETTERS and len({c for c in unit if c.isalpha()}) >= 2
    need = max(SPAN_REPEATS * period, MIN_SPAN_CHARS) if wordy else max(SPAN_REPEATS * period, MIN_RUN_CHARS)
    if need > len(text) or text[-need + period :] != text[-need:-period]:
        return None
    # How far back the repeats really go, so that all but the first copy can be dropped.
    span = need
    while span + period <= len(text) and text[-span - period : -span] == text[-span : -span + period]:
        span += period
    while span < len(text) and text[-span - 1] == text[-span - 1 + period]:
        span += 1
    shown = _quote(unit.strip() or unit)
    return Repetition(f"the passage {shown} {span // period} times in a row", span - period)


def _meaningful_line(line: str) -> bool:
    stripped = line.strip()
    return len(stripped.replace(" ", "")) >= MIN_LINE_CHARS and _letters(stripped) >= MIN_LINE_LETTERS


def _letters(text: str) -> int:
    return sum(1 for c in text if c.isalpha())


def _quote(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")
