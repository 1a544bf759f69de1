"""`dtypelint trace`: the recorder in any command (a training script, pytest), and the pytest
plugin, on fixtures/trace (a bf16 model with a hazard the linter finds and one it does not, a
DataLoader with forked workers, a subprocess, an "installed" helper package).

The end-to-end runs start together (module fixture); each is read by the tests below.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from dtypelint.trace.report import TraceReport, build_report, render_sarif, render_text

torch = pytest.importorskip("torch")

REPO = Path(__file__).resolve().parents[1]
PROJECT = REPO / "fixtures" / "trace"
FIXLOG = REPO / "fixtures" / "fixlog" / "before"
PYTHON = sys.executable


def line_of(path: Path, snippet: str) -> int:
    """The 1-based line of `path` containing `snippet` (exactly one)."""
    (line,) = [n for n, text in enumerate(path.read_text().splitlines(), 1) if snippet in text]
    return line


MUL = line_of(PROJECT / "model.py", "gate = (h * w)")
ONES = line_of(PROJECT / "model.py", "ones = torch.ones(")
CAT = line_of(PROJECT / "model.py", "torch.cat([h, ones]")
BLEND = line_of(PROJECT / "train.py", "loss = helperlib.blend(")
FAIL = line_of(PROJECT / "train.py", "raises: float32 @ bf16")
WORKER = line_of(PROJECT / "train.py", "in a DataLoader worker")


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str

    @property
    def json(self) -> dict[str, Any]:
        return json.loads(self.stdout)  # type: ignore[no-any-return]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def _start(*command: str, cwd: Path = PROJECT) -> subprocess.Popen[str]:
    return subprocess.Popen(
        list(command),
        cwd=cwd,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _trace(*args: str) -> list[str]:
    return [PYTHON, "-m", "dtypelint", "trace", *args]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    plugin_report = tmp_path_factory.mktemp("plugin") / "report.json"
    pytest_args = ["-m", "pytest", "-q", "-p", "no:cacheprovider"]
    started = {
        "plain": _start(PYTHON, "train.py", "--steps", "2", "--workers", "2"),
        "train": _start(
            *_trace(
                "--output-format",
                "json",
                "--",
                PYTHON,
                "train.py",
                "--steps",
                "2",
                "--workers",
                "2",
            )
        ),
        "fail": _start(*_trace("--", PYTHON, "train.py", "--steps", "1", "--fail")),
        "pytest": _start(*_trace("--output-format", "json", "--", PYTHON, *pytest_args)),
        "plugin": _start(
            PYTHON,
            *pytest_args,
            "-p",
            "dtypelint.trace",
            "--dtypelint-trace-format",
            "json",
            "--dtypelint-trace-output",
            str(plugin_report),
        ),
        "clean": _start(*_trace("--", PYTHON, "-c", "import torch; print(torch.ones(2) + 1)")),
        "no-torch": _start(*_trace("--", PYTHON, "-c", "import sys; sys.exit(3)")),
    }
    finished = {}
    for name, process in started.items():
        stdout, stderr = process.communicate(timeout=600)
        finished[name] = Run(process.returncode, stdout, stderr)
    finished["plugin-report"] = Run(
        0, plugin_report.read_text() if plugin_report.exists() else "", ""
    )
    return finished


def _sites(data: dict[str, Any]) -> set[tuple[Any, ...]]:
    return {
        (s["file"], s["line"], s["op"], tuple(s["dtypes"]), s["result"], s["count"], s["raised"])
        for s in data["sites"]
    }


# --- a training script -------------------------------------------------------------------------


def test_training_step_sites_at_the_users_lines(runs: dict[str, Run]) -> None:
    run = runs["train"]
    assert run.returncode == 1, run.stderr  # sites were recorded
    mixed = ("bfloat16", "float32")
    assert _sites(run.json) == {
        ("model.py", MUL, "torch.Tensor.mul", mixed, "float32", 2, False),
        ("model.py", CAT, "torch.cat", mixed, "float32", 2, False),
        # the add happens inside helperlib (an "installed" package): reported at its caller
        ("train.py", BLEND, "torch.Tensor.add", mixed, "float32", 2, False),
    }


def test_each_site_says_whether_check_finds_it(runs: dict[str, Run]) -> None:
    by_line = {(s["file"], s["line"]): s for s in runs["train"].json["sites"]}
    cat = by_line[("model.py", CAT)]
    assert cat["found_by_check"] is True
    assert [(f["code"], f["row"]) for f in cat["findings"]] == [("DTL001", ONES)]
    mul = by_line[("model.py", MUL)]
    assert mul["found_by_check"] is False and mul["findings"] == []
    assert [(f["code"], f["row"]) for f in mul["related"]] == [("DTL001", ONES)]
    assert by_line[("train.py", BLEND)]["found_by_check"] is False
    assert runs["train"].json["summary"] == {
        "sites": 3,
        "found_by_check": 1,
        "not_found_by_check": 2,
    }


def test_the_command_runs_as_usual(runs: dict[str, Run]) -> None:
    data = runs["train"].json
    assert data["exit_code"] == 0 and data["traced"]["complete"] is True
    # JSON on stdout: the command's own stdout went to stderr, line for line the untraced one.
    plain = runs["plain"]
    assert plain.returncode == 0, plain.stderr
    assert runs["train"].stderr.splitlines()[-3:] == plain.stdout.splitlines()
    assert plain.stdout.splitlines()[:2] == ["loss 0.375977", "loss 0.019531"]


def test_workers_subprocesses_and_autocast_are_not_sites(runs: dict[str, Run]) -> None:
    data = runs["train"].json
    lines = {(s["file"], s["line"]) for s in data["sites"]}
    assert ("train.py", WORKER) not in lines  # ran in forked DataLoader workers
    assert {s["file"] for s in data["sites"]} == {"model.py", "train.py"}  # no "<string>" child
    assert all(s["autocast"] is None for s in data["sites"])  # the autocast matmul: not a site
    assert "DataLoader workers" in " ".join(data["not_covered"])


def test_failing_command_text_report(runs: dict[str, Run]) -> None:
    run = runs["fail"]
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert lines[0] == "loss 0.375977"  # the command's own output comes first
    command = f"`{PYTHON} train.py --steps 1 --fail` exited with 1"
    assert lines[2] == f"dtypelint trace: {command}"  # after the child's "torch.float32"
    assert f"train.py:{FAIL}: torch.Tensor.matmul(float32, bfloat16) raised" in lines
    cat = lines.index(f"model.py:{CAT}: torch.cat(bfloat16, float32) -> float32")
    assert lines[cat + 1].startswith(f"    found by check (line {ONES}): DTL001 torch.ones(...)")
    # no DataLoader workers this time: the dataset's add runs (4 times) in the traced process
    assert f"train.py:{WORKER}: torch.Tensor.add(bfloat16, float32) -> float32 (x4)" in lines
    assert "Found 5 mixed-dtype sites (1 found by check, 4 not found by check)." in lines
    assert "RuntimeError" in run.stderr  # the command's own traceback, untouched


# --- pytest ------------------------------------------------------------------------------------


def test_trace_runs_pytest(runs: dict[str, Run]) -> None:
    run = runs["pytest"]
    assert run.returncode == 1, run.stderr
    mixed = ("bfloat16", "float32")
    assert _sites(run.json) == {
        ("model.py", MUL, "torch.Tensor.mul", mixed, "float32", 1, False),
        ("model.py", CAT, "torch.cat", mixed, "float32", 1, False),
    }
    assert run.json["exit_code"] == 0  # the tests passed
    assert "pytest" in run.json["traced"]["argv"][0]  # the pytest process was traced


def test_pytest_plugin(runs: dict[str, Run]) -> None:
    run = runs["plugin"]
    assert run.returncode == 1, run.stdout + run.stderr  # tests passed, sites recorded
    assert "1 passed" in run.stdout
    data = runs["plugin-report"].json
    assert {(s["file"], s["line"], s["op"], s["count"]) for s in data["sites"]} == {
        ("model.py", MUL, "torch.Tensor.mul", 1),
        ("model.py", CAT, "torch.cat", 1),
    }


# --- exit codes --------------------------------------------------------------------------------


def test_clean_command_exits_zero(runs: dict[str, Run]) -> None:
    run = runs["clean"]
    assert run.returncode == 0, run.stderr
    assert "No mixed-dtype torch calls recorded." in run.stdout.splitlines()


def test_untraced_command_keeps_its_exit_code(runs: dict[str, Run]) -> None:
    run = runs["no-torch"]
    assert run.returncode == 3
    assert "nothing was traced" in run.stdout


def test_exit_code_for_signals() -> None:
    report = TraceReport(["x"], -9, None, [])
    assert report.exit_code == 137
    assert TraceReport(["x"], None, None, []).exit_code == 2


# --- the report in process ---------------------------------------------------------------------


def _record(path: Path, line: int, op: str, raised: bool = False) -> dict[str, Any]:
    return {
        "op": op,
        "dtypes": ["bfloat16", "float32"],
        "result": None if raised else "float32",
        "raised": raised,
        "count": 1,
        "autocast": None,
        "frame": {"file": str(path), "line": line, "function": "forward"},
    }


def test_static_findings_on_the_fix_log() -> None:
    pixel = FIXLOG / "models" / "pixel_aligned.py"
    records = {
        "pid": 1,
        "argv": ["step.py"],
        "torch": "x",
        "complete": True,
        "sites": [
            _record(pixel, 92, "torch.cat"),
            _record(pixel, 96, "torch.matmul"),  # a call over lines 96-99: DTL002 is on 98
            _record(pixel, 126, "torch.nn.functional.grid_sample", raised=True),
        ],
    }
    report = build_report(records, ["python", "step.py"], 1, FIXLOG)
    found = {site.line: [(f.code, f.row) for f in site.findings] for site in report.sites}
    # 96: DTL002 in the same statement, and DTL001 on the line that binds `points_homo` (read here)
    assert found == {92: [("DTL001", 92)], 96: [("DTL001", 92), ("DTL002", 98)], 126: []}
    text = render_text(report)
    assert (
        "models/pixel_aligned.py:126: torch.nn.functional.grid_sample(bfloat16, float32) raised"
        in text
    )


def test_sarif_is_valid() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    records = {
        "pid": 1,
        "argv": [],
        "torch": "x",
        "complete": True,
        "sites": [_record(PROJECT / "model.py", CAT, "torch.cat")],
    }
    report = build_report(records, ["python", "train.py"], 0, PROJECT)
    log = json.loads(render_sarif(report, PROJECT))
    schema = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.validate(log, schema)
    (result,) = log["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "model.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": CAT}
    assert result["properties"]["findings"] == ["DTL001"] and result["level"] == "warning"


def test_importing_trace_imports_neither_torch_nor_pytest() -> None:
    code = (
        "import sys, dtypelint.trace, dtypelint.trace.command\n"
        "assert 'torch' not in sys.modules and 'pytest' not in sys.modules"
    )
    subprocess.run([PYTHON, "-c", code], check=True, env=_env())


# --- CUDA --------------------------------------------------------------------------------------


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_trace_on_cuda() -> None:
    script = PROJECT / "cuda_step.py"
    process = _start(*_trace("--output-format", "json", "--", PYTHON, "cuda_step.py"))
    stdout, stderr = process.communicate(timeout=600)
    assert process.returncode == 1, stderr
    mixed = ("bfloat16", "float32")
    assert _sites(json.loads(stdout)) == {
        ("cuda_step.py", line_of(script, "torch.cat(["), "torch.cat", mixed, "float32", 1, False),
        (
            "cuda_step.py",
            line_of(script, "depth = "),
            "torch.Tensor.mul",
            mixed,
            "float32",
            1,
            False,
        ),
    }
    assert "torch.float32 torch.float32" in stderr.splitlines()  # its own output, unchanged
