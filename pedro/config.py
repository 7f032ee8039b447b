"""PedroConfig and its layers: defaults < user file < repository .pedro.toml < PEDRO_* environment < flags."""

from __future__ import annotations

import difflib
import functools
import ipaddress
import json
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from pedro.errors import ConfigError
from pedro.limits import MAX_ROUNDS, TIME_LIMIT_S
from pedro.messages import RoleName
from pedro.presets import BUILTIN_PROFILES, DEFAULT_PROFILE, SAMPLING_KEYS, match_preset, profile_values
from pedro.tooltable import tool_names

NO_MODEL_GIVEN = (
    "no model given: pass --model NAME for a running server ([backend].model, PEDRO_MODEL; `ollama list` or "
    "/v1/models names them), or --model-file PATH to a .gguf that pedro serves"
)
"""What a job that names no model is told: both ways of naming one."""

BackendKind = Literal["ollama", "openai", "llamacpp"]
ToolMode = Literal["auto", "native", "text"]
ToolUseMode = Literal["enforced", "relaxed", "disabled"]
ToolFailurePolicy = Literal["fatal", "tolerated"]
OutputOverflow = Literal["truncate", "error"]
SafetyMode = Literal["read-only", "workspace-write", "full-access"]
ApprovalSetting = Literal["ask", "never"]

DEFAULT_BASE_URLS: dict[str, str] = {
    "ollama": "http://127.0.0.1:11434",
    "openai": "http://127.0.0.1:8080/v1",
    "llamacpp": "http://127.0.0.1:8080",
}


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


def config_default(section: type[BaseModel], name: str) -> Any:
    """The default a config section declares for `name`: what a runtime object built without a configuration falls
    back to, so that each default is declared once, here."""
    return section.model_fields[name].default


class BackendConfig(_Section):
    """How to reach the model server."""

    kind: BackendKind = "openai"
    """Wire protocol: ollama (native /api/chat), openai (any /v1 server), llamacpp (llama-server)."""
    base_url: str = ""
    """Server URL; empty means the kind's default. For openai it includes /v1; otherwise it is the server root."""
    model: str = ""
    """Model name as the server knows it."""
    api_key_env: str = ""
    """Name of an environment variable holding a bearer token for the server, if it needs one."""
    tool_mode: ToolMode = "auto"
    """auto: send native tools and also read calls from text; native: tools only; text: fenced convention only."""
    tool_choice: Literal["auto", "required", "none", ""] = ""
    """tool_choice sent with native tools (openai, llamacpp); empty leaves the server's default."""
    parallel_tool_calls: Literal["true", "false", ""] = ""
    """Allow several native tool calls in one reply (openai, llamacpp); empty leaves the server's default."""
    constrain_calls: bool = False
    """llamacpp only: a grammar limits each reply to tool-call fences or TASK COMPLETE (makes tiny models usable)."""
    stream: bool = True
    """Stream replies (SSE or NDJSON) so text shows as it arrives."""
    temperature: float = Field(default=0.2, ge=0.0, le=2.0)
    """Sampling temperature."""
    top_p: float | None = Field(default=None, ge=0.0, le=1.0)
    """Nucleus sampling; None sends nothing (the server's default)."""
    top_k: int | None = Field(default=None, ge=0)
    """Sample among the k likeliest tokens; None sends nothing. Ollama and llama-server only."""
    min_p: float | None = Field(default=None, ge=0.0, le=1.0)
    """Drop tokens less likely than min_p times the likeliest; None sends nothing. Ollama and llama-server only."""
    repeat_penalty: float | None = Field(default=None, ge=0.0, le=2.0)
    """Penalty on repeated tokens (1.0 is none); None sends nothing. Ollama and llama-server only."""
    max_tokens: int = Field(default=2048, ge=1)
    """Most tokens the model may generate in one reply."""
    context_window: int = Field(default=0, ge=0)
    """Context window in tokens; 0 asks the server (Ollama: the model's length within free memory, remote 8192)."""
    connect_timeout: float = Field(default=5.0, gt=0)
    """Seconds to wait for a connection to the server."""
    read_timeout: float = Field(default=600.0, gt=0)
    """Seconds to wait for the server between bytes; local inference can be slow."""
    request_timeout: float = Field(default=1800.0, gt=0)
    """Most seconds one request may take in all, streaming included; keep-alive bytes do not extend it."""
    reply_time_limit_s: float = Field(default=120.0, ge=0)
    """Most seconds one reply may stream from its first token; then it is cut, a failed reply. 0: no limit."""
    max_retries: int = Field(default=3, ge=0, le=10)
    """Retries on connection errors, 429 and 5xx, with exponential backoff."""
    load_timeout: float = Field(default=300.0, ge=0)
    """Most seconds to wait for a server that answers 503 while it loads its model (apart from max_retries)."""
    keep_alive: str = "30m"
    """Ollama keep_alive: how long the server keeps the model loaded after a request."""
    model_file: str = ""
    """Path to a .gguf file: pedro starts and stops llama-server itself with this model."""

    @field_validator("base_url")
    @classmethod
    def _usable_url(cls, value: str, info: ValidationInfo) -> str:
        """The two URL mistakes a server's 404 or a refused connection would only hint at, named with their fix."""
        problem = base_url_problem(info.data.get("kind", "openai"), value)
        if problem:
            raise ValueError(problem)
        return value

    def sampling(self) -> dict[str, float]:
        """The sampling keys that are set, temperature included: what requests carry where the wire takes them."""
        values = {key: getattr(self, key) for key in SAMPLING_KEYS}
        return {key: value for key, value in values.items() if value is not None}


