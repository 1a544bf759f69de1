"""edit_check.py: a fixed text is shown to parse by its edited statements only when that proves
it; every case it cannot decide is left to a whole-text parse (False)."""

from __future__ import annotations

import ast
import itertools
import random
import warnings
from pathlib import Path

import pytest

from dtypelint.edit_check import edits_parse
from dtypelint.source import SourceText

SOURCE = """\
import torch


def project(points, flag):
    ones = torch.ones(points.shape[0], 1, device=points.device)  # homogeneous
    grid = torch.zeros(
        points.shape[0],
        2,
    )
    a = 1; b = torch.eye(3)
    if flag: c = torch.eye(3)
    for i in torch.arange(3):
        pass
    x = 1 + \\
        2
    return torch.cat([points, ones], dim=-1) + grid
"""


def _at(needle: str, after: str = "", occurrence: int = 0) -> int:
    """The offset just before `after` in the line holding `needle` (or the needle's end)."""
    start = SOURCE.index(needle)
    for _ in range(occurrence):
        start = SOURCE.index(needle, start + 1)
    return SOURCE.index(after, start) if after else start + len(needle)


def _decide(*spans: tuple[int, int, str]) -> bool:
    text = SourceText(SOURCE)
    return edits_parse(SOURCE, text.line_starts, ast.parse(SOURCE), sorted(spans))


def _applied(*spans: tuple[int, int, str]) -> str:
    pieces, position = [], 0
    for start, end, content in sorted(spans):
        pieces += [SOURCE[position:start], content]
        position = end
    return "".join(pieces) + SOURCE[position:]


def test_an_inserted_keyword_in_a_statement_of_its_own_parses() -> None:
    where = _at("device=points.device", ")")
    assert _decide((where, where, ", dtype=points.dtype"))


def test_a_statement_over_several_lines_is_parsed_whole() -> None:
    where = _at("        2,\n", "\n")
    assert _decide((where, where, " dtype=points.dtype,"))


def test_several_statements_edited_at_once() -> None:
    one = _at("device=points.device", ")")
    two = _at("        2,\n", "\n")
    assert _decide((one, one, ", dtype=points.dtype"), (two, two, " dtype=points.dtype,"))


@pytest.mark.parametrize(
    "content",
    [
        ", dtype=",  # an incomplete argument
        ")",  # unbalances the brackets
        ")\ny = (",  # two logical lines: the second's indentation is not checked alone
        "  # ",  # the comment swallows the call's closing bracket
    ],
)
def test_an_edit_that_breaks_the_statement_is_not_shown_to_parse(content: str) -> None:
    where = _at("device=points.device", ")")
    assert not _decide((where, where, content))
    if content != ")\ny = (":  # really broken (that one parses alone; it is refused anyway)
        with pytest.raises(SyntaxError):
            ast.parse(_applied((where, where, content)))


@pytest.mark.parametrize(
    ("needle", "after"),
    [
        ("b = torch.eye(3", ")"),  # a second statement on its line
        ("c = torch.eye(3", ")"),  # the body of an `if` on the same line
        ("torch.arange(3", ")"),  # a compound statement's header
        ("        2", "\n"),  # joined to the line before by a backslash
    ],
)
def test_statements_without_lines_of_their_own_are_left_to_a_whole_parse(
    needle: str, after: str
) -> None:
    where = _at(needle, after)
    assert not _decide((where, where, ", 1"))


def test_an_edit_in_a_trailing_comment_is_checked_with_its_statement() -> None:
    where = _at("# homogeneous")
    assert _decide((where, where, " (points)"))
    assert not _decide((where, where, "\nreturn ("))


def test_no_edits_and_a_changed_grammar_are_not_decided() -> None:
    assert not _decide()
    source = "from __future__ import barry_as_FLUFL\nx = f(1)\n"
    where = source.index("1)")
    text = SourceText(source)
    assert not edits_parse(source, text.line_starts, ast.parse(source), [(where, where + 1, "3")])


@pytest.mark.parametrize(
    "source",
    [SOURCE, SOURCE.replace("points", "pöints").replace("homogeneous", "homogène"), ""],
)
def test_agrees_with_a_whole_parse_on_every_single_character_insertion(source: str) -> None:
    """Whatever it says is parsing is parsing: tried at every offset with a few insertions
    (ASCII, non-ASCII names and comments, CRLF line endings)."""
    source = source or SOURCE.replace("\n", "\r\n")  # "": the CRLF copy
    tree = ast.parse(source)
    starts = SourceText(source).line_starts
    shown = 0
    for offset in range(len(source)):
        for content in (",", ")", "(", " x", ", dtype=x.dtype", "\n", "\\", "'", "#", ":", "\n#"):
            if edits_parse(source, starts, tree, [(offset, offset, content)]):
                shown += 1
                ast.parse(_spliced(source, (offset, offset, content)))  # raises if it was wrong
        deleted = (offset, offset + 1, "")  # and each character removed
        if edits_parse(source, starts, tree, [deleted]):
            ast.parse(_spliced(source, deleted))
    assert shown > 100  # and it does decide the common cases


def _spliced(source: str, span: tuple[int, int, str]) -> str:
    return source[: span[0]] + span[2] + source[span[1] :]


#: Insertions and replacements a fuzzer tries: fix-like text and every token that changes lines,
#: brackets, strings or indentation.
FUZZ_TEXTS = [
    *(",", ")", "(", "]", "[", "{", "}", " x", ", dtype=x.dtype", ".to(x.dtype)", "=", ";"),
    *("\n", "\r", "\r\n", "\\", "'", '"""', "#", "\n#", ":", "\t", "\f", "\n    y = 1"),
    *(" if ", " else 0", "lambda", "yield", "await ", "**k", ""),
]


def test_random_edits_of_real_files_shown_to_parse_do_parse() -> None:
    """Random groups of edits over the project's own sources (some with CRLF endings)."""

    rng = random.Random(12)
    package = Path(__file__).resolve().parents[1] / "dtypelint"
    shown = 0
    for path in sorted(package.rglob("*.py"))[::3]:
        source = path.read_text(encoding="utf-8")
        source = source.replace("\n", "\r\n") if rng.random() < 0.3 else source
        tree, starts = ast.parse(source), SourceText(source).line_starts
        for _ in range(60):
            spans = []
            for _ in range(rng.choice((1, 1, 2, 3))):
                start = rng.randrange(len(source))
                end = min(start + rng.choice((0, 0, 0, 1, 2, 5)), len(source))
                spans.append((start, end, rng.choice(FUZZ_TEXTS)))
            spans.sort()
            if any(a[1] > b[0] or a[0] == b[0] for a, b in itertools.pairwise(spans)):
                continue  # overlapping: never given (the fixer keeps edits disjoint)
            if edits_parse(source, starts, tree, spans):
                shown += 1
                pieces, position = [], 0
                for start, end, content in spans:
                    pieces += [source[position:start], content]
                    position = end
                with warnings.catch_warnings():  # fuzzed strings: invalid escapes
                    warnings.simplefilter("ignore")
                    ast.parse("".join(pieces) + source[position:])  # raises if it was wrong
    assert shown > 200
