#!/usr/bin/env python
"""Runtime confirmation of the ``# expect:`` labels of the blind_v2 evaluation set.

Every file of the set defines ``example()`` (and optionally ``example_*()``) returning ``(callable, args)`` or
``(callable, args, kwargs)``: the model or function and its inputs exactly as a bf16
training step passes them.  For every file this script

Run A (the file-level check)
    imports the file fresh, calls ``example()`` and runs the callable under a
    ``TorchFunctionMode`` that records every torch call whose tensor operands (lists,
    tuples and dicts flattened) hold two or more different floating dtypes, whether the
    call raised a dtype error, and whether the floating outputs are in the run's low
    precision dtype.  A labelled file must show a hazard (dtype error, mixed call or
    non-bf16 floating output); an unlabelled file must show none.

Run B (the per-label check)
    imports the file fresh again and runs it under a recording mode that keeps going:
    each mixed call is recorded and then repaired (operands cast to the run dtype, or to
    ``self``'s dtype for in-place methods) so that every hazard on the path is observed,
    not only the first one.  Every non-run-dtype tensor carries a provenance: the source
    line of the factory / ``torch.from_numpy`` / ``torch.tensor(ndarray)`` call that made it,
    the line of a cast to a fixed dtype other than the run dtype (``.float()``, ``.half()``,
    ``.to(torch.float32)``) that changed its dtype, the example argument it came from (camera
    parameters as the dataset gives them), or the ``self.<name>`` attribute of a module it
    is stored in.  Each recorded hazard must be explained by a label, and each label must be
    confirmed by a hazard:
      DTL001  factory site on the labelled line (or the statement starting there), the factory
              running inside the callable (sites made while building the example, e.g. in a
              module's __init__, explain nothing by themselves)
      DTL004  NumPy conversion site on the labelled line, likewise
      DTL003  fixed-dtype cast site on the labelled line
      DTL002  an operand coming from an example argument (camera) in an op whose statement
              contains the labelled line
      DTL005  an operand stored as a plain tensor attribute assigned on the labelled line

Conventions (the same ones PyTorch's type promotion and autocast use):
  * a 0-dim floating tensor next to a dimensioned floating tensor does not take part in
    type promotion, so it does not make a call mixed;
  * functions that only read another tensor's shape or dtype (``to``, ``type_as``,
    ``expand_as``, ``view_as``, ``new_*``, ``*_like`` ...) are not computations;
  * under an enabled CPU autocast region the matmul-family ops that autocast casts
    (``matmul``, ``mm``, ``bmm``, ``linear``, ...) are not mixed;
  * the output dtype check applies when the run is a low-precision run (a bf16/fp16
    floating tensor among the inputs or the module's parameters); code that never sees low
    precision (datasets, plotting, optimizer bookkeeping) is run in float32 and must only be
    free of errors and mixed calls.

Usage: python check_labels.py [FILE_OR_DIR ...]     (exit 1 on any mismatch)
"""

from __future__ import annotations

import ast
import importlib
import inspect
import io
import re
import sys
import time
import tokenize
import traceback
from collections import defaultdict
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.overrides import TorchFunctionMode

ROOT = Path(__file__).resolve().parent
THIS = str(Path(__file__).resolve())
ROOT_STR = str(ROOT) + "/"
EXPECT_RE = re.compile(r"#\s*expect:\s*([A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*)")
LOW_DTYPES = (torch.bfloat16, torch.float16)
TIME_LIMIT_S = 0.2

# Functions whose extra tensor operands only provide a shape, dtype or device.
SHAPE_OR_CAST_ONLY = {
    "to", "type", "type_as", "expand_as", "view_as", "reshape_as", "broadcast_tensors",
    "new_zeros", "new_ones", "new_empty", "new_full", "new_tensor",
    "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like",
    "__get__", "size", "dim", "numel", "is_floating_point", "is_same_size",
    "__repr__", "__format__", "data_ptr", "element_size", "__len__",
}
# Ops that CPU autocast runs in the autocast dtype (torch/csrc/autocast_mode.cpp).
AUTOCAST_CPU_OPS = {
    "matmul", "__matmul__", "__rmatmul__", "mm", "bmm", "baddbmm", "addmm", "addbmm",
    "linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "prelu", "scaled_dot_product_attention",
}
FACTORIES = {
    "zeros", "ones", "empty", "full", "rand", "randn", "randint", "eye", "linspace",
    "logspace", "arange", "tensor", "as_tensor", "scalar_tensor",
}
FIXED_CASTS = {"float", "double", "half", "to", "type"}
DTYPE_ERROR_RE = re.compile(
    r"dtype|scalar type|BFloat16|Half|Float|Double|Long|same type|must match", re.I
)


