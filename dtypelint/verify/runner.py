"""The subprocess side of `dtypelint verify`: run one example on one side (original or patched).

    python -m dtypelint.verify.runner --probe [--device D] [--dtype T] [--compile]
    python -m dtypelint.verify.runner --request REQUEST.json

`--probe` prints the device choice as JSON. `--request` imports one example from one tree, runs the
phases the request names and writes the result JSON to `result_path` after every phase, so that the
parent still learns what finished when it has to kill us for a timeout.

Phases:
- `reference`: the ORIGINAL code all in float32 (module and every floating input upcast), the
  baseline the low-precision runs are measured against; its outputs are saved to `reference_path`.
  The example is called with the target dtype and then upcast, rather than called with
  dtype=float32: `torch.randn(..., dtype=bf16)` and `torch.randn(..., dtype=float32)` draw
  different numbers from the same seed (about 2% of 1000 draws differ on CPU), so only the upcast
  gives the reference the same inputs and weights as the low-precision run.
- `target`: the example exactly as given, on the chosen device, under the mixed-dtype recorder.
- `compiled`: the same under `torch.compile(backend=...)`, not recorded (dynamo traces the mode).

torch is imported here on purpose: this module only ever runs in the child process.
"""

from __future__ import annotations

import argparse
import dataclasses
import faulthandler
import importlib
import importlib.util
import inspect
import json
import math
import os
import random
import re
import signal
import sys
import sysconfig
import time
import traceback
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import torch
from torch.overrides import TorchFunctionMode, resolve_name

from dtypelint.verify.device import DeviceError, choose_compile_backend, choose_device

_DTYPELINT_DIR = Path(__file__).resolve().parents[1]
# Calls whose operands differ in dtype by design: casts and shape-only helpers, not computations.
_DELIBERATE_MIXES = frozenset(
    {
        "torch.Tensor.to",
        "torch.Tensor.type_as",
        "torch.Tensor.copy_",
        "torch.Tensor.expand_as",
        "torch.Tensor.view_as",
        "torch.Tensor.reshape_as",
        "torch.Tensor.set_",
        "torch.Tensor.new_tensor",
        "torch.Tensor.is_same_size",
        "torch.Tensor.is_set_to",
    }
)
_MESSAGE_LIMIT = 600


# --- user-code frames ------------------------------------------------------------------------------


