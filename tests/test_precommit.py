"""The pre-commit hooks (.pre-commit-hooks.yaml), run by the real pre-commit.

pre-commit builds the hook environment itself: a fresh virtual environment with this repository
installed from a commit (dependencies from the package index, no torch). The repository is copied
and committed in a temporary folder first, so uncommitted work is what gets tested; every test
shares one PRE_COMMIT_HOME inside the temporary folder, so the environment is built once.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from support import ROOT, git, git_env

pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("pre_commit") is None, reason="pre-commit is not installed"
    ),
    pytest.mark.slow,
]

HAZARD = (
    "import torch\n"
    "\n"
    "\n"
    "def homogeneous(points_3d: torch.Tensor) -> torch.Tensor:\n"
    "    B, N, _ = points_3d.shape\n"
    "    ones = torch.ones(B, N, 1, device=points_3d.device)\n"
    "    return torch.cat([points_3d, ones], dim=-1)\n"
)
FIXED = HAZARD.replace(
    "device=points_3d.device)", "device=points_3d.device, dtype=points_3d.dtype)"
)


def source_files() -> list[str]:
    """The checkout's files as git sees them (tracked and untracked, not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if listed.returncode == 0:
        names = listed.stdout.decode().split("\0")
        return [name for name in names if name and (ROOT / name).is_file()]
    skip = {".git", ".venv", "__pycache__", ".pytest_cache", ".ruff_cache", "build", "dist"}
    return [
        path.relative_to(ROOT).as_posix()
        for path in ROOT.rglob("*")
        if path.is_file() and not skip & set(path.relative_to(ROOT).parts)
    ]


@dataclass(frozen=True)
class Hooks:
    repo: Path  # a committed copy of this checkout
    rev: str
    home: Path  # PRE_COMMIT_HOME, shared by the tests in this module

    def env(self) -> dict[str, str]:
        return {**git_env(), "PRE_COMMIT_HOME": str(self.home), "PRE_COMMIT_COLOR": "never"}

    def pre_commit(self, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", *args],
            cwd=project,
            env=self.env(),
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )

    def project(self, folder: Path) -> Path:
        """A git repository whose .pre-commit-config.yaml uses both hooks from `repo`."""
        folder.mkdir()
        git(folder, "init", "-q")
        config = {
            "repos": [
                {
                    "repo": str(self.repo),
                    "rev": self.rev,
                    "hooks": [{"id": "dtypelint"}, {"id": "dtypelint-fix"}],
                }
            ]
        }
        (folder / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
        git(folder, "add", ".pre-commit-config.yaml")
        return folder


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hooks]:
    base = tmp_path_factory.mktemp("pre-commit")
    repo = base / "hook-repo"
    for name in source_files():
        target = repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "hooks under test")
    rev = git(repo, "rev-parse", "HEAD").strip()
    yield Hooks(repo, rev, base / "cache")


def output(result: subprocess.CompletedProcess[str]) -> str:
    return result.stdout + result.stderr


def test_hooks_file() -> None:
    manifest = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    by_id = {hook["id"]: hook for hook in manifest}
    assert set(by_id) == {"dtypelint", "dtypelint-fix"}
    for hook in manifest:
        assert hook["language"] == "python"
        assert hook["types_or"] == ["python", "pyi"]
        assert hook["require_serial"] is False
        assert hook["entry"].startswith("dtypelint check ")
        assert {"--no-default-path", "--force-exclude"} <= set(hook["entry"].split())
    assert "--fix" not in by_id["dtypelint"]["entry"].split()
    assert "--fix" in by_id["dtypelint-fix"]["entry"].split()


def test_check_hook_fails_on_a_staged_hazard_and_names_the_rule(
    hooks: Hooks, tmp_path: Path
) -> None:
    project = hooks.project(tmp_path / "project")
    (project / "model.py").write_text(HAZARD)
    git(project, "add", "model.py")
    result = hooks.pre_commit(project, "run", "dtypelint")
    assert result.returncode == 1, output(result)
    assert "model.py:6:12: DTL001 [*] torch.ones(...) defaults to float32" in result.stdout
    assert "Found 1 error (1 fixable with the `--fix` option)." in result.stdout
    assert (project / "model.py").read_text() == HAZARD  # the check hook changes nothing


