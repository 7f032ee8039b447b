"""The search tool on real temporary git repositories: grep, find_files and find_definition through ripgrep."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from pedro.config import ToolsConfig
from pedro.tools import definitions
from pedro.tools.base import ToolContext, ToolDeniedError, ToolFailure
from pedro.tools.ripgrep import find_rg, stream_rg
from pedro.tools.search import SearchArgs, SearchTool

CALC_PY = """\
def add(a, b):
    return a + b


def mul(a, b):
    return a * b


class Calc:
    def __init__(self):
        self.total = 0

    def mul(self, x):
        self.total *= x
        return self.total
"""

SHAPES_GO = """\
package shapes

type Shape interface {
	Area() float64
}

type Square struct {
	Side float64
}

func (s *Square) Area() float64 {
	return s.Side * s.Side
}

func NewSquare(side float64) *Square {
	return &Square{Side: side}
}

const Unit = 1.0
"""

APP_JS = """\
const fs = require("fs");

function render(items) {
  return items.join(",");
}

class Widget {
  draw() {
    return render([]);
  }
}

const helper = (x) => x * 2;
module.exports = { render, Widget, helper };
"""

TYPES_TS = """\
export interface Point {
  x: number;
  y: number;
}

export type Id = string;

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

export class Tracker {
  track(id: Id): void {}
}
"""

LIB_RS = """\
pub struct Counter {
    count: u32,
}

