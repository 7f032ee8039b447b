"""`pedro doctor`: a table of what works — server, model, context size, tool calls, and the local helpers pedro uses."""

from __future__ import annotations

import contextlib
import errno
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from pedro.cli.common import load_and_find_server
from pedro.cli.flags import SERVER, CommonFlags, takes
from pedro.errors import PedroError

if TYPE_CHECKING:
    from pedro.backends.base import Backend
    from pedro.backends.discovery import FoundServer, SoleModel
    from pedro.backends.probe import ModelProbe, ToolProbe
    from pedro.config import PedroConfig

CheckStatus = Literal["ok", "warn", "fail", "skip"]
CheckKey = Literal[
    "backend",
    "server",
    "model",
    "context",
    "chat_template",
    "chat_template_fallback",
    "tool_calls",
    "llama_server",
    "ripgrep",
    "git",
    "bubblewrap",
    "landlock",
    "sandbox",
]

# The doctor asks once and fast: no retries, and a generation probe that cannot hang the terminal for ten minutes.
PROBE_READ_TIMEOUT = 120.0
LOADING_WAIT = 30.0
# landlock_create_ruleset has the same number on every architecture Linux added it to after the syscall unification.
_SYS_LANDLOCK_CREATE_RULESET = 444
_LANDLOCK_CREATE_RULESET_VERSION = 1
_MARKS: dict[CheckStatus, str] = {"ok": "ok", "warn": "warn", "fail": "FAIL", "skip": "skip"}
_STYLES: dict[CheckStatus, str] = {"ok": "green", "warn": "yellow", "fail": "bold red", "skip": "dim"}

NoProbeFlag = Annotated[bool, typer.Option("--no-probe", help="Skip the generation request that tests tool calls.")]


@dataclass(frozen=True)
class Check:
    """One row of the report; `fix` says what to do when the status is not ok."""

    key: CheckKey
    name: str
    status: CheckStatus
    detail: str
    fix: str = ""


@dataclass
class Report:
    """Everything the doctor found; exit 3 when the backend cannot be used."""

    backend: str
    base_url: str
    model: str
    checks: list[Check] = field(default_factory=list)
    tool_probe: ToolProbe | None = None
    model_file: str = ""
    """--model-file: the model pedro serves itself; its server's URL is known only once it runs."""

    @property
    def usable(self) -> bool:
        return not any(check.status == "fail" for check in self.checks)

    @property
    def exit_code(self) -> int:
        return 0 if self.usable else 3

    def to_json(self) -> dict[str, Any]:
        probe = asdict(self.tool_probe) if self.tool_probe is not None else None
        return {
            "usable": self.usable,
            "exit_code": self.exit_code,
            "backend": self.backend,
            "base_url": self.base_url,
            "model": self.model,
            "model_file": self.model_file,
            "checks": [asdict(check) for check in self.checks],
            "tool_probe": probe,
        }


@takes(*SERVER, "repo", "json", json_prints="Print the checks as one JSON object.")
def doctor(no_probe: NoProbeFlag = False, *, flags: CommonFlags) -> None:
    """Check the backend and the local tools pedro relies on; exit 3 when the backend is unusable."""
    _, config, found, sole = load_and_find_server(flags, need_git=False)
    report = diagnose(config, probe=not no_probe, found=found, sole=sole)
    if flags.json:
        sys.stdout.write(json.dumps(report.to_json(), indent=2) + "\n")
    elif sys.stdout.isatty():
        _print_table(report)
    else:
        sys.stdout.write(render_plain(report))
    raise typer.Exit(report.exit_code)


