"""What several test modules share: paths, the fix-log findings, running dtypelint and git."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXLOG = ROOT / "fixtures" / "fixlog"

#: The fix log's 7 hazards in fixtures/fixlog/before: file, row, column, code.
FIXLOG_FINDINGS = [
    ("models/encoders/hand_encoder.py", 142, 15, "DTL001"),
    ("models/encoders/hand_encoder.py", 143, 17, "DTL001"),
    ("models/encoders/hand_encoder.py", 170, 20, "DTL001"),
    ("models/encoders/hand_encoder.py", 324, 14, "DTL001"),
    ("models/pixel_aligned.py", 92, 45, "DTL001"),
    ("models/pixel_aligned.py", 98, 13, "DTL002"),
    ("models/pixel_aligned.py", 107, 51, "DTL002"),
]


def dtypelint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run `python -m dtypelint ARGS` in `cwd` as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "dtypelint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def git_env() -> dict[str, str]:
    """An environment where git needs no user config and reads none."""
    return {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
    }


def git(cwd: Path, *args: str) -> str:
    completed = subprocess.run(
        ["git", *args], cwd=cwd, env=git_env(), capture_output=True, text=True, check=True
    )
    return completed.stdout


# --- a release of this checkout, standing in for the remote repository -------------------------

#: The repository the README's pre-commit snippet and the GitHub workflow install from.
REMOTE = "https://github.com/dtypelint/dtypelint"


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


def release_tag() -> str:
    """The tag a release of this version carries (README: "Releasing")."""
    from dtypelint import __version__

    return f"v{__version__}"


def release_clone(target: Path) -> Path:
    """This checkout (uncommitted work included) committed in `target` and tagged as released."""
    import shutil

    for name in source_files():
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, destination)
    git(target, "init", "-q")
    git(target, "add", ".")
    git(target, "commit", "-q", "-m", "release under test")
    git(target, "tag", "-a", release_tag(), "-m", f"dtypelint {release_tag()}")
    return target


def remote_env(clone: Path, env: dict[str, str] | None = None) -> dict[str, str]:
    """`env` where git fetches REMOTE from `clone` (offline), through `url.<clone>.insteadOf`.

    Given as GIT_CONFIG_KEY_n/VALUE_n: pre-commit passes those to git (it drops GIT_CONFIG_GLOBAL),
    and so does pip.
    """
    result = dict(git_env() if env is None else env)
    index = int(result.get("GIT_CONFIG_COUNT", "0"))
    result[f"GIT_CONFIG_KEY_{index}"] = f"url.{clone.as_uri()}.insteadOf"
    result[f"GIT_CONFIG_VALUE_{index}"] = REMOTE
    result["GIT_CONFIG_COUNT"] = str(index + 1)
    return result


def markdown_blocks(markdown: str, language: str) -> list[str]:
    import re

    return re.findall(rf"```{language}\n(.*?)```", markdown, flags=re.DOTALL)
