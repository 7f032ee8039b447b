"""The tool registry as extraction sees it: names, schemas, name normalisation and argument decoding (§2.4-2.5)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pedro.toolcalls.jsonscan import is_truncated_json, loads_lenient, python_literal
from pedro.toolcalls.model import Candidate, Found, Issue, ProblemKind

_BAD_NAME = re.compile(r"[{}<>\"'\s]")
_INTEGER = re.compile(r"-?\d+")
_MAX_DECODE_ROUNDS = 3


# Whether a path names a text file in the repository: the one question about the files extraction may ask, answered
# by the caller (the agent loop asks its tool context), so that extraction itself does no I/O.
TextFileCheck = Callable[[str], bool]


class Registry:
    """Tool names and parameter schemas taken from OpenAI-style function definitions, garbage skipped, and the
    caller's text-file check (None: no repository, so `file PATH` in a bash block stays a shell command)."""

    def __init__(self, tools: Sequence[Mapping[str, Any]], text_file: TextFileCheck | None = None) -> None:
        self.text_file = text_file
        self.schemas: dict[str, Mapping[str, Any]] = {}
        for tool in tools if isinstance(tools, Sequence) else ():
            if not isinstance(tool, Mapping):
                continue
            spec = tool.get("function", tool)
            if not isinstance(spec, Mapping):
                continue
            name, params = spec.get("name"), spec.get("parameters")
            if isinstance(name, str) and name:
                self.schemas[name] = params if isinstance(params, Mapping) else {}
        self.names: tuple[str, ...] = tuple(self.schemas)
        # lower-cased, hyphen-free spellings, so `Bash` or `code-edit` still reach the right tool
        self._folded = {_fold(name): name for name in self.names}

    def resolve(self, raw: str) -> tuple[str, ProblemKind | None]:
        """The registered spelling of `raw`, or the name and why it cannot be used."""
        name = raw.strip()
        if not name or _BAD_NAME.search(name):
            return name, "invalid_name"
        for option in (name, name.removeprefix("functions."), name.split(":")[0].split(".")[-1]):
            if option in self.schemas:
                return option, None
            folded = self._folded.get(_fold(option))
            if folded is not None:
                return folded, None
        return name, "unknown_tool"

    def property_schema(self, tool: str, parameter: str) -> Mapping[str, Any] | None:
        """The JSON schema of one parameter, or None when the tool or the parameter is not declared."""
        resolved, problem = self.resolve(tool)
        if problem is not None:
            return None
        props = self.schemas[resolved].get("properties")
        if not isinstance(props, Mapping):
            return None
        prop = props.get(parameter)
        return prop if isinstance(prop, Mapping) else None

    def parameter_names(self, tool: str) -> tuple[str, ...]:
        """The declared parameter names of a tool (empty when unknown)."""
        resolved, problem = self.resolve(tool)
        props = self.schemas[resolved].get("properties") if problem is None else None
        return tuple(props) if isinstance(props, Mapping) else ()


def _fold(name: str) -> str:
    return name.lower().replace("-", "_")


def decode_arguments(raw: Any) -> tuple[dict[str, Any] | None, ProblemKind | None, str]:
    """Normalise raw arguments to a JSON object (§2.5): object, JSON string (decoded up to 3 times), empty."""
    value = raw
    for _ in range(_MAX_DECODE_ROUNDS + 1):
        if value is None:
            return {}, None, ""
        if isinstance(value, dict):
            return {str(k): v for k, v in value.items()}, None, ""
        if not isinstance(value, str):
            return None, "invalid_arguments", "arguments_not_object"
        if not value.strip():
            return {}, None, ""
        ok, decoded = loads_lenient(value)
        if not ok:
            if is_truncated_json(value):
                return None, "truncated", "json_cut_off"
            if value.strip()[:1] in ("{", "["):
                return None, "invalid_json", _json_error(value)
            return None, "not_json", "arguments_plain_text"
        if isinstance(decoded, str) and decoded.strip()[:1] not in ("{", "[") and decoded.strip():
            return None, "not_json", "arguments_json_string"
        value = decoded
    return None, "invalid_arguments", "arguments_overencoded"


def _json_error(payload: str) -> str:
    try:
        json.loads(payload)
    except (ValueError, RecursionError) as exc:
        return str(exc)
    return "not a JSON object"


def make_found(name: Any, arguments: Any, dialect: str, raw: str, call_id: Any = None) -> Found:
    """A candidate call from a name and raw arguments, or the issue that stops it."""
    if not isinstance(name, str) or not name.strip():
        return Issue("missing_name", dialect, raw, error="no_name")
    args, problem, error = decode_arguments(arguments)
    if args is None:
        return Issue(problem or "invalid_arguments", dialect, raw, name=name.strip(), error=error)
    return Candidate(name.strip(), args, dialect, raw, call_id if isinstance(call_id, str) and call_id else None)


def _schema_types(schema: Mapping[str, Any]) -> list[str]:
    types: list[str] = []
    declared = schema.get("type")
    if isinstance(declared, str):
        types.append(declared)
    elif isinstance(declared, list):
        types.extend(t for t in declared if isinstance(t, str))
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list):
            for option in options:
                if isinstance(option, Mapping):
                    types.extend(_schema_types(option))
    return types


def _structured(value: str, want: type) -> tuple[bool, Any]:
    try:
        decoded = json.loads(value)
    except (ValueError, RecursionError):
        ok, decoded = python_literal(value)
        if not ok:
            return False, None
    if isinstance(decoded, str):  # vLLM saw a JSON string holding a Python repr
        return _structured(decoded, want) if decoded.strip()[:1] in ("[", "{") else (False, None)
    if want is list and isinstance(decoded, tuple):
        decoded = list(decoded)
    try:
        return isinstance(decoded, want), json.loads(json.dumps(decoded, allow_nan=False))
    except (ValueError, TypeError, RecursionError):
        return False, None


def _finite_number(text: str) -> int | float | None:
    """The number `text` spells (an int when it is whole); None for anything else, infinities and NaN included."""
    try:
        number = float(text)
    except ValueError:
        return None
    if not math.isfinite(number):
        return None
    return int(number) if number.is_integer() else number


def coerce_value(value: str, schema: Mapping[str, Any] | None) -> Any:
    """Type one untyped (XML) value from its schema: null, boolean, integer, number, array, object, else string."""
    if schema is None:
        return value  # parameters not in the schema stay strings
    types = _schema_types(schema)
    text = value.strip()
    lowered = text.lower()
    if lowered in ("null", "none") and ("null" in types or (types and "string" not in types)):
        return None
    if "boolean" in types and lowered in ("true", "false"):
        return lowered == "true"
    if "integer" in types and _INTEGER.fullmatch(text):
        return int(text)
    if "number" in types:
        number = _finite_number(text)
        if number is not None:
            return number
    for kind, want in (("array", list), ("object", dict)):
        if kind in types:
            ok, decoded = _structured(text, want)
            if ok:
                return decoded
    return value
