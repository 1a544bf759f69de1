"""Adoption in an existing code base: baselines, --since, --add-noqa, per-file-ignores, bad input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import dtypelint, git

from dtypelint.cli import main
from dtypelint.diagnostics import Diagnostic, Location
from dtypelint.gate import add_noqa_to_text, fingerprint, parse_diff

ROOT = Path(__file__).resolve().parent.parent
FIXLOG = ROOT / "fixtures" / "fixlog"
HAZARD = "def f(x):\n    return x + torch.zeros(3)\n"
HAZARD_FIXED = "def f(x):\n    return x + torch.zeros(3, dtype=x.dtype)\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def concise(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    """The findings' lines of a concise run (the summary left out)."""
    _, out, _ = run(capsys, "--output-format", "concise", *args)
    return [line for line in out.splitlines() if ": DTL" in line]


@pytest.fixture
def project(in_tmp: Path, toy_rules: object) -> Path:
    (in_tmp / "m.py").write_text(HAZARD)
    return in_tmp


# --- fingerprints ------------------------------------------------------------------------------


def finding(row: int, column: int, end_column: int, code: str = "DTL001") -> Diagnostic:
    return Diagnostic(
        code, "name", "message", "m.py", Location(row, column), Location(row, end_column)
    )


def test_fingerprint_ignores_line_numbers_whitespace_blank_lines_and_noqa() -> None:
    lines = {1: "def f(x):", 2: "    y = torch.zeros(3)", 3: "    return x + y"}
    shifted = {
        10: "def f(x):",
        11: "",
        12: "  # a comment",
        13: "        y  =  torch.zeros(3)  # noqa: DTL002",
        14: "    return x + y",
    }
    assert fingerprint(finding(2, 9, 23), lines, "m.py") == fingerprint(
        finding(13, 15, 29), shifted, "m.py"
    )


def test_fingerprint_changes_with_code_file_text_and_neighbourhood() -> None:
    lines = {1: "def f(x):", 2: "    y = torch.zeros(3)", 3: "    return x + y"}
    base = fingerprint(finding(2, 9, 23), lines, "m.py")
    assert fingerprint(finding(2, 9, 23, "DTL004"), lines, "m.py") != base
    assert fingerprint(finding(2, 9, 23), lines, "n.py") != base
    assert fingerprint(finding(2, 9, 23), {**lines, 2: "    y = torch.zeros(4)"}, "m.py") != base
    assert fingerprint(finding(2, 9, 23), {**lines, 3: "    return x * y"}, "m.py") != base


# --- baselines ---------------------------------------------------------------------------------


def insert_after(path: Path, anchor: str, text: str) -> None:
    source = path.read_text()
    assert anchor in source
    path.write_text(source.replace(anchor, anchor + text, 1))


def test_baseline_on_the_fixlog_hides_old_findings_after_edits_and_reports_a_new_one(
    tmp_path: Path,
) -> None:
    work = tmp_path / "project"
    shutil.copytree(FIXLOG / "before", work)
    written = dtypelint("check", "models", "--write-baseline", "dtypelint-baseline.json", cwd=work)
    assert (written.returncode, written.stdout) == (0, "")
    assert written.stderr == "Wrote 7 findings to the baseline dtypelint-baseline.json.\n"
    document = json.loads((work / "dtypelint-baseline.json").read_text())
    assert document["version"] == 1
    assert sum(entry["count"] for entry in document["entries"]) == 7
    assert {entry["file"] for entry in document["entries"]} == {
        "models/pixel_aligned.py",
        "models/encoders/hand_encoder.py",
    }
    assert set(document["entries"][0]) == {"code", "file", "fingerprint", "count"}

    clean = dtypelint("check", "models", "--baseline", "dtypelint-baseline.json", cwd=work)
    assert (clean.returncode, clean.stdout) == (0, "All checks passed!\n")

    # Unrelated edits that move every finding: new imports and helpers above them.
    pixel = work / "models" / "pixel_aligned.py"
    insert_after(
        pixel, "import torch\n", "import os\nimport sys\n\n\ndef unrelated():\n    return 1\n"
    )
    hand = work / "models" / "encoders" / "hand_encoder.py"
    insert_after(hand, "import torch\n", "\n# Notes added later.\nVERSION = 2\n")
    still_clean = dtypelint("check", "models", "--baseline", "dtypelint-baseline.json", cwd=work)
    assert (still_clean.returncode, still_clean.stdout) == (0, "All checks passed!\n")
    shifted = dtypelint("check", "models", "--output-format", "json", cwd=work)
    assert len(json.loads(shifted.stdout)) == 7  # all still there, on other lines

    # A new hazard is reported, and only it.
    pixel.write_text(
        pixel.read_text() + "\n\ndef lift(points_3d: torch.Tensor) -> torch.Tensor:\n"
        "    ones = torch.ones(points_3d.shape[0], 1, device=points_3d.device)\n"
        "    return torch.cat([points_3d, ones], dim=-1)\n"
    )
    new = dtypelint(
        "check",
        "models",
        "--baseline",
        "dtypelint-baseline.json",
        "--output-format",
        "json",
        cwd=work,
    )
    assert new.returncode == 1, new.stderr
    (reported,) = json.loads(new.stdout)
    rows = pixel.read_text().splitlines()
    assert reported["filename"] == str(work / "models" / "pixel_aligned.py")
    assert rows[reported["location"]["row"] - 1].strip().startswith("ones = torch.ones(")


