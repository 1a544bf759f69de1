"""`dtypelint [--fix] -`: code from standard input, bytes in and bytes out.

Editors run fixers this way (`cat f.py | dtypelint --fix - > f.py`): what comes back is the
input's bytes exactly when nothing is fixed, and otherwise the fixed code in the input's own
encoding (its coding cookie), with its byte-order mark and line endings, whatever standard
output's encoding (`PYTHONIOENCODING`) is.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, fields

from dtypelint.config import Config
from dtypelint.engine import (
    DecodedSource,
    FileOutcome,
    RunOptions,
    decode_source,
    process_decoded,
)
from dtypelint.isolation import internal_error, run_deep
from dtypelint.streams import read_stdin_bytes


@dataclass
class StdinOutcome(FileOutcome):
    #: With --fix: the bytes to write to standard output (the input's, or the fixed code's).
    output: bytes | None = None


def check_stdin(filename: str, config: Config, fix: bool, diff: bool) -> StdinOutcome:
    data = read_stdin_bytes()
    decoded = decode_source(data, filename)
    options = RunOptions(fix=fix, diff=diff, unsafe=config.unsafe_fixes)
    try:
        outcome = run_deep(process_decoded, decoded, filename, config, options)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # one line and DTL901; the input is echoed back unchanged
        stage = "fixing" if fix or diff else "checking"
        outcome = internal_error(filename, exc, config, options, stage)
    result = StdinOutcome(**{f.name: getattr(outcome, f.name) for f in fields(outcome)})
    if fix:
        result.output = _output_bytes(data, decoded, outcome.fixed_source, result)
        result.fixed_source = None
    return result


def _output_bytes(
    data: bytes,
    decoded: DecodedSource | object,
    fixed: str | None,
    outcome: FileOutcome,
) -> bytes:
    """The input's own bytes unless the code changed; then the fixed code, encoded as it was."""
    if not isinstance(decoded, DecodedSource) or fixed is None or fixed == decoded.text:
        return data
    try:
        body = fixed.encode(decoded.encoding)
    except UnicodeEncodeError as exc:
        outcome.errors.append(
            f"{outcome.filename}: cannot write fixes: the fixed text cannot be encoded as "
            f"{decoded.encoding} ({exc.reason}); the input is written back unchanged"
        )
        outcome.fixed = []
        return data
    return (codecs.BOM_UTF8 if decoded.bom else b"") + body