impl Counter {
    pub fn bump(&mut self) -> u32 {
        self.count += 1;
        self.count
    }
}
"""


def _write(repo: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)


@pytest.fixture
def project(repo: Path) -> Path:
    """The sample repository with sources in four languages, an ignored build/ directory and a binary file."""
    _write(
        repo,
        {
            ".gitignore": "build/\n",
            "calc.py": CALC_PY,
            "pkg/shapes/shapes.go": SHAPES_GO,
            "web/app.js": APP_JS,
            "web/types.ts": TYPES_TS,
            "native/src/lib.rs": LIB_RS,
            "build/generated.py": "def mul(a, b):\n    return 0  # needle\n",
            "build/out.txt": "needle in build\n",
            "notes.txt": "a needle here\nnothing\nanother needle\n",
            "data.bin": b"needle\x00\x01\x02binary needle\n",
        },
    )
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True, capture_output=True)
    return repo


def _run(ctx: ToolContext, **arguments: Any) -> str:
    return SearchTool().run(SearchArgs.model_validate(arguments), ctx)


# ---- grep -------------------------------------------------------------------------------------------------


def test_grep_finds_matches_outside_the_ignored_build_dir_and_skips_binary_files(
    project: Path, ctx: ToolContext
) -> None:
    out = _run(ctx, action="grep", pattern="needle")
    assert out.splitlines() == ["notes.txt:1: a needle here", "notes.txt:3: another needle"]
    assert "build/" not in out
    assert "data.bin" not in out


def test_grep_searches_an_ignored_directory_when_asked_for_it_by_path(project: Path, ctx: ToolContext) -> None:
    out = _run(ctx, action="grep", pattern="needle", path="build")
    assert "build/out.txt:1: needle in build" in out


def test_grep_respects_gitignore_without_a_git_directory(tmp_path: Path) -> None:
    _write(tmp_path, {".gitignore": "build/\n", "src/a.txt": "needle\n", "build/b.txt": "needle\n"})
    out = _run(ToolContext(root=tmp_path), pattern="needle")
    assert out == "src/a.txt:1: needle"


@pytest.mark.parametrize("pattern", ["--pre=sh", "-e x --pre sh", "--files", "-exec"])
def test_flag_like_patterns_are_searched_literally(project: Path, ctx: ToolContext, pattern: str) -> None:
    _write(project, {"flags.txt": f"before\nliteral {pattern} text\n"})
    out = _run(ctx, action="grep", pattern=pattern)
    assert out == f"flags.txt:2: literal {pattern} text"


def test_a_file_named_like_a_flag_is_searched_as_a_file(project: Path, ctx: ToolContext) -> None:
    _write(project, {"-exec": "rm -rf marker\n"})
    out = _run(ctx, action="grep", pattern="marker")
    assert out == "-exec:1: rm -rf marker"
    assert (project / "-exec").exists()


def test_colons_in_file_names_do_not_confuse_the_rows(project: Path, ctx: ToolContext) -> None:
    _write(project, {"odd:12:name.txt": "x: 1: needle: y\n"})
    out = _run(ctx, pattern="needle", glob="odd*")
    assert out == "odd:12:name.txt:1: x: 1: needle: y"


def test_results_are_capped_with_a_count_of_what_was_cut(project: Path, ctx: ToolContext) -> None:
    _write(project, {"many.txt": "".join(f"match {i}\n" for i in range(30))})
    out = _run(ctx, pattern="match", max_results=10).splitlines()
    assert out[:10] == [f"many.txt:{i + 1}: match {i}" for i in range(10)]
    assert out[10] == "… 20 more matches not shown; narrow the pattern or path"
    assert len(out) == 11


def test_the_default_cap_comes_from_the_config(project: Path) -> None:
    _write(project, {"many.txt": "".join(f"match {i}\n" for i in range(8))})
    ctx = ToolContext(root=project, config=ToolsConfig(search_max_results=3))
    out = _run(ctx, pattern="match").splitlines()
    assert len(out) == 4
    assert out[-1] == "… 5 more matches not shown; narrow the pattern or path"


def test_capped_rows_are_the_first_in_path_order_every_time(project: Path, ctx: ToolContext) -> None:
    files = {f"spread/f{n:02d}.txt": "hit\nhit\nhit\n" for n in range(40)}
    _write(project, files)
    expected = [f"spread/f{n // 3:02d}.txt:{n % 3 + 1}: hit" for n in range(7)]
    for _ in range(3):
        out = _run(ctx, pattern="hit", path="spread", max_results=7).splitlines()
        assert out[:7] == expected
        assert out[7] == "… 113 more matches not shown; narrow the pattern or path"


def test_invalid_regex_is_explained_and_searched_as_text(project: Path, ctx: ToolContext) -> None:
    out = _run(ctx, pattern="mul(a")
    first, *rows = out.splitlines()
    assert "not a valid regular expression" in first
    assert "escape" in first
    assert rows == ["calc.py:5: def mul(a, b):"]


def test_literal_flag_matches_regex_characters_as_text(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, pattern="a.b", literal=True).startswith("no matches for text 'a.b'")
    assert _run(ctx, pattern="self.total *= x", literal=True) == "calc.py:14:         self.total *= x"


def test_no_match_is_said_plainly(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, pattern="zebra_unicorn") == "no matches for pattern 'zebra_unicorn'"
    assert _run(ctx, pattern="zebra", path="web") == "no matches for pattern 'zebra' in web"


def test_a_line_break_in_the_pattern_is_refused_with_advice(project: Path, ctx: ToolContext) -> None:
    with pytest.raises(ToolFailure, match="one line at a time"):
        _run(ctx, pattern="def add\n    return")


def test_path_glob_and_ignore_case_narrow_the_search(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, pattern="RENDER", ignore_case=True, glob="*.js").splitlines() == [
        "web/app.js:3: function render(items) {",
        "web/app.js:9:     return render([]);",
        "web/app.js:14: module.exports = { render, Widget, helper };",
    ]
    assert _run(ctx, pattern="RENDER").startswith("no matches")
    assert _run(ctx, pattern="return", path="calc.py").splitlines()[0] == "calc.py:2:     return a + b"


def test_a_bad_glob_is_a_clear_failure(project: Path, ctx: ToolContext) -> None:
    with pytest.raises(ToolFailure, match="error parsing glob"):
        _run(ctx, pattern="x", glob="[")


def test_a_missing_path_suggests_similar_files(project: Path, ctx: ToolContext) -> None:
    with pytest.raises(ToolFailure, match="did you mean: calc.py"):
        _run(ctx, pattern="x", path="calcs.py")


def test_a_path_outside_the_repository_is_refused(project: Path, ctx: ToolContext) -> None:
    with pytest.raises(ToolDeniedError, match="escapes the repository"):
        _run(ctx, pattern="root", path="../../../etc")


def test_long_lines_are_cut_around_the_match(project: Path, ctx: ToolContext) -> None:
    _write(project, {"min.js": "x" * 5000 + "NEEDLE" + "y" * 5000 + "\n"})
    out = _run(ctx, pattern="NEEDLE")
    assert out.startswith("min.js:1: …x")
    assert "NEEDLE" in out
    assert out.endswith("y…")
    assert len(out) < 260


def test_secret_files_are_skipped_and_searching_one_needs_approval(project: Path, ctx: ToolContext) -> None:
    _write(project, {".env": "API_KEY=needle\n", ".github/ci.yml": "needle: yes\n"})
    out = _run(ctx, pattern="needle")
    assert ".env" not in out
    assert ".github/ci.yml:1: needle: yes" in out
    with pytest.raises(ToolDeniedError, match="secret"):
        _run(ctx, pattern="needle", path=".env")
    approving = ToolContext(root=project, approve=lambda _: True)
    assert _run(approving, pattern="needle", path=".env") == ".env:1: API_KEY=needle"


def test_names_shaped_like_secrets_are_searched_in_path_order_and_counted(project: Path, ctx: ToolContext) -> None:
    # ripgrep leaves out every name shaped like a secret; the non-secret ones among them are searched apart.
    _write(
        project,
        {
            "aa.txt": "needle 1\nneedle 2\n",
            ".env.example": "needle 3\nneedle 4\n",
            "ab/id_utils.py": "needle 5\n",
            "id_rsa": "needle secret\n",
            "zz/.ENV.local": "needle secret\n",
        },
    )
    out = _run(ctx, pattern="needle", path=".", max_results=4).splitlines()
    shown = [".env.example:1: needle 3", ".env.example:2: needle 4", "aa.txt:1: needle 1", "aa.txt:2: needle 2"]
    assert out[:4] == shown
    assert out[4] == "… 3 more matches not shown; narrow the pattern or path"  # ab/id_utils.py and two elsewhere
    assert out[5].startswith("note: 2 files that may hold secrets were not searched")


def test_globs_ripgrep_takes_as_overrides_still_leave_secret_files_out(project: Path, ctx: ToolContext) -> None:
    # "*/*" and "lib/*/*.py" reach ripgrep as --glob, which lets a file in without asking file types.
    _write(
        project,
        {
            "cfg/.env": "needle=secret\n",
            "cfg/ID_RSA": "needle key\n",
            "cfg/.env.example": "needle=x\n",
            "cfg/ok.txt": "needle ok\n",
            "lib/id_tools/x.py": "needle tool\n",
        },
    )
    out = _run(ctx, pattern="needle", glob="*/*").splitlines()
    assert out[:2] == ["cfg/.env.example:1: needle=x", "cfg/ok.txt:1: needle ok"]
    assert out[2].startswith("note: 2 files that may hold secrets were not searched")
    assert _run(ctx, pattern="needle", glob="lib/*/*.py") == "lib/id_tools/x.py:1: needle tool"


def test_a_search_inside_a_credential_store_reads_nothing_of_it(project: Path, ctx: ToolContext) -> None:
    _write(project, {"infra/.aws/credentials": "needle=key\n", "infra/.AWS/sub/config": "needle\n"})
    for path in ("infra/.aws", "infra/.AWS/sub"):
        out = _run(ctx, pattern="needle", path=path)
        assert "needle=" not in out and ":1:" not in out, path
        assert "may hold secrets" in out, path
    assert "needle" not in _run(ctx, pattern="needle", path="infra").replace("'needle'", "")


def test_a_binary_file_given_by_path_is_reported_not_dumped(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, pattern="needle", path="data.bin") == "data.bin is a binary file; search skips binary files"


def test_ripgrep_config_from_the_environment_is_ignored(project: Path, tmp_path: Path) -> None:
    config = tmp_path / "rgrc"
    config.write_text("--max-count=1\n--glob=!notes.txt\n")
    ctx = ToolContext(root=project, env={"PATH": "/usr/bin:/bin", "RIPGREP_CONFIG_PATH": str(config)})
    assert len(_run(ctx, pattern="needle").splitlines()) == 2


def test_find_rg_names_an_executable() -> None:
    assert Path(find_rg()).name == "rg"


def test_a_file_with_megabytes_of_matches_is_counted_exactly_and_shown_from_its_start(
    project: Path, ctx: ToolContext
) -> None:
    big = "".join(f"hit {n} {'x' * 20}\n" for n in range(120_000))
    _write(project, {"bulk/big.txt": big, "bulk/a.txt": "hit a\n", "bulk/z.txt": "hit z\nhit z2\n"})
    out = _run(ctx, pattern="hit", path="bulk", max_results=4).splitlines()
    assert out[:4] == [
        "bulk/a.txt:1: hit a",
        f"bulk/big.txt:1: hit 0 {'x' * 20}",
        f"bulk/big.txt:2: hit 1 {'x' * 20}",
        f"bulk/big.txt:3: hit 2 {'x' * 20}",
    ]
    assert out[4] == f"… {120_000 + 3 - 4} more matches not shown; narrow the pattern or path"
    assert _run(ctx, pattern="hit", path="bulk", max_results=1).splitlines() == [
        "bulk/a.txt:1: hit a",
        f"… {120_000 + 3 - 1} more matches not shown; narrow the pattern or path",
    ]


def test_a_file_that_turns_binary_late_shows_only_its_text_matches(project: Path, ctx: ToolContext) -> None:
    _write(project, {"late/blob.dat": b"needle at the top\n" + b"x" * 300_000 + b"\n\x00 needle\n"})
    assert _run(ctx, pattern="needle", path="late") == "late/blob.dat:1: needle at the top"


def test_file_names_with_line_breaks_are_still_reported_exactly(project: Path, ctx: ToolContext) -> None:
    _write(project, {"odd/a\nb.txt": "needle 1\n", "odd/c\n\nd.txt": "needle 2\n", "odd/e.txt": "needle 3\n"})
    out = _run(ctx, pattern="needle", path="odd", max_results=2).splitlines()
    assert out == [
        "odd/a",
        "b.txt:1: needle 1",
        "odd/c",
        "",
        "d.txt:1: needle 2",
        "… 1 more matches not shown; narrow the pattern or path",
    ]


def test_matched_lines_that_look_like_ripgreps_count_do_not_change_it(project: Path, ctx: ToolContext) -> None:
    _write(project, {"spoof/s.txt": "x\n\n\n7 matches\n7 matched lines\nneedle\n", "spoof/t.txt": "needle\n"})
    assert _run(ctx, pattern="match", path="spoof").splitlines() == [
        "spoof/s.txt:4: 7 matches",
        "spoof/s.txt:5: 7 matched lines",
    ]
    out = _run(ctx, pattern="needle|matches", path="spoof", max_results=1).splitlines()
    assert out == ["spoof/s.txt:4: 7 matches", "… 2 more matches not shown; narrow the pattern or path"]


def test_a_run_past_its_time_limit_is_stopped(tmp_path: Path) -> None:
    started = time.monotonic()
    with pytest.raises(ToolFailure, match="longer than"):
        stream_rg(
            [sys.executable, "-c", "import time; time.sleep(30)"],
            cwd=tmp_path,
            env={},
            on_chunk=lambda _: None,
            timeout=0.3,
        )
    assert time.monotonic() - started < 10


def test_a_burst_of_small_writes_is_read_whole_without_a_thread(tmp_path: Path) -> None:
    # ripgrep writes each file's rows apart; they are read in batches (how few depends on the machine's load, so
    # `make bench` measures that), every byte in order, with no watchdog thread started per search.
    script = "import sys\nfor n in range(5000):\n    sys.stdout.write(f'{n}\\n'); sys.stdout.flush()\n"
    chunks: list[bytes] = []
    threads: set[int] = set()

    def take(chunk: bytes) -> None:
        chunks.append(chunk)
        threads.add(threading.active_count())

    before = threading.active_count()
    outcome = stream_rg([sys.executable, "-c", script], cwd=tmp_path, env={}, on_chunk=take, timeout=60)
    assert outcome.returncode == 0
    assert b"".join(chunks) == "".join(f"{n}\n" for n in range(5000)).encode()
    assert threads == {before}  # no watchdog thread per search: the time limit is kept by the reading loop


def test_without_pidfd_every_write_is_read_and_the_time_limit_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr("os.pidfd_open")  # an old kernel, or a seccomp filter that refuses it
    chunks: list[bytes] = []
    script = "import sys\nfor n in range(300):\n    sys.stdout.write(f'{n}\\n'); sys.stdout.flush()\n"
    stream_rg([sys.executable, "-c", script], cwd=tmp_path, env={}, on_chunk=chunks.append, timeout=60)
    assert b"".join(chunks) == "".join(f"{n}\n" for n in range(300)).encode()
    with pytest.raises(ToolFailure, match="longer than"):
        stream_rg(
            [sys.executable, "-c", "import time; time.sleep(30)"],
            cwd=tmp_path,
            env={},
            on_chunk=lambda _: None,
            timeout=0.3,
        )


def test_a_flood_on_stderr_cannot_stall_the_run(tmp_path: Path) -> None:
    script = "import sys; sys.stderr.write('w' * 2_000_000); sys.stdout.write('done\\n'); sys.exit(2)"
    chunks: list[bytes] = []
    outcome = stream_rg([sys.executable, "-c", script], cwd=tmp_path, env={}, on_chunk=chunks.append, timeout=20)
    assert b"".join(chunks) == b"done\n"
    assert outcome.returncode == 2
    assert 0 < len(outcome.stderr) <= 64 * 1024


def test_globs_never_bring_back_gitignored_files(project: Path, ctx: ToolContext) -> None:
    _write(project, {".gitignore": "build/\ngen_*.py\n", "src/app.py": "needle\n", "src/gen_api.py": "needle\n"})
    assert _run(ctx, pattern="needle", glob="*.py") == "src/app.py:1: needle"
    assert _run(ctx, pattern="needle", glob="src/**/*.py") == "src/app.py:1: needle"
    assert _run(ctx, pattern="needle", glob="**/*.py") == "src/app.py:1: needle"
    assert (
        _run(ctx, pattern="needle", glob="*")
        == "notes.txt:1: a needle here\nnotes.txt:3: another needle\nsrc/app.py:1: needle"
    )


def test_a_path_glob_narrows_grep_to_its_directory(project: Path, ctx: ToolContext) -> None:
    _write(project, {"web/sub/deep.js": "function render() {}\n"})
    assert _run(ctx, pattern="render", glob="web/*.js").splitlines()[0] == "web/app.js:3: function render(items) {"
    assert "web/sub/deep.js:1: function render() {}" not in _run(ctx, pattern="render", glob="web/*.js")
    assert "web/sub/deep.js:1: function render() {}" in _run(ctx, pattern="render", glob="web/**/*.js")
    assert _run(ctx, pattern="render", glob="nowhere/**/*.js").startswith("no matches")
    assert _run(ctx, pattern="render", glob="web/**", path="pkg").startswith("no matches")


# ---- find_files -------------------------------------------------------------------------------------------


def test_find_files_matches_globs_and_skips_ignored_files(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, action="find_files", pattern="**/*.py") == "calc.py"
    assert _run(ctx, action="find_files", pattern="*.go") == "pkg/shapes/shapes.go"
    assert _run(ctx, action="find_files", pattern="calc.py") == "calc.py"
    assert _run(ctx, action="find_files", pattern="web/*") == "web/app.js\nweb/types.ts"
    assert _run(ctx, action="find_files", pattern="*.txt") == "notes.txt"


def test_find_files_caps_with_a_count(project: Path, ctx: ToolContext) -> None:
    _write(project, {f"gen/m{n:02d}.py": "" for n in range(12)})
    out = _run(ctx, action="find_files", pattern="gen/*.py", max_results=5).splitlines()
    assert out[:5] == [f"gen/m{n:02d}.py" for n in range(5)]
    assert out[5] == "… 7 more files not shown; narrow the glob or path"


def test_find_files_turns_a_bare_word_into_a_name_search(project: Path, ctx: ToolContext) -> None:
    out = _run(ctx, action="find_files", pattern="shape")
    assert out.splitlines() == ["no file is named 'shape'; files whose name contains it:", "pkg/shapes/shapes.go"]


def test_find_files_with_no_match_explains_globs(project: Path, ctx: ToolContext) -> None:
    out = _run(ctx, action="find_files", pattern="*.java")
    assert out.startswith("no files match '*.java'")
    assert "src/**/*.py" in out


def test_find_files_under_a_path(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, action="find_files", pattern="*", path="web") == "web/app.js\nweb/types.ts"


def test_find_files_never_lists_gitignored_files(project: Path, ctx: ToolContext) -> None:
    _write(project, {".gitignore": "build/\ngen_*.py\n", "src/app.py": "", "src/gen_api.py": ""})
    for glob in ("*.py", "**/*.py", "src/*.py", "src/**", "gen_*"):
        out = _run(ctx, action="find_files", pattern=glob)
        assert "gen_api.py" not in out, glob
        assert "build/" not in out, glob
    assert _run(ctx, action="find_files", pattern="*").splitlines() == [
        ".gitignore",
        "README.md",
        "calc.py",
        "data.bin",
        "native/src/lib.rs",
        "notes.txt",
        "pkg/shapes/shapes.go",
        "src/app.py",
        "web/app.js",
        "web/types.ts",
    ]


def test_find_files_path_globs_keep_ripgreps_meaning(project: Path, ctx: ToolContext) -> None:
    _write(project, {"web/sub/deep.js": "", "web/sub/more/deeper.js": ""})
    assert _run(ctx, action="find_files", pattern="web/*.js") == "web/app.js"
    assert (
        _run(ctx, action="find_files", pattern="web/**/*.js") == "web/app.js\nweb/sub/deep.js\nweb/sub/more/deeper.js"
    )
    assert _run(ctx, action="find_files", pattern="/web/sub/*") == "web/sub/deep.js"
    assert _run(ctx, action="find_files", pattern="web/**", path="web/sub/more") == "web/sub/more/deeper.js"
    assert _run(ctx, action="find_files", pattern="web/*", path="web/sub").startswith("no files match")
    assert _run(ctx, action="find_files", pattern="*/sub/*.js") == "web/sub/deep.js"
    assert _run(ctx, action="find_files", pattern="**/sub/*.js") == "web/sub/deep.js"
    assert _run(ctx, action="find_files", pattern="**/more/**") == "web/sub/more/deeper.js"


def test_find_files_ignore_case_matches_either_case(project: Path, ctx: ToolContext) -> None:
    _write(project, {"docs/README.MD": "", "docs/notes.Md": ""})
    assert (
        _run(ctx, action="find_files", pattern="*.md", path="docs", ignore_case=True) == "docs/README.MD\ndocs/notes.Md"
    )
    assert _run(ctx, action="find_files", pattern="*.md", path="docs").startswith("no files match")
    assert _run(ctx, action="find_files", pattern="CALC") == (
        "no file is named 'CALC'; files whose name contains it:\ncalc.py"
    )


# ---- find_definition --------------------------------------------------------------------------------------


_DEFINITION_ROW = re.compile(r"^\S+:\d+: (?:function|method|class|struct|interface|type|const|variable|impl) [\w.$]+$")


def _definitions(out: str) -> list[str]:
    """The `path:line: kind name` rows of a find_definition answer, without the units' lines and the callers."""
    return [line for line in out.splitlines() if _DEFINITION_ROW.match(line)]