class AgentConfig(_Section):
    """Limits of the agent loop."""

    max_rounds: int = Field(default=MAX_ROUNDS, ge=1)
    """Most model requests in one job before it stops with limit_reached (exit 4)."""
    max_idle_replies: int = Field(default=3, ge=1)
    """Replies in a row with neither a tool call nor the completion marker before no_progress (exit 4)."""
    max_repeats: int = Field(default=3, ge=1)
    """Identical tool-call replies in a row tolerated before the loop guard ends the job (exit 4)."""
    test_command: str = ""
    """The project's test command; empty means the detected runner. Builder and debugger complete when no test that
    passed when the job began fails (and, for the debugger, one that failed passes)."""
    time_limit_s: float = Field(default=TIME_LIMIT_S, ge=0)
    """Wall-clock seconds one job may take, repair and tests included, before it stops with limit_reached (exit 4);
    0 for no limit."""
    """The project's test command; empty means the detected runner. Builder and debugger complete when it passes."""
    commit: bool = True
    """A completed builder or debugger job commits the files it changed on its branch pedro/<job>; false leaves
    them uncommitted (--no-commit)."""
    instructions_max_chars: int = Field(default=4000, ge=0)
    """Most characters of the project's AGENTS.md, CLAUDE.md, CONVENTIONS.md and .github/copilot-instructions.md
    that reach the model, nearest to the working directory first; 0 leaves them out."""


class RepairConfig(_Section):
    """Test-driven repair: before the loop, pedro runs the tests and asks the model for one function at a time."""

    enabled: bool = True
    """The debugger starts with repair when a test command is known and tests fail; the builder uses it to finish
    tests its change broke or added, when it claims completion."""
    candidates: int = Field(default=64, ge=0, le=256)
    """New answers asked for per function at most: the first greedy, then samples while the time budget lasts (a
    repeated answer does not count); 0 asks the model nothing (variants only)."""
    temperature: float = Field(default=0.8, ge=0.0, le=2.0)
    """Sampling temperature of the second answer; each later one is 0.1 hotter, back to this one after six."""
    max_tokens: int = Field(default=512, ge=16)
    """Most tokens of one answer (one function)."""
    max_functions: int = Field(default=4, ge=1, le=10)
    """Functions tried, taking turns: the ones the failures point at first, then the functions they call."""
    coverage: bool = True
    """Rank lines by the tests' line coverage (one or two extra test runs per repair) before asking, else by the
    traceback alone."""
    time_budget_s: float = Field(default=120.0, gt=0)
    """Seconds one repair may take, its test runs and the model's answers together: nothing new is tried once they
    are spent."""
    # When several candidates pass, the one whose outputs on inputs beyond the tests' own agree with the most others
    # is kept (pytest projects).
    rivals: int = Field(default=3, ge=0, le=8)
    """More plausible candidates looked for after the first, for `explore_s` at most; 0 keeps the first."""
    explore_s: float = Field(default=2.5, ge=0)
    """Seconds repair goes on looking for rivals once a candidate made the failing tests pass without breaking any."""
    # Variants: the names in scope an undefined name was meant to be, one-token slips of the ranked lines (`>` for
    # `>=`, a number off by one), ranked by the failure's evidence and tried while the model writes.
    mutants: int = Field(default=200, ge=0, le=1000)
    """Variants tested at most; 0 tries none."""


BuildStrategy = Literal["auto", "direct", "loop"]


class BuildConfig(_Section):
    """How `pedro build` works: code written directly and checked (small models), or the tool loop."""

    strategy: BuildStrategy = "auto"
    # direct: pedro asks the model for the code itself and keeps an answer only once it is checked; loop: the model
    # drives the tools; auto: direct for models under a billion parameters (as the server or the name says).
    answers: int = Field(default=24, ge=1, le=64)
    """Answers asked for at most: the first greedy, the rest sampled; identical answers are checked once."""
    rivals: int = Field(default=2, ge=0, le=8)
    """More answers asked for once one passed every check, so the kept one is the one most others agree with."""
    temperature: float = Field(default=0.8, ge=0.0, le=2.0)
    """Sampling temperature of the second answer; each later one is 0.1 hotter, back to this one after six."""
    max_tokens: int = Field(default=400, ge=16)
    """Most tokens of one answer (one function)."""
    time_budget_s: float = Field(default=120.0, gt=0)
    """Seconds the direct way may take, answers and checks together."""
    with_test: bool = False
    """The direct way also asks for a test of the new code, kept only when it fails without the change (--with-test)."""


class ToolsConfig(_Section):
    """Limits of the tools."""

    bash_timeout: float = Field(default=120.0, gt=0)
    """Default seconds before a bash command's whole process group is ended."""
    test_timeout: float = Field(default=300.0, gt=0)
    """Seconds before a test run is ended."""
    read_max_lines: int = Field(default=400, ge=10)
    """Lines a file read shows at once; larger files are paged."""
    search_max_results: int = Field(default=100, ge=1)
    """Rows a search returns before it reports how many were cut."""


