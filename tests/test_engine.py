from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from toy_rules import TOY_RULES, Crashes, NoFixRule, ZerosWithoutDtype

from dtypelint.config import Config
from dtypelint.diagnostics import Location
from dtypelint.engine import (
    DecodedSource,
    FileOutcome,
    RuleError,
    discover_files,
    lint_paths,
    lint_source,
    read_source,
)
from dtypelint.source import SourceText

ZEROS = "def f(x):\n    return torch.zeros(3)\n"


def write(root: Path, relative: str, text: str = "x = 1\n") -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def names(files: list[Path], root: Path) -> list[str]:
    return [(file.relative_to(root) if file.is_absolute() else file).as_posix() for file in files]


# --- discovery -------------------------------------------------------------------------------


@pytest.fixture
def tree(in_tmp: Path) -> Path:
    for relative in (
        "a.py",
        "b.pyi",
        "notes.txt",
        "pkg/c.py",
        "pkg/sub/d.py",
        "build/e.py",
        ".venv/lib/f.py",
        "pkg/__pycache__/g.py",
        "node_modules/h.py",
        ".git-free/i.py",
    ):
        write(in_tmp, relative)
    return in_tmp


def test_folders_are_walked_for_python_files_minus_default_excludes(tree: Path) -> None:
    files = discover_files(["."], Config(project_root=tree))
    assert names(files, tree) == [".git-free/i.py", "a.py", "b.pyi", "pkg/c.py", "pkg/sub/d.py"]


def test_no_duplicates_and_sorted_whatever_the_argument_order(tree: Path) -> None:
    files = discover_files(["pkg", "a.py", ".", "pkg/c.py"], Config(project_root=tree))
    assert [f.as_posix() for f in files] == [
        ".git-free/i.py",
        "a.py",
        "b.pyi",
        "pkg/c.py",
        "pkg/sub/d.py",
    ]


def test_explicit_files_are_always_checked(tree: Path) -> None:
    files = discover_files(["build/e.py", "notes.txt"], Config(project_root=tree))
    assert [f.as_posix() for f in files] == ["build/e.py", "notes.txt"]


def test_an_explicitly_named_excluded_folder_is_walked(tree: Path) -> None:
    assert [f.as_posix() for f in discover_files(["build"], Config())] == ["build/e.py"]


def test_exclude_replaces_the_defaults_and_extend_exclude_adds(tree: Path) -> None:
    config = Config(exclude=(), extend_exclude=("pkg/sub", "*.pyi"), project_root=tree)
    assert names(discover_files(["."], config), tree) == [
        ".git-free/i.py",
        ".venv/lib/f.py",
        "a.py",
        "build/e.py",
        "node_modules/h.py",
        "pkg/__pycache__/g.py",
        "pkg/c.py",
    ]


def test_anchored_exclude_is_relative_to_the_project_root(tree: Path) -> None:
    config = Config(extend_exclude=("pkg/c.py",), project_root=tree)
    assert names(discover_files(["pkg"], config), tree) == ["pkg/sub/d.py"]


GITIGNORE = "# comment\nignored_dir/\n*.gen.py\n!keep.gen.py\n/rootonly.py\n"


def make_gitignored_tree(root: Path) -> None:
    write(root, ".gitignore", GITIGNORE)
    for relative in (
        "ok.py",
        "ignored_dir/a.py",
        "x.gen.py",
        "keep.gen.py",
        "rootonly.py",
        "deeper/rootonly.py",
        "deeper/y.gen.py",
    ):
        write(root, relative)


EXPECTED_AFTER_GITIGNORE = ["deeper/rootonly.py", "keep.gen.py", "ok.py"]


def test_gitignore_is_honoured_outside_git(in_tmp: Path) -> None:
    make_gitignored_tree(in_tmp)
    assert names(discover_files(["."], Config()), in_tmp) == EXPECTED_AFTER_GITIGNORE


def test_gitignore_is_honoured_in_a_git_work_tree(in_tmp: Path) -> None:
    make_gitignored_tree(in_tmp)
    subprocess.run(["git", "init", "-q"], cwd=in_tmp, check=True)
    subprocess.run(["git", "add", "ok.py"], cwd=in_tmp, check=True)  # tracked and untracked
    assert names(discover_files(["."], Config()), in_tmp) == EXPECTED_AFTER_GITIGNORE


