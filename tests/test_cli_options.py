"""The everyday ruff options, each accepted and doing what ruff's does (exact output, exit codes).

The toy rules (tests/toy_rules.py) make the findings predictable: in SOURCE, DTL002 has an unsafe
fix and DTL001 a safe one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dtypelint.cli import main

SOURCE = "def f(x, K):\n    return K @ torch.zeros(3)\n"
FIXED_SAFE = "def f(x, K):\n    return K @ torch.zeros(3, dtype=x.dtype)\n"
NOQA = "def f(x, K):\n    return K @ torch.zeros(3)  # noqa: DTL001, DTL002\n"
DTL002 = "m.py:2:12: DTL002 camera value `K` meets an activation"
DTL001 = "m.py:2:16: DTL001 [*] `zeros` called without `dtype=`"
SUMMARY = [
    "Found 2 errors.",
    "[*] 1 fixable with `--fix` (1 unsafe fix available with `--fix --unsafe-fixes`).",
]


@pytest.fixture
def project(in_tmp: Path, toy_rules: object) -> Path:
    (in_tmp / "m.py").write_text(SOURCE)
    return in_tmp


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def concise(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code, out, err = run(capsys, "--output-format", "concise", *args)
    return code, out.splitlines(), err


# --- log levels --------------------------------------------------------------------------------


def test_quiet_prints_the_findings_and_nothing_else(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert concise(capsys, "-q", "m.py") == (1, [DTL002, DTL001], "")
    assert concise(capsys, "--quiet", "m.py") == (1, [DTL002, DTL001], "")
    (project / "clean.py").write_text("x = 1\n")
    assert run(capsys, "-q", "clean.py") == (0, "", "")  # not even "All checks passed!"


def test_silent_prints_nothing_but_keeps_the_exit_code(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "-s", "m.py") == (1, "", "")
    assert run(capsys, "--silent", "--fix", "m.py") == (1, "", "")
    assert (project / "m.py").read_text() == FIXED_SAFE  # it still works
    # Errors are still one line each: they decide the exit code.
    assert run(capsys, "-s", "--select", "DTL01", "m.py") == (
        2,
        "",
        "error: unknown rule selector `DTL01` in --select; did you mean `DTL001`?\n",
    )


def test_verbose_adds_debug_lines_on_stderr_only(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "-v", "--output-format", "concise", "m.py")
    assert (code, out.splitlines()) == (1, [DTL002, DTL001, *SUMMARY])
    messages = [line.split("[DEBUG] ", 1)[1] for line in err.splitlines()]
    assert messages[0] == "No settings file found; using the defaults"
    assert messages[1].startswith("Identified 1 files to check in ")
    assert messages[2] == "Checking: m.py"
    assert messages[3].startswith("Checked 1 files in ")
    assert all(line.startswith("[") and "][dtypelint][DEBUG] " in line for line in err.splitlines())


def test_log_levels_may_come_before_the_command(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert concise(capsys, "-q", "check", "m.py") == (1, [DTL002, DTL001], "")
    assert run(capsys, "-s", "check", "m.py") == (1, "", "")
    assert run(capsys, "-q", "version")[:2] == (
        0,
        f"dtypelint {__import__('dtypelint').__version__}\n",
    )


# --- output ------------------------------------------------------------------------------------


def test_output_file_gets_the_report_and_stdout_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "-o", "reports/out.txt", "--output-format", "concise", "m.py") == (1, "", "")
    assert (project / "reports" / "out.txt").read_text().splitlines() == [DTL002, DTL001, *SUMMARY]
    assert run(capsys, "--output-file", "out.json", "--output-format", "json", "m.py")[:2] == (
        1,
        "",
    )
    assert [f["code"] for f in json.loads((project / "out.json").read_text())] == [
        "DTL002",
        "DTL001",
    ]


def test_output_file_that_cannot_be_written_is_one_error_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "a_file").write_text("")
    code, out, err = run(capsys, "-o", "a_file/report.txt", "m.py")
    assert (code, out) == (2, "")
    assert err.startswith("error: --output-file a_file/report.txt: cannot write: ")
    assert err.count("\n") == 1


def test_show_files_lists_absolute_paths_and_exits(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pkg").mkdir()
    (project / "pkg" / "b.py").write_text("x = 1\n")
    (project / "build").mkdir()
    (project / "build" / "c.py").write_text("x = 1\n")
    assert run(capsys, "--show-files") == (
        0,
        f"{project / 'm.py'}\n{project / 'pkg' / 'b.py'}\n",
        "",
    )
    assert run(capsys, "--show-files", "--extend-exclude", "pkg") == (
        0,
        f"{project / 'm.py'}\n",
        "",
    )
    assert run(capsys, "--show-files", "m.py", "nosuch.py") == (
        2,
        f"{project / 'm.py'}\n",
        "error: nosuch.py: No such file or directory\n",
    )


def test_show_settings(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.dtypelint]\nselect = ["DTL001"]\nunfixable = ["DTL001"]\n'
    )
    code, out, err = run(capsys, "--show-settings", "m.py")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:4] == [
        f'Resolved settings for: "{project / "m.py"}"',
        f'Settings path: "{project / "pyproject.toml"}"',
        "",
        "# General Settings",
    ]
    assert "unsafe_fixes = hint" in lines
    enabled = lines.index("linter.rules.enabled = [")
    assert lines[enabled + 1 : enabled + 7] == [
        "\tsyntax-error (DTL000),",
        "\tfactory-without-dtype (DTL001),",
        "\tio-error (DTL900),",
        "\tinternal-error (DTL901),",
        "\tneeds-newer-python (DTL902),",
        "]",
    ]
    assert "\tfactory-without-dtype (DTL001)," in lines[lines.index("linter.unfixable = [") :]
    assert (project / "m.py").read_text() == SOURCE  # nothing was checked or fixed


# --- fix behaviour ------------------------------------------------------------------------------


def test_no_fix_overrides_an_earlier_fix(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert concise(capsys, "--fix", "--no-fix", "m.py") == (1, [DTL002, DTL001, *SUMMARY], "")
    assert (project / "m.py").read_text() == SOURCE
    assert concise(capsys, "--no-fix", "--fix", "m.py")[0] == 1  # the last one wins, as in ruff
    assert (project / "m.py").read_text() == FIXED_SAFE


def test_fix_only_fixes_and_reports_only_what_it_fixed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "--fix-only", "m.py") == (
        0,
        "Fixed 1 error (1 additional fix available with `--unsafe-fixes`).\n",
        "",
    )
    assert (project / "m.py").read_text() == FIXED_SAFE
    # Nothing left to fix: exit 0 although a finding remains.
    assert run(capsys, "--fix-only", "m.py") == (
        0,
        "No errors fixed (1 fix available with `--unsafe-fixes`).\n",
        "",
    )
    assert run(capsys, "--fix-only", "--unsafe-fixes", "--exit-non-zero-on-fix", "m.py") == (
        1,
        "Fixed 1 error.\n",
        "",
    )
    assert run(capsys, "--fix-only", "m.py") == (0, "", "")  # nothing at all: nothing printed
    assert run(capsys, "--fix-only", "--no-fix-only", "--output-format", "concise", "m.py") == (
        0,
        "All checks passed!\n",
        "",
    )


def test_fix_only_show_fixes_and_quiet(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--fix-only", "--show-fixes", "-q", "m.py") == (
        0,
        "\nFixed 1 error:\n- m.py:\n    1 × DTL001 (factory-without-dtype)\n\n",  # noqa: RUF001
        "",
    )


def test_show_fixes_can_be_turned_off(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, lines, _ = concise(capsys, "--fix", "--show-fixes", "--no-show-fixes", "m.py")
    assert lines == [
        DTL002,
        "Found 2 errors (1 fixed, 1 remaining).",
        "1 unsafe fix available with `--fix --unsafe-fixes`.",
    ]


def test_unfixable_and_extend_unfixable(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = concise(capsys, "--unfixable", "DTL001", "m.py")
    assert (code, lines) == (
        1,
        [
            DTL002,
            DTL001.replace(" [*]", ""),
            "Found 2 errors.",
            "1 unsafe fix available with `--fix --unsafe-fixes`.",
        ],
    )
    assert concise(capsys, "--fix", "--unfixable", "factory-without-dtype", "m.py")[0] == 1
    assert (project / "m.py").read_text() == SOURCE
    (project / "pyproject.toml").write_text('[tool.dtypelint]\nunfixable = ["DTL002"]\n')
    _, lines, _ = concise(capsys, "--unsafe-fixes", "--extend-unfixable", "DTL001", "m.py")
    assert lines == [DTL002, DTL001.replace(" [*]", ""), "Found 2 errors."]
    # In JSON an unfixable finding has no fix, as in ruff; the full format keeps its help line.
    _, out, _ = run(capsys, "--output-format", "json", "--unfixable", "DTL", "m.py")
    assert [finding["fix"] for finding in json.loads(out)] == [None, None]
    _, out, _ = run(capsys, "--unfixable", "DTL001", "--select", "DTL001", "m.py")
    assert "help: Add `dtype=x.dtype`\n\nFound 1 error.\n" in out
    assert " +" not in out  # no fix preview


def test_ignore_noqa(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "m.py").write_text(NOQA)
    assert run(capsys, "m.py") == (0, "All checks passed!\n", "")
    code, lines, _ = concise(capsys, "--ignore-noqa", "m.py")
    assert code == 1 and [line.split(":")[3].split()[0] for line in lines[:2]] == [
        "DTL002",
        "DTL001",
    ]
    (project / "m.py").write_text("# dtypelint: noqa\n" + SOURCE)
    assert run(capsys, "m.py")[0] == 0
    assert run(capsys, "--ignore-noqa", "m.py")[0] == 1


def test_exit_zero_and_exit_non_zero_on_fix_cannot_be_combined(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "-e", "m.py")[0] == 0
    assert run(capsys, "--exit-zero", "--exit-non-zero-on-fix", "--fix", "m.py") == (
        2,
        "",
        "error: --exit-zero cannot be combined with --exit-non-zero-on-fix\n",
    )


# --- file selection ----------------------------------------------------------------------------


def test_exclude_and_extend_exclude(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "gen").mkdir()
    (project / "gen" / "g.py").write_text(SOURCE)
    (project / "build").mkdir()
    (project / "build" / "b.py").write_text(SOURCE)

    def files(*args: str) -> set[str]:
        _, lines, _ = concise(capsys, "-q", *args)
        return {line.split(":")[0] for line in lines}

    assert files(".") == {"m.py", "gen/g.py"}  # build/ is a default exclude
    assert files("--extend-exclude", "gen", ".") == {"m.py"}
    assert files("--exclude", "gen", ".") == {"m.py", "build/b.py"}  # replaces the defaults
    assert files("--exclude", "gen,build,m.py", ".") == set()
    # Named files are checked anyway, unless --force-exclude.
    assert files("--extend-exclude", "gen", "gen/g.py") == {"gen/g.py"}
    assert files("--extend-exclude", "gen", "--force-exclude", "gen/g.py") == set()
    assert files(
        "--extend-exclude", "gen", "--force-exclude", "--no-force-exclude", "gen/g.py"
    ) == {"gen/g.py"}


# --- settings ----------------------------------------------------------------------------------


def test_isolated_reads_no_settings_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pyproject.toml").write_text('[tool.dtypelint]\nselect = ["DTL001"]\n')
    assert concise(capsys, "-q", "m.py")[1] == [DTL001]
    assert concise(capsys, "-q", "--isolated", "m.py")[1] == [DTL002, DTL001]
    (project / "pyproject.toml").write_text("[tool.dtypelint]\nselct = 1\n")  # not even read
    assert concise(capsys, "-q", "--isolated", "m.py")[0] == 1
    assert run(capsys, "--isolated", "--config", "pyproject.toml", "m.py") == (
        2,
        "",
        "error: --config pyproject.toml cannot be combined with --isolated (which reads no file)\n",
    )


def test_config_key_value_overrides_the_files(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text('[tool.dtypelint]\nselect = ["DTL001"]\n')
    assert concise(capsys, "-q", "--config", "select = ['DTL002']", "m.py")[1] == [DTL002]
    assert concise(capsys, "-q", "--config", "unsafe-fixes = true", "--isolated", "m.py")[1] == [
        DTL002.replace("DTL002", "DTL002 [*]"),
        DTL001,
    ]
    assert run(capsys, "--config", "selct = 1", "m.py") == (
        2,
        "",
        "error: --config: unknown key `selct` in the setting; did you mean `select`?\n",
    )
    assert run(capsys, "--config", "nope.toml", "m.py") == (
        2,
        "",
        "error: nope.toml: no such config file\n",
    )


def test_no_cache_is_accepted_and_changes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert concise(capsys, "--no-cache", "m.py") == concise(capsys, "m.py")
    assert concise(capsys, "-n", "m.py")[0] == 1


# --- paths that do not exist and mistyped commands ----------------------------------------------


@pytest.mark.parametrize("path", ["nosuchdir/", "nosuch.py", "sub/nosuch.py", "./nosuchdir"])
def test_a_missing_path_is_a_dtl900_finding(
    project: Path, capsys: pytest.CaptureFixture[str], path: str
) -> None:
    shown = path.rstrip("/")
    code, out, err = run(capsys, path)
    assert (code, err) == (1, "")
    assert out == (
        f"DTL900 No such file or directory (os error 2)\n--> {shown}:1:1\n\nFound 1 error.\n"
    )
    assert "All checks passed!" not in out
    assert run(capsys, "--output-format", "concise", "m.py", path)[1].splitlines()[2:] == [
        f"{shown}:1:1: DTL900 No such file or directory (os error 2)",
        "Found 3 errors.",
        "[*] 1 fixable with `--fix` (1 unsafe fix available with `--fix --unsafe-fixes`).",
    ]


def test_a_missing_path_is_never_all_checks_passed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Like DTL000, DTL900 is on whatever `select` says...
    assert run(capsys, "--select", "DTL001", "nosuch.py") == (
        1,
        "DTL900 No such file or directory (os error 2)\n--> nosuch.py:1:1\n\nFound 1 error.\n",
        "",
    )
    # ... and ignoring it makes an unread path an error (exit 2), never a pass.
    for args in (["--ignore", "DTL900"], ["-q", "--ignore", "io-error"]):
        assert run(capsys, *args, "nosuch.py") == (
            2,
            "",
            "error: nosuch.py: cannot read: No such file or directory (os error 2)\n",
        )


def test_an_unreadable_file_is_a_dtl900_finding(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    (project / "secret.py").write_text(SOURCE)
    (project / "secret.py").chmod(0)
    assert (
        concise(capsys, "secret.py")[1][0]
        == "secret.py:1:1: DTL900 Permission denied (os error 13)"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chek", "src"], "`chek`: unknown command or path, did you mean `check`?"),
        (["verison"], "`verison`: unknown command or path, did you mean `version`?"),
        (["-q", "chekc"], "`chekc`: unknown command or path, did you mean `check`?"),
        (["rul", "DTL001"], "`rul`: unknown command or path, did you mean `rule`?"),
        (
            ["zzz"],
            "`zzz`: unknown command or path, did you mean `check`? (no file or folder `zzz` "
            "exists; commands: `check`, `config`, `help`, `rule`, `trace`, `verify`, `version`)",
        ),
    ],
)
def test_a_word_that_is_neither_a_command_nor_a_path(
    project: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert run(capsys, *args) == (2, "", f"error: {message}\n")


def test_an_existing_folder_named_like_a_word_is_a_path(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "chek").mkdir()
    (project / "chek" / "a.py").write_text("x = 1\n")
    assert run(capsys, "chek") == (0, "All checks passed!\n", "")


def test_a_folder_without_python_files_warns_as_ruff_does(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "docs").mkdir()
    (project / "docs" / "notes.md").write_text("# notes\n")
    assert run(capsys, "docs") == (
        0,
        "All checks passed!\n",
        "warning: No Python files found under the given path(s)\n",
    )
    assert run(capsys, "-q", "docs") == (0, "", "")
    assert run(capsys, "--no-default-path") == (0, "All checks passed!\n", "")  # hooks: no files
