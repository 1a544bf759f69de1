"""Runtime check of the blind_v4 labels.

For every labelled file beside this script (or in the folder given as the first argument):
  1. import it, call example() (seeded) and run the returned callable plainly under no_grad:
     record the exception (if any) and the dtypes of the outputs;
  2. call example() again and run it under a TorchFunctionMode that records every torch call
     whose floating, non-0-dim tensor operands mix bfloat16 with another floating dtype
     (.to/.type_as/.type and the shape-only expand_as/view_as/reshape_as skipped; inside an enabled autocast region the ops autocast casts
     (matmul family, linear, conv, einsum, sdpa) are skipped; norm layers skipped), coercing
     the mixed operands to bf16 (in-place ops and __setitem__: to the destination's dtype) so
     the run goes on and later sites are seen.
Verdict: a file with `# expect:` labels must raise, mix, or return a non-bf16 floating output;
a look-alike-only file must run clean, with all floating tensor outputs in its run dtype
(bf16, or float32 for files marked `# run-dtype: float32`: datasets, plotting, tests, metrics).
Per label: evidence is a recorded site or exception frame inside the labelled statement's
function at or after the statement ("local"), else one elsewhere in the file ("cross-function",
reviewed by hand), else none.
"""
import ast
import importlib.util
import json
import re
import sys
import traceback
from pathlib import Path

sys.dont_write_bytecode = True
import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

HERE = Path(__file__).resolve()
SET = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE.parent
REPORT = Path(sys.argv[2]) if len(sys.argv) > 2 else SET / "check_report.json"
LABEL_RE = re.compile(r"#\s*expect:\s*([A-Z0-9 ,]+)")

SKIP = {torch.Tensor.to, torch.Tensor.type_as, torch.Tensor.type,
        # shape-only uses of the other tensor
        torch.Tensor.expand_as, torch.Tensor.view_as, torch.Tensor.reshape_as}
AUTOCAST_CAST = {
    torch.matmul, torch.Tensor.matmul, torch.Tensor.__matmul__, torch.Tensor.__rmatmul__,
    torch.mm, torch.Tensor.mm, torch.bmm, torch.Tensor.bmm, torch.addmm, torch.baddbmm,
    torch.einsum, F.linear, F.conv1d, F.conv2d, F.conv3d, F.conv_transpose2d,
    F.scaled_dot_product_attention,
}
NORMS = {F.layer_norm, F.group_norm, F.batch_norm, F.instance_norm}
INPLACE_DUNDER = {"__setitem__", "__iadd__", "__isub__", "__imul__", "__itruediv__"}


def fname(func):
    mod = getattr(func, "__module__", None) or ""
    q = getattr(func, "__qualname__", None) or getattr(func, "__name__", None) or repr(func)
    if mod in ("", "builtins", None) and q.startswith("TensorBase"):
        q = "Tensor" + q[len("TensorBase"):]
    out = f"{mod}.{q}" if mod and not q.startswith("Tensor.") else f"torch.{q}"
    return out.replace("torch._VariableFunctionsClass.", "torch.").replace("torch._C._nn.", "F.").replace(
        "torch.functional.", "torch.")


def flat_tensors(obj, out, depth=0):
    if isinstance(obj, torch.Tensor):
        out.append(obj)
    elif isinstance(obj, (list, tuple)) and depth < 3:
        for o in obj:
            flat_tensors(o, out, depth + 1)
    elif isinstance(obj, dict) and depth < 3:
        for o in obj.values():
            flat_tensors(o, out, depth + 1)
    return out


def coerce(obj, dtype, depth=0):
    if isinstance(obj, torch.Tensor):
        if obj.is_floating_point() and obj.dim() > 0 and obj.dtype != dtype:
            return obj.to(dtype)
        return obj
    if isinstance(obj, list) and depth < 3:
        return [coerce(o, dtype, depth + 1) for o in obj]
    if isinstance(obj, tuple) and depth < 3:
        return tuple(coerce(o, dtype, depth + 1) for o in obj)
    return obj


