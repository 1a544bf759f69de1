"""Every rule has a page in rules/ with the five sections; its examples go through the linter and fixer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import dtypelint
from dtypelint.rules import ALL_RULES, RULE_NAMES

PAGES = Path(__file__).resolve().parent.parent / "rules"
SECTIONS = (
    "## What it does",
    "## Why is this bad?",
    "## Example",
    "## Use instead",
    "## Fix safety",
)
CODE_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def section_code(page: str, heading: str) -> str:
    body = page.split(heading, 1)[1].split("\n## ", 1)[0]
    match = CODE_BLOCK.search(body)
    assert match, f"no python block under {heading}"
    return match.group(1)


@pytest.mark.parametrize("code", sorted(RULE_NAMES))
def test_page_has_every_section(code: str) -> None:
    page = (PAGES / f"{code}.md").read_text(encoding="utf-8")
    assert page.startswith(f"# {RULE_NAMES[code]} ({code})\n")
    positions = [page.index(section) for section in SECTIONS]
    assert positions == sorted(positions)


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_page_example_is_flagged_and_fixed_into_use_instead(rule: type) -> None:
    page = (PAGES / f"{rule.code}.md").read_text(encoding="utf-8")
    example = section_code(page, "## Example")
    use_instead = section_code(page, "## Use instead")
    assert rule.code in {d.code for d in dtypelint.lint_source(example, "example.py")}
    assert [d.code for d in dtypelint.lint_source(use_instead, "use_instead.py")] == []
    unsafe = "**unsafe**" in page.split("## Fix safety", 1)[1].split("\n\n", 1)[0]
    result = dtypelint.fix_source(example, "example.py", unsafe=unsafe)
    assert result.source == use_instead


def test_syntax_error_page_example() -> None:
    page = (PAGES / "DTL000.md").read_text(encoding="utf-8")
    assert [d.code for d in dtypelint.lint_source(section_code(page, "## Example"), "x.py")] == [
        "DTL000"
    ]


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_rule_class_examples(rule: type) -> None:
    """Fixit-style self-tests declared on each rule class."""
    for code in rule.valid:
        assert [d for d in dtypelint.lint_source(code, "valid.py") if d.code == rule.code] == []
    for case in rule.invalid:
        found = [d for d in dtypelint.lint_source(case.code, "invalid.py") if d.code == rule.code]
        assert [(d.location.row, d.location.column) for d in found][:1] == [
            (case.line, case.column)
        ]
        if case.fixed is not None:
            assert (
                dtypelint.fix_source(case.code, "invalid.py", unsafe=case.unsafe).source
                == case.fixed
            )
