"""Runtime check of the blind_v6 labels.

For every file of /work/blind_v6 (package modules imported as such), import it, call
``example()``, run the returned callable, and record every torch call whose floating operands
have mixed dtypes (TorchFunctionMode): calls that raise, calls that promote a run-dtype operand
to a wider dtype, and writes of run-dtype values into a wider buffer. Each tensor made by a call
that starts on a labelled line (``# expect: ...``) is tainted with that label, and the taint
follows every value computed from it; an event whose off-dtype operand carries a label's taint
(or, for an untainted off-dtype operand such as a float32 camera argument, whose call spans the
labelled line) confirms that label. Raising and promoting calls are recovered (operands or
results cast to the run dtype) so that later hazards of the same example are reached too.

A hazard file is consistent when every label is confirmed and no event is left unexplained; a
look-alike file when its run has no event, no error, and floating outputs in the expected dtype.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
import traceback
from pathlib import Path

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_flatten, tree_map

ROOT = (Path(__file__).resolve().parent.parent / "blind_v6")
REPORT = (Path(__file__).resolve().parent / "check_report.json")

EXPECT_RE = re.compile(r"#\s*expect:\s*(DTL\d{3}(?:\s*,\s*DTL\d{3})*)")
RUN_DTYPE_RE = re.compile(r"^#\s*run-dtype:\s*(\w+)")
OUT_DTYPE_RE = re.compile(r"^#\s*output-dtype:\s*(\w+)")

# Calls that only look at another tensor's dtype/shape/device, or that are casts: never events.
NEUTRAL = {
    "to", "type_as", "type", "expand_as", "view_as", "reshape_as", "broadcast_to",
    "new_zeros", "new_ones", "new_empty", "new_full", "new_tensor",
    "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like",
    "__get__", "__set__", "size", "dim", "is_floating_point", "numel",
}

TAINT = "_dtl_taint"
FACTORIES = {"arange", "tensor", "as_tensor", "full", "zeros", "ones", "empty", "linspace", "logspace", "eye",
             "rand", "randn"}


def taint_of(t) -> frozenset:
    return getattr(t, TAINT, frozenset()) if isinstance(t, torch.Tensor) else frozenset()


def add_taint(t, labels) -> None:
    if isinstance(t, torch.Tensor) and labels:
        try:
            setattr(t, TAINT, taint_of(t) | frozenset(labels))
        except Exception:  # noqa: BLE001
            pass


def user_frames():
    """Frames of files under ROOT, innermost first, with (file, start, end) of the instruction."""
    out = []
    f = sys._getframe(2)
    while f is not None:
        fn = f.f_code.co_filename
        if fn.startswith(str(ROOT) + "/"):
            try:
                pos = list(f.f_code.co_positions())[f.f_lasti // 2]
                start, end = pos[0] or f.f_lineno, pos[1] or f.f_lineno
            except Exception:  # noqa: BLE001
                start = end = f.f_lineno
            out.append((fn, start, end))
        f = f.f_back
    return out


class Recorder(TorchFunctionMode):
    def __init__(self, run_dtype, labels, fix=False):
        super().__init__()
        self.fix = fix  # simulate the labelled fixes: values made on a labelled line take the run dtype
        self.run_dtype = run_dtype
        self.labels = labels  # {(file, line): [codes]}
        self.events = []
        self.confirmed = {}  # (file, line) -> set of reasons

    # -- helpers -----------------------------------------------------------------------
    def _label_lines_in(self, fn, start, end):
        return [(f, ln) for (f, ln) in self.labels if f == fn and start <= ln <= end]

    def _record(self, kind, name, odd, frames, dtypes, message=""):
        fn, start, end = frames[0] if frames else ("?", 0, 0)
        taints = set()
        untainted = False
        for t in odd:
            tt = taint_of(t)
            taints |= tt
            if not tt:
                untainted = True
        via = []
        for key in taints:
            self.confirmed.setdefault(key, set()).add(f"taint:{kind}:{name}@{Path(fn).name}:{start}")
            via.append(f"{Path(key[0]).name}:{key[1]}")
        # an untainted off-dtype operand (a camera argument) is explained by a label inside the
        # call's span; a camera operand written as a bare name on its own line (DTL002) also
        # counts when the operand carries another label's taint
        span_keys = self._label_lines_in(fn, start, end)
        if not untainted:
            span_keys = [k for k in span_keys if "DTL002" in self.labels[k] and k not in taints]
        for key in span_keys:
            self.confirmed.setdefault(key, set()).add(f"span:{kind}:{name}@{Path(fn).name}:{start}")
            via.append(f"{Path(key[0]).name}:{key[1]}(span)")
        explained = bool(taints) or bool(span_keys)
        self.events.append({
            "kind": kind, "op": name, "dtypes": dtypes, "at": f"{Path(fn).relative_to(ROOT) if fn != '?' else fn}:{start}",
            "explained_by": via, "explained": explained, "message": message[:160],
        })

    # -- the mode ------------------------------------------------------------------------
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", str(func))
        frames = user_frames()
        flat, _ = tree_flatten((args, kwargs))
        tensors = [t for t in flat if isinstance(t, torch.Tensor)]
        floats = [t for t in tensors if t.is_floating_point()]
        fdtypes = {t.dtype for t in floats}
        # taint flows only through off-dtype values (a float32 factory, a float64 array, an int64
        # literal vector): a run-dtype value computed on a labelled line explains nothing downstream
        off = [t for t in tensors if t.dtype != self.run_dtype and t.dtype != torch.bool]
        in_taint = frozenset().union(*[taint_of(t) for t in off]) if off else frozenset()
        new_taint = set()
        if frames:
            fn, start, _ = frames[0]
            if (fn, start) in self.labels:
                new_taint.add((fn, start))
        post_cast = False
        if self.fix and frames and (frames[0][0], frames[0][1]) in self.labels:
            # operands are cast only for a call written on the labelled line alone (a bare camera
            # name in `torch.matmul(P, points)`); a call spanning several lines is recorded as
            # usual (its other lines may hold a hazard of their own) and only its result is cast
            if frames[0][1] == frames[0][2]:
                return self._fixed_call(func, name, args, kwargs)
            post_cast = True
        inplace = (name.endswith("_") and not name.startswith("__")) or name == "__setitem__" or (
            name.startswith("__i") and name.endswith("__") and name not in ("__index__", "__invert__", "__int__", "__iter__"))
        mixed = len(fdtypes) > 1 and name not in NEUTRAL
        try:
            result = func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001
            ints = [t for t in tensors if not t.is_floating_point() and not t.is_complex()
                    and t.dtype != torch.bool and t.dim() > 0]
            int_float_clash = (bool(ints) and bool(floats) and name not in NEUTRAL
                               and ("scalar type" in str(exc) or "dtype" in str(exc)))
            if int_float_clash and not mixed:
                # an integer tensor (a literal vector made without dtype=) where a float is needed
                self._record("raised", name, ints, frames, sorted(str(t.dtype) for t in ints + floats[:1]), str(exc))
                fix_i = lambda t: t.to(self.run_dtype) if isinstance(t, torch.Tensor) and any(t is i for i in ints) else t  # noqa: E731
                args2, kwargs2 = tree_map(fix_i, (args, kwargs))
                result = func(*args2, **kwargs2)
                for t in tree_flatten(result)[0]:
                    add_taint(t, in_taint | new_taint)
                return result
            if not mixed:
                raise
            odd = [t for t in floats if t.dtype != self.run_dtype]
            if inplace and args and isinstance(args[0], torch.Tensor):
                target = args[0]
                odd = [target] if target.dtype != self.run_dtype else [t for t in floats if t is not target and t.dtype != target.dtype]
            self._record("raised", name, odd, frames, sorted(str(d) for d in fdtypes), str(exc))
            # recover: cast the floating operands so the example goes on
            if inplace and args and isinstance(args[0], torch.Tensor):
                tgt = args[0]
                fix = lambda t: t.to(tgt.dtype) if isinstance(t, torch.Tensor) and t is not tgt and t.is_floating_point() else t  # noqa: E731
            else:
                fix = lambda t: t.to(self.run_dtype) if isinstance(t, torch.Tensor) and t.is_floating_point() else t  # noqa: E731
            args2, kwargs2 = tree_map(fix, (args, kwargs))
            result = func(*args2, **kwargs2)
            add_all = in_taint | new_taint
            for t in tree_flatten(result)[0]:
                add_taint(t, add_all)
            return result
        if mixed:
            if inplace and args and isinstance(args[0], torch.Tensor) and args[0].is_floating_point():
                target = args[0]
                others = [t for t in floats if t is not target]
                if target.dtype != self.run_dtype and any(t.dtype == self.run_dtype for t in others):
                    self._record("mixed-write", name, [target], frames, sorted(str(d) for d in fdtypes))
            else:
                outs = [t for t in tree_flatten(result)[0] if isinstance(t, torch.Tensor) and t.is_floating_point()]
                has_run_operand = any(t.dtype == self.run_dtype and t.dim() > 0 for t in floats)
                if has_run_operand and any(o.dtype != self.run_dtype for o in outs):
                    odd = [t for t in floats if t.dtype != self.run_dtype]
                    self._record("promoted", name, odd, frames, sorted(str(d) for d in fdtypes))
                    result = tree_map(lambda t: t.to(self.run_dtype) if isinstance(t, torch.Tensor) and t.is_floating_point() else t, result)
        add_all = in_taint | new_taint
        if add_all:
            for t in tree_flatten(result)[0]:
                add_taint(t, add_all)
        if post_cast and not inplace:
            result = tree_map(lambda t: t.to(self.run_dtype) if isinstance(t, torch.Tensor) and t.dtype != self.run_dtype and (
                t.is_floating_point() or name in FACTORIES and t.dtype != torch.bool) else t, result)
        return result


def _fixed_call(self, func, name, args, kwargs, cast_inputs=True):
    """A call on a labelled line in the fix simulation: floating operands and results take the
    run dtype (the cast each rule's fix adds: dtype= at creation, .to(x.dtype) on the camera or
    mask, a registered buffer converted by module.to); a factory's integer result too (dtype=)."""
    def cast(t):
        if isinstance(t, torch.Tensor) and t.is_floating_point() and t.dtype != self.run_dtype:
            return t.to(self.run_dtype)
        return t
    inplace = (name.endswith("_") and not name.startswith("__")) or name == "__setitem__" or (
        name.startswith("__i") and name.endswith("__") and name not in ("__index__", "__invert__", "__int__", "__iter__"))
    if not cast_inputs:
        args2, kwargs2 = args, kwargs
    elif inplace:
        a0 = args[0] if args else None
        args2 = (a0,) + tuple(tree_map(cast, tuple(args[1:])))
        kwargs2 = tree_map(cast, kwargs)
    else:
        args2, kwargs2 = tree_map(cast, (tuple(args), kwargs))
    result = func(*args2, **kwargs2)
    if inplace:
        return result
    factories = FACTORIES

    def cast_out(t):
        if isinstance(t, torch.Tensor) and t.dtype != self.run_dtype and (
                t.is_floating_point() or (name in factories and t.dtype != torch.bool)):
            return t.to(self.run_dtype)
        return t
    return tree_map(cast_out, result)