# --------------------------------------------------------------------------- helpers
def rel(path: str) -> str:
    return Path(path).resolve().relative_to(ROOT).as_posix()


def user_frame(depth: int = 2):
    """The innermost frame of a blind_v2 source file (not this script)."""
    f = sys._getframe(depth)
    while f is not None:
        name = f.f_code.co_filename
        if name.startswith(ROOT_STR) and name != THIS:
            return (rel(name), f.f_lineno)
        f = f.f_back
    return None


def iter_tensors(obj):
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            yield from iter_tensors(item)
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from iter_tensors(item)


def map_tensors(obj, fn):
    if isinstance(obj, torch.Tensor):
        return fn(obj)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*(map_tensors(o, fn) for o in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(map_tensors(o, fn) for o in obj)
    if isinstance(obj, dict):
        return {k: map_tensors(v, fn) for k, v in obj.items()}
    return obj


def has_ndarray(obj) -> bool:
    if isinstance(obj, np.ndarray):
        return True
    if isinstance(obj, (list, tuple)):
        return any(has_ndarray(o) for o in obj)
    if isinstance(obj, dict):
        return any(has_ndarray(o) for o in obj.values())
    return False


def floating_operands(tensors):
    """Floating operands that take part in type promotion (0-dim ones only if alone)."""
    floats = [t for t in tensors if t.dtype.is_floating_point]
    dimmed = [t for t in floats if t.dim() > 0]
    return dimmed if dimmed else floats


def func_name(func) -> str:
    return getattr(func, "__name__", None) or str(func)


def autocast_covered(name: str) -> bool:
    return name in AUTOCAST_CPU_OPS and torch.is_autocast_enabled("cpu")


def is_dtype_error(exc: BaseException) -> bool:
    return isinstance(exc, (RuntimeError, TypeError)) and bool(DTYPE_ERROR_RE.search(str(exc)))


def get_prov(t) -> frozenset:
    return getattr(t, "_dtl_prov", frozenset())


def add_prov(t, items) -> None:
    if items:
        try:
            t._dtl_prov = get_prov(t) | frozenset(items)
        except Exception:  # pragma: no cover - exotic tensor subclasses
            pass


# --------------------------------------------------------------------------- modes
class PlainRecorder(TorchFunctionMode):
    """Run A: record mixed floating calls; never alters execution."""

    def __init__(self):
        super().__init__()
        self.mixed = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = func_name(func)
        if name not in SHAPE_OR_CAST_ONLY and not autocast_covered(name):
            used = floating_operands(list(iter_tensors((args, kwargs))))
            dtypes = {t.dtype for t in used}
            if len(dtypes) > 1:
                self.mixed.append((name, sorted(str(d) for d in dtypes), user_frame()))
        return func(*args, **kwargs)


class ProvRecorder(TorchFunctionMode):
    """Run B: provenance tracking; records and repairs hazards (run_dtype set)."""

    def __init__(self, run_dtype=None, events=None):
        super().__init__()
        self.run_dtype = run_dtype
        self.events = events if events is not None else []

    def _record(self, kind, name, frame, operands, detail=""):
        self.events.append(
            {"kind": kind, "op": name, "frame": frame, "detail": detail,
             "operands": [(str(t.dtype), get_prov(t)) for t in operands]}
        )

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = func_name(func)
        frame = user_frame()
        tensors = list(iter_tensors((args, kwargs)))
        run = self.run_dtype
        if run is not None and name not in SHAPE_OR_CAST_ONLY and not autocast_covered(name):
            used = floating_operands(tensors)
            dtypes = {t.dtype for t in used}
            if len(dtypes) > 1:
                offending = [t for t in used if t.dtype != run]
                self._record("mixed", name, frame, offending, sorted(str(d) for d in dtypes))
                args, kwargs = self._repair(name, args, kwargs, used)
        try:
            out = func(*args, **kwargs)
        except Exception as exc:
            if run is None or not is_dtype_error(exc):
                raise
            offending = [t for t in tensors if t.dtype != run and t.dtype != torch.bool]
            self._record("raise", name, frame, offending, str(exc).splitlines()[0])

            def cast(t):
                return t.to(run) if (t.dtype != run and t.dtype != torch.bool) else t

            args, kwargs = map_tensors(args, cast), map_tensors(kwargs, cast)
            out = func(*args, **kwargs)
        self._propagate(name, args, kwargs, tensors, out, frame)
        return out

    def _repair(self, name, args, kwargs, used):
        run = self.run_dtype
        if name == "__setitem__":
            return args, kwargs  # torch casts the value into the destination
        inplace = name.endswith("_") and not name.startswith("__")
        if inplace and args and isinstance(args[0], torch.Tensor):
            target = args[0]

            def cast(t):
                if t is target or not t.dtype.is_floating_point:
                    return t
                return t.to(target.dtype)
        else:
            used_ids = {id(t) for t in used}

            def cast(t):
                if id(t) in used_ids and t.dtype != run:
                    return t.to(run)
                return t
        return map_tensors(args, cast), map_tensors(kwargs, cast)

    def _propagate(self, name, args, kwargs, tensors, out, frame):
        run = self.run_dtype
        outs = list(iter_tensors(out))
        mutating = name == "__setitem__" or (name.endswith("_") and not name.startswith("__")) or (
            name.startswith("__i") and name.endswith("__")
        )
        if mutating and args and isinstance(args[0], torch.Tensor):
            # in-place write: the destination now also holds values of the other operands
            dest = args[0]
            others = [t for t in tensors[1:] if t is not dest]
            if run is None or dest.dtype != run:
                add_prov(dest, frozenset().union(*(get_prov(t) for t in others)) if others else ())
        if not outs:
            return
        in_prov = frozenset().union(*(get_prov(t) for t in tensors)) if tensors else frozenset()
        if name in FACTORIES:
            kind = "numpy" if has_ndarray((args, kwargs)) else "factory"
            if run is None:
                # made while importing / building the example (module __init__, inputs):
                # not a factory of a tensor-taking function; DTL005 is matched via "attr".
                kind = "setup-" + kind
            items = set(in_prov)
            if frame is not None:
                items.add((kind, frame))
            for o in outs:
                add_prov(o, items)
            return
        if (
            run is not None and name in FIXED_CASTS and tensors and len(outs) == 1
            and outs[0].dtype.is_floating_point and outs[0].dtype != run
            and outs[0].dtype != tensors[0].dtype and frame is not None
        ):
            add_prov(outs[0], {("cast", frame)} | in_prov)
            return
        if in_prov:
            for o in outs:
                if run is None or o.dtype != run:
                    add_prov(o, in_prov)


_orig_from_numpy = torch.from_numpy


_RUN_PHASE = {"active": False}


def _from_numpy(array):
    t = _orig_from_numpy(array)
    frame = user_frame()
    if frame is not None:
        add_prov(t, {("numpy" if _RUN_PHASE["active"] else "setup-numpy", frame)})
    return t


# --------------------------------------------------------------------------- source index
class SourceIndex:
    """Labels, statement spans and ``self.<attr> =`` lines of every file of the set."""

    def __init__(self, files):
        self.labels = defaultdict(set)  # (rel, line) -> codes
        self.stmts = {}
        self.trees = {}
        for path in files:
            r = rel(str(path))
            src = path.read_text(encoding="utf-8")
            for tok in tokenize.generate_tokens(io.StringIO(src).readline):
                if tok.type == tokenize.COMMENT:
                    m = EXPECT_RE.search(tok.string)
                    if m:
                        for code in m.group(1).split(","):
                            self.labels[(r, tok.start[0])].add(code.strip())
            tree = ast.parse(src)
            self.trees[r] = tree
            self.stmts[r] = [
                (n.lineno, n.end_lineno) for n in ast.walk(tree) if isinstance(n, ast.stmt)
            ]

    def file_labels(self, r):
        return {(line, code) for (f, line), codes in self.labels.items() if f == r for code in codes}

    def stmt_span(self, r, line):
        best = None
        for start, end in self.stmts.get(r, ()):
            if start <= line <= end and (best is None or end - start < best[1] - best[0]):
                best = (start, end)
        return best or (line, line)

    def attr_lines(self, r, cls_name, attr):
        tree = self.trees.get(r)
        lines = set()
        if tree is None:
            return lines
        for cls in ast.walk(tree):
            if not (isinstance(cls, ast.ClassDef) and cls.name == cls_name):
                continue
            for node in ast.walk(cls):
                targets = []
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                    targets = [node.target]
                for tgt in targets:
                    for sub in ast.walk(tgt):
                        if (
                            isinstance(sub, ast.Attribute) and sub.attr == attr
                            and isinstance(sub.value, ast.Name) and sub.value.id == "self"
                        ):
                            lines.add(node.lineno)
        return lines

    def explain_item(self, item, event):
        """The label (rel, line, code) that explains one provenance item, else None."""
        kind = item[0]
        if kind in ("factory", "numpy", "cast"):
            f, line = item[1]
            codes = {"factory": {"DTL001"}, "numpy": {"DTL004"}, "cast": {"DTL003"}}[kind]
            for cand in (line, self.stmt_span(f, line)[0]):
                hit = self.labels.get((f, cand), set()) & codes
                if hit:
                    return (f, cand, sorted(hit)[0])
            return None
        if kind == "arg":
            if event["frame"] is None:
                return None
            f, line = event["frame"]
            start, end = self.stmt_span(f, line)
            for cand in range(start, end + 1):
                if "DTL002" in self.labels.get((f, cand), set()):
                    return (f, cand, "DTL002")
            return None
        if kind == "attr":
            _, f, cls_name, attr = item
            for cand in sorted(self.attr_lines(f, cls_name, attr)):
                if "DTL005" in self.labels.get((f, cand), set()):
                    return (f, cand, "DTL005")
            return None
        return None

    def explain(self, event):
        """(explained?, labels confirmed by this event)."""
        confirmed = set()
        per_operand = []
        for _dtype, prov in event["operands"]:
            hits = {h for h in (self.explain_item(i, event) for i in prov) if h}
            confirmed |= hits
            per_operand.append(bool(hits))
        if not per_operand:
            return False, confirmed
        ok = any(per_operand) if event["kind"] == "raise" else all(per_operand)
        return ok, confirmed


# --------------------------------------------------------------------------- running
def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts)


