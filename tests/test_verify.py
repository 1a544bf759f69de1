"""`dtypelint verify`: the runtime harness end to end on small projects, and its pieces.

End-to-end runs are the slow part (each side is a worker process importing torch), so they
happen once per module and concurrently: the fix-log fixture through the Python API
(text and JSON rendered from one run), the projects under fixtures/verify through the real CLI.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from click.testing import CliRunner  # noqa: E402

from dtypelint.config import Config, load_config  # noqa: E402
from dtypelint.verify import harness, report  # noqa: E402
from dtypelint.verify.command import verify  # noqa: E402
from dtypelint.verify.device import DeviceError, choose_device  # noqa: E402
from dtypelint.verify.recorder import FrameFilter, MixedDtypeRecorder  # noqa: E402
from dtypelint.verify.runner import relative_error  # noqa: E402
from dtypelint.verify.verdict import decide, tolerance  # noqa: E402
from dtypelint.verify.workspace import build_patched_tree  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
FIXLOG = REPO / "fixtures" / "fixlog"
PROJECTS = REPO / "fixtures" / "verify"
HAS_CUDA = torch.cuda.is_available()

# fixtures/verify project -> extra command-line arguments of its CLI run
CLI_RUNS = {
    "clean_project": ["--output-format", "json"],
    "incomplete_fix": ["--output-format", "json"],
    "import_error": ["--output-format", "json"],
    "hang": ["--timeout", "5"],  # text output
    "compile_hides": ["--compile", "--output-format", "json"],
}


def tree_hashes(folder: Path) -> dict[str, str]:
    """Every file under `folder` with its hash (names count too: a new __pycache__ shows)."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@contextlib.contextmanager
def working_directory(path: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


@dataclass
class CliRun:
    returncode: int
    stdout: str
    stderr: str

    @property
    def json(self) -> dict[str, Any]:
        return json.loads(self.stdout)  # type: ignore[no-any-return]


@dataclass
class Runs:
    fixlog_text: str
    fixlog_json: dict[str, Any]
    cli: dict[str, CliRun]
    hashes_before: dict[str, dict[str, str]]
    hashes_after: dict[str, dict[str, str]]


@pytest.fixture(scope="module")
def fixlog_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fix-log fixture as a project of its own: `before/` is the root (given a pyproject.toml
    here, so the repository's settings never apply) and examples.py sits beside it."""
    base = tmp_path_factory.mktemp("fixlog")
    shutil.copytree(FIXLOG / "before", base / "before")
    shutil.copy2(FIXLOG / "examples.py", base / "examples.py")
    pyproject = '[project]\nname = "fixlog"\nversion = "0"\n\n[tool.dtypelint]\n'
    (base / "before" / "pyproject.toml").write_text(pyproject)
    return base


def _start_cli(name: str, out: Path) -> tuple[subprocess.Popen[bytes], Path, Path]:
    stdout, stderr = out / f"{name}.out", out / f"{name}.err"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    with stdout.open("wb") as out_file, stderr.open("wb") as err_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "dtypelint", "verify", *CLI_RUNS[name]],
            cwd=PROJECTS / name,
            env=env,
            stdout=out_file,
            stderr=err_file,
        )
    return process, stdout, stderr


def fixlog_options(device: str, timeout: float, jobs: int) -> harness.VerifyOptions:
    """Verify the fix-log fixture from inside `before/`, its examples beside it."""
    return harness.VerifyOptions(
        paths=(".",),
        example_files=("../examples.py",),
        device=device,
        dtype="auto",
        unsafe=False,
        timeout=timeout,
        compile=False,
        jobs=jobs,
    )


@pytest.fixture(scope="module")
def runs(fixlog_project: Path, tmp_path_factory: pytest.TempPathFactory) -> Runs:
    watched = {name: PROJECTS / name for name in CLI_RUNS} | {"fixlog": fixlog_project}
    hashes_before = {name: tree_hashes(folder) for name, folder in watched.items()}
    out = tmp_path_factory.mktemp("cli")
    started = {name: _start_cli(name, out) for name in CLI_RUNS}

    with working_directory(fixlog_project / "before"):
        fixlog = harness.run_verify(fixlog_options("cpu", timeout=120.0, jobs=2), load_config())
        fixlog_text = report.render_text(fixlog)
        fixlog_json = json.loads(report.render_json(fixlog))

    cli = {}
    for name, (process, stdout, stderr) in started.items():
        returncode = process.wait(timeout=600)
        cli[name] = CliRun(returncode, stdout.read_text(), stderr.read_text())
    hashes_after = {name: tree_hashes(folder) for name, folder in watched.items()}
    return Runs(fixlog_text, fixlog_json, cli, hashes_before, hashes_after)