Recorder._fixed_call = _fixed_call


def fixed_run_clean(path: Path, labels, run_dtype, out_dtype) -> dict:
    """Run the example again with the labelled fixes simulated: it must run clean."""
    rec = Recorder(run_dtype, labels, fix=True)
    torch.manual_seed(0)
    try:
        mod = importlib.import_module(module_name(path))
        with torch.no_grad(), rec:
            ex = mod.example()
            out = ex[0](*ex[1], **(ex[2] if len(ex) > 2 else {}))
    except Exception as exc:  # noqa: BLE001
        return {"clean": False, "error": f"{type(exc).__name__}: {exc}"}
    bad_out = [str(t.dtype) for t in tree_flatten(out)[0]
               if isinstance(t, torch.Tensor) and t.is_floating_point() and t.dtype != out_dtype]
    return {"clean": not rec.events and not bad_out, "events": [f"{e['kind']} {e['op']} at {e['at']}" for e in rec.events],
            "bad_outputs": bad_out}


def parse_labels(path: Path):
    labels = {}
    run_dtype, out_dtype = "bfloat16", None
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines, 1):
        m = EXPECT_RE.search(line)
        if m:
            labels[(str(path), i)] = [c.strip() for c in m.group(1).split(",")]
        if i <= 5:
            m = RUN_DTYPE_RE.match(line.strip())
            if m:
                run_dtype = m.group(1)
            m = OUT_DTYPE_RE.match(line.strip())
            if m:
                out_dtype = m.group(1)
    return labels, run_dtype, out_dtype


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    return ".".join(rel.parts)


