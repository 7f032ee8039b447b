"""Child environment scrubbing and redaction: real secrets shapes, real stdlib sources, a real child process."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

from pedro.safety.secrets import Redactor, child_environment, redact, secret_file_values, secret_values

# Fake but correctly shaped secrets (none of them is a live credential).
GH = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
SAMPLES: list[tuple[str, str]] = [
    ("OPENAI_API_KEY=sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34", "openai_key"),
    ("key: sk-ant-api03-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56", "anthropic_key"),
    (f"token {GH}", "github_token"),
    ("gho_" + "Z" * 36, "github_token"),
    ("ghs_" + "a1" * 18, "github_token"),
    ("ghu_" + "b2" * 18, "github_token"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789", "github_token"),
    ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "aws_access_key"),
    ("ASIAY34FZKBOKMUTVV7A", "aws_access_key"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret"),
    ("xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "slack_token"),
    ("AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "google_api_key"),
    (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "jwt",
    ),
    ("Authorization: Bearer abcdef0123456789abcdef", "authorization"),
    ("authorization: Basic dXNlcjpwYXNzd29yZA==", "authorization"),
    ("curl -H 'Authorization: token 0123456789abcdef0123'", "authorization"),
    ("https://deploy:hunter2hunter2@git.example.com/repo.git", "url_credentials"),
]
PEM = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "-----END OPENSSH PRIVATE KEY-----\n"
)


@pytest.mark.parametrize(("text", "kind"), SAMPLES)
def test_known_patterns_are_redacted(text: str, kind: str) -> None:
    out = redact(text)
    assert f"[REDACTED:{kind}]" in out, out
    secret = text.split()[-1].strip("'")
    assert secret not in out


def test_pem_block_is_removed_whole_even_when_cut() -> None:
    out = redact("before\n" + PEM + "after")
    assert out == "before\n[REDACTED:private_key]\nafter"
    cut = redact("x\n" + PEM[:90])
    assert "b3BlbnNzaC1rZXkt" not in cut and "[REDACTED:private_key]" in cut


def test_header_name_is_kept() -> None:
    assert redact("Authorization: Bearer abcdef0123456789abcdef") == "Authorization: [REDACTED:authorization]"


def test_environment_values_are_redacted() -> None:
    env = {"MY_SERVICE_TOKEN": "s3cr3t-value-42", "SHORT_KEY": "abc", "HOME": "/root"}
    redactor = Redactor(secret_values(env))
    out = redactor.redact("the token is s3cr3t-value-42 and abc stays, so does /root")
    assert out == "the token is [REDACTED:env_value] and abc stays, so does /root"


def _stdlib_sources() -> list[Path]:
    lib = Path(sysconfig.get_paths()["stdlib"])
    names = [
        "urllib/request.py",
        "http/client.py",
        "base64.py",
        "hashlib.py",
        "secrets.py",
        "smtplib.py",
        "ssl.py",
        "email/utils.py",
        "json/decoder.py",
        "netrc.py",
        "http/cookiejar.py",
        "ftplib.py",
    ]
    return [lib / n for n in names if (lib / n).is_file()]


@pytest.mark.parametrize("path", _stdlib_sources(), ids=lambda p: p.name)
def test_no_false_positives_on_ordinary_code(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert redact(text) == text


def test_own_sources_are_unchanged() -> None:
    root = Path(__file__).resolve().parents[2] / "pedro"
    changed = [p for p in root.rglob("*.py") if p.name != "secrets.py" and redact(t := p.read_text()) != t]
    assert changed == []


def test_redaction_is_fast_on_large_output() -> None:
    body = "\n".join(p.read_text(encoding="utf-8") for p in _stdlib_sources())
    big = (body * (2_000_000 // max(len(body), 1) + 1))[:2_000_000] + "\n" + GH
    redactor = Redactor(["value-of-a-secret-123", "another-secret-value"])
    start = time.perf_counter()
    out = redactor.redact(big)
    elapsed = time.perf_counter() - start
    assert out.endswith("[REDACTED:github_token]")
    assert elapsed < 2.0, f"2 MB took {elapsed:.2f}s"


def test_pathological_input_stays_linear() -> None:
    text = "-----BEGIN RSA PRIVATE KEY-----" * 2000 + "sk-" * 20000 + "eyJ" * 20000
    start = time.perf_counter()
    redact(text)
    assert time.perf_counter() - start < 2.0


def test_child_environment_keeps_the_allowlist_and_drops_secrets() -> None:
    environ = {
        "PATH": "/usr/bin",
        "HOME": "/home/u",
        "LANG": "C.UTF-8",
        "LC_ALL": "C",
        "GOPATH": "/go",
        "NPM_CONFIG_CACHE": "/c",
        "NPM_CONFIG__AUTHTOKEN": "abc",
        "PIP_INDEX_URL": "https://pypi.org/simple",
        "PIP_EXTRA_INDEX_URL": "https://user:pa55word@private.example/simple",
        "OPENAI_API_KEY": "sk-x",
        "GITHUB_TOKEN": "t",
        "AWS_SECRET_ACCESS_KEY": "s",
        "DB_PASSWORD": "p",
        "GOOGLE_APPLICATION_CREDENTIALS": "/k.json",
        "SSH_AUTH_SOCK": "/tmp/agent",
        "RANDOM_APP_SETTING": "1",
        "PYTHONPATH": "/src",
        "PYTEST_ADDOPTS": "-x",
        "PYTEST_CURRENT_TEST": "test_a.py::test_b (call)",
    }
    env = child_environment(environ)
    assert env == {
        "PATH": "/usr/bin",
        "HOME": "/home/u",
        "LANG": "C.UTF-8",
        "LC_ALL": "C",
        "GOPATH": "/go",
        "NPM_CONFIG_CACHE": "/c",
        "PIP_INDEX_URL": "https://pypi.org/simple",
        "PYTHONPATH": "/src",
        "PYTEST_ADDOPTS": "-x",
    }
    assert child_environment(environ, extra=["RANDOM_APP_SETTING", "MY_KEY"]).get("RANDOM_APP_SETTING") == "1"
    assert "MY_KEY" not in child_environment({"MY_KEY": "x"}, extra=["MY_KEY"])


def test_a_real_child_sees_no_secret() -> None:
    environ = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "SERVICE_API_KEY": "planted-key-1234567"}
    result = subprocess.run(
        [sys.executable, "-c", "import os; print(sorted(os.environ))"],
        env=child_environment(environ),
        capture_output=True,
        text=True,
        check=True,
    )
    assert "SERVICE_API_KEY" not in result.stdout
    assert "planted-key" not in Redactor(secret_values(environ)).redact("log: planted-key-1234567")


def test_values_from_the_repositorys_env_files_are_redacted(tmp_path: Path) -> None:
    (tmp_path / "web").mkdir()
    (tmp_path / ".env").write_text(
        "# local settings\n"
        "DB_PASSWORD=correcthorsebatterystaple\n"
        'export SESSION_SALT="8f3a9c2e-7b1d" # rotated monthly\n'
        "STRIPE=sk_live_51Habc123def456\n"
        "NODE_ENV=production\n"
        "API_URL=http://localhost:3000/api\n"
        "DATABASE_URL=postgres://app:hunter2hunter2@db:5432/app\n"
        "API_TOKEN=your-api-token-here\n"
        "SECRET_KEY=changeme\n"
        "PORT=8080\n"
    )
    (tmp_path / "web" / ".env.local").write_text("export NEXT_PUBLIC_KEY='pk_test_0123456789'\n")
    (tmp_path / ".envrc").write_text("use nix\nexport DIRENV_SECRET=abc123def456\n")
    (tmp_path / ".env.example").write_text("DB_PASSWORD=example-password-1234\n")
    found = set(secret_values({}, root=tmp_path))
    assert found == {
        "correcthorsebatterystaple",
        "8f3a9c2e-7b1d",
        "sk_live_51Habc123def456",
        "postgres://app:hunter2hunter2@db:5432/app",
        "pk_test_0123456789",
        "abc123def456",
    }
    shown = Redactor(found).redact("NODE_ENV=production on http://localhost:3000/api, port 8080, salt 8f3a9c2e-7b1d")
    assert shown == "NODE_ENV=production on http://localhost:3000/api, port 8080, salt [REDACTED:env_value]"


def test_the_values_a_secret_file_holds_are_redacted_and_its_keys_and_ordinary_words_are_not(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "kubeconfig").write_text(
        "apiVersion: v1\nclusters:\n- cluster:\n    server: https://10.0.0.1:6443\n  name: dev\n"
        "users:\n- name: dev\n  user:\n    token: kube-token-7f3a9c2e\n"
    )
    (repo / "credentials.json").write_text('{\n  "type": "service_account",\n  "private_key_id": "a1b2c3d4e5f6",\n}\n')
    (repo / "deploy.asc").write_text(
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGXk3u8BCADc9q+Zr/0Pq\n=Xk3u\n"
        "-----END PGP PRIVATE KEY BLOCK-----\n"
    )
    (repo / "keystore.jks").write_bytes(b"\xfe\xed\xfe\xed\0\0\0\x02binary-keystore-bytes")
    assert secret_file_values(repo / "kubeconfig") == ["kube-token-7f3a9c2e"]
    assert secret_file_values(repo / "credentials.json") == ["a1b2c3d4e5f6"]
    assert secret_file_values(repo / "deploy.asc") == ["lQOYBGXk3u8BCADc9q+Zr/0Pq"]
    assert secret_file_values(repo / "keystore.jks") == []
    redactor = Redactor(secret_values({}, root=repo))
    shown = redactor.redact("token kube-token-7f3a9c2e for dev at https://10.0.0.1:6443 (service_account)")
    assert shown == "token [REDACTED:env_value] for dev at https://10.0.0.1:6443 (service_account)"
