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
