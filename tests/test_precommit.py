"""The pre-commit hooks (.pre-commit-hooks.yaml), run by the real pre-commit, as the README says.

Every project here uses the README's `.pre-commit-config.yaml` snippet byte for byte: its
`repo: https://github.com/dtypelint/dtypelint` is fetched, offline, from a clone of this checkout
(uncommitted work included) tagged like a release (`rev: v<version>`), through git's
`url.<clone>.insteadOf`. pre-commit builds the hook environment itself (a fresh virtual
environment, dependencies from the package index, no torch); the tests share one
PRE_COMMIT_HOME, so it is built once.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from support import (
    REMOTE,
    ROOT,
    git,
    markdown_blocks,
    release_clone,
    release_tag,
    remote_env,
)

pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("pre_commit") is None, reason="pre-commit is not installed"
    ),
    pytest.mark.slow,
]

README = ROOT / "README.md"
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
REPORT = """\
DTL001 [*] torch.ones(...) defaults to float32 but meets 'points_3d'; add dtype=points_3d.dtype
 --> model.py:6:12
  |
4 | def homogeneous(points_3d: torch.Tensor) -> torch.Tensor:
5 |     B, N, _ = points_3d.shape
6 |     ones = torch.ones(B, N, 1, device=points_3d.device)
  |            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
7 |     return torch.cat([points_3d, ones], dim=-1)
  |
help: Add `dtype=points_3d.dtype`
"""
HEADLINE = REPORT.splitlines()[0].replace(" [*]", "")


def readme_config() -> str:
    """The README's `.pre-commit-config.yaml` snippet, exactly as written."""
    (snippet,) = [
        block for block in markdown_blocks(README.read_text(), "yaml") if "repos:" in block
    ]
    return snippet


@dataclass(frozen=True)
class Hooks:
    clone: Path  # the released repository, standing in for REMOTE
    home: Path  # PRE_COMMIT_HOME, shared by the tests in this module

    def env(self) -> dict[str, str]:
        env = {
            **remote_env(self.clone),
            "PRE_COMMIT_HOME": str(self.home),
            "PRE_COMMIT_COLOR": "never",
        }
        env.pop("PYTHONPATH", None)  # the hooks run the released dtypelint, not this checkout's
        return env

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

    def project(self, folder: Path, **files: str) -> Path:
        """A git repository with the README's config and `files` staged."""
        folder.mkdir()
        git(folder, "init", "-q")
        (folder / ".pre-commit-config.yaml").write_text(readme_config())
        for name, text in files.items():
            path = folder / name.replace("__", "/")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        git(folder, "add", ".")
        return folder


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hooks]:
    base = tmp_path_factory.mktemp("pre-commit")
    yield Hooks(release_clone(base / "released"), base / "cache")


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
    assert not {"--fix", "--fix-only"} & set(by_id["dtypelint"]["entry"].split())
    # The fix hook fixes and reports nothing else: the check hook reports what remains.
    assert "--fix-only" in by_id["dtypelint-fix"]["entry"].split()


def test_readme_snippet_pins_the_release_tag_of_this_version() -> None:
    config = yaml.safe_load(readme_config())
    (repo,) = config["repos"]
    assert (repo["repo"], repo["rev"]) == (REMOTE, release_tag())
    hook_ids = {
        hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    }
    assert [hook["id"] for hook in repo["hooks"]] == ["dtypelint-fix", "dtypelint"]
    assert set(hook_ids) == {hook["id"] for hook in repo["hooks"]}


def test_check_hook_fails_on_a_staged_hazard_and_names_the_rule(
    hooks: Hooks, tmp_path: Path
) -> None:
    project = hooks.project(tmp_path / "project", **{"model.py": HAZARD})
    result = hooks.pre_commit(project, "run", "dtypelint")
    assert result.returncode == 1, output(result)
    assert REPORT in result.stdout
    assert "Found 1 error.\n[*] 1 fixable with `--fix`.\n" in result.stdout
    assert (project / "model.py").read_text() == HAZARD  # the check hook changes nothing


def test_fix_hook_fixes_the_staged_hazard(hooks: Hooks, tmp_path: Path) -> None:
    project = hooks.project(tmp_path / "project", **{"model.py": HAZARD})
    result = hooks.pre_commit(project, "run", "dtypelint-fix")
    assert result.returncode == 1, output(result)  # pre-commit fails a hook that edits files
    assert "files were modified by this hook" in result.stdout
    assert (
        "Fixed 1 error:\n- model.py:\n    1 × DTL001 (factory-without-dtype)\n\n"  # noqa: RUF001
        "Fixed 1 error.\n"
    ) in result.stdout
    assert (project / "model.py").read_text() == FIXED
    git(project, "add", "model.py")
    for hook in ("dtypelint-fix", "dtypelint"):
        again = hooks.pre_commit(project, "run", hook)
        assert again.returncode == 0, output(again)
        assert "Passed" in again.stdout


