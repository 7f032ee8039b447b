"""PedroConfig layering, validation messages and the example file."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pedro.config import (
    ModelPresetConfig,
    PedroConfig,
    SamplingProfileConfig,
    base_url_problem,
    config_layers,
    key_sources,
    load_config,
    ollama_host_url,
)
from pedro.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent


TABLES_BY_NAME = {"sampling_profiles": SamplingProfileConfig, "models": ModelPresetConfig}


def test_example_config_parses_and_covers_every_field() -> None:
    text = (ROOT / "config.example.toml").read_text()
    data = tomllib.loads(text)
    config = PedroConfig.model_validate(data)
    assert config == PedroConfig(), "the example must show the defaults"
    for section, model in PedroConfig.model_fields.items():
        if section in TABLES_BY_NAME:
            # Tables by name have no default entries: the example shows one, commented out, with every key.
            heading = f"\n# [{section}."
            assert heading in text, f"no commented [{section}.NAME] example in config.example.toml"
            example = text.split(heading, 1)[1].split("\n\n", 1)[0]
            for key in TABLES_BY_NAME[section].model_fields:
                assert f"\n# {key} = " in example, f"[{section}.NAME] example lacks {key}"
            continue
        assert section in data, f"[{section}] missing from config.example.toml"
        assert model.annotation is not None
        fields = model.annotation.model_fields  # type: ignore[union-attr]
        unset = {name for name, field in fields.items() if field.default is None}
        assert set(data[section]) == set(fields) - unset, f"[{section}] keys differ from the model"
        for name in unset:  # no TOML value means "not set": shown commented out
            assert f"\n# {name} = " in text, f"[{section}] {name} is not shown (commented out) in the example"


def test_layers_apply_in_order(tmp_path: Path) -> None:
    user = tmp_path / "user.toml"
    user.write_text('[backend]\nmodel = "from-user"\nkind = "ollama"\n[agent]\nmax_rounds = 7\n')
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".pedro.toml").write_text('[backend]\nmodel = "from-repo"\n')
    env = {"PEDRO_AGENT__MAX_ROUNDS": "9"}
    config = load_config(repo, env=env, user_file=user, flags={"backend": {"model": "from-flag"}})
    assert config.backend.model == "from-flag"
    assert config.backend.kind == "ollama"
    assert config.agent.max_rounds == 9
    assert load_config(repo, env={}, user_file=user).backend.model == "from-repo"


def test_unknown_key_names_key_and_file(tmp_path: Path) -> None:
    (tmp_path / ".pedro.toml").write_text("[backend]\nmodle = 'x'\n")
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path, env={}, user_file=tmp_path / "none.toml")
    assert "backend.modle" in str(info.value)
    assert ".pedro.toml" in str(info.value)


def test_wrong_type_names_key_and_file(tmp_path: Path) -> None:
    user = tmp_path / "config.toml"
    user.write_text("[agent]\nmax_rounds = 'many'\n")
    with pytest.raises(ConfigError) as info:
        load_config(None, env={}, user_file=user)
    assert "agent.max_rounds" in str(info.value)
    assert str(user) in str(info.value)


def test_bad_environment_value_names_the_environment(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="environment"):
        load_config(None, env={"PEDRO_MAX_ROUNDS": "zero"}, user_file=tmp_path / "none.toml")
    with pytest.raises(ConfigError, match="PEDRO_NOPE__X"):
        load_config(None, env={"PEDRO_NOPE__X": "1"}, user_file=tmp_path / "none.toml")


@pytest.mark.parametrize(
    ("where", "text", "said"),
    [
        ("user", "[backend]\nmodle = 'x'\n", "unknown key 'backend.modle' (did you mean 'backend.model'?)"),
        ("repo", "[agent]\nmax_round = 3\n", "unknown key 'agent.max_round' (did you mean 'agent.max_rounds'?)"),
        ("repo", "[bakend]\nmodel = 'x'\n", "unknown key 'bakend' (did you mean 'backend'?)"),
        ("user", '[models."q*"]\ntool_mod = "text"\n', "(did you mean 'models.q*.tool_mode'?)"),
    ],
)
def test_a_misspelt_key_in_a_file_gets_the_close_one(tmp_path: Path, where: str, text: str, said: str) -> None:
    user = tmp_path / "user.toml"
    (user if where == "user" else tmp_path / ".pedro.toml").write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path, env={}, user_file=user)
    assert said in str(info.value)
    (user if where == "user" else tmp_path / ".pedro.toml").write_text("[agent]\nzzzz = 3\n")
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path, env={}, user_file=user)
    assert "unknown key 'agent.zzzz'." in str(info.value)  # nothing close: no guess


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"PEDRO_MAX_ROUNDS": "zero"}, "PEDRO_MAX_ROUNDS (agent.max_rounds): Input should be a valid integer"),
        ({"PEDRO_AGENT__MAX_ROUNDS": "0"}, "PEDRO_AGENT__MAX_ROUNDS (agent.max_rounds): Input should be greater"),
        ({"PEDRO_AGENT__MAX_ROUND": "3"}, "PEDRO_AGENT__MAX_ROUND: [agent] has no key 'max_round' (did you mean "
         "PEDRO_AGENT__MAX_ROUNDS?)"),
        ({"PEDRO_AGNT__MAX_ROUNDS": "3"}, "no config section [agnt] (did you mean PEDRO_AGENT__MAX_ROUNDS?)"),
        ({"PEDRO_BASE_URL": "http://x", "PEDRO_BACKEND__TEMPERATURE": "9"}, "PEDRO_BACKEND__TEMPERATURE"),
    ],
)  # fmt: skip
def test_an_environment_error_names_the_variable_that_was_set(tmp_path: Path, env: dict[str, str], said: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(None, env=env, user_file=tmp_path / "none.toml")
    assert said in str(info.value)


def test_repository_file_cannot_loosen_safety(tmp_path: Path) -> None:
    (tmp_path / ".pedro.toml").write_text("[safety]\nmode = 'full-access'\n")
    with pytest.raises(ConfigError, match="only tighten"):
        load_config(tmp_path, env={}, user_file=tmp_path / "none.toml")
    (tmp_path / ".pedro.toml").write_text("[safety]\nmode = 'read-only'\n")
    assert load_config(tmp_path, env={}, user_file=tmp_path / "none.toml").safety.mode == "read-only"


def test_full_access_comes_only_from_a_flag(tmp_path: Path) -> None:
    user = tmp_path / "user.toml"
    user.write_text("[safety]\nmode = 'full-access'\n")
    with pytest.raises(ConfigError, match="--full-access") as info:
        load_config(None, env={}, user_file=user)
    assert str(user) in str(info.value)
    with pytest.raises(ConfigError, match="--full-access"):
        load_config(None, env={"PEDRO_SAFETY__MODE": "full-access"}, user_file=tmp_path / "none.toml")
    flagged = load_config(None, env={}, user_file=tmp_path / "none.toml", flags={"safety": {"mode": "full-access"}})
    assert flagged.safety.mode == "full-access"


def test_approval_setting_and_its_default(tmp_path: Path) -> None:
    assert load_config(None, env={}, user_file=tmp_path / "none.toml").safety.approval == "ask"
    (tmp_path / ".pedro.toml").write_text("[safety]\napproval = 'never'\n")
    assert load_config(tmp_path, env={}, user_file=tmp_path / "none.toml").safety.approval == "never"
    (tmp_path / ".pedro.toml").write_text("[safety]\napproval = 'sometimes'\n")
    with pytest.raises(ConfigError, match="approval"):
        load_config(tmp_path, env={}, user_file=tmp_path / "none.toml")


def test_read_roots_only_from_the_user_file_or_flags(tmp_path: Path) -> None:
    user = tmp_path / "user.toml"
    user.write_text("[safety]\nread_roots = ['/opt/lib']\n")
    assert load_config(None, env={}, user_file=user).safety.read_roots == ["/opt/lib"]
    flagged = load_config(None, env={}, user_file=user, flags={"safety": {"read_roots": ["/srv/docs"]}})
    assert flagged.safety.read_roots == ["/srv/docs"]
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".pedro.toml").write_text("[safety]\nread_roots = ['/']\n")
    with pytest.raises(ConfigError, match="read_roots may only be set in your user config file") as info:
        load_config(repo, env={}, user_file=user)
    assert str(user) in str(info.value) and "--read-root" in str(info.value)
    with pytest.raises(ConfigError, match="read_roots"):
        load_config(None, env={"PEDRO_SAFETY__READ_ROOTS": "/"}, user_file=tmp_path / "none.toml")


@pytest.mark.parametrize(
    ("line", "key", "fix"),
    [
        ("base_url = 'http://collector.example:9000/v1'", "backend.base_url", "--base-url or PEDRO_BASE_URL"),
        ("api_key_env = 'AWS_SECRET_ACCESS_KEY'", "backend.api_key_env", "PEDRO_BACKEND__API_KEY_ENV"),
        ("model_file = '/tmp/evil.gguf'", "backend.model_file", "--model-file or PEDRO_MODEL_FILE"),
        ("kind = 'ollama'", "backend.kind", "--backend or PEDRO_BACKEND"),
    ],
)
def test_repository_file_cannot_choose_where_code_and_keys_go(tmp_path: Path, line: str, key: str, fix: str) -> None:
    user = tmp_path / "user.toml"
    user.write_text(f"[backend]\n{line}\n")
    assert load_config(None, env={}, user_file=user).backend.model_dump()[key.split(".")[1]]
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".pedro.toml").write_text(f"[backend]\nmodel = 'qwen'\n{line}\n")
    with pytest.raises(ConfigError) as info:
        load_config(repo, env={}, user_file=user)
    message = str(info.value)
    assert str(repo / ".pedro.toml") in message and key in message
    assert f"your user config file ({user})" in message and fix in message
    (repo / ".pedro.toml").write_text("[backend]\nmodel = 'qwen'\n")
    env = {"PEDRO_BACKEND__" + key.split(".")[1].upper(): line.split("'")[1]}
    assert load_config(repo, env=env, user_file=user).backend.model == "qwen"


@pytest.mark.parametrize(
    ("text", "key", "fix"),
    [
        (
            "[tool_calling]\nrequest_overrides = { grammar = 'root ::= \"x\"', max_tokens = 1, nonsense = 2 }\n",
            "tool_calling.request_overrides",
            "PEDRO_TOOL_CALLING__REQUEST_OVERRIDES",
        ),
        ("[backend]\nconstrain_calls = true\n", "backend.constrain_calls", "PEDRO_BACKEND__CONSTRAIN_CALLS"),
        ('[models."*"]\nconstrain_calls = true\n', 'models."*".constrain_calls', "PEDRO_BACKEND__CONSTRAIN_CALLS"),
    ],
)
def test_repository_file_cannot_shape_what_requests_carry(tmp_path: Path, text: str, key: str, fix: str) -> None:
    """Body keys (a grammar among them) and the call grammar come from the user's file or environment only."""
    user = tmp_path / "user.toml"
    user.write_text(text)
    mine = load_config(None, env={"PEDRO_MODEL": "m"}, user_file=user)
    assert mine.tool_calling.request_overrides or mine.backend.constrain_calls
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".pedro.toml").write_text("[agent]\nmax_rounds = 5\n" + text)
    with pytest.raises(ConfigError) as info:
        load_config(repo, env={}, user_file=tmp_path / "none.toml")
    message = str(info.value)
    assert str(repo / ".pedro.toml") in message and key in message and fix in message
    env = {"PEDRO_TOOL_CALLING__REQUEST_OVERRIDES": '{"seed": 3}', "PEDRO_BACKEND__CONSTRAIN_CALLS": "true"}
    (repo / ".pedro.toml").write_text("[agent]\nmax_rounds = 5\n")
    config = load_config(repo, env=env, user_file=tmp_path / "none.toml")
    assert (config.tool_calling.request_overrides, config.backend.constrain_calls) == ({"seed": 3}, True)