def test_fix_hook_fixes_the_staged_hazard(hooks: Hooks, tmp_path: Path) -> None:
    project = hooks.project(tmp_path / "project")
    (project / "model.py").write_text(HAZARD)
    git(project, "add", "model.py")
    result = hooks.pre_commit(project, "run", "dtypelint-fix")
    assert result.returncode == 1, output(result)  # pre-commit fails a hook that edits files
    assert "files were modified by this hook" in result.stdout
    assert (project / "model.py").read_text() == FIXED
    git(project, "add", "model.py")
    for hook in ("dtypelint-fix", "dtypelint"):
        again = hooks.pre_commit(project, "run", hook)
        assert again.returncode == 0, output(again)
        assert "Passed" in again.stdout


def test_both_hooks_pass_when_no_python_file_is_staged(hooks: Hooks, tmp_path: Path) -> None:
    project = hooks.project(tmp_path / "project")
    (project / "model.py").write_text(HAZARD)  # present, but not staged
    (project / "README.md").write_text("# notes\n")
    git(project, "add", "README.md")
    for hook in ("dtypelint", "dtypelint-fix"):
        result = hooks.pre_commit(project, "run", hook)
        assert result.returncode == 0, output(result)
        assert "(no files to check)Skipped" in result.stdout
    assert (project / "model.py").read_text() == HAZARD


def test_hooks_honour_the_project_excludes(hooks: Hooks, tmp_path: Path) -> None:
    project = hooks.project(tmp_path / "project")
    (project / "pyproject.toml").write_text('[tool.dtypelint]\nextend-exclude = ["generated"]\n')
    (project / "generated").mkdir()
    (project / "generated" / "model.py").write_text(HAZARD)
    git(project, "add", ".")
    for hook in ("dtypelint", "dtypelint-fix"):
        result = hooks.pre_commit(project, "run", hook)
        assert result.returncode == 0, output(result)
    assert (project / "generated" / "model.py").read_text() == HAZARD


def hook_environment(hooks: Hooks) -> Path:
    """The virtual environment pre-commit built for the hooks (after a hook has run)."""
    (found,) = {path.parent.parent for path in hooks.home.glob("repo*/py_env-*/bin/dtypelint")}
    return found


def test_hook_entry_with_zero_files_checks_nothing_and_torch_is_absent(
    hooks: Hooks, tmp_path: Path
) -> None:
    project = hooks.project(tmp_path / "project")
    (project / "model.py").write_text(HAZARD)
    (project / "README.md").write_text("# notes\n")
    git(project, "add", "README.md")
    assert hooks.pre_commit(project, "run", "dtypelint").returncode == 0  # builds the env
    environment = hook_environment(hooks)
    # The hook environment has no torch: the hooks cannot import it.
    probe = subprocess.run(
        [str(environment / "bin" / "python"), "-c", "import torch"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.returncode == 1 and "No module named 'torch'" in probe.stderr
    manifest = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    for hook in manifest:
        command, *args = hook["entry"].split()
        result = subprocess.run(
            [str(environment / "bin" / command), *args],
            cwd=project,
            capture_output=True,
            text=True,
            check=False,
        )
        assert (result.returncode, result.stdout, result.stderr) == (
            0,
            "All checks passed!\n",
            "",
        ), hook["id"]
    assert (project / "model.py").read_text() == HAZARD


def test_try_repo_runs_the_check_hook_on_a_staged_hazard(hooks: Hooks, tmp_path: Path) -> None:
    project = hooks.project(tmp_path / "project")
    (project / "model.py").write_text(HAZARD)
    git(project, "add", "model.py")
    result = hooks.pre_commit(project, "try-repo", str(hooks.repo), "dtypelint", "--verbose")
    assert result.returncode == 1, output(result)
    assert "- hook id: dtypelint" in result.stdout
    assert "model.py:6:12: DTL001 [*] torch.ones(...) defaults to float32" in result.stdout
