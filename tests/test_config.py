from __future__ import annotations

from pathlib import Path

import pytest

from dtypelint.analysis import DEFAULT_CAMERA_NAMES
from dtypelint.config import Config, ConfigError, load_config, path_matches

NAMES = {
    "DTL000": "syntax-error",
    "DTL001": "factory-without-dtype",
    "DTL002": "camera-matmul-uncast",
    "DTL003": "one-sided-cast",
    "DTL011": "later-rule",
}


def write_pyproject(folder: Path, body: str) -> Path:
    path = folder / "pyproject.toml"
    path.write_text(f"[project]\nname = 'x'\n\n{body}")
    return path


# --- selection -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (Config(), {"DTL000", "DTL001", "DTL002", "DTL003", "DTL011"}),
        (Config(select=("DTL00",)), {"DTL000", "DTL001", "DTL002", "DTL003"}),
        (Config(select=("DTL001", "one-sided-cast")), {"DTL000", "DTL001", "DTL003"}),
        (Config(ignore=("DTL0",)), set()),
        (Config(ignore=("DTL00",), extend_select=("DTL002",)), {"DTL002", "DTL011"}),
        # The more specific selector wins; on a tie ignore wins.
        (Config(select=("DTL001",), ignore=("DTL",)), {"DTL001"}),
        (Config(select=("DTL001",), ignore=("factory-without-dtype",)), {"DTL000"}),
        (Config(select=("ALL",), ignore=("DTL01",)), {"DTL000", "DTL001", "DTL002", "DTL003"}),
    ],
)
def test_selected_codes(config: Config, expected: set[str]) -> None:
    assert config.selected_codes(NAMES) == expected


def test_per_file_ignores_by_glob(tmp_path: Path) -> None:
    config = Config(
        per_file_ignores={"tests/**/*.py": ("DTL001",), "__init__.py": ("DTL00",)},
        project_root=tmp_path,
    )
    everything = set(NAMES)
    assert config.codes_for_file(tmp_path / "src/m.py", NAMES) == everything
    assert config.codes_for_file(tmp_path / "tests/a/b/t.py", NAMES) == everything - {"DTL001"}
    assert config.codes_for_file(tmp_path / "tests/t.py", NAMES) == everything - {"DTL001"}
    assert config.codes_for_file(tmp_path / "src/__init__.py", NAMES) == {"DTL011"}


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("build", "a/build/x.py", True),
        ("build", "a/builder/x.py", False),
        ("*_pb2.py", "a/b/m_pb2.py", True),
        ("src/gen", "src/gen/deep/x.py", True),
        ("src/gen", "lib/src/gen/x.py", False),
        ("gen/", "gen", False),  # a folder pattern does not match a file
        ("gen/", "gen/x.py", True),
        ("**/legacy/*.py", "a/b/legacy/x.py", True),
        ("m[0-9].py", "m7.py", True),
        ("m[!0-9].py", "m7.py", False),
    ],
)
def test_path_patterns(pattern: str, path: str, matches: bool) -> None:
    assert path_matches(pattern, tuple(path.split("/"))) is matches


# --- reading ---------------------------------------------------------------------------------


def test_defaults_without_any_config(tmp_path: Path) -> None:
    config = load_config(start=tmp_path)
    assert config == Config(project_root=None)
    assert config.camera_names == frozenset(DEFAULT_CAMERA_NAMES)


def test_nearest_pyproject_with_a_section_is_used(tmp_path: Path) -> None:
    write_pyproject(
        tmp_path,
        """
[tool.dtypelint]
select = ["DTL"]
ignore = ["camera-matmul-uncast"]
extend-select = ["DTL001"]
per-file-ignores = { "tests/*" = ["DTL001"] }
exclude = ["generated"]
extend-exclude = ["legacy"]
extend-camera-names = ["cam_mat"]
unsafe-fixes = true
output-format = "json"

[tool.dtypelint.verify]
examples = ["examples/bf16.py"]
device = "cpu"
dtype = "bfloat16"
timeout = 120
""",
    )
    inner = tmp_path / "pkg" / "sub"
    inner.mkdir(parents=True)
    write_pyproject(tmp_path / "pkg", "[tool.black]\nline-length = 100\n")  # no section: skipped
    config = load_config(start=inner)
    assert config == Config(
        select=("DTL",),
        ignore=("camera-matmul-uncast",),
        extend_select=("DTL001",),
        per_file_ignores={"tests/*": ("DTL001",)},
        exclude=("generated",),
        extend_exclude=("legacy",),
        extend_camera_names=("cam_mat",),
        unsafe_fixes=True,
        unsafe_fixes_set=True,
        output_format="json",
        verify={
            "examples": ["examples/bf16.py"],
            "device": "cpu",
            "dtype": "bfloat16",
            "timeout": 120,
        },
        project_root=tmp_path.resolve(),
        config_path=tmp_path.resolve() / "pyproject.toml",
    )
    assert config.camera_names == frozenset(DEFAULT_CAMERA_NAMES) | {"cam_mat"}


