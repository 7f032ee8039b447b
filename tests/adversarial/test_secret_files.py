"""Secret files in the repository through the real loop: bash, the file tool and search must not hand them over."""

from __future__ import annotations

from harness import Arena, bash, call, check_invariants, job_files_text, run_case
from repo_util import git

# Values no redaction pattern knows: only the repository's secret files say they are secret.
DB_PASSWORD = "correct-horse-battery-staple-42"
SESSION_SECRET = "pl4nted-session-secret-e1f0"
DIRENV_TOKEN = "direnv-planted-token-5c3d"
NPM_TOKEN = "npm-planted-token-7c1e9a"
PYPI_PASSWORD = "pypi-planted-password-9d2f"
KEY_MATERIAL = "planted-key-material-31ab"
P12_MATERIAL = "planted-p12-material-5e7a"
AWS_PROFILE_SECRET = "planted-aws-profile-secret-0c4b"


def plant_env_files(arena: Arena) -> None:
    (arena.root / ".env").write_text(f"DB_PASSWORD={DB_PASSWORD}\nDEBUG=1\n")
    (arena.root / ".env.local").write_text(f'export SESSION_SECRET="{SESSION_SECRET}"\n')
    (arena.root / ".envrc").write_text(f"export DIRENV_TOKEN={DIRENV_TOKEN}\n")


def test_hole_4_bash_cat_env_never_reaches_the_model(arena: Arena, sandbox: str) -> None:
    """Default mode: `cat .env` is a plain read the policy allows; what it prints must still carry no secret value."""
    plant_env_files(arena)
    commands = ["cat .env", "cat .env.local .envrc", "grep -r PASSWORD . || true", "base64 .env"]
    run = run_case(arena, [bash(command) for command in commands])

    sent, logged = run.everything_sent(), job_files_text(arena.root, run.job_id)
    for secret in (DB_PASSWORD, SESSION_SECRET, DIRENV_TOKEN):
        assert secret not in sent, (sandbox, secret)
        assert secret not in logged, (sandbox, secret)
    assert "exit code 0" in run.answer(0), run.answer(0)  # cat .env runs; only its secret values are withheld
    check_invariants(run)


def test_hole_5_file_tool_asks_before_reading_every_secret_file(arena: Arena) -> None:
    """With --no-input nobody can approve, so each read is refused and nothing of the file reaches the model."""
    planted = {
        ".npmrc": f"//registry.npmjs.org/:_authToken={NPM_TOKEN}\n",
        ".pypirc": f"[pypi]\nusername = __token__\npassword = {PYPI_PASSWORD}\n",
        "x.key": f"{KEY_MATERIAL}\n",
        "certs/cert.p12": f"{P12_MATERIAL}\n",
        ".aws/credentials": f"[default]\nprofile_secret = {AWS_PROFILE_SECRET}\n",
    }
    for rel, text in planted.items():
        (arena.root / rel).parent.mkdir(parents=True, exist_ok=True)
        (arena.root / rel).write_text(text)
    run = run_case(arena, [call("file", {"action": "read", "path": rel}) for rel in planted])

    for index, rel in enumerate(planted):
        answer = run.answer(index)
        assert "ERROR (denied)" in answer and "secret" in answer, (rel, answer)
    sent = run.everything_sent()
    for secret in (NPM_TOKEN, PYPI_PASSWORD, KEY_MATERIAL, P12_MATERIAL, AWS_PROFILE_SECRET):
        assert secret not in sent, secret
    check_invariants(run, refused=range(len(planted)))


def test_hole_5_search_never_shows_envrc_contents(arena: Arena) -> None:
    (arena.root / ".envrc").write_text(f"export DIRENV_TOKEN={DIRENV_TOKEN}\n")
    (arena.root / "src" / "settings.py").write_text("DIRENV_TOKEN = os.environ['DIRENV_TOKEN']\n")
    git(arena.root, "add", ".envrc", "src/settings.py")
    git(arena.root, "commit", "-qm", "direnv")
    searches = [
        {"action": "grep", "pattern": "DIRENV_TOKEN"},
        {"action": "grep", "pattern": "planted", "literal": True},
        {"action": "grep", "pattern": "export", "glob": ".envrc"},
        {"action": "find_definition", "name": "DIRENV_TOKEN"},
    ]
    run = run_case(arena, [call("search", body) for body in searches])

    assert DIRENV_TOKEN not in run.everything_sent()
    assert "src/settings.py:1:" in run.answer(0), run.answer(0)
    assert "not searched" in run.answer(0), "the result says that a secret file was skipped"
    check_invariants(run)


def test_a_glob_with_a_wildcard_folder_never_searches_a_key(arena: Arena) -> None:
    """Such a glob reaches ripgrep as an override, which lets a file in without asking the secret file types."""
    (arena.root / "deploy").mkdir()
    (arena.root / "deploy" / "server.key").write_text(f"{KEY_MATERIAL}\n")
    (arena.root / "deploy" / "notes.txt").write_text("the key material lives in server.key\n")
    searches = [
        {"action": "grep", "pattern": "material", "glob": "*/*"},
        {"action": "grep", "pattern": "planted", "glob": "**/deploy/*.key"},
    ]
    run = run_case(arena, [call("search", body) for body in searches])

    assert KEY_MATERIAL not in run.everything_sent()
    assert "deploy/notes.txt:1:" in run.answer(0), run.answer(0)
    for index in range(len(searches)):
        assert "1 file that may hold secrets was not searched" in run.answer(index), run.answer(index)
    check_invariants(run)


def test_a_secret_the_model_saw_hidden_is_never_overwritten_by_its_redaction_mark(arena: Arena) -> None:
    """The model reads a file that holds a secret's value, sees the redaction mark in its place, and writes the file
    back with the mark: the write is refused and the file keeps its secret, whichever tool writes."""
    plant_env_files(arena)
    settings = arena.root / "src" / "settings.py"
    original = f'DB_PASSWORD = "{DB_PASSWORD}"\nDEBUG = True\n'
    settings.write_text(original)
    git(arena.root, "add", "src/settings.py")
    git(arena.root, "commit", "-qm", "settings")
    written_back = 'DB_PASSWORD = "[REDACTED:env_value]"\nDEBUG = False\n'
    run = run_case(
        arena,
        [
            call("file", {"action": "read", "path": "src/settings.py"}),
            call("file", {"action": "write", "path": "src/settings.py", "content": written_back}),
            call(
                "code_edit",
                {
                    "action": "replace",
                    "path": "src/settings.py",
                    "old": "DEBUG = True",
                    "new": 'DB_PASSWORD = "[REDACTED:env_value]"\nDEBUG = False',
                },
            ),  # fmt: skip
            call(
                "code_edit", {"action": "replace", "path": "src/settings.py", "old": "DEBUG = True", "new": "DEBUG = 0"}
            ),
        ],
    )
    assert "[REDACTED:env_value]" in run.answer(0) and DB_PASSWORD not in run.everything_sent()
    for index in (1, 2):
        assert "ERROR" in run.answer(index) and "stands for a secret" in run.answer(index), run.answer(index)
    # An edit beside the secret's line still works, and the secret is still there.
    assert settings.read_text() == f'DB_PASSWORD = "{DB_PASSWORD}"\nDEBUG = 0\n'
