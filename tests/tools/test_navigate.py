"""The navigate tool on real temporary git repositories: list_dir, outline and imports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from pedro.tools.base import ToolContext, ToolFailure
from pedro.tools.navigate import MAX_FILES_PER_DIR, NavigateArgs, NavigateTool

SERVICE_PY = """\
import os
import sys as system
from collections import (
    OrderedDict,
    defaultdict,
)
from . import helpers


class Service:
    \"\"\"A service.\"\"\"

    def __init__(self, name):
        self.name = name

    @property
    def label(self):
        return self.name.upper()


def main():
    import json

    return json.dumps({})
"""

MAIN_GO = """\
package main

import (
	"fmt"
	str "strings"
)

import "os"

type Server struct {
	Addr string
}

func (s *Server) Start() error {
	fmt.Println(str.ToUpper(s.Addr))
	return nil
}

func main() {
	os.Exit(0)
}
"""

APP_TS = """\
import { readFile } from "node:fs/promises";
import type { Config } from "./config";
export * from "./util";
const legacy = require("legacy-lib");

export class App {
  constructor(private config: Config) {}

  async load(path: string): Promise<string> {
    const mod = await import("./plugin");
    return readFile(path, "utf8");
  }
}

export function start(): App {
  return new App({} as Config);
}
"""

MAIN_RS = """\
use std::collections::HashMap;
use std::io::{self,
    Write};
mod config;

fn main() {
    let mut map = HashMap::new();
    map.insert(1, 2);
}
"""

MAIN_C = """\
#include <stdio.h>
#include "util.h"

