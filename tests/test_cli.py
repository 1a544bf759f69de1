from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dtypelint import __version__
from dtypelint.cli import main

SOURCE = "def f(x, K):\n    return K @ torch.zeros(3)\n"
FIXED_SAFE = "def f(x, K):\n    return K @ torch.zeros(3, dtype=x.dtype)\n"
FIXED_ALL = "def f(x, K):\n    return K.to(x.dtype) @ torch.zeros(3, dtype=x.dtype)\n"


@pytest.fixture
def project(in_tmp: Path, toy_rules: object) -> Path:
    (in_tmp / "m.py").write_text(SOURCE)
    (in_tmp / "clean.py").write_text("x = 1\n")
    return in_tmp


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ruff 0.17's `full` layout: code and message, `-->` location, the source with two lines of
# context, the fix as a line diff, a note for an unsafe fix, and the summary.
TEXT_REPORT = """\
DTL002 camera value `K` meets an activation
 --> m.py:2:12
  |
1 | def f(x, K):
2 |     return K @ torch.zeros(3)
  |            ^
help: Cast `K` with `.to(x.dtype)`
  |
1 | def f(x, K):
  -     return K @ torch.zeros(3)
2 +     return K.to(x.dtype) @ torch.zeros(3)
  |
note: This is an unsafe fix and may change runtime behavior

DTL001 [*] `zeros` called without `dtype=`
 --> m.py:2:16
  |
1 | def f(x, K):
2 |     return K @ torch.zeros(3)
  |                ^^^^^^^^^^^^^^
help: Add `dtype=x.dtype`
  |
1 | def f(x, K):
  -     return K @ torch.zeros(3)
2 +     return K @ torch.zeros(3, dtype=x.dtype)
  |

Found 2 errors.
[*] 1 fixable with `--fix` (1 unsafe fix available with `--fix --unsafe-fixes`).
"""
SUMMARY = (
    "Found 2 errors.\n"
    "[*] 1 fixable with `--fix` (1 unsafe fix available with `--fix --unsafe-fixes`).\n"
)


def test_text_format_with_caret_and_summary(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "check", "m.py") == (1, TEXT_REPORT, "")


def test_check_is_the_default_command_and_dot_the_default_path(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "m.py") == (1, TEXT_REPORT, "")
    assert run(capsys) == (1, TEXT_REPORT, "")
    assert run(capsys, "--output-format", "concise", ".")[1] == (
        "m.py:2:12: DTL002 camera value `K` meets an activation\n"
        "m.py:2:16: DTL001 [*] `zeros` called without `dtype=`\n" + SUMMARY
    )
    # `full` is ruff's name for the default layout; `text` stays accepted.
    assert run(capsys, "--output-format", "full", "m.py") == (1, TEXT_REPORT, "")
    assert run(capsys, "--output-format", "text", "m.py") == (1, TEXT_REPORT, "")


def test_clean_run(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "clean.py") == (0, "All checks passed!\n", "")