def test_baseline_counts_copies(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--write-baseline", "base.json", "m.py") == (
        0,
        "",
        "Wrote 1 finding to the baseline base.json.\n",
    )
    # The same function again, word for word and far enough away to have the same neighbours:
    # one more copy than the baseline accepts, and the later one is reported.
    (project / "m.py").write_text("\n\n\n\n".join([HAZARD, HAZARD]))
    assert concise(capsys, "--baseline", "base.json", "m.py") == [
        "m.py:8:16: DTL001 [*] `zeros` called without `dtype=`"
    ]


def test_baseline_works_from_another_folder_and_with_fix(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pkg").mkdir()
    (project / "pkg" / "a.py").write_text(HAZARD)
    assert run(capsys, "--write-baseline", "base.json", ".")[0] == 0
    os.chdir(project / "pkg")
    assert run(capsys, "--baseline", "../base.json", "a.py") == (0, "All checks passed!\n", "")
    os.chdir(project)
    # --fix still fixes what the baseline hides: the baseline only filters the report.
    assert run(capsys, "--baseline", "base.json", "--fix", "m.py")[0] == 0
    assert (project / "m.py").read_text() == HAZARD_FIXED


# --- --since -----------------------------------------------------------------------------------


@pytest.fixture
def repo(project: Path) -> Path:
    (project / "old.py").write_text("def g(x):\n    return x * torch.zeros(2)\n")
    git(project, "init", "-q", "-b", "main")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "old hazards")
    return project


def test_since_reports_only_changed_lines_and_untracked_files(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "--since", "HEAD", ".") == (0, "All checks passed!\n", "")
    # A new hazard in a tracked file, an edit of another line, and a new untracked file.
    (repo / "m.py").write_text(
        "def f(x):\n    return x + torch.zeros(3)\n\n\ndef h(x):\n    return x - torch.zeros(4)\n"
    )
    (repo / "old.py").write_text(
        "def g(x):  # renamed argument? no\n    return x * torch.zeros(2)\n"
    )
    (repo / "new.py").write_text("y = torch.zeros(1)\n")
    assert concise(capsys, "--since", "HEAD", ".") == [
        "m.py:6:16: DTL001 [*] `zeros` called without `dtype=`",
        "new.py:1:5: DTL001 [*] `zeros` called without `dtype=`",
    ]
    # Everything is still reported without --since.
    assert len(concise(capsys, ".")) == 4
    # Paths limit the comparison as they limit the check.
    assert concise(capsys, "--since", "HEAD", "m.py") == [
        "m.py:6:16: DTL001 [*] `zeros` called without `dtype=`"
    ]