def diagnose(
    config: PedroConfig, *, probe: bool = True, found: FoundServer | None = None, sole: SoleModel | None = None
) -> Report:
    """Run every check for `config`; a model_file starts llama-server for the duration, as a run would.

    `found` is the server pedro chose on its own because none was configured; its row says so. `sole` is the model
    it chose because none was given and the server lists only that one; the model row says so.
    """
    report = Report(config.backend.kind, config.resolved_base_url(), config.backend.model)
    if config.backend.model_file:
        # The server asked about is the one pedro starts for the file, not the configured or default URL.
        served_file = Path(config.backend.model_file).expanduser()
        report.backend, report.base_url, report.model_file = "llamacpp", "", str(served_file)
        report.model = config.backend.model or served_file.stem
    if found is not None:
        report.checks.append(Check("backend", "backend", "ok", found.describe()))
    with _served(config, report) as served:
        if served is not None:
            report.backend, report.base_url = served.backend.kind, served.resolved_base_url()
            report.model = served.backend.model
            report.checks.extend(backend_checks(served, report, probe=probe))
    if sole is not None:
        report.checks = [
            replace(check, detail=f"{check.detail}; {sole.describe()}") if check.key == "model" else check
            for check in report.checks
        ]
    model_file = Path(config.backend.model_file).expanduser() if config.backend.model_file else None
    report.checks.extend(local_checks(model_file))
    return report


@contextlib.contextmanager
def _served(config: PedroConfig, report: Report) -> Iterator[PedroConfig | None]:
    """The config to probe: as given, or pointed at a llama-server started for [backend].model_file."""
    if not config.backend.model_file:
        yield config
        return
    from pedro.backends.managed import REINSTALL, ManagedLlamaServer, ServerSettings

    model_file = Path(config.backend.model_file).expanduser()
    server = ManagedLlamaServer(model_file, ServerSettings(ctx_size=config.backend.context_window or 8192))
    try:
        server.start()
    except PedroError as exc:
        report.checks.append(
            Check(
                "server",
                "server",
                "fail",
                f"could not start llama-server for {model_file}: {exc}",
                f"check --model-file / [backend].model_file; reinstall the binary: {REINSTALL}",
            )
        )
        yield None
        return
    try:
        managed = config.model_copy(deep=True)
        managed.backend.kind = "llamacpp"
        managed.backend.base_url = server.base_url
        managed.backend.model = managed.backend.model or model_file.stem
        yield managed
    finally:
        server.close()


# -- the backend ----------------------------------------------------------------------------------------------------


def backend_checks(config: PedroConfig, report: Report, *, probe: bool = True) -> list[Check]:
    """Server, model, context, chat template and tool-call rows for the configured backend."""
    from pedro.backends import get_backend
    from pedro.backends.probe import (
        describe_missing_template,
        missing_template,
        probe_context,
        probe_model,
        probe_server,
        probe_template,
        probe_tool_calls,
    )

    tuned = config.model_copy(deep=True)
    tuned.backend.max_retries = 0
    tuned.backend.read_timeout = min(tuned.backend.read_timeout, PROBE_READ_TIMEOUT)
    tuned.backend.load_timeout = min(tuned.backend.load_timeout, LOADING_WAIT)
    kind = config.backend.kind
    try:
        backend = get_backend(tuned)
    except PedroError as exc:
        return [Check("backend", "backend", "fail", str(exc), "fix the [backend] settings named above")]
    try:
        server = probe_server(backend, wait_loading=LOADING_WAIT)
        if not server.reachable or server.loading:
            fix = _START_HINTS[kind] if not server.reachable else "wait for the model to load, then rerun"
            return [Check("server", "server reachable", "fail", server.error, fix)]
        if server.denied is not None:
            return [_access_check(config, server.denied_detail)]
        version = f" ({server.version})" if server.version else ""
        checks = [Check("server", "server reachable", "ok", f"{kind} at {server.url}{version}")]
        model = probe_model(backend)
        checks.append(_model_check(kind, model))
        window, error = probe_context(backend)
        checks.append(_context_check(window, error, model))
        template = probe_template(backend)
        if template is not None:
            checks.append(_template_check(template.supports_tools))
        missing = missing_template(backend)
        if missing is not None:
            problem, fix = describe_missing_template(*missing)
            checks.append(Check("chat_template_fallback", "chat template", "warn", problem, fix))
        if not probe:
            checks.append(Check("tool_calls", "native tool calls", "skip", "not probed (--no-probe)"))
        elif checks[1].status == "fail":
            checks.append(Check("tool_calls", "native tool calls", "skip", "not probed: the model is unknown"))
        else:
            report.tool_probe = probe_tool_calls(backend)
            checks.append(_tool_check(kind, report.tool_probe, backend))
        return checks
    finally:
        backend.close()


