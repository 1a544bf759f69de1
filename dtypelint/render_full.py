"""The `full` output format: ruff 0.17's layout of one finding.

```
DTL001 [*] torch.ones(...) defaults to float32 but meets 'points_3d'; add dtype=points_3d.dtype
  --> models/pixel_aligned.py:92:45
   |
90 |         ...
92 |         points_homo = torch.cat([points_3d, torch.ones(B, N, 1, device=...)], dim=-1)
   |                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
93 |         ...
   |
help: Add `dtype=points_3d.dtype`
   |
91 |         ...
   -         points_homo = torch.cat([points_3d, torch.ones(B, N, 1, device=...)], dim=-1)
92 +         points_homo = torch.cat([points_3d, torch.ones(B, N, 1, device=..., dtype=...)], ...)
93 |         ...
   |
```

Like ruff: two lines of context (blank lines at its edges left out), tabs shown as four spaces,
a span over several lines drawn with `/`, `|` and `_` in a two-column margin, and a preview of
the fix as a line diff with one line of context (new line numbers, left-aligned). Only the
source lines the engine kept around each finding are needed (FileOutcome.lines).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from dtypelint.diagnostics import Applicability, Diagnostic, Location

SNIPPET_CONTEXT = 2  # source lines shown around a finding
DIFF_WINDOW = 3  # lines around the fix's edits that the preview diffs
DIFF_CONTEXT = 1  # unchanged lines the preview shows around each change
UNSAFE_NOTE = "note: This is an unsafe fix and may change runtime behavior"
_LINES = re.compile(r"[^\n]*\n|[^\n]+\Z")


def render(
    diagnostic: Diagnostic, lines: Mapping[int, str], line_count: int, fixable: bool
) -> list[str]:
    """The finding's lines, without the blank line that separates findings.

    `fixable` puts ruff's `[*]` after the code (a fix `--fix` would apply).
    """
    marker = " [*]" if fixable else ""
    out = [f"{diagnostic.code}{marker} {diagnostic.message}"]
    out += _snippet(diagnostic, lines, line_count)
    help_text = diagnostic.fix.message if diagnostic.fix else diagnostic.details.get("help")
    if help_text:
        out.append(f"help: {help_text}")
    if diagnostic.fix is not None:
        preview = _fix_preview(diagnostic, lines, line_count)
        out += preview
        if preview and diagnostic.fix.applicability is Applicability.UNSAFE:
            out.append(UNSAFE_NOTE)
    return out


# --- the annotated source --------------------------------------------------------------------


def _char_width(char: str) -> int:
    if char == "\t":
        return 4  # ruff (annotate-snippets) shows a tab as four spaces
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    return sum(_char_width(char) for char in text)


def _shown(line: str) -> str:
    return line.replace("\t", "    ")


def _context_before(lines: Mapping[int, str], row: int) -> int:
    first = max(1, row - SNIPPET_CONTEXT)
    while first < row and not lines.get(first, "").strip():
        first += 1
    return first


def _context_after(lines: Mapping[int, str], row: int, line_count: int) -> int:
    last = min(row + SNIPPET_CONTEXT, max(line_count, row))
    while last > row and not lines.get(last, "").strip():
        last -= 1
    return last


def _span_end(start: Location, end: Location, lines: Mapping[int, str]) -> Location:
    """A span that ends just after a line break ends on the line before it (as in ruff)."""
    if end.row > start.row and end.column == 1 and end.row - 1 in lines:
        return Location(end.row - 1, len(lines[end.row - 1]) + 1)
    return end


def _snippet(diagnostic: Diagnostic, lines: Mapping[int, str], line_count: int) -> list[str]:
    start = diagnostic.location
    end = _span_end(start, diagnostic.end_location, lines)
    first = _context_before(lines, start.row)
    last = _context_after(lines, end.row, line_count)
    if any(row not in lines for row in range(first, last + 1)):
        # Nothing to show (a file that cannot be read or decoded): ruff's file-level layout.
        return [f"--> {diagnostic.filename}:{start.row}:{start.column}"]
    width = len(str(last))
    gutter = " " * width + " |"
    out = [f"{' ' * width}--> {diagnostic.filename}:{start.row}:{start.column}", gutter]
    if start.row == end.row:
        body = _single_line(lines, start, end, first, last, width)
    else:
        body = _multi_line(lines, start, end, first, last, width)
    out += body
    if last > end.row:  # ruff closes the gutter only when context follows the annotation
        out.append(gutter)
    return out


def _numbered(row: int, width: int, text: str) -> str:
    return f"{row:>{width}} | {text}".rstrip()


def _single_line(
    lines: Mapping[int, str], start: Location, end: Location, first: int, last: int, width: int
) -> list[str]:
    line = lines[start.row]
    indent = display_width(line[: start.column - 1])
    carets = "^" * max(1, display_width(line[start.column - 1 : end.column - 1]))
    out = [_numbered(row, width, _shown(lines[row])) for row in range(first, start.row + 1)]
    out.append(f"{' ' * width} | {' ' * indent}{carets}")
    out += [_numbered(row, width, _shown(lines[row])) for row in range(start.row + 1, last + 1)]
    return out


def _multi_line(
    lines: Mapping[int, str], start: Location, end: Location, first: int, last: int, width: int
) -> list[str]:
    """A span over several lines, drawn in a two-column margin as annotate-snippets does."""
    blank = " " * width + " | "
    first_line = lines[start.row]
    starts_line = not first_line[: start.column - 1].strip()
    out = []
    for row in range(first, last + 1):
        text = _shown(lines[row])
        if row < start.row or row > end.row:
            out.append(_numbered(row, width, "  " + text))
        elif row == start.row and starts_line:
            out.append(_numbered(row, width, "/ " + text))
        elif row == start.row:
            out.append(_numbered(row, width, "  " + text))
            before = display_width(first_line[: start.column - 1])
            out.append(blank + " " + "_" * (1 + before) + "^")
        else:
            out.append(_numbered(row, width, "| " + text))
        if row == end.row:
            last_char = max(0, end.column - 2)  # the span's last character (end is exclusive)
            before = display_width(lines[row][:last_char])
            out.append(blank + "|" + "_" * (1 + before) + "^")
    return out


# --- the fix preview -------------------------------------------------------------------------


def _fix_preview(diagnostic: Diagnostic, lines: Mapping[int, str], line_count: int) -> list[str]:
    """The fixed code as a line diff, ruff's way: the lines around the edits, before and after."""
    assert diagnostic.fix is not None
    edits = sorted(diagnostic.fix.edits, key=lambda edit: (edit.location, edit.end_location))
    if not edits:
        return []
    first = max(1, edits[0].location.row - DIFF_WINDOW)
    last = min(edits[-1].end_location.row + DIFF_WINDOW, max(line_count, 1))
    rows = range(first, last + 1)
    if any(row not in lines for row in rows):
        return []
    before = "\n".join(lines[row] for row in rows) + ("\n" if last < line_count else "")
    starts = [0]
    for row in rows:
        starts.append(starts[-1] + len(lines[row]) + 1)

    def offset(location: Location) -> int:
        return starts[location.row - first] + location.column - 1

    pieces, position = [], 0
    for edit in edits:
        pieces += [before[position : offset(edit.location)], edit.content]
        position = offset(edit.end_location)
    after = "".join([*pieces, before[position:]])
    if after == before:
        return []
    return _diff_lines(_LINES.findall(before), _LINES.findall(after), first - 1)


def _diff_lines(old: Sequence[str], new: Sequence[str], line_offset: int) -> list[str]:
    import difflib  # only a finding whose fix is previewed needs it

    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    groups = list(matcher.get_grouped_opcodes(DIFF_CONTEXT))
    width = len(str(groups[-1][-1][4] + line_offset))
    gutter = " " * width + " |"

    def row(number: int | None, sign: str, text: str) -> str:
        shown = f"{number:<{width}}" if number is not None else " " * width
        text = text.rstrip("\r\n")
        return f"{shown} {sign}" + (f" {text}" if text else "")

    out = [gutter]
    for index, group in enumerate(groups):
        if index:
            out.append("-" * 80)
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [row(j + 1 + line_offset, "|", new[j]) for j in range(j1, j2)]
                continue
            out += [row(None, "-", old[i]) for i in range(i1, i2)]
            out += [row(j + 1 + line_offset, "+", new[j]) for j in range(j1, j2)]
    out.append(gutter)
    return out