def fresh_import(path: Path):
    name = module_name(path)
    top = name.split(".")[0]
    for key in list(sys.modules):
        if key == top or key.startswith(top + "."):
            del sys.modules[key]
    importlib.invalidate_caches()
    return importlib.import_module(name)


def unpack(example_result):
    if not isinstance(example_result, tuple) or len(example_result) not in (2, 3):
        raise TypeError("example() must return (callable, args) or (callable, args, kwargs)")
    fn, args = example_result[0], tuple(example_result[1])
    kwargs = dict(example_result[2]) if len(example_result) == 3 else {}
    return fn, args, kwargs


def modules_of(fn, args, kwargs):
    mods = []
    if isinstance(fn, nn.Module):
        mods.append(fn)
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, nn.Module):
        mods.append(owner)
    for obj in list(args) + list(kwargs.values()):
        if isinstance(obj, nn.Module):
            mods.append(obj)
    return mods


def run_dtype_of(fn, args, kwargs):
    seen = set()
    for t in deep_tensors((args, kwargs), seen):
        if t.dtype in LOW_DTYPES:
            return t.dtype
    for m in modules_of(fn, args, kwargs):
        for t in list(m.parameters()) + list(m.buffers()):
            if t.dtype in LOW_DTYPES:
                return t.dtype
    return torch.float32


