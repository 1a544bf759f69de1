"""Runtime check of the blind_v7 labels.

For every file of /work/blind_v7: import it (package modules by dotted name, so relative imports
work), call example(), run the callable and record, with a TorchFunctionMode, every torch call
that raises, every call whose floating operands have mixed dtypes and whose floating result is
wider than the narrowest floating operand (silent promotion, e.g. bf16 + float32 -> float32),
every index assignment that writes a narrower activation into a wider tensor, and every floating
output (not 0-dim) of the example whose dtype is not the run dtype. 0-dim tensors are ignored
(type promotion treats them as numbers), and explicit casts (.to/.float/.type_as/...) are not
promotions.

A hazard file (at least one `# expect:` label) is consistent when its bf16 run shows a hazard
(an exception, a promotion, a widened write or a non-bf16 output). A look-alike file is
consistent when its run is clean: in bf16, or in float32 for files whose first line is
`# run-dtype: float32`.

Usage: python check_labels.py [ROOT] [REPORT]
"""
import importlib
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
import traceback

import torch
from torch.overrides import TorchFunctionMode

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from label_fixes import FIXES, REGISTER  # noqa: E402

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "blind_v7"))
REPORT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_report.json")

EXPECT_RE = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")
CAST_NAMES = {"to", "type", "type_as", "float", "double", "half", "bfloat16", "copy_", "clone",
              "detach", "contiguous", "numpy", "tolist", "item", "cpu", "cuda"}
DTYPE_ERR = re.compile(r"dtype|scalar type|BFloat16|Float|Double|Half", re.I)
WIDTH = {torch.bfloat16: 16, torch.float16: 16, torch.float32: 32, torch.float64: 64}


def _tensors(obj, out):
    if isinstance(obj, torch.Tensor):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            _tensors(o, out)
    elif isinstance(obj, dict):
        for o in obj.values():
            _tensors(o, out)
    return out


CUR = {"root": ROOT}


def _user_frames():
    root = CUR["root"]
    frames = []
    for fs in traceback.extract_stack():
        fn = os.path.abspath(fs.filename)
        if fn.startswith(root + os.sep):
            frames.append(f"{os.path.relpath(fn, root)}:{fs.lineno}")
    return frames


def _fname(func):
    return getattr(func, "__name__", None) or repr(func)