_START_HINTS: dict[str, str] = {
    "ollama": "start it (`ollama serve`) or point --base-url / OLLAMA_HOST at it",
    "llamacpp": "start it (`llama-server -m MODEL.gguf --jinja --port 8080`), point --base-url at it, "
    "or pass --model-file MODEL.gguf and pedro starts one",
    "openai": "start the server, or point --base-url at its /v1 URL (e.g. http://127.0.0.1:8080/v1)",
}


def _access_check(config: PedroConfig, detail: str) -> Check:
    """The server refused pedro's credentials: none were sent, or the key was wrong."""
    from pedro.backends.base import API_KEY_HINT
    from pedro.backends.openai_compat import read_api_key

    name = config.backend.api_key_env or ("OPENAI_API_KEY" if read_api_key(config) else "")
    if name:
        said, fix = f"the key in ${name} was refused ({detail})", f"check the value of {name}, or {API_KEY_HINT}"
    else:
        said, fix = f"the server wants an API key and pedro sent none ({detail})", API_KEY_HINT
    return Check("server", "server access", "fail", said, fix)


def _model_check(kind: str, model: ModelProbe) -> Check:
    name = "model present"
    offered = ", ".join(model.available[:8]) + (" …" if len(model.available) > 8 else "")
    if model.present:
        detail = model.requested or "(server default)"
        return Check("model", name, "ok", f"{detail}: {model.detail}" if model.detail else detail)
    if model.present is None:
        return Check("model", name, "warn", f"cannot tell: {model.detail}", "check the model name with the server")
    if not model.requested:
        pick = f" (the server has: {offered})" if offered else ""
        return Check("model", name, "fail", "no model configured", f"pass --model NAME or set [backend].model{pick}")
    where = f"the server has: {offered}" if offered else "the server lists no models"
    detail = f"'{model.requested}' is not on the server ({where})"
    if kind == "ollama":
        fix = f"run `ollama pull {model.requested}`, or pick an installed model with --model"
    else:
        fix = "pass --model with one of the listed names, or load the model on the server"
    return Check("model", name, "fail", detail, fix)


def _context_check(window: int | None, error: str, model: ModelProbe) -> Check:
    name = "context size"
    if window:
        return Check("context", name, "ok", f"{window} tokens")
    if error:
        return Check("context", name, "warn", f"unknown: {error}", "fix the model check first")
    listed = model.listed_context
    if listed:  # the model list gives a size, but not where this backend asks for the window it runs with
        said = f"not reported where pedro asks; the model list gives {listed}"
        return Check("context", name, "warn", said, f"set [backend].context_window = {listed} to use it")
    return Check(
        "context", name, "warn", "unknown: the server does not say", "set [backend].context_window to the size"
    )


def _template_check(supports: bool | None) -> Check:
    name = "chat template tools"
    if supports:
        return Check("chat_template", name, "ok", "the model's chat template can express tool calls")
    if supports is None:
        return Check(
            "chat_template", name, "warn", "llama-server does not report chat_template_caps", "update llama-server"
        )
    return Check(
        "chat_template",
        name,
        "warn",
        "the model's chat template has no tool calls; pedro uses text mode (fenced calls)",
        "for native calls use a tool-trained model (Qwen, Llama 3.1+, Mistral …) with llama-server --jinja",
    )


