"""Verdicts: what the before/after runs of one example say about the fixes.

A side is the JSON outcome of one run (see runner.py): `status` is ok, raised, promoted, timeout
or import-error; `outputs` lists the floating output dtypes; `error` is the relative error against
the all-float32 reference run of the original code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

CONFIRMED = "confirmed"
STILL_FAILING = "still-failing"
NO_HAZARD = "no-hazard"
REGRESSED = "regressed"
TIMEOUT = "timeout"
IMPORT_ERROR = "import-error"
#: Verdicts that fail the run (exit 1). Timeouts and import errors prove nothing either way.
FAILING_VERDICTS = frozenset({STILL_FAILING, REGRESSED, TIMEOUT, IMPORT_ERROR})
HAZARD_STATUSES = frozenset({"raised", "promoted"})
UNRUNNABLE_STATUSES = frozenset({"timeout", "import-error"})

#: Largest accepted relative error max|out - ref| / (max|ref| + 1e-6) against the float32 run.
#: bf16 keeps 8 significant bits (unit roundoff u = 2^-8 = 3.9e-3), fp16 11 (u = 2^-11 = 4.9e-4).
#: Rounding the inputs and weights costs ~u; each op adds ~u, and reductions and the divisions of
#: a perspective projection grow it by a modest factor, so a correct low-precision run lands at a
#: few u to ~10 u. A dtype hazard, by contrast, shows up as an exception or as an error of order
#: 1 (wrong values). 5e-2 is ~13 u for bf16 and 1e-2 is ~20 u for fp16: loose enough for deep
#: reductions, tight enough that an actually wrong result cannot pass.
TOLERANCES = {"bfloat16": 5e-2, "float16": 1e-2}


@dataclass(frozen=True)
class Verdict:
    name: str
    reason: str


def tolerance(dtype: str) -> float:
    return TOLERANCES.get(dtype, 5e-2)


def outputs_in_dtype(side: dict[str, Any], dtype: str) -> bool:
    return all(output["dtype"] == dtype for output in side.get("outputs", []))


def _off_dtype(side: dict[str, Any], dtype: str) -> str:
    dtypes = sorted({o["dtype"] for o in side.get("outputs", []) if o["dtype"] != dtype})
    return ", ".join(dtypes)


def _sites(side: dict[str, Any]) -> int:
    return len(side.get("mixed_ops", []))


def _within(side: dict[str, Any], tol: float) -> bool:
    error = side.get("error")
    return error is not None and error <= tol


def decide(before: dict[str, Any], after: dict[str, Any] | None, dtype: str) -> Verdict:
    """The verdict for one example from its original (`before`) and patched (`after`) runs."""
    tol = tolerance(dtype)
    status = before["status"]
    if status in UNRUNNABLE_STATUSES or after is None:
        return Verdict(status, f"the original code {_status_words(status)}")
    if after["status"] in UNRUNNABLE_STATUSES:
        return Verdict(REGRESSED, f"the patched code {_status_words(after['status'])}")
    if status in HAZARD_STATUSES:
        return _after_hazard(before, after, dtype, tol)
    return _after_clean(before, after, dtype, tol)


def _after_hazard(before: dict[str, Any], after: dict[str, Any], dtype: str, tol: float) -> Verdict:
    """The original raised or promoted: did the fixes make it a clean run in `dtype`?"""
    if after["status"] == "raised":
        if before["status"] == "promoted":
            return Verdict(REGRESSED, "the patched code raises; the original only promoted")
        return Verdict(STILL_FAILING, "the patched code still raises")
    if after["status"] == "promoted":
        if before["status"] == "promoted" and _sites(after) > _sites(before):
            return Verdict(
                REGRESSED,
                f"the patched code mixes dtypes at {_sites(after)} sites, "
                f"the original at {_sites(before)}",
            )
        return Verdict(
            STILL_FAILING, f"the patched code still mixes dtypes ({_sites(after)} sites)"
        )
    if not outputs_in_dtype(after, dtype):
        return Verdict(
            STILL_FAILING, f"the patched code runs clean but returns {_off_dtype(after, dtype)}"
        )
    if after.get("error") is None:
        if not after.get("outputs"):
            return Verdict(CONFIRMED, "the patched code runs clean (no floating outputs)")
        note = after.get("error_note") or "no comparison"
        return Verdict(STILL_FAILING, f"the patched code runs clean but cannot be checked: {note}")
    if not _within(after, tol):
        if before["status"] == "promoted" and _within(before, tol):
            return Verdict(
                REGRESSED,
                f"the patched output is {after['error']:.2g} from float32, "
                f"the original's {before['error']:.2g} (tolerance {tol:g})",
            )
        return Verdict(
            STILL_FAILING,
            f"the patched output is {after['error']:.2g} from float32 (tolerance {tol:g})",
        )
    return Verdict(
        CONFIRMED,
        f"{_status_words(before['status'])} before; clean {dtype} run after, "
        f"{after['error']:.2g} from float32 (tolerance {tol:g})",
    )


def _after_clean(before: dict[str, Any], after: dict[str, Any], dtype: str, tol: float) -> Verdict:
    """The original ran clean: the fixes must not make anything worse."""
    if after["status"] == "raised":
        return Verdict(REGRESSED, "the patched code raises; the original ran clean")
    if after["status"] == "promoted":
        return Verdict(REGRESSED, "the patched code mixes dtypes; the original did not")
    if _within(before, tol) and after.get("error") is not None and not _within(after, tol):
        return Verdict(
            REGRESSED,
            f"the patched output is {after['error']:.2g} from float32, "
            f"the original's {before['error']:.2g} (tolerance {tol:g})",
        )
    if not outputs_in_dtype(before, dtype) and outputs_in_dtype(after, dtype):
        # e.g. a factory without dtype returned as is: float32 leaked out, the fix keeps `dtype`.
        return Verdict(
            CONFIRMED, f"the original returned {_off_dtype(before, dtype)}, the patched {dtype}"
        )
    return Verdict(NO_HAZARD, "both runs are clean")


def _status_words(status: str) -> str:
    return {
        "raised": "raised",
        "promoted": "promoted silently",
        "timeout": "timed out",
        "import-error": "failed to import",
        "ok": "ran clean",
    }.get(status, status)
