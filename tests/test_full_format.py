"""The `full` format is ruff 0.17's layout, character for character.

Each expected text below is what ruff 0.17.6 printed for the same source, span and fix (its
rules C408, B018, E711, F401 and E741 on these snippets); the findings are rebuilt here as
dtypelint Diagnostics, so the renderer is held to ruff's own output: two lines of context with
blank edge lines left out, gutters as wide as the largest line number, multi-line spans drawn in
a margin, tabs shown as four spaces, and the fix preview as a line diff.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
from support import FIXLOG, dtypelint

from dtypelint.diagnostics import Applicability, Diagnostic, Edit, Fix, Location
from dtypelint.render_full import render
from dtypelint.source import SourceText

Span = tuple[int, int]


def rendered(
    source: str,
    span: tuple[Span, Span],
    message: str,
    edits: Sequence[tuple[str, Span, Span]] | None = None,
    help_text: str = "",
    *,
    code: str = "C408",
    safe: bool = False,
) -> str:
    text = SourceText(source)
    lines = {row: text.line(row) for row in range(1, len(text.line_starts) + 1)}
    fix = None
    if edits is not None:
        applicability = Applicability.SAFE if safe else Applicability.UNSAFE
        fix = Fix(
            applicability,
            help_text,
            tuple(Edit(c, Location(*a), Location(*b)) for c, a, b in edits),
        )
    diagnostic = Diagnostic(
        code, "name", message, "m.py", Location(*span[0]), Location(*span[1]), fix
    )
    return "\n".join(render(diagnostic, lines, len(text.line_starts), fixable=safe)) + "\n"


DICT_CALL = "import os\n\n\n\ny = 1\nx = dict(\n    a=1,\n    b=2,\n)\nz = 2\n\n\n"


def test_a_span_over_several_lines_with_a_two_digit_gutter_and_an_unsafe_fix() -> None:
    literal = '{\n    "a": 1,\n    "b": 2,\n}'
    assert rendered(
        DICT_CALL,
        ((6, 5), (9, 2)),
        "Unnecessary `dict()` call (rewrite as a literal)",
        [(literal, (6, 5), (9, 2))],
        "Rewrite as a literal",
    ) == (
        "C408 Unnecessary `dict()` call (rewrite as a literal)\n"
        "  --> m.py:6:5\n"
        "   |\n"
        " 5 |   y = 1\n"
        " 6 |   x = dict(\n"
        "   |  _____^\n"
        " 7 | |     a=1,\n"
        " 8 | |     b=2,\n"
        " 9 | | )\n"
        "   | |_^\n"
        "10 |   z = 2\n"
        "   |\n"
        "help: Rewrite as a literal\n"
        "   |\n"
        "5  | y = 1\n"
        "   - x = dict(\n"
        "   -     a=1,\n"
        "   -     b=2,\n"
        "   - )\n"
        "6  + x = {\n"
        '7  +     "a": 1,\n'
        '8  +     "b": 2,\n'
        "9  + }\n"
        "10 | z = 2\n"
        "   |\n"
        "note: This is an unsafe fix and may change runtime behavior\n"
    )


def test_a_span_that_starts_a_line_is_drawn_with_a_slash() -> None:
    source = "def f():\n    (\n        1,\n        2)\n    return 1\n"
    assert rendered(
        source,
        ((2, 5), (4, 11)),
        "Found useless expression. Either assign it to a variable or remove it.",
        code="B018",
    ) == (
        "B018 Found useless expression. Either assign it to a variable or remove it.\n"
        " --> m.py:2:5\n"
        "  |\n"
        "1 |   def f():\n"
        "2 | /     (\n"
        "3 | |         1,\n"
        "4 | |         2)\n"
        "  | |__________^\n"
        "5 |       return 1\n"
        "  |\n"
    )


def test_tabs_are_four_spaces_in_the_source_and_kept_in_the_fix_preview() -> None:
    source = "def f():\n\tx = dict(\n\t\ta=1)\n\treturn x\n"
    assert rendered(
        source,
        ((2, 6), (3, 7)),
        "Unnecessary `dict()` call (rewrite as a literal)",
        [('{\n\t\t"a": 1}', (2, 6), (3, 7))],
        "Rewrite as a literal",
    ) == (
        "C408 Unnecessary `dict()` call (rewrite as a literal)\n"
        " --> m.py:2:6\n"
        "  |\n"
        "1 |   def f():\n"
        "2 |       x = dict(\n"
        "  |  _________^\n"
        "3 | |         a=1)\n"
        "  | |____________^\n"
        "4 |       return x\n"
        "  |\n"
        "help: Rewrite as a literal\n"
        "  |\n"
        "1 | def f():\n"
        "  - \tx = dict(\n"
        "  - \t\ta=1)\n"
        "2 + \tx = {\n"
        '3 + \t\t"a": 1}\n'
        "4 | \treturn x\n"
        "  |\n"
        "note: This is an unsafe fix and may change runtime behavior\n"
    )


SMALL = "import os\nimport sys\n\ndef f(x):\n    l = 1\n    return x == None\n"


def test_a_finding_on_the_last_line_closes_no_gutter() -> None:
    assert rendered(
        SMALL,
        ((6, 17), (6, 21)),
        "Comparison to `None` should be `cond is None`",
        [("is", (6, 14), (6, 16)), ("None", (6, 17), (6, 21))],
        "Replace with `cond is None`",
        code="E711",
    ) == (
        "E711 Comparison to `None` should be `cond is None`\n"
        " --> m.py:6:17\n"
        "  |\n"
        "4 | def f(x):\n"
        "5 |     l = 1\n"
        "6 |     return x == None\n"
        "  |                 ^^^^\n"
        "help: Replace with `cond is None`\n"
        "  |\n"
        "5 |     l = 1\n"
        "  -     return x == None\n"
        "6 +     return x is None\n"
        "  |\n"
        "note: This is an unsafe fix and may change runtime behavior\n"
    )


def test_blank_lines_at_the_edge_of_the_context_are_left_out_and_a_safe_fix_has_no_note() -> None:
    assert rendered(
        SMALL,
        ((1, 8), (1, 10)),
        "`os` imported but unused",
        [("", (1, 1), (2, 1))],
        "Remove unused import: `os`",
        code="F401",
        safe=True,
    ) == (
        "F401 [*] `os` imported but unused\n"
        " --> m.py:1:8\n"
        "  |\n"
        "1 | import os\n"
        "  |        ^^\n"
        "2 | import sys\n"
        "  |\n"
        "help: Remove unused import: `os`\n"
        "  |\n"
        "  - import os\n"
        "1 | import sys\n"
        "  |\n"
    )
    assert rendered(SMALL, ((5, 5), (5, 6)), "Ambiguous variable name: `l`", code="E741") == (
        "E741 Ambiguous variable name: `l`\n"
        " --> m.py:5:5\n"
        "  |\n"
        "4 | def f(x):\n"
        "5 |     l = 1\n"
        "  |     ^\n"
        "6 |     return x == None\n"
        "  |\n"
    )


def test_a_path_that_cannot_be_read_has_no_source_lines() -> None:
    # As ruff prints E902: the header and the location, no source.
    diagnostic = Diagnostic(
        "DTL900", "io-error", "No such file or directory (os error 2)", "nosuch.py",
        Location(1, 1), Location(1, 1),
    )  # fmt: skip
    assert render(diagnostic, {}, 0, fixable=False) == [
        "DTL900 No such file or directory (os error 2)",
        "--> nosuch.py:1:1",
    ]


# --- the real rules, end to end ----------------------------------------------------------------


PIXEL_ALIGNED_92 = """\
DTL001 [*] torch.ones(...) defaults to float32 but meets 'points_3d'; add dtype=points_3d.dtype
  --> models/pixel_aligned.py:92:45
   |