def _tool_check(kind: str, probe: ToolProbe, backend: Backend) -> Check:
    name = "native tool calls"
    took = f"; {probe.seconds:.1f}s"
    if probe.verdict == "native":
        return Check("tool_calls", name, "ok", f"native ({probe.detail}{took})")
    if probe.verdict == "text_only":
        fix = (
            f"pick a model with tool support (`ollama show {getattr(backend, 'model', 'MODEL')}` lists capabilities)"
            if kind == "ollama"
            else "start llama-server with --jinja and a model whose template supports tools"
        )
        return Check(
            "tool_calls", name, "warn", f"text only (server rejected tools: {probe.detail})", fix + "; text mode works"
        )
    if probe.verdict == "text_reply":
        return Check(
            "tool_calls",
            name,
            "warn",
            f"accepted but the model answered in text ({probe.detail}{took})",
            "pedro reads calls from text (tool_mode auto); a larger or tool-trained model calls natively",
        )
    return Check("tool_calls", name, "fail", f"the probe request failed: {probe.detail}", "see the message; --no-probe")


# -- the machine ----------------------------------------------------------------------------------------------------


def local_checks(model_file: Path | None = None) -> list[Check]:
    """llama-server, ripgrep, git and the sandbox: what pedro runs besides the model."""
    return [
        check_llama_server(model_file),
        check_ripgrep(),
        check_git(),
        check_bubblewrap(shutil.which("bwrap")),
        check_landlock(),
        check_active_sandbox(),
    ]


def check_active_sandbox() -> Check:
    """The sandbox bash and test will run under (PEDRO_SANDBOX=off turns it off)."""
    from pedro.safety.sandbox import active_sandbox, describe

    sandbox = active_sandbox()
    if sandbox.kind == "none":
        return Check(
            "sandbox",
            "sandbox in use",
            "warn",
            describe(sandbox),
            "install bubblewrap (apt-get install bubblewrap); until then every command but a read-only "
            "allowlist asks first",
        )
    return Check("sandbox", "sandbox in use", "ok", describe(sandbox))


def check_llama_server(model: Path | None = None) -> Check:
    """The binary pedro starts for --model-file, and whether it can serve a model on this CPU.

    Printing a version proves little: a binary built for other CPU instructions dies only once a model loads. One
    that served a model here at install time counts as tried; any other is tried now on `model` (or the SmolLM2
    model, when installed).
    """
    from pedro.backends.managed import INSTALL_HINT, find_llama_server, find_smollm2_gguf, smoke_run, tried_here

    name = "llama-server binary"
    binary = find_llama_server()
    if binary is None:
        return Check("llama_server", name, "warn", "not found (only --model-file needs it)", INSTALL_HINT)
    found = _with_version(str(binary), [str(binary), "--version"])
    if tried_here(binary):
        return Check("llama_server", name, "ok", f"{found}; served a model on this CPU when installed")
    model = model or find_smollm2_gguf()
    if model is None:
        return Check(
            "llama_server",
            name,
            "warn",
            f"{found}; never tried with a model here, and it may not run on this CPU",
            "pedro doctor --model-file MODEL.gguf tries it",
        )
    problem = smoke_run(binary, model)
    if problem:
        return Check("llama_server", name, "fail", f"{found}; it cannot serve {model.name}: {problem}", INSTALL_HINT)
    return Check("llama_server", name, "ok", f"{found}; served {model.name} here")


def check_ripgrep() -> Check:
    """The rg the search tool runs."""
    from pedro.tools.base import ToolFailure
    from pedro.tools.ripgrep import find_rg

    try:
        rg = find_rg()
    except ToolFailure:
        return Check("ripgrep", "ripgrep", "warn", "not found: search cannot run", "pip install ripgrep==14.1.0")
    return Check("ripgrep", "ripgrep", "ok", _with_version(rg, [rg, "--version"]))


def check_git() -> Check:
    """git, which jobs, snapshots and the git tool need."""
    git = shutil.which("git")
    if git is None:
        return Check("git", "git", "warn", "not found: jobs, snapshots and the git tool need it", "apt-get install git")
    from pedro import gitlayer

    version = gitlayer.version()
    return Check("git", "git", "ok", f"{git} ({version})" if version else git)


