"""The GitHub Actions workflow in docs/ (and the README's copy of it) works as written.

The test reads the workflow, checks what GitHub needs from it, and runs every `run:` command, the
install step included, in a pull-request-like git repository: the install step installs
dtypelint into a fresh virtual environment from a clone of this checkout tagged like a release,
which stands in (offline) for the repository it names, through git's `url.<clone>.insteadOf`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from support import FIXLOG, REMOTE, ROOT, git, release_clone, release_tag, remote_env

from dtypelint import __version__

WORKFLOW = ROOT / "docs" / "github-workflow.yml"
README = ROOT / "README.md"
SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"
INSTALL_STEP = "Install dtypelint"


def workflow() -> dict[str, Any]:
    data: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text())
    return data


def steps() -> list[dict[str, Any]]:
    (job,) = workflow()["jobs"].values()
    result: list[dict[str, Any]] = job["steps"]
    return result


def yaml_blocks(markdown: str) -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", markdown, flags=re.DOTALL)


def test_workflow_runs_on_pull_requests_and_uploads_sarif() -> None:
    data = workflow()
    triggers = data.get("on", data.get(True))  # YAML 1.1 reads a bare `on` as true
    assert "pull_request" in triggers
    (job,) = data["jobs"].values()
    assert job["permissions"]["security-events"] == "write"
    by_name = {step.get("name"): step for step in steps()}
    gate = by_name["Check the lines this pull request changes"]
    assert gate["run"].startswith("dtypelint check --output-format github")
    assert gate["if"] == "github.event_name == 'pull_request'"
    upload = next(step for step in steps() if "upload-sarif" in step.get("uses", ""))
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    sarif_file = upload["with"]["sarif_file"]
    writer = by_name["Write SARIF"]
    assert writer["run"].endswith(f"--output-format sarif --exit-zero > {sarif_file}")
    # Installed from the repository at the release tag of this version: it works before (and
    # without) a release on a package index.
    assert by_name[INSTALL_STEP]["run"] == (
        f'python -m pip install "dtypelint @ git+{REMOTE}@{release_tag()}"'
    )


def test_the_readme_shows_the_workflow_and_the_pre_commit_config() -> None:
    readme = README.read_text()
    assert WORKFLOW.read_text() in yaml_blocks(readme)
    hook_ids = {
        hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    }
    configs = [yaml.safe_load(block) for block in yaml_blocks(readme)]
    pre_commit = [c for c in configs if isinstance(c, dict) and "repos" in c]
    assert pre_commit, "README has no .pre-commit-config.yaml snippet"
    (repo,) = pre_commit[0]["repos"]
    assert (repo["repo"], repo["rev"]) == (REMOTE, release_tag())
    assert {hook["id"] for hook in repo["hooks"]} == hook_ids
    # Every install command in the README pins the same release.
    pins = re.findall(r"git\+https://github\.com/dtypelint/dtypelint@(v[0-9.]+)", readme)
    assert pins and set(pins) == {release_tag()}


@pytest.fixture
def pull_request(tmp_path: Path) -> Path:
    """A checkout like actions/checkout makes for a pull request: origin/main and a new commit."""
    work = tmp_path / "checkout"
    shutil.copytree(FIXLOG / "before", work)
    git(work, "init", "-q", "-b", "main")
    git(work, "add", ".")
    git(work, "commit", "-q", "-m", "base: the fix-log code with its 7 hazards")
    git(work, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(work, "checkout", "-q", "-b", "feature")
    (work / "models" / "lift.py").write_text(
        "import torch\n"
        "\n"
        "\n"
        "def lift(points_3d: torch.Tensor) -> torch.Tensor:\n"
        "    ones = torch.ones(points_3d.shape[0], 1, device=points_3d.device)\n"
        "    return torch.cat([points_3d, ones], dim=-1)\n"
    )
    git(work, "add", ".")
    git(work, "commit", "-q", "-m", "pull request: one new hazard")
    return work


@pytest.fixture(scope="module")
def fresh_environment(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """An empty virtual environment's bin folder, and an environment where git fetches the
    repository the workflow names from a release clone of this checkout."""
    base = tmp_path_factory.mktemp("workflow")
    clone = release_clone(base / "released")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = remote_env(clone, dict(os.environ))
    env.pop("PYTHONPATH", None)  # the installed dtypelint, not this checkout's
    env.pop("VIRTUAL_ENV", None)
    env["PATH"] = str(venv / "bin") + os.pathsep + env.get("PATH", "")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return venv / "bin", env


def run_step(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run a `run:` command the way GitHub's default shell on Linux does (`bash -e {0}`)."""
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-e", "-c", command],
        cwd=cwd,
        env={**env, "GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main"},
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@pytest.mark.slow
def test_the_workflow_commands_work_as_written(
    pull_request: Path, fresh_environment: tuple[Path, dict[str, str]]
) -> None:
    bin_folder, env = fresh_environment
    results = {
        step["name"]: run_step(step["run"], pull_request, env) for step in steps() if "run" in step
    }

    install = results[INSTALL_STEP]
    assert install.returncode == 0, install.stdout + install.stderr
    installed = subprocess.run(
        ["dtypelint", "--version"], env=env, capture_output=True, text=True, check=True
    )
    assert installed.stdout == f"dtypelint {__version__}\n"
    assert (bin_folder / "dtypelint").is_file()
    probe = [str(bin_folder / "python"), "-c", "import dtypelint; print(dtypelint.__file__)"]
    location = subprocess.run(
        probe, cwd=pull_request, env=env, capture_output=True, text=True, check=True
    )
    assert location.stdout.startswith(str(bin_folder.parent))  # not this checkout

    gate = results["Check the lines this pull request changes"]
    assert gate.returncode == 1, gate.stderr  # the pull request adds a hazard: the check fails
    assert gate.stderr == ""
    assert gate.stdout == (
        "::error title=dtypelint (DTL001),file=models/lift.py,line=5,col=12,endLine=5,"
        "endColumn=70::DTL001 torch.ones(...) defaults to float32 but meets 'points_3d'; "
        "add dtype=points_3d.dtype\n"
    )

    writer = results["Write SARIF"]
    assert (writer.returncode, writer.stdout, writer.stderr) == (0, "", "")
    log = json.loads((pull_request / "dtypelint.sarif").read_text())
    jsonschema.Draft4Validator(json.loads(SCHEMA.read_text())).validate(log)
    results_by_file = sorted(
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    )
    assert results_by_file == [
        *["models/encoders/hand_encoder.py"] * 4,
        "models/lift.py",
        *["models/pixel_aligned.py"] * 3,
    ]
