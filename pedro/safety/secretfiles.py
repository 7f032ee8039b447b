"""Which files hold secrets: the one list that the tools, the policy, the sandbox and redaction all consult."""

from __future__ import annotations

import os
import pwd
import re
from collections.abc import Mapping
from fnmatch import translate
from pathlib import Path, PurePath

# Files that set environment variables, often to real credentials; their values are also redacted (secrets.py).
# Templates (.env.example, .env.local.sample, ...) list the variables with placeholders, so models may read them.
_TEMPLATES = ("*.example", "*.sample", "*.template", "*.dist")
ENV_FILE_NAMES: dict[str, tuple[str, ...]] = {
    ".env": (),
    ".env.*": _TEMPLATES,
    ".envrc": (),
    "*.env": (),
}
# Keys and certificates wherever they are. SSH names private keys id_<type>; id_rsa.pub and id_utils.py have a dot,
# but a copied key keeps its type in its name whatever it ends with (id_rsa.old, id_ed25519.bak).
KEY_FILE_NAMES: dict[str, tuple[str, ...]] = {
    "*.pem": (),
    "*.key": (),
    "*.p12": (),
    "*.pfx": (),
    "*.jks": (),
    "*.keystore": (),
    "*.asc": (),
    "id_*": ("*.*",),
    **{f"id_{kind}*": ("*.pub",) for kind in ("rsa", "dsa", "ecdsa", "ed25519")},
}
# Tools' credential and state files by their usual names. Source files keep their names to themselves (secrets.py,
# tokens.py, tokenizer.json are code and data a coding task needs), and templates stay readable as for .env.
_NOT_CREDENTIALS = (*_TEMPLATES, "*.py", "*.js", "*.ts", "*.go", "*.rs", "*.java", "*.rb", "*.md", "*.rst")
CREDENTIAL_FILE_NAMES: dict[str, tuple[str, ...]] = {
    "credentials": (),
    "credentials.json": (),
    "service-account*.json": (),
    "*-key.json": (),
    "auth.json": (),
    "*.tfstate": (),
    "*.tfstate.backup": (),
    "kubeconfig": (),
    "*.kubeconfig": (),
    ".htpasswd": (),
    ".dockercfg": (),
    "secrets.*": _NOT_CREDENTIALS,
    "token": (),
    "token.*": _NOT_CREDENTIALS,
    "tokens.*": _NOT_CREDENTIALS,
}
SECRET_FILE_NAMES: dict[str, tuple[str, ...]] = {**ENV_FILE_NAMES, **KEY_FILE_NAMES, **CREDENTIAL_FILE_NAMES}
"""Every secret file name (a glob, case folded in ASCII) and the names of its shape that are not secret: the one
table the file tool, search, the policy, the sandbox and redaction consult."""
# git's own configuration: http.extraHeader tokens, credentials in URLs, and git-credential-store's XDG file
# (.config/git/credentials). The git tool's own git still reads them (sandbox.py binds them back for it).
GIT_CONFIG_STORES: tuple[str, ...] = (".gitconfig", ".config/git")
# Credential stores of common tools, relative to $HOME; inside a repository they are secret at any depth.
HOME_SECRETS: tuple[str, ...] = (
    ".ssh",
    ".aws",
    ".gnupg",
    ".kube",
    ".azure",
    ".config/gh",
    ".config/gcloud",
    ".docker/config.json",
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    *GIT_CONFIG_STORES,
)


def _name_regex(table: dict[str, tuple[str, ...]]) -> re.Pattern[str]:
    """One regex for a table of globs and their exceptions, so a check is one match however long the table."""
    branches = []
    for glob, exceptions in table.items():
        guard = "".join(f"(?!{translate(exception)})" for exception in exceptions)
        branches.append(guard + translate(glob))
    # Case is folded in ASCII only, as ripgrep's globs fold it, so that search can leave these files out by name.
    return re.compile("|".join(f"(?:{branch})" for branch in branches), re.IGNORECASE | re.ASCII)


_ENV_NAME = _name_regex(ENV_FILE_NAMES)
_SECRET_NAME = _name_regex(SECRET_FILE_NAMES)
_SECRET_RUNS = tuple(tuple(part.lower() for part in entry.split("/")) for entry in HOME_SECRETS)
_RUN_STARTS = frozenset(run[0] for run in _SECRET_RUNS)
_RUN_ENDS = frozenset(run[-1] for run in _SECRET_RUNS)