def test_project_root_without_a_section_is_the_nearest_pyproject(tmp_path: Path) -> None:
    write_pyproject(tmp_path, "")
    (tmp_path / "src").mkdir()
    config = load_config(start=tmp_path / "src")
    assert (config.project_root, config.config_path) == (tmp_path.resolve(), None)


def test_camera_names_replaces_the_defaults(tmp_path: Path) -> None:
    write_pyproject(
        tmp_path, '[tool.dtypelint]\ncamera-names = ["K"]\nextend-camera-names = ["T"]\n'
    )
    assert load_config(start=tmp_path).camera_names == {"K", "T"}


def test_explicit_dtypelint_toml_has_top_level_keys(tmp_path: Path) -> None:
    path = tmp_path / "dtypelint.toml"
    path.write_text('ignore = ["DTL002"]\n')
    config = load_config(path)
    assert (config.ignore, config.config_path, config.project_root) == (
        ("DTL002",),
        path,
        tmp_path.resolve(),
    )


def test_dot_dtypelint_toml_is_found_before_pyproject(tmp_path: Path) -> None:
    write_pyproject(tmp_path, '[tool.dtypelint]\nignore = ["DTL001"]\n')
    (tmp_path / ".dtypelint.toml").write_text('ignore = ["DTL002"]\n')
    assert load_config(start=tmp_path).ignore == ("DTL002",)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("selct = []", "unknown key `selct` in [tool.dtypelint]; did you mean `select`?"),
        ('select = ["DTL01"]', "unknown rule selector `DTL01` in `select`; did you mean `DTL001`?"),
        (
            'ignore = ["factory-without-dtpye"]',
            "unknown rule selector `factory-without-dtpye` in `ignore`; "
            "did you mean `factory-without-dtype`?",
        ),
        ('select = "DTL001"', "`select` must be a list of strings"),
        (
            'per-file-ignores = { "a.py" = ["DTL0001"] }',
            "unknown rule selector `DTL0001` in `per-file-ignores` `a.py`; did you mean `DTL001`?",
        ),
        (
            'output-format = "jsn"',
            "`output-format` must be one of full, concise, json, github, "
            "sarif, junit, text; did you mean `json`?",
        ),
        ("unsafe-fixes = 1", "`unsafe-fixes` must be true or false"),
        (
            'camera-names = ["not a name"]',
            "`camera-names`: `not a name` is not a Python identifier",
        ),
        (
            "[tool.dtypelint.verify]\ndevise = 'cpu'",
            "unknown key `devise` in [tool.dtypelint.verify]; did you mean `device`?",
        ),
        (
            "[tool.dtypelint.verify]\ndevice = 'tpu'",
            "verify `device` must be one of auto, cuda, cpu; did you mean `cpu`?",
        ),
        (
            "[tool.dtypelint.verify]\ntimeout = -1",
            "verify `timeout` must be a positive number of seconds",
        ),
    ],
)
def test_bad_settings_are_one_line_errors_naming_the_key(
    tmp_path: Path, body: str, message: str
) -> None:
    if not body.startswith("["):
        body = "[tool.dtypelint]\n" + body
    path = write_pyproject(tmp_path, body + "\n")
    with pytest.raises(ConfigError) as caught:
        load_config(start=tmp_path)
    assert str(caught.value) == f"{path.resolve()}: {message}"
    assert "\n" not in str(caught.value)


def test_invalid_toml_and_missing_file(tmp_path: Path) -> None:
    path = write_pyproject(tmp_path, "[tool.dtypelint\n")
    with pytest.raises(ConfigError, match=r"pyproject\.toml: invalid TOML: "):
        load_config(path)
    with pytest.raises(ConfigError, match=r"nope\.toml: no such config file$"):
        load_config(tmp_path / "nope.toml")
    other = write_pyproject(tmp_path, "[tool.ruff]\n")
    with pytest.raises(ConfigError, match=r"no \[tool\.dtypelint\] section$"):
        load_config(other)


def test_command_line_select_starts_afresh_and_ignore_adds() -> None:
    config = Config(select=("DTL001",), ignore=("DTL002",), extend_select=("DTL002",))
    assert config.with_overrides(select=["DTL002"]).selected_codes(NAMES) == {"DTL000", "DTL002"}
    assert config.with_overrides(ignore=["DTL001"]).selected_codes(NAMES) == {"DTL000"}
    with pytest.raises(ConfigError, match=r"^unknown rule selector `DTX` in --select$"):
        config.with_overrides(select=["DTX"])
