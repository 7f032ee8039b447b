"""The fixed prompt of a job (system prompt plus natively sent tools) per role, tool mode and description length."""

from __future__ import annotations

import json
from typing import Any

from pedro.loop.context import build_system_prompt
from pedro.messages import Message
from pedro.roles import ROLES, Role
from pedro.tokens import TokenLedger
from pedro.tools import ToolRegistry

# Tokens of the first request before the task: full tool descriptions, and the short ones of windows under 8192.
BUDGET = {"full": 1500, "short": 700}
MODES = ("native", "text")


def measure(role: Role, *, native: bool, short: bool) -> dict[str, int]:
    """What the first request carries before the task, counted the way the job's context budget counts it."""
    tools = ToolRegistry.default(role.tools).specs(short=short)
    system = build_system_prompt(role, tools, repo_name="project", native=native)
    sent = tools if native else []
    return {
        "tokens": TokenLedger().count([Message("system", system)], sent),
        "system_chars": len(system),
        "tools_chars": len(json.dumps(sent, ensure_ascii=False)) if sent else 0,
    }


def run() -> dict[str, Any]:
    """Every role × mode × length, keyed "role/mode/length"."""
    return {
        f"{name}/{mode}/{length}": measure(role, native=mode == "native", short=length == "short")
        for name, role in sorted(ROLES.items())
        for mode in MODES
        for length in BUDGET
    }


def worst(results: dict[str, Any], mode: str, length: str) -> tuple[str, int]:
    """The role with the largest fixed prompt in one mode and length, and its tokens."""
    rows = {key.split("/")[0]: value["tokens"] for key, value in results.items() if key.endswith(f"/{mode}/{length}")}
    role = max(rows, key=lambda name: rows[name])
    return role, rows[role]


if __name__ == "__main__":
    measured = run()
    print(f"{'role':<9} {'mode':<6} {'length':<6} {'tokens':>6} {'budget':>6} {'system chars':>12} {'tools chars':>11}")
    for key, value in measured.items():
        name, mode, length = key.split("/")
        print(
            f"{name:<9} {mode:<6} {length:<6} {value['tokens']:>6} {BUDGET[length]:>6} "
            f"{value['system_chars']:>12} {value['tools_chars']:>11}"
        )
