"""Orchestration of `dtypelint verify`: trees, subprocesses, verdicts. No torch in this process.

For each example the original side runs in one subprocess (the float32 reference, then the example
as given) and the patched side in another (the example as given, compared with the reference); with
`--compile` each side runs once more under torch.compile. Every subprocess has its own timeout, so
a hang, a crash or an import error becomes that example's verdict and the others still run.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import signal
import site
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dtypelint.config import Config
from dtypelint.diagnostics import Diagnostic
from dtypelint.engine import DecodedSource, discover_files, lint_source, read_source
from dtypelint.verify.device import DeviceChoice
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
_KILL_GRACE_S = 5.0
_LOG_TAIL_CHARS = 2000
_STACK_DUMP_NAME = "stack.txt"  # where the runner's faulthandler writes on SIGTERM
_PROBE_TIMEOUT_S = 300.0
_STARTUP_LIMIT_S = 300.0  # starting Python and importing torch, before the timeout applies
_POLL_S = 0.1  # importing torch and initialising CUDA can be slow on a cold machine


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


def probe_device(device: str, dtype: str, with_compile: bool, workdir: Path) -> Probe:
    """Ask a child process (torch imported there, not here) which device and dtype to use."""
    command = [sys.executable, "-m", "dtypelint.verify.runner", "--probe", "--device", device]
    command += ["--dtype", dtype] + (["--compile"] if with_compile else [])
    try:
        done = subprocess.run(
            command,
            cwd=workdir,
            env=runner_env(),
            capture_output=True,
            text=True,
            timeout=_PROBE_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise VerifyError(f"importing torch took over {_PROBE_TIMEOUT_S:g} s") from None
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise VerifyError(f"could not start torch: {tail}")
    data = json.loads(lines[-1])
    if "error" in data:
        raise VerifyError(data["error"])
    compiled = data.get("compile") or {}
    return Probe(
        DeviceChoice.from_json(data["choice"]),
        data["torch"],
        compiled.get("backend"),
        compiled.get("reason"),
    )


# --- subprocesses ------------------------------------------------------------------------------


@dataclass
class Launch:
    result: dict[str, Any] | None
    timed_out: bool
    returncode: int | None
    log_tail: str
    stack: list[tuple[str, int, str]]


def launch_runner(request: dict[str, Any], cwd: Path, workdir: Path, timeout: float) -> Launch:
    """Run one runner subprocess; kill it (and what it started) after `timeout` seconds."""
    workdir.mkdir(parents=True, exist_ok=True)
    request = {
        **request,
        "result_path": str(workdir / "result.json"),
        "stack_path": str(workdir / _STACK_DUMP_NAME),
    }
    request_path = workdir / "request.json"
    request_path.write_text(json.dumps(request))
    command = [sys.executable, "-m", "dtypelint.verify.runner", "--request", str(request_path)]
    log_path = workdir / "log.txt"
    posix = os.name == "posix"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=runner_env(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=posix,  # its own process group, so a timeout can end all of it
        )
        timed_out = _wait(process, workdir / "result.json", timeout)
        if timed_out:
            _stop(process, posix)
    if posix and (timed_out or process.returncode != 0):
        _kill_group(process.pid)  # children the example started (data loader workers, ...)
    return Launch(
        result=_read_json(workdir / "result.json"),
        timed_out=timed_out,
        returncode=process.returncode,
        log_tail=_tail(log_path),
        stack=_parse_stack_dump(workdir / _STACK_DUMP_NAME),
    )


def _wait(process: subprocess.Popen[bytes], result_path: Path, timeout: float) -> bool:
    """Wait for the runner; True when it overran. Each state the runner writes (importing the
    example, each phase) gets `timeout` seconds of its own; the clock starts only once the runner
    has written its first state, since starting Python and a cold `import torch` is not the
    example's time (and takes many seconds on a busy machine)."""
    deadline = time.monotonic() + max(timeout, _STARTUP_LIMIT_S)
    state: tuple[int, int] | None = None
    while True:
        try:
            process.wait(timeout=_POLL_S)
            return False
        except subprocess.TimeoutExpired:
            pass
        now = time.monotonic()
        try:
            stat = result_path.stat()  # replaced (new inode) at every state change
            current = (stat.st_ino, stat.st_mtime_ns)
        except OSError:
            current = None
        if current != state:
            state, deadline = current, now + timeout
        if now > deadline:
            return True


