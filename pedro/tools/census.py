"""Which secret files a search leaves out: found by a listing, remembered while the tree it walked stays as it was.

A grep leaves secret files out by name, so nothing of them is read; saying how many it left out (and finding the
few non-secret files those names catch too) takes a listing of the same tree, a second walk that costs as much
as the search on a machine with few cores. Searches come in runs between edits, so the census of one walk is kept
and asked again while nothing it depends on has changed, checked the way git's untracked cache checks a tree:

- a directory's change time moves whenever an entry is added, removed or renamed in it, so the census records
  every directory the listing found files in, and every directory directly inside one of those;
- an ignore file (.gitignore, .ignore, .rgignore, .git/info/exclude, git's global excludes) can change what is
  listed without touching its directory, so each is recorded too, present or absent;
- a change in the same clock tick as the walk would leave a time unmoved, so a census whose tree has a time
  within treestate.SETTLE_NS of the walk's start (or later) is not kept.

Recording reads every walked directory, which costs about what the listing does, so it is done when the same
search comes again: the next search pays it instead of a listing, and the ones after it pay a stat per directory.
Recording late is as safe as recording at once, because anything changed since the walk has a later time.

What this cannot see is a new file two or more levels down inside directories that held no listed file when the
census was taken (an empty folder inside an empty folder); the census then counts it from the next change of a
recorded directory. Search still leaves such a file out by name; only the count would lag.

A grep with no filters of the caller's needs no listing at all: ripgrep's --debug log names every entry its walk
leaves out, and why, so census_from_log reads the files it left out by name from the grep's own run. Only where
the log does not account for all of them (a credential store left out whole, whose files a listing counts) is a
listing taken after all.
"""

from __future__ import annotations

import os
import re
import stat
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from pedro.safety.treestate import Remembered, Stamps, settled_stamps, unchanged
from pedro.tools.base import ToolContext
from pedro.tools.ripgrep import SECRET_TYPE, FileListing, find_rg, left_out_by_secret_filters

