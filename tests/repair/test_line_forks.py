"""A line's forks: the model's likeliest other tokens along the line as it stands, each a candidate line."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cli_util import pedro
from repo_util import PYTEST, git

from pedro.messages import TokenChoice
from pedro.repair.line_forks import LineForks, forks


def token(text: str, *others: tuple[str, float], logprob: float = -0.1) -> TokenChoice:
    """A token written, its own likelihood first among the likeliest, as llama-server lists them."""
    return TokenChoice(text, logprob, ((text, logprob), *others))


def never_written(written: str) -> tuple[str, Sequence[TokenChoice]]:
    raise AssertionError(f"the model was asked to write on from {written!r}")


def test_forks_along_a_line_the_model_wrote_as_it_stands_come_likeliest_first() -> None:
    rest = " words[1]"
    greedy = [token(" words"), token("[", (".", -3.0)), token("1", ("0", -1.5), ("-", -2.5), ("\n", -0.5)), token("]")]
    found = forks(rest, greedy, never_written)
    assert [(fork.before, fork.token, fork.after) for fork in found] == [
        (" words[", "0", "]"),
        (" words[", "-", "]"),
        (" words", ".", "1]"),
    ]


def test_a_token_the_model_hardly_rates_is_no_fork() -> None:
    greedy = [token(" words"), token("[", ("(", -6.0)), token("1", ("0", -4.5)), token("]")]
    assert forks(" words[1]", greedy, never_written) == []


def test_where_the_model_leaves_the_line_it_is_given_the_line_up_to_the_next_word_and_writes_on() -> None:
    rest = " p in prices[1:]:"
    # Greedy renames the loop's variable: the line is given to it up to ` p`, and it writes on from there.
    greedy = [token(" price", (" p", -1.1)), token(" in"), token(" prices"), token(":")]
    asked: list[str] = []

    def write(written: str) -> tuple[str, Sequence[TokenChoice]]:
        asked.append(written)
        assert written == " p"
        tokens = [token(" in"), token(" prices"), token("[", (":", -1.0)), token("1"), token(":]"), token(":")]
        return "".join(one.text for one in tokens), tokens

    found = forks(rest, greedy, write)
    assert asked == [" p"]
    by_line = {fork.before + fork.token: fork for fork in found}
    # The model's own word where it left the line, with the rest it wrote after it: no request to write it again.
    assert by_line[" price"].written == " in prices:" and by_line[" price"].after == " in prices[1:]:"
    assert by_line[" p in prices:"].after == "1:]:"


def test_each_fork_is_a_line_with_the_rest_as_it_stands_and_a_line_with_what_the_model_writes_on() -> None:
    greedy = [token(" total"), token(" +", (" -", -1.0)), token(" x")]
    written: list[str] = []

    def write(before: str) -> tuple[str, Sequence[TokenChoice]]:
        written.append(before)
        return " 1", [token(" 1")]

    line_forks = LineForks(" total + x", greedy)
    lines = [line_forks.next_line(write) for _ in range(3)]
    assert lines == [" total - x", " total - 1", None] and written == [" total -"]
    assert line_forks.done


def debug_first_word(
    repo: Path, expected: str, url: str, env: dict[str, str], backend: str = "llamacpp"
) -> tuple[Any, list[Any]]:
    """`pedro debug` on a first_word() that takes the second word, its test expecting `expected`; the job's events."""
    (repo / "words.py").write_text("def first_word(text):\n    return text.split()[1]\n")
    test = (
        f"from words import first_word\n\n\ndef test_first():\n    assert first_word('hello world') == {expected!r}\n"
    )
    (repo / "test_words.py").write_text(test)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "words")
    proc = pedro(
        "debug", "--test", PYTEST, "-d", "first_word() is wrong", "--backend", backend, "--base-url", url,
        "--model", "m", "--no-input", "--json", env=env, cwd=repo,
    )  # fmt: skip
    return proc, [json.loads(row) for row in proc.stdout.splitlines() if row.startswith("{")]


def likeliest(tokens: Sequence[tuple[str, Sequence[tuple[str, float]]]]) -> dict[str, Any]:
    """An assistant message whose tokens come with their likeliest others, on llama-server's wire."""
    entries = [
        {"token": text, "logprob": -0.1, "top_logprobs": [{"token": text, "logprob": -0.1}]
         + [{"token": other, "logprob": logprob} for other, logprob in others]}
        for text, others in tokens
    ]  # fmt: skip
    return {"role": "assistant", "content": "".join(text for text, _ in tokens), "logprobs": entries}


def test_a_line_the_model_repeats_is_fixed_by_its_second_likeliest_token(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    # The function's answer fixes nothing; the line's greedy answer is the line as it stands, and its likeliest
    # tokens say where else the model would go.
    line = likeliest([(" text", []), (".split", []), ("()[", []), ("1", [("0", -1.6)]), ("]", [])])
    server = stub_server(["(text):\n    return text\n```", line])
    proc, events = debug_first_word(repo, "hello", server.url, {**cli_env, "PEDRO_REPAIR__MUTANTS": "0"})
    assert proc.returncode == 0, proc.stderr
    assert (repo / "words.py").read_text() == "def first_word(text):\n    return text.split()[0]\n"
    kept = [e for e in events if e["type"] == "repair.candidate" and e["status"] == "fixed"]
    assert kept and kept[0]["question"] == "line" and kept[0]["fork"] is True
    asked = next(r for r in server.requests if r["messages"][-1]["content"].endswith("    return"))
    assert asked["logprobs"] is True and asked["top_logprobs"] == 5 and asked["temperature"] == 0


def test_through_ollama_the_likeliest_tokens_are_asked_at_the_top_and_the_line_is_forked_alike(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    line = likeliest([(" text", []), (".split", []), ("()[", []), ("1", [("0", -1.6)]), ("]", [])])
    server = stub_server(["(text):\n    return text\n```", line])
    env = {**cli_env, "PEDRO_REPAIR__MUTANTS": "0"}
    proc, events = debug_first_word(repo, "hello", server.url, env, backend="ollama")
    assert proc.returncode == 0, proc.stderr
    assert (repo / "words.py").read_text() == "def first_word(text):\n    return text.split()[0]\n"
    kept = [e for e in events if e["type"] == "repair.candidate" and e["status"] == "fixed"]
    assert kept and kept[0]["question"] == "line" and kept[0]["fork"] is True
    asked = next(r for r in server.requests if r["messages"][-1]["content"].endswith("    return"))
    assert (asked["logprobs"], asked["top_logprobs"], asked["options"]["temperature"]) == (True, 5, 0)


def test_a_fork_that_fails_queues_no_variants_of_its_own_line(
    repo: Path, stub_server: Any, cli_env: dict[str, str]
) -> None:
    line = likeliest([(" text", []), (".split", []), ("()[", []), ("1", [("n", -1.6)]), ("]", [])])
    server = stub_server(["(text):\n    return text\n```", line])
    _, events = debug_first_word(repo, "HELLO", server.url, {**cli_env, "PEDRO_REPAIR__TIME_BUDGET_S": "8"})
    tried = [e for e in events if e["type"] == "repair.candidate"]
    forked = [e for e in tried if e.get("fork")]
    assert forked and forked[0]["status"] == "fails", tried
    # Variants of a failed function answer's one changed line are still tried; none of a fork's.
    assert not [e for e in tried if "answer" in e and e["question"] == "answer_variant"
                and e["answer"] == forked[0]["answer"]], tried  # fmt: skip
