from __future__ import annotations

import ast
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from toy_rules import TOY_RULES, BreakingFix, ZerosWithoutDtype

from dtypelint.config import Config
from dtypelint.diagnostics import Diagnostic, Edit, Location
from dtypelint.engine import lint_paths
from dtypelint.fixer import FixWriteError, apply_fixes, fix_linted, fix_source, write_atomic
from dtypelint.linter import lint_source
from dtypelint.rules.base import Rule, make_fix


def diagnostic(
    code: str, edits: list[tuple[str, int, int, int, int]], safe: bool = True
) -> Diagnostic:
    fix = make_fix(
        f"fix {code}",
        [Edit(content, Location(r1, c1), Location(r2, c2)) for content, r1, c1, r2, c2 in edits],
        safe=safe,
    )
    start = Location(edits[0][1], edits[0][2])
    return Diagnostic(code, "name", "message", "m.py", start, start, fix)


# --- apply_fixes -----------------------------------------------------------------------------


def test_all_non_overlapping_fixes_are_applied_in_one_pass() -> None:
    source = "a = f(x)\nb = g(y)\n"
    fixes = [
        diagnostic("DTL002", [("G", 2, 5, 2, 6)]),
        diagnostic("DTL001", [("F", 1, 5, 1, 6), ("!", 1, 9, 1, 9)]),
    ]
    new, applied = apply_fixes(source, fixes, unsafe=False)
    assert new == "a = F(x)!\nb = G(y)\n"
    assert [d.code for d in applied] == ["DTL001", "DTL002"]


def test_overlapping_fix_is_deferred_and_equal_edits_count_once() -> None:
    source = "value = call(x)\n"
    first = diagnostic("DTL001", [("other", 1, 9, 1, 13)])
    overlapping = diagnostic("DTL002", [("c", 1, 10, 1, 11)])
    same_point = diagnostic("DTL003", [("A", 1, 9, 1, 9)])
    duplicate = diagnostic("DTL004", [("other", 1, 9, 1, 13)])
    new, applied = apply_fixes(source, [overlapping, first, same_point, duplicate], unsafe=False)
    assert new == "value = other(x)\n"
    assert [d.code for d in applied] == ["DTL001", "DTL004"]


def test_unsafe_fixes_need_unsafe() -> None:
    unsafe_fix = diagnostic("DTL002", [("K2", 1, 1, 1, 2)], safe=False)
    assert apply_fixes("K\n", [unsafe_fix], unsafe=False) == ("K\n", [])
    assert apply_fixes("K\n", [unsafe_fix], unsafe=True) == ("K2\n", [unsafe_fix])


def test_out_of_range_edits_are_ignored() -> None:
    bad = diagnostic("DTL001", [("x", 5, 1, 5, 1)])
    assert apply_fixes("a\n", [bad], unsafe=True) == ("a\n", [])


# --- fix_source ------------------------------------------------------------------------------


class RenameOuterCalls(Rule):
    """Replaces a whole `f(...)` call by `g(...)`: nested calls overlap, so one pass each."""

    code = "DTL001"
    name = "factory-without-dtype"
    summary = "test"

    def check(self, module) -> Iterator[Diagnostic]:  # type: ignore[no-untyped-def]
        for node in ast.walk(module.tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "f"
            ):
                text = module.source.segment(node)
                edit = Edit("g" + text[1:], module.source.start(node), module.source.end(node))
                fix = make_fix("rename", [edit], safe=True)
                yield self.diagnostic(module, node, "f call", fix)


def test_fixes_iterate_until_stable() -> None:
    result = fix_source("y = f(f(f(1)))\n", rules=(RenameOuterCalls,))
    assert result.source == "y = g(g(g(1)))\n"
    assert len(result.applied) == 3
    assert result.remaining == []
    assert result.warnings == []


class RevealCall(Rule):
    """Replaces the name `h` by `f(1)`, which `RenameOuterCalls` then flags: a fix that makes a
    new finding, what the re-lint after a round is the safety net for."""

    code = "DTL002"
    name = "camera-matmul-uncast"
    summary = "test"

    def check(self, module) -> Iterator[Diagnostic]:  # type: ignore[no-untyped-def]
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Name) and node.id == "h":
                edit = Edit("f(1)", module.source.start(node), module.source.end(node))
                yield self.diagnostic(module, node, "h", make_fix("call", [edit], safe=True))


def test_a_round_fixing_everything_is_linted_again_unless_told_not_to() -> None:
    """Very large files' segments skip the re-lint when a round fixed every finding; they lint
    again when a round left one (deferred, unsafe): its position must be the fixed text's."""
    rules = (RenameOuterCalls, RevealCall)
    found = lint_source("y = h\n", "m.py", Config(), rules)
    netted = fix_linted("y = h\n", found, "m.py", Config(), False, rules)
    assert (netted.source, netted.rounds) == ("y = g(1)\n", 2)
    once = fix_linted("y = h\n", found, "m.py", Config(), False, rules, relint_when_all_fixed=False)
    assert (once.source, once.rounds, once.remaining) == ("y = f(1)\n", 1, [])
    nested = "y = f(f(f(1)))\n"  # overlapping fixes: one a round, linted again each time
    found = lint_source(nested, "m.py", Config(), rules)
    deferred = fix_linted(
        nested, found, "m.py", Config(), False, rules, relint_when_all_fixed=False
    )
    assert (deferred.source, deferred.rounds) == ("y = g(g(g(1)))\n", 3)
    mixed = "def f(x, K):\n    return K @ torch.zeros(3)\n"
    found = lint_source(mixed, "m.py", Config(), TOY_RULES)
    left = fix_linted(mixed, found, "m.py", Config(), False, TOY_RULES, relint_when_all_fixed=False)
    assert left.source == "def f(x, K):\n    return K @ torch.zeros(3, dtype=x.dtype)\n"
    assert [(d.code, d.location) for d in left.remaining] == [("DTL002", Location(2, 12))]


