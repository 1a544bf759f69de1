"""Score dtypelint against the hand-labelled evaluation set.

Every labelled file marks each expected finding with a trailing ``# expect: DTL00N`` comment
(several codes comma-separated) on the line where the finding starts; every other line is
expected to be clean. ``# lookalike: ...`` comments are documentation only.

Usage: python evaluation/score.py [LABELLED_DIR] [--python PYTHON]
"""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
import tokenize
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_DIR = HERE / "labelled"
DEFAULT_PYTHON = sys.executable
EXPECT_RE = re.compile(r"#\s*expect:\s*([A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*)")
RULES = ("DTL001", "DTL002", "DTL003", "DTL004", "DTL005")

Key = tuple[str, int, str]  # (file relative to the labelled dir, 1-based line, code)


def read_labels(root: Path) -> set[Key]:
    labels: set[Key] = set()
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        source = path.read_text(encoding="utf-8")
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type != tokenize.COMMENT:
                continue
            match = EXPECT_RE.search(tok.string)
            if match:
                for code in match.group(1).split(","):
                    labels.add((rel, tok.start[0], code.strip()))
    return labels


def run_linter(root: Path, python: str) -> list[dict]:
    cmd = [python, "-m", "dtypelint", "check", str(root)]
    cmd += ["--output-format", "json", "--exit-zero"]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"dtypelint failed (exit {proc.returncode}):\n{proc.stderr}{proc.stdout}")
    return json.loads(proc.stdout or "[]")


def findings_to_keys(findings: list[dict], root: Path) -> set[Key]:
    keys: set[Key] = set()
    for item in findings:
        path = Path(item["filename"])
        if not path.is_absolute():
            path = Path.cwd() / path
        try:
            rel = path.resolve().relative_to(root).as_posix()
        except ValueError:
            rel = path.as_posix()
        keys.add((rel, int(item["location"]["row"]), item["code"]))
    return keys


def ratio(num: int, den: int) -> str:
    return f"{num / den:.3f}" if den else "  n/a"


def source_line(root: Path, rel: str, line: int) -> str:
    try:
        lines = (root / rel).read_text(encoding="utf-8").splitlines()
    except OSError:
        return ""
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def report(expected: set[Key], found: set[Key], root: Path) -> None:
    tp, fp, fn = found & expected, found - expected, expected - found
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for index, group in enumerate((tp, fp, fn)):
        for _, _, code in group:
            counts[code][index] += 1
    codes = sorted(set(RULES) | set(counts))
    n_files = len(list(root.rglob("*.py")))
    print(f"dtypelint evaluation: {n_files} files, {len(expected)} expected findings\n")
    print(f"{'rule':<8} {'TP':>4} {'FP':>4} {'FN':>4} {'precision':>10} {'recall':>8}")
    for code in codes:
        t, f, n = counts[code]
        print(f"{code:<8} {t:>4} {f:>4} {n:>4} {ratio(t, t + f):>10} {ratio(t, t + n):>8}")
    t, f, n = len(tp), len(fp), len(fn)
    print(f"{'overall':<8} {t:>4} {f:>4} {n:>4} {ratio(t, t + f):>10} {ratio(t, t + n):>8}")
    for title, group in (("False positives", fp), ("False negatives", fn)):
        print(f"\n{title} ({len(group)}):")
        for rel, line, code in sorted(group):
            print(f"  {rel}:{line} {code}  | {source_line(root, rel, line)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--python", default=DEFAULT_PYTHON, help="interpreter with dtypelint")
    args = parser.parse_args()
    root = args.directory.resolve()
    report(read_labels(root), findings_to_keys(run_linter(root, args.python), root), root)


if __name__ == "__main__":
    main()
