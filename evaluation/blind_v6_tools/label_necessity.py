"""Necessity check of every label: drop one `# expect:` label at a time (in a temporary copy of the
set) and re-run check_labels on that file. A label is necessary when the file then stops being
consistent (an unexplained mixed-dtype event, or the simulated fixes no longer give a clean run).
Writes /work/blind_v6_tools/label_necessity.json."""
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import check_labels as c  # noqa: E402

SRC = (Path(__file__).resolve().parent.parent / "blind_v6")


def main():
    tmp = Path(tempfile.mkdtemp(prefix="bv6_nec_")) / "blind_v6"
    shutil.copytree(SRC, tmp)
    c.ROOT = tmp
    sys.path.insert(0, str(tmp))
    results = []
    for path in sorted(tmp.rglob("*.py")):
        lines = path.read_text().splitlines(keepends=True)
        for i, line in enumerate(lines):
            if not c.EXPECT_RE.search(line):
                continue
            original = path.read_text()
            lines2 = list(lines)
            lines2[i] = re.sub(r"\s*#\s*expect:\s*DTL\d{3}(\s*,\s*DTL\d{3})*", "", line)
            path.write_text("".join(lines2))
            for mod in [m for m in sys.modules if m.split(".")[0] in {p.stem for p in tmp.iterdir()}]:
                del sys.modules[mod]
            al = {}
            for p in tmp.rglob("*.py"):
                al.update(c.parse_labels(p)[0])
            r = c.check_file(path, al)
            necessary = not r["consistent"]
            results.append({"file": str(path.relative_to(tmp)), "line": i + 1, "necessary": necessary,
                            "unexplained_events": r["unexplained_events"],
                            "fixed_run_clean": r.get("fixed_run", {}).get("clean")})
            print(("ok " if necessary else "NOT NECESSARY"), results[-1])
            path.write_text(original)
    out = {"labels": len(results), "necessary": sum(r["necessary"] for r in results), "results": results}
    (Path(__file__).resolve().parent / "label_necessity.json").write_text(json.dumps(out, indent=1))
    print(json.dumps({k: out[k] for k in ("labels", "necessary")}))


if __name__ == "__main__":
    main()