def test_invalid_toml_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / ".pedro.toml").write_text("[backend\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(tmp_path, env={}, user_file=tmp_path / "none.toml")


def test_base_url_defaults_and_ollama_host(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    config = PedroConfig()
    assert config.resolved_base_url() == "http://127.0.0.1:8080/v1"
    config.backend.kind = "ollama"
    assert config.resolved_base_url() == "http://127.0.0.1:11434"
    monkeypatch.setenv("OLLAMA_HOST", "0.0.0.0:9999")
    assert config.resolved_base_url() == "http://127.0.0.1:9999"
    config.backend.base_url = "http://box:1/"
    assert config.resolved_base_url() == "http://box:1"


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("htp:localhost:8080", "mistyped scheme: use http://localhost:8080"),
        ("htp://localhost:8080/v1", "mistyped scheme: use http://localhost:8080/v1"),
        ("http:/localhost:8080", "mistyped scheme: use http://localhost:8080"),
        ("htps://box", "mistyped scheme: use https://box"),
        ("localhost:8080", "has no scheme: add http:// (http://localhost:8080)"),
        ("ftp://box", "is not an http(s) URL"),
        ("http://localhost:8080", ""),
    ],
)
def test_a_mistyped_scheme_is_named_with_the_url_meant(url: str, said: str) -> None:
    problem = base_url_problem("openai", url)
    assert (said in problem) if said else problem == "", problem


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (
            "htp:localhost:11434",
            "OLLAMA_HOST=htp:localhost:11434 has a mistyped scheme: set it to http://localhost:11434",
        ),
        ("htp://localhost:11434", "set it to http://localhost:11434"),
        ("ftp://box:1", "OLLAMA_HOST=ftp://box:1 is not an http(s) address"),
    ],
)
def test_a_broken_ollama_host_is_a_config_error_naming_the_fix(
    value: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", value)
    config = PedroConfig()
    config.backend.kind = "ollama"
    with pytest.raises(ConfigError) as raised:
        config.resolved_base_url()
    assert said in str(raised.value)


def test_a_mistyped_openai_base_url_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "htp:box:8000/v1")
    with pytest.raises(ConfigError, match="OPENAI_BASE_URL: htp:box:8000/v1 has a mistyped scheme: use http://box"):
        PedroConfig().resolved_base_url()


