"""RepetitionDetector: loops are cut once certain; good code with repeated lines never is."""

from __future__ import annotations

import pytest

from pedro.backends.repetition import LINE_REPEATS, Repetition, RepetitionDetector


def feed_in(text: str, size: int) -> tuple[Repetition | None, int]:
    """Feed `text` in pieces of `size` characters; what the detector found, and how much it had read by then."""
    detector = RepetitionDetector()
    for start in range(0, len(text), size):
        found = detector.feed(text[start : start + size])
        if found is not None:
            return found, start + size
    return None, len(text)


def kept(text: str, read: int, found: Repetition) -> str:
    return text[:read][: read - found.surplus]


SENTENCE = "I will look at the file to see what is wrong with it. "
LOOPS = {
    "the same sentence without newlines": "Sure. " + SENTENCE * 60,
    "the same line": "Here is the plan:\n" + "I will fix the bug in shop.py now.\n" * 60,
    "the same line with blank lines between": "Plan:\n" + "Let me run the tests again.\n\n" * 60,
    "a paragraph of three sentences": "Ok. " + "First I read it. Then I fix the function. Then I run pytest.\n" * 40,
    "a short word loop": "answer: " + "the the " * 400,
    "dots without end": "Thinking" + "." * 3000,
    "a call repeated in text": "```bash\npytest -q tests/test_shop.py\n```\n" * 40,
}


@pytest.mark.parametrize("size", [1, 3, 7, 64])
@pytest.mark.parametrize("name", sorted(LOOPS))
def test_a_loop_is_found_early_and_one_copy_is_kept(name: str, size: int) -> None:
    text = LOOPS[name]
    found, read = feed_in(text, size)
    assert found is not None, name
    assert read < len(text) / 2, f"{name}: found only after {read} of {len(text)} characters"
    left = kept(text, read, found)
    assert text.startswith(left) and len(left) < read, found
    assert "times in a row" in found.description


def test_the_same_line_is_cut_at_its_fifth_copy() -> None:
    line = "I will fix the bug in shop.py now.\n"
    found, read = feed_in(line * 10, len(line))
    assert found is not None and read == LINE_REPEATS * len(line)
    assert kept(line * 10, read, found) == line
    assert repr(line.strip()) in found.description


def test_the_kept_text_is_the_start_and_one_copy_of_the_loop() -> None:
    text = "Sure. " + SENTENCE * 10
    found, read = feed_in(text, len(SENTENCE))
    assert found is not None
    left = kept(text, read, found)
    # One copy of the loop (where its repeats began: the end of "Sure. " already matches "it. ").
    assert text.startswith(left) and SENTENCE[:-2] in left and len(left) <= len("Sure. " + SENTENCE)


LEGITIMATE = {
    "closing braces": "function f() {\n  if (a) {\n    x();\n" + "    }\n" * 3 + "  }\n" * 3 + "}\n" * 8,
    "blank lines": "def f():\n    return 1\n" + "\n" * 40 + "def g():\n    return 2\n",
    "asserts with different values": "".join(f"    assert add({i}, {i + 1}) == {2 * i + 1}\n" for i in range(300)),
    "similar lines": "".join(f"print('processing item number {i} of the list')\n" for i in range(200)),
    "a grid of zeros": "grid = [\n" + "    [0, 0, 0, 0, 0, 0, 0, 0, 0],\n" * 9 + "]\n",
    "a long zero literal": "BUFFER = [" + "0, " * 250 + "0]\n",
    "a separator line": "#" * 79 + "\n" + "# section\n" + "#" * 79 + "\n" + "=" * 120 + "\n",
    "short repeated statements": "x = 1\n" * 4 + "    pass\n" * 12 + "i += 1\n" * 12,
    "a markdown table": "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 30,
    "the same line four times": "self.assertTrue(result.ok)\n" * 4 + "done()\n",
    "an indented block": "".join(f"        value_{i} = compute(config, {i})\n" for i in range(100)),
}


@pytest.mark.parametrize("size", [1, 5, 50])
@pytest.mark.parametrize("name", sorted(LEGITIMATE))
def test_legitimate_code_is_never_cut(name: str, size: int) -> None:
    found, _ = feed_in(LEGITIMATE[name], size)
    assert found is None, f"{name}: {found}"


def test_prose_of_different_sentences_is_never_cut() -> None:
    names = "abcdefgh" * 20
    prose = " ".join(f"Step {i}: the function {name} returns the wrong value." for i, name in enumerate(names))
    assert feed_in(prose, 4)[0] is None


def test_after_a_find_the_detector_keeps_its_answer() -> None:
    detector = RepetitionDetector()
    found = None
    while found is None:
        found = detector.feed(SENTENCE)
    assert detector.feed("something new") is found