def test_safe_fixes_only_unless_unsafe() -> None:
    source = "def f(x, K):\n    return K @ torch.zeros(3)\n"
    safe = fix_source(source, rules=TOY_RULES)
    assert safe.source == "def f(x, K):\n    return K @ torch.zeros(3, dtype=x.dtype)\n"
    assert [(d.code, d.location) for d in safe.remaining] == [("DTL002", Location(2, 12))]
    unsafe = fix_source(source, rules=TOY_RULES, unsafe=True)
    assert (
        unsafe.source == "def f(x, K):\n    return K.to(x.dtype) @ torch.zeros(3, dtype=x.dtype)\n"
    )
    assert (len(unsafe.applied), unsafe.remaining) == (2, [])


def test_a_fix_whose_result_would_not_parse_is_refused() -> None:
    source = "a = torch.zeros()\nbad()\n"
    result = fix_source(source, "m.py", rules=(ZerosWithoutDtype, BreakingFix))
    assert result.source == "a = torch.zeros(dtype=x.dtype)\nbad()\n"
    assert [d.code for d in result.applied] == ["DTL001"]
    assert [d.message for d in result.remaining] == ["bad call"]
    assert result.warnings == [
        "m.py:2:1: DTL001 fix not applied: the result would not parse ('(' was never closed); "
        "please report this at the rule's page " + result.remaining[0].url
    ]


def test_a_second_fix_changes_nothing() -> None:
    once = fix_source("y = torch.zeros(3)\n", rules=TOY_RULES)
    twice = fix_source(once.source, rules=TOY_RULES)
    assert (twice.source, twice.applied) == (once.source, [])


# --- files -----------------------------------------------------------------------------------


def fix_file(path: Path, config: Config | None = None, **options: object):  # type: ignore[no-untyped-def]
    [outcome] = lint_paths([path], config or Config(), jobs=1, fix=True, rules=TOY_RULES, **options)
    return outcome


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (b"y = torch.zeros(3)\r\nz = 1\r\n", b"y = torch.zeros(3, dtype=x.dtype)\r\nz = 1\r\n"),
        (b"\xef\xbb\xbfy = torch.zeros(3)\n", b"\xef\xbb\xbfy = torch.zeros(3, dtype=x.dtype)\n"),
        (
            b"# -*- coding: latin-1 -*-\ns = '\xe9'; y = torch.zeros()\n",
            b"# -*- coding: latin-1 -*-\ns = '\xe9'; y = torch.zeros(dtype=x.dtype)\n",
        ),
        (b"y = torch.zeros(3)", b"y = torch.zeros(3, dtype=x.dtype)"),  # no final newline
    ],
    ids=["crlf", "bom", "latin-1", "no-final-newline"],
)
def test_fixed_files_keep_bytes_outside_the_edits(
    tmp_path: Path, before: bytes, after: bytes
) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(before)
    outcome = fix_file(path)
    assert (len(outcome.fixed), outcome.diagnostics, outcome.errors) == (1, [], [])
    assert path.read_bytes() == after
    again = fix_file(path)
    assert (again.fixed, path.read_bytes()) == ([], after)


def test_syntax_error_file_is_untouched_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(b"y = torch.zeros(3)\ndef (\n")
    outcome = fix_file(path)
    assert [d.code for d in outcome.diagnostics] == ["DTL000"]
    assert path.read_bytes() == b"y = torch.zeros(3)\ndef (\n"


def test_read_only_file_is_reported_and_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(b"y = torch.zeros(3)\n")
    path.chmod(0o444)
    outcome = fix_file(path)
    assert outcome.errors == [f"{path}: cannot write fixes: the file is read-only; left unchanged"]
    assert [d.code for d in outcome.diagnostics] == ["DTL001"]  # still there, as before
    assert outcome.fixed == []
    assert path.read_bytes() == b"y = torch.zeros(3)\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert os.listdir(tmp_path) == ["m.py"]


def test_diff_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(b"y = torch.zeros(3)\n")
    [outcome] = lint_paths([path], Config(), jobs=1, diff=True, rules=TOY_RULES)
    assert outcome.diff == (
        f"--- {path}\n+++ {path}\n@@ -1 +1 @@\n"
        "-y = torch.zeros(3)\n+y = torch.zeros(3, dtype=x.dtype)\n"
    )
    assert path.read_bytes() == b"y = torch.zeros(3)\n"


def test_write_atomic_keeps_mode_bits_and_leaves_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "script.py"
    path.write_text("old\n")
    path.chmod(0o751)
    write_atomic(path, "new\r\n", "utf-8")
    assert path.read_bytes() == b"new\r\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert os.listdir(tmp_path) == ["script.py"]


def test_write_atomic_writes_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "real.py"
    target.write_text("old\n")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    write_atomic(link, "new\n", "utf-8")
    assert link.is_symlink()
    assert target.read_text() == "new\n"


def test_write_atomic_refuses_text_the_encoding_cannot_hold(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(b"# coding: latin-1\n")
    with pytest.raises(FixWriteError, match=r"cannot be encoded as iso-8859-1"):
        write_atomic(path, "# coding: latin-1\nx = '\u4e2d'\n", "iso-8859-1")
    assert path.read_bytes() == b"# coding: latin-1\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="changing a file's owner needs root")
def test_write_atomic_keeps_the_owner(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("old\n")
    os.chown(path, 12345, 23456)
    write_atomic(path, "new\n", "utf-8")
    assert (path.stat().st_uid, path.stat().st_gid) == (12345, 23456)
