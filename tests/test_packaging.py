"""A normal (non-editable) install carries the rule pages: `dtypelint rule DTL001` works from it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("dtypelint", "rules", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md")


def test_installed_package_prints_rule_pages(tmp_path: Path) -> None:
    # Build from a copy so the checkout gets no build/ folder and no stale build output is reused.
    source = tmp_path / "src"
    source.mkdir()
    for name in SHIPPED:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif path.is_file():
            shutil.copy2(path, source / name)
    (source / "rules").mkdir(exist_ok=True)
    page = source / "rules" / "DTL001.md"
    if not page.is_file():  # the pages are written separately; any page proves the shipping
        page.write_text("# DTL001 factory-without-dtype\n")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [
        str(venv / "bin" / "python"),
        "-m",
        "pip",
        "install",
        "-q",
        "--disable-pip-version-check",
    ]
    subprocess.run([*pip, str(source)], check=True, capture_output=True)

    elsewhere = tmp_path / "elsewhere"  # not the checkout: nothing to fall back on
    elsewhere.mkdir()
    completed = subprocess.run(
        [str(venv / "bin" / "dtypelint"), "rule", "DTL001"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
    )
    assert (completed.returncode, completed.stderr) == (0, "")
    assert completed.stdout == page.read_text().rstrip("\n") + "\n"
