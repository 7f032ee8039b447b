"""Every list of names is declared once: the registries, and the Literal types and choices that must agree with them."""

from __future__ import annotations

from typing import get_args

from pedro.backends import BACKENDS
from pedro.cli.flags import BackendChoice
from pedro.config import BackendKind
from pedro.messages import TOOL_NAMES, RoleName
from pedro.roles import ALL_TOOLS, ROLES
from pedro.tools import TOOL_CLASSES


def test_the_tool_names_are_the_registrys() -> None:
    assert tuple(TOOL_CLASSES) == TOOL_NAMES == ALL_TOOLS
    for role in ROLES.values():
        assert set(role.tools) <= set(TOOL_CLASSES), role.name


def test_the_backend_kinds_are_the_registrys() -> None:
    assert set(get_args(BackendKind)) == set(BACKENDS)
    assert {choice.value for choice in BackendChoice} == set(BACKENDS)


def test_the_role_names_are_the_roles_table() -> None:
    assert set(get_args(RoleName)) == set(ROLES)
    assert all(name == role.name for name, role in ROLES.items())
