"""Runtime check of the blind_v3 labels.

Usage: python check_labels.py [FOLDER [REPORT.json]] (default: this folder, check_report.json in it).

For each file: import it, call example(), run the callable under a TorchFunctionMode that
records every torch call whose floating, non-0-dim tensor operands mix bfloat16 with another
floating dtype (outside autocast). When such a call is seen, its floating operands are coerced
to bf16 so the run continues (as if the fix had been applied) and later hazards are also seen.
A second, plain run (no coercion) records whether the original raises and the output dtypes.
"""
import importlib.util
import json
import re
import sys
import traceback
from pathlib import Path

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_flatten, tree_map

HERE = Path(__file__).resolve()
ROOT = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE.parent
#: The full report (per file: labels, errors, mixing sites); written beside the files by default.
REPORT = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "check_report.json"
SKIP = {"to", "type_as", "copy_", "__get__", "__set__", "new_tensor", "new_zeros", "new_ones",
        "new_empty", "new_full", "expand_as", "view_as", "reshape_as"}


def fname(func):
    return getattr(func, "__name__", str(func))


class Recorder(TorchFunctionMode):
    def __init__(self, path, coerce):
        super().__init__()
        self.path, self.coerce, self.events = str(path), coerce, []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = fname(func)
        if name not in SKIP and not torch.is_autocast_enabled("cpu"):
            flat, _ = tree_flatten((args, kwargs))
            fl = [t for t in flat if isinstance(t, torch.Tensor) and t.is_floating_point() and t.dim() > 0]
            dts = {t.dtype for t in fl}
            if torch.bfloat16 in dts and len(dts) > 1:
                line = None
                f = sys._getframe(1)
                while f is not None:
                    if f.f_code.co_filename == self.path:
                        line = f.f_lineno
                        break
                    f = f.f_back
                self.events.append((line, name, sorted(str(d).replace("torch.", "") for d in dts)))
                if self.coerce:
                    fix = lambda t: t.to(torch.bfloat16) if isinstance(t, torch.Tensor) and t.is_floating_point() and t.dim() > 0 else t
                    args, kwargs = tree_map(fix, args), tree_map(fix, kwargs)
        return func(*args, **kwargs)


def out_dtypes(out):
    flat, _ = tree_flatten(out)
    return sorted({str(t.dtype).replace("torch.", "") for t in flat if isinstance(t, torch.Tensor) and t.is_floating_point()})


def run(path, coerce):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    res = mod.example()
    fn, args = res[0], res[1]
    kw = res[2] if len(res) > 2 else {}
    rec = Recorder(path, coerce)
    err, outs = None, None
    try:
        with rec:
            out = fn(*args, **kw)
        outs = out_dtypes(out)
    except Exception as e:  # noqa: BLE001
        tb = traceback.extract_tb(e.__traceback__)
        line = next((fr.lineno for fr in reversed(tb) if fr.filename == str(path)), None)
        err = f"{type(e).__name__} at line {line}: {str(e).splitlines()[0][:110]}"
    return rec.events, err, outs


def labels(path):
    exp, look = [], []
    for i, l in enumerate(path.read_text().splitlines(), 1):
        m = re.search(r"# expect: (DTL\d{3})", l)
        if m:
            exp.append((i, m.group(1)))
        if "# lookalike:" in l:
            look.append(i)
    return exp, look


report = {}
for path in sorted(p for p in ROOT.glob("*.py") if p.resolve() != HERE):
    exp, look = labels(path)
    ev_plain, err, outs = run(path, coerce=False)
    ev_fix, err_fix, outs_fix = run(path, coerce=True)
    hazard = bool(err) or bool(ev_plain) or (outs is not None and outs != ["bfloat16"])
    ok = hazard == bool(exp)
    report[path.name] = dict(expected=exp, lookalike_lines=look, original_error=err,
                             original_output=outs, mixed_ops_original=sorted(set(map(tuple, [(e[0], e[1], tuple(e[2])) for e in ev_plain]))),
                             mixed_ops_all_sites=sorted(set((e[0], e[1], tuple(e[2])) for e in ev_fix)),
                             coerced_run_error=err_fix, coerced_output=outs_fix, hazard=hazard, consistent=ok)
    print(f"{'OK ' if ok else 'BAD'} {path.name:36s} exp={[c for _, c in exp]} hazard={hazard} err={err} out={outs}")
    for e in sorted(set((e[0], e[1], tuple(e[2])) for e in ev_fix)):
        print(f"      mixed-dtype op at line {e[0]}: {e[1]} {list(e[2])}")
    if err_fix:
        print(f"      coerced run error: {err_fix}")
with open(REPORT, "w") as stream:
    json.dump(report, stream, indent=1, default=str)
print(f"{sum(r['consistent'] for r in report.values())}/{len(report)} consistent; report: {REPORT}")
