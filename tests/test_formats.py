"""Output formats for CI: github, sarif (validated against the 2.1.0 schema), junit, --statistics."""

from __future__ import annotations

import io
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from support import FIXLOG, FIXLOG_FINDINGS, ROOT, dtypelint

from dtypelint.cli import main
from dtypelint.diagnostics import Diagnostic, Location
from dtypelint.engine import FileOutcome
from dtypelint.reporters import RunReport, report_github

SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"
SOURCE = "def f(x, K):\n    return K @ torch.zeros(3)\n"


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def validate_sarif(log: dict[str, Any]) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)


@pytest.fixture
def project(in_tmp: Path, toy_rules: object) -> Path:
    (in_tmp / "m.py").write_text(SOURCE)
    return in_tmp


# --- sarif -------------------------------------------------------------------------------------


def test_the_schema_copy_is_the_shared_one() -> None:
    shared = ROOT.parent / "shared" / "data" / "sarif-schema-2.1.0.json"
    if not shared.is_file():
        pytest.skip("no shared folder next to the checkout")
    assert SCHEMA.read_bytes() == shared.read_bytes()


def sarif_of(folder: Path) -> dict[str, Any]:
    result = dtypelint("check", "models", "--output-format", "sarif", cwd=folder)
    assert result.returncode == 1, result.stderr
    assert result.stderr == ""
    log: dict[str, Any] = json.loads(result.stdout)
    return log


def test_fixlog_sarif_is_valid_with_seven_results_and_fixes() -> None:
    log = sarif_of(FIXLOG / "before")
    validate_sarif(log)
    assert log["version"] == "2.1.0"
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    (run,) = log["runs"]
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": (FIXLOG / "before").as_uri() + "/"}}
    assert run["columnKind"] == "unicodeCodePoints"
    driver = run["tool"]["driver"]
    assert driver["name"] == "dtypelint"
    rules = driver["rules"]
    assert [rule["id"] for rule in rules] == [
        "DTL000",
        "DTL001",
        "DTL002",
        "DTL003",
        "DTL004",
        "DTL005",
        "DTL900",
        "DTL901",
        "DTL902",
    ]
    results = run["results"]
    found = []
    for result in results:
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        region = physical["region"]
        found.append(
            (
                physical["artifactLocation"]["uri"],
                region["startLine"],
                region["startColumn"],
                result["ruleId"],
            )
        )
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == "error"
        assert result["message"]["text"]
        assert re.fullmatch(r"[0-9a-f]{16}", result["partialFingerprints"]["dtypelint/v1"])
        (fix,) = result["fixes"]
        assert fix["description"]["text"].endswith("(safe fix)")
        (change,) = fix["artifactChanges"]
        assert change["artifactLocation"] == physical["artifactLocation"]
        assert change["replacements"]
    assert found == FIXLOG_FINDINGS
    assert len({result["partialFingerprints"]["dtypelint/v1"] for result in results}) == 7


def test_sarif_rules_carry_help_text_and_the_rule_page() -> None:
    from dtypelint.docs import rule_page

    log = sarif_of(FIXLOG / "before")
    for rule in log["runs"][0]["tool"]["driver"]["rules"]:
        page = rule_page(rule["id"])
        assert page is not None
        assert rule["help"] == {"text": page, "markdown": page}
        assert rule["helpUri"] == (
            f"https://github.com/dtypelint/dtypelint/blob/main/rules/{rule['id']}.md"
        )
        assert rule["shortDescription"]["text"]
        assert rule["fullDescription"]["text"]
        assert "\n" not in rule["fullDescription"]["text"]


def apply_sarif_fixes(folder: Path, log: dict[str, Any]) -> None:
    """Apply every replacement of every fix, last position first (columns are code points)."""
    edits: dict[str, list[tuple[int, int, int, int, str]]] = {}
    for result in log["runs"][0]["results"]:
        for fix in result["fixes"]:
            for change in fix["artifactChanges"]:
                uri = change["artifactLocation"]["uri"]
                for replacement in change["replacements"]:
                    region = replacement["deletedRegion"]
                    text = replacement.get("insertedContent", {}).get("text", "")
                    edits.setdefault(uri, []).append(
                        (
                            region["startLine"],
                            region["startColumn"],
                            region["endLine"],
                            region["endColumn"],
                            text,
                        )
                    )
    for uri, changes in edits.items():
        path = folder / uri
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line))
        text = "".join(lines)
        for start_line, start_col, end_line, end_col, new in sorted(changes, reverse=True):
            begin = starts[start_line - 1] + start_col - 1
            end = starts[end_line - 1] + end_col - 1
            text = text[:begin] + new + text[end:]
        path.write_text(text, encoding="utf-8")


