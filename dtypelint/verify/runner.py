"""What a `dtypelint verify` worker does with one example: import it, run its phases, describe
the outcome. The process loop around it is `worker.py`.

Phases:
- `reference`: the ORIGINAL code all in float32 (module and every floating input upcast), the
  baseline the low-precision runs are measured against. The example is called with the target
  dtype and then upcast, rather than called with dtype=float32: `torch.randn(..., dtype=bf16)`
  and `torch.randn(..., dtype=float32)` draw different numbers from the same seed (about 2% of
  1000 draws differ on CPU), so only the upcast gives the reference the same inputs and weights
  as the low-precision run.
- `target`: the example exactly as given, on the chosen device, under the mixed-dtype recorder.
- `compiled`: the same under `torch.compile(backend=...)`, not recorded (dynamo traces the mode).

Each phase's floating outputs are saved to a file; the parent has them compared with the
reference's once every side has run (`compare_files`), so the sides never wait on each other.

torch is imported here on purpose: this module only ever runs in the worker processes.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import inspect
import math
import os
import random
import re
import sys
import time
import types
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import torch

from dtypelint.verify.recorder import FrameFilter, MixedDtypeRecorder, dtype_name

_MESSAGE_LIMIT = 600
BY_PATH_MODULE = "dtypelint_verify_example"  # examples outside the root are imported as this


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
    """Runs the phases of one imported example in this process."""

    def __init__(
        self,
        example: Callable[..., Any],
        root: Path,
        device: str,
        dtype: str,
        compile_backend: str | None = None,
    ) -> None:
        self.example = example
        self.device = torch.device(device)
        self.dtype: torch.dtype = getattr(torch, dtype)
        self.frames = FrameFilter(root)
        self.compile_backend = compile_backend

    def run(self, phase: str, save_path: Path | None) -> dict[str, Any]:
        """The outcome of `phase` (JSON-ready); its floating outputs saved to `save_path`."""
        started = time.perf_counter()
        result = self._run(phase)
        tensors = result.pop("_tensors", [])
        if save_path is not None and result["status"] != "raised":
            torch.save([(path, t.detach().cpu()) for path, t in tensors], save_path)
            result["saved"] = str(save_path)
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

        # The reference's mixed calls decide nothing (only whether it raised): not recorded.
        recorder = MixedDtypeRecorder(self.frames) if phase == "target" else None
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
        return self._outcome(output, error, recorder, where=None)

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
            torch._dynamo.reset()  # no compiled code or guards carried over from another example
            fn = torch.compile(fn, backend=self.compile_backend)
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
            "_tensors": outputs,  # saved by run(), never sent
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


def compare_files(pairs: Sequence[tuple[str, str | None]]) -> list[dict[str, Any]]:
    """For each (outputs file, reference file or None): {error, note}, the largest relative
    error of the saved outputs against the saved reference, or why there is none."""
    results = []
    for output_path, reference_path in pairs:
        if reference_path is None or not os.path.exists(reference_path):
            results.append(
                {"error": None, "note": "no float32 reference (the reference run failed)"}
            )
            continue
        outputs = torch.load(output_path, weights_only=True)
        reference = torch.load(reference_path, weights_only=True)
        error, note = compare_to_reference(outputs, reference)
        results.append({"error": error, "note": note})
    return results


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


def setup_sys_path(root: Path, baseline: Sequence[str], remove: str | None) -> None:
    """The side's project root first, as `python -m` from the root would have it, then the
    worker's own start-up path (whatever an earlier example did to sys.path is undone); our own
    checkout (added through PYTHONPATH so that the worker could start) taken back out."""
    entries = [entry for entry in baseline if entry not in {"", os.getcwd(), str(root)}]
    if remove in entries and Path(remove).resolve() != root.resolve():  # type: ignore[arg-type]
        entries.remove(remove)  # the first occurrence: PYTHONPATH's, ahead of the site folders
    sys.path[:] = [str(root), *entries]


def forget_modules(root: Path) -> int:
    """Drop every module imported from the project under `root` (and by-path examples) from
    sys.modules, so the next example imports the tree afresh: no module-level state, caches or
    monkeypatches carried over from the examples before it. Installed packages stay (a `.venv`
    inside the project holds torch itself), and so do dtypelint and the standard library.
    Returns how many were dropped."""
    project = FrameFilter(root)
    dropped = 0
    for name, module in list(sys.modules.items()):
        if name == BY_PATH_MODULE or _in_project(module, project):
            del sys.modules[name]
            dropped += 1
    importlib.invalidate_caches()  # files written since the last import must be found
    return dropped


def _in_project(module: types.ModuleType | None, project: FrameFilter) -> bool:
    files = [getattr(module, "__file__", None)]
    if not files[0]:
        try:  # namespace packages have no __file__, only __path__
            files = list(getattr(module, "__path__", None) or [])
        except TypeError:
            return False
    return bool(files) and all(
        isinstance(f, str) and project.is_project(os.path.realpath(f)) and project.is_user(f)
        for f in files
    )


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


def import_example(path: Path, root: Path, function: str) -> Callable[..., Any]:
    """Import the example file the normal way (so the code it exercises is imported once)."""
    name = module_name_for(path, root)
    module = importlib.import_module(name) if name is not None else None
    if module is None or Path(module.__file__ or "").resolve() != path.resolve():
        # Outside the root, or its name is taken (a file called `code.py` meets the stdlib's).
        module = _import_by_path(path)
    example = getattr(module, function, None)
    if not callable(example):
        raise ImportError(f"{path} has no function {function}")
    return example


def _import_by_path(path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(BY_PATH_MODULE, path)
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
