"""Probe a backend for `pedro doctor`: is the server up, is the model there, how big is its window, tool calls."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePath
from typing import Any, Literal

from pedro.backends.base import (
    Backend,
    BackendHttpError,
    GenerationOptions,
    ToolsRejectedError,
    extract_error_detail,
)
from pedro.backends.chat_templates import template_file, template_name
from pedro.backends.ggufmeta import read_gguf_metadata
from pedro.backends.llamacpp import LlamaCppBackend
from pedro.backends.ollama import OllamaBackend
from pedro.backends.openai_compat import LLAMA_SERVER_OWNER, OpenAICompatBackend, listed_window, names_model
from pedro.errors import BackendError
from pedro.messages import Message, ToolCall
from pedro.prompts import load_prompt
from pedro.toolcalls import extract

ToolSupport = Literal["native", "text_only", "text_reply", "failed"]
"""native: a structured call came back; text_only: the server refused `tools`; text_reply: tools accepted but the
model answered in text; failed: the request itself failed."""

# The probe's whole conversation. It is a diagnostic, not agent work: it never reaches the agent's prompts.
PROBE_MAX_TOKENS = 64


@dataclass(frozen=True)
class ServerProbe:
    """Whether the server answers at all, and what it says about itself."""

    url: str
    reachable: bool
    error: str = ""
    loading: bool = False
    version: str = ""
    denied: int | None = None
    """401 or 403 when the server refused pedro's credentials (none sent, or the wrong key); None otherwise."""
    denied_detail: str = ""


@dataclass(frozen=True)
class ModelProbe:
    """Whether the configured model is one the server serves.

    present is None when the server offers no listing; serves_any_name marks a single-model llama-server, which
    answers with its one model whatever name a request carries.
    """

    requested: str
    present: bool | None
    available: tuple[str, ...] = ()
    detail: str = ""
    serves_any_name: bool = False
    listed_context: int | None = None


@dataclass(frozen=True)
class TemplateProbe:
    """llama-server's /props chat_template_caps: can the model's chat template express tool calls?"""

    supports_tools: bool | None
    caps: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolProbe:
    """The outcome of one tiny generation request carrying one trivial tool."""

    verdict: ToolSupport
    detail: str
    calls: tuple[ToolCall, ...] = ()
    text_call: bool = False
    """The text reply held a call pedro's text extraction can read."""
    reply: str = ""
    seconds: float = 0.0


# -- the server ---------------------------------------------------------------------------------------------------


def probe_server(
    backend: Backend, *, wait_loading: float = 0.0, sleep: Callable[[float], None] = time.sleep
) -> ServerProbe:
    """A GET that proves the server answers, then one that needs pedro's credentials (401/403 sets `denied`);
    llama-server still loading its model is polled for `wait_loading` s."""
    if isinstance(backend, OllamaBackend):
        probe = _probe_ollama_server(backend)
    elif isinstance(backend, LlamaCppBackend):
        probe = _probe_llamacpp_server(backend, wait_loading, sleep)
    elif isinstance(backend, OpenAICompatBackend):
        try:
            backend.transport.get_status(backend.base_url + "/models")
        except BackendError as exc:
            return ServerProbe(backend.base_url, False, str(exc))
        probe = ServerProbe(backend.base_url, True)
    else:
        return ServerProbe(f"({backend.name})", True)
    if not probe.reachable or probe.loading:
        return probe
    return _with_access(probe, backend)


# Where each server checks its key: llama-server and vLLM leave /health (llama-server also /v1/models) open.
_GUARDED_PATHS: dict[str, str] = {"ollama": "/api/tags", "llamacpp": "/props", "openai": "/models"}


def _with_access(probe: ServerProbe, backend: Backend) -> ServerProbe:
    """`probe`, with `denied` set when a request that needs the key is refused with 401 or 403."""
    if not isinstance(backend, OllamaBackend | OpenAICompatBackend):
        return probe
    url = backend.base_url + _GUARDED_PATHS[backend.name]
    try:
        status, body = backend.transport.get_status(url)
    except BackendError:
        return probe  # reachable a moment ago: the later checks will say what is wrong
    if status not in (401, 403):
        return probe
    detail = f"{url} answered {status}: {extract_error_detail(body) or 'no reason given'}"
    return replace(probe, denied=status, denied_detail=detail)


def _probe_ollama_server(backend: OllamaBackend) -> ServerProbe:
    try:
        status, body = backend.transport.get_status(backend.base_url + "/api/version")
    except BackendError as exc:
        return ServerProbe(backend.base_url, False, str(exc))
    version = _json_object(body).get("version") if status == 200 else None
    return ServerProbe(backend.base_url, True, version=version if isinstance(version, str) else "")


