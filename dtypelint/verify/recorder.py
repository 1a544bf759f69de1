"""The mixed-dtype recorder shared by `dtypelint verify` (its worker processes) and
`dtypelint trace` (any Python command): a TorchFunctionMode that records every torch call whose
floating tensor operands have different dtypes, with the user-code line that made it.

A call is a site when it raises, or when it runs with mixed operands that autocast does not cast
for it (see `autocast.py`). Two kinds of mixed call are not sites, because their result keeps the
low dtype by design: ops autocast casts (matmul of bf16 points with a float32 matrix inside
`torch.autocast`), and normalization kernels fed bf16 activations with float32 affine parameters
or statistics (the mixed-precision kernels of batch/layer/group norm). Elementwise promotion, in
autocast or not, always is a site, and so are writes (`x[i] = y`, in-place ops) across dtypes.

torch is imported here on purpose: only the processes that run the user's torch code import this.
"""

from __future__ import annotations

import contextlib
import os
import site
import sys
import sysconfig
import traceback
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import torch
from torch.overrides import TorchFunctionMode, resolve_name

from dtypelint.verify.autocast import aten_name, dtypes_after_autocast

_DTYPELINT_DIR = Path(__file__).resolve().parents[1]
# Calls whose operands differ in dtype by design: casts and shape-only helpers, not computations.
DELIBERATE_MIXES = frozenset(
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
        # nn.Module.to()/.half() swapping parameters in place (Module._apply)
        "torch._has_compatible_shallow_copy_type",
        "_VariableFunctionsClass._has_compatible_shallow_copy_type",
    }
)
# Kernels that take low-precision input with float32 weights/statistics and return the input's
# dtype: the standard mixed-precision path for norm layers (autocast leaves them to the kernel).
MIXED_PRECISION_KERNELS = frozenset(
    {
        "batch_norm",
        "native_batch_norm",
        "_native_batch_norm_legit",
        "layer_norm",
        "native_layer_norm",
        "group_norm",
        "native_group_norm",
        "instance_norm",
        "rms_norm",
    }
)
_PRECISION_RANK = {"float16": 1, "bfloat16": 1, "float32": 2, "float64": 3}
_SITE_PACKAGES = (f"{os.sep}site-packages{os.sep}", f"{os.sep}dist-packages{os.sep}")


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


# --- user-code frames ------------------------------------------------------------------------------


def library_folders() -> tuple[str, ...]:
    """Folders whose files are never "user code": torch, dtypelint, the standard library, the
    site folders and the scripts folder (console-script wrappers such as bin/pytest)."""
    paths = sysconfig.get_paths()
    folders = [
        os.path.dirname(torch.__file__),
        str(_DTYPELINT_DIR),
        *(paths.get(key) for key in ("stdlib", "platstdlib", "purelib", "platlib", "scripts")),
        *site.getsitepackages(),
        site.getusersitepackages(),
    ]
    return tuple(sorted({os.path.realpath(f) + os.sep for f in folders if f}))