def file_frames(path, start_frame=None, tb=None):
    """Lines of `path` on the stack (innermost first)."""
    out = []
    if tb is not None:
        for fs in reversed(traceback.extract_tb(tb)):
            if Path(fs.filename).resolve() == path:
                out.append([fs.lineno, fs.name])
        return out
    f = start_frame
    while f is not None:
        if Path(f.f_code.co_filename).resolve() == path:
            out.append([f.f_lineno, f.f_code.co_name])
        f = f.f_back
    return out


class MixRecorder(TorchFunctionMode):
    def __init__(self, path):
        super().__init__()
        self.path = path
        self.sites = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in SKIP or func in NORMS:
            return func(*args, **kwargs)
        if func in AUTOCAST_CAST and torch.is_autocast_enabled("cpu"):
            return func(*args, **kwargs)
        tensors = flat_tensors(list(args), []) + flat_tensors(list(kwargs.values()), [])
        fl = {t.dtype for t in tensors if t.is_floating_point() and t.dim() > 0}
        if torch.bfloat16 in fl and len(fl) > 1:
            name = getattr(func, "__name__", "")
            frames = file_frames(self.path, sys._getframe(1))
            site = {"op": fname(func), "dtypes": sorted(str(d).replace("torch.", "") for d in fl),
                    "line": frames[0][0] if frames else None, "frames": frames}
            inplace = name in INPLACE_DUNDER or (name.endswith("_") and not name.startswith("__"))
            if inplace and args and isinstance(args[0], torch.Tensor):
                tgt = args[0].dtype
                args = (args[0],) + tuple(coerce(a, tgt) for a in args[1:])
                kwargs = {k: coerce(v, tgt) for k, v in kwargs.items()}
            else:
                args = tuple(coerce(a, torch.bfloat16) for a in args)
                kwargs = {k: coerce(v, torch.bfloat16) for k, v in kwargs.items()}
            try:
                res = func(*args, **kwargs)
                site["result"] = str(res.dtype).replace("torch.", "") if isinstance(res, torch.Tensor) else type(res).__name__
            except Exception as e:  # noqa: BLE001
                site["raised_after_coercion"] = f"{type(e).__name__}: {e}"[:200]
                self.sites.append(site)
                raise
            self.sites.append(site)
            return res
        return func(*args, **kwargs)


def out_dtypes(obj):
    ts = flat_tensors(obj, [])
    return [str(t.dtype).replace("torch.", "") for t in ts]


def call_example(mod):
    torch.manual_seed(0)
    ex = mod.example()
    fn, args = ex[0], ex[1]
    kwargs = ex[2] if len(ex) > 2 else {}
    return fn, args, kwargs


def run(mod, path, record):
    res = {"exception": None, "exc_frames": [], "outputs": [], "sites": []}
    fn, args, kwargs = call_example(mod)
    torch.manual_seed(1)
    rec = MixRecorder(path) if record else None
    try:
        with torch.no_grad():
            if rec is not None:
                with rec:
                    out = fn(*args, **kwargs)
            else:
                out = fn(*args, **kwargs)
        res["outputs"] = out_dtypes(out)
    except Exception as e:  # noqa: BLE001
        res["exception"] = f"{type(e).__name__}: {e}"[:300]
        res["exc_frames"] = file_frames(path, tb=e.__traceback__)
    if rec is not None:
        res["sites"] = rec.sites
    return res


def labels_of(src):
    labels = {}
    for i, line in enumerate(src.splitlines(), 1):
        m = LABEL_RE.search(line)
        if m:
            labels[i] = [c.strip() for c in m.group(1).split(",") if c.strip()]
    return labels


def stmt_and_func(tree, line):
    """(start line of the innermost statement containing `line`, (start, end) of its function)."""
    best_stmt, best_func = None, None
    for node in ast.walk(tree):
        if not hasattr(node, "lineno") or not hasattr(node, "end_lineno"):
            continue
        if node.lineno <= line <= node.end_lineno:
            if isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.With, ast.For, ast.If)):
                if best_stmt is None or node.lineno >= best_stmt.lineno:
                    best_stmt = node
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if best_func is None or node.lineno >= best_func.lineno:
                    best_func = node
    s = best_stmt.lineno if best_stmt else line
    f = (best_func.lineno, best_func.end_lineno) if best_func else (1, 10 ** 9)
    return s, f