def test_git_listing_still_applies_default_excludes(in_tmp: Path) -> None:
    write(in_tmp, "a.py")
    write(in_tmp, "build/b.py")
    subprocess.run(["git", "init", "-q"], cwd=in_tmp, check=True)
    assert names(discover_files(["."], Config()), in_tmp) == ["a.py"]


# --- reading ---------------------------------------------------------------------------------


def test_crlf_bom_and_encoding_are_remembered(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_bytes(b"\xef\xbb\xbfx = 1\r\ny = 2\r\n")
    assert read_source(path) == DecodedSource("x = 1\r\ny = 2\r\n", "utf-8", bom=True)

    path.write_bytes(b"# -*- coding: latin-1 -*-\ns = '\xe9'\n")
    assert read_source(path) == DecodedSource(
        "# -*- coding: latin-1 -*-\ns = '\u00e9'\n", "iso-8859-1", bom=False
    )


def test_undecodable_bytes_are_a_dtl000_at_the_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "bad.py"
    path.write_bytes(b"x = 1\ny = '\xff'\n")
    diagnostic = read_source(path, "bad.py")
    assert not isinstance(diagnostic, DecodedSource)
    assert (diagnostic.code, diagnostic.name, diagnostic.filename) == (
        "DTL000",
        "syntax-error",
        "bad.py",
    )
    assert diagnostic.location == Location(2, 6)
    assert diagnostic.message == (
        "SyntaxError: (unicode error) 'utf-8' codec can't decode byte 0xff in position 11: "
        "invalid start byte"
    )


def test_unknown_coding_cookie_is_a_dtl000(tmp_path: Path) -> None:
    path = tmp_path / "bad.py"
    path.write_bytes(b"# coding: klingon\nx = 1\n")
    diagnostic = read_source(path, "bad.py")
    assert not isinstance(diagnostic, DecodedSource)
    assert diagnostic.location == Location(1, 1)
    assert diagnostic.message == "SyntaxError: unknown encoding: klingon"


# --- lint_source -----------------------------------------------------------------------------


def lint(source: str, config: Config | None = None, rules=TOY_RULES):  # type: ignore[no-untyped-def]
    return [
        (d.code, d.location.row, d.location.column, d.message)
        for d in lint_source(source, "m.py", config, rules)
    ]


def test_syntax_error_reports_the_parsers_message_and_position() -> None:
    [diagnostic] = lint_source("x = 1\ndef f(:\n    pass\n", "m.py", None, TOY_RULES)
    assert diagnostic.to_json() == {
        "code": "DTL000",
        "name": "syntax-error",
        "message": "SyntaxError: invalid syntax",
        "filename": "m.py",
        "location": {"row": 2, "column": 7},
        "end_location": {"row": 2, "column": 8},
        "fix": None,
        "url": diagnostic.url,
    }


def test_indentation_error_and_null_bytes() -> None:
    assert lint("if x:\npass\n") == [
        (
            "DTL000",
            2,
            1,
            "IndentationError: expected an indented block after 'if' statement on line 1",
        )
    ]
    assert lint("x = 1\ny = 2\0\n") == [
        ("DTL000", 2, 6, "SyntaxError: source code string cannot contain null bytes")
    ]


def test_findings_are_sorted_by_position_then_code() -> None:
    source = "def f(x, K):\n    a = K @ x.zeros()\n    return torch.zeros(2) + x.zeros(1)\n"
    assert lint(source) == [
        ("DTL002", 2, 9, "camera value `K` meets an activation"),
        ("DTL001", 2, 13, "`zeros` called without `dtype=`"),
        ("DTL001", 3, 12, "`zeros` called without `dtype=`"),
        ("DTL001", 3, 29, "`zeros` called without `dtype=`"),
    ]


def test_columns_are_characters_not_bytes() -> None:
    assert lint("é = 'ü'; y = torch.zeros(3)\n") == [
        ("DTL001", 1, 14, "`zeros` called without `dtype=`")
    ]


@pytest.mark.parametrize(
    ("comment", "silenced"),
    [
        ("# noqa", True),
        ("# NOQA", True),
        ("#noqa:DTL001", True),
        ("# noqa: DTL002, DTL001", True),
        ("# noqa: DTL002 DTL001 because reasons", True),
        ("# noqa: DTL002", False),
        ("# noqa: DTL00", False),  # codes are matched exactly, not as prefixes
        ("# noqa: dtl001", False),
        ("# type: ignore  # noqa: DTL001", True),
    ],
)
def test_noqa_on_the_findings_line(comment: str, silenced: bool) -> None:
    found = lint(f"y = torch.zeros(3)  {comment}\n")
    assert found == ([] if silenced else [("DTL001", 1, 5, "`zeros` called without `dtype=`")])


def test_noqa_on_another_line_does_not_silence() -> None:
    assert lint("# noqa\ny = torch.zeros(3)\n") == [
        ("DTL001", 2, 5, "`zeros` called without `dtype=`")
    ]


def test_file_level_noqa_in_the_first_comment_block() -> None:
    assert lint("#!/usr/bin/env python\n\n# dtypelint: noqa\ny = torch.zeros(3)\n") == []
    assert lint("# Dtypelint: NOQA: DTL002\ny = torch.zeros(3) @ K\n") == [
        ("DTL001", 2, 5, "`zeros` called without `dtype=`")
    ]
    # After the first statement it is an ordinary comment.
    assert lint("y = torch.zeros(3)\n# dtypelint: noqa\n") == [
        ("DTL001", 1, 5, "`zeros` called without `dtype=`")
    ]


def test_selection_and_per_file_ignores() -> None:
    source = "y = torch.zeros(3) @ K\n"
    assert [code for code, *_ in lint(source, Config(select=("DTL00",)))] == ["DTL001", "DTL002"]
    assert [code for code, *_ in lint(source, Config(ignore=("camera-matmul-uncast",)))] == [
        "DTL001"
    ]
    assert [code for code, *_ in lint(source, Config(per_file_ignores={"m.py": ("DTL001",)}))] == [
        "DTL002"
    ]


def test_syntax_errors_are_reported_unless_explicitly_ignored() -> None:
    assert [code for code, *_ in lint("def (", Config(select=("DTL002",)))] == ["DTL000"]
    assert lint("def (", Config(ignore=("DTL000",))) == []


def test_a_crashing_rule_is_an_error_naming_rule_and_file() -> None:
    with pytest.raises(RuleError, match=r"^m\.py: internal error in DTL002: ValueError\('boom'\)$"):
        lint_source("x = 1\n", "m.py", None, (ZerosWithoutDtype, Crashes))


# --- many files ------------------------------------------------------------------------------


def test_the_run_goes_on_past_broken_files(in_tmp: Path) -> None:
    write(in_tmp, "a_syntax.py", "def (\n")
    (in_tmp / "b_bytes.py").write_bytes(b"\xff\n")
    write(in_tmp, "c_good.py", ZEROS)
    write(in_tmp, "d_crash.py", "x = 1\n")
    files = discover_files(["."], Config())
    outcomes = lint_paths([*files, Path("missing.py")], Config(), jobs=1, rules=TOY_RULES)
    summary = [(o.filename, [d.code for d in o.diagnostics], o.errors) for o in outcomes]
    assert summary == [
        ("a_syntax.py", ["DTL000"], []),
        ("b_bytes.py", ["DTL000"], []),
        ("c_good.py", ["DTL001"], []),
        ("d_crash.py", [], []),
        ("missing.py", ["DTL900"], []),  # a path that cannot be read is a finding, like E902
    ]
    # The finding's line and its neighbours (for fingerprints), up to the end of the file.
    assert outcomes[2].lines == {1: "def f(x):", 2: "    return torch.zeros(3)", 3: ""}
    crashed = lint_paths([Path("d_crash.py")], Config(), jobs=1, rules=(Crashes,))
    assert crashed[0].errors == ["d_crash.py: internal error in DTL002: ValueError('boom')"]


def test_process_pool_gives_the_same_results_in_the_same_order(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dtypelint import scheduling

    monkeypatch.setattr(scheduling, "POOL_MIN_BYTES", 0)  # a pool even for tiny files
    for index in range(40):
        write(in_tmp, f"m{index:02}.py", ZEROS if index % 3 else "print(1)\n")
    files = discover_files(["."], Config())
    rules = (ZerosWithoutDtype, NoFixRule)
    serial = lint_paths(files, Config(), jobs=1, rules=rules)
    parallel = lint_paths(files, Config(), jobs=2, rules=rules)
    assert [(o.filename, o.diagnostics) for o in parallel] == [
        (o.filename, o.diagnostics) for o in serial
    ]
    assert sum(len(o.diagnostics) for o in parallel) == 40


def test_an_analysis_error_in_one_file_does_not_sink_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 2,000-term chain is analysed (each file runs with a deep stack); an analysis that still
    raises is a DTL901 finding on its file and an error line; the other file is still checked."""
    write(
        tmp_path,
        "good.py",
        "import torch\ndef f(x: torch.Tensor):\n    return x + torch.zeros(3)\n",
    )
    deep = " + ".join(["x"] * 2000)
    write(
        tmp_path,
        "deep.py",
        f"import torch\ndef f(x: torch.Tensor):\n    return torch.zeros(3) + {deep}\n",
    )

    def outcomes() -> dict[str, FileOutcome]:
        found = lint_paths(discover_files([str(tmp_path)], Config()), Config(), jobs=1)
        return {Path(o.filename).name: o for o in found}

    checked = outcomes()
    assert [d.code for d in checked["good.py"].diagnostics] == ["DTL001"]
    assert [d.code for d in checked["deep.py"].diagnostics] == ["DTL001"]
    assert checked["deep.py"].errors == []

    import dtypelint.analysis

    real = dtypelint.analysis.ModuleAnalysis

    def analysis(
        tree: object, source: SourceText, filename: str, *args: object, **kwargs: object
    ) -> object:
        if filename.endswith("deep.py"):
            raise RecursionError("maximum recursion depth exceeded")
        return real(tree, source, filename, *args, **kwargs)

    monkeypatch.setattr(dtypelint.analysis, "ModuleAnalysis", analysis)
    crashed = outcomes()
    assert [d.code for d in crashed["good.py"].diagnostics] == ["DTL001"]
    bad = crashed["deep.py"]
    assert [d.code for d in bad.diagnostics] == ["DTL901"]
    assert "RecursionError: maximum recursion depth exceeded" in bad.diagnostics[0].message
    assert "internal error in the analysis: RecursionError" in bad.errors[0]


def test_exclude_patterns_matched_at_once_as_one_by_one() -> None:
    """pathmatch.PatternSet (one regex for the name patterns) equals path_matches per pattern."""
    import itertools

    from dtypelint.config import path_matches
    from dtypelint.engine import DEFAULT_EXCLUDE
    from dtypelint.pathmatch import PatternSet

    extra = ["build/", "*.py", "src/gen", "/top", "./dot", "", "/", "a/**/b", "**/c.py", "[!a]*x"]
    extra += ["?x", "gen/", "x/y/", "*_pb2.py", "tests", "  spaced  ", "data[0-9]"]
    names = ["build", "src", "gen", "top", "dot", "a", "b", "c.py", "x", "bx", "y", "m_pb2.py"]
    names += ["tests", "data1", "spaced", ".venv", "node_modules", "m.py", "deep"]
    all_parts = [()]
    all_parts += [(name,) for name in names]
    all_parts += list(itertools.product(names[:8], names[6:14]))
    all_parts += list(itertools.product(["src", "a", "x"], ["gen", "deep", "y"], names))
    for patterns in ([*DEFAULT_EXCLUDE], extra, [*DEFAULT_EXCLUDE, *extra], []):
        for first in (0, 1, 2):
            combined = PatternSet(patterns, first)
            for parts in all_parts:
                expected = any(path_matches(p, parts, first) for p in patterns)
                assert combined.matches(parts) == expected, (patterns, first, parts)
