"""Find and render the templates in prompts/: every word the model reads lives there."""

from __future__ import annotations

import re
import string
from functools import lru_cache
from pathlib import Path
from typing import Any

from pedro.errors import UsageError

_PACKAGE_DIR = Path(__file__).resolve().parent


def prompts_dir() -> Path:
    """The prompts directory: inside the installed package, or at the root of a source checkout."""
    for candidate in (_PACKAGE_DIR / "prompts", _PACKAGE_DIR.parent / "prompts"):
        if (candidate / "system.md").is_file():
            return candidate
    raise UsageError("pedro's prompts/ directory is missing; reinstall pedro (make install)")


@lru_cache(maxsize=128)
def load_prompt(name: str) -> str:
    """The raw text of a template, e.g. load_prompt("roles/builder.md")."""
    path = prompts_dir() / name
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"prompt template {path} cannot be read ({exc}); reinstall pedro (make install)") from exc


_PLACEHOLDER = re.compile(r"\$(?:\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)\}|(?P<named>[A-Za-z_][A-Za-z0-9_]*))")


def render_prompt(name: str, /, **variables: Any) -> str:
    """Render a template with `$name` placeholders; a missing variable is an error, never an empty string."""
    text = load_prompt(name)
    wanted = {m.group("braced") or m.group("named") for m in _PLACEHOLDER.finditer(text.replace("$$", ""))}
    missing = sorted(wanted - variables.keys())
    if missing:
        raise UsageError(f"prompt template {name} needs {', '.join(missing)}; this is a bug in pedro's prompts")
    return string.Template(text).substitute({k: str(v) for k, v in variables.items()}).strip() + "\n"