def _probe_llamacpp_server(
    backend: LlamaCppBackend, wait_loading: float, sleep: Callable[[float], None]
) -> ServerProbe:
    url = backend.base_url + "/health"
    deadline = time.monotonic() + wait_loading
    while True:
        try:
            status, _ = backend.transport.get_status(url)
        except BackendError as exc:
            return ServerProbe(backend.base_url, False, str(exc))
        if status != 503:
            break
        if time.monotonic() >= deadline:
            return ServerProbe(
                backend.base_url,
                True,
                f"llama-server at {url} is still loading the model; wait until its log says it is listening and "
                "run pedro doctor again",
                loading=True,
            )
        sleep(0.5)
    build = backend.props().get("build_info")
    return ServerProbe(backend.base_url, True, version=build if isinstance(build, str) else "")


# -- the model ----------------------------------------------------------------------------------------------------


def probe_model(backend: Backend) -> ModelProbe:
    """Whether the server lists the configured model (Ollama /api/tags then /api/show; /v1/models; llama-server)."""
    if isinstance(backend, OllamaBackend):
        return _probe_ollama_model(backend)
    if isinstance(backend, OpenAICompatBackend):
        return _probe_openai_model(backend)
    return ModelProbe(getattr(backend, "model", ""), None, detail="this backend has no model listing")


def _probe_ollama_model(backend: OllamaBackend) -> ModelProbe:
    wanted = backend.model
    try:
        tags = backend.transport.get_json(backend.base_url + "/api/tags", retries=False)
    except BackendError as exc:
        return ModelProbe(wanted, None, detail=f"cannot list models: {exc}")
    entries = tags.get("models")
    names = tuple(
        str(entry.get("name") or entry.get("model"))
        for entry in (entries if isinstance(entries, list) else [])
        if isinstance(entry, Mapping) and (entry.get("name") or entry.get("model"))
    )
    if not wanted:
        return ModelProbe(wanted, False, names, "no model configured")
    # Ollama fills in the ":latest" tag a bare name means.
    aliases = {wanted, wanted if ":" in wanted else f"{wanted}:latest"}
    if aliases & set(names):
        return ModelProbe(wanted, True, names)
    # Not pulled locally can still be servable (a remote or cloud model): /api/show is the server's final word.
    try:
        backend.transport.post_json(backend.base_url + "/api/show", {"model": wanted})
    except BackendHttpError as exc:
        if exc.status == 404:
            return ModelProbe(wanted, False, names, exc.detail)
        return ModelProbe(wanted, None, names, f"cannot ask /api/show: {exc}")
    except BackendError as exc:
        # OllamaBackend words a 404 "model not found" as a plain BackendError naming `ollama pull`.
        return ModelProbe(wanted, False, names, str(exc))
    return ModelProbe(wanted, True, names, "not in /api/tags, but /api/show knows it")


def _probe_openai_model(backend: OpenAICompatBackend) -> ModelProbe:
    wanted = backend.model
    root = backend.base_url if not isinstance(backend, LlamaCppBackend) else backend.base_url + "/v1"
    try:
        status, body = backend.transport.get_status(root + "/models")
    except BackendError as exc:
        return ModelProbe(wanted, None, detail=f"cannot list models: {exc}")
    entries = _json_object(body).get("data") if status == 200 else None
    if not isinstance(entries, list):
        detail = f"GET {root}/models answered {status}; the server offers no model list"
        return (
            _llamacpp_props_model(backend, wanted)
            if isinstance(backend, LlamaCppBackend)
            else ModelProbe(wanted, None, detail=detail)
        )
    models = [entry for entry in entries if isinstance(entry, Mapping) and isinstance(entry.get("id"), str)]
    ids = tuple(str(entry["id"]) for entry in models)
    match = next((entry for entry in models if names_model(entry, wanted)), None)
    if match is not None:
        return ModelProbe(wanted, True, ids, listed_context=listed_window(match))
    if _single_llama_server(backend, models):
        # llama-server with one model answers whatever name is sent, so a mismatch only mislabels the job.
        return ModelProbe(
            wanted,
            True,
            ids,
            f"llama-server serves {_short(ids[0])} whatever model name pedro sends",
            serves_any_name=True,
            listed_context=listed_window(models[0]),
        )
    return ModelProbe(wanted, False, ids, "no model configured" if not wanted else "")


def _single_llama_server(backend: OpenAICompatBackend, models: list[Mapping[str, object]]) -> bool:
    """Whether the server is llama-server listing its one model, which it serves whatever name is asked for."""
    return len(models) == 1 and (
        isinstance(backend, LlamaCppBackend) or models[0].get("owned_by") == LLAMA_SERVER_OWNER
    )


def _llamacpp_props_model(backend: LlamaCppBackend, wanted: str) -> ModelProbe:
    path = backend.props().get("model_path")
    if isinstance(path, str) and path:
        return ModelProbe(wanted, True, (path,), f"llama-server serves {_short(path)}", serves_any_name=True)
    return ModelProbe(wanted, None, detail="llama-server lists no model (no /v1/models, no model_path in /props)")


# -- the window and the template ------------------------------------------------------------------------------------


