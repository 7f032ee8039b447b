"""The search tool: grep file contents, find files by glob, and find where a name is defined."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from pedro.effects import Effects
from pedro.safety.secretfiles import in_credential_store, is_secret_path
from pedro.tools.base import ToolArgs, ToolContext, ToolDeniedError, ToolFailure
from pedro.tools.census import Census, SecretCensus, census_from_log
from pedro.tools.definitions import find_definition
from pedro.tools.ripgrep import (
    GREP_JSON_FLAGS,
    GREP_OUTPUT_FLAGS,
    GlobScope,
    GrepHits,
    RgOutcome,
    all_files,
    base_argv,
    child_env,
    find_rg,
    first_line,
    glob_error,
    left_out_by_secret_filters,
    logs_left_out,
    scope_glob,
    stream_rg,
)

SearchAction = Literal["grep", "find_files", "find_definition"]

# Hard ceiling on rows, whatever max_results the model asks for: the Dispatcher truncates anyway.
MAX_RESULTS_CEILING = 1000
# Matched lines longer than this are cut around the match so one minified file cannot fill the result.
MAX_LINE_CHARS = 200

_ACTION_ALIASES: dict[str, SearchAction] = {
    "grep": "grep",
    "search": "grep",
    "rg": "grep",
    "regex": "grep",
    "text": "grep",
    "content": "grep",
    "find_files": "find_files",
    "find_file": "find_files",
    "files": "find_files",
    "glob": "find_files",
    "find": "find_files",
    "find_definition": "find_definition",
    "definition": "find_definition",
    "find_def": "find_definition",
    "def": "find_definition",
    "goto_definition": "find_definition",
    "find_symbol": "find_definition",
    "symbol": "find_definition",
}
# Keys small models use for the contract's keys.
_KEY_ALIASES: dict[str, tuple[str, ...]] = {
    "pattern": ("query", "regex", "search", "text", "term"),
    "path": ("file_path", "filename", "file", "dir", "directory", "folder"),
    "glob": ("include", "file_pattern", "files", "file_glob"),
    "name": ("symbol", "identifier", "function", "class_name"),
    "ignore_case": ("case_insensitive", "insensitive", "i"),
    "max_results": ("limit", "max", "max_count", "count"),
}
_GLOB_CHARS = re.compile(r"[*?\[\]{}]")


class SearchArgs(ToolArgs):
    """Arguments of the search tool."""

    short_keys: ClassVar[tuple[str, ...]] = ("pattern", "name")

    action: SearchAction
    pattern: str | None = None
    name: str | None = None
    path: str | None = None
    glob: str | None = None
    ignore_case: bool = False
    literal: bool = False
    max_results: SkipJsonSchema[int | None] = Field(default=None, ge=1)  # rows are capped and the cut counted

    @model_validator(mode="before")
    @classmethod
    def _infer(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = _with_contract_keys(data)
        action = data.get("action")
        if isinstance(action, str):
            normalized = action.strip().lower().replace("-", "_").replace(" ", "_")
            data["action"] = _ACTION_ALIASES.get(normalized, action)
        elif action is None:
            _infer_action(data)
        if data.get("action") == "find_files" and data.get("pattern") is None and data.get("glob") is not None:
            data["pattern"] = data["glob"]
        if data.get("action") == "find_definition" and data.get("name") is None:
            data["name"] = data.get("pattern")
        return data

    @model_validator(mode="after")
    def _check_needs(self) -> SearchArgs:
        if self.action in ("grep", "find_files") and not self.pattern:
            example = '"TODO"' if self.action == "grep" else '"**/*.py"'
            raise ValueError(f'search {self.action} needs a non-empty `pattern`, e.g. {{"pattern": {example}}}')
        if self.action == "find_definition" and not (self.name and self.name.strip()):
            raise ValueError('search find_definition needs `name`, e.g. {"action": "find_definition", "name": "mul"}')
        return self


def _with_contract_keys(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of the arguments with the contract's keys filled from their aliases, and numbers searched as text."""
    data = dict(data)
    for key, aliases in _KEY_ALIASES.items():
        for alias in aliases:
            if data.get(key) is None and data.get(alias) is not None:
                data[key] = data[alias]
    for key in ("pattern", "name"):
        # A model searching for 404 or 3.14 sends a number; it means the text.
        if isinstance(data.get(key), int | float) and not isinstance(data.get(key), bool):
            data[key] = str(data[key])
    return data