class FrameFilter:
    """Finds "the first stack frame in user code": outside torch, dtypelint and the stdlib.

    Frames under the project root win over other non-library frames (an einops or timm helper
    between torch and the model), because those are the lines the linter can point at.
    """

    def __init__(self, root: Path) -> None:
        self.root = str(root.resolve())
        library = [
            os.path.dirname(torch.__file__),
            str(_DTYPELINT_DIR),
            *{sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib")},
        ]
        self.library = tuple(os.path.realpath(path) + os.sep for path in library)

    def is_user(self, filename: str) -> bool:
        if filename.startswith("<"):  # <frozen importlib._bootstrap>, <string>
            return False
        return not os.path.realpath(filename).startswith(self.library)

    def is_project(self, filename: str) -> bool:
        return os.path.abspath(filename).startswith(self.root + os.sep)

    def pick(self, frames: list[tuple[str, int, str]]) -> dict[str, Any] | None:
        """The user frame among `frames` (innermost first) as {file, line, function}."""
        user = [frame for frame in frames if self.is_user(frame[0])]
        project = [frame for frame in user if self.is_project(frame[0])]
        chosen = (project or user or [None])[0]
        if chosen is None:
            return None
        filename, line, function = chosen
        return {"file": self.display(filename), "line": line, "function": function}

    def display(self, filename: str) -> str:
        """Project files relative to the root (the parent maps them back), others absolute."""
        if self.is_project(filename):
            return Path(os.path.abspath(filename)).relative_to(self.root).as_posix()
        return os.path.abspath(filename)

    def current_stack(self) -> list[tuple[str, int, str]]:
        frames = []
        frame: types.FrameType | None = sys._getframe(1)
        while frame is not None:
            frames.append((frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name))
            frame = frame.f_back
        return frames

    def traceback_stack(self, tb: types.TracebackType | None) -> list[tuple[str, int, str]]:
        frames = [(f.filename, f.lineno or 0, f.name) for f in traceback.extract_tb(tb)]
        return frames[::-1]  # innermost first


# --- the recorder ----------------------------------------------------------------------------------


def _tensors_in(value: Any, found: list[torch.Tensor], depth: int = 0) -> None:
    # Operands come as tensors or (for cat/stack/einsum) lists of them; two levels are enough.
    if isinstance(value, torch.Tensor):
        found.append(value)
    elif depth < 2 and isinstance(value, (list, tuple)):
        for item in value:
            _tensors_in(item, found, depth + 1)
    elif depth < 2 and isinstance(value, dict):
        for item in value.values():
            _tensors_in(item, found, depth + 1)


def mixed_floating_dtypes(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[str] | None:
    """The distinct floating dtypes among the operands, when there are two or more.

    0-dim tensors are left out when a real tensor takes part: type promotion treats them like
    Python scalars, so they never change the result dtype.
    """
    tensors: list[torch.Tensor] = []
    _tensors_in(args, tensors)
    _tensors_in(kwargs, tensors)
    floating = [t for t in tensors if t.is_floating_point()]
    if len(floating) < 2:
        return None
    shaped = [t for t in floating if t.dim() > 0] or floating
    dtypes = list(dict.fromkeys(dtype_name(t.dtype) for t in shaped))
    return dtypes if len(dtypes) > 1 else None


class MixedDtypeRecorder(TorchFunctionMode):
    """Records every torch call whose floating tensor operands have different dtypes."""

    def __init__(self, frames: FrameFilter) -> None:
        super().__init__()
        self.frames = frames
        self.records: dict[tuple[Any, ...], dict[str, Any]] = {}
        self.failure: tuple[BaseException, dict[str, Any]] | None = None

    def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        kwargs = kwargs or {}
        dtypes = mixed_floating_dtypes(args, kwargs)
        if dtypes is None:
            return func(*args, **kwargs)
        name = _op_name(func)
        if name in _DELIBERATE_MIXES:
            return func(*args, **kwargs)
        frame = self.frames.pick(self.frames.current_stack())
        try:
            result = func(*args, **kwargs)
        except BaseException as exc:
            record = self._record(name, dtypes, frame, result_dtype=None, raised=True)
            self.failure = (exc, record)
            raise
        self._record(name, dtypes, frame, _result_dtype(result, args), raised=False)
        return result

    def _record(
        self,
        op: str,
        dtypes: list[str],
        frame: dict[str, Any] | None,
        result_dtype: str | None,
        raised: bool,
    ) -> dict[str, Any]:
        location = (frame or {}).get("file"), (frame or {}).get("line")
        key = (op, tuple(dtypes), *location, raised)
        record = self.records.get(key)
        if record is None:
            record = {
                "op": op,
                "dtypes": dtypes,
                "result": result_dtype,
                "raised": raised,
                "frame": frame,
                "count": 0,
            }
            self.records[key] = record
        record["count"] += 1
        return record

    def failing_op(self, exc: BaseException) -> dict[str, Any] | None:
        """The recorded mixed-dtype call that raised `exc`, if that is where it came from."""
        if self.failure is not None and self.failure[0] is exc:
            return self.failure[1]
        return None


def _result_dtype(result: Any, args: tuple[Any, ...]) -> str | None:
    """The dtype the call produced; for __setitem__ (returns None) the dtype written into."""
    if isinstance(result, torch.Tensor):
        return dtype_name(result.dtype)
    if result is None and args and isinstance(args[0], torch.Tensor):
        return dtype_name(args[0].dtype)
    return None


def _op_name(func: Callable[..., Any]) -> str:
    try:
        return resolve_name(func) or getattr(func, "__qualname__", repr(func))
    except Exception:  # resolve_name walks torch's namespaces; never let it break a run
        return getattr(func, "__qualname__", repr(func))


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


# --- structures of tensors -------------------------------------------------------------------------


def map_structure(value: Any, fn: Callable[[Any], Any], depth: int = 0) -> Any:
    """Apply `fn` to every tensor and module nested in tuples, lists, dicts and dataclasses."""
    if isinstance(value, (torch.Tensor, torch.nn.Module)):
        return fn(value)
    if depth > 20:  # cycles or absurd nesting: leave the rest alone
        return value
    if isinstance(value, tuple):
        items = [map_structure(item, fn, depth + 1) for item in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, list):
        return [map_structure(item, fn, depth + 1) for item in value]
    if isinstance(value, dict):
        mapped = {key: map_structure(item, fn, depth + 1) for key, item in value.items()}
        try:
            return type(value)(mapped)
        except TypeError:  # defaultdict and friends take other constructor arguments
            return mapped
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            field.name: map_structure(getattr(value, field.name), fn, depth + 1)
            for field in dataclasses.fields(value)
            if field.init
        }
        return dataclasses.replace(value, **changes)
    return value


def floating_tensors(value: Any, path: str = "out", depth: int = 0) -> Iterator[tuple[str, Any]]:
    """(path, tensor) for every floating tensor in an output structure, in a stable order."""
    if isinstance(value, torch.Tensor):
        if value.is_floating_point():
            yield path, value
        return
    if depth > 20:
        return
    if isinstance(value, (tuple, list)):
        for index, item in enumerate(value):
            yield from floating_tensors(item, f"{path}[{index}]", depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from floating_tensors(item, f"{path}[{key!r}]", depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from floating_tensors(
                getattr(value, field.name), f"{path}.{field.name}", depth + 1
            )


def to_device(device: torch.device) -> Callable[[Any], Any]:
    """Move tensors and modules to `device`; dtypes stay exactly as the example made them."""

    def move(value: Any) -> Any:
        return value.to(device)

    return move


def to_float32(value: Any) -> Any:
    """The reference side: every floating tensor and module parameter in float32."""
    if isinstance(value, torch.nn.Module):
        return value.float()
    if value.is_floating_point():
        return value.to(torch.float32)
    return value


def owning_module(fn: Any) -> torch.nn.Module | None:
    """The module an example callable runs: the module itself or the owner of a bound method."""
    if isinstance(fn, torch.nn.Module):
        return fn
    owner = getattr(fn, "__self__", None)
    return owner if isinstance(owner, torch.nn.Module) else None


# --- errors against the reference ------------------------------------------------------------------

# Relative error floor so an all-zero reference does not divide by zero.
_ERROR_EPS = 1e-6


def relative_error(output: torch.Tensor, reference: torch.Tensor) -> float:
    """max|a - ref| / (max|ref| + eps), in float64; non-finite values where ref is finite -> inf."""
    a = output.detach().to("cpu", torch.float64)
    ref = reference.detach().to("cpu", torch.float64)
    both_nan = torch.isnan(a) & torch.isnan(ref)
    same_inf = torch.isinf(a) & torch.isinf(ref) & (a == ref)
    comparable = ~(both_nan | same_inf)
    if not comparable.any():
        return 0.0
    a, ref = a[comparable], ref[comparable]
    if not torch.isfinite(a).all() or not torch.isfinite(ref).all():
        return math.inf
    scale = ref.abs().max().item() if ref.numel() else 0.0
    diff = (a - ref).abs().max().item() if a.numel() else 0.0
    return diff / (scale + _ERROR_EPS)


def compare_to_reference(
    outputs: list[tuple[str, torch.Tensor]], reference: list[tuple[str, torch.Tensor]]
) -> tuple[float | None, str | None]:
    """The largest relative error over the output tensors, or None and why not comparable."""
    if len(outputs) != len(reference):
        return None, f"{len(outputs)} floating outputs, the reference has {len(reference)}"
    if not outputs:
        return None, "no floating outputs to compare"
    worst = 0.0
    for (path, tensor), (_, ref) in zip(outputs, reference, strict=True):
        if tuple(tensor.shape) != tuple(ref.shape):
            return None, f"{path}: shape {tuple(tensor.shape)}, reference {tuple(ref.shape)}"
        worst = max(worst, relative_error(tensor, ref))
    return worst, None


# --- running one phase -----------------------------------------------------------------------------


class ExampleError(Exception):
    """The example function returned something the harness cannot call."""


def seed_everything() -> None:
    # Every phase, in every process, must build the same weights and inputs.
    random.seed(0)
    torch.manual_seed(0)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(0)


def call_example(example: Callable[..., Any], dtype: torch.dtype) -> tuple[Any, tuple, dict]:
    """Call the example (with `dtype=` when it takes one) and check what it returned."""
    try:
        takes_dtype = "dtype" in inspect.signature(example).parameters
    except (TypeError, ValueError):
        takes_dtype = False
    returned = example(dtype=dtype) if takes_dtype else example()
    if not isinstance(returned, (tuple, list)) or len(returned) not in (2, 3):
        raise ExampleError(
            f"{example.__name__} must return (callable, args) or (callable, args, kwargs), "
            f"got {type(returned).__name__}"
        )
    fn, args, *rest = returned
    kwargs = rest[0] if rest else {}
    if not callable(fn):
        raise ExampleError(f"{example.__name__}: first item is not callable: {fn!r:.80}")
    if not isinstance(args, (tuple, list)) or not isinstance(kwargs, dict):
        raise ExampleError(f"{example.__name__}: args must be a tuple or list, kwargs a dict")
    return fn, tuple(args), dict(kwargs)


class PhaseRunner:
    def __init__(self, request: dict[str, Any], example: Callable[..., Any]) -> None:
        self.request = request
        self.example = example
        self.device = torch.device(request["device"])
        self.dtype: torch.dtype = getattr(torch, request["dtype"])
        self.frames = FrameFilter(Path(request["root"]))
        self.reference_path = Path(request["reference_path"])

    def run(self, phase: str) -> dict[str, Any]:
        started = time.perf_counter()
        result = self._run(phase)
        result["seconds"] = round(time.perf_counter() - started, 3)
        return result

    def _run(self, phase: str) -> dict[str, Any]:
        seed_everything()
        try:
            fn, args, kwargs = call_example(self.example, self.dtype)
            fn, args, kwargs = self._prepare(phase, fn, args, kwargs)
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            return self._outcome(None, exc, None, where="building the example")

        recorder = MixedDtypeRecorder(self.frames) if phase != "compiled" else None
        output, error = None, None
        with _float32_reference_precision(phase == "reference"):
            try:
                if recorder is not None:
                    with recorder:
                        output = fn(*args, **kwargs)
                else:
                    output = fn(*args, **kwargs)
                if self.device.type == "cuda":
                    torch.cuda.synchronize(self.device)  # CUDA errors surface asynchronously
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                error = exc
        outcome = self._outcome(output, error, recorder, where=None)
        if error is None:
            self._compare_or_save(phase, outcome)
        return outcome

    def _prepare(self, phase: str, fn: Any, args: tuple, kwargs: dict) -> tuple[Any, tuple, dict]:
        move = to_device(self.device)
        module = owning_module(fn)
        if module is not None:
            move(module)
        args, kwargs = map_structure(args, move), map_structure(kwargs, move)
        if phase == "reference":
            if module is not None:
                module.float()
            args, kwargs = map_structure(args, to_float32), map_structure(kwargs, to_float32)
        if phase == "compiled":
            fn = torch.compile(fn, backend=self.request["compile_backend"])
        return fn, args, kwargs

    def _outcome(
        self,
        output: Any,
        error: BaseException | None,
        recorder: MixedDtypeRecorder | None,
        where: str | None,
    ) -> dict[str, Any]:
        mixed = list(recorder.records.values()) if recorder else []
        outputs = list(floating_tensors(output)) if error is None else []
        if error is not None:
            status = "raised"
        elif mixed:
            status = "promoted"
        else:
            status = "ok"
        return {
            "status": status,
            "exception": None if error is None else self._exception(error, recorder, where),
            "mixed_ops": mixed,
            "outputs": [
                {"path": path, "dtype": dtype_name(t.dtype), "shape": list(t.shape)}
                for path, t in outputs
            ],
            "_tensors": outputs,  # dropped before writing JSON
        }

    def _exception(
        self, exc: BaseException, recorder: MixedDtypeRecorder | None, where: str | None
    ) -> dict[str, Any]:
        failing = recorder.failing_op(exc) if recorder else None
        frame = self.frames.pick(self.frames.traceback_stack(exc.__traceback__))
        if frame is None:  # errors raised while dynamo traces name the user line in the message
            frame = self.frames.pick(_frames_in_message(str(exc)))
        return {
            "type": type(exc).__name__,
            "message": _short(str(exc)),
            "frame": frame,
            "op": failing["op"] if failing else None,
            "dtypes": failing["dtypes"] if failing else None,
            "where": where,
        }

    def _compare_or_save(self, phase: str, outcome: dict[str, Any]) -> None:
        tensors = [(path, t.detach().cpu()) for path, t in outcome["_tensors"]]
        if phase == "reference":
            torch.save(tensors, self.reference_path)
            return
        if not self.reference_path.exists():
            outcome["error_note"] = "no float32 reference (the reference run failed)"
            return
        reference = torch.load(self.reference_path, weights_only=True)
        error, note = compare_to_reference(tensors, reference)
        outcome["error"] = error
        if note:
            outcome["error_note"] = note


class _float32_reference_precision:
    """Force true float32 matmuls/convs (no TF32) for the reference run, then restore."""

    def __init__(self, active: bool) -> None:
        self.active = active
        self.saved: tuple[bool, bool, str] | None = None

    def __enter__(self) -> None:
        if not self.active:
            return
        self.saved = (
            torch.backends.cuda.matmul.allow_tf32,
            torch.backends.cudnn.allow_tf32,
            torch.get_float32_matmul_precision(),
        )
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")

    def __exit__(self, *exc_info: object) -> None:
        if self.saved is not None:
            matmul_tf32, cudnn_tf32, precision = self.saved
            torch.backends.cuda.matmul.allow_tf32 = matmul_tf32
            torch.backends.cudnn.allow_tf32 = cudnn_tf32
            torch.set_float32_matmul_precision(precision)


_MESSAGE_FRAME = re.compile(
    r'File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<function>\S+))?'
)


def _frames_in_message(message: str) -> list[tuple[str, int, str]]:
    """`File "...", line N, in f` mentions in a message (dynamo's "from user code:"), innermost
    first."""
    found = [
        (match["file"], int(match["line"]), match["function"] or "?")
        for match in _MESSAGE_FRAME.finditer(message)
    ]
    return found[::-1]


def _short(message: str) -> str:
    message = message.strip()
    return message if len(message) <= _MESSAGE_LIMIT else message[: _MESSAGE_LIMIT - 3] + "..."


# --- importing the example -------------------------------------------------------------------------


def setup_sys_path(root: Path, remove: str | None) -> None:
    """The side's project root first, as `python -m` from the root would have it; our own
    checkout (added through PYTHONPATH so that this module could start) taken back out."""
    entries = [entry for entry in sys.path if entry not in {"", os.getcwd(), str(root)}]
    if remove in entries and Path(remove).resolve() != root.resolve():  # type: ignore[arg-type]
        entries.remove(remove)  # the first occurrence: PYTHONPATH's, ahead of the site folders
    sys.path[:] = [str(root), *entries]


def module_name_for(path: Path, root: Path) -> str | None:
    """The dotted name `path` is importable as from `root`, or None (outside it, odd names)."""
    try:
        parts = list(path.resolve().relative_to(root.resolve()).with_suffix("").parts)
    except ValueError:
        return None
    if parts and parts[-1] == "__init__":
        parts.pop()
    if not parts or not all(part.isidentifier() for part in parts):
        return None
    return ".".join(parts)


def import_example(request: dict[str, Any]) -> Callable[..., Any]:
    """Import the example file the normal way (so the code it exercises is imported once)."""
    path, root = Path(request["example_file"]), Path(request["root"])
    name = module_name_for(path, root)
    module = importlib.import_module(name) if name is not None else None
    if module is None or Path(module.__file__ or "").resolve() != path.resolve():
        # Outside the root, or its name is taken (a file called `code.py` meets the stdlib's).
        module = _import_by_path(path)
    example = getattr(module, request["example_name"], None)
    if not callable(example):
        raise ImportError(f"{path} has no function {request['example_name']}")
    return example


def _import_by_path(path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("dtypelint_verify_example", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def import_error_outcome(exc: BaseException, frames: FrameFilter) -> dict[str, Any]:
    stack = frames.traceback_stack(exc.__traceback__)
    if isinstance(exc, SyntaxError) and exc.filename:  # the offending line is not in the traceback
        stack.insert(0, (exc.filename, exc.lineno or 0, "<module>"))
    return {
        "status": "import-error",
        "exception": {
            "type": type(exc).__name__,
            "message": _short(str(exc)),
            "frame": frames.pick(stack),
            "op": None,
            "dtypes": None,
            "where": "importing the example",
        },
        "mixed_ops": [],
        "outputs": [],
    }


# --- entry points ----------------------------------------------------------------------------------


def write_result(path: Path, result: dict[str, Any]) -> None:
    """Atomically replace the result file, so a kill never leaves half a JSON document."""
    clean = {
        "current": result["current"],
        "phases": {
            phase: {key: value for key, value in outcome.items() if not key.startswith("_")}
            for phase, outcome in result["phases"].items()
        },
    }
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(clean, default=str))
    os.replace(partial, path)


def run_request(request: dict[str, Any]) -> None:
    result_path = Path(request["result_path"])
    result: dict[str, Any] = {"current": "import", "phases": {}}
    write_result(result_path, result)
    root = Path(request["root"])
    setup_sys_path(root, request.get("remove_path"))
    frames = FrameFilter(root)
    try:
        example = import_example(request)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        outcome = import_error_outcome(exc, frames)
        result["phases"] = {phase: outcome for phase in request["phases"]}
        result["current"] = None
        write_result(result_path, result)
        return
    runner = PhaseRunner(request, example)
    for phase in request["phases"]:
        result["current"] = phase
        write_result(result_path, result)
        result["phases"][phase] = runner.run(phase)
        write_result(result_path, result)
    result["current"] = None
    write_result(result_path, result)


def probe(device: str, dtype: str, compile_: bool) -> dict[str, Any]:
    try:
        choice = choose_device(torch, device, dtype)
    except DeviceError as exc:
        return {"error": str(exc)}
    data: dict[str, Any] = {"choice": choice.to_json(), "torch": torch.__version__}
    if compile_:
        backend, why = choose_compile_backend(choice.device)
        data["compile"] = {"backend": backend, "reason": why}
    return data


def _install_stack_dump(path: Path) -> None:
    """On a crash (SIGSEGV, SIGABRT, ...) or SIGTERM (the parent's timeout), write where every
    thread is before dying, so the parent can name the user's line."""
    dump = path.open("w")  # kept open for the life of the process: faulthandler writes to its fd
    faulthandler.enable(file=dump, all_threads=True)
    if hasattr(faulthandler, "register"):  # not on Windows: there the parent just kills us
        faulthandler.register(signal.SIGTERM, file=dump, all_threads=True, chain=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dtypelint.verify.runner")
    parser.add_argument("--probe", action="store_true")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--dtype", default="auto")
    parser.add_argument("--compile", action="store_true")
    parser.add_argument("--request", type=Path)
    options = parser.parse_args(argv)
    if options.probe:
        print(json.dumps(probe(options.device, options.dtype, options.compile)))
        return 0
    if options.request is None:
        parser.error("--probe or --request is required")
    request = json.loads(options.request.read_text())
    _install_stack_dump(Path(request["stack_path"]))
    run_request(request)
    return 0


if __name__ == "__main__":
    sys.exit(main())