def test_since_a_branch_and_from_a_subfolder(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "pkg").mkdir()
    (repo / "pkg" / "a.py").write_text("z = torch.zeros(5)\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "feature")
    os.chdir(repo / "pkg")
    assert concise(capsys, "--since", "main", ".") == [
        "a.py:1:5: DTL001 [*] `zeros` called without `dtype=`"
    ]
    assert run(capsys, "--since", "HEAD", ".")[0] == 0


def test_parse_diff() -> None:
    output = (
        b"diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n"
        b"@@ -2,0 +3,2 @@ def f():\n+a\n+b\n@@ -7 +9 @@\n-x\n+y\n@@ -10,2 +11,0 @@\n-p\n-q\n"
        b'diff --git "a/t\\tab.py" "b/t\\tab.py"\n--- "a/t\\tab.py"\n+++ "b/t\\tab.py"\n'
        b"@@ -1 +1 @@\n-x\n+y\n"
        b"diff --git a/gone.py b/gone.py\n--- a/gone.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
        b'+++ "b/caf\\303\\251.py"\n@@ -0,0 +1 @@\n+x\n'
    )
    assert parse_diff(output) == {
        "m.py": frozenset({3, 4, 9}),
        "t\tab.py": frozenset({1}),
        "café.py": frozenset({1}),
    }


# --- --add-noqa --------------------------------------------------------------------------------


def test_add_noqa_silences_everything_and_a_second_run_adds_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "m.py").write_text(
        "def f(x, K):\n"
        "    a = K @ torch.zeros(3)\n"  # two findings, one comment
        "    b = x + torch.zeros(4)  # noqa: E501\n"  # merged with another tool's codes
        "    c = x + torch.zeros(5)  # keep this note   \n"
        "    d = x + torch.zeros(6)   \n"
        '    e = x + torch.zeros(7) + len("""\n'  # the line ends inside a string
        '""")\n'
        "    return a + b + c + d + e\n"
    )
    assert run(capsys, "--add-noqa", ".") == (
        0,
        "",
        "warning: m.py:6: cannot add `# noqa: DTL001`: the line ends inside a string or "
        "continues on the next one\nAdded 4 noqa directives.\n",
    )
    assert (project / "m.py").read_text() == (
        "def f(x, K):\n"
        "    a = K @ torch.zeros(3)  # noqa: DTL002, DTL001\n"
        "    b = x + torch.zeros(4)  # noqa: E501, DTL001\n"
        "    c = x + torch.zeros(5)  # keep this note  # noqa: DTL001\n"
        "    d = x + torch.zeros(6)  # noqa: DTL001\n"
        '    e = x + torch.zeros(7) + len("""\n'
        '""")\n'
        "    return a + b + c + d + e\n"
    )
    assert concise(capsys, ".") == ["m.py:6:13: DTL001 [*] `zeros` called without `dtype=`"]
    before = (project / "m.py").read_text()
    assert run(capsys, "--add-noqa", ".")[2].endswith("Added 0 noqa directives.\n")
    assert (project / "m.py").read_text() == before


def test_add_noqa_exit_code_and_messages(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "clean.py").write_text("x = 1\n")
    assert run(capsys, "--add-noqa", ".") == (0, "", "Added 1 noqa directive.\n")
    assert (project / "m.py").read_text() == (
        "def f(x):\n    return x + torch.zeros(3)  # noqa: DTL001\n"
    )
    assert run(capsys, ".") == (0, "All checks passed!\n", "")


def test_add_noqa_keeps_line_endings_and_encoding(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "m.py").write_bytes(b"\xef\xbb\xbfdef f(x):\r\n    return x + torch.zeros(3)\r\n")
    assert run(capsys, "--add-noqa", "m.py")[0] == 0
    assert (project / "m.py").read_bytes() == (
        b"\xef\xbb\xbfdef f(x):\r\n    return x + torch.zeros(3)  # noqa: DTL001\r\n"
    )


def test_add_noqa_to_text_unit() -> None:
    diagnostics = [finding(1, 5, 10), finding(1, 5, 10, "DTL002"), finding(2, 1, 2)]
    result = add_noqa_to_text("y = zeros()  # NOQA:DTL003 why\nz = 1", diagnostics, "m.py")
    assert result.text == "y = zeros()  # noqa: DTL003, DTL001, DTL002 why\nz = 1  # noqa: DTL001"
    assert (result.added, result.warnings) == (2, [])


def test_add_noqa_read_only_file_is_an_error(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "m.py").chmod(0o444)
    assert run(capsys, "--add-noqa", "m.py") == (
        2,
        "",
        "error: m.py: cannot write noqa comments: the file is read-only; left unchanged\n"
        "Added 0 noqa directives.\n",
    )


# --- per-file-ignores --------------------------------------------------------------------------


def test_per_file_ignores_end_to_end(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "test_m.py").write_text(HAZARD)
    (project / "legacy.py").write_text("def f(x, K):\n    return K @ torch.zeros(3)\n")
    (project / "pyproject.toml").write_text(
        "[tool.dtypelint.per-file-ignores]\n"
        '"tests/**" = ["DTL001"]\n'
        '"legacy.py" = ["camera-matmul-uncast"]\n'
    )
    assert concise(capsys, ".") == [
        "legacy.py:2:16: DTL001 [*] `zeros` called without `dtype=`",
        "m.py:2:16: DTL001 [*] `zeros` called without `dtype=`",
    ]
    os.chdir(project / "tests")  # the settings are found above the checked folder
    assert concise(capsys, ".") == []