def _example(data: dict[str, Any], function: str) -> dict[str, Any]:
    (found,) = [example for example in data["examples"] if example["function"] == function]
    return found


def _line(location: str) -> int:
    return int(location.rsplit(":", 1)[1])


# --- the fix-log fixture -----------------------------------------------------------------------


def test_fixlog_examples_are_confirmed(runs: Runs) -> None:
    data = runs.fixlog_json
    assert data["device"] == "cpu" and data["dtype"] == "bfloat16"
    for function in ("example_pixel_aligned", "example_hand_encoder"):
        example = _example(data, function)
        assert example["verdict"] == "confirmed", example["reason"]
        assert example["before"]["status"] in ("raised", "promoted")
        after = example["after"]
        assert after["status"] == "ok" and after["mixed_ops"] == []
        assert after["output_dtypes"] and set(after["output_dtypes"]) == {"bfloat16"}
        assert after["max_error"] <= tolerance("bfloat16")
        assert example["reference"]["status"] == "ok"


def test_fixlog_report_names_the_failing_op_and_line(runs: Runs) -> None:
    pixel = _example(runs.fixlog_json, "example_pixel_aligned")["before"]
    # torch.ones without dtype (line 92) promotes the points to float32 in the cat; the float32
    # points then meet the bf16 feature map in grid_sample, which raises.
    cat = [op for op in pixel["mixed_ops"] if op["op"] == "torch.cat"]
    assert cat and cat[0]["location"] == "models/pixel_aligned.py:92"
    assert cat[0]["dtypes"] == ["bfloat16", "float32"] and cat[0]["result"] == "float32"
    exception = pixel["exception"]
    assert exception["op"] == "torch.nn.functional.grid_sample"
    assert exception["dtypes"] == ["bfloat16", "float32"]
    assert exception["location"].startswith("models/pixel_aligned.py:")
    assert "expected scalar type BFloat16 but found Float" in exception["message"]

    hand = _example(runs.fixlog_json, "example_hand_encoder")["before"]
    assert hand["exception"]["op"] == "torch.nn.functional.linear"
    assert hand["exception"]["location"].startswith("models/encoders/hand_encoder.py:")
    setitem = [op for op in hand["mixed_ops"] if op["op"] == "torch.Tensor.__setitem__"]
    assert setitem and _line(setitem[0]["location"]) == 326  # bf16 rows into the float32 zeros

    text = runs.fixlog_text
    assert "torch.cat(bfloat16, float32) -> float32 at models/pixel_aligned.py:92" in text
    assert "in torch.nn.functional.grid_sample(bfloat16, float32)" in text
    assert f"at {exception['location']}" in text


def test_fixlog_verdicts_link_the_findings(runs: Runs) -> None:
    findings = _example(runs.fixlog_json, "example_pixel_aligned")["findings"]
    by_line = {(f["code"], f["row"]): f for f in findings}
    assert by_line[("DTL001", 92)]["at_recorded_line"] and by_line[("DTL001", 92)]["fixed"]
    assert {row for code, row in by_line if code == "DTL002"} == {98, 107}
    assert all(f["file"] == "models/pixel_aligned.py" for f in findings)
    hand = _example(runs.fixlog_json, "example_hand_encoder")["findings"]
    assert {(f["code"], f["row"]) for f in hand} >= {("DTL001", 142), ("DTL001", 324)}
    assert "models/pixel_aligned.py:92: DTL001" in runs.fixlog_text


def test_text_report_header_and_table(runs: Runs) -> None:
    lines = runs.fixlog_text.splitlines()
    assert lines[0].startswith("dtypelint verify: device cpu (")
    assert "compute capability n/a, dtype bfloat16: --device cpu; CPU bfloat16" in lines[0]
    assert "tolerance 0.05" in lines[1]
    header = next(line for line in lines if line.startswith("example "))
    for column in ("before", "after", "verdict", "max err vs fp32", "findings"):
        assert column in header
    assert lines[-1] == "2 examples: 2 confirmed."