def test_sarif_fixes_turn_before_into_after(tmp_path: Path) -> None:
    work = tmp_path / "before"
    shutil.copytree(FIXLOG / "before", work)
    apply_sarif_fixes(work, sarif_of(work))
    for expected in sorted((FIXLOG / "after").rglob("*.py")):
        relative = expected.relative_to(FIXLOG / "after")
        assert (work / relative).read_text() == expected.read_text(), relative


def test_sarif_fingerprints_survive_unrelated_line_shifts(tmp_path: Path) -> None:
    work = tmp_path / "before"
    shutil.copytree(FIXLOG / "before", work)
    before = sarif_of(work)["runs"][0]["results"]
    for name in ("models/pixel_aligned.py", "models/encoders/hand_encoder.py"):
        path = work / name
        path.write_text("# a new header comment\n\n\n" + path.read_text())
    after = sarif_of(work)["runs"][0]["results"]

    def summary(results: list[dict[str, Any]], shift: int) -> list[tuple[str, int, str]]:
        return [
            (
                result["ruleId"],
                result["locations"][0]["physicalLocation"]["region"]["startLine"] - shift,
                result["partialFingerprints"]["dtypelint/v1"],
            )
            for result in results
        ]

    assert summary(after, 3) == summary(before, 0)


def test_sarif_without_findings_is_valid(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (in_tmp / "clean.py").write_text("x = 1\n")
    code, out, err = run_cli(capsys, "--output-format", "sarif", "clean.py")
    assert (code, err) == (0, "")
    log = json.loads(out)
    validate_sarif(log)
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True}]


def test_sarif_unsafe_fix_and_files_outside_the_working_folder(
    project: Path, capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside") / "far away.py"
    outside.write_text("y = torch.zeros(1)\n")
    code, out, _ = run_cli(capsys, "--output-format", "sarif", "m.py", str(outside))
    assert code == 1
    log = json.loads(out)
    validate_sarif(log)
    results = log["runs"][0]["results"]
    locations = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in results]
    assert locations[0] == {"uri": outside.as_uri()}  # absolute: no base to be relative to
    assert "%20" in locations[0]["uri"]
    assert locations[1:] == [{"uri": "m.py", "uriBaseId": "%SRCROOT%"}] * 2
    camera = next(r for r in results if r["ruleId"] == "DTL002")
    assert camera["fixes"] == [
        {
            "description": {"text": "Cast `K` with `.to(x.dtype)` (unsafe fix)"},
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "m.py", "uriBaseId": "%SRCROOT%"},
                    "replacements": [
                        {
                            "deletedRegion": {
                                "startLine": 2,
                                "startColumn": 13,
                                "endLine": 2,
                                "endColumn": 13,
                            },
                            "insertedContent": {"text": ".to(x.dtype)"},
                        }
                    ],
                }
            ],
            "properties": {"applicability": "unsafe"},
        }
    ]


def test_output_format_from_the_config_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text('[tool.dtypelint]\noutput-format = "sarif"\n')
    code, out, _ = run_cli(capsys, "m.py")
    assert code == 1
    validate_sarif(json.loads(out))


# --- github ------------------------------------------------------------------------------------

GITHUB_LINE = re.compile(
    r"::error title=dtypelint \((DTL\d{3})\),file=([^,:]+),line=(\d+),col=(\d+),"
    r"endLine=(\d+),endColumn=(\d+)::(DTL\d{3}) [^\r\n]+"
)


def test_github_exact_lines(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(capsys, "--output-format", "github", "./m.py") == (
        1,
        "::error title=dtypelint (DTL002),file=m.py,line=2,col=12,endLine=2,endColumn=13::"
        "DTL002 camera value `K` meets an activation\n"
        "::error title=dtypelint (DTL001),file=m.py,line=2,col=16,endLine=2,endColumn=30::"
        "DTL001 `zeros` called without `dtype=`\n",
        "",
    )


def test_github_clean_run_prints_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "clean.py").write_text("x = 1\n")
    assert run_cli(capsys, "--output-format", "github", "clean.py") == (0, "", "")


def test_github_escapes_data_and_properties(in_tmp: Path) -> None:
    diagnostic = Diagnostic(
        code="DTL001",
        name="factory-without-dtype",
        message="100% float32,\r\nnot bf16: see docs",
        filename="odd,dir/a:b.py",
        location=Location(3, 4),
        end_location=Location(4, 1),
    )
    stream = io.StringIO()
    report_github(RunReport([FileOutcome("odd,dir/a:b.py", [diagnostic])]), stream)
    assert stream.getvalue() == (
        "::error title=dtypelint (DTL001),file=odd%2Cdir/a%3Ab.py,line=3,col=4,endLine=4,"
        "endColumn=1::DTL001 100%25 float32,%0D%0Anot bf16: see docs\n"
    )