def test_the_readme_config_reports_each_finding_once_and_the_fix_hook_passes_unchanged(
    hooks: Hooks, tmp_path: Path
) -> None:
    """A finding the fix hook cannot fix: it passes, and only the check hook reports it."""
    settings = '[tool.dtypelint]\nunfixable = ["DTL001"]\n'
    project = hooks.project(
        tmp_path / "project", **{"model.py": HAZARD, "pyproject.toml": settings}
    )
    result = hooks.pre_commit(project, "run")
    assert result.returncode == 1, output(result)
    lines = result.stdout.splitlines()
    assert any(line.startswith("dtypelint (fix)") and line.endswith("Passed") for line in lines)
    assert any(line.startswith("dtypelint.") and line.endswith("Failed") for line in lines)
    assert output(result).count(HEADLINE) == 1
    assert "files were modified" not in result.stdout
    assert (project / "model.py").read_text() == HAZARD


def test_both_hooks_pass_when_no_python_file_is_staged(hooks: Hooks, tmp_path: Path) -> None:
    project = hooks.project(tmp_path / "project", **{"README.md": "# notes\n"})
    (project / "model.py").write_text(HAZARD)  # present, but not staged
    for hook in ("dtypelint", "dtypelint-fix"):
        result = hooks.pre_commit(project, "run", hook)
        assert result.returncode == 0, output(result)
        assert "(no files to check)Skipped" in result.stdout
    assert (project / "model.py").read_text() == HAZARD


def test_hooks_honour_the_project_excludes(hooks: Hooks, tmp_path: Path) -> None:
    settings = '[tool.dtypelint]\nextend-exclude = ["generated"]\n'
    files = {"generated__model.py": HAZARD, "pyproject.toml": settings}
    project = hooks.project(tmp_path / "project", **files)
    for hook in ("dtypelint", "dtypelint-fix"):
        result = hooks.pre_commit(project, "run", hook)
        assert result.returncode == 0, output(result)
    assert (project / "generated" / "model.py").read_text() == HAZARD


def hook_environment(hooks: Hooks) -> Path:
    """The virtual environment pre-commit built for the hooks (after a hook has run)."""
    (found,) = {path.parent.parent for path in hooks.home.glob("repo*/py_env-*/bin/dtypelint")}
    return found


def installed(environment: Path) -> set[str]:
    """The distributions in `environment`, less the installer's own."""
    listing = subprocess.run(
        [
            str(environment / "bin" / "python"),
            "-c",
            "import importlib.metadata as m; print('\\n'.join(d.metadata['Name'] for d in "
            "m.distributions()))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    names = {name.lower().replace("_", "-") for name in listing.stdout.split()}
    return names - {"pip", "setuptools", "wheel"}


def test_hook_environment_is_what_the_readme_says_and_zero_files_check_nothing(
    hooks: Hooks, tmp_path: Path
) -> None:
    project = hooks.project(tmp_path / "project", **{"README.md": "# notes\n"})
    (project / "model.py").write_text(HAZARD)
    assert hooks.pre_commit(project, "run", "dtypelint").returncode == 0  # builds the env
    environment = hook_environment(hooks)
    expected = {"dtypelint", "libcst", "click", "pyyaml"}
    if sys.version_info < (3, 11):
        expected.add("tomli")
    assert installed(environment) == expected
    readme = " ".join(README.read_text().split())
    assert "dtypelint and its dependencies libcst, click and pyyaml (libcst's)" in readme
    # No torch: the hooks cannot import it.
    probe = subprocess.run(
        [str(environment / "bin" / "python"), "-c", "import torch"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.returncode == 1 and "No module named 'torch'" in probe.stderr
    manifest = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    expected_output = {"dtypelint": "All checks passed!\n", "dtypelint-fix": ""}
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
            expected_output[hook["id"]],
            "",
        ), hook["id"]
    assert (project / "model.py").read_text() == HAZARD


def test_the_readme_try_repo_command_runs_the_check_hook(hooks: Hooks, tmp_path: Path) -> None:
    (command,) = [
        line.strip("`") for line in re.findall(r"`pre-commit try-repo [^`]*`", README.read_text())
    ]
    project = hooks.project(tmp_path / "project", **{"model.py": HAZARD})
    result = hooks.pre_commit(project, *command.split()[1:])
    assert result.returncode == 1, output(result)
    assert REPORT in result.stdout