def test_tool_calling_keys_come_from_files_and_the_environment(tmp_path: Path) -> None:
    user = tmp_path / "user.toml"
    user.write_text(
        "[tool_calling]\ntool_use_mode = 'enforced'\nmax_tool_calls_per_turn = 2\n"
        "request_overrides = { seed = 7 }\ndeny_tools = ['bash']\n"
    )
    env = {
        "PEDRO_TOOL_CALLING__TOOL_FAILURE_POLICY": "fatal",
        "PEDRO_TOOL_CALLING__MAX_TOOL_ARGS_BYTES": "4096",
        "PEDRO_TOOL_CALLING__MAX_TOOL_OUTPUT_BYTES": "2048",
        "PEDRO_TOOL_CALLING__FIX_EMPTY_FINAL": "false",
        "PEDRO_TOOL_CALLING__ALLOW_TOOLS": "file, search",
        "PEDRO_TOOL_CALLING__REQUEST_OVERRIDES": '{"seed": 9, "cache_prompt": false}',
        "PEDRO_TOOL_CALLING__SAMPLING_PROFILE": "precise",
    }
    calling = load_config(None, env=env, user_file=user).tool_calling
    assert calling.tool_use_mode == "enforced" and calling.tool_failure_policy == "fatal"
    assert (calling.max_tool_args_bytes, calling.max_tool_output_bytes, calling.max_tool_calls_per_turn) == (
        4096,
        2048,
        2,
    )
    assert calling.fix_empty_final is False
    assert calling.allow_tools == ["file", "search"] and calling.deny_tools == ["bash"]
    assert calling.request_overrides == {"seed": 9, "cache_prompt": False}
    assert calling.sampling_profile == "precise"


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"PEDRO_TOOL_CALLING__TOOL_USE_MODE": "always"}, "tool_calling.tool_use_mode"),
        ({"PEDRO_TOOL_CALLING__TOOL_FAILURE_POLICY": "lenient"}, "tool_calling.tool_failure_policy"),
        ({"PEDRO_TOOL_CALLING__MAX_TOOL_ARGS_BYTES": "10"}, "tool_calling.max_tool_args_bytes"),
        ({"PEDRO_TOOL_CALLING__ALLOW_TOOLS": "file,shell"}, "tool_calling.allow_tools"),
        ({"PEDRO_TOOL_CALLING__REQUEST_OVERRIDES": "seed=7"}, "tool_calling.request_overrides"),
        ({"PEDRO_TOOL_CALLING__SAMPLING_PROFILE": "wild"}, "tool_calling.sampling_profile = 'wild'"),
    ],
)
def test_bad_tool_calling_values_name_the_key(tmp_path: Path, env: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError, match="environment") as info:
        load_config(None, env=env, user_file=tmp_path / "none.toml")
    assert named in str(info.value)