def test_find_definition_python_acceptance(project: Path, ctx: ToolContext) -> None:
    out = _run(ctx, action="find_definition", name="mul")
    assert out.splitlines() == [
        "calc.py:5: function mul",
        "calc.py:5: def mul(a, b):",
        "calc.py:6:     return a * b",
        "",
        "calc.py:13: method Calc.mul",
        "calc.py:13:     def mul(self, x):",
        "calc.py:14:         self.total *= x",
        "calc.py:15:         return self.total",
    ]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("NewSquare", "pkg/shapes/shapes.go:15: function NewSquare"),
        ("Square", "pkg/shapes/shapes.go:7: struct Square"),
        ("Unit", "pkg/shapes/shapes.go:19: const Unit"),
        ("render", "web/app.js:3: function render"),
        ("helper", "web/app.js:13: function helper"),
        ("Widget.draw", "web/app.js:8: method Widget.draw"),
        ("Point", "web/types.ts:1: interface Point"),
        ("Id", "web/types.ts:6: type Id"),
        ("distance", "web/types.ts:8: function distance"),
        ("Counter", "native/src/lib.rs:1: struct Counter\nnative/src/lib.rs:5: impl Counter"),
        ("bump", "native/src/lib.rs:6: method Counter.bump"),
        ("Calc.mul", "calc.py:13: method Calc.mul"),
    ],
)
def test_find_definition_in_each_language(project: Path, ctx: ToolContext, name: str, expected: str) -> None:
    assert _definitions(_run(ctx, action="find_definition", name=name)) == expected.splitlines()