class ToolCallingConfig(_Section):
    """How tool calls are offered, limited, checked and finished; what else each request carries."""

    tool_use_mode: ToolUseMode = "relaxed"
    """relaxed: tools offered, a run may end without calls; enforced: a run without a successful call fails;
    disabled: no tools sent or described, calls in the text are not run, the reply is the result."""
    tool_failure_policy: ToolFailurePolicy = "tolerated"
    """Enforced runs only. fatal: any failed call fails the run; tolerated: at least one call must succeed."""
    max_tool_args_bytes: int = Field(default=1_048_576, ge=1024)
    """Largest JSON arguments of one call; a larger call is refused with ARGUMENTS_TOO_LARGE before it runs."""
    max_tool_output_bytes: int = Field(default=16384, ge=1024)
    """Most bytes of one tool result the model sees; what happens past it is tool_output_overflow."""
    tool_output_overflow: OutputOverflow = "truncate"
    """truncate: keep the head and tail of a longer output; error: replace it with TOOL_OUTPUT_TOO_LARGE."""
    max_tool_calls_per_turn: int = Field(default=0, ge=0)
    """Calls of one reply that run, the rest ignored and the model told; 0: all (1 when parallel_tool_calls is
    "false")."""
    fix_empty_final: bool = True
    """An empty reply after tool calls gets one finalisation request (prompts/feedback/finalise.md)."""
    fix_empty_final_with_tools: bool = False
    """Send the tools with that finalisation request too."""
    request_overrides: dict[str, Any] = Field(default_factory=dict)
    """Keys merged into every request body; model, messages, tools, tool_choice, response_format and stream are
    pedro's own and ignored with a notice."""
    sampling_profile: str = DEFAULT_PROFILE
    """A built-in profile (default, precise, creative, qwen_recommended, gemma_recommended, smollm_recommended) or
    one of [sampling_profiles.NAME]."""
    allow_tools: list[str] = Field(default_factory=list)
    """Only these tools are offered and may run; empty: every tool of the role."""
    deny_tools: list[str] = Field(default_factory=list)
    """These tools are neither offered nor run (TOOL_NOT_ALLOWED)."""

    @field_validator("allow_tools", "deny_tools", mode="before")
    @classmethod
    def _split_names(cls, value: Any) -> Any:
        """An environment variable gives a list as comma-separated names."""
        if isinstance(value, str):
            return [name.strip() for name in value.split(",") if name.strip()]
        return value

    @field_validator("allow_tools", "deny_tools")
    @classmethod
    def _known_tools(cls, names: list[str]) -> list[str]:
        """Only names of pedro's tools (the table in pedro.tooltable)."""
        unknown = [name for name in names if name not in tool_names()]
        if unknown:
            raise ValueError(
                f"no tool is named {', '.join(map(repr, unknown))}; the tools are {', '.join(tool_names())}"
            )
        return names

    @field_validator("request_overrides", mode="before")
    @classmethod
    def _parse_json(cls, value: Any) -> Any:
        """An environment variable gives the table as a JSON object."""
        if isinstance(value, str):
            try:
                return json.loads(value)
            except json.JSONDecodeError as exc:
                raise ValueError(f"not a JSON object ({exc})") from exc
        return value


class SamplingProfileConfig(_Section):
    """A named set of sampling values, [sampling_profiles.NAME]; a key left out is not changed."""

    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    top_p: float | None = Field(default=None, ge=0.0, le=1.0)
    top_k: int | None = Field(default=None, ge=0)
    min_p: float | None = Field(default=None, ge=0.0, le=1.0)
    repeat_penalty: float | None = Field(default=None, ge=0.0, le=2.0)


class ModelPresetConfig(_Section):
    """Settings for the models whose name matches a pattern, [models."PATTERN"]; a key left out is not changed."""

    sampling_profile: str | None = None
    """The sampling profile for these models."""
    tool_mode: ToolMode | None = None
    """auto, native or text, as [backend].tool_mode."""
    constrain_calls: bool | None = None
    """As [backend].constrain_calls."""


class SafetyConfig(_Section):
    """What the model may do; a repository file may only tighten it."""

    mode: SafetyMode = "workspace-write"
    """read-only, workspace-write or full-access (full-access only from the --full-access flag)."""
    approval: ApprovalSetting = "ask"
    """ask: prompt at the terminal; never: refuse whatever would ask. --no-input, CI=true or no TTY mean never."""
    read_roots: list[str] = Field(default_factory=list)
    """Extra directories the tools may read (never write) outside the repository; user config file or flags only."""
    allow_outside_git: bool = False
    """Run in a directory that is not a git repository."""


class ServeConfig(_Section):
    """What `pedro serve` accepts and keeps; its requests to the model server end at [backend].request_timeout."""

    max_request_bytes: int = Field(default=32 * 1024 * 1024, ge=1024)
    """Largest request body read; a larger one is refused with 413 and never forwarded."""
    store_bytes: int = Field(default=64 * 1024 * 1024, ge=0)
    """Most bytes the stored responses (previous_response_id) may take; the oldest go first."""


MCP_NAME = re.compile(r"[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*")
"""A server's name under [mcp.servers]: it prefixes its tools as NAME__tool, so it holds no double underscore."""