def test_sampling_profiles_and_model_presets_are_validated(tmp_path: Path) -> None:
    user = tmp_path / "user.toml"
    user.write_text(
        "[sampling_profiles.careful]\ntemperature = 0.1\ntop_k = 40\n"
        "[tool_calling]\nsampling_profile = 'careful'\n"
        '[models."qwen*"]\nsampling_profile = "qwen_recommended"\ntool_mode = "native"\nconstrain_calls = false\n'
    )
    config = load_config(None, env={}, user_file=user)
    assert config.sampling_profiles["careful"].top_k == 40
    assert config.models["qwen*"].tool_mode == "native"
    user.write_text('[models."qwen*"]\nsampling_profile = "qwen_recomended"\n')
    with pytest.raises(ConfigError) as info:
        load_config(None, env={}, user_file=user)
    assert 'models."qwen*".sampling_profile' in str(info.value) and "qwen_recommended" in str(info.value)
    user.write_text("[sampling_profiles.hot]\ntemperature = 5.0\n")
    with pytest.raises(ConfigError, match="sampling_profiles.hot.temperature"):
        load_config(None, env={}, user_file=user)
    user.write_text('[models."qwen*"]\ntool_mode = "grammar"\n')
    with pytest.raises(ConfigError, match=r"models\.qwen\*\.tool_mode"):
        load_config(None, env={}, user_file=user)