def test_find_definition_of_a_go_method_lists_the_interface_and_the_implementation(
    project: Path, ctx: ToolContext
) -> None:
    assert _definitions(_run(ctx, name="Area")) == [
        "pkg/shapes/shapes.go:4: method Shape.Area",
        "pkg/shapes/shapes.go:11: method Square.Area",
    ]


def test_find_definition_accepts_what_small_models_send(project: Path, ctx: ToolContext) -> None:
    assert _definitions(_run(ctx, action="find_definition", name="def add()")) == ["calc.py:1: function add"]
    assert _definitions(_run(ctx, action="definition", pattern="add")) == ["calc.py:1: function add"]


def test_find_definition_not_found_points_at_grep(project: Path, ctx: ToolContext) -> None:
    out = _run(ctx, name="total")
    assert out.startswith("no definition of 'total' found; it is mentioned in 1 file(s) (calc.py)")
    assert _run(ctx, name="nowhere_name").startswith("'nowhere_name' does not occur")


def test_find_definition_names_the_lines_that_call_it(project: Path, ctx: ToolContext) -> None:
    _write(project, {"main.py": "from calc import add, Calc\n\nprint(add(1, 2))\nc = Calc()\nc.mul(3)\n"})
    out = _run(ctx, name="add")
    assert out.split("\n\n")[-1].splitlines() == ["called at (1 line):", "main.py:3: print(add(1, 2))"]
    # A method by its qualified name is called as an attribute, and another function of its name is no caller.
    assert _run(ctx, name="Calc.mul").split("\n\n")[-1].splitlines() == ["called at (1 line):", "main.py:5: c.mul(3)"]
    # A class is used, not only called.
    assert _run(ctx, name="Calc").split("\n\n")[-1].splitlines() == [
        "used at (2 lines):",
        "main.py:1: from calc import add, Calc",
        "main.py:4: c = Calc()",
    ]