class McpServerConfig(_Section):
    """One MCP server whose tools join the agent's, [mcp.servers.NAME]: a command pedro starts, or a URL."""

    command: str = ""
    """The program that serves MCP on its stdin and stdout (stdio)."""
    args: list[str] = Field(default_factory=list)
    """Its arguments."""
    env: dict[str, str] = Field(default_factory=dict)
    """Variables set for it, on top of a minimal environment (PATH, HOME, ...): pedro's own secrets stay out."""
    url: str = ""
    """A Streamable HTTP endpoint instead of a command (http://host:port/mcp)."""
    headers_env: dict[str, str] = Field(default_factory=dict)
    """Headers sent to the URL, each value read from the environment variable named here (Authorization = "VAR")."""
    read_only: bool = False
    """You vouch that its tools change nothing: they run without approval. Otherwise every call is in doubt and
    asks (refused where nobody can answer)."""
    timeout_s: float = Field(default=120.0, gt=0)
    """Most seconds one call may take."""

    @model_validator(mode="after")
    def _one_transport(self) -> McpServerConfig:
        if bool(self.command) == bool(self.url):
            raise ValueError("give either command (a program serving MCP on stdio) or url (Streamable HTTP), not both")
        if self.url and not self.url.startswith(("http://", "https://")):
            raise ValueError(f"url {self.url!r} is not an http(s) URL: start it with http:// or https://")
        return self


class McpConfig(_Section):
    """pedro as an MCP client: the servers whose tools the agent may call (your user config file only)."""

    servers: dict[str, McpServerConfig] = Field(default_factory=dict)
    """[mcp.servers.NAME]: their tools reach the model as NAME__tool."""
    roles: dict[RoleName, list[str]] = Field(default_factory=dict)
    """Which MCP tools a role gets, by name or glob (docs__*); a role not listed gets every one."""
    startup_timeout_s: float = Field(default=30.0, gt=0)
    """Most seconds a server may take to start and list its tools; then it is left out with a notice."""
    prompt_tokens: int = Field(default=1500, ge=0)
    """Most tokens the MCP tools' descriptions may add to every request; tools past it are left out, named."""

    @field_validator("servers")
    @classmethod
    def _names(cls, value: dict[str, McpServerConfig]) -> dict[str, McpServerConfig]:
        for name in value:
            if not MCP_NAME.fullmatch(name):
                raise ValueError(
                    f"[mcp.servers.{name}]: a server's name is letters, digits, - and single _ (it prefixes its "
                    "tools as NAME__tool); rename the table"
                )
        return value


class PedroConfig(_Section):
    """Every setting pedro reads."""

    backend: BackendConfig = Field(default_factory=BackendConfig)
    agent: AgentConfig = Field(default_factory=AgentConfig)
    tools: ToolsConfig = Field(default_factory=ToolsConfig)
    safety: SafetyConfig = Field(default_factory=SafetyConfig)
    repair: RepairConfig = Field(default_factory=RepairConfig)
    build: BuildConfig = Field(default_factory=BuildConfig)
    tool_calling: ToolCallingConfig = Field(default_factory=ToolCallingConfig)
    serve: ServeConfig = Field(default_factory=ServeConfig)
    mcp: McpConfig = Field(default_factory=McpConfig)
    sampling_profiles: dict[str, SamplingProfileConfig] = Field(default_factory=dict)
    """User-defined sampling profiles by name; one named like a built-in replaces it."""
    models: dict[str, ModelPresetConfig] = Field(default_factory=dict)
    """Presets by model name pattern (fnmatch glob on [backend].model; the exact name beats a glob)."""

    @model_validator(mode="after")
    def _known_profiles(self) -> PedroConfig:
        """Every profile named anywhere exists, so a typo stops the run before a request goes out."""
        known = sorted({*BUILTIN_PROFILES, *self.sampling_profiles})
        named: list[tuple[str, str | None]] = [("tool_calling.sampling_profile", self.tool_calling.sampling_profile)]
        named += [(f'models."{pattern}".sampling_profile', p.sampling_profile) for pattern, p in self.models.items()]
        for key, name in named:
            if name is not None and name not in known:
                raise ValueError(
                    f"{key} = {name!r} is not a sampling profile; choose one of {', '.join(known)} "
                    f"or define [sampling_profiles.{name}]"
                )
        return self

    def resolved_base_url(self) -> str:
        """The server URL to use: the configured one, OPENAI_BASE_URL for openai, OLLAMA_HOST for ollama, or the
        kind's default."""
        if self.backend.base_url:
            return self.backend.base_url.rstrip("/")
        if self.backend.kind == "openai" and os.environ.get("OPENAI_BASE_URL", "").strip():
            given = os.environ["OPENAI_BASE_URL"].strip()
            problem = base_url_problem("openai", given)
            if problem:
                raise ConfigError(f"OPENAI_BASE_URL: {problem}")
            return given.rstrip("/")
        if self.backend.kind == "ollama":
            return ollama_host_url(os.environ.get("OLLAMA_HOST"))
        return DEFAULT_BASE_URLS[self.backend.kind]


def base_url_problem(kind: str, url: str) -> str:
    """What is wrong with `url` as the server URL of `kind`, with the fix; "" when nothing is."""
    text = url.strip()
    if not text:
        return ""
    scheme, sep, rest = text.partition("://")
    if not sep or scheme.lower() not in _SCHEME_PORTS:
        meant = _misspelt_scheme(text)
        if meant:
            return f"{text} has a mistyped scheme: use {meant}"
    if not sep:
        return f"{text} has no scheme: add http:// (http://{text})"
    if scheme.lower() not in _SCHEME_PORTS:
        return f"{text} is not an http(s) URL: start it with http:// or https://"
    path = "/" + rest.partition("/")[2].rstrip("/")
    for suffix in ("/v1", "/api") if kind == "ollama" else ("/v1",) if kind == "llamacpp" else ():
        if path.endswith(suffix):
            root = text.rstrip("/").removesuffix(suffix)
            name = "Ollama's own API" if kind == "ollama" else "llama-server's own endpoints"
            return (
                f"{text} ends in {suffix}, but the {kind} backend speaks {name} at the server root: drop {suffix} "
                f"({root}), or choose --backend openai for the server's OpenAI-compatible /v1"
            )
    return ""


