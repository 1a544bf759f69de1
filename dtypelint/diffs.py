"""Unified diffs of a file and its fixed text (`--diff`), in time linear in the file.

`difflib` is kept for ordinary files (its output is what users and tests know); for large ones
(`LARGE_LINES`) its matching is far too slow (minutes for 10,000 fixes in a 2 MB file). Fixes
change a few lines at a time, so a linear walk that resynchronises on the next equal lines
finds the same hunks; any alignment it picks is a valid diff, since only equal lines are
ever paired.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence

#: From this many lines (both sides together) the linear walk replaces difflib's matcher.
LARGE_LINES = 20_000
#: How far (lines skipped on both sides together) the walk looks for the next equal lines.
RESYNC_WINDOW = 64
CONTEXT = 3

Opcode = tuple[str, int, int, int, int]


def diff_lines(before: list[str], after: list[str], filename: str) -> Iterator[str]:
    """The lines of `diff -u` from `before` to `after` (lines with their endings)."""
    if len(before) + len(after) < LARGE_LINES:
        yield from difflib.unified_diff(before, after, fromfile=filename, tofile=filename)
        return
    matcher = difflib.SequenceMatcher(None, [], [])
    matcher.a, matcher.b = before, after  # type: ignore[assignment]
    matcher.opcodes = linear_opcodes(before, after)  # get_grouped_opcodes reads these
    started = False
    for group in matcher.get_grouped_opcodes(CONTEXT):
        if not started:
            started = True
            yield f"--- {filename}\n"
            yield f"+++ {filename}\n"
        first, last = group[0], group[-1]
        yield f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n"
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                for line in before[i1:i2]:
                    yield " " + line
                continue
            if tag in ("replace", "delete"):
                for line in before[i1:i2]:
                    yield "-" + line
            if tag in ("replace", "insert"):
                for line in after[j1:j2]:
                    yield "+" + line


def _range(start: int, stop: int) -> str:
    """difflib's `start,length` of a hunk (1-based; an empty range names the line before)."""
    beginning, length = start + 1, stop - start
    if length == 1:
        return str(beginning)
    if not length:
        beginning -= 1
    return f"{beginning},{length}"


def linear_opcodes(a: Sequence[str], b: Sequence[str]) -> list[Opcode]:
    """difflib-style opcodes pairing only equal lines: runs of equal lines, and between them the
    shortest skip (within RESYNC_WINDOW) after which both sides agree again."""
    opcodes: list[Opcode] = []
    i = j = 0
    n, m = len(a), len(b)
    while i < n and j < m:
        if a[i] == b[j]:
            i0, j0 = i, j
            while i < n and j < m and a[i] == b[j]:
                i += 1
                j += 1
            opcodes.append(("equal", i0, i, j0, j))
            continue
        skip = _resync(a, b, i, j)
        if skip is None:
            break
        di, dj = skip
        opcodes.append((_tag(di, dj), i, i + di, j, j + dj))
        i, j = i + di, j + dj
    if i < n or j < m:
        opcodes.append((_tag(n - i, m - j), i, n, j, m))
    return opcodes


def _resync(a: Sequence[str], b: Sequence[str], i: int, j: int) -> tuple[int, int] | None:
    for distance in range(1, RESYNC_WINDOW):
        for di in range(distance + 1):
            dj = distance - di
            if i + di < len(a) and j + dj < len(b) and a[i + di] == b[j + dj]:
                return di, dj
    return None


def _tag(di: int, dj: int) -> str:
    if di and dj:
        return "replace"
    return "delete" if di else "insert"