91 |         # Homogeneous coordinates
92 |         points_homo = torch.cat([points_3d, torch.ones(B, N, 1, device=points_3d.device)], dim=-1)
   |                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
93 |
94 |         # World -> camera. The extrinsics act on column vectors, the points are
   |
help: Add `dtype=points_3d.dtype`
   |
91 |         # Homogeneous coordinates
   -         points_homo = torch.cat([points_3d, torch.ones(B, N, 1, device=points_3d.device)], dim=-1)
92 +         points_homo = torch.cat([points_3d, torch.ones(B, N, 1, device=points_3d.device, dtype=points_3d.dtype)], dim=-1)
93 |
   |

"""


def test_fixlog_full_report_and_readme_example() -> None:
    result = dtypelint("check", "models/pixel_aligned.py", cwd=FIXLOG / "before")
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout.startswith(PIXEL_ALIGNED_92)
    assert result.stdout.endswith("\n\nFound 3 errors.\n[*] 3 fixable with `--fix`.\n")
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert PIXEL_ALIGNED_92 + "Found 1 error.\n[*] 1 fixable with `--fix`.\n" in readme


def test_full_report_after_fix_shows_what_remains_with_the_fixed_source(tmp_path: Path) -> None:
    work = tmp_path / "before"
    shutil.copytree(FIXLOG / "before", work)
    first = dtypelint("--fix", "--select", "DTL001", "models", cwd=work)
    assert first.stdout == "Found 5 errors (5 fixed, 0 remaining).\n"
    second = dtypelint("--output-format", "concise", "models", cwd=work)
    assert second.stdout.splitlines()[-2:] == ["Found 2 errors.", "[*] 2 fixable with `--fix`."]


def test_json_names_standard_input_as_ruff_does(tmp_path: Path) -> None:
    import subprocess
    import sys

    source = (FIXLOG / "before" / "models" / "pixel_aligned.py").read_text()

    def filenames(*args: str) -> set[str]:
        completed = subprocess.run(
            [sys.executable, "-m", "dtypelint", "--output-format", "json", *args, "-"],
            input=source,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
        return {finding["filename"] for finding in json.loads(completed.stdout)}

    assert filenames() == {"-"}
    assert filenames("--stdin-filename", "pkg/m.py") == {str(tmp_path / "pkg" / "m.py")}


@pytest.mark.parametrize("output_format", ["full", "concise"])
def test_fix_status_marks_are_left_out_after_fix(tmp_path: Path, output_format: str) -> None:
    """After --fix, what remains could not be fixed: ruff shows no `[*]` there."""
    (tmp_path / "m.py").write_text(
        "import torch\n\n\ndef f(x: torch.Tensor, K: torch.Tensor):\n"
        "    return x @ K.T + torch.zeros(3, device=x.device)\n"
    )
    result = dtypelint(
        "--fix", "--output-format", output_format, "--unfixable", "DTL002", "m.py", cwd=tmp_path
    )
    assert "[*]" not in result.stdout
    assert result.stdout.rstrip().endswith("Found 2 errors (1 fixed, 1 remaining).")