# Trees remembered at once (a repository's root and the folders searched in it).
_KEPT = 16
# Files whose content decides what ripgrep lists in the directory that holds them and below it.
_IGNORE_FILES = (".gitignore", ".ignore", ".rgignore")
_EXCLUDES_FILE = re.compile(r"^\s*excludesfile\s*=\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_Key = tuple[str, ...]


@dataclass(frozen=True)
class Census:
    """Of a listing's paths, the secret ones a search left out and the spared ones it must search apart."""

    secret: tuple[str, ...]
    spared: tuple[str, ...]


@dataclass(frozen=True)
class _Taken:
    """A census just taken, with what recording its tree needs."""

    census: Census
    under: Path
    paths: list[str]
    started_ns: int


@dataclass(frozen=True)
class _Kept:
    census: Census
    stamps: Stamps


# Censuses per tree: recorded ones, and ones taken but not yet recorded.
_MEMORY: Remembered[_Kept | _Taken] = Remembered(_KEPT)


class SecretCensus:
    """The census of the files a grep under `under` with `filters` may reach, taken beside the grep when not known.

    Use as a context manager around the grep: a listing starts at once when there is no census to trust, so the
    two walks run side by side; `result()` waits for it.
    """

    def __init__(self, ctx: ToolContext, under: Path, *, filters: Sequence[str] = ()) -> None:
        self._under = under
        self._key: _Key = (str(ctx.root), str(under), *filters, "\0", find_rg(ctx.env), *_config_homes(ctx))
        self._known = _recall(ctx, self._key)
        self._listing: FileListing | None = None
        self._reader: threading.Thread | None = None
        self._read: tuple[Census, list[str]] | BaseException | None = None
        self._started_ns = time.time_ns()  # before the walk: anything it could miss is changed after this
        if self._known is None:
            self._listing = FileListing(ctx, under, filters=filters)
            # Reading a listing of a large tree costs about a tenth of the grep beside it: read it on a thread as
            # soon as the listing ends, while the grep still runs.
            self._reader = threading.Thread(target=self._read_listing, name="pedro-census", daemon=True)
            self._reader.start()

    def _read_listing(self) -> None:
        assert self._listing is not None
        try:
            paths = self._listing.paths()
            self._read = (Census(*(tuple(found) for found in left_out_by_secret_filters(paths))), paths)
        except BaseException as exc:  # noqa: BLE001 (raised again by result(), in the caller's thread)
            self._read = exc

    @property
    def remembered(self) -> bool:
        """Whether the census came from memory, with no listing run."""
        return self._listing is None

    def result(self) -> Census:
        """The census: remembered, or the listing's, which it waits for."""
        if self._known is None:
            assert self._reader is not None
            self._reader.join()
            if isinstance(self._read, BaseException) or self._read is None:
                raise self._read or RuntimeError("the census listing was not read")
            self._known, paths = self._read
            _MEMORY.put(self._key, _Taken(self._known, self._under, paths, self._started_ns))
        return self._known

    def close(self) -> None:
        if self._listing is not None:
            self._listing.close()

    def __enter__(self) -> SecretCensus:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


# How ripgrep 14.1's --debug log gives an entry its walk leaves out (ripgrep.logs_left_out says which ripgrep):
#   rg: DEBUG|ignore::walk|crates/ignore/src/walk.rs:1799: ignoring ./src/.env: Ignore(IgnoreMatch(Types(Glob(
#   Matched { def: FileTypeDef { name: "pedrosecret", globs: [...] } }))))
_WALK_LINE = b"rg: DEBUG|ignore::walk|"
_IGNORING = b": ignoring "
_BY_NAME = b': Ignore(IgnoreMatch(Types(Glob(Matched { def: FileTypeDef { name: "' + SECRET_TYPE.encode() + b'"'
_BY_OVERRIDE = b": Ignore(IgnoreMatch(Override("


def census_from_log(ctx: ToolContext, log: bytes) -> Census | None:
    """The census of a grep run with --debug and no filters of the caller's, from the files its walk says it left
    out by name; None where the log does not account for all of them and a listing must count them: a credential
    store left out whole, or a name the log cannot give back exactly (a line break in it, or not UTF-8)."""
    found: list[str] = []
    for line in log.split(b"\n"):
        if _BY_NAME in line:
            rel = _logged_path(line, _BY_NAME)
            if rel is None:
                return None
            found.append(rel)
        elif _BY_OVERRIDE in line and line.startswith(_WALK_LINE):
            rel = _logged_path(line, _BY_OVERRIDE)
            if rel is None or rel.rpartition("/")[2] != ".git":
                return None
    # A listing names regular files only: a link with a secret file's name is in neither.
    kept = sorted(rel for rel in found if _regular(f"{ctx.root}/{rel}"))
    secret, spared = left_out_by_secret_filters(kept)
    return Census(tuple(secret), tuple(spared))


def _logged_path(line: bytes, verdict: bytes) -> str | None:
    """The repository-relative path of an entry a walk line says was left out, or None when the line cannot give
    it back exactly: a name with a line break is split over lines, one not in UTF-8 printed with replacements."""
    if not line.startswith(_WALK_LINE):
        return None
    _, said, path = line[: line.rindex(verdict)].partition(_IGNORING)
    try:
        text = path.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text.removeprefix("./") if said and "\ufffd" not in text else None


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False  # gone since the walk


def forget_censuses() -> None:
    """Forget every census (benchmarks time the first search of a tree with it)."""
    _MEMORY.clear()


def _recall(ctx: ToolContext, key: _Key) -> Census | None:
    """The census of `key` if its tree is as it was when the census was taken; None when it must be taken again."""
    entry = _MEMORY.get(key)
    if isinstance(entry, _Taken):
        stamps = _tree_stamps(ctx, entry.under, entry.paths, entry.started_ns)
        _MEMORY.put(key, None if stamps is None else _Kept(entry.census, stamps))
        return None if stamps is None else entry.census
    if entry is None:
        return None
    if not unchanged(entry.stamps):
        _MEMORY.put(key, None)
        return None
    _MEMORY.put(key, entry)
    return entry.census


def _tree_stamps(ctx: ToolContext, under: Path, paths: Iterable[str], walked_at_ns: int) -> Stamps | None:
    """The state of everything the listing's result depends on (its directories, the ones beside them, and the
    ignore files that applied to the walk), or None as soon as any of it changed too close to the walk."""
    walked = _walked_directories(ctx, under, paths)
    # The walked directories first: an edit since the walk moves one of them, and reading them all would be wasted.
    stamps = settled_stamps(walked, walked_at_ns)
    if stamps is None:
        return None
    beside = {str(above / name) for above in under.parents for name in _IGNORE_FILES}
    beside.update(str(path) for path in _git_excludes(ctx))
    for directory in walked:
        try:
            with os.scandir(directory) as entries:
                for entry in entries:
                    # An ignore file that appears moves its directory's time; one that is edited does not.
                    # .git is never walked (every search leaves it out), and git writes in it all the time.
                    if entry.name in _IGNORE_FILES or (
                        entry.is_dir(follow_symlinks=False) and entry.name != ".git" and entry.path not in walked
                    ):
                        beside.add(entry.path)
        except OSError:
            return None  # gone since the listing
    more = settled_stamps(beside, walked_at_ns)
    return None if more is None else stamps + more


def _walked_directories(ctx: ToolContext, under: Path, paths: Iterable[str]) -> set[str]:
    """The directories the walk went through to list `paths`: `under` and every folder between it and them."""
    # Text, not Paths, for the listing's thousands of entries: a Path each would cost more than the walk.
    top = ctx.rel(under).removeprefix(".")
    seen = {top, *(str(above) for above in Path(top).parents)}
    for rel in paths:
        folder = rel.rpartition("/")[0]
        while folder not in seen:
            seen.add(folder)
            folder = folder.rpartition("/")[0]
    inside = top + "/" if top else ""
    return {str(under), *(f"{ctx.root}/{rel}" for rel in seen if rel.startswith(inside) and rel)}


def _config_homes(ctx: ToolContext) -> tuple[str, str]:
    home = ctx.env.get("HOME", "")
    return home, ctx.env.get("XDG_CONFIG_HOME") or (f"{home}/.config" if home else "")


def _git_excludes(ctx: ToolContext) -> list[Path]:
    """The exclude files ripgrep reads besides those in the tree, and the git configuration that names them."""
    home, config_home = _config_homes(ctx)
    found = [ctx.root / ".git" / "info" / "exclude"]
    configs = [Path(home) / ".gitconfig"] if home else []
    if config_home:
        configs.append(Path(config_home) / "git" / "config")
        found.append(Path(config_home) / "git" / "ignore")
    found += configs
    for config in configs:
        try:
            text = config.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for named in (raw.strip('"') for raw in _EXCLUDES_FILE.findall(text)):
            found.append(Path(home) / named[2:] if named.startswith("~/") and home else Path(named))
    return found
