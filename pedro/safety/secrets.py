"""Keep secrets away from the model: a scrubbed child environment and redaction of tool output and log lines."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from pedro.safety.secretfiles import is_env_file
from pedro.safety.secretlisting import repo_secret_files


def _words(*chunks: str) -> list[str]:
    return [word for chunk in chunks for word in chunk.split()]


# Names a child process may inherit; everything else (cloud keys, tokens, SSH agents) stays with pedro.
_ALLOWED_NAMES = frozenset(
    _words(
        "PATH HOME LANG LANGUAGE TERM TZ USER LOGNAME SHELL TMPDIR COLORTERM NO_COLOR FORCE_COLOR CI",
        "GOPATH GOROOT GOCACHE GOFLAGS GOMODCACHE GOPROXY GOPRIVATE GONOSUMDB GO111MODULE CGO_ENABLED",
        "CARGO_HOME RUSTUP_HOME RUSTFLAGS CARGO_TARGET_DIR JAVA_HOME GRADLE_USER_HOME MAVEN_OPTS",
        "NODE_PATH NODE_OPTIONS NVM_DIR PYTHONPATH VIRTUAL_ENV CONDA_PREFIX PYENV_ROOT PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED PYTHONIOENCODING PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_FIND_LINKS PIP_NO_INDEX",
        "PIP_CACHE_DIR UV_CACHE_DIR GEM_HOME GEM_PATH RBENV_ROOT DOTNET_ROOT CC CXX CFLAGS CXXFLAGS LDFLAGS",
        "PKG_CONFIG_PATH LD_LIBRARY_PATH SSL_CERT_FILE SSL_CERT_DIR REQUESTS_CA_BUNDLE NODE_EXTRA_CA_CERTS",
        "XDG_CACHE_HOME XDG_CONFIG_HOME XDG_DATA_HOME XDG_RUNTIME_DIR HTTP_PROXY HTTPS_PROXY NO_PROXY",
        "http_proxy https_proxy no_proxy",
        # the test runner's own settings, as the user's shell gives them (not PYTEST_CURRENT_TEST: pytest's own)
        "PYTEST_ADDOPTS PYTEST_PLUGINS PYTEST_DISABLE_PLUGIN_AUTOLOAD",
        # who commits: without these a git commit fails ("Author identity unknown") where no config names the user
        "GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL EMAIL",
    )
)
_ALLOWED_PREFIXES = ("LC_", "NPM_CONFIG_", "npm_config_")
SECRET_NAME = re.compile(r"KEY|SECRET|TOKEN|PASSW|CREDENTIAL", re.IGNORECASE)
_URL_CREDENTIALS = re.compile(r"://[^/\s@:]+:[^/\s@]+@")
MIN_SECRET_VALUE = 8
_ENV_FILE_MAX_BYTES = 256 * 1024
_ASSIGNMENT = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$")
# Values that say "fill me in": <token>, ${OTHER_VAR}, xxxxxxxx, your-api-key-here, changeme.
_PLACEHOLDER = re.compile(
    r"(?i)^(?:<.*>|\$\{?\w+\}?|([x*.#_-])\1*|(?:your|my|some)[ _-].*|.*[ _-]here|change[ _-]?me.*|replace[ _-]?me.*"
    r"|placeholder|example|sample|dummy|secret|password|changeit|undefined|null|none|true|false|todo|tbd|fixme)$"
)
# A plain word, a number, a path, a host:port or a URL without credentials or query.
_ORDINARY_VALUE = re.compile(
    r"^(?:[A-Za-z]+|[0-9]+(?:\.[0-9]+)*|[\w.-]+:[0-9]+|/[\w./-]*|[a-z][a-z0-9+.-]*://[^@?#\s]*)$"
)


@dataclass(frozen=True)
class _Pattern:
    """One secret shape: cheap literal triggers gate a precompiled regex, so clean text costs a few substring scans."""

    kind: str
    triggers: tuple[str, ...]
    regex: re.Pattern[str]
    folded: bool = False  # triggers are lower-case and checked against the lower-cased text
    not_after: str = ""  # a match preceded by one of these characters is part of a longer word, not a secret


_WORD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
# Order matters: a PEM block and sk-ant- go before the shapes that would match inside them.
_PATTERNS: tuple[_Pattern, ...] = (
    _Pattern(
        "private_key",
        ("PRIVATE KEY-----",),
        re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)"),
    ),
    _Pattern("anthropic_key", ("sk-ant-",), re.compile(r"sk-ant-[A-Za-z0-9_-]{20,}"), not_after=_WORD),
    _Pattern("openai_key", ("sk-",), re.compile(r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"), not_after=_WORD),
    _Pattern(
        "github_token",
        ("ghp_", "gho_", "ghs_", "ghu_", "ghr_", "github_pat_"),
        re.compile(r"gh[posur]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}"),
        not_after=_WORD,
    ),
    _Pattern("aws_access_key", ("AKIA", "ASIA"), re.compile(r"(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])"), not_after=_WORD),
    _Pattern(
        "aws_secret",
        ("aws_secret_access_key",),
        re.compile(r"(?i)aws_secret_access_key[\"']?\s*[=:]\s*[\"']?[A-Za-z0-9/+=]{40}"),
        folded=True,
    ),
    _Pattern("slack_token", ("xox",), re.compile(r"xox[baprs]-[A-Za-z0-9-]{10,}"), not_after=_WORD),
    _Pattern("google_api_key", ("AIza",), re.compile(r"AIza[0-9A-Za-z_-]{35}"), not_after=_WORD),
    _Pattern(
        "jwt", ("eyJ",), re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"), not_after=_WORD
    ),
    _Pattern(
        "authorization",
        ("authorization",),
        re.compile(
            r"(?i)((?:proxy-)?authorization[\"']?\s*:\s*)[\"']?(?:(?:bearer|basic|token|digest)\s+)?[A-Za-z0-9._~+/=-]{8,}"
        ),
        folded=True,
    ),
    _Pattern(
        "bearer", ("bearer",), re.compile(r"(?i)(bearer)\s+[A-Za-z0-9._~+/-]{16,}=*"), folded=True, not_after=_WORD
    ),
    _Pattern("url_credentials", ("://",), re.compile(r"(://)[^/\s@:%{}$]+:[^/\s@%{}$]+@")),
)


def _is_allowed(name: str) -> bool:
    return name in _ALLOWED_NAMES or name.startswith(_ALLOWED_PREFIXES)


def child_environment(environ: Mapping[str, str], *, extra: Iterable[str] = ()) -> dict[str, str]:
    """The environment a tool's child process gets: allowlisted names minus secret-looking names and values.

    `extra` names more variables to pass (from user config); they are still dropped when they look secret.
    A value that carries credentials (a URL with user:password@, a token pattern) is dropped too.
    """
    wanted = set(extra)
    env: dict[str, str] = {}
    for name, value in environ.items():
        if not (_is_allowed(name) or name in wanted) or SECRET_NAME.search(name):
            continue
        if _URL_CREDENTIALS.search(value) or redact(value) != value:
            continue
        env[name] = value
    return env


def secret_values(environ: Mapping[str, str], *, root: Path | None = None) -> list[str]:
    """Values of secret-looking variables long enough to redact without hitting ordinary words.

    With `root`, also the values the repository's secret files hold (repo_secret_values), so that a command that
    prints one (`cat .env` where no sandbox can hide the file) shows [REDACTED:env_value] instead.
    """
    found = [v for k, v in environ.items() if SECRET_NAME.search(k) and len(v) >= MIN_SECRET_VALUE]
    return found + (repo_secret_values(root) if root is not None else [])


def repo_secret_values(root: Path) -> list[str]:
    """The values worth redacting that the repository's secret files hold: what its env files (.env, .env.*, .envrc)
    set, and the values in its other secret files (credentials, tokens, keys), which a command reads as they are
    under the Landlock fallback or with no sandbox, and through git under either sandbox."""
    found: list[str] = []
    for path in repo_secret_files(root):
        if is_env_file(path.name):
            found += [value for name, value in env_file_assignments(path) if _worth_redacting(name, value)]
        elif len(found) < _MAX_REPO_VALUES:
            found += secret_file_values(path)
    return found


def secret_file_values(path: Path) -> list[str]:
    """The values a text secret file holds: each `key = value`, `key: value` or `"key": "value"` line's value, and
    each line that is one word (a token, a line of a key's body), those worth redacting; [] for a binary file."""
    try:
        with path.open("rb") as fh:
            data = fh.read(_ENV_FILE_MAX_BYTES)
    except OSError:
        return []
    if b"\0" in data[:8192]:
        return []  # a keystore or a certificate bundle in binary: nothing a command prints is worth matching
    found: list[str] = []
    for line in data.decode("utf-8", errors="replace").splitlines():
        text = line.strip().rstrip(",")
        match = _KEYED_VALUE.match(text)
        if match is not None:
            name, value = match.group(1), match.group(2).strip().strip("\"'")
            if _worth_redacting(name, value) and (SECRET_NAME.search(name) or not _WORDS.match(value)):
                found.append(value)
        elif text and not text.endswith(":") and not any(c.isspace() for c in text) and _worth_redacting("", text):
            found.append(text)
        if len(found) >= _MAX_FILE_VALUES:
            break
    return found


_WORDS = re.compile(r"^[A-Za-z]+(?:[_-][A-Za-z]+)*$")
"""Words joined by _ or - (service_account, kubernetes-admin): a secret file's settings, not its secrets, unless
their key says otherwise (password: correct-horse-battery-staple)."""
_KEYED_VALUE = re.compile(r"""^["']?([\w.-]+)["']?\s*[:=]\s*(.+)$""")
_MAX_FILE_VALUES = 500
"""Values kept of one secret file (a Terraform state can hold thousands): each costs every redaction a search."""
_MAX_REPO_VALUES = 20_000
"""Values kept of the secret files other than env files (a TLS library's hundreds of test keys): at this many, a
redaction of 50 KB of output takes about 0.15 s."""


def env_file_assignments(path: Path) -> list[tuple[str, str]]:
    """The `NAME=value` and `export NAME=value` lines of an env file, quotes and trailing comments removed."""
    try:
        with path.open("rb") as fh:
            text = fh.read(_ENV_FILE_MAX_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return []
    found = []
    for line in text.splitlines():
        match = _ASSIGNMENT.match(line)
        if match is None:
            continue
        raw = match.group(2).strip()
        if raw[:1] in ("'", '"'):
            end = raw.find(raw[0], 1)
            value = raw[1:end] if end > 0 else raw[1:]
        else:
            value = re.split(r"\s#", raw, maxsplit=1)[0].strip()
        found.append((match.group(1), value))
    return found


def _worth_redacting(name: str, value: str) -> bool:
    """Long enough, not a placeholder, and either named like a secret or unlike a plain word, number or URL.

    Values such as `production` or `http://localhost:3000` appear all over ordinary output; hiding them would
    blank out the model's view of logs without protecting anything.
    """
    if len(value) < MIN_SECRET_VALUE or _PLACEHOLDER.match(value):
        return False
    return bool(SECRET_NAME.search(name)) or not _ORDINARY_VALUE.match(value)


REDACTION_MARK = "[REDACTED:"
"""How every redaction begins: text the model writes back holding more of them than the file had would put the
marker where the user's secret was."""


class Redactor:
    """Replaces secrets in text with [REDACTED:kind]; linear in the text, with precompiled patterns.

    `secret_values` are exact strings to hide as well (the values of this process's secret variables and
    the backend's API key); values shorter than 8 characters are ignored to keep ordinary words intact.
    """

    def __init__(self, secret_values: Iterable[str] = (), *, later: Callable[[], Iterable[str]] | None = None) -> None:
        self._given = list(secret_values)
        self._later = later
        self._sorted: list[str] | None = None
        self._lock = threading.Lock()
        self._finding: threading.Thread | None = None
        self._found: list[str] | None = None

    @classmethod
    def for_job(cls, environ: Mapping[str, str], root: Path) -> Redactor:
        """The environment's secret values now, and the repository's env files' values when text is first
        redacted (finding those files lists the tree, which a job need not pay before it has output)."""
        return cls(secret_values(environ), later=lambda: repo_secret_values(root))

    @property
    def waiting(self) -> bool:
        """Whether later values are still to be found, and nobody has started finding them."""
        return self._sorted is None and self._later is not None and self._finding is None

    def prefetch(self) -> None:
        """Start finding the later values on a thread, when output that will be redacted is about to be made (a
        tool call has started): on a large tree their listing then runs beside the tool's own work, not after it.
        A daemon thread: pedro never waits on it to exit, and the listing it runs ends with pedro."""
        with self._lock:
            if self._sorted is not None or self._later is None or self._finding is not None:
                return
            self._finding = threading.Thread(target=self._find_later, name="pedro-secret-values", daemon=True)
            self._finding.start()

    def _find_later(self) -> None:
        assert self._later is not None
        try:
            self._found = list(self._later())
        except Exception:  # noqa: BLE001 (found again, and raised, where the values are needed)
            self._found = None

    @property
    def _values(self) -> list[str]:
        if self._sorted is None:
            with self._lock:
                finding = self._finding
            if finding is not None:
                finding.join()
            later = self._found if self._found is not None else list(self._later() if self._later is not None else ())
            found = [*self._given, *later]
            self._sorted = sorted({v for v in found if len(v) >= MIN_SECRET_VALUE}, key=len, reverse=True)
        return self._sorted

    def redact(self, text: str) -> str:
        """The text with every secret value and every known secret pattern replaced."""
        for value in self._values:
            if value in text:
                text = text.replace(value, "[REDACTED:env_value]")
        folded = text.lower()
        for pattern in _PATTERNS:
            haystack = folded if pattern.folded else text
            if any(trigger in haystack for trigger in pattern.triggers):
                text = pattern.regex.sub(partial(_replace, pattern), text)
        return text


def _replace(pattern: _Pattern, match: re.Match[str]) -> str:
    found = match.group()
    start = match.start()
    if pattern.not_after and start > 0 and match.string[start - 1] in pattern.not_after:
        return found  # the tail of a longer identifier, not a secret
    if pattern.kind == "openai_key" and not (re.search(r"[0-9]", found) and re.search(r"[A-Za-z]", found[3:])):
        return found  # a long identifier such as sk-some-long-name is code, not a key
    if pattern.kind == "aws_secret":
        return "aws_secret_access_key=[REDACTED:aws_secret]"
    if pattern.kind == "bearer":
        return f"{match.group(1)} [REDACTED:bearer]"
    if pattern.kind in ("authorization", "url_credentials"):
        return f"{match.group(1)}[REDACTED:{pattern.kind}]" + ("@" if pattern.kind == "url_credentials" else "")
    return f"[REDACTED:{pattern.kind}]"


_DEFAULT = Redactor()


def redact(text: str) -> str:
    """Redact known secret patterns (no environment values); for logs written before a Redactor exists."""
    return _DEFAULT.redact(text)