PRESETS = """
[backend]
model = "qwen2.5-coder:7b"
temperature = 0.4
[models."qwen*"]
sampling_profile = "creative"
tool_mode = "text"
[models."qwen2.5-coder*"]
sampling_profile = "qwen_recommended"
tool_mode = "native"
constrain_calls = true
[models."gemma3:4b"]
sampling_profile = "gemma_recommended"
"""


def test_the_preset_for_the_model_applies_its_profile_tool_mode_and_grammar(tmp_path: Path) -> None:
    user = tmp_path / "user.toml"
    user.write_text(PRESETS)
    config = load_config(None, env={}, user_file=user)
    # The longer glob is the closer match; its profile's values replace the file's temperature.
    assert (config.backend.tool_mode, config.backend.constrain_calls) == ("native", True)
    assert config.tool_calling.sampling_profile == "qwen_recommended"
    assert (config.backend.temperature, config.backend.top_p, config.backend.top_k) == (0.7, 0.8, 20)
    assert (config.backend.min_p, config.backend.repeat_penalty) == (0.0, 1.05)
    sources = key_sources(config_layers(None, env={}, user_file=user))
    assert sources[("backend", "tool_mode")] == f'the preset [models."qwen2.5-coder*"] in {user}'
    assert sources[("backend", "top_k")] == 'the sampling profile "qwen_recommended"'
    # Another model, another preset; an exact name beats any glob.
    gemma = load_config(None, env={"PEDRO_MODEL": "gemma3:4b"}, user_file=user)
    assert (gemma.backend.temperature, gemma.backend.top_k, gemma.backend.tool_mode) == (1.0, 64, "auto")
    other = load_config(None, env={"PEDRO_MODEL": "llama3.2"}, user_file=user)
    assert (other.backend.temperature, other.backend.top_k, other.backend.tool_mode) == (0.4, None, "auto")


def test_the_environment_and_flags_win_over_presets_and_profiles(tmp_path: Path) -> None:
    user = tmp_path / "user.toml"
    user.write_text(PRESETS)
    env = {"PEDRO_TOOL_CALLING__SAMPLING_PROFILE": "precise", "PEDRO_BACKEND__TOOL_MODE": "auto"}
    config = load_config(None, env=env, user_file=user)
    assert config.tool_calling.sampling_profile == "precise"
    assert (config.backend.temperature, config.backend.top_k) == (0.0, None)
    assert (config.backend.tool_mode, config.backend.constrain_calls) == ("auto", True)
    flagged = load_config(None, env={}, user_file=user, flags={"backend": {"temperature": 0.3}})
    assert (flagged.backend.temperature, flagged.backend.top_k) == (0.3, 20)
    exact = load_config(None, env={"PEDRO_BACKEND__TOP_K": "5"}, user_file=user)
    assert exact.backend.top_k == 5