def _literal_ends(globs: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What a name must start with (the text before a glob's first wildcard) or else end with (after its last one)
    to match any of `globs` (whose one wildcard is *), lower case: a test in C that rules out almost every name
    before the regex is asked."""
    starts = {glob.partition("*")[0].lower() for glob in globs}
    ends = {glob.rpartition("*")[2].lower() for glob in globs if glob.startswith("*")}
    return tuple(sorted(starts - {""})), tuple(sorted(ends))


_STARTS, _ENDS = _literal_ends([*SECRET_FILE_NAMES, *_RUN_ENDS])


def _parts(path: str | PurePath) -> list[str]:
    text = path.as_posix() if isinstance(path, PurePath) else str(path).replace("\\", "/")
    return [part for part in text.split("/") if part not in ("", ".")]


def is_secret_path(path: str | PurePath) -> bool:
    """Whether a file at `path` (relative to the repository or a home) may hold secrets.

    True for a secret file name (.env, *.pem, id_rsa, ...) and for anything inside a credential store
    (.ssh/, .aws/, .config/gh/, .docker/config.json, .netrc, ...), at any depth.
    """
    parts = _parts(path)
    return bool(parts) and (bool(_SECRET_NAME.match(parts[-1])) or _has_store(parts))


def might_be_secret(name: str) -> bool:
    """Whether a file named `name` may be secret in some folder: a secret name, or the last part of a credential
    store (.netrc, .docker/config.json), which is_secret_path decides with the folders above it."""
    lowered = name.lower()
    if not (lowered.startswith(_STARTS) or lowered.endswith(_ENDS)):
        return False
    return bool(_SECRET_NAME.match(name)) or lowered in _RUN_ENDS


def in_credential_store(path: str | PurePath) -> bool:
    """Whether `path` is a credential store (.ssh, .config/gh, ...) or lies inside one: all of it is secret."""
    return _has_store(_parts(path))


def _has_store(parts: list[str]) -> bool:
    lowered = [part.lower() if part.isascii() else part for part in parts]
    for index, part in enumerate(lowered):
        if part in _RUN_STARTS and any(tuple(lowered[index : index + len(run)]) == run for run in _SECRET_RUNS):
            return True
    return False


def is_env_file(path: str | PurePath) -> bool:
    """Whether `path` is a secret environment file (.env, .env.local, .envrc), whose values are redacted."""
    parts = _parts(path)
    return bool(parts) and bool(_ENV_NAME.match(parts[-1]))


def home_secret_paths(home: Path, config_home: Path | None = None) -> list[Path]:
    """The credential stores that exist under `home` (symlinks included, as the links themselves); those under
    .config/ also under `config_home` ($XDG_CONFIG_HOME), where the tools look when it is set."""
    found = []
    for entry in HOME_SECRETS:
        candidates = [home / entry]
        if config_home is not None and entry.startswith(".config/"):
            candidates.append(config_home / entry.removeprefix(".config/"))
        for path in candidates:
            if path.is_symlink() or path.exists():
                found.append(path)
    return found


def credential_stores(*environs: Mapping[str, str], keep_git_config: bool = False) -> list[Path]:
    """The credential stores of the homes the environments name ($HOME, $XDG_CONFIG_HOME) and of the account's
    home, where they really are (links followed): what the sandboxes hide and what no-sandbox runs ask about.

    `keep_git_config` leaves out git's own configuration (GIT_CONFIG_STORES), for the git tool's git.
    """
    homes = _homes(environs)
    configs = {env["XDG_CONFIG_HOME"] for env in environs if env.get("XDG_CONFIG_HOME", "").startswith("/")}
    config_homes: list[Path | None] = [Path(raw).resolve() for raw in sorted(configs)] or [None]
    kept = _git_config_stores(homes, config_homes) if keep_git_config else set()
    found: set[Path] = set()
    for home in homes:
        for config_home in config_homes:
            for path in home_secret_paths(home, config_home):
                if path in kept:
                    continue
                real = path.resolve()
                if _is_a_store(real, homes):
                    found.add(real)
    return sorted(found)


def _git_config_stores(homes: set[Path], config_homes: list[Path | None]) -> set[Path]:
    """git's own configuration in each home and each XDG config home: what the git tool's git must still read."""
    kept = {home / entry for home in homes for entry in GIT_CONFIG_STORES}
    return kept | {config / "git" for config in config_homes if config is not None}


def _homes(environs: tuple[Mapping[str, str], ...]) -> set[Path]:
    """The home directories the environments name and the account's own, resolved; never `/`."""
    named = [env["HOME"] for env in environs if env.get("HOME", "").startswith("/")]
    try:
        named.append(pwd.getpwuid(os.getuid()).pw_dir)
    except KeyError:
        pass
    return {Path(raw).resolve() for raw in named if Path(raw).is_dir()} - {Path("/")}


def _is_a_store(real: Path, homes: set[Path]) -> bool:
    """Whether a resolved credential-store path exists and is not `/`, a home or above one."""
    # A link that leads to / or to a home would hide far more than a credential store.
    return real.exists() and real != Path("/") and real not in homes and not any(real in h.parents for h in homes)
