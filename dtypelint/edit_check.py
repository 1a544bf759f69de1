"""Whether edits to a parsed source leave it parsing, re-parsing only the statements they touch.

A fix edits the inside of one simple statement (`ones = torch.ones(n)` gets `, dtype=x.dtype`).
When that statement has its lines to itself (nothing before it on its first line, at most a
comment after it on its last, no backslash joining it to the line before) it is one logical
line. If its edited lines parse alone as exactly one statement of the same kind, they are again
one logical line at the same indentation, so the tokens around them, the block they sit in and
the grammar's view of the whole file are unchanged: the edited file parses. Anything else (an
edit in an `if` test, a decorator or a default, two statements on a line) is not decided here,
and the caller parses the whole text as it would without this shortcut.

Why: `--fix` must never write code that does not parse, and parsing each fixed text whole was a
third of the time `--fix` took on a 20 MB module of 100,000 fixes; its statements are a tenth of
the text.
"""

from __future__ import annotations

import ast
import bisect
import warnings
from collections.abc import Sequence

from dtypelint.source import count_rows

#: Statements with a body: an edit in their header is checked by parsing the whole text.
_COMPOUND = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.Match,
    *((ast.TryStar,) if hasattr(ast, "TryStar") else ()),
)

Span = tuple[int, int, str]  # [start, end) character offsets and the replacement (fixer.py)


def edits_parse(
    source: str, line_starts: Sequence[int], tree: ast.Module, spans: Sequence[Span]
) -> bool:
    """True when `source` (which parses to `tree`) with the sorted, disjoint `spans` applied is
    shown to parse by re-parsing the simple statements they touch; False means "not shown"."""
    if not spans or _changes_grammar(tree):
        return False
    statements = _simple_statements(tree)
    firsts = [first for first, _, _ in statements]
    touched: dict[int, list[Span]] = {}
    for span in spans:
        row = bisect.bisect_right(line_starts, span[0])  # 1-based row of the edit's start
        end_row = bisect.bisect_right(line_starts, max(span[1] - 1, span[0]))
        index = bisect.bisect_right(firsts, row) - 1
        if index < 0 or statements[index][1] < end_row:
            return False  # not inside a simple statement's rows (a compound header)
        touched.setdefault(index, []).append(span)
    texts = []
    for index in sorted(touched):
        text = _edited_statement(source, line_starts, statements[index][2], touched[index])
        if text is None:
            return False
        texts.append(text)
    return _each_one_statement(texts, [type(statements[index][2]) for index in sorted(touched)])


def _changes_grammar(tree: ast.Module) -> bool:
    """`from __future__ import barry_as_FLUFL` makes `<>` valid and `!=` not: statements
    parsed alone would be read with another grammar."""
    return any(
        isinstance(stmt, ast.ImportFrom)
        and stmt.module == "__future__"
        and any(alias.name == "barry_as_FLUFL" for alias in stmt.names)
        for stmt in tree.body
    )


def _simple_statements(tree: ast.Module) -> list[tuple[int, int, ast.stmt]]:
    """Every statement without a body, as (first row, last row, node), by first row."""
    found: list[tuple[int, int, ast.stmt]] = []
    bodies: list[list[ast.stmt]] = [tree.body]
    while bodies:
        for stmt in bodies.pop():
            if isinstance(stmt, _COMPOUND):
                bodies.extend(_bodies(stmt))
            else:
                found.append((stmt.lineno, stmt.end_lineno or stmt.lineno, stmt))
    found.sort(key=lambda item: (item[0], item[2].col_offset))
    return found


def _bodies(stmt: ast.stmt) -> list[list[ast.stmt]]:
    bodies = [
        getattr(stmt, name) for name in ("body", "orelse", "finalbody") if hasattr(stmt, name)
    ]
    bodies += [handler.body for handler in getattr(stmt, "handlers", ())]
    bodies += [case.body for case in getattr(stmt, "cases", ())]
    return bodies


def _edited_statement(
    source: str, line_starts: Sequence[int], stmt: ast.stmt, spans: list[Span]
) -> str | None:
    """The statement's lines with `spans` applied, from its first character, ending with a
    line break; None when it has no lines of its own or an edit reaches past its code."""
    first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
    start = line_starts[first - 1]
    last_start = line_starts[last - 1]
    stop = line_starts[last] if last < len(line_starts) else len(source)
    last_line = source[last_start:stop]
    code_end = last_start + len(last_line.rstrip("\r\n"))  # its line break is kept
    indent = _characters(source[start:stop], stmt.col_offset)
    end = last_start + _characters(last_line, stmt.end_col_offset or 0)
    if source[start : start + indent].strip(" \t\f"):
        return None  # something before it on its line (`if c: x = ...`, `a = 1; b = ...`)
    rest = source[end:code_end].strip()
    if rest and not rest.startswith("#"):
        return None  # something after it on its line (`x = ...; y = ...`)
    if first > 1 and source[line_starts[first - 2] : start].rstrip("\r\n").endswith("\\"):
        return None  # joined to the line before by a backslash
    pieces, position = [], start + indent
    for span_start, span_end, content in spans:
        if span_start < position or span_end > code_end:
            return None
        pieces += [source[position:span_start], content]
        position = span_end
    pieces.append(source[position:stop])
    text = "".join(pieces)
    if text.rstrip("\r\n").endswith("\\"):
        return None  # a backslash at its end would join it to the next line in the file
    return text if text.endswith(("\n", "\r")) else text + "\n"


def _characters(line: str, byte_offset: int) -> int:
    """ast's utf-8 byte column as a character count into `line`."""
    if line.isascii():
        return byte_offset
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", "replace"))


def _each_one_statement(texts: list[str], kinds: list[type]) -> bool:
    """Whether each text parses alone as one statement of its kind at its very start (an edit
    that opens with a line break, a comment or white space, a form feed resetting the
    indentation, would leave it at another indentation in the file).

    Parsed together, in one call (10,000 small parses cost twice one of their sum): each text
    ends with a line break outside any bracket or string exactly when its statement ends on its
    own last line, and then the next text starts afresh, as it would alone."""
    rows = []  # each text's first and last row in the whole
    row = 1
    for text in texts:
        count = count_rows(text)
        rows.append((row, row + count - 1))
        row += count
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes: the user's, not ours to print
        try:
            body = ast.parse("".join(texts)).body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    return len(body) == len(texts) and all(
        type(stmt) is kind
        and stmt.lineno == first
        and stmt.col_offset == 0
        and (stmt.end_lineno or stmt.lineno) <= last
        for stmt, kind, (first, last) in zip(body, kinds, rows, strict=True)
    )