def _infer_action(data: dict[str, Any]) -> None:
    """The action a call without one means: a name alone is a definition, a pattern a grep, a glob a listing."""
    if data.get("name") is not None and data.get("pattern") is None:
        data["action"] = "find_definition"
    elif data.get("pattern") is not None:
        data["action"] = "grep"
    elif data.get("glob") is not None:
        data["action"], data["pattern"] = "find_files", data["glob"]


class SearchTool:
    """grep, find_files and find_definition over the repository, gitignore-aware, through ripgrep."""

    name: ClassVar[str] = "search"
    Args: ClassVar[type[ToolArgs]] = SearchArgs

    def effects(self, args: SearchArgs) -> Effects:
        return Effects(reads=(args.path or ".",))

    def run(self, args: SearchArgs, ctx: ToolContext) -> str:
        limit = min(args.max_results or ctx.config.search_max_results, MAX_RESULTS_CEILING)
        target = _resolve_target(ctx, args.path)
        if args.action == "grep":
            query = GrepQuery(str(args.pattern), args.glob, args.ignore_case, args.literal, limit)
            return grep(ctx, query, target)
        if args.action == "find_files":
            return find_files(ctx, str(args.pattern), target, ignore_case=args.ignore_case, limit=limit)
        return find_definition(ctx, str(args.name), target, limit=limit)


def _resolve_target(ctx: ToolContext, raw: str | None) -> Path:
    if raw is None or not raw.strip() or raw.strip() in (".", "./"):
        return ctx.root
    path = ctx.resolve(raw, must_exist=True)
    if (
        path.is_file()
        and is_secret_path(ctx.rel(path))
        and not ctx.approve(f"search inside {ctx.rel(path)}, which may hold secrets")
    ):
        raise ToolDeniedError(
            f"{ctx.rel(path)} looks like a secret file, so search skips it; search the code that reads it"
        )
    return path


def _skipped_note(count: int, what: str) -> str:
    """How many secret files a search left out, so the model knows they exist without seeing them."""
    if not count:
        return ""
    files = "1 file that may hold secrets was" if count == 1 else f"{count} files that may hold secrets were"
    return f"note: {files} not {what} (env files, keys, credentials); ask the user if the task needs them"


# ---- grep -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GrepQuery:
    """What a grep asks for: the pattern, the files (`glob`), how to match, and how many rows to show."""

    pattern: str
    glob: str | None = None
    ignore_case: bool = False
    literal: bool = False
    limit: int = 100


def grep(ctx: ToolContext, query: GrepQuery, target: Path) -> str:
    """Search file contents with ripgrep; `path:line: text` rows, capped, with a count of what was cut."""
    pattern, glob, literal = query.pattern, query.glob, query.literal
    if "\n" in pattern or "\r" in pattern:
        raise ToolFailure("grep matches one line at a time, so `pattern` cannot hold a line break; search one line")
    if target.is_file() and _looks_binary(target):
        return f"{ctx.rel(target)} is a binary file; search skips binary files"
    hits, note, skipped = _run_grep(ctx, query, target)
    where = "" if target == ctx.root else f" in {ctx.rel(target)}"
    if glob:
        where += f" (files matching {glob})"
    skipped_note = _skipped_note(skipped, "searched")
    if hits.total == 0:
        kind = "text" if literal or note else "pattern"
        return "\n".join(filter(None, [note + f"no matches for {kind} {pattern!r}{where}", skipped_note]))
    rows = [f"{row.path}:{row.line}: {_cut_line(row.text, row.start)}" for row in hits.rows()]
    cut = hits.total - len(rows)
    lines = [note.rstrip("\n")] if note else []
    lines += rows
    if cut > 0:
        lines.append(f"… {cut} more matches not shown; narrow the pattern or path")
    if skipped_note:
        lines.append(skipped_note)
    return "\n".join(lines)