def test_json_shape(runs: Runs) -> None:
    data = runs.fixlog_json
    assert {"device", "device_name", "capability", "dtype", "reason", "examples"} <= set(data)
    assert data["fixes"] and all({"file", "count"} == set(fix) for fix in data["fixes"])
    example = _example(data, "example_pixel_aligned")
    assert example["example"] == f"{example['file']}:example_pixel_aligned"
    assert example["file"].endswith("examples.py")
    side_keys = {"status", "exception", "mixed_ops", "output_dtypes", "max_error"}
    for side in ("before", "after"):
        assert side_keys <= set(example[side])
    assert {"type", "message", "location", "op", "dtypes"} <= set(example["before"]["exception"])
    assert {"op", "dtypes", "location", "count"} <= set(example["before"]["mixed_ops"][0])
    finding_keys = {"code", "name", "message", "file", "row", "column", "fixed"}
    assert finding_keys <= set(example["findings"][0])
    json.dumps(data, allow_nan=False)  # strict JSON: no NaN or Infinity


# --- the small projects, through the CLI ---------------------------------------------------


def test_clean_project_has_no_hazard(runs: Runs) -> None:
    run = runs.cli["clean_project"]
    assert run.returncode == 0, run.stderr
    (example,) = run.json["examples"]
    assert example["example"] == "geometry/projection.py:example"  # found in the PATH files
    assert example["verdict"] == "no-hazard"
    assert example["before"]["status"] == example["after"]["status"] == "ok"


def test_incomplete_fix_is_still_failing(runs: Runs) -> None:
    run = runs.cli["incomplete_fix"]
    assert run.returncode == 1, run.stderr
    data = run.json
    assert data["fixes"] == [{"file": "geometry/normalize.py", "count": 1}]  # torch.ones: fixed
    (example,) = data["examples"]
    assert example["example"] == "examples.py:example_normalizer"  # from [tool.dtypelint.verify]
    assert example["verdict"] == "still-failing"
    assert example["after"]["status"] == "promoted"
    left = {(op["op"], tuple(op["dtypes"])) for op in example["after"]["mixed_ops"]}
    assert ("torch.Tensor.sub", ("bfloat16", "float64")) in left  # the NumPy float64 table
    assert "float64" in example["after"]["output_dtypes"]


def test_import_error_is_a_verdict(runs: Runs) -> None:
    run = runs.cli["import_error"]
    assert run.returncode == 1, run.stderr
    (example,) = run.json["examples"]
    assert example["verdict"] == "import-error"
    exception = example["before"]["exception"]
    assert exception["type"] == "ModuleNotFoundError" and "geometry.helpers" in exception["message"]
    assert exception["location"] == "geometry/model.py:5"


def test_hang_is_a_timeout_verdict(runs: Runs) -> None:
    run = runs.cli["hang"]
    assert run.returncode == 1, run.stderr
    assert "slow_model.py:example  timeout  not run  timeout" in run.stdout
    assert "did not finish within 5 s" in run.stdout
    assert "at slow_model.py:10" in run.stdout  # where it was stuck, from the stack dump


def test_compile_runs_are_reported(runs: Runs) -> None:
    run = runs.cli["compile_hides"]
    data = run.json
    assert data["compile"]["backend"] in ("inductor", "aot_eager"), run.stderr
    (example,) = data["examples"]
    assert example["before"]["status"] == "raised"  # float32 weights @ bf16 values
    assert example["before"]["exception"]["op"] == "torch.Tensor.matmul"
    compiled = example["compiled"]["before"]
    if compiled["status"] == "ok":  # inductor promoting silently (pytorch#177630)
        assert "hides the error" in compiled["disagreement"]
    else:  # torch versions whose meta kernels check the dtypes raise while tracing
        assert compiled["status"] == "raised" and compiled["disagreement"] is None


def test_compile_disagreement_in_words() -> None:
    eager = {"status": "raised", "outputs": []}
    compiled = {"status": "ok", "outputs": [{"dtype": "float32"}]}
    assert "hides the error, outputs float32" in report.compile_disagreement(eager, compiled)
    same = {"status": "ok", "outputs": [{"dtype": "bfloat16"}]}
    assert report.compile_disagreement(same, same) is None
    assert "output dtypes differ" in report.compile_disagreement(same, compiled)
    dynamo = "RuntimeError when making fake tensor call\n  ...: got RuntimeError('expected X')\n"
    assert report.message_summary(dynamo).endswith("(RuntimeError('expected X'))")


