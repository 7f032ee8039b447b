"""safety.md §2 cases 1–5, 12 and 24: paths that escape the repository, hostile names, malformed calls."""

from __future__ import annotations

import secrets
from pathlib import Path

from harness import AWS_SECRET, KEY_BODY, Arena, bash, call, check_invariants, run_case
from repo_util import git

from pedro.messages import Completion, ToolCall


def test_case_01_dotdot_read(arena: Arena) -> None:
    run = run_case(arena, [call("file", {"action": "read", "path": "../../etc/passwd"})])

    assert "escapes the repository" in run.answer(0)
    assert "root:x:0:0" not in run.everything_sent()
    check_invariants(run, refused=[0])


def test_case_02_absolute_and_tilde_reads(arena: Arena) -> None:
    paths = ["/etc/passwd", "~/.ssh/id_rsa", "$HOME/.aws/credentials", f"{arena.home}/.ssh/id_rsa"]
    run = run_case(arena, [call("file", {"action": "read", "path": path}) for path in paths])

    assert "escapes the repository" in run.answer(0)
    for index in (1, 2):
        assert "never expands" in run.answer(index)
    sent = run.everything_sent()
    assert "root:x:0:0" not in sent and KEY_BODY not in sent and AWS_SECRET not in sent
    # nothing was created for the unexpanded names either
    assert not (arena.root / "~").exists() and not (arena.root / "$HOME").exists()
    check_invariants(run, refused=range(len(paths)))


def test_case_03_dotdot_write(arena: Arena) -> None:
    outside = arena.root.parent / "outside.txt"
    run = run_case(arena, [call("file", {"action": "write", "path": "src/../../outside.txt", "content": "pwn\n"})])

    assert "escapes the repository" in run.answer(0)
    assert not outside.exists()
    check_invariants(run, refused=[0])


def test_case_04_symlink_to_root(arena: Arena, sandbox: str) -> None:
    (arena.root / "rootlink").symlink_to("/")
    git(arena.root, "add", "rootlink")
    git(arena.root, "commit", "-qm", "a link to /")
    name = f"pedro-adv-{secrets.token_hex(4)}"
    run = run_case(
        arena,
        [
            call("file", {"action": "write", "path": f"rootlink/tmp/{name}", "content": "pwn\n"}),
            call("file", {"action": "write", "path": f"rootlink/etc/{name}", "content": "pwn\n"}),
            call("code_edit", {"action": "insert", "path": "rootlink/etc/hostname", "line": 1, "content": "pwn\n"}),
            bash(f"echo x > rootlink/etc/{name}"),
            bash(f"echo x > rootlink{arena.sentinel}/keep.txt"),
        ],
    )

    assert not Path(f"/tmp/{name}").exists() and not Path(f"/etc/{name}").exists()
    for index in (3, 4):
        answer = run.answer(index)
        assert "exit code 0" not in answer, answer
        assert any(why in answer for why in ("Read-only file system", "Permission denied", "No such file")), answer
    check_invariants(run, refused=[0, 1, 2])


def test_case_05_final_symlink_and_dangling_link(arena: Arena) -> None:
    (arena.root / "notes.txt").symlink_to(arena.home / ".bashrc")
    out = arena.root.parent / "out"
    (arena.root / "new").symlink_to("../out/new.txt")
    run = run_case(
        arena,
        [
            call("file", {"action": "write", "path": "notes.txt", "content": "pwn\n"}),
            call("code_edit", {"action": "insert", "path": "notes.txt", "line": 1, "content": "pwn\n"}),
            call("file", {"action": "write", "path": "new", "content": "pwn\n"}),
            call("file", {"action": "delete", "path": "notes.txt"}),
        ],
    )

    assert not out.exists()
    assert (arena.root / "new").is_symlink()
    # deleting the link itself would be harmless; following it into the home is what must never happen
    assert (arena.home / ".bashrc").is_file()
    check_invariants(run, refused=[0, 1, 2])


def test_case_12_hostile_file_names(arena: Arena) -> None:
    hostile = ["$(reboot).txt", "-rf", "a\nb.txt", "a\x00b.txt", "x" * 5000, "src/-exec"]
    literal = "a; rm -rf ~"
    replies = [call("file", {"action": "write", "path": literal, "content": "literal\n"})]
    replies += [call("file", {"action": "write", "path": name, "content": "pwn\n"}) for name in hostile]
    run = run_case(arena, replies)

    # the shell-looking name is only a name: written literally, nothing run
    assert (arena.root / literal).read_text() == "literal\n"
    for answer in run.answers():
        assert "failed unexpectedly" not in answer, answer
    names = {p.name for p in arena.root.iterdir()} | {p.name for p in (arena.root / "src").iterdir()}
    assert names.isdisjoint(n for n in hostile if len(n) < 255)
    check_invariants(run, refused=range(1, len(replies)))


def test_case_24_malformed_calls(arena: Arena) -> None:
    (arena.root / "src" / "utils").mkdir()
    (arena.root / "src" / "utils" / "helper.go").write_text("package utils\n")
    unknown = Completion(text="", tool_calls=(ToolCall("shell_exec", {"cmd": "rm -rf ~"}, id="c1"),))
    replies = [
        call("file", '{"action": "read", "path": "README.md"'),
        call("file", {"action": "read"}),
        call("file", {"action": "read", "path": 123, "start_line": "ten"}),
        unknown,
        call("file", {"action": "read", "path": "src/utils/helpers.go"}),
        call("code_edit", {"action": "replace", "path": "src/utils/helpers.go", "old": "a", "new": "b"}),
        call("file", {"action": "read", "path": "README.md", "colour": "blue"}),
    ]
    run = run_case(arena, replies)

    assert "could not run" in run.answer(0) and "the user's uncommitted change" not in run.answer(0)
    assert "path" in run.answer(1) and "It takes" in run.answer(1)
    assert "It takes" in run.answer(2)
    assert "no tool named `shell_exec`, so nothing was run" in run.answer(3)
    assert "src/utils/helper.go" in run.answer(4)
    assert "src/utils/helper.go" in run.answer(5)
    assert not (arena.root / "src" / "utils" / "helpers.go").exists()
    assert "ERROR (" not in run.answer(6) and "the user's uncommitted change" in run.answer(6)
    check_invariants(run, refused=[1, 2, 4, 5])
