"""Large sources checked a segment at a time (segments.py) give exactly the whole file's results.

The thresholds are lowered here (a segment of about 800 characters) so that small sources
take the segmented path; each test compares it with the whole-file path on the same source.
"""

from __future__ import annotations

import ast
import itertools

import pytest

from dtypelint import segments, source
from dtypelint.config import Config
from dtypelint.engine import FileOutcome, RunOptions, process_decoded
from dtypelint.linter import decode_source, parse_source

HEADER = (
    '"""Generated: small tensor functions."""\nfrom __future__ import annotations\n\nimport torch\n'
)

FUNCTION = """

def project_{i}(points: torch.Tensor, scale: float) -> torch.Tensor:
    ones = torch.ones(points.shape[0], 1, device=points.device)
    homo = torch.cat([points, ones], dim=-1)
    return homo * scale
"""

DECORATED = """

@torch.no_grad()
@staticmethod
def decorated_{i}(points: torch.Tensor) -> torch.Tensor:
    pad = torch.zeros(points.shape[0], 2, device=points.device)
    return torch.cat([points, pad], dim=-1)
"""

MODULE = """

class Block{i}(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        bias = torch.ones(x.shape[-1], device=x.device)
        return x + bias
"""

#: A function that names torch by an alias imported at the very end of the file.
LATE_ALIAS = """

def late_{i}(x: torch.Tensor) -> torch.Tensor:
    return x + th.zeros(x.shape[-1], device=x.device)
"""

#: `def` at the start of a line inside a string: a split there does not parse, so it is merged.
NOTES = '''

NOTES_{i} = """
def not_code(points):
    return torch.ones(3)
"""
'''

FOOTER = "\n\nimport torch as th\n"


def table(rows: int, broken_row: int | None = None) -> str:
    lines = ["\n\nTABLE = [\n"]
    for row in range(rows):
        gap = " " if row == broken_row else ", "
        lines.append(f"    ({row * 0.5:.3f}, {row * 0.25:.4f}{gap}{row % 97}),\n")
    lines.append("]\n")
    return "".join(lines)


def generated(copies: int = 12, *, rows: int = 400) -> str:
    parts = [HEADER]
    for i in range(copies):
        parts += [part.format(i=i) for part in (FUNCTION, DECORATED, MODULE, LATE_ALIAS, NOTES)]
        if i == copies // 2:
            parts.append(table(rows))
    parts.append(FOOTER)
    return "".join(parts)


@pytest.fixture
def small_segments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source, "LARGE_SOURCE", 1000)
    monkeypatch.setattr(segments, "SEGMENT_SIZE", 800)


def outcome(
    text: str, *, segmented: bool, fix: bool = False, jobs: int | None = None
) -> FileOutcome:
    """`process_decoded` on `text`, through the segmented path or the whole-file one."""
    decoded = decode_source(text.encode("utf-8"), "pkg/generated.py")
    limit = 1000 if segmented else 1 << 40
    previous = source.LARGE_SOURCE
    source.LARGE_SOURCE = limit
    try:
        options = RunOptions(fix=fix, jobs=jobs)
        return process_decoded(decoded, "pkg/generated.py", Config(), options)
    finally:
        source.LARGE_SOURCE = previous


def positions(result: FileOutcome) -> list[tuple[str, int, int]]:
    return [(d.code, d.location.row, d.location.column) for d in result.diagnostics]


@pytest.mark.usefixtures("small_segments")
def test_the_source_really_is_split_at_statements_and_decorators_stay_with_their_definition() -> (
    None
):
    text = generated()
    parts = segments.split(text)
    assert len(parts) > 12
    assert parts[0].start == 0 and parts[-1].end == len(text)
    for before, after in itertools.pairwise(parts):
        assert before.end == after.start
        assert after.row == before.row + segments.count_rows(before.text(text))
        assert not before.text(text).rstrip().splitlines()[-1].startswith("@")


@pytest.mark.usefixtures("small_segments")
def test_check_finds_exactly_what_the_whole_file_finds() -> None:
    text = generated()
    whole = outcome(text, segmented=False)
    parts = outcome(text, segmented=True)
    # Each copy: project (DTL001), decorated (DTL001), Block.forward (DTL001), late_ (DTL001).
    assert [code for code, _, _ in positions(whole)] == ["DTL001"] * 48
    assert positions(parts) == positions(whole)
    assert parts.diagnostics == whole.diagnostics
    # every line the whole file's report keeps, the segmented one reads from the text alike
    assert {row: parts.lines[row] for row in whole.lines} == whole.lines
    assert parts.line_count == whole.line_count == len(parts.lines)