def _stop(process: subprocess.Popen[bytes], posix: bool) -> None:
    # SIGTERM first: the runner's faulthandler writes where it was stuck, then it exits.
    process.terminate()
    try:
        process.wait(timeout=_KILL_GRACE_S)
        return
    except subprocess.TimeoutExpired:
        pass
    if posix:
        _kill_group(process.pid)
    else:
        process.kill()
    process.wait()


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text())  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return None


def _tail(path: Path) -> str:
    try:
        return path.read_text(errors="replace")[-_LOG_TAIL_CHARS:]
    except OSError:
        return ""


_STACK_LINE = re.compile(r'^\s*File "(?P<file>.+)", line (?P<line>\d+) in (?P<function>.+)$')


def _parse_stack_dump(path: Path) -> list[tuple[str, int, str]]:
    """Frames (innermost first) of the main thread from a faulthandler dump."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return []
    blocks = re.split(r"\n(?=\S)", text.strip())
    current = [block for block in blocks if block.startswith("Current thread")]
    chosen = current[0] if current else (blocks[0] if blocks else "")
    frames = []
    for line in chosen.splitlines():
        match = _STACK_LINE.match(line)
        if match:
            frames.append((match["file"], int(match["line"]), match["function"].strip()))
    return frames


# --- one example -------------------------------------------------------------------------------


_PHASE_WORDS = {
    "import": "importing the example",
    "reference": "the float32 reference run",
    "target": "the run",
    "compiled": "the compiled run",
}


def phase_outcome(launch: Launch, phase: str, timeout: float, root: Path) -> dict[str, Any]:
    """The outcome of `phase` from a launch, also when the process hung or died before it."""
    phases = (launch.result or {}).get("phases", {})
    if phase in phases:
        return dict(phases[phase])
    current = (launch.result or {}).get("current") or phase
    during = _PHASE_WORDS.get(current, current)
    if launch.timed_out:
        frame = _stack_frame(launch.stack, root)
        if launch.result is None:
            message = f"starting Python and torch took over {_STARTUP_LIMIT_S:g} s"
        else:
            message = f"{during} did not finish within {timeout:g} s"
        return _failure("timeout", "Timeout", message, frame)
    message = f"the process died ({_exit_words(launch.returncode)}) during {during}"
    if launch.stack:  # faulthandler wrote the stack: the log's last line is not the cause
        return _failure("raised", "Crash", message, _stack_frame(launch.stack, root))
    last_line = (launch.log_tail.strip().splitlines() or [""])[-1]
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
    project = [f for f in stack if os.path.abspath(f[0]).startswith(root_text)]
    others = [f for f in stack if not os.path.realpath(f[0]).startswith(library)]
    for filename, line, function in project or others:
        shown = filename
        if filename.startswith(root_text):
            shown = Path(filename).relative_to(root).as_posix()
        return {"file": shown, "line": line, "function": function}
    return None


class ExampleJob:
    """Runs both sides of one example and decides its verdict."""

    def __init__(
        self,
        example: Example,
        index: int,
        options: VerifyOptions,
        probe: Probe,
        tree: PatchedTree,
        workdir: Path,
        progress: Callable[[str], None],
    ) -> None:
        self.example = example
        self.options = options
        self.probe = probe
        self.tree = tree
        self.workdir = workdir / f"example-{index}"
        self.reference_path = self.workdir / "reference.pt"
        self.progress = progress

    def run(self) -> ExampleResult:
        original_root = self.tree.original_root
        self.progress("original")
        launch = self._launch("original", original_root, self.example.file, ["reference", "target"])
        reference = phase_outcome(launch, "reference", self.options.timeout, original_root)
        before = phase_outcome(launch, "target", self.options.timeout, original_root)
        notes = []
        after: dict[str, Any] | None
        if before["status"] == "timeout":
            after = None  # the verdict is the timeout; spare the user a second one
            notes.append("patched side not run: the original timed out")
        elif not self.tree.changed:
            after = before
            notes.append("no fixes to apply: the patched side is the original")
        else:
            self.progress("patched")
            root, file = self.tree.root, self.tree.map(self.example.file)
            if self.reference_path.exists():
                after = self._side("patched", root, file)
            else:
                # The original fails in float32 too (a `.half()` or float64 operand fails there
                # as well): measure the patched code against its own all-float32 run.
                launch = self._launch("patched", root, file, ["reference", "target"])
                reference = phase_outcome(launch, "reference", self.options.timeout, root)
                after = phase_outcome(launch, "target", self.options.timeout, root)
                notes.append(
                    "reference: the patched code in float32 (the original fails in float32 too)"
                )
        result = ExampleResult(
            self.example, before, after, reference, decide(before, after, self.probe.choice.dtype)
        )
        result.notes.extend(notes)
        if self.options.compile and before["status"] not in ("timeout", "import-error"):
            self._compile(result)
        return result

    def _side(self, side: str, root: Path, example_file: Path) -> dict[str, Any]:
        launch = self._launch(side, root, example_file, ["target"])
        return phase_outcome(launch, "target", self.options.timeout, root)

    def _compile(self, result: ExampleResult) -> None:
        self.progress("original, compiled")
        root = self.tree.original_root
        launch = self._launch("original-compiled", root, self.example.file, ["compiled"])
        result.compiled["before"] = phase_outcome(launch, "compiled", self.options.timeout, root)
        if result.after is None or result.after is result.before:
            return
        self.progress("patched, compiled")
        root, file = self.tree.root, self.tree.map(self.example.file)
        launch = self._launch("patched-compiled", root, file, ["compiled"])
        result.compiled["after"] = phase_outcome(launch, "compiled", self.options.timeout, root)

    def _launch(self, side: str, root: Path, example_file: Path, phases: list[str]) -> Launch:
        choice = self.probe.choice
        request = {
            "root": str(root),
            "example_file": str(example_file),
            "example_name": self.example.name,
            "device": choice.device,
            "dtype": choice.dtype,
            "phases": phases,
            "reference_path": str(self.reference_path),
            "compile_backend": self.probe.compile_backend,
            "remove_path": checkout_path(),
        }
        return launch_runner(request, root, self.workdir / side, self.options.timeout)


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
    with tempfile.TemporaryDirectory(prefix="dtypelint-verify-") as temp:
        workdir = Path(temp)
        with ThreadPoolExecutor(max_workers=1) as background:
            # The probe waits on a torch import in a child: build the patched tree meanwhile.
            probing = background.submit(
                probe_device, options.device, options.dtype, options.compile, workdir
            )
            tree = build_patched_tree(root, files, config, options.unsafe, workdir / "patched")
            probe = probing.result()
        lock = threading.Lock()

        def job(index: int) -> ExampleResult:
            example = examples[index]

            def report(stage: str) -> None:
                if progress is not None:
                    with lock:
                        progress(index + 1, len(examples), example.id, stage)

            return ExampleJob(example, index, options, probe, tree, workdir, report).run()

        with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
            results = list(pool.map(job, range(len(examples))))
    cache: dict[Path, list[Diagnostic]] = {}
    for result in results:
        result.findings = link_findings(result, tree, config, cache)
    return VerifyReport(probe, root, tree, results)
