"""Code written for a newer Python than the one dtypelint runs on: DTL902, not DTL000.

The analysis reads Python's own `ast`, which knows only the running interpreter's grammar. A file
that uses PEP 695 generics (`def f[T](x: T)`, `class C[T]`, `type X = ...`, Python 3.12) or
PEP 701 f-strings (3.12) fails to parse on 3.11 although it is fine: it is reported as
"needs Python 3.12 to analyse" (DTL902). The decision is the parser's message and line plus a
second opinion: libcst's parser, which knows the newer grammar, must accept the whole file;
otherwise it is an ordinary syntax error (DTL000).
"""

from __future__ import annotations

import re
import sys

from dtypelint.diagnostics import Diagnostic, Location
from dtypelint.rules import NEWER_SYNTAX_CODE, NEWER_SYNTAX_NAME
from dtypelint.source import SourceText

_FEATURES: tuple[tuple[tuple[int, int], str, re.Pattern[str] | None, str | None], ...] = (
    (
        (3, 12),
        "PEP 695 type parameters",
        re.compile(r"^\s*(?:async\s+)?def\s+\w+\s*\[|^\s*class\s+\w+\s*\["),
        None,
    ),
    ((3, 12), "a PEP 695 `type` alias", re.compile(r"^\s*type\s+\w+\s*[\[=]"), None),
    ((3, 12), "PEP 701 f-strings", None, "f-string"),
    ((3, 11), "PEP 654 `except*`", re.compile(r"^\s*except\s*\*"), None),
)


def newer_syntax_diagnostic(
    error: SyntaxError, source: SourceText, filename: str
) -> Diagnostic | None:
    """DTL902 when `error` comes from syntax of a newer Python that libcst confirms is valid."""
    row = error.lineno or 0
    line = source.line(row) if row else ""
    message = str(error.msg or "")
    for version, feature, pattern, prefix in _FEATURES:
        if sys.version_info[:2] >= version:
            continue
        matched = (pattern is not None and pattern.search(line)) or (
            prefix is not None and message.startswith(prefix)
        )
        if matched and _valid_for(source.text, version):
            wanted = ".".join(map(str, version))
            running = ".".join(map(str, sys.version_info[:3]))
            text = (
                f"Needs Python {wanted} to analyse: the file uses {feature}, which the Python "
                f"{running} that runs dtypelint cannot parse; run dtypelint with Python "
                f"{wanted} or newer to check it"
            )
            location = Location(max(row, 1), 1)
            return Diagnostic(
                NEWER_SYNTAX_CODE, NEWER_SYNTAX_NAME, text, filename, location, location
            )
    return None


def _valid_for(text: str, version: tuple[int, int]) -> bool:
    try:
        import libcst as cst

        config = cst.PartialParserConfig(python_version=f"{version[0]}.{version[1]}")
        cst.parse_module(text, config=config)
    except Exception:
        return False
    return True