int main(void)
{
    printf("hi\\n");
    return 0;
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
    """The sample repository with nested sources, an ignored build/ directory and a binary file."""
    _write(
        repo,
        {
            ".gitignore": "build/\n*.log\n",
            "app/service.py": SERVICE_PY,
            "app/helpers.py": "def helper():\n    pass\n",
            "app/deep/deeper/x.py": "X = 1\n",
            "app/deep/deeper/y.py": "Y = 2\n",
            "cmd/main.go": MAIN_GO,
            "web/app.ts": APP_TS,
            "native/main.rs": MAIN_RS,
            "native/main.c": MAIN_C,
            "build/out.o": b"\x7fELF\x00\x00",
            "run.log": "noise\n",
            "logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00",
        },
    )
    return repo


def _run(ctx: ToolContext, **arguments: Any) -> str:
    return NavigateTool().run(NavigateArgs.model_validate(arguments), ctx)


# ---- list_dir ---------------------------------------------------------------------------------------------


def test_list_dir_draws_a_gitignore_aware_tree_directories_first(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, action="list_dir").splitlines() == [
        "./ (11 files)",
        "  app/",
        "    deep/ (2 files)",
        "    helpers.py",
        "    service.py",
        "  cmd/",
        "    main.go",
        "  native/",
        "    main.c",
        "    main.rs",
        "  web/",
        "    app.ts",
        "  .gitignore",
        "  README.md",
        "  logo.png",
    ]


def test_list_dir_depth_one_counts_what_each_directory_hides(project: Path, ctx: ToolContext) -> None:
    out = _run(ctx, action="list_dir", depth=1).splitlines()
    assert out[:5] == ["./ (11 files)", "  app/ (4 files)", "  cmd/ (1 file)", "  native/ (2 files)", "  web/ (1 file)"]
    assert "build" not in "\n".join(out)
    assert "run.log" not in "\n".join(out)


def test_list_dir_of_a_subdirectory_with_more_depth(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, path="app", depth=3).splitlines() == [
        "app/ (4 files)",
        "  deep/",
        "    deeper/",
        "      x.py",
        "      y.py",
        "  helpers.py",
        "  service.py",
    ]


def test_list_dir_caps_a_crowded_directory(project: Path, ctx: ToolContext) -> None:
    _write(project, {f"many/f{n:03d}.txt": "" for n in range(MAX_FILES_PER_DIR + 15)})
    out = _run(ctx, action="list_dir", path="many").splitlines()
    assert out[0] == f"many/ ({MAX_FILES_PER_DIR + 15} files)"
    assert out[-1] == "  … 15 more files here; use search find_files to filter"
    assert len(out) == MAX_FILES_PER_DIR + 2


def test_list_dir_explains_a_directory_whose_files_are_all_ignored(project: Path, ctx: ToolContext) -> None:
    (project / "empty").mkdir()
    assert _run(ctx, action="list_dir", path="empty") == "empty/ is empty"
    # An ignored directory named explicitly is still listed: the model asked for it.
    assert _run(ctx, action="list_dir", path="build").splitlines() == ["build/ (1 file)", "  out.o"]


def test_list_dir_on_a_file_gives_its_outline(project: Path, ctx: ToolContext) -> None:
    out = _run(ctx, action="list_dir", path="app/helpers.py")
    assert out.splitlines()[:3] == [
        "app/helpers.py is a file, not a directory; its outline:",
        "app/helpers.py: 2 lines, 1 symbol",
        "1-2 function helper",
    ]


def test_a_missing_path_suggests_similar_names(project: Path, ctx: ToolContext) -> None:
    with pytest.raises(ToolFailure, match=r"did you mean: app/service\.py"):
        _run(ctx, action="outline", path="app/servce.py")


# ---- outline ----------------------------------------------------------------------------------------------


def test_outline_python_line_ranges_with_methods_indented(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, action="outline", path="app/service.py").splitlines() == [
        "app/service.py: 24 lines, 4 symbols",
        "10-18 class Service",
        "  13-14 method __init__",
        "  17-18 method label",
        "21-24 function main",
    ]


def test_outline_follows_edits_to_the_file(project: Path, ctx: ToolContext) -> None:
    first = _run(ctx, action="outline", path="app/helpers.py")
    assert first.splitlines() == ["app/helpers.py: 2 lines, 1 symbol", "1-2 function helper"]
    assert _run(ctx, action="outline", path="app/helpers.py") == first
    (project / "app/helpers.py").write_text("def helper():\n    pass\n\n\nclass Extra:\n    pass\n")
    assert _run(ctx, action="outline", path="app/helpers.py").splitlines() == [
        "app/helpers.py: 6 lines, 2 symbols",
        "1-2 function helper",
        "5-6 class Extra",
    ]
    (project / "app/copy.py").write_text("def helper():\n    pass\n")
    assert _run(ctx, action="outline", path="app/copy.py").startswith("app/copy.py: 2 lines, 1 symbol")


def test_outline_go(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, action="outline", path="cmd/main.go").splitlines()[1:] == [
        "10-12 struct Server",
        "14-17 method Server.Start",
        "19-21 function main",
    ]


def test_outline_typescript(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, path="web/app.ts").splitlines()[1:] == [
        "6-13 class App",
        "  7-7 method constructor",
        "  9-12 method load",
        "15-17 function start",
    ]


def test_outline_falls_back_to_regexes_for_other_languages(project: Path, ctx: ToolContext) -> None:
    out = _run(ctx, action="outline", path="native/main.c").splitlines()
    assert out == [
        "native/main.c: 8 lines, 1 symbol, ranges approximate (no parser for this language)",
        "4-8 function main",
    ]


def test_outline_of_a_binary_file_is_refused(project: Path, ctx: ToolContext) -> None:
    with pytest.raises(ToolFailure, match="binary file"):
        _run(ctx, action="outline", path="logo.png")


def test_outline_without_symbols_says_so(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, action="outline", path="README.md").startswith("README.md: 1 line; no classes or functions")


def test_outline_of_a_directory_lists_it(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, action="outline", path="cmd").splitlines() == [
        "cmd is a directory, not a file; its contents:",
        "cmd/ (1 file)",
        "  main.go",
    ]


# ---- imports ----------------------------------------------------------------------------------------------


def test_imports_python_including_multiline_and_local(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, action="imports", path="app/service.py").splitlines() == [
        "app/service.py: 5 imports",
        "1: import os",
        "2: import sys as system",
        "3: from collections import (OrderedDict, defaultdict,)",
        "7: from . import helpers",
        "22: import json",
    ]


def test_imports_go_blocks(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, action="imports", path="cmd/main.go").splitlines() == [
        "cmd/main.go: 3 imports",
        '4: "fmt"',
        '5: str "strings"',
        '8: "os"',
    ]


def test_imports_typescript_import_export_require_and_dynamic(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, action="imports", path="web/app.ts").splitlines() == [
        "web/app.ts: 5 imports",
        '1: import {readFile} from "node:fs/promises";',
        '2: import type {Config} from "./config";',
        '3: export * from "./util";',
        '4: require("legacy-lib")',
        '10: import("./plugin")',
    ]


def test_imports_fallback_for_rust_and_c(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, action="imports", path="native/main.rs").splitlines() == [
        "native/main.rs: 3 imports",
        "1: use std::collections::HashMap;",
        "2: use std::io::{self, Write};",
        "4: mod config;",
    ]
    assert _run(ctx, action="imports", path="native/main.c").splitlines() == [
        "native/main.c: 2 imports",
        "1: #include <stdio.h>",
        '2: #include "util.h"',
    ]


def test_imports_none(project: Path, ctx: ToolContext) -> None:
    assert _run(ctx, action="imports", path="app/helpers.py") == "app/helpers.py: no imports found"


# ---- arguments --------------------------------------------------------------------------------------------


def test_action_is_inferred_from_the_other_keys() -> None:
    assert NavigateArgs.model_validate({}).action == "list_dir"
    assert NavigateArgs.model_validate({"path": "src"}).action == "list_dir"
    assert NavigateArgs.model_validate({"path": "src/app.py"}).action == "outline"
    assert NavigateArgs.model_validate({"path": "src", "depth": 3}).action == "list_dir"
    aliased = NavigateArgs.model_validate({"action": "ls", "directory": "pkg"})
    assert (aliased.action, aliased.path) == ("list_dir", "pkg")
    assert NavigateArgs.model_validate({"action": "symbols", "file_path": "a.go"}).action == "outline"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"action": "outline"}, "needs `path`"),
        ({"action": "imports", "path": " "}, "needs `path`"),
        ({"action": "walk"}, "list_dir"),
        ({"action": "list_dir", "depth": -1}, "greater than or equal to 0"),
    ],
)
def test_bad_arguments_say_what_is_needed(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        NavigateArgs.model_validate(arguments)