def check_bubblewrap(binary: str | None) -> Check:
    """Whether `bwrap --ro-bind / / --unshare-all --die-with-parent true` actually runs here."""
    name = "sandbox: bubblewrap"
    if binary is None:
        return Check("bubblewrap", name, "warn", "not installed", "apt-get install bubblewrap")
    from pedro.safety.sandbox import PROBE_ARGV

    try:
        proc = subprocess.run(
            [binary, *PROBE_ARGV], capture_output=True, text=True, timeout=10, check=False, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return Check("bubblewrap", name, "warn", f"{binary} cannot run: {exc}", "reinstall bubblewrap")
    if proc.returncode == 0:
        return Check("bubblewrap", name, "ok", f"{binary} runs (namespaces work)")
    said = _first_line(proc.stderr) or f"exit status {proc.returncode}"
    return Check(
        "bubblewrap",
        name,
        "warn",
        f"{binary} is installed but cannot sandbox: {said}",
        "allow unprivileged user namespaces (Ubuntu 24.04: sysctl kernel.apparmor_restrict_unprivileged_userns=0 "
        "or an AppArmor profile for bwrap); pedro falls back to Landlock",
    )


def check_landlock() -> Check:
    """The Landlock ABI the kernel offers, or why there is none."""
    name = "sandbox: landlock"
    from pedro.safety.sandbox import landlock_status

    abi, err = landlock_status()
    if abi is not None:
        return Check("landlock", name, "ok", f"ABI {abi}")
    if err == errno.EOPNOTSUPP:
        return Check(
            "landlock",
            name,
            "warn",
            "unavailable: built into the kernel but disabled",
            "add landlock to the lsm= boot parameter",
        )
    reason = errno.errorcode.get(err, str(err)) if err else "unknown"
    return Check(
        "landlock", name, "warn", f"unavailable ({reason})", "use a Linux kernel >= 5.13 with Landlock enabled"
    )


def _with_version(path: str, argv: list[str]) -> str:
    version = _run_first_line(argv)
    return f"{path} ({version})" if version else path


def _run_first_line(argv: list[str]) -> str:
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return ""
    # llama-server prints its version on stderr, git and rg on stdout.
    return _first_line(proc.stdout) or _first_line(proc.stderr)


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


# -- output ---------------------------------------------------------------------------------------------------------


def headline(report: Report) -> str:
    """What the doctor examined: the backend at its URL, or the llama-server pedro starts for --model-file."""
    where = f"{report.backend} at {report.base_url}" if report.base_url else ""
    if report.model_file:
        where = f"llama-server for {report.model_file}" + (f" ({where})" if where else "")
    return f"pedro doctor: {where}"


def render_plain(report: Report) -> str:
    """Aligned text, one check per line; a check that is not ok carries its fix on the same line."""
    width = max(len(check.name) for check in report.checks)
    lines = [f"{headline(report)}, model {report.model or '(none)'}"]
    for check in report.checks:
        fix = f" -> fix: {check.fix}" if check.fix and check.status in ("warn", "fail") else ""
        lines.append(f"{_MARKS[check.status]:<4}  {check.name:<{width}}  {check.detail}{fix}")
    lines.append("backend usable" if report.usable else "backend unusable (exit 3): see the FAIL lines")
    return "\n".join(lines) + "\n"


def _print_table(report: Report) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=headline(report), title_justify="left")
    for column in ("", "check", "detail"):
        table.add_column(column)
    for check in report.checks:
        detail = Text(check.detail)
        if check.fix and check.status in ("warn", "fail"):
            detail.append(f"\nfix: {check.fix}", style="italic")
        table.add_row(Text(_MARKS[check.status], style=_STYLES[check.status]), check.name, detail)
    console = Console()
    console.print(table)
    console.print("backend usable" if report.usable else "[bold red]backend unusable (exit 3)[/]")