def test_per_file_ignores_with_real_rules(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.dtypelint.per-file-ignores]\n"models/encoders/*" = ["DTL001"]\n'
    )
    shutil.copytree(FIXLOG / "before" / "models", tmp_path / "models")
    result = dtypelint("check", "models", "--output-format", "json", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    files = {finding["filename"] for finding in json.loads(result.stdout)}
    assert files == {str(tmp_path / "models" / "pixel_aligned.py")}


def test_force_exclude_applies_excludes_to_named_files(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text('[tool.dtypelint]\nextend-exclude = ["generated"]\n')
    for folder in ("generated", "build"):  # the project's exclude and a default one
        (project / folder).mkdir()
        (project / folder / "a.py").write_text(HAZARD)
    named = ["generated/a.py", "build/a.py", "m.py"]
    assert len(concise(capsys, *named)) == 3  # named files are checked...
    assert concise(capsys, "--force-exclude", *named) == [  # ...unless excludes are forced
        "m.py:2:16: DTL001 [*] `zeros` called without `dtype=`"
    ]
    assert concise(capsys, "--force-exclude", "generated") == []


def test_no_default_path(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--no-default-path") == (0, "All checks passed!\n", "")
    assert run(capsys, "--no-default-path", "m.py")[0] == 1


# --- bad input: one line, exit 2 ---------------------------------------------------------------


@pytest.fixture
def outside_git(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # Stop git from finding a repository above the temporary folder.
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(project.parent))
    return project


@pytest.mark.parametrize(
    ("setup", "args", "message"),
    [
        (
            None,
            ["--select", "DTL009", "m.py"],
            "unknown rule selector `DTL009` in --select; did you mean `DTL900`?",
        ),
        (
            None,
            ["--extend-select", "factory-without-dtpye", "m.py"],
            "unknown rule selector `factory-without-dtpye` in --extend-select; "
            "did you mean `factory-without-dtype`?",
        ),
        (
            ("pyproject.toml", '[tool.dtypelint]\nextend-ignore = ["DTL001"]\n'),
            ["m.py"],
            "{root}/pyproject.toml: unknown key `extend-ignore` in [tool.dtypelint]; "
            "did you mean `ignore`?",
        ),
        (
            ("pyproject.toml", '[tool.dtypelint]\nignore = ["DTL0001"]\n'),
            ["m.py"],
            "{root}/pyproject.toml: unknown rule selector `DTL0001` in `ignore`; "
            "did you mean `DTL001`?",
        ),
        (
            ("pyproject.toml", '[tool.dtypelint.per-file-ignores]\n"a.py" = ["DTL01"]\n'),
            ["m.py"],
            "{root}/pyproject.toml: unknown rule selector `DTL01` in `per-file-ignores` `a.py`; "
            "did you mean `DTL001`?",
        ),
        (
            None,
            ["--baseline", "missing.json", "m.py"],
            "baseline missing.json: cannot read: No such file or directory",
        ),
        (
            ("base.json", "{not json"),
            ["--baseline", "base.json", "m.py"],
            "baseline base.json: not a dtypelint baseline "
            "(invalid JSON: Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1))",
        ),
        (
            ("base.json", '{"version": 7, "entries": []}'),
            ["--baseline", "base.json", "m.py"],
            "baseline base.json: unsupported baseline version 7 (expected 1); "
            "write it again with --write-baseline",
        ),
        (
            ("base.json", '{"version": 1, "entries": [{"code": "DTL001"}]}'),
            ["--baseline", "base.json", "m.py"],
            "baseline base.json: entry 0: `file` must be a string",
        ),
        (
            None,
            ["--baseline", ".", "m.py"],
            "baseline .: cannot read: Is a directory",
        ),
        (
            None,
            ["--write-baseline", "no/such/folder/base.json", "m.py"],
            "baseline no/such/folder/base.json: cannot write: No such file or directory",
        ),
        (
            None,
            ["--since", "HEAD", "m.py"],
            "--since needs a git repository: {root} is not inside one",
        ),
        (
            None,
            ["--baseline", "a.json", "--write-baseline", "b.json"],
            "--baseline cannot be combined with --write-baseline",
        ),
        (None, ["--add-noqa", "--fix"], "--add-noqa cannot be combined with --fix"),
        (
            None,
            ["--add-noqa", "-"],
            "--add-noqa edits files; it cannot read from standard input",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    outside_git: Path,
    capsys: pytest.CaptureFixture[str],
    setup: tuple[str, str] | None,
    args: list[str],
    message: str,
) -> None:
    if setup is not None:
        (outside_git / setup[0]).write_text(setup[1])
    root = outside_git.resolve()
    assert run(capsys, *args) == (2, "", "error: " + message.format(root=root) + "\n")


@pytest.mark.parametrize("revision", ["no-such-branch", "-x", "HEAD~5"])
def test_since_an_unknown_revision(
    repo: Path, capsys: pytest.CaptureFixture[str], revision: str
) -> None:
    assert run(capsys, "--since", revision, ".") == (
        2,
        "",
        f"error: --since: unknown git revision `{revision}`\n",
    )


def test_bad_input_in_a_real_process_has_no_traceback(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(HAZARD)
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path.parent)}
    for args in (["--since", "HEAD", "m.py"], ["--baseline", "nope.json", "m.py"]):
        result = subprocess.run(
            [sys.executable, "-m", "dtypelint", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