def test_github_lines_on_the_fixlog_are_well_formed() -> None:
    result = dtypelint("check", "models", "--output-format", "github", cwd=FIXLOG / "before")
    assert (result.returncode, result.stderr) == (1, "")
    lines = result.stdout.splitlines()
    parsed = []
    for line in lines:
        match = GITHUB_LINE.fullmatch(line)
        assert match, line
        assert match.group(1) == match.group(7)
        parsed.append((match.group(2), int(match.group(3)), int(match.group(4)), match.group(1)))
    assert parsed == FIXLOG_FINDINGS


# --- junit -------------------------------------------------------------------------------------


def test_junit_one_suite_per_file_one_case_per_finding(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "other.py").write_text("y = torch.zeros(1)\n")
    code, out, err = run_cli(capsys, "--output-format", "junit", "m.py", "other.py")
    assert (code, err) == (1, "")
    assert out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ET.fromstring(out.encode())
    assert (root.tag, root.get("tests"), root.get("failures")) == ("testsuites", "3", "3")
    suites = [(suite.get("name"), suite.get("tests")) for suite in root]
    assert suites == [("m.py", "2"), ("other.py", "1")]
    cases = [
        (case.get("classname"), case.get("name"), case.get("line"), case[0].get("message"))
        for suite in root
        for case in suite
    ]
    assert cases == [
        (
            "m.py",
            "DTL002 (camera-matmul-uncast) at 2:12",
            "2",
            "camera value `K` meets an activation",
        ),
        ("m.py", "DTL001 (factory-without-dtype) at 2:16", "2", "`zeros` called without `dtype=`"),
        (
            "other.py",
            "DTL001 (factory-without-dtype) at 1:5",
            "1",
            "`zeros` called without `dtype=`",
        ),
    ]
    assert all(case[0].tag == "failure" for suite in root for case in suite)
    assert root[1][0][0].text == (
        "other.py:1:5: DTL001 `zeros` called without `dtype=`\n"
        "https://github.com/dtypelint/dtypelint/blob/main/rules/DTL001.md"
    )


def test_junit_clean_run_has_one_passing_case(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "clean.py").write_text("x = 1\n")
    code, out, _ = run_cli(capsys, "--output-format", "junit", "clean.py")
    assert code == 0
    root = ET.fromstring(out.encode())
    assert root.get("failures") == "0"
    (suite,) = root
    (case,) = suite
    assert (case.get("name"), list(case)) == ("No errors found", [])


# --- --statistics ------------------------------------------------------------------------------


def test_statistics(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ruff 0.17's layout: count, code, fix marker and name separated by tabs, then the summary."""
    (project / "other.py").write_text("y = torch.zeros(1) + torch.zeros(2)\n")
    assert run_cli(capsys, "--statistics", ".") == (
        1,
        "3\tDTL001\t[*] factory-without-dtype\n"
        "1\tDTL002\t[ ] camera-matmul-uncast\n"
        "Found 4 errors.\n"
        "[*] 3 fixable with `--fix` (1 unsafe fix available with `--fix --unsafe-fixes`).\n",
        "",
    )
    code, out, _ = run_cli(capsys, "--statistics", "--output-format", "json", ".")
    assert code == 1
    assert json.loads(out) == [
        {
            "code": "DTL001",
            "name": "factory-without-dtype",
            "count": 3,
            "fixable": True,
            "fixable_count": 3,
        },
        {
            "code": "DTL002",
            "name": "camera-matmul-uncast",
            "count": 1,
            "fixable": False,
            "fixable_count": 0,
        },
    ]
    assert run_cli(capsys, "--statistics", "--unsafe-fixes", "m.py")[1].splitlines()[1] == (
        "1\tDTL002\t[*] camera-matmul-uncast"
    )
    # -q keeps the counts and drops the summary.
    assert run_cli(capsys, "-q", "--statistics", "--select", "DTL002", ".") == (
        1,
        "1\tDTL002\tcamera-matmul-uncast\n",
        "",
    )


def test_statistics_clean(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "clean.py").write_text("x = 1\n")
    assert run_cli(capsys, "--statistics", "clean.py") == (0, "", "")  # ruff prints nothing


def test_exit_non_zero_on_fix(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(capsys, "--fix", "--exit-non-zero-on-fix", "--select", "DTL001", "m.py")[0] == 1
    assert run_cli(capsys, "--fix", "--exit-non-zero-on-fix", "--select", "DTL001", "m.py")[0] == 0


def test_every_contract_format_is_available() -> None:
    from dtypelint.config import OUTPUT_FORMATS
    from dtypelint.reporters import REPORTERS

    assert set(REPORTERS) == set(OUTPUT_FORMATS)