@pytest.mark.usefixtures("small_segments")
@pytest.mark.parametrize(
    ("jobs", "per_job"),
    [(1, 8), (2, 1), (2, 3), (3, 100)],
    ids=["one-process", "pool-one-segment-a-job", "pool-three-a-job", "pool-one-job"],
)
def test_fix_gives_the_whole_files_fixed_source_byte_for_byte(
    jobs: int, per_job: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In one process or in workers, with ranges that start at splits inside a string (redone
    from the right place) or not."""
    monkeypatch.setattr(segments, "SEGMENTS_PER_JOB", per_job)
    text = generated()
    whole = outcome(text, segmented=False, fix=True)
    parts = outcome(text, segmented=True, fix=True, jobs=jobs)
    assert whole.fixed_source is not None and whole.fixed_source != text
    assert parts.fixed_source == whole.fixed_source
    assert parts.fixed == whole.fixed and parts.diagnostics == whole.diagnostics
    assert "device=points.device, dtype=points.dtype)" in parts.fixed_source
    assert "th.zeros(x.shape[-1], device=x.device, dtype=x.dtype)" in parts.fixed_source
    ast.parse(parts.fixed_source)
    again = outcome(parts.fixed_source, segmented=True, fix=True)
    assert again.fixed_source == parts.fixed_source and again.diagnostics == []


@pytest.mark.usefixtures("small_segments")
def test_crlf_line_endings_are_kept_and_rows_stay_right() -> None:
    text = generated(6).replace("\n", "\r\n")
    whole = outcome(text, segmented=False, fix=True)
    parts = outcome(text, segmented=True, fix=True)
    assert parts.fixed_source == whole.fixed_source
    assert parts.fixed == whole.fixed
    assert parts.fixed_source is not None and "\n" not in parts.fixed_source.replace("\r\n", "")


@pytest.mark.usefixtures("small_segments")
@pytest.mark.parametrize("where", ["function", "table"])
def test_a_syntax_error_late_in_the_file_is_its_only_finding(where: str) -> None:
    text = generated()
    if where == "function":
        cut = text.index("def project_9(")
        text = text[:cut] + "def broken(:\n    pass\n\n" + text[cut:]
    else:
        start = text.index("TABLE = [")
        text = text[:start] + table(400, broken_row=250).lstrip("\n") + text[start:]
    whole = outcome(text, segmented=False, fix=True)
    parts = outcome(text, segmented=True, fix=True)
    assert [d.code for d in whole.diagnostics] == ["DTL000"]
    assert parts.diagnostics == whole.diagnostics
    assert parts.fixed_source == text


@pytest.mark.usefixtures("small_segments")
def test_a_big_data_literal_is_checked_in_pieces_not_parsed_whole() -> None:
    text = generated(2, rows=600)
    parts = segments.split(text)
    literal = next(p for p in parts if p.text(text).startswith("TABLE = ["))
    assert literal.end - literal.start > segments.SEGMENT_SIZE
    assert segments.is_data_statement(text, literal)
    broken = text.replace("(150.000, 75.0000, 9)", "(150.000, 75.0000 9)")
    literal = next(p for p in segments.split(broken) if p.text(broken).startswith("TABLE = ["))
    assert not segments.is_data_statement(broken, literal)


@pytest.mark.usefixtures("small_segments")
def test_the_files_noqa_comment_silences_every_segment() -> None:
    text = "# dtypelint: noqa: DTL001\n" + generated()
    assert outcome(text, segmented=False).diagnostics == []
    assert outcome(text, segmented=True).diagnostics == []


def test_every_segment_sees_the_files_imports_but_not_from_future() -> None:
    text = generated(2)
    imports = [imp.text for imp in segments.top_level_imports(text)]
    assert imports == ["import torch", "import torch as th"]
    first = segments.Segment(0, text.index("import torch\n") + 13, 1)
    suffix = segments.imports_suffix(segments.top_level_imports(text), first, text, "\n")
    assert suffix == "import torch as th\n"
    assert not isinstance(parse_source(first.text(text) + suffix, "x.py"), SyntaxError)


def long_notes() -> str:
    """A string of 4,000 characters whose lines look like top-level definitions."""
    lines = [f"def fake_{i}(points):\n    return torch.ones({i})\n" for i in range(90)]
    return '\n\nLONG_NOTES = """\n' + "".join(lines) + '"""\n'


@pytest.mark.usefixtures("small_segments")
@pytest.mark.parametrize("per_job", [1, 2])
def test_a_range_of_segments_starting_inside_a_string_is_redone_from_the_right_place(
    per_job: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(segments, "SEGMENTS_PER_JOB", per_job)
    redone: list[tuple[int, int]] = []
    check_range = segments._check_range

    def spy(job: segments._Job, first: int, stop: int, limit: int | None = None) -> object:
        redone.append((first, stop))  # called here, in the parent, only to redo a range
        return check_range(job, first, stop, limit)

    monkeypatch.setattr(segments, "_check_range", spy)
    later = generated(4).removeprefix(HEADER).replace("project_", "later_")
    later = later.replace("decorated_", "later_decorated_").replace("Block", "LaterBlock")
    later = later.replace("late_", "later_late_").replace("NOTES_", "LATER_NOTES_")
    text = generated(4) + long_notes() + later
    whole = outcome(text, segmented=False, fix=True)
    assert len(whole.fixed) == 32 and whole.diagnostics == []
    parts = outcome(text, segmented=True, fix=True, jobs=2)
    assert redone, "no range started inside the string: the test no longer tests the redo"
    assert parts.fixed_source == whole.fixed_source
    assert parts.fixed == whole.fixed and parts.diagnostics == whole.diagnostics


#: A NumPy table made a tensor: DTL004, whose fix is unsafe, so a safe `--fix` leaves it.
FROM_NUMPY = """

def weighted_{i}(x: torch.Tensor) -> torch.Tensor:
    weights = torch.from_numpy(np.ones(3))
    return x * weights
"""


@pytest.mark.usefixtures("small_segments")
@pytest.mark.parametrize("jobs", [1, 2])
def test_findings_left_after_fixes_that_add_rows_are_at_their_rows_in_the_fixed_source(
    jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No rule's fix adds a line today, so a stand-in fixer adds one blank line before each
    segment it fixes: every range's findings must then move down by the rows added before it."""
    monkeypatch.setattr(segments, "SEGMENTS_PER_JOB", 2)
    fixed_segment = segments._fixed_segment

    def adding_a_row(body: str, suffix: str, found: list, *rest: object) -> tuple:
        new_body, remaining, applied, warnings = fixed_segment(body, suffix, found, *rest)
        if new_body is body:
            return new_body, remaining, applied, warnings
        return "\n" + new_body, [segments.shifted(d, 1) for d in remaining], applied, warnings

    monkeypatch.setattr(segments, "_fixed_segment", adding_a_row)
    parts = [HEADER, "import numpy as np\n"]
    parts += [FUNCTION.format(i=i) + FROM_NUMPY.format(i=i) for i in range(12)]
    text = "".join(parts)
    result = outcome(text, segmented=True, fix=True, jobs=jobs)
    assert result.fixed_source is not None and result.fixed_source.count("dtype=points.dtype") == 12
    assert [d.code for d in result.diagnostics] == ["DTL004"] * 12
    fixed_lines = result.fixed_source.splitlines()
    for diagnostic in result.diagnostics:
        line = fixed_lines[diagnostic.location.row - 1]
        assert line[diagnostic.location.column - 1 :].startswith("torch.from_numpy(np.ones(3))")


def test_source_lines_read_rows_as_the_linter_counts_them() -> None:
    from dtypelint.source import SourceLines

    lines = SourceLines("a = 1\r\nb = 2\rc = 3\n\nd = 4")
    assert len(lines) == 5
    assert list(lines.items()) == [(1, "a = 1"), (2, "b = 2"), (3, "c = 3"), (4, ""), (5, "d = 4")]
    assert lines.get(0) is None and lines.get(6) is None and lines.get("1") is None  # type: ignore[call-overload]
    assert len(SourceLines("x\n")) == 2 and SourceLines("x\n")[2] == ""
