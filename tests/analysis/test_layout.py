"""The analysis reads like its design: small modules, each importing only those below it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "dtypelint"
#: Bottom to top: a module may import (at run time) only modules listed before it.
LAYERS = [
    "vocabulary",
    "syntax",
    "values",
    "summaries",
    "passthrough",
    "geometry",
    "roles",
    "attributes",
    "layers",
    "scope",
    "expressions",
    "calls",
    "torch_calls",
    "meetings",
    "layer_inputs",
    "flow",
    "walks",
    "module",
]


def _runtime_imports(path: Path) -> set[str]:
    """`dtypelint.X` modules imported outside `if TYPE_CHECKING:` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(node)
        for stmt in ast.walk(tree)
        if isinstance(stmt, ast.If) and ast.unparse(stmt.test) == "TYPE_CHECKING"
        for node in ast.walk(stmt)
    }
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and id(node) not in skipped
            and (node.module or "").startswith("dtypelint.")
        ):
            found.add(node.module)  # type: ignore[arg-type]
    return found


def test_every_analysis_module_is_small_and_layered() -> None:
    modules = {path.stem for path in (PACKAGE / "analysis").glob("*.py")} - {"__init__"}
    assert modules == set(LAYERS)
    for index, name in enumerate(LAYERS):
        path = PACKAGE / "analysis" / f"{name}.py"
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 600, name
        allowed = {f"dtypelint.analysis.{below}" for below in LAYERS[:index]}
        imported = {m for m in _runtime_imports(path) if m.startswith("dtypelint.analysis")}
        assert imported <= allowed, (name, imported - allowed)


def test_engine_and_fixer_do_not_import_each_other_in_a_cycle() -> None:
    assert "dtypelint.engine" not in _runtime_imports(PACKAGE / "fixer.py")
    assert "dtypelint.engine" not in _runtime_imports(PACKAGE / "linter.py")
    assert "dtypelint.fixer" not in _runtime_imports(PACKAGE / "linter.py")


def test_no_code_assigns_to_a_values_fields() -> None:
    """`Value` is immutable by convention (not frozen, for speed: see its comment): values are
    shared, so `value.flags = ...` anywhere would change every holder of that value."""
    import dataclasses

    from dtypelint.analysis.values import EMPTY, Value

    fields = {field.name for field in dataclasses.fields(Value)}
    offenders = []
    for path in [
        *PACKAGE.joinpath("analysis").glob("*.py"),
        *PACKAGE.joinpath("rules").glob("*.py"),
    ]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, (ast.AugAssign, ast.AnnAssign))
                else []
            )
            offenders += [
                f"{path.name}:{target.lineno}"
                for target in targets
                if isinstance(target, ast.Attribute) and target.attr in fields
            ]
    assert offenders == []
    assert hash(EMPTY) == hash(Value())  # still usable as a key, as when it was frozen