def probe_context(backend: Backend) -> tuple[int | None, str]:
    """(window, error): backend.context_window(), with a BackendError turned into its message."""
    try:
        return backend.context_window(), ""
    except BackendError as exc:
        return None, str(exc)


def probe_template(backend: Backend) -> TemplateProbe | None:
    """llama-server's chat_template_caps from /props; None for other servers."""
    if not isinstance(backend, LlamaCppBackend):
        return None
    caps = backend.props().get("chat_template_caps")
    return TemplateProbe(backend.template_supports_tools(), dict(caps) if isinstance(caps, Mapping) else {})


def missing_template(backend: Backend) -> tuple[str, str] | None:
    """(model path, pedro's template name) when a llama-server serves a local GGUF that has no chat template on
    its ChatML fallback, which a model trained on another turn format answers with noise; else None."""
    if not isinstance(backend, LlamaCppBackend):
        return None
    props = backend.props()
    path, served = props.get("model_path"), props.get("chat_template")
    if not isinstance(path, str) or not isinstance(served, str) or "<|im_start|>" not in served:
        return None
    try:
        meta = read_gguf_metadata(Path(path))
    except BackendError:
        return None  # a server on another machine, or a file pedro cannot read: nothing to tell
    name = template_name(meta)
    return (path, name) if name is not None and name != "chatml" else None


def describe_missing_template(path: str, name: str) -> tuple[str, str]:
    """(what is wrong, the fix) for a model served on the ChatML fallback."""
    return (
        f"{Path(path).name} has no chat template and llama-server serves it in ChatML, a format the model was "
        "not trained on: expect noise",
        f"restart llama-server with --jinja --chat-template-file {template_file(name)}, or let pedro start it "
        f"(--model-file {path})",
    )


def probe_prompt() -> tuple[str, dict[str, Any]]:
    """The probe's request text and its one trivial tool, from prompts/doctor/."""
    tool: dict[str, Any] = json.loads(load_prompt("doctor/probe_tool.json"))
    return load_prompt("doctor/probe.md").strip(), tool


# -- native tool calls ----------------------------------------------------------------------------------------------


def probe_tool_calls(
    backend: Backend,
    *,
    max_tokens: int = PROBE_MAX_TOKENS,
    task: str | None = None,
    tool: Mapping[str, Any] | None = None,
) -> ToolProbe:
    """Send one tiny request with one trivial tool and classify what came back; never raises a BackendError."""
    default_task, default_tool = probe_prompt()
    task = default_task if task is None else task
    tool = default_tool if tool is None else tool
    messages = [Message(role="user", content=task)]
    # native: the backend must send `tools` and report a refusal instead of quietly falling back to text mode.
    options = GenerationOptions(temperature=0.0, max_tokens=max_tokens, tool_mode="native", stream=False)
    started = time.monotonic()
    try:
        completion = backend.complete(messages, tools=[tool], options=options)
    except BackendError as exc:
        rejected = _tools_rejection(exc)
        if rejected is None:
            return ToolProbe("failed", str(exc), seconds=time.monotonic() - started)
        return _probe_text_only(backend, messages, options, rejected, started)
    seconds = time.monotonic() - started
    reply = completion.text.strip()
    if completion.tool_calls:
        names = ", ".join(call.name for call in completion.tool_calls)
        return ToolProbe("native", f"the model called {names}", completion.tool_calls, reply=reply, seconds=seconds)
    text_call = bool(extract(completion.text, [dict(tool)]).calls)
    detail = "the call was in the reply text" if text_call else "no call in the reply"
    if completion.finish_reason == "length":
        detail += f" (cut at max_tokens={max_tokens})"
    return ToolProbe("text_reply", detail, text_call=text_call, reply=reply, seconds=seconds)


def _probe_text_only(
    backend: Backend, messages: Sequence[Message], options: GenerationOptions, rejected: str, started: float
) -> ToolProbe:
    """After a refusal of `tools`: does a plain request work? Text mode is usable only if it does."""
    try:
        completion = backend.complete(messages, tools=[], options=options)
    except BackendError as exc:
        return ToolProbe(
            "failed",
            f"the server refused tools ({rejected}) and then failed a plain request: {exc}",
            seconds=time.monotonic() - started,
        )
    return ToolProbe("text_only", rejected, reply=completion.text.strip(), seconds=time.monotonic() - started)


def _tools_rejection(exc: BaseException) -> str | None:
    """The server's words when `exc` (or what it wraps) is a refusal of the `tools` field."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ToolsRejectedError):
            return seen.detail
        seen = seen.__cause__
    return None


# -- helpers --------------------------------------------------------------------------------------------------------


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _short(name: str) -> str:
    """A GGUF path shortened to its file name; other names as they are."""
    return PurePath(name).name if "/" in name else name


__all__ = [
    "probe_prompt",
    "ModelProbe",
    "ServerProbe",
    "TemplateProbe",
    "ToolProbe",
    "ToolSupport",
    "probe_context",
    "probe_model",
    "probe_server",
    "probe_template",
    "probe_tool_calls",
]