class FrameFilter:
    """Finds "the user frame" of a call: the innermost frame outside torch, dtypelint, the stdlib
    and installed packages.

    With a `root` (verify), frames under it win over other non-library frames (an einops or timm
    helper between torch and the model), because those are the lines the linter can point at.
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = str(root.resolve()) if root is not None else None
        self.library = library_folders()
        self._user: dict[str, bool] = {}  # filename -> is_user; realpath is a syscall per call

    def is_user(self, filename: str) -> bool:
        known = self._user.get(filename)
        if known is None:
            known = self._user[filename] = self._classify(filename)
        return known

    def _classify(self, filename: str) -> bool:
        if filename.startswith("<"):  # <frozen importlib._bootstrap>, <string>
            return False
        real = os.path.realpath(filename)
        return not real.startswith(self.library) and not any(s in real for s in _SITE_PACKAGES)

    def is_project(self, filename: str) -> bool:
        return self.root is not None and os.path.abspath(filename).startswith(self.root + os.sep)

    def pick(self, frames: Sequence[tuple[str, int, str]]) -> dict[str, Any] | None:
        """The user frame among `frames` (innermost first) as {file, line, function}."""
        first_user = None
        for frame in frames:
            if not self.is_user(frame[0]):
                continue
            if self.root is None or self.is_project(frame[0]):
                return self.describe(*frame)
            first_user = first_user or frame
        return self.describe(*first_user) if first_user else None

    def caller(self) -> dict[str, Any] | None:
        """The user frame of the running call, walking the live stack (no list built)."""
        frame: types.FrameType | None = sys._getframe(1)
        first_user = None
        while frame is not None:
            code = frame.f_code
            if self.is_user(code.co_filename):
                if self.root is None or self.is_project(code.co_filename):
                    return self.describe(code.co_filename, frame.f_lineno, code.co_name)
                first_user = first_user or (code.co_filename, frame.f_lineno, code.co_name)
            frame = frame.f_back
        return self.describe(*first_user) if first_user else None

    def describe(self, filename: str, line: int | None, function: str) -> dict[str, Any]:
        return {"file": self.display(filename), "line": line or 0, "function": function}

    def display(self, filename: str) -> str:
        """Project files relative to the root (the parent maps them back), others absolute."""
        if self.root is not None and self.is_project(filename):
            return Path(os.path.abspath(filename)).relative_to(self.root).as_posix()
        return os.path.abspath(filename)

    def traceback_stack(self, tb: types.TracebackType | None) -> list[tuple[str, int, str]]:
        frames = [(f.filename, f.lineno or 0, f.name) for f in traceback.extract_tb(tb)]
        return frames[::-1]  # innermost first


# --- operands --------------------------------------------------------------------------------------


def floating_operands(args: Sequence[Any], kwargs: dict[str, Any]) -> list[torch.Tensor]:
    """Floating tensors among the operands: top level, and one level into lists and tuples
    (cat, stack and einsum take them so). Hot path: runs on every torch call."""
    found = []
    for value in (*args, *kwargs.values()) if kwargs else args:
        if isinstance(value, torch.Tensor):
            if value.is_floating_point():
                found.append(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, torch.Tensor) and item.is_floating_point():
                    found.append(item)
    return found


def mixed_dtypes(floating: list[torch.Tensor]) -> list[str] | None:
    """The distinct dtypes of `floating` when there are two or more, else None.

    0-dim tensors are left out when a real tensor takes part: type promotion treats them like
    Python scalars, so they never change the result dtype.
    """
    first = floating[0].dtype
    if all(t.dtype == first for t in floating):
        return None
    shaped = [t for t in floating if t.dim() > 0] or floating
    dtypes = list(dict.fromkeys(dtype_name(t.dtype) for t in shaped))
    return dtypes if len(dtypes) > 1 else None


def mixed_floating_dtypes(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[str] | None:
    floating = floating_operands(args, kwargs)
    return mixed_dtypes(floating) if len(floating) > 1 else None


def autocast_dtype(device_type: str) -> str | None:
    """The autocast dtype when autocast is enabled for `device_type` right now, else None."""
    try:
        enabled = torch.is_autocast_enabled(device_type)
    except TypeError:  # torch < 2.4: one function per device
        cpu = device_type == "cpu"
        enabled = torch.is_autocast_cpu_enabled() if cpu else torch.is_autocast_enabled()
    except RuntimeError:  # a device type without autocast support
        return None
    if not enabled:
        return None
    try:
        dtype = torch.get_autocast_dtype(device_type)
    except AttributeError:  # torch < 2.4
        cpu = device_type == "cpu"
        dtype = torch.get_autocast_cpu_dtype() if cpu else torch.get_autocast_gpu_dtype()
    return dtype_name(dtype)


def is_write(op: str) -> bool:
    """`x[i] = y`, in-place methods (`add_`, `index_add_`, `__iadd__`): the result takes the
    destination's dtype whatever the operands are, so a mix there is always worth a look."""
    name = op.rsplit(".", 1)[-1]
    if name.startswith("__"):
        return name in ("__setitem__",) or name.startswith("__i")
    return name.endswith("_")


def _narrowest(dtypes: list[str]) -> str | None:
    ranks = sorted(_PRECISION_RANK.get(d, 0) for d in dtypes)
    if len(ranks) > 1 and ranks[0] == ranks[1]:
        return None  # bf16 with fp16: neither is narrower
    return min(dtypes, key=lambda d: _PRECISION_RANK.get(d, 0))


def result_dtype(result: Any, args: Sequence[Any]) -> str | None:
    """The dtype the call produced (its first floating tensor); for __setitem__, which returns
    None, the dtype written into."""
    if isinstance(result, torch.Tensor):
        return dtype_name(result.dtype)
    if isinstance(result, (tuple, list)):
        for item in result:
            if isinstance(item, torch.Tensor) and item.is_floating_point():
                return dtype_name(item.dtype)
    if result is None and args and isinstance(args[0], torch.Tensor):
        return dtype_name(args[0].dtype)
    return None


_is_compiling: Callable[[], bool] = getattr(
    getattr(torch, "compiler", None), "is_compiling", lambda: False
)
_OP_NAMES: dict[Any, str] = {}


def op_name(func: Callable[..., Any]) -> str:
    try:
        return _OP_NAMES[func]
    except (KeyError, TypeError):
        pass
    try:
        name = resolve_name(func) or getattr(func, "__qualname__", repr(func))
    except Exception:  # resolve_name walks torch's namespaces; never let it break a run
        name = getattr(func, "__qualname__", repr(func))
    with contextlib.suppress(TypeError):  # unhashable callables are just not cached
        _OP_NAMES[func] = name
    return name


# --- the recorder ----------------------------------------------------------------------------------

_plain_has_torch_function = torch.overrides.has_torch_function


def _has_torch_function_but_the_recorder(args: Any) -> bool:
    """torch.overrides.has_torch_function, blind to a recorder alone on the mode stack.

    nn.MultiheadAttention and nn.TransformerEncoder(Layer) leave their inference fast path when
    it returns True, which any active mode makes it do: recording would then change which
    kernels run, and the results. Other modes and tensor subclasses still count.
    """
    recorder_alone = torch._C._len_torch_function_stack() == 1 and isinstance(
        torch.overrides._get_current_function_mode(), MixedDtypeRecorder
    )
    if not recorder_alone:
        return _plain_has_torch_function(args)
    with torch.overrides._pop_mode_temporarily():
        return _plain_has_torch_function(args)


