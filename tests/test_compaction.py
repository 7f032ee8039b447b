"""Deterministic compaction: blocks of old outputs masked, recent ones kept, full text saved, task state noted."""

from __future__ import annotations

from pathlib import Path

from pedro.effects import Effects
from pedro.loop.compaction import Compactor, TaskState
from pedro.messages import Message, ToolCall, ToolResult

BIG = "line of tool output\n" * 100


def conversation(rounds: int) -> list[Message]:
    history = [Message("system", "system prompt " * 100), Message("user", "Fix add() " * 100)]
    for n in range(rounds):
        history.append(Message("assistant", f"reading part {n}"))
        history.append(Message("user", f"Result of file:\npart {n}\n{BIG}"))
    return history


def saver(folder: Path) -> tuple[Compactor, dict[int, str]]:
    saved: dict[int, str] = {}

    def save(index: int, text: str) -> str:
        saved[index] = text
        path = folder / f"{index}.txt"
        path.write_text(text)
        return path.as_posix()

    return Compactor(save), saved


def test_old_outputs_are_masked_the_last_few_kept_and_the_head_never(tmp_path: Path) -> None:
    history = conversation(6)
    compactor, saved = saver(tmp_path)
    masked = compactor.compact(history, TaskState(goal="Fix add()"))
    view = compactor.view(history)
    assert masked == 3
    assert view[:2] == history[:2]  # the system prompt and the task are never touched
    outputs = [i for i, m in enumerate(history) if i >= 2 and m.role == "user"]
    for index in outputs[:3]:
        assert "masked" in view[index].content and len(view[index].content) < len(history[index].content) / 3
        assert saved[index] == history[index].content
        assert f"{index}.txt" in view[index].content  # the model is told where the full text is
    for index in outputs[3:]:
        assert view[index] == history[index]
    assert [m.role for m in view] == [m.role for m in history]


def test_the_history_itself_is_never_changed_and_views_are_stable(tmp_path: Path) -> None:
    history = conversation(5)
    before = list(history)
    compactor, _ = saver(tmp_path)
    compactor.compact(history, TaskState(goal="g"))
    first = compactor.view(history)
    history.extend([Message("assistant", "next"), Message("user", "Result of bash:\nok")])
    second = compactor.view(history)
    assert history[: len(before)] == before
    # between compactions each request extends the previous one, so the server's cached prefix holds
    assert second[: len(first)] == first


def test_a_second_compaction_leaves_the_first_block_as_it_was(tmp_path: Path) -> None:
    history = conversation(6)
    compactor, _ = saver(tmp_path)
    compactor.compact(history, TaskState(goal="g"))
    first = compactor.view(history)
    history.extend(conversation(10)[2 + 12 :])
    compactor.compact(history, TaskState(goal="g"))
    second = compactor.view(history)
    first_block_end = max(i for i, (a, b) in enumerate(zip(first, history, strict=False)) if a != b)
    assert second[: first_block_end + 1] == first[: first_block_end + 1]
    assert compactor.compactions == 2


def test_the_task_state_note_names_goal_changed_files_and_last_test(tmp_path: Path) -> None:
    state = TaskState(goal="Fix add() in calc.py")
    state.record(ToolCall("file", {"action": "read", "path": "calc.py"}), ToolResult("file", True, "..."), Effects())
    state.record(
        ToolCall("code_edit", {"action": "replace", "path": "calc.py"}),
        ToolResult("code_edit", True, "ok"),
        Effects(writes=("calc.py",)),
    )
    state.record(
        ToolCall("file", {"action": "write", "path": "b.py"}),
        ToolResult("file", False, "denied"),
        Effects(writes=("b.py",)),
    )
    state.record(
        ToolCall("test", {}), ToolResult("test", False, "\n1 failed, 3 passed\n..."), Effects(runs_commands=True)
    )
    history = conversation(5)
    compactor, _ = saver(tmp_path)
    compactor.compact(history, state)
    notes = [m.content for m in compactor.view(history) if "Task state" in m.content]
    assert len(notes) == 1
    assert "Fix add() in calc.py" in notes[0]
    assert "calc.py" in notes[0] and "b.py" not in notes[0]
    assert "failed: 1 failed, 3 passed" in notes[0]


def test_native_tool_results_keep_their_call_ids_and_long_arguments_are_shortened(tmp_path: Path) -> None:
    call = ToolCall("file", {"action": "write", "path": "a.py", "content": "x = 1\n" * 200}, id="call_1")
    history = [
        Message("system", "s"),
        Message("user", "task"),
        Message("assistant", "", tool_calls=(call,)),
        Message("tool", BIG, tool_call_id="call_1", name="file"),
        *conversation(4)[2:],
    ]
    compactor, _ = saver(tmp_path)
    compactor.compact(history, TaskState(goal="g"))
    view = compactor.view(history)
    assert view[3].tool_call_id == "call_1" and view[3].name == "file" and "masked" in view[3].content
    assert view[2].tool_calls[0].id == "call_1"
    assert view[2].tool_calls[0].arguments["path"] == "a.py"
    assert "characters masked" in view[2].tool_calls[0].arguments["content"]


def test_keep_recent_zero_masks_everything_but_the_head(tmp_path: Path) -> None:
    history = conversation(3)
    compactor, _ = saver(tmp_path)
    compactor.compact(history, TaskState(goal="g"), keep_recent=0)
    view = compactor.view(history)
    assert all("masked" in m.content for m in view[2:] if m.role == "user")


def test_nothing_to_mask_is_no_compaction_and_without_a_saver_the_model_is_told_to_rerun() -> None:
    compactor = Compactor()
    assert compactor.compact(conversation(2), TaskState(goal="g")) == 0
    history = conversation(5)
    compactor.compact(history, TaskState(goal="g"))
    assert "Run the tool again" in compactor.view(history)[3].content
