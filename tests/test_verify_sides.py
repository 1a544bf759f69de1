"""`dtypelint verify` with one worker process per side: isolation between the examples of one
process, crashes and hangs as verdicts, and the verdicts on a generated tree of hazards and
look-alikes (some inside autocast regions).

The two end-to-end runs start together (module fixture) and are read by several tests.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")

REPO = Path(__file__).resolve().parents[1]
ISOLATION = REPO / "fixtures" / "verify_isolation"


def _load_tree_module() -> Any:
    spec = importlib.util.spec_from_file_location(
        "verify_tree", REPO / "benchmarks" / "verify_tree.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


verify_tree = _load_tree_module()


@dataclass
class Run:
    returncode: int
    data: dict[str, Any]
    stderr: str

    def example(self, function_or_file: str) -> dict[str, Any]:
        (found,) = [
            e
            for e in self.data["examples"]
            if e["function"] == function_or_file or e["file"] == function_or_file
        ]
        return found


def _start(cwd: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "dtypelint", "verify", "--device", "cpu", *args]
    command += ["--output-format", "json"]
    return subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _finish(process: subprocess.Popen[str]) -> Run:
    stdout, stderr = process.communicate(timeout=600)
    return Run(process.returncode, json.loads(stdout), stderr)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tree = tmp_path_factory.mktemp("tree")
    kinds = verify_tree.make_tree(tree, len(verify_tree.KINDS))
    started = {
        "isolation": _start(ISOLATION, "--timeout", "3"),
        "tree": _start(tree, "--unsafe-fixes"),
    }
    finished = {name: _finish(process) for name, process in started.items()}
    return {**finished, "kinds": kinds}


# --- isolation inside one worker process ---------------------------------------------------------


def test_each_example_gets_fresh_modules_and_torch_state(runs: dict[str, Any]) -> None:
    run = runs["isolation"]
    # example_second imports the module example_first used, after an example that changed the
    # default dtype, in the same process: both must look untouched to it.
    for function in ("example_first", "example_changes_default_dtype", "example_second"):
        example = run.example(function)
        assert example["verdict"] == "no-hazard", (function, example["before"])
        assert example["before"]["status"] == "ok"


def test_a_crash_is_its_examples_verdict_and_the_side_goes_on(runs: dict[str, Any]) -> None:
    run = runs["isolation"]
    crash = run.example("example_crash")
    assert crash["verdict"] == "still-failing"
    exception = crash["before"]["exception"]
    assert exception["type"] == "Crash"
    assert exception["message"] == "the process died (signal SIGSEGV) during the run"
    assert exception["location"] == "examples.py:13"  # os.kill(...) in _segfault


def test_a_hang_is_a_timeout_and_the_side_restarts(runs: dict[str, Any]) -> None:
    run = runs["isolation"]
    hang = run.example("example_hang")
    assert hang["verdict"] == "timeout"
    assert hang["before"]["exception"]["message"] == "the run did not finish within 3 s"
    assert hang["before"]["exception"]["location"] == "examples.py:19"
    assert run.example("example_last")["verdict"] == "no-hazard"  # run by a restarted worker
    assert run.returncode == 1  # a crash and a timeout fail the run


def test_one_process_per_side_plus_restarts(runs: dict[str, Any]) -> None:
    # No fix applies, so there is no patched side; each side restarts after the crash and the
    # hang: torch is imported 3 times per side here, not once per example and phase.
    assert runs["isolation"].data["worker_processes"] == {"reference": 3, "original": 3}
    assert runs["tree"].data["worker_processes"] == {"reference": 1, "original": 1, "patched": 1}


# --- verdicts on hazards and look-alikes ----------------------------------------------------------


def test_generated_tree_verdicts(runs: dict[str, Any]) -> None:
    run = runs["tree"]
    verdicts = {e["file"]: e["verdict"] for e in run.data["examples"]}
    expected = {name: verify_tree.EXPECTED[kind] for name, kind in runs["kinds"].items()}
    assert verdicts == expected
    assert run.returncode == 0, run.stderr


def _named(runs: dict[str, Any], kind: str) -> str:
    (name,) = [name for name, k in runs["kinds"].items() if k == kind]
    return str(name)


def test_autocast_matmul_is_not_a_mixed_site(runs: dict[str, Any]) -> None:
    # bf16 points @ float32 intrinsics inside torch.autocast("cpu", dtype=torch.bfloat16):
    # autocast casts both operands, the output is bf16 and matches float32.
    example = runs["tree"].example(_named(runs, "autocast_matmul"))
    assert example["before"]["status"] == "ok" and example["before"]["mixed_ops"] == []
    assert example["before"]["output_dtypes"] == ["bfloat16"]
    assert example["verdict"] == "no-hazard"
    norm = runs["tree"].example(_named(runs, "autocast_norm"))  # LayerNorm's float32 weights
    assert norm["before"]["mixed_ops"] == [] and norm["verdict"] == "no-hazard"


def test_cuda_autocast_regions_apply_on_a_cpu_run(runs: dict[str, Any]) -> None:
    # `@torch.autocast(device_type="cuda")` code run on the CPU: the region applies to the CPU
    # (torch alone would disable it there, and the bf16 @ float32 matmul would raise).
    example = runs["tree"].example(_named(runs, "cuda_autocast_projector"))
    assert example["before"]["status"] == "ok" and example["before"]["mixed_ops"] == []
    assert example["before"]["output_dtypes"] == ["bfloat16"]
    assert example["verdict"] == "no-hazard"


def test_promotion_inside_autocast_is_still_reported(runs: dict[str, Any]) -> None:
    name = _named(runs, "autocast_buffer_cat")
    example = runs["tree"].example(name)
    (op,) = example["before"]["mixed_ops"]
    assert (op["op"], op["dtypes"], op["result"]) == (
        "torch.cat",
        ["bfloat16", "float32"],
        "float32",
    )
    assert op["autocast"] == "bfloat16"
    assert op["location"] == f"{name}:14"  # torch.cat([h, pad], dim=-1)
    assert example["verdict"] == "confirmed"
    assert example["after"]["mixed_ops"] == []


def test_forget_modules_keeps_installed_packages_inside_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dtypelint.verify.runner import forget_modules

    (tmp_path / "project_mod_x.py").write_text("STATE = []\n")
    site = tmp_path / ".venv" / "lib" / "python3" / "site-packages"
    site.mkdir(parents=True)
    (site / "installed_pkg_x.py").write_text("STATE = []\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(tmp_path))
    import installed_pkg_x  # noqa: F401
    import project_mod_x  # noqa: F401

    try:
        assert forget_modules(tmp_path) == 1
        assert "project_mod_x" not in sys.modules and "installed_pkg_x" in sys.modules
        assert "torch" in sys.modules
    finally:
        sys.modules.pop("project_mod_x", None)
        sys.modules.pop("installed_pkg_x", None)