def _run_grep(ctx: ToolContext, query: GrepQuery, target: Path) -> tuple[GrepHits, str, int]:
    """The hits, a note when the pattern was searched as text, and how many secret files were left out."""
    glob, ignore_case = query.glob, query.ignore_case
    scope = scope_glob(ctx, glob, target, ignore_case=ignore_case) if glob else GlobScope((), target)
    if scope.under is None:
        return GrepHits(limit=query.limit), "", 0
    search = _Search(ctx, query.pattern, ignore_case=ignore_case, literal=query.literal, limit=query.limit)
    if scope.under.is_file():
        # An explicit file was approved by _resolve_target.
        hits, note = _grep_scope(search, [ctx.rel(scope.under)], scope.filters, hide_secrets=False)
        return hits, note, 0
    rel = ctx.rel(scope.under)
    prefix = "./" if rel == "." else ""  # as ripgrep prints paths, so that the rows sort together
    hits, note, left_out, searched = _grep_counting(search, scope.under, rel, scope.filters)
    if left_out.spared and not searched:
        more, _ = _grep_scope(search, [prefix + path for path in left_out.spared], (), hide_secrets=False)
        hits.absorb(more)
    return hits, note, len(left_out.secret)


def _grep_counting(
    search: _Search, under: Path, rel: str, filters: tuple[str, ...]
) -> tuple[GrepHits, str, Census, bool]:
    """The grep with secret files left out by name, so none is ever read; the census of what it left out (the
    secret files it counts, and the few non-secret files their names catch too); and whether those were searched."""
    ctx = search.ctx
    if not filters and not in_credential_store(rel) and logs_left_out(find_rg(ctx.env)):
        # ripgrep's own walk names the files it leaves out: no second walk of the tree is needed to count them.
        search.log_left_out = True
        hits, note = _grep_scope(search, [rel], filters, hide_secrets=True)
        search.log_left_out = False
        left_out = census_from_log(ctx, search.log)
        if left_out is None:  # the log cannot account for them all (a credential store): a listing does
            with SecretCensus(ctx, under) as census:
                left_out = census.result()
        return hits, note, left_out, False
    # With filters, the census is remembered per tree, or taken beside the search.
    prefix = "./" if rel == "." else ""
    with SecretCensus(ctx, under, filters=filters) as census:
        # A remembered census names the spared files before the search starts: ripgrep searches a file it is
        # given whatever its filters say, so they ride along instead of costing a second run.
        along = [prefix + path for path in census.result().spared] if census.remembered else []
        if in_credential_store(rel):
            hits, note = GrepHits(limit=search.limit), ""  # every file in a credential store is secret
        else:
            hits, note = _grep_scope(search, [rel, *along], filters, hide_secrets=True)
        return hits, note, census.result(), census.remembered


@dataclass
class _Search:
    """What one grep looks for; `literal` turns true when the pattern was no valid regex."""

    ctx: ToolContext
    pattern: str
    ignore_case: bool
    literal: bool
    limit: int
    log_left_out: bool = False
    """Run ripgrep with --debug and keep its log, which names the files its walk left out (census_from_log)."""
    log: bytes = b""


def _grep_scope(
    search: _Search, paths: list[str], filters: Sequence[str], *, hide_secrets: bool
) -> tuple[GrepHits, str]:
    hits, outcome = _search(search, paths, filters, hide_secrets=hide_secrets)
    if hits.broken:
        # A path with an empty line in it makes the plain rows ambiguous; JSON is slower but says it exactly.
        hits, outcome = _search(search, paths, filters, hide_secrets=hide_secrets, json_mode=True)
    if outcome.returncode != 2 or hits.total:
        return hits, ""
    problem = glob_error(outcome.stderr)
    if problem is not None:
        raise ToolFailure(f'{problem}; give `glob` like "*.py" or "src/**/*.ts"')
    stderr, pattern = outcome.stderr, search.pattern
    if "regex parse error" in stderr or "literal" in stderr and "not allowed" in stderr:
        if search.literal:
            raise ToolFailure(f"ripgrep could not search for {pattern!r}: {_regex_reason(stderr)}")
        # Small models often paste code such as `foo(` as the pattern: search it as text and say so.
        search.literal = True
        hits, _ = _grep_scope(search, paths, filters, hide_secrets=hide_secrets)
        note = (
            f"note: {pattern!r} is not a valid regular expression ({_regex_reason(stderr)}), so it was "
            "searched as plain text; the pattern is a regex, so escape special characters (e.g. \\( \\[ \\.) "
            "to match them literally in a regex\n"
        )
        return hits, note
    raise ToolFailure(f"search failed: {first_line(stderr)}")