class Recorder(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.events = []

    def _record(self, kind, func, dtypes, out_dtype=None):
        frames = _user_frames()
        self.events.append({
            "kind": kind, "op": _fname(func), "operand_dtypes": sorted(str(d) for d in dtypes),
            "result_dtype": str(out_dtype) if out_dtype is not None else None,
            "at": frames[-1] if frames else None, "stack": frames[-4:],
        })

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = _fname(func)
        ins = [t for t in _tensors(list(args) + list(kwargs.values()), []) if t.dim() > 0]
        fdt = {t.dtype for t in ins if t.is_floating_point()}
        try:
            out = func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001
            self._record("raised", func, fdt)
            self.events[-1]["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
            raise
        if name in CAST_NAMES or name.startswith("new_") or name.endswith("_like"):
            return out
        if name == "__setitem__" and len(args) >= 3 and isinstance(args[0], torch.Tensor):
            dst, val = args[0], args[2]
            if (isinstance(val, torch.Tensor) and val.dim() > 0 and val.is_floating_point()
                    and dst.is_floating_point() and WIDTH.get(dst.dtype, 0) > WIDTH.get(val.dtype, 0)):
                self._record("widened-write", func, {dst.dtype, val.dtype}, dst.dtype)
            return out
        if len(fdt) > 1:
            outs = [t for t in _tensors(out, []) if t.is_floating_point()]
            narrow = min(WIDTH.get(d, 0) for d in fdt)
            if any(WIDTH.get(t.dtype, 0) > narrow for t in outs):
                self._record("promoted", func, fdt, outs[0].dtype)
        return out


def parse_file(path):
    with open(path) as fh:
        lines = fh.read().splitlines()
    labels = {}
    for i, line in enumerate(lines, 1):
        m = EXPECT_RE.search(line)
        if m:
            labels[i] = [c.strip() for c in m.group(1).split(",") if c.strip()]
    run_dtype = "float32" if lines and re.match(r"#\s*run-dtype:\s*float32", lines[0]) else "bfloat16"
    return labels, run_dtype, len(lines)


_VARIANT = {"n": 0}


def load(path, root=None):
    root = root or ROOT
    rel = os.path.relpath(path, root)
    parts = rel[:-3].split(os.sep)
    d = os.path.dirname(path)
    if os.path.exists(os.path.join(d, "__init__.py")):
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if root != ROOT or parts[0] in sys.modules and not sys.modules[parts[0]].__file__.startswith(root + os.sep):
            for k in [k for k in sys.modules if k == parts[0] or k.startswith(parts[0] + ".")]:
                del sys.modules[k]
        sys.path.insert(0, root)
        try:
            return importlib.import_module(".".join(parts))
        finally:
            sys.path.remove(root)
    _VARIANT["n"] += 1
    name = f"blindv7_{_VARIANT['n']}_" + "_".join(parts)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def run_one(path):
    labels, run_dtype, nlines = parse_file(path)
    rec = {"file": os.path.relpath(path, ROOT), "lines": nlines, "run_dtype": run_dtype,
           "labels": {str(k): v for k, v in labels.items()},
           "kind": "hazard" if labels else "lookalike"}
    torch.manual_seed(0)
    mode = Recorder()
    try:
        mod = load(path)
        ex = mod.example()
        fn, args = ex[0], ex[1]
        kwargs = ex[2] if len(ex) > 2 else {}
        with torch.no_grad(), mode:
            out = fn(*args, **kwargs)
        want = torch.float32 if run_dtype == "float32" else torch.bfloat16
        for t in _tensors(out, []):
            if t.is_floating_point() and t.dim() > 0 and t.dtype != want:
                mode.events.append({"kind": "output-dtype", "op": "example output",
                                    "result_dtype": str(t.dtype), "at": None})
        rec["raised"] = None
    except Exception as exc:  # noqa: BLE001
        rec["raised"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
        tb = [f"{os.path.relpath(os.path.abspath(f.filename), ROOT)}:{f.lineno}"
              for f in traceback.extract_tb(exc.__traceback__)
              if os.path.abspath(f.filename).startswith(ROOT + os.sep)]
        rec["raised_at"] = tb[-1] if tb else None
    rec["events"] = mode.events[:8]
    rec["n_events"] = len(mode.events)
    dtype_error = bool(rec["raised"]) and bool(DTYPE_ERR.search(rec["raised"]))
    hazard_seen = dtype_error or bool(mode.events)
    rec["runtime"] = "hazard" if hazard_seen else ("error" if rec["raised"] else "clean")
    if run_dtype == "bfloat16":
        rec["float32_reference"] = reference_run(path)
    ref_ok = rec.get("float32_reference", "ok") == "ok"
    if labels:
        rec["consistent"] = hazard_seen and ref_ok
    else:
        rec["consistent"] = not hazard_seen and not rec["raised"]
    return rec


def _to32(obj):
    if isinstance(obj, torch.Tensor):
        return obj.float() if obj.dtype in (torch.bfloat16, torch.float16) else obj
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to32(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _to32(v) for k, v in obj.items()}
    return obj


def reference_run(path):
    """The same example with the module and the bf16 inputs in float32: must run (the hazard is
    a dtype hazard, not a bug of the example)."""
    try:
        torch.manual_seed(0)
        mod = load(path)
        ex = mod.example()
        fn, args = ex[0], ex[1]
        kwargs = ex[2] if len(ex) > 2 else {}
        if isinstance(fn, torch.nn.Module):
            fn = fn.float()
        with torch.no_grad():
            fn(*_to32(args), **_to32(kwargs))
        return "ok"
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"


def execute(root, rel, run_dtype):
    """Run one file's example from `root`; return (raised, events)."""
    CUR["root"] = root
    torch.manual_seed(0)
    mode = Recorder()
    raised = None
    try:
        mod = load(os.path.join(root, rel), root)
        ex = mod.example()
        fn, args = ex[0], ex[1]
        kwargs = ex[2] if len(ex) > 2 else {}
        with torch.no_grad(), mode:
            out = fn(*args, **kwargs)
        want = torch.float32 if run_dtype == "float32" else torch.bfloat16
        for t in _tensors(out, []):
            if t.is_floating_point() and t.dim() > 0 and t.dtype != want:
                mode.events.append({"kind": "output-dtype", "op": "example output", "result_dtype": str(t.dtype), "at": None})
    except Exception as exc:  # noqa: BLE001
        raised = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160] if str(exc) else ''}"
    finally:
        CUR["root"] = ROOT
        if root != ROOT:  # drop the variant's package modules
            for k in [k for k, m in sys.modules.items() if getattr(m, "__file__", None) and str(m.__file__).startswith(root + os.sep)]:
                del sys.modules[k]
    return raised, mode.events


def apply_fix(line, fix):
    code, sep, comment = line.partition("#")
    if fix == REGISTER:
        m = re.match(r"^(\s*)self\.(\w+)\s*=\s*(.+?)\s*$", code)
        assert m, line
        return f'{m.group(1)}self.register_buffer("{m.group(2)}", {m.group(3)}, persistent=False)  #{comment}'
    old, new = fix
    assert code.count(old) == 1, (line, old)
    return code.replace(old, new) + sep + comment


def fix_variants(rec):
    """All-fixed variant (must run clean in bf16) and, for files with several labels, leave-one-out
    variants (each must still show a hazard): every label is needed and together they are complete."""
    rel = rec["file"]
    fixes = FIXES.get(rel)
    lines_with_labels = sorted(int(k) for k in rec["labels"])
    if fixes is None or len(fixes) != len(lines_with_labels):
        return {"status": "no-fix-table", "ok": False}
    with open(os.path.join(ROOT, rel)) as fh:
        src = fh.read().splitlines()
    result = {"variants": []}
    subsets = [("all-fixed", set(range(len(fixes))))]
    if len(fixes) > 1:
        subsets += [(f"all-but-line-{lines_with_labels[i]}", set(range(len(fixes))) - {i}) for i in range(len(fixes))]
    ok = True
    for name, chosen in subsets:
        patched = list(src)
        for i in chosen:
            ln = lines_with_labels[i]
            patched[ln - 1] = apply_fix(patched[ln - 1], fixes[i])
        tmp = tempfile.mkdtemp(prefix="blindv7_")
        troot = os.path.join(tmp, "tree")
        shutil.copytree(ROOT, troot, ignore=shutil.ignore_patterns("__pycache__"))
        with open(os.path.join(troot, rel), "w") as fh:
            fh.write("\n".join(patched) + "\n")
        raised, events = execute(troot, rel, rec["run_dtype"])
        shutil.rmtree(tmp, ignore_errors=True)
        hazard = bool(raised) or bool(events)
        want_hazard = name != "all-fixed"
        good = hazard == want_hazard
        ok &= good
        result["variants"].append({"variant": name, "raised": raised, "n_events": len(events),
                                   "first_event": events[0] if events else None, "as_expected": good})
    result["ok"] = ok
    return result


def main():
    sys.path.insert(0, ROOT)
    files = []
    for d, dirs, fs in os.walk(ROOT):
        dirs[:] = sorted(x for x in dirs if not x.startswith((".", "__")))
        files += [os.path.join(d, f) for f in sorted(fs) if f.endswith(".py")]
    results = [run_one(p) for p in files]
    for r in results:
        if r["labels"]:
            r["label_fixes"] = fix_variants(r)
            r["consistent"] = r["consistent"] and r["label_fixes"]["ok"]
    per_rule = {}
    for r in results:
        for codes in r["labels"].values():
            for c in codes:
                per_rule[c] = per_rule.get(c, 0) + 1
    summary = {
        "files": len(results),
        "hazard_files": sum(r["kind"] == "hazard" for r in results),
        "lookalike_files": sum(r["kind"] == "lookalike" for r in results),
        "labels_per_rule": dict(sorted(per_rule.items())),
        "labels_total": sum(per_rule.values()),
        "consistent": sum(r["consistent"] for r in results),
        "hazard_files_fix_verified": sum(bool(r.get("label_fixes", {}).get("ok")) for r in results),
        "label_variants_run": sum(len(r.get("label_fixes", {}).get("variants", [])) for r in results),
        "inconsistent_files": [r["file"] for r in results if not r["consistent"]],
        "torch": torch.__version__,
    }
    with open(REPORT, "w") as fh:
        json.dump({"summary": summary, "files": results}, fh, indent=1)
    for r in results:
        flag = "ok " if r["consistent"] else "BAD"
        ev = r["raised"] or (r["events"][0]["kind"] + " " + r["events"][0]["op"] + " @" + str(r["events"][0].get("at")) if r["events"] else "")
        fx = ""
        if "label_fixes" in r:
            fx = "fixes:" + ("ok" if r["label_fixes"]["ok"] else "BAD " + json.dumps([v for v in r["label_fixes"].get("variants", []) if not v["as_expected"]])[:300])
        print(f"{flag} {r['kind']:9s} {r['run_dtype']:8s} {r['file']:40s} {r['runtime']:6s} {fx} {ev[:90]}")
    print(json.dumps(summary, indent=1))
    return 0 if not summary["inconsistent_files"] else 1


if __name__ == "__main__":
    sys.exit(main())