def test_find_definition_in_a_long_module_shows_the_unit_never_the_module(repo: Path, ctx: ToolContext) -> None:
    filler = "".join(f"def f{n}(x):\n    return x + {n}\n\n\n" for n in range(1250))
    body = "".join(f"    total += {n}\n" for n in range(60))
    _write(repo, {"big.py": f"{filler}def target(x):\n    total = x\n{body}    return total\n\n\nf0(target(1))\n"})
    start = 1250 * 4 + 1
    out = _run(ctx, name="target")
    lines = out.splitlines()
    assert lines[:3] == [
        f"big.py:{start}: function target",
        f"big.py:{start}: def target(x):",
        f"big.py:{start + 1}:     total = x",
    ]
    unit = [line for line in lines if line.startswith("big.py:") and not line.endswith("function target")]
    assert len(unit) == definitions.UNIT_LINES + 1  # the unit's first lines, and its one caller
    assert f"… 23 more lines: read big.py lines {start + definitions.UNIT_LINES}-{start + 62}" in lines
    assert lines[-2:] == ["called at (1 line):", f"big.py:{start + 65}: f0(target(1))"]
    assert "def f7(x):" not in out


def test_find_definition_shows_no_unit_where_a_name_has_many(repo: Path, ctx: ToolContext) -> None:
    _write(repo, {f"m{n}.py": "def run():\n    return 1\n" for n in range(3)})
    assert _run(ctx, name="run").splitlines() == [f"m{n}.py:1: function run" for n in range(3)]