def test_unsafe_fixes_count_as_fixable(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--unsafe-fixes", "--output-format=concise", "m.py")
    assert out.splitlines() == [
        "m.py:2:12: DTL002 [*] camera value `K` meets an activation",
        "m.py:2:16: DTL001 [*] `zeros` called without `dtype=`",
        "Found 2 errors.",
        "[*] 2 fixable with `--fix`.",
    ]


def test_json_shape(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--output-format", "json", "./m.py", "clean.py")
    assert (code, err) == (1, "")
    findings = json.loads(out)
    assert [f["code"] for f in findings] == ["DTL002", "DTL001"]
    # Every field of ruff's JSON, in ruff's (alphabetical) order, file names absolute.
    assert list(findings[1]) == sorted(findings[1])
    assert findings[1] == {
        "cell": None,
        "code": "DTL001",
        "end_location": {"column": 30, "row": 2},
        "filename": str(project / "m.py"),
        "fix": {
            "applicability": "safe",
            "edits": [
                {
                    "content": ", dtype=x.dtype",
                    "end_location": {"column": 29, "row": 2},
                    "location": {"column": 29, "row": 2},
                }
            ],
            "message": "Add `dtype=x.dtype`",
        },
        "location": {"column": 16, "row": 2},
        "message": "`zeros` called without `dtype=`",
        "name": "factory-without-dtype",
        "noqa_row": 2,
        "severity": "error",
        "url": "https://github.com/dtypelint/dtypelint/blob/main/rules/DTL001.md",
    }
    assert findings[0]["fix"]["applicability"] == "unsafe"


def test_folder_files_are_named_with_the_folder_as_given(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pkg").mkdir()
    (project / "pkg" / "a.py").write_text("y = torch.zeros(1)\n")
    _, out, _ = run(capsys, "--output-format", "concise", "./pkg/")
    assert out.splitlines()[0] == "./pkg/a.py:1:5: DTL001 [*] `zeros` called without `dtype=`"


@pytest.mark.parametrize(
    ("options", "codes"),
    [
        (["--select", "DTL001"], ["DTL001"]),
        (["--select", "DTL00"], ["DTL002", "DTL001"]),
        (["--select", "camera-matmul-uncast"], ["DTL002"]),
        (["--ignore", "DTL"], []),
        (["--ignore", "factory-without-dtype"], ["DTL002"]),
        (["--select", "DTL001", "--extend-select", "DTL002"], ["DTL002", "DTL001"]),
        (["--select", "DTL001,DTL002", "--ignore", "DTL001"], ["DTL002"]),
    ],
)
def test_select_and_ignore_by_code_prefix_and_name(
    project: Path, capsys: pytest.CaptureFixture[str], options: list[str], codes: list[str]
) -> None:
    _, out, _ = run(capsys, "--output-format", "json", *options, "m.py")
    assert [finding["code"] for finding in json.loads(out)] == codes


def test_config_file_settings_and_command_line_overrides(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.dtypelint]\nignore = ["DTL002"]\noutput-format = "concise"\n'
    )
    assert run(capsys, "m.py")[1].splitlines()[0].startswith("m.py:2:16: DTL001")
    assert (
        run(capsys, "--select", "DTL002", "m.py")[1].splitlines()[0].startswith("m.py:2:12: DTL002")
    )


def test_fix_in_place(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--fix", "--show-fixes", "--output-format", "concise", "m.py")
    assert (project / "m.py").read_text() == FIXED_SAFE
    assert code == 1  # the unsafe finding remains
    assert out == (
        "m.py:2:12: DTL002 camera value `K` meets an activation\n"
        "\n"
        "Fixed 1 error:\n"
        "- m.py:\n"
        "    1 × DTL001 (factory-without-dtype)\n"  # noqa: RUF001
        "\n"
        "Found 2 errors (1 fixed, 1 remaining).\n"
        "1 unsafe fix available with `--fix --unsafe-fixes`.\n"
    )
    # A second --fix changes nothing.
    assert run(capsys, "--fix", "m.py")[0] == 1
    assert (project / "m.py").read_text() == FIXED_SAFE


def test_fix_everything_exits_zero_unless_asked(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "--fix", "--unsafe-fixes", "m.py") == (
        0,
        "Found 2 errors (2 fixed, 0 remaining).\n",
        "",
    )
    assert (project / "m.py").read_text() == FIXED_ALL
    (project / "m.py").write_text(SOURCE)
    assert run(capsys, "--fix", "--unsafe-fixes", "--exit-non-zero-on-fix", "m.py")[0] == 1
    assert run(capsys, "--fix", "--unsafe-fixes", "--exit-non-zero-on-fix", "m.py")[0] == 0


def test_exit_zero(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--exit-zero", "m.py")[0] == 0


def test_diff_prints_and_writes_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--diff", "m.py")
    assert out == (
        "--- m.py\n+++ m.py\n@@ -1,2 +1,2 @@\n def f(x, K):\n"
        "-    return K @ torch.zeros(3)\n+    return K @ torch.zeros(3, dtype=x.dtype)\n"
        "\n"
        "Would fix 1 error (1 additional fix available with `--unsafe-fixes`).\n"
    )
    assert (code, err) == (1, "")  # like ruff: exit 1 when there is a diff
    assert (project / "m.py").read_text() == SOURCE
    # Nothing to change: no diff, exit 0, even though a finding remains.
    (project / "m.py").write_text(FIXED_SAFE)
    assert run(capsys, "--diff", "m.py") == (
        0,
        "No errors would be fixed (1 fix available with `--unsafe-fixes`).\n",
        "",
    )


def test_read_only_file_with_fix_is_an_error_and_the_run_goes_on(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "a_readonly.py").write_text("y = torch.zeros(1)\n")
    (project / "a_readonly.py").chmod(0o444)
    code, out, err = run(capsys, "--fix", "--output-format", "concise", ".")
    assert code == 2
    assert (
        err == "error: a_readonly.py: cannot write fixes: the file is read-only; left unchanged\n"
    )
    assert (project / "a_readonly.py").read_text() == "y = torch.zeros(1)\n"
    assert (project / "m.py").read_text() == FIXED_SAFE
    assert out.splitlines()[-2] == "Found 3 errors (1 fixed, 2 remaining)."
    assert "All checks passed!" not in out


def test_syntax_error_is_a_finding_and_the_run_goes_on(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "broken.py").write_text("def f(:\n")
    code, out, _ = run(capsys, "--output-format", "concise", ".")
    assert code == 1
    assert out.splitlines()[:3] == [
        "broken.py:1:7: DTL000 SyntaxError: invalid syntax",
        "m.py:2:12: DTL002 camera value `K` meets an activation",
        "m.py:2:16: DTL001 [*] `zeros` called without `dtype=`",
    ]


def test_stdin(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def stdin(text: str) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))

    stdin(SOURCE)
    code, out, err = run(
        capsys, "--stdin-filename", "pkg/model.py", "--output-format", "concise", "-"
    )
    assert (code, err) == (1, "")
    assert out.splitlines()[0] == "pkg/model.py:2:12: DTL002 camera value `K` meets an activation"

    stdin(SOURCE)
    code, out, err = run(capsys, "--fix", "-")
    assert (code, out) == (1, FIXED_SAFE)
    assert err.startswith("DTL002 camera value `K` meets an activation\n --> -:2:12\n")
    assert err.endswith(
        "Found 2 errors (1 fixed, 1 remaining).\n"
        "1 unsafe fix available with `--fix --unsafe-fixes`.\n"
    )

    stdin("x = 1\n")
    assert run(capsys, "--fix", "-") == (0, "x = 1\n", "All checks passed!\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--select", "DTL01", "m.py"],
            "error: unknown rule selector `DTL01` in --select; did you mean `DTL001`?",
        ),
        (
            ["--ignore", "factory-without-dtpye", "m.py"],
            "error: unknown rule selector "
            "`factory-without-dtpye` in --ignore; did you mean `factory-without-dtype`?",
        ),
        (
            ["--output-format", "xml"],
            "error: Invalid value for '--output-format': 'xml' is not one "
            "of 'full', 'concise', 'json', 'github', 'sarif', 'junit', 'text'.",
        ),
        (["-", "m.py"], "error: `-` (read from standard input) cannot be mixed with other paths"),
        (["rule", "DTL01"], "error: unknown rule `DTL01`; did you mean `DTL001`?"),
        (["rule"], "error: give one rule CODE, or --all"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(
    project: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert run(capsys, *args) == (2, "", message + "\n")


def test_unknown_option_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--frobnicate")
    assert (code, out) == (2, "")
    assert err.startswith("error: No such option") and "--frobnicate" in err
    assert err.count("\n") == 1


def test_bad_config_is_one_line_and_exit_2(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text("[tool.dtypelint]\nselct = []\n")
    code, out, err = run(capsys, "m.py")
    path = (project / "pyproject.toml").resolve()
    assert (code, out) == (2, "")
    assert (
        err == f"error: {path}: unknown key `selct` in [tool.dtypelint]; did you mean `select`?\n"
    )
    assert run(capsys, "--config", "nope.toml", "m.py") == (
        2,
        "",
        "error: nope.toml: no such config file\n",
    )


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--version") == (0, f"dtypelint {__version__}\n", "")


# --- real rules, real processes --------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
FIXLOG = ROOT / "fixtures" / "fixlog"

# Fails loudly (and leaves a marker) if anything imports torch.
NO_TORCH = textwrap.dedent(
    """
    import sys

    class NoTorch:
        def find_spec(self, name, path=None, target=None):
            if name == "torch" or name.startswith("torch."):
                open({marker!r}, "w").write(name)
                raise ImportError("torch must not be imported by dtypelint check")

    sys.meta_path.insert(0, NoTorch())
    import dtypelint.scheduling
    from dtypelint.cli import main
    dtypelint.scheduling.POOL_MIN_BYTES = 0  # a pool of workers even for small files
    sys.exit(main({args!r}))
    """
)


def test_import_does_not_import_torch() -> None:
    code = "import dtypelint, dtypelint.cli, sys; assert 'torch' not in sys.modules, 'torch'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_cli_on_many_files_in_parallel_never_imports_torch(tmp_path: Path) -> None:
    for index in range(20):  # a process pool (NO_TORCH lowers the size that starts one)
        (tmp_path / f"m{index}.py").write_text(
            "import torch\n\ndef f(x):\n    return x + torch.zeros(3, device=x.device)\n"
        )
    marker = tmp_path / "torch-imported"
    script = NO_TORCH.format(
        marker=str(marker), args=["--jobs", "2", "--output-format", "json", str(tmp_path)]
    )
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert not marker.exists(), marker.read_text()
    assert completed.returncode in (0, 1), completed.stderr
    assert completed.stderr == ""
    json.loads(completed.stdout)


#: What a one-file check (pre-commit's case) never loads: the pool, reporters it does not print
#: with, fixes it does not apply, a TOML parser without a settings file, git without a folder.
NOT_FOR_ONE_FILE = (
    "libcst",
    "concurrent.futures",
    "multiprocessing",
    "subprocess",
    "tempfile",
    "tomllib",
    "xml.etree.ElementTree",
    "hashlib",
    "dtypelint.gate",
    "dtypelint.verify",
    "dtypelint.trace",
)


def test_a_one_file_check_loads_only_what_it_uses(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "import torch\n\ndef f(x: torch.Tensor):\n    return x + torch.zeros(3)\n"
    )
    script = (
        "import sys\nfrom dtypelint.cli import main\ncode = main(['check', 'm.py'])\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\nsys.exit(code)"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True
    )
    assert completed.returncode == 1 and "DTL001" in completed.stdout
    loaded = set(completed.stderr.split())
    assert "dtypelint.analysis" in loaded and "dtypelint.cache" in loaded
    assert sorted(loaded & set(NOT_FOR_ONE_FILE)) == []


def test_help_does_not_import_torch(tmp_path: Path) -> None:
    marker = tmp_path / "torch-imported"
    script = NO_TORCH.format(marker=str(marker), args=["--help"])
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    assert not marker.exists()


def test_python_dash_m(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "dtypelint", "--version"], capture_output=True, text=True, check=True
    )
    assert completed.stdout == f"dtypelint {__version__}\n"


def test_real_rules_on_the_fixlog_fixture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--output-format", "json", str(FIXLOG / "before"))
    assert (code, err) == (1, "")
    findings = json.loads(out)
    assert findings, "the fix-log fixture has known hazards"
    assert {finding["code"] for finding in findings} <= {
        "DTL001",
        "DTL002",
        "DTL003",
        "DTL004",
        "DTL005",
    }


# --- rule pages ------------------------------------------------------------------------------


@pytest.fixture
def pages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    import dtypelint.docs

    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "DTL001.md").write_text("# DTL001 factory-without-dtype\n\nWhat it does\n")
    (folder / "DTL002.md").write_text("# DTL002 camera-matmul-uncast\n")
    monkeypatch.setattr(dtypelint.docs, "_SOURCE_PAGES", folder)
    monkeypatch.setattr(dtypelint.docs, "_folders", lambda: [folder])
    return folder


def test_rule_page_by_code_or_name(pages: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = "# DTL001 factory-without-dtype\n\nWhat it does\n"
    assert run(capsys, "rule", "DTL001") == (0, page, "")
    assert run(capsys, "rule", "dtl001") == (0, page, "")
    assert run(capsys, "rule", "factory-without-dtype") == (0, page, "")


def test_all_rule_pages(pages: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "rule", "--all") == (
        0,
        "# DTL001 factory-without-dtype\n\nWhat it does\n\n# DTL002 camera-matmul-uncast\n",
        "",
    )


def test_every_rule_has_a_page_in_the_checkout() -> None:
    from dtypelint.rules import RULE_NAMES

    missing = [code for code in RULE_NAMES if not (ROOT / "rules" / f"{code}.md").is_file()]
    assert missing == []
