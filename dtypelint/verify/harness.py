"""Orchestration of `dtypelint verify`: trees, worker processes, verdicts. No torch here.

One worker process per side (float32 reference, original, patched; see sides.py) runs every
example, each isolated from the others inside it: torch is imported three times per run, not
several times per example. A hang, a crash or an import error becomes that example's verdict
and the others still run.
"""

from __future__ import annotations

import importlib.util
import os
import site
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dtypelint.config import Config
from dtypelint.diagnostics import Diagnostic
from dtypelint.engine import DecodedSource, discover_files, lint_source, read_source
from dtypelint.verify.device import DeviceChoice, choose_compile_backend
from dtypelint.verify.pool import WorkerStartError
from dtypelint.verify.sides import ORIGINAL, PATCHED, REFERENCE, Sides
from dtypelint.verify.verdict import Verdict, decide
from dtypelint.verify.workspace import (
    Example,
    PatchedTree,
    build_patched_tree,
    configured_example_files,
    display_path,
    find_examples,
)

# The folder holding the `dtypelint` package (see checkout_path).
_PACKAGE_PARENT = Path(__file__).resolve().parents[2]


class VerifyError(Exception):
    """Bad usage or an environment problem: reported on one line, exit 2."""


@dataclass(frozen=True)
class VerifyOptions:
    paths: tuple[str, ...]
    example_files: tuple[str, ...]
    device: str
    dtype: str
    unsafe: bool
    timeout: float
    compile: bool
    jobs: int


@dataclass(frozen=True)
class Probe:
    choice: DeviceChoice
    torch_version: str
    compile_backend: str | None = None
    compile_reason: str | None = None


@dataclass
class ExampleResult:
    example: Example
    before: dict[str, Any]
    after: dict[str, Any] | None
    reference: dict[str, Any] | None
    verdict: Verdict
    findings: list[dict[str, Any]] = field(default_factory=list)
    compiled: dict[str, dict[str, Any]] = field(default_factory=dict)  # side -> outcome
    notes: list[str] = field(default_factory=list)


@dataclass
class VerifyReport:
    probe: Probe
    project_root: Path
    tree: PatchedTree
    results: list[ExampleResult]
    processes: dict[str, int] = field(default_factory=dict)  # worker processes started per side


# --- environment -------------------------------------------------------------------------------


def torch_installed() -> bool:
    return importlib.util.find_spec("torch") is not None


def checkout_path() -> str | None:
    """The folder to put on the runner's PYTHONPATH so that it imports this dtypelint, or None
    when dtypelint is installed in a site folder: importable anyway, and the runner takes the
    added entry back off sys.path, which must never hide torch from the user's code."""
    site_dirs = {*site.getsitepackages(), site.getusersitepackages()}
    if str(_PACKAGE_PARENT) in site_dirs or _PACKAGE_PARENT.name in (
        "site-packages",
        "dist-packages",
    ):
        return None
    return str(_PACKAGE_PARENT)


def runner_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [checkout_path(), env.get("PYTHONPATH")]))
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ in the user's tree
    env["PYTHONUNBUFFERED"] = "1"
    return env


# --- findings ----------------------------------------------------------------------------------


def recorded_frames(*outcomes: dict[str, Any] | None) -> list[dict[str, Any]]:
    frames = []
    for outcome in outcomes:
        if not outcome:
            continue
        frames.extend(op["frame"] for op in outcome.get("mixed_ops", []) if op.get("frame"))
        exception = outcome.get("exception") or {}
        if exception.get("frame"):
            frames.append(exception["frame"])
    return frames


def link_findings(
    result: ExampleResult, tree: PatchedTree, config: Config, cache: dict[Path, list[Diagnostic]]
) -> list[dict[str, Any]]:
    """The findings in the project files whose frames the runs recorded, original side first.

    `at_recorded_line` marks a finding on a line where a mixed-dtype op or the exception was seen.
    """
    root = tree.original_root
    lines: set[tuple[Path, int]] = set()
    files: list[Path] = []
    for frame in recorded_frames(result.before, result.after):
        if os.path.isabs(frame["file"]):
            continue  # outside the project: not ours to lint
        path = root / frame["file"]
        lines.add((path, frame["line"]))
        if path not in files:
            files.append(path)
    linked = []
    for path in files:
        fixed = {(d.code, d.location.row, d.location.column) for d in tree.applied.get(path, [])}
        for diagnostic in _lint(path, config, cache):
            row, column = diagnostic.location.row, diagnostic.location.column
            linked.append(
                {
                    "code": diagnostic.code,
                    "name": diagnostic.name,
                    "message": diagnostic.message,
                    "file": display_path(path),
                    "row": row,
                    "column": column,
                    "fixed": (diagnostic.code, row, column) in fixed,
                    "at_recorded_line": (path, row) in lines,
                }
            )
    return linked


def _lint(path: Path, config: Config, cache: dict[Path, list[Diagnostic]]) -> list[Diagnostic]:
    if path not in cache:
        try:
            decoded = read_source(path)
        except OSError:
            decoded = None
        if isinstance(decoded, DecodedSource):
            cache[path] = lint_source(decoded.text, display_path(path), config)
        else:
            cache[path] = []
    return cache[path]