def test_find_definition_rejects_text_that_is_not_a_name(project: Path, ctx: ToolContext) -> None:
    with pytest.raises(ToolFailure, match="not a name"):
        _run(ctx, name="a + b")


def test_find_definition_ignores_ignored_files(project: Path, ctx: ToolContext) -> None:
    assert "build/" not in _run(ctx, name="mul")


# ---- arguments --------------------------------------------------------------------------------------------


def test_action_is_inferred_from_the_other_keys() -> None:
    assert SearchArgs.model_validate({"pattern": "x"}).action == "grep"
    assert SearchArgs.model_validate({"name": "x"}).action == "find_definition"
    found = SearchArgs.model_validate({"glob": "*.py"})
    assert (found.action, found.pattern) == ("find_files", "*.py")
    aliased = SearchArgs.model_validate({"action": "Find-Files", "query": "*.go", "file_path": "src", "limit": "5"})
    assert (aliased.action, aliased.pattern, aliased.path, aliased.max_results) == ("find_files", "*.go", "src", 5)
    assert SearchArgs.model_validate({"pattern": 404}).pattern == "404"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"action": "grep"}, "needs a non-empty `pattern`"),
        ({"action": "find_files", "pattern": ""}, "needs a non-empty `pattern`"),
        ({"action": "find_definition"}, "needs `name`"),
        ({"action": "explode", "pattern": "x"}, "grep"),
        ({"pattern": "x", "max_results": 0}, "greater than or equal to 1"),
    ],
)
def test_bad_arguments_say_what_is_needed(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        SearchArgs.model_validate(arguments)