def deep_tensors(obj, seen, path="arg"):
    """Tensors reachable from example inputs, also inside plain objects (dataclasses)."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, nn.Module):
        return
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            yield from deep_tensors(item, seen)
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from deep_tensors(item, seen)
    elif hasattr(obj, "__dict__") and not isinstance(obj, type) and not callable(obj):
        for item in vars(obj).values():
            yield from deep_tensors(item, seen)


def deep_tensors_with_path(obj, seen, path):
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, torch.Tensor):
        yield path, obj
    elif isinstance(obj, nn.Module):
        return
    elif isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            yield from deep_tensors_with_path(item, seen, f"{path}[{i}]")
    elif isinstance(obj, dict):
        for k, item in obj.items():
            yield from deep_tensors_with_path(item, seen, f"{path}[{k!r}]")
    elif hasattr(obj, "__dict__") and not isinstance(obj, type) and not callable(obj):
        for k, item in vars(obj).items():
            yield from deep_tensors_with_path(item, seen, f"{path}.{k}")


def float_outputs(out):
    return [t for t in deep_tensors(out, set()) if t.dtype.is_floating_point]


def example_names(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        n.name for n in tree.body
        if isinstance(n, ast.FunctionDef) and (n.name == "example" or n.name.startswith("example_"))
    ]


def run_a(path: Path, ex_name: str):
    """File-level check. Returns (hazard: bool, reasons: list[str], error: str|None, secs)."""
    torch.manual_seed(0)
    np.random.seed(0)
    mod = fresh_import(path)
    t0 = time.perf_counter()
    fn, args, kwargs = unpack(getattr(mod, ex_name)())
    run = run_dtype_of(fn, args, kwargs)
    rec = PlainRecorder()
    reasons, error = [], None
    out = None
    try:
        with rec:
            out = fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001
        if is_dtype_error(exc):
            reasons.append(f"raised: {str(exc).splitlines()[0][:90]}")
        else:
            error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    # Speed: best of three plain runs of example() + call (no recording mode).
    example_fn = getattr(mod, ex_name)
    secs = time.perf_counter() - t0
    for _ in range(3):
        t0 = time.perf_counter()
        fn2, args2, kwargs2 = unpack(example_fn())
        try:
            fn2(*args2, **kwargs2)
        except Exception:  # noqa: BLE001
            pass
        secs = min(secs, time.perf_counter() - t0)
    for name, dtypes, frame in rec.mixed:
        where = f"{frame[0]}:{frame[1]}" if frame else "?"
        reasons.append(f"mixed {name}{tuple(dtypes)} at {where}")
    if out is not None and run in LOW_DTYPES:
        for t in float_outputs(out):
            if t.dtype != run:
                reasons.append(f"output {t.dtype} (run dtype {run})")
    return bool(reasons), reasons, error, secs


def run_b(path: Path, ex_name: str):
    """Per-label check run. Returns (events, error)."""
    torch.manual_seed(0)
    np.random.seed(0)
    setup = ProvRecorder(run_dtype=None)
    with setup:
        mod = fresh_import(path)
        fn, args, kwargs = unpack(getattr(mod, ex_name)())
    run = run_dtype_of(fn, args, kwargs)
    # Example inputs: provenance is the argument itself (cameras as the dataset gives them).
    seen = set()
    for p, t in deep_tensors_with_path((args, kwargs), seen, "input"):
        t._dtl_prov = frozenset({("arg", p)})
    # Plain tensor attributes of the modules involved (not parameters, not buffers).
    for top in modules_of(fn, args, kwargs):
        for m in top.modules():
            for attr, value in vars(m).items():
                if isinstance(value, torch.Tensor) and not isinstance(value, nn.Parameter):
                    src = inspect.getsourcefile(type(m)) or ""
                    if src.startswith(ROOT_STR):
                        add_prov(value, {("attr", rel(src), type(m).__name__, attr)})
    events = []
    rec = ProvRecorder(run_dtype=run, events=events)
    error = None
    out = None
    _RUN_PHASE["active"] = True
    try:
        with rec:
            out = fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001
        error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    finally:
        _RUN_PHASE["active"] = False
    if out is not None and run in LOW_DTYPES:
        for t in float_outputs(out):
            if t.dtype != run:
                events.append({"kind": "output", "op": "return", "frame": None, "detail": "",
                               "operands": [(str(t.dtype), get_prov(t))]})
    return events, error


def describe(event) -> str:
    where = f"{event['frame'][0]}:{event['frame'][1]}" if event["frame"] else "output"
    provs = []
    for dtype, prov in event["operands"]:
        items = []
        for item in sorted(prov, key=str):
            if item[0] in ("factory", "numpy", "cast", "setup-factory", "setup-numpy"):
                items.append(f"{item[0]}@{item[1][1]}")
            elif item[0] == "arg":
                items.append(f"arg {item[1]}")
            else:
                items.append(f"attr self.{item[3]}")
        provs.append(f"{dtype}<{', '.join(items) or 'no provenance'}>")
    return f"{event['kind']} {event['op']} at {where}: {'; '.join(provs)}"


def main(argv):
    targets = [Path(a).resolve() for a in argv] or [ROOT]
    files = []
    for t in targets:
        files += sorted(t.rglob("*.py")) if t.is_dir() else [t]
    files = [f for f in files if str(f) != THIS]
    all_files = [f for f in sorted(ROOT.rglob("*.py")) if str(f) != THIS]
    index = SourceIndex(all_files)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    torch.set_num_threads(1)  # tiny examples; avoids thread contention skewing the timing
    torch.from_numpy = _from_numpy

    confirmed_labels = set()
    file_problems = defaultdict(list)
    file_info = {}
    for path in files:
        r = rel(str(path))
        labels = index.file_labels(r)
        problems = file_problems[r]
        names = example_names(path)
        if "example" not in names:
            problems.append("no example() defined")
        any_hazard, all_reasons, total = False, [], 0.0
        for ex in names:
            try:
                hazard, reasons, error, secs = run_a(path, ex)
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{ex}() failed: {type(exc).__name__}: {exc}")
                continue
            total += secs
            any_hazard |= hazard
            all_reasons += reasons
            if error:
                problems.append(f"{ex}(): non-dtype error: {error}")
            if not labels and hazard:
                problems.append(f"unlabelled but {ex}() shows a hazard: " + "; ".join(reasons[:3]))
            if secs > TIME_LIMIT_S:
                problems.append(f"{ex}() too slow: {secs:.3f}s")
            try:
                events, error_b = run_b(path, ex)
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{ex}() run B failed: {type(exc).__name__}: {exc}")
                events, error_b = [], None
            if error_b:
                problems.append(f"{ex}() run B error: {error_b}")
            for ev in events:
                ok, hits = index.explain(ev)
                confirmed_labels |= hits
                if not ok:
                    problems.append(f"{ex}(): unexplained hazard: " + describe(ev))
        if labels and not any_hazard:
            problems.append("labelled but the bf16 run shows no hazard")
        reasons, secs = all_reasons, total
        file_info[r] = (labels, reasons, secs)

    # Every label must be confirmed by a recorded hazard.
    for (f, line), codes in sorted(index.labels.items()):
        if f not in file_info:
            continue
        for code in sorted(codes):
            if (f, line, code) not in confirmed_labels:
                file_problems[f].append(f"label {code} on line {line} not confirmed at runtime")

    n_ok = n_bad = 0
    n_hazard = n_clean = 0
    per_code = defaultdict(int)
    for path in files:
        r = rel(str(path))
        labels, reasons, secs = file_info.get(r, (set(), [], 0.0))
        for _line, code in labels:
            per_code[code] += 1
        if labels:
            n_hazard += 1
        else:
            n_clean += 1
        problems = file_problems[r]
        tag = ", ".join(f"{c}@{l}" for l, c in sorted(labels)) or "clean"
        if problems:
            n_bad += 1
            print(f"MISMATCH {r} [{tag}]")
            for p in problems:
                print(f"    - {p}")
        else:
            n_ok += 1
            hint = f" ({reasons[0]})" if reasons else ""
            print(f"OK       {r} [{tag}]{hint}")
    codes = ", ".join(f"{c}: {n}" for c, n in sorted(per_code.items()))
    print(
        f"\n{len(files)} files ({n_hazard} hazard, {n_clean} look-alike), "
        f"{sum(per_code.values())} labels ({codes}); {n_ok} OK, {n_bad} MISMATCH"
    )
    return 1 if n_bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
