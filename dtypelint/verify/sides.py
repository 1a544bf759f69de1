"""Running every example on the three sides of a verify: one worker process per side.

- reference: the original code in float32, each example's outputs saved as the baseline;
- original: the original code as given (low precision, recorded);
- patched: the patched copy as given (only when the fixes changed something).

The three run at the same time, each working through all examples (with `--jobs N`, N such
triples share the examples). Outputs are compared with the reference at the end, in one request
to a live worker, so no side ever waits for another. When the original code fails in float32 too,
the patched side runs its own float32 reference afterwards and is measured against that.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sysconfig
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dtypelint.verify.pool import Reply, WorkerProcess
from dtypelint.verify.workspace import Example, PatchedTree

REFERENCE, ORIGINAL, PATCHED = "reference", "original", "patched"
_PHASE_WORDS = {
    "import": "importing the example",
    "reference": "the float32 reference run",
    "target": "the run",
    "compiled": "the compiled run",
}
Progress = Callable[[int, str], None]  # (example index, stage)


@dataclass
class Outcomes:
    """Per example index: phase -> outcome, for one side."""

    by_index: dict[int, dict[str, dict[str, Any]]] = field(default_factory=dict)

    def get(self, index: int, phase: str) -> dict[str, Any] | None:
        return self.by_index.get(index, {}).get(phase)


def phase_outcome(reply: Reply, phase: str, timeout: float, root: Path) -> dict[str, Any]:
    """The outcome of `phase` from a reply, also when the worker hung or died before it."""
    if phase in reply.phases:
        return dict(reply.phases[phase])
    during = _PHASE_WORDS.get(reply.current or phase, reply.current or phase)
    if reply.timed_out:
        message = f"{during} did not finish within {timeout:g} s"
        return _failure("timeout", "Timeout", message, _stack_frame(reply.stack, root))
    if reply.start_error is not None:  # a restarted worker failed to start
        return _failure("raised", "Crash", f"the worker could not start: {reply.start_error}", None)
    message = f"the process died ({_exit_words(reply.returncode)}) during {during}"
    if reply.stack:  # faulthandler wrote the stack: the log's last line is not the cause
        return _failure("raised", "Crash", message, _stack_frame(reply.stack, root))
    last_line = (reply.log_tail.strip().splitlines() or [""])[-1]
    return _failure("raised", "Crash", message + (f": {last_line}" if last_line else ""), None)


def _exit_words(returncode: int | None) -> str:
    if returncode is not None and returncode < 0:
        with contextlib.suppress(ValueError):
            return f"signal {signal.Signals(-returncode).name}"
    return f"exit code {returncode}"


def _failure(status: str, kind: str, message: str, frame: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "status": status,
        "exception": {"type": kind, "message": message, "frame": frame, "op": None, "dtypes": None},
        "mixed_ops": [],
        "outputs": [],
    }


def _stack_frame(stack: list[tuple[str, int, str]], root: Path) -> dict[str, Any] | None:
    """The innermost frame of a hung process in the project, else outside any library."""
    root_text = str(root) + os.sep
    library = tuple(
        str(Path(sysconfig.get_paths()[key]).resolve()) + os.sep for key in ("stdlib", "purelib")
    )
    package = str(Path(__file__).resolve().parents[1]) + os.sep  # dtypelint's worker frames
    project = [f for f in stack if os.path.abspath(f[0]).startswith(root_text)]
    others = [
        f
        for f in stack
        if not os.path.realpath(f[0]).startswith((*library, package)) and not f[0].startswith("<")
    ]
    for filename, line, function in project or others:
        shown = filename
        if filename.startswith(root_text):
            shown = Path(filename).relative_to(root).as_posix()
        return {"file": shown, "line": line, "function": function}
    return None


class Sides:
    """The worker processes of one verify run and what they produced."""

    def __init__(
        self,
        examples: Sequence[Example],
        original_root: Path,
        workdir: Path,
        setup: dict[str, Any],
        env: dict[str, str],
        timeout: float,
        jobs: int,
        progress: Progress,
    ) -> None:
        self.examples = examples
        self.original_root = original_root
        self.workdir = workdir
        self.setup = setup
        self.env = env
        self.timeout = timeout
        self.progress = progress
        self.chunks = [list(range(c, len(examples), jobs)) for c in range(min(jobs, len(examples)))]
        self.tree: PatchedTree | None = None
        self.compile_backend: str | None = None
        self.workers: dict[tuple[str, int], WorkerProcess] = {}
        self.outcomes = {side: Outcomes() for side in (REFERENCE, ORIGINAL, PATCHED)}
        self.patched_references = Outcomes()
        self.lock = threading.Lock()

    # --- workers -------------------------------------------------------------------------------

    def start(self, side: str, cwd: Path) -> None:
        """Start the side's workers now: they import torch while the parent does other work."""
        for chunk in range(len(self.chunks)):
            worker = WorkerProcess(
                f"{side}-{chunk}",
                cwd,
                self.workdir / f"{side}-{chunk}",
                self.setup,
                self.env,
                self.timeout,
            )
            worker.start()
            self.workers[(side, chunk)] = worker

    def ready(self) -> dict[str, Any]:
        """The first worker's "ready" event (device choice, torch version)."""
        return self.workers[(REFERENCE, 0)].wait_ready()

    def drop(self, side: str) -> None:
        """Kill a side's workers unused (the patched side when no fix changed anything)."""
        for (name, chunk), worker in list(self.workers.items()):
            if name == side:
                worker.kill()
                del self.workers[(name, chunk)]

    def close(self) -> None:
        for worker in self.workers.values():
            worker.close()

    def processes(self) -> dict[str, int]:
        """Worker processes started per side: one per side and job, plus one per restart."""
        counts: dict[str, int] = {}
        for (side, _), worker in self.workers.items():
            counts[side] = counts.get(side, 0) + worker.starts
        return counts

    # --- running -------------------------------------------------------------------------------

    def run(self, tree: PatchedTree, phases: list[str]) -> None:
        """Every example on every side; then the patched side's own references where needed."""
        self.tree = tree
        lanes = [(REFERENCE, chunk, ["reference"]) for chunk in range(len(self.chunks))]
        lanes += [(ORIGINAL, chunk, phases) for chunk in range(len(self.chunks))]
        if tree.changed:
            lanes += [(PATCHED, chunk, phases) for chunk in range(len(self.chunks))]
        with ThreadPoolExecutor(max_workers=len(lanes)) as pool:
            list(pool.map(lambda lane: self._lane(*lane), lanes))
            if tree.changed:
                chunks = range(len(self.chunks))
                list(pool.map(self._patched_references, chunks))

    def _lane(self, side: str, chunk: int, phases: list[str]) -> None:
        worker = self.workers[(side, chunk)]
        for index in self.chunks[chunk]:
            if side == PATCHED and self._original_unrunnable(index):
                continue  # the verdict is the original's timeout/import error: spare a second
            self.progress(index, side)
            self._run(worker, side, index, phases, self.outcomes[side])

    def _original_unrunnable(self, index: int) -> bool:
        outcome = self.outcomes[ORIGINAL].get(index, "target")
        return outcome is not None and outcome["status"] in ("timeout", "import-error")

    def _patched_references(self, chunk: int) -> None:
        """The patched code in float32, for the examples whose original fails in float32 too."""
        worker = self.workers[(PATCHED, chunk)]
        for index in self.chunks[chunk]:
            reference = self.outcomes[REFERENCE].get(index, "reference")
            patched = self.outcomes[PATCHED].get(index, "target")
            if patched is None or "saved" not in patched:
                continue
            if reference is not None and "saved" in reference:
                continue
            self._run(worker, PATCHED, index, ["reference"], self.patched_references)

    def _run(
        self, worker: WorkerProcess, side: str, index: int, phases: list[str], into: Outcomes
    ) -> None:
        example = self.examples[index]
        root, file = self.original_root, example.file
        if side == PATCHED and self.tree is not None:
            root, file = self.tree.root, self.tree.map(example.file)
        folder = self.workdir / "outputs" / f"{side}-{index}"
        folder.mkdir(parents=True, exist_ok=True)
        request = {
            "op": "run",
            "index": index,
            "root": str(root),
            "example_file": str(file),
            "example_name": example.name,
            "phases": phases,
            "saves": {phase: str(folder / f"{phase}.pt") for phase in phases},
            "compile_backend": self.compile_backend,
        }
        reply = worker.request(request, final="done")
        outcomes = {phase: phase_outcome(reply, phase, self.timeout, root) for phase in phases}
        with self.lock:
            into.by_index.setdefault(index, {}).update(outcomes)

    # --- comparing with the references ---------------------------------------------------------

    def compare(self) -> None:
        """Fill `error` / `error_note` of every saved outcome from one compare request."""
        targets = []
        for side in (ORIGINAL, PATCHED):
            for index, phases in self.outcomes[side].by_index.items():
                reference = self.reference_for(side, index)
                saved_reference = (reference or {}).get("saved")
                for outcome in phases.values():
                    if "saved" in outcome:
                        targets.append((outcome, saved_reference))
        if not targets:
            return
        worker = self._compare_worker()
        pairs = [[outcome["saved"], reference] for outcome, reference in targets]
        reply = worker.request({"op": "compare", "pairs": pairs}, final="compared")
        results = (reply.data or {}).get("results")
        if results is None:
            for outcome, _ in targets:
                outcome["error_note"] = "the comparison with the float32 reference failed"
            return
        for (outcome, _), result in zip(targets, results, strict=True):
            outcome["error"] = result["error"]
            if result["note"]:
                outcome["error_note"] = result["note"]

    def reference_for(self, side: str, index: int) -> dict[str, Any] | None:
        """The reference an outcome of `side` is measured against: the original in float32,
        else (patched side only) the patched code in float32."""
        reference = self.outcomes[REFERENCE].get(index, "reference")
        if side == PATCHED and (reference is None or "saved" not in reference):
            return self.patched_references.get(index, "reference") or reference
        return reference

    def _compare_worker(self) -> WorkerProcess:
        for worker in self.workers.values():
            if worker.alive:
                return worker
        return self.workers[(REFERENCE, 0)]  # restarted by its next request