# --- the whole run -----------------------------------------------------------------------------


def project_root_for(config: Config) -> Path:
    """The folder of the config file in use, else the current folder (SPEC section 6)."""
    if config.config_path is not None:
        return Path(os.path.abspath(config.config_path.parent))
    return Path.cwd()


def select_examples(options: VerifyOptions, config: Config, files: Sequence[Path]) -> list[Example]:
    """--examples, else `[tool.dtypelint.verify] examples`, else the PATH files themselves."""
    root = project_root_for(config)
    if options.example_files:
        sources = [Path(path) for path in options.example_files]
        origin = "--examples"
    elif config.verify.get("examples"):
        sources = configured_example_files(config.verify["examples"], root)
        origin = "[tool.dtypelint.verify] examples"
    else:
        sources, origin = list(files), "the PATH files"
    missing = [display_path(path) for path in sources if not path.is_file()]
    if missing:
        raise VerifyError(f"example file not found: {', '.join(missing)} (from {origin})")
    examples = find_examples(sources)
    if not examples:
        raise VerifyError(
            f"no example functions (`example` or `example_*`) in {origin}; pass --examples FILE "
            "or set [tool.dtypelint.verify] examples"
        )
    return examples


def run_verify(
    options: VerifyOptions,
    config: Config,
    progress: Callable[[int, int, str, str], None] | None = None,
) -> VerifyReport:
    root = project_root_for(config)
    files = discover_files(list(options.paths) or ["."], config)
    examples = select_examples(options, config, files)
    lock = threading.Lock()

    def report(index: int, stage: str) -> None:
        if progress is not None:
            with lock:
                progress(index + 1, len(examples), examples[index].id, stage)

    with tempfile.TemporaryDirectory(prefix="dtypelint-verify-") as temp:
        workdir = Path(temp)
        setup = {"device": options.device, "dtype": options.dtype, "remove_path": checkout_path()}
        sides = Sides(
            examples, root, workdir, setup, runner_env(), options.timeout, options.jobs, report
        )
        try:
            probe, tree = _start(sides, options, config, root, files, workdir)
            phases = ["target", "compiled"] if options.compile else ["target"]
            sides.run(tree, phases)
            sides.compare()
        finally:
            sides.close()
        processes = sides.processes()
        results = [
            _result(sides, index, example, tree, probe) for index, example in enumerate(examples)
        ]
    cache: dict[Path, list[Diagnostic]] = {}
    for result in results:
        result.findings = link_findings(result, tree, config, cache)
    return VerifyReport(probe, root, tree, results, processes)


def _start(
    sides: Sides,
    options: VerifyOptions,
    config: Config,
    root: Path,
    files: Sequence[Path],
    workdir: Path,
) -> tuple[Probe, PatchedTree]:
    """Start the workers (torch imports in them) and build the patched tree meanwhile."""
    patched_root = workdir / "patched"
    patched_root.mkdir()
    sides.start(REFERENCE, root)
    sides.start(ORIGINAL, root)
    sides.start(PATCHED, patched_root)
    tree = build_patched_tree(root, files, config, options.unsafe, patched_root)
    if not tree.changed:
        sides.drop(PATCHED)
    try:
        ready = sides.ready()
    except WorkerStartError as exc:
        raise VerifyError(str(exc)) from None
    choice = DeviceChoice.from_json(ready["choice"])
    probe = Probe(choice, ready["torch"])
    if options.compile:
        backend, why = choose_compile_backend(choice.device)
        probe = Probe(choice, ready["torch"], backend, why)
        sides.compile_backend = backend
    return probe, tree


def _result(
    sides: Sides, index: int, example: Example, tree: PatchedTree, probe: Probe
) -> ExampleResult:
    """One example's verdict from what the three sides recorded."""
    before = sides.outcomes[ORIGINAL].get(index, "target")
    assert before is not None  # every original-side request yields an outcome
    reference = sides.outcomes[REFERENCE].get(index, "reference")
    notes = []
    after: dict[str, Any] | None
    if before["status"] in ("timeout", "import-error"):
        after = None  # the verdict is the original's; the patched side may not have run
        words = "timed out" if before["status"] == "timeout" else "failed to import"
        notes.append(f"patched side not run: the original {words}")
    elif not tree.changed:
        after = before
        notes.append("no fixes to apply: the patched side is the original")
    else:
        after = sides.outcomes[PATCHED].get(index, "target")
        own = sides.patched_references.get(index, "reference")
        if own is not None:
            reference = own
            notes.append(
                "reference: the patched code in float32 (the original fails in float32 too)"
            )
    result = ExampleResult(
        example, before, after, reference, decide(before, after, probe.choice.dtype)
    )
    result.notes.extend(notes)
    compiled = {
        "before": sides.outcomes[ORIGINAL].get(index, "compiled"),
        "after": sides.outcomes[PATCHED].get(index, "compiled") if after is not before else None,
    }
    result.compiled = {side: outcome for side, outcome in compiled.items() if outcome is not None}
    return result