def check_file(path: Path, all_labels):
    labels, run_dtype_name, out_dtype_name = parse_labels(path)
    run_dtype = getattr(torch, run_dtype_name)
    out_dtype = getattr(torch, out_dtype_name) if out_dtype_name else run_dtype
    entry = {
        "file": str(path.relative_to(ROOT)),
        "kind": "hazard" if labels else "lookalike",
        "run_dtype": run_dtype_name,
        "labels": [],
        "events": [],
        "error": None,
        "outputs": [],
    }
    # labels of every file count for taint (helpers in other files of a package)
    rec = Recorder(run_dtype, all_labels)
    torch.manual_seed(0)
    prev_default = torch.get_default_dtype()
    try:
        mod = importlib.import_module(module_name(path))
        with torch.no_grad(), rec:
            ex = mod.example()
            fn, args = ex[0], ex[1]
            kwargs = ex[2] if len(ex) > 2 else {}
            out = fn(*args, **kwargs)
        for t in tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor):
                entry["outputs"].append(str(t.dtype))
                if t.is_floating_point() and t.dtype != out_dtype:
                    # an output in the wrong dtype: explained by its taint, else unexplained
                    fake = Recorder(run_dtype, all_labels)
                    fake._record("output", "return", [t], [], [str(t.dtype)])
                    ev = fake.events[-1]
                    for key, why in fake.confirmed.items():
                        rec.confirmed.setdefault(key, set()).update(why)
                    rec.events.append(ev)
    except Exception as exc:  # noqa: BLE001
        entry["error"] = f"{type(exc).__name__}: {exc}"
        entry["traceback"] = traceback.format_exc()[-1500:]
    finally:
        torch.set_default_dtype(prev_default)
    entry["events"] = rec.events
    own = {k: v for k, v in labels.items()}
    for (f, ln), codes in sorted(own.items(), key=lambda kv: kv[0][1]):
        why = sorted(rec.confirmed.get((f, ln), set()))
        entry["labels"].append({"line": ln, "codes": codes, "confirmed": bool(why), "evidence": why[:4]})
    unexplained = [e for e in rec.events if not e["explained"]]
    if labels:
        # labels of every file of the run count (a package helper's label is fixed too)
        entry["fixed_run"] = fixed_run_clean(path, all_labels, run_dtype, out_dtype)
        entry["raised"] = any(e["kind"] == "raised" for e in rec.events)
        entry["promoted"] = any(e["kind"] in ("promoted", "mixed-write", "output") for e in rec.events)
        entry["consistent"] = (entry["error"] is None and all(l["confirmed"] for l in entry["labels"])
                               and not unexplained and entry["fixed_run"]["clean"])
    else:
        entry["raised"] = False
        entry["promoted"] = False
        entry["consistent"] = entry["error"] is None and not rec.events
    entry["unexplained_events"] = len(unexplained)
    return entry