def _misspelt_scheme(text: str) -> str:
    """The http(s) URL meant by `text` when its scheme is misspelt or short of slashes (htp:host:8080, http:/host,
    htps://host); "" when it is not (host:8080 is a host and a port)."""
    match = _SCHEME_LIKE.fullmatch(text.strip())
    if match is None:
        return ""
    word, slashes, rest = match.groups()
    if (word.lower() in _SCHEME_PORTS and slashes == "//") or (not slashes and rest[:1].isdigit()):
        return ""
    close = difflib.get_close_matches(word.lower(), list(_SCHEME_PORTS), n=1, cutoff=0.6)
    return f"{close[0]}://{rest}" if close and rest else ""


OLLAMA_DEFAULT_PORT = "11434"
_SCHEME_PORTS = {"http": "80", "https": "443"}
_SCHEME_LIKE = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(/*)(.*)")
_PORT = re.compile(r"[+-]?[0-9]+")


def ollama_host_url(value: str | None) -> str:
    """The URL Ollama's own client connects to for this OLLAMA_HOST (its envconfig.Host and ConnectableHost).

    Quotes and spaces around the value are dropped; the scheme is optional (http); a missing host is 127.0.0.1 and a
    missing or invalid port 11434 (80 or 443 after an explicit http:// or https://); a path is kept (a proxy's
    prefix); 0.0.0.0 and :: are addresses to listen on, so the client connects to 127.0.0.1 and ::1 instead.
    """
    text = (value or "").strip().strip("\"'").strip()
    problem = ollama_host_problem(text)
    if problem:
        raise ConfigError(problem)
    return _ollama_address(text)


def _ollama_address(text: str) -> str:
    """ollama_host_url's reading of a value with no mistake in it."""
    scheme, sep, hostport = text.partition("://")
    default_port = OLLAMA_DEFAULT_PORT
    if not sep:
        scheme, hostport = "http", text
        if text == "ollama.com":
            scheme, hostport = "https", "ollama.com:443"
    else:
        default_port = _SCHEME_PORTS.get(scheme, default_port)
    hostport, _, path = hostport.partition("/")
    split = _split_host_port(hostport)
    if split is None:
        host, port = "127.0.0.1", default_port
        address = _ip(hostport.strip("[]"))
        if address is not None:
            host = str(address)
        elif hostport:
            host = hostport
    else:
        host, port = split
    if not _PORT.fullmatch(port) or not 0 <= int(port) <= 65535:
        port = default_port
    address = _ip(host)
    if not host or (address is not None and address.is_unspecified):
        # An address to listen on, not to connect to; Go dials the local system for an empty host.
        host = "::1" if address is not None and address.version == 6 else "127.0.0.1"
    netloc = f"[{host}]:{int(port)}" if ":" in host else f"{host}:{int(port)}"
    return f"{scheme}://{netloc}" + (f"/{path.rstrip('/')}" if path.rstrip("/") else "")


def ollama_host_problem(value: str) -> str:
    """What is wrong with OLLAMA_HOST's `value` as an address to connect to, with the fix; "" when nothing is."""
    meant = _misspelt_scheme(value)
    if meant:
        return f"OLLAMA_HOST={value} has a mistyped scheme: set it to {meant}"
    scheme, sep, _ = value.partition("://")
    if sep and scheme.lower() not in _SCHEME_PORTS:
        return f"OLLAMA_HOST={value} is not an http(s) address: set it to host:port or http://host:port"
    return ""


def _split_host_port(hostport: str) -> tuple[str, str] | None:
    """(host, port) as Go's net.SplitHostPort splits them; None where it reports an error (no port, bare IPv6)."""
    if hostport.startswith("["):
        end = hostport.find("]")
        if end < 0 or hostport[end + 1 : end + 2] != ":":
            return None
        host, port = hostport[1:end], hostport[end + 2 :]
        return None if "[" in port or "]" in port or ":" in port else (host, port)
    host, colon, port = hostport.rpartition(":")
    if not colon or ":" in host or "[" in host or "]" in host:
        return None
    return host, port


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


_SAFETY_ORDER: dict[str, int] = {"read-only": 0, "workspace-write": 1, "full-access": 2}

# Short environment names for the settings people change most; every field is also PEDRO_<SECTION>__<KEY>.
_ENV_SHORTCUTS: dict[str, tuple[str, str]] = {
    "PEDRO_BACKEND": ("backend", "kind"),
    "PEDRO_BASE_URL": ("backend", "base_url"),
    "PEDRO_MODEL": ("backend", "model"),
    "PEDRO_MAX_ROUNDS": ("agent", "max_rounds"),
    "PEDRO_TOOL_MODE": ("backend", "tool_mode"),
    "PEDRO_MODEL_FILE": ("backend", "model_file"),
}


def user_config_path() -> Path:
    """The user's config file in the platform's config directory."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("pedro")) / "config.toml"


def load_config(
    repo: Path | None,
    *,
    flags: Mapping[str, Mapping[str, Any]] | None = None,
    env: Mapping[str, str] | None = None,
    user_file: Path | None = None,
) -> PedroConfig:
    """Merge every layer in order and validate each one, naming the layer that is wrong."""
    return merge_layers(config_layers(repo, flags=flags, env=env, user_file=user_file))


def merge_layers(layers: list[tuple[str, dict[str, Any]]]) -> PedroConfig:
    """The configuration `config_layers` describe, each layer validated in turn so an error names its source."""
    merged: dict[str, Any] = PedroConfig().model_dump()
    for source, layer in layers:
        if not layer:
            continue
        _validate_layer(merged, layer, source)
        merged = deep_merge(merged, layer)
    return PedroConfig.model_validate(merged)


def config_layers(
    repo: Path | None,
    *,
    flags: Mapping[str, Mapping[str, Any]] | None = None,
    env: Mapping[str, str] | None = None,
    user_file: Path | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    """Each layer that may set keys, lowest first, as (where it comes from, its keys); refusals raised here."""
    env = os.environ if env is None else env
    user_file = user_config_path() if user_file is None else user_file
    layers: list[tuple[str, dict[str, Any]]] = []
    if user_file.is_file():
        layers.append((str(user_file), _read_toml(user_file)))
    repo_file = repo / ".pedro.toml" if repo is not None else None
    user_safety = _safety_section(layers[0][1]) if layers else {}
    if layers:
        _refuse_full_access(layers[0][1], str(user_file))
    if repo_file is not None and repo_file.is_file():
        repo_layer = _read_toml(repo_file)
        _refuse_loosening(repo_layer, str(repo_file))
        _refuse_user_only(repo_layer, str(repo_file), user_file, _USER_ONLY)
        layers.append((str(repo_file), _only_tightening(repo_layer, user_safety)))
    env_layer = _env_layer(env)
    _refuse_full_access(env_layer, "the environment (PEDRO_SAFETY__MODE)")
    _refuse_user_only(env_layer, "the environment (PEDRO_*)", user_file, _NEVER_FROM_ENV)
    upper = [
        ("the environment (PEDRO_*)", env_layer),
        ("the command-line flags", {k: dict(v) for k, v in (flags or {}).items() if v}),
    ]
    return [*layers, *_chosen_layers(layers, upper), *upper]


def _chosen_layers(
    files: list[tuple[str, dict[str, Any]]], upper: list[tuple[str, dict[str, Any]]]
) -> list[tuple[str, dict[str, Any]]]:
    """The layers the model's preset and the chosen sampling profile add between the files and the environment:
    files < profile < preset < PEDRO_* < flags, so whatever the environment or a flag says explicitly wins."""
    merged: dict[str, Any] = {}
    for _, layer in [*files, *upper]:
        merged = deep_merge(merged, layer)
    chosen: list[tuple[str, dict[str, Any]]] = []
    preset = _preset_layer(files, merged)
    if preset is not None:
        chosen.append(preset)
    profile_merged: dict[str, Any] = {}
    for _, layer in [*files, *chosen, *upper]:
        profile_merged = deep_merge(profile_merged, layer)
    name = _table(profile_merged, "tool_calling").get("sampling_profile", DEFAULT_PROFILE)
    profiles = _table(merged, "sampling_profiles")
    if isinstance(name, str) and (name in BUILTIN_PROFILES or isinstance(profiles.get(name), Mapping)):
        values = profile_values(name, profiles)
        if values:
            chosen.insert(0, (f'the sampling profile "{name}"', {"backend": dict(values)}))
    return chosen


def _preset_layer(
    files: list[tuple[str, dict[str, Any]]], merged: Mapping[str, Any]
) -> tuple[str, dict[str, Any]] | None:
    """The [models."PATTERN"] table that matches the model, as a layer naming its pattern and file."""
    presets = _table(merged, "models")
    pattern = match_preset(presets, preset_model_name(_table(merged, "backend")))
    if pattern is None or not isinstance(presets[pattern], Mapping):
        return None
    preset = presets[pattern]
    where = next((source for source, layer in reversed(files) if pattern in _table(layer, "models")), "?")
    layer: dict[str, dict[str, Any]] = {}
    for section, key in _PRESET_KEYS:
        if preset.get(key) is not None:
            layer.setdefault(section, {})[key] = preset[key]
    return f'the preset [models."{pattern}"] in {where}', layer


# What a [models."PATTERN"] key sets.
_PRESET_KEYS: tuple[tuple[str, str], ...] = (
    ("tool_calling", "sampling_profile"),
    ("backend", "tool_mode"),
    ("backend", "constrain_calls"),
)


def preset_model_name(backend: Mapping[str, Any]) -> str:
    """The name presets are matched against: [backend].model, else the stem of [backend].model_file (the name
    pedro gives a model it serves itself)."""
    model, model_file = backend.get("model"), backend.get("model_file")
    if isinstance(model, str) and model:
        return model
    return Path(model_file).stem if isinstance(model_file, str) and model_file else ""


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    return value if isinstance(value, Mapping) else {}


def key_sources(layers: list[tuple[str, dict[str, Any]]]) -> dict[tuple[str, str], str]:
    """(section, key) → the layer that set it last; keys no layer sets are not listed (their default holds)."""
    sources: dict[tuple[str, str], str] = {}
    for source, layer in layers:
        for section, keys in layer.items():
            if isinstance(keys, Mapping):
                for key in keys:
                    sources[(section, key)] = source
    return sources


# The keys that choose a server: with none of them set anywhere (nor OPENAI_BASE_URL), pedro looks for one.
_SERVER_KEYS = (("backend", "kind"), ("backend", "base_url"), ("backend", "model_file"))


def server_configured(layers: list[tuple[str, dict[str, Any]]], env: Mapping[str, str] | None = None) -> bool:
    """Whether a flag, the environment or a config file says which server to use."""
    env = os.environ if env is None else env
    sources = key_sources(layers)
    return any(key in sources for key in _SERVER_KEYS) or bool(env.get("OPENAI_BASE_URL", "").strip())


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML ({exc}); fix the file or remove it") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path} ({exc}); check its permissions and encoding") from exc


def _refuse_loosening(layer: dict[str, Any], source: str) -> None:
    """A repository file can tighten the safety mode but never loosen it past the default."""
    mode = layer.get("safety", {}).get("mode") if isinstance(layer.get("safety"), dict) else None
    default = SafetyConfig().mode
    if isinstance(mode, str) and _SAFETY_ORDER.get(mode, 0) > _SAFETY_ORDER[default]:
        raise ConfigError(
            f"{source}: safety.mode = {mode!r} would loosen the policy, and a repository file may only tighten it; "
            "pass --full-access on the command line instead"
        )


def _safety_section(layer: Mapping[str, Any]) -> Mapping[str, Any]:
    section = layer.get("safety")
    return section if isinstance(section, Mapping) else {}


def _only_tightening(layer: dict[str, Any], user_safety: Mapping[str, Any]) -> dict[str, Any]:
    """Drop the repository's safety keys that would undo a stricter choice in the user's file."""
    section = layer.get("safety")
    if not isinstance(section, dict):
        return layer
    kept = dict(section)
    mode, user_mode = kept.get("mode"), user_safety.get("mode")
    if (
        isinstance(mode, str)
        and isinstance(user_mode, str)
        and _SAFETY_ORDER.get(mode, 0) > _SAFETY_ORDER.get(user_mode, 2)
    ):
        del kept["mode"]
    if kept.get("approval") == "ask":
        del kept["approval"]  # ask is the default; only "never" tightens
    return {**layer, "safety": kept}


def _refuse_full_access(layer: Mapping[str, Any], source: str) -> None:
    """full-access is an explicit choice for one run: no file or environment variable may make it the default."""
    if _safety_section(layer).get("mode") == "full-access":
        raise ConfigError(
            f"{source}: safety.mode = 'full-access' cannot be set in a file or the environment; "
            "remove it there and pass --full-access on the command line for the run that needs it"
        )


_MCP_KEYS = (("mcp", "servers"), ("mcp", "roles"))

# Keys only the user may set, never a repository's .pedro.toml: where your code and credentials are sent
# (kind picks the default URL), what runs on your machine, what may be read outside the repository, and what
# the request carries beyond pedro's typed settings: any body key (a grammar, a JSON schema, max_tokens = 1) or
# a grammar that holds every reply to a form, with which a cloned repository could dictate the model's calls.
# (section, key) -> the other ways to set it besides the user config file.
_USER_ONLY: dict[tuple[str, str], str] = {
    ("backend", "kind"): "--backend or PEDRO_BACKEND",
    ("backend", "base_url"): "--base-url or PEDRO_BASE_URL",
    ("backend", "api_key_env"): "PEDRO_BACKEND__API_KEY_ENV",
    ("backend", "model_file"): "--model-file or PEDRO_MODEL_FILE",
    ("backend", "constrain_calls"): "PEDRO_BACKEND__CONSTRAIN_CALLS",
    ("tool_calling", "request_overrides"): "PEDRO_TOOL_CALLING__REQUEST_OVERRIDES",
    ("safety", "read_roots"): "--read-root on the command line",
    # Which programs pedro starts, which servers it sends the model's calls to, and which tools each role gets.
    ("mcp", "servers"): "",
    ("mcp", "roles"): "",
}
# An inherited environment variable must not widen what the tools may read, nor start programs, either.
_NEVER_FROM_ENV = {key: how for key, how in _USER_ONLY.items() if key in (("safety", "read_roots"), *_MCP_KEYS)}


def _refuse_user_only(
    layer: Mapping[str, Any], source: str, user_file: Path, keys: Mapping[tuple[str, str], str]
) -> None:
    """Where code and secrets go, and what is read outside the repository, is the user's decision alone."""
    for (section, key), elsewhere in keys.items():
        values = layer.get(section)
        if isinstance(values, Mapping) and key in values:
            also = f" or with {elsewhere}" if elsewhere else ""
            raise ConfigError(
                f"{source}: {section}.{key} may only be set in your user config file ({user_file}){also}; "
                "remove it there"
            )
    # A model preset sets [backend] keys too: the user-only ones among them are the user's alone there as well.
    for pattern, preset in _table(layer, "models").items():
        for section, key in _PRESET_KEYS:
            if (section, key) in keys and isinstance(preset, Mapping) and key in preset:
                raise ConfigError(
                    f'{source}: models."{pattern}".{key} may only be set in your user config file ({user_file}) '
                    f"or with {keys[(section, key)]}; remove it there"
                )


def _env_layer(env: Mapping[str, str]) -> dict[str, Any]:
    """The PEDRO_* variables as a layer, checked before they merge, so an error names the variable that was set."""
    layer: dict[str, dict[str, Any]] = {}
    names: dict[tuple[str, str], str] = {}
    sections = PedroConfig.model_fields
    for name, value in env.items():
        if name in _ENV_SHORTCUTS:
            section, key = _ENV_SHORTCUTS[name]
        elif name.startswith("PEDRO_") and "__" in name:
            section, _, key = name[len("PEDRO_") :].lower().partition("__")
            if section not in sections:
                close = _did_you_mean(section, sections, functools.partial(env_variable, key=key))
                raise ConfigError(
                    f"environment variable {name}: there is no config section [{section}]{close}; "
                    f"valid sections: {', '.join(sections)}"
                )
        else:
            continue
        layer.setdefault(section, {})[key] = value
        names[(section, key)] = name
    _refuse_moved(layer, "the environment (PEDRO_*)")
    for section, values in layer.items():
        # Keys no variable may set are refused next (config_layers), by name, rather than for their type.
        _check_variables(section, {k: v for k, v in values.items() if (section, k) not in _NEVER_FROM_ENV}, names)
    return layer


def env_variable(section: str, key: str) -> str:
    """The PEDRO_<SECTION>__<KEY> variable that sets a key."""
    return f"PEDRO_{section.upper()}__{key.upper()}"


def _check_variables(section: str, values: Mapping[str, str], names: Mapping[tuple[str, str], str]) -> None:
    """The variables of one section against its model: an unknown key or a bad value, named as the user spelled
    the variable (PEDRO_MAX_ROUNDS, not agent.max_rounds)."""
    model = PedroConfig.model_fields[section].annotation
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        return  # a table by name ([models], [sampling_profiles]): checked with the merged configuration
    for key in values:
        if key not in model.model_fields:
            close = _did_you_mean(key, model.model_fields, functools.partial(env_variable, section))
            raise ConfigError(
                f"invalid configuration in the environment: {names[(section, key)]}: [{section}] has no key "
                f"'{key}'{close}. `pedro config --example` lists every key and its type."
            )
    try:
        model.model_validate(values)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            key = str(error["loc"][0]) if error["loc"] else ""
            said = str(error["msg"]).removeprefix("Value error, ")
            problems.append(f"{names.get((section, key), section)} ({section}.{key}): {said} (got {values.get(key)!r})")
        raise ConfigError(
            f"invalid configuration in the environment: {'; '.join(problems)}. "
            "`pedro config --example` lists every key and its type."
        ) from exc


def _did_you_mean(word: str, known: Iterable[str], spell: Callable[[str], str] = str) -> str:
    """ " (did you mean X?)" for the known name closest to a misspelt one, or "" when none is close."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {spell(close[0])}?)" if close else ""


def _known_keys(loc: tuple[str | int, ...]) -> list[str]:
    """The keys the table at loc[:-1] may hold (for an unknown key at loc), following sections and named tables."""
    annotation: Any = PedroConfig
    for part in loc[:-1]:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(str(part))
            if field is None:
                return []
            annotation = field.annotation
        elif get_origin(annotation) is dict:
            annotation = get_args(annotation)[1]
        else:
            return []
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return list(annotation.model_fields)
    return []


# Keys that moved: (old section, old key) -> their one home now.
_MOVED: dict[tuple[str, str], tuple[str, str]] = {
    ("tools", "max_output_bytes"): ("tool_calling", "max_tool_output_bytes"),
    ("tools", "max_argument_bytes"): ("tool_calling", "max_tool_args_bytes"),
}


def _refuse_moved(layer: Mapping[str, Any], source: str) -> None:
    """A key that moved names its new home, rather than the generic "unknown key"."""
    for (section, key), (new_section, new_key) in _MOVED.items():
        values = layer.get(section)
        if isinstance(values, Mapping) and key in values:
            env = f" ({env_variable(new_section, new_key)})" if source.startswith("the environment") else ""
            raise ConfigError(
                f"{source}: [{section}].{key} is now [{new_section}].{new_key}{env}; rename it there, the value "
                "means the same"
            )


def _validate_layer(base: dict[str, Any], layer: dict[str, Any], source: str) -> None:
    _refuse_moved(layer, source)
    try:
        PedroConfig.model_validate(deep_merge(base, layer))
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            key = ".".join(str(part) for part in error["loc"])
            said = str(error["msg"]).removeprefix("Value error, ")
            if not key:  # a rule across keys names them itself
                problems.append(said)
            elif error["type"] == "extra_forbidden":
                loc = error["loc"]
                close = _did_you_mean(str(loc[-1]), _known_keys(loc), _dotted_under(loc[:-1]))
                problems.append(f"unknown key '{key}'{close}")
            else:
                problems.append(f"'{key}': {said} (got {error.get('input')!r})")
        raise ConfigError(
            f"invalid configuration in {source}: {'; '.join(problems)}. "
            "`pedro config --example` lists every key and its type."
        ) from exc


def _dotted_under(table: tuple[str | int, ...]) -> Callable[[str], str]:
    """How a key of `table` is written in an error: 'section.key'."""
    return lambda key: "'" + ".".join(str(part) for part in (*table, key)) + "'"


def deep_merge(base: dict[str, Any], layer: Mapping[str, Any]) -> dict[str, Any]:
    """`layer` over `base`: a table merges into the table of the same key, anything else replaces the value."""
    out = dict(base)
    for key, value in layer.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out