def test_user_files_are_never_written(runs: Runs) -> None:
    for name, hashes in runs.hashes_before.items():
        assert runs.hashes_after[name] == hashes, name


# --- command line --------------------------------------------------------------------------


def test_importing_the_command_does_not_import_torch() -> None:
    code = "import sys, dtypelint.verify.command; assert 'torch' not in sys.modules"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


def test_missing_torch_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(harness, "torch_installed", lambda: False)
    result = CliRunner().invoke(verify, ["."])
    assert result.exit_code == 2
    assert "pip install 'dtypelint[verify]'" in result.output


def test_no_examples_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.dtypelint]\n")
    (tmp_path / "model.py").write_text("import torch\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(verify, ["."])
    assert result.exit_code == 2
    assert "no example functions" in result.output


# --- device and dtype choice ---------------------------------------------------------------


def _fake_cuda(monkeypatch: pytest.MonkeyPatch, capability: tuple[int, int] | None) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: capability is not None)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 0 if capability is None else 1)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda index=None: capability)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda index=None: "Fake GPU")


def test_auto_on_turing_falls_back_to_float16(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_cuda(monkeypatch, (7, 5))
    choice = choose_device(torch)
    assert (choice.device, choice.dtype, choice.capability) == ("cuda:0", "float16", (7, 5))
    assert "7.5 < 8.0" in choice.reason and "float16 fallback" in choice.reason


def test_auto_on_ampere_is_bfloat16(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_cuda(monkeypatch, (8, 0))
    choice = choose_device(torch)
    assert (choice.device, choice.dtype, choice.capability_text) == ("cuda:0", "bfloat16", "8.0")
    assert choice.name == "Fake GPU"


def test_auto_without_cuda_is_cpu_bfloat16(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_cuda(monkeypatch, None)
    choice = choose_device(torch)
    assert (choice.device, choice.dtype, choice.capability) == ("cpu", "bfloat16", None)
    assert "CUDA is not available" in choice.reason


def test_explicit_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_cuda(monkeypatch, (7, 0))
    assert choose_device(torch, dtype="bfloat16").device == "cpu"  # no native bf16 on the GPU
    assert choose_device(torch, device="cuda", dtype="bfloat16").dtype == "bfloat16"
    assert choose_device(torch, device="cpu", dtype="float16").dtype == "float16"
    _fake_cuda(monkeypatch, None)
    with pytest.raises(DeviceError, match="CUDA is not available"):
        choose_device(torch, device="cuda")


# --- verdicts ------------------------------------------------------------------------------


def _side(
    status: str, dtypes: tuple[str, ...] = ("bfloat16",), error: float | None = 0.01, sites: int = 0
) -> dict[str, Any]:
    return {
        "status": status,
        "outputs": [{"dtype": dtype} for dtype in dtypes],
        "error": error,
        "mixed_ops": [{}] * sites,
    }


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (_side("raised", (), None), _side("ok"), "confirmed"),
        (_side("promoted", ("float32",), sites=1), _side("ok"), "confirmed"),
        (_side("ok", ("float32",)), _side("ok"), "confirmed"),  # float32 leaked out before
        (_side("raised", (), None), _side("raised", (), None), "still-failing"),
        (_side("raised", (), None), _side("ok", ("float32",)), "still-failing"),
        (_side("raised", (), None), _side("ok", error=0.5), "still-failing"),
        (_side("ok"), _side("ok"), "no-hazard"),
        (_side("promoted", sites=1), _side("raised", (), None), "regressed"),
        (_side("promoted", sites=1), _side("promoted", sites=2), "regressed"),
        (_side("ok"), _side("promoted", sites=1), "regressed"),
        (_side("ok"), _side("ok", error=0.5), "regressed"),
        (_side("ok"), _side("import-error", (), None), "regressed"),
        (_side("timeout", (), None), None, "timeout"),
        (_side("import-error", (), None), _side("import-error", (), None), "import-error"),
    ],
)
def test_verdicts(before: dict[str, Any], after: dict[str, Any] | None, expected: str) -> None:
    assert decide(before, after, "bfloat16").name == expected


def test_tolerances_follow_the_dtype() -> None:
    assert tolerance("bfloat16") == 5e-2 and tolerance("float16") == 1e-2


# --- the recorder and the error measure ----------------------------------------------------


def _run_recorded(fn: Any, *args: Any) -> MixedDtypeRecorder:
    recorder = MixedDtypeRecorder(FrameFilter(REPO / "tests"))
    with recorder, contextlib.suppress(RuntimeError):
        fn(*args)
    return recorder


def _mixing(x: torch.Tensor, camera: torch.Tensor) -> torch.Tensor:
    joined = torch.cat([x, camera], dim=-1)  # promotes
    x[0] = camera[0]  # writes float32 into bf16
    return x @ camera + joined  # raises: bf16 @ float32


def test_recorder_records_promotions_writes_and_failures() -> None:
    x, camera = torch.ones(3, 3, dtype=torch.bfloat16), torch.ones(3, 3)
    recorder = _run_recorded(_mixing, x, camera)
    ops = {record["op"]: record for record in recorder.records.values()}
    lines = _mixing.__code__.co_firstlineno
    assert ops["torch.cat"]["frame"]["file"] == "test_verify.py"
    assert ops["torch.cat"]["frame"]["line"] == lines + 1
    assert ops["torch.cat"]["result"] == "float32"
    assert ops["torch.Tensor.__setitem__"]["result"] == "bfloat16"
    assert (
        ops["torch.Tensor.matmul"]["raised"]
        and ops["torch.Tensor.matmul"]["frame"]["line"] == lines + 3
    )


def _harmless(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    scale = torch.tensor(2.0)  # 0-dim: promotes like a Python scalar
    return (x * scale).to(y) + y.to(x.dtype).type_as(x).expand_as(x).to(y.dtype) * 0


def test_recorder_ignores_scalars_and_casts() -> None:
    x, y = torch.ones(3, dtype=torch.bfloat16), torch.ones(3)
    assert not _run_recorded(_harmless, x, y).records


def test_relative_error() -> None:
    reference = torch.tensor([100.0, -50.0, 0.0])
    assert relative_error(reference.to(torch.bfloat16), reference) == 0.0
    assert relative_error(reference + 1, reference) == pytest.approx(1 / 100, rel=1e-4)
    assert relative_error(torch.tensor([float("nan"), 0, 0]), reference) == float("inf")


# --- the patched tree ----------------------------------------------------------------------


def test_patched_tree_applies_fixes_and_skips_caches(tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(FIXLOG / "before", root)
    (root / "pyproject.toml").write_text("[tool.dtypelint]\n")
    (root / "models" / "__pycache__").mkdir()
    (root / "models" / "__pycache__" / "stale.pyc").write_bytes(b"")
    (root / ".venv").mkdir()
    (root / ".venv" / "pyvenv.cfg").write_text("home = /usr\n")
    files = sorted(root.rglob("*.py"))
    destination = tmp_path / "patched"
    tree = build_patched_tree(root, files, Config(), unsafe=False, destination=destination)
    assert {path.relative_to(root).as_posix() for path in tree.applied} == {
        "models/pixel_aligned.py",
        "models/encoders/hand_encoder.py",
    }
    for relative in ("models/pixel_aligned.py", "models/encoders/hand_encoder.py"):
        patched = (destination / relative).read_bytes()
        assert patched == (FIXLOG / "after" / relative).read_bytes(), relative
    assert (destination / "pyproject.toml").is_file()
    assert not (destination / "models" / "__pycache__").exists()
    assert not (destination / ".venv").exists()


# --- CUDA ----------------------------------------------------------------------------------


@pytest.mark.skipif(not HAS_CUDA, reason="needs a CUDA GPU")
def test_fixlog_on_cuda(fixlog_project: Path) -> None:
    with working_directory(fixlog_project / "before"):
        result = harness.run_verify(fixlog_options("cuda", timeout=300.0, jobs=1), load_config())
    choice = result.probe.choice
    assert choice.device.startswith("cuda") and choice.capability is not None
    expected = "bfloat16" if choice.capability >= (8, 0) else "float16"
    assert choice.dtype == expected
    assert [r.verdict.name for r in result.results] == ["confirmed", "confirmed"]
