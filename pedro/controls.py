"""Terminal control characters in model text, tool output or a CI log: shown as symbols, never obeyed."""

from __future__ import annotations

# Such text reaches a terminal, a CI job's summary page or a Markdown report: control characters (ESC]0;… retitles
# a terminal, ESC[2J clears it, a lone CR overwrites what was shown) are made visible instead of obeyed. Tab and
# newline stay.
_CONTROLS = (
    {code: 0x2400 + code for code in range(0x20) if code not in (0x09, 0x0A)}
    | {0x7F: 0x2421}
    | {code: 0xFFFD for code in range(0x80, 0xA0)}
)


def neutralise(text: str) -> str:
    """`text` with terminal control characters shown as symbols (␛, ␍, …) rather than acted on."""
    return text.replace("\r\n", "\n").translate(_CONTROLS)