def _search(
    search: _Search, paths: list[str], filters: Sequence[str], *, hide_secrets: bool, json_mode: bool = False
) -> tuple[GrepHits, RgOutcome]:
    ctx = search.ctx
    hits = GrepHits(limit=search.limit, json_mode=json_mode)
    argv = base_argv(ctx, filters=filters, hide_secrets=hide_secrets)
    argv += GREP_JSON_FLAGS if json_mode else GREP_OUTPUT_FLAGS
    argv.append("--ignore-case" if search.ignore_case else "--case-sensitive")
    if search.literal:
        argv.append("--fixed-strings")
    # The pattern rides on -e and the paths after --, so neither can ever be read as a flag (e.g. "--pre=sh").
    argv += ["-e", search.pattern, "--", *paths]
    logging = search.log_left_out and hide_secrets
    if logging:
        argv.insert(1, "--debug")
    outcome = stream_rg(argv, cwd=ctx.root, env=child_env(ctx), on_chunk=hits.feed, keep_log=logging)
    hits.close()
    if logging:
        search.log = outcome.log
    return hits, outcome


def _regex_reason(stderr: str) -> str:
    for line in stderr.splitlines():
        if line.startswith("error:"):
            return line.removeprefix("error:").strip()
    return first_line(stderr)


def _cut_line(text: str, byte_start: int) -> str:
    """Keep a long line readable: a window of MAX_LINE_CHARS around the first match."""
    if len(text) <= MAX_LINE_CHARS:
        return text
    char_start = len(text.encode("utf-8")[:byte_start].decode("utf-8", errors="ignore"))
    begin = max(0, min(char_start - MAX_LINE_CHARS // 4, len(text) - MAX_LINE_CHARS))
    window = text[begin : begin + MAX_LINE_CHARS]
    return ("…" if begin > 0 else "") + window + ("…" if begin + MAX_LINE_CHARS < len(text) else "")


def _looks_binary(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return b"\x00" in handle.read(8192)
    except OSError:
        return False


# ---- find_files -------------------------------------------------------------------------------------------


def find_files(ctx: ToolContext, pattern: str, target: Path, *, ignore_case: bool = False, limit: int = 100) -> str:
    """Files whose path matches a glob (`**/*.py`, `*.go`, `calc.py`), gitignore-aware, capped."""
    glob = _clean_glob(ctx, pattern)
    paths, secret = _list_matching(ctx, glob, target, ignore_case=ignore_case)
    note = ""
    if not paths and not secret and not _GLOB_CHARS.search(glob) and "/" not in glob:
        # A bare word such as "calc" names no file; files whose name contains it are what was meant.
        paths, secret = _list_matching(ctx, f"*{glob}*", target, ignore_case=True)
        if paths:
            note = f"no file is named {glob!r}; files whose name contains it:"
    where = "" if target == ctx.root else f" under {ctx.rel(target)}"
    skipped_note = _skipped_note(secret, "listed")
    if not paths:
        return "\n".join(
            filter(
                None,
                [
                    f'no files match {pattern!r}{where}; a glob without / matches file names anywhere ("*.py"), '
                    'one with / matches paths from the repository root ("src/**/*.py")',
                    skipped_note,
                ],
            )
        )
    lines = [note] if note else []
    lines += paths[:limit]
    if len(paths) > limit:
        lines.append(f"… {len(paths) - limit} more files not shown; narrow the glob or path")
    if skipped_note:
        lines.append(skipped_note)
    return "\n".join(lines)


def _list_matching(ctx: ToolContext, glob: str, target: Path, *, ignore_case: bool) -> tuple[list[str], int]:
    """The matching files that are not secret, and how many secret files matched too."""
    scope = scope_glob(ctx, glob, target, ignore_case=ignore_case)
    if scope.under is None:
        return [], 0
    found = all_files(ctx, scope.under, filters=scope.filters)
    # One pass over the listing for the few paths that can be secret, not a check of every path.
    secret = set(left_out_by_secret_filters(found)[0])
    return ([path for path in found if path not in secret] if secret else found), len(secret)


def _clean_glob(ctx: ToolContext, pattern: str) -> str:
    glob = pattern.strip()
    root = ctx.root.as_posix() + "/"
    if glob.startswith(root):
        glob = glob[len(root) :]
    return glob.removeprefix("./")
