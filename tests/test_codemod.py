"""Fix edits (dtypelint/codemod.py): adding a keyword argument without libcst where the layout is
plain gives exactly libcst's edit."""

from __future__ import annotations

import ast
import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import ROOT

from dtypelint import codemod
from dtypelint.source import SourceText

#: Real code with calls of every layout; kornia's sources when this machine has them.
CORPORA = [ROOT / "fixtures", ROOT / "evaluation", ROOT / "tests", Path("/work/corpora/kornia")]


def corpus_files() -> Iterator[Path]:
    for folder in CORPORA:
        if folder.is_dir():
            yield from sorted(folder.rglob("*.py"))


def with_libcst(source: SourceText, call: ast.Call, keyword: str) -> str | None:
    """The call's text with `keyword` added, rendered by libcst (insert_keyword's other path)."""
    import libcst as cst

    start, end = source.offset(source.start(call)), source.offset(source.end(call))
    try:
        expression = cst.parse_expression(source.text[start:end])
    except cst.ParserSyntaxError:
        return None
    if not isinstance(expression, cst.Call):
        return None
    name, value = keyword.split("=", 1)
    changed = expression.with_changes(args=codemod._with_keyword(expression.args, name, value))
    return cst.Module([]).code_for_node(changed)


def test_plain_layouts_are_rendered_as_libcst_renders_them() -> None:
    compared = 0
    for path in corpus_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError):
                continue
        source = SourceText(text)
        for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
            start, end = source.offset(source.start(call)), source.offset(source.end(call))
            old = text[start:end]
            fast = codemod._appended(source, call, old, end, "dtype=x.dtype")
            if fast is None:
                continue
            assert fast == with_libcst(source, call, "dtype=x.dtype"), (path, call.lineno)
            compared += 1
    assert compared > 500


@pytest.mark.parametrize(
    ("call", "plain"),
    [
        ("torch.zeros(3)", True),
        ("torch.zeros()", True),
        ("torch.zeros (3, device=d)", True),
        ("torch.zeros(*shape)", True),
        ("torch.zeros(**options)", True),
        ("torch.zeros(3 )", False),
        ("torch.zeros(3,)", False),
        ("torch.zeros( )", False),
        ("torch.zeros((3))", False),
        ("torch.zeros(3  # rows\n)", False),
        ("torch.zeros(\n    3,\n    4,\n)", False),
        ("torch.zeros(x for x in y)", False),
    ],
)
def test_each_layout_gets_libcsts_edit(call: str, plain: bool) -> None:
    text = f"y = {call}\n"
    source = SourceText(text)
    node = next(n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call))
    end = source.offset(source.end(node))
    old = text[source.offset(source.start(node)) : end]
    fast = codemod._appended(source, node, old, end, "dtype=x.dtype")
    assert (fast is not None) == plain
    expected = with_libcst(source, node, "dtype=x.dtype")
    if fast is not None:
        assert fast == expected
    edit = codemod.insert_keyword(source, node, "dtype", "x.dtype")
    assert edit is not None
    start = source.offset(edit.location)
    fixed = text[:start] + edit.content + text[source.offset(edit.end_location) :]
    assert fixed == f"y = {expected}\n"


def test_no_libcst_for_a_plain_fix(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "m.py").write_text(
        "import torch\n\n\ndef f(x: torch.Tensor):\n    return x * torch.zeros(3)\n"
    )
    script = (
        "import sys\nfrom dtypelint.cli import main\ncode = main(['check', 'm.py'])\n"
        "print('libcst' in sys.modules, file=sys.stderr)\nsys.exit(code)"
    )
    env = {**os.environ, "DTYPELINT_NO_CACHE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, env=env
    )
    assert (
        "add dtype=x.dtype" in done.stdout
        and "+     return x * torch.zeros(3, dtype" in done.stdout
    )
    assert done.stderr.strip() == "False"


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        # deepinv's DRUNet (review round 22): `)` on its own row stays there; the keyword joins
        # the last argument's row (it was `device=x.device, ` and `dtype=x.dtype)` below)
        (
            "torch.ones(\n    (b, 1), device=x.device\n) * s",
            "torch.ones(\n    (b, 1), device=x.device, dtype=x.dtype\n) * s",
        ),
        ("torch.zeros(3 )", "torch.zeros(3, dtype=x.dtype )"),
        ("torch.zeros(\n    3,\n    4,\n)", "torch.zeros(\n    3,\n    4,\n    dtype=x.dtype,\n)"),
        ("torch.zeros(3  # rows\n)", "torch.zeros(3, dtype=x.dtype  # rows\n)"),
    ],
)
def test_a_keyword_added_to_a_call_laid_over_rows(call: str, expected: str) -> None:
    text = f"y = {call}\n"
    source = SourceText(text)
    node = next(n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call))
    edit = codemod.insert_keyword(source, node, "dtype", "x.dtype")
    assert edit is not None
    start = source.offset(edit.location)
    fixed = text[:start] + edit.content + text[source.offset(edit.end_location) :]
    assert fixed == f"y = {expected}\n"
    ast.parse(fixed)