class _FastPathGuard:
    """Installs `_has_torch_function_but_the_recorder` while any recorder is active."""

    active = 0

    @classmethod
    def enter(cls) -> None:
        cls.active += 1
        if cls.active == 1:
            torch.overrides.has_torch_function = _has_torch_function_but_the_recorder

    @classmethod
    def exit(cls) -> None:
        cls.active -= 1
        if cls.active == 0:
            torch.overrides.has_torch_function = _plain_has_torch_function


class MixedDtypeRecorder(TorchFunctionMode):
    """Records every torch call whose floating tensor operands mix dtypes (see the module doc).

    `records` maps (op, dtypes, file, line, raised) to {op, dtypes, result, raised, frame, count,
    autocast}. Calls with no user frame at all are only counted (`unattributed`).
    """

    def __init__(
        self,
        frames: FrameFilter,
        on_new_site: Callable[[dict[str, Any]], None] | None = None,
        keep_unattributed: bool = True,
    ) -> None:
        super().__init__()
        self.frames = frames
        self.on_new_site = on_new_site
        self.keep_unattributed = keep_unattributed
        self.enabled = True  # off in forked children (see dtypelint.trace.session)
        self.records: dict[tuple[Any, ...], dict[str, Any]] = {}
        self.unattributed = 0
        self.failure: tuple[BaseException, dict[str, Any]] | None = None

    def __enter__(self) -> MixedDtypeRecorder:
        _FastPathGuard.enter()
        return super().__enter__()  # type: ignore[no-any-return]

    def __exit__(self, *exc_info: Any) -> None:
        super().__exit__(*exc_info)
        _FastPathGuard.exit()

    def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        if kwargs is None:
            kwargs = {}
        if not self.enabled or _is_compiling():
            # Under torch.compile dynamo traces this method: it must see a plain call (the
            # compiled graph is not recorded; eager code around it is).
            return func(*args, **kwargs)
        floating = floating_operands(args, kwargs)
        dtypes = mixed_dtypes(floating) if len(floating) > 1 else None
        if dtypes is None:
            return func(*args, **kwargs)
        # The device autocast is asked about: a real operand's (a 0-dim CPU scalar tensor may
        # come first in a CUDA call).
        shaped = next((t for t in floating if t.dim() > 0), floating[0])
        return self._mixed_call(func, args, kwargs, dtypes, shaped.device.type)

    def _mixed_call(
        self,
        func: Any,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        dtypes: list[str],
        device: str,
    ) -> Any:
        name = op_name(func)
        if name in DELIBERATE_MIXES or name.endswith(".__set__"):
            # `.__set__`: property setters (`p.data = q`, `p.grad = g`) replace, not compute
            return func(*args, **kwargs)
        autocast = autocast_dtype(device)
        if autocast is not None:
            cast = dtypes_after_autocast(device, name, dtypes, autocast)
            if cast is not None and len(cast) == 1:
                return func(*args, **kwargs)  # autocast casts every operand: one dtype inside
        try:
            result = func(*args, **kwargs)
        except BaseException as exc:
            record = self._record(name, dtypes, None, True, autocast)
            if record is not None:
                self.failure = (exc, record)
            raise
        produced = result_dtype(result, args)
        if self._keeps_low_dtype(name, dtypes, produced, autocast):
            return result
        self._record(name, dtypes, produced, False, autocast)
        return result

    @staticmethod
    def _keeps_low_dtype(
        name: str, dtypes: list[str], produced: str | None, autocast: str | None
    ) -> bool:
        """A mixed-precision kernel, or an op autocast cast somewhere inside (einsum on CPU runs
        an autocast bmm): the result is in the narrowest operand dtype, nothing was promoted."""
        if produced is None or is_write(name) or produced != _narrowest(dtypes):
            return False
        return autocast is not None or aten_name(name) in MIXED_PRECISION_KERNELS

    def _record(
        self, op: str, dtypes: list[str], produced: str | None, raised: bool, autocast: str | None
    ) -> dict[str, Any] | None:
        frame = self.frames.caller()
        if frame is None:
            self.unattributed += 1
            if not self.keep_unattributed:
                return None
        key = (op, tuple(dtypes), (frame or {}).get("file"), (frame or {}).get("line"), raised)
        record = self.records.get(key)
        if record is None:
            record = {
                "op": op,
                "dtypes": dtypes,
                "result": produced,
                "raised": raised,
                "frame": frame,
                "count": 0,
                "autocast": autocast,
            }
            self.records[key] = record
            if self.on_new_site is not None:
                self.on_new_site(record)
        record["count"] += 1
        return record

    def failing_op(self, exc: BaseException) -> dict[str, Any] | None:
        """The recorded mixed-dtype call that raised `exc`, if that is where it came from."""
        if self.failure is not None and self.failure[0] is exc:
            return self.failure[1]
        return None