def test_user_profiles_replace_built_ins_and_presets_match_a_served_model_file(tmp_path: Path) -> None:
    user = tmp_path / "user.toml"
    user.write_text(
        "[backend]\nmodel_file = '/models/SmolLM2-135M-Instruct-Q8_0.gguf'\n"
        "[sampling_profiles.precise]\ntemperature = 0.05\nmin_p = 0.1\n"
        '[models."SmolLM2-*"]\nsampling_profile = "precise"\nconstrain_calls = true\n'
    )
    config = load_config(None, env={}, user_file=user)
    assert config.backend.constrain_calls is True
    assert (config.backend.temperature, config.backend.min_p, config.backend.top_p) == (0.05, 0.1, None)


def test_a_repository_file_may_hold_presets_below_the_users_environment(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".pedro.toml").write_text('[backend]\nmodel = "m1"\n[models."m*"]\nsampling_profile = "precise"\n')
    config = load_config(repo, env={}, user_file=tmp_path / "none.toml")
    assert config.backend.temperature == 0.0
    sources = key_sources(config_layers(repo, env={}, user_file=tmp_path / "none.toml"))
    assert sources[("tool_calling", "sampling_profile")] == f'the preset [models."m*"] in {repo / ".pedro.toml"}'


def test_the_moved_size_limits_name_their_new_home(tmp_path: Path) -> None:
    user = tmp_path / "user.toml"
    user.write_text("[tools]\nmax_output_bytes = 4096\n")
    with pytest.raises(
        ConfigError, match=r"\[tools\]\.max_output_bytes is now \[tool_calling\]\.max_tool_output_bytes"
    ):
        load_config(None, env={}, user_file=user)
    env = {"PEDRO_TOOLS__MAX_ARGUMENT_BYTES": "4096"}
    with pytest.raises(ConfigError, match="PEDRO_TOOL_CALLING__MAX_TOOL_ARGS_BYTES"):
        load_config(None, env=env, user_file=tmp_path / "none.toml")


# OLLAMA_HOST as Ollama's client reads it: envconfig.Host()'s cases, then ConnectableHost() for addresses to listen on.
@pytest.mark.parametrize(
    ("value", "url"),
    [
        ("", "http://127.0.0.1:11434"),
        ("1.2.3.4", "http://1.2.3.4:11434"),
        (":1234", "http://127.0.0.1:1234"),
        ("1.2.3.4:1234", "http://1.2.3.4:1234"),
        ("example.com", "http://example.com:11434"),
        ("example.com:1234", "http://example.com:1234"),
        (":66000", "http://127.0.0.1:11434"),
        (":-1", "http://127.0.0.1:11434"),
        ("example.com:port", "http://example.com:11434"),
        ("[::1]", "http://[::1]:11434"),
        ("::1", "http://[::1]:11434"),
        ("[::1]:1337", "http://[::1]:1337"),
        ("[::]", "http://[::1]:11434"),
        ("0.0.0.0", "http://127.0.0.1:11434"),
        ("0.0.0.0:1234", "http://127.0.0.1:1234"),
        (" 1.2.3.4 ", "http://1.2.3.4:11434"),
        ('"1.2.3.4"', "http://1.2.3.4:11434"),
        (' " 1.2.3.4 " ', "http://1.2.3.4:11434"),
        ("'1.2.3.4'", "http://1.2.3.4:11434"),
        ("http://1.2.3.4", "http://1.2.3.4:80"),
        ("http://1.2.3.4:4321", "http://1.2.3.4:4321"),
        ("https://1.2.3.4", "https://1.2.3.4:443"),
        ("https://1.2.3.4:4321", "https://1.2.3.4:4321"),
        ("https://example.com/ollama", "https://example.com:443/ollama"),
        ("box:1/", "http://box:1"),
        ("ollama.com", "https://ollama.com:443"),
    ],
)
def test_ollama_host_is_read_as_ollamas_client_reads_it(value: str, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert ollama_host_url(value) == url
    # resolved_base_url asks the same parser: one reading of OLLAMA_HOST for runs, doctor and discovery
    monkeypatch.setenv("OLLAMA_HOST", value)
    config = PedroConfig()
    config.backend.kind = "ollama"
    assert config.resolved_base_url() == url