def main(argv):
    sys.path.insert(0, str(ROOT))
    files = sorted(p for p in ROOT.rglob("*.py") if p.name != "__init__.py")
    if argv:
        files = [p for p in files if any(a in str(p) for a in argv)]
    all_labels = {}
    for p in sorted(ROOT.rglob("*.py")):
        all_labels.update(parse_labels(p)[0])
    results = [check_file(p, all_labels) for p in files]
    n_ok = sum(r["consistent"] for r in results)
    summary = {
        "files": len(results),
        "consistent": n_ok,
        "hazard_files": sum(r["kind"] == "hazard" for r in results),
        "lookalike_files": sum(r["kind"] == "lookalike" for r in results),
        "labels": sum(len(r["labels"]) for r in results),
        "labels_confirmed": sum(l["confirmed"] for r in results for l in r["labels"]),
        "hazard_files_clean_after_simulated_fix": sum(bool(r.get("fixed_run", {}).get("clean")) for r in results),
        "torch": torch.__version__,
    }
    for r in results:
        flag = "ok " if r["consistent"] else "BAD"
        info = ",".join(f"{l['line']}:{'/'.join(l['codes'])}{'' if l['confirmed'] else '(unconfirmed)'}" for l in r["labels"])
        fx = r.get("fixed_run")
        fxs = "" if fx is None else (" fixed-run=clean" if fx["clean"] else f" fixed-run=NOT CLEAN {fx}")
        print(f"{flag} {r['kind']:9s} {r['file']:45s} {info} events={len(r['events'])} unexplained={r['unexplained_events']}{fxs} {r['error'] or ''}")
    print(json.dumps(summary))
    if not argv:
        REPORT.write_text(json.dumps({"summary": summary, "files": results}, indent=1))
    return 0 if n_ok == len(results) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