def main():
    report = {"set": str(SET), "torch": torch.__version__, "files": {}}
    n_ok = 0
    files = sorted(p for p in SET.glob("*.py") if p.resolve() != HERE)
    for path in files:
        src = path.read_text()
        labels = labels_of(src)
        run_dtype = "float32" if re.search(r"^# run-dtype: float32", src, re.M) else "bfloat16"
        spec = importlib.util.spec_from_file_location(f"blindv4_{path.stem}", path)
        mod = importlib.util.module_from_spec(spec)
        entry = {"labels": {str(k): v for k, v in labels.items()}, "run_dtype": run_dtype,
                 "n_lines": len(src.splitlines())}
        try:
            spec.loader.exec_module(mod)
            entry["plain"] = run(mod, path.resolve(), record=False)
            entry["traced"] = run(mod, path.resolve(), record=True)
        except Exception as e:  # noqa: BLE001
            entry["import_error"] = f"{type(e).__name__}: {e}"
            entry["verdict"] = "INCONSISTENT (import/example error)"
            report["files"][path.name] = entry
            continue
        plain, traced = entry["plain"], entry["traced"]
        raised = plain["exception"] is not None
        mixed = bool(traced["sites"])
        fl_out = [d for d in plain["outputs"] if d in ("float16", "bfloat16", "float32", "float64")]
        off_dtype = [d for d in fl_out if d != run_dtype]
        tree = ast.parse(src)
        if labels:
            ok = raised or mixed or bool(off_dtype)
            evid = {}
            points = [(s["frames"], f"{s['op']}({', '.join(s['dtypes'])})") for s in traced["sites"]]
            if raised:
                points.append((plain["exc_frames"], "raised: " + plain["exception"][:80]))
            if traced["exception"]:
                points.append((traced["exc_frames"], "raised (traced): " + traced["exception"][:80]))
            for ln in labels:
                s, (f0, f1) = stmt_and_func(tree, ln)
                local = [desc + f" at line {fr[0][0] if fr else '?'}" for fr, desc in points
                         if any(s <= l <= f1 for l, _ in fr)]
                if local:
                    evid[str(ln)] = {"kind": "local", "sites": local[:4]}
                elif points:
                    evid[str(ln)] = {"kind": "cross-function",
                                     "sites": [desc + f" at line {fr[0][0] if fr else '?'}" for fr, desc in points][:4]}
                elif off_dtype:
                    evid[str(ln)] = {"kind": "output-dtype", "sites": off_dtype}
                else:
                    evid[str(ln)] = {"kind": "none", "sites": []}
            entry["label_evidence"] = evid
            entry["verdict"] = "consistent (hazard shows)" if ok else "INCONSISTENT (hazard does not show)"
        else:
            ok = (not raised and not mixed and traced["exception"] is None and not off_dtype
                  and (bool(fl_out) or run_dtype == "float32"))
            entry["verdict"] = "consistent (clean)" if ok else "INCONSISTENT (look-alike not clean)"
        entry["kind"] = "hazard" if labels else "lookalike"
        n_ok += ok
        report["files"][path.name] = entry
    report["summary"] = {
        "files": len(files),
        "hazard_files": sum(1 for e in report["files"].values() if e.get("labels")),
        "lookalike_files": sum(1 for e in report["files"].values() if not e.get("labels")),
        "consistent": n_ok,
        "inconsistent": [k for k, e in report["files"].items() if not e["verdict"].startswith("consistent")],
    }
    REPORT.write_text(json.dumps(report, indent=1))
    for k, e in report["files"].items():
        extra = ""
        if e.get("label_evidence"):
            kinds = {v["kind"] for v in e["label_evidence"].values()}
            extra = " evidence=" + ",".join(sorted(kinds))
        print(f"{k:40s} {e['verdict']}{extra}")
    print(json.dumps(report["summary"], indent=1))


if __name__ == "__main__":
    main()
