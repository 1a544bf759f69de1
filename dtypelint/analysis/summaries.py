"""Project summaries: what functions of one module tell their callers in the project's others.

A file's analysis exports the summaries of its module-level functions that say something
(`Summary.interesting`: returns a camera or NumPy value, a tuple of roles, parameters meeting each
other or activations), and lists the project functions it calls through imports. The engine runs
every file once, gathers the exports into one table, and analyses again only the files that call a
function with an interesting summary, this time with the table (engine.lint_paths). Names are
resolved through imports, relative ones included (`from .geometry import project`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dtypelint.analysis.values import (
    ACT,
    BOOL,
    CAMERA,
    COMPLEX,
    EMPTY,
    FIXED,
    INT,
    FactoryCall,
    Summary,
    Value,
    element_of,
)


@dataclass
class ProjectContext:
    """One file's view of the project: summaries in (by qualified name), exports and uses out."""

    module_name: str | None = None  # `pkg.geometry`, None for stdin or a file outside packages
    summaries: Mapping[str, Summary] = field(default_factory=dict)
    exports: dict[str, Summary] = field(default_factory=dict)
    #: project functions whose result this file uses (return roles can change its findings)
    imports: set[str] = field(default_factory=set)
    #: project functions this file gives a factory's value to (parameter meetings can)
    factory_imports: set[str] = field(default_factory=set)
    #: project functions this file calls once with no activation among the arguments: only
    #: there a summary's tuple of activations (`Summary.items`) says more than the call did
    plain_imports: set[str] = field(default_factory=set)
    #: a package's re-exports (`from .misc import f` in `pkg/utils/__init__.py`): the name its
    #: importers use -> the function's own qualified name
    reexports: dict[str, str] = field(default_factory=dict)


def summary_role(value: Value) -> str | None:
    """A returned value's role for a summary's tuple items: "camera", "numpy", "act" or None."""
    if value.is_camera:
        return "camera"
    if any(record.numpy_data for record in value.factories):
        return "numpy"
    if value.is_act and not value.flags & (INT | BOOL | FIXED | COMPLEX):
        return "act"
    return None


def summary_item_values(summary: Summary, name: str, result: Value) -> tuple[Value, ...]:
    """The values of a summarised tuple return, position by position."""
    assert summary.items is not None
    made = summary.fresh_items or ((),) * len(summary.items)
    return tuple(summary_item_value(r, name, result, m) for r, m in zip(summary.items, made))


def summary_item_value(
    role: str | None, name: str, result: Value, made: tuple[FactoryCall, ...] = ()
) -> Value:
    """The value of one position of a summarised tuple return."""
    if role == "fresh" and made:  # `q, k, v, bias = split(...)`: the helper's own factory
        return Value(0, factories=frozenset(made))
    if role == "camera":
        return Value(CAMERA, cameras=(f"{name}(...)",))
    if role == "act":
        return Value(ACT)
    return element_of(result) if result.flags & ACT else EMPTY


def with_reexports(table: dict[str, Summary], reexports: Mapping[str, str]) -> dict[str, Summary]:
    """The project's summaries also under the names packages re-export them as (chains too)."""
    for _ in range(3):  # `pkg/__init__` re-exporting `pkg.utils`'s re-export of `pkg.utils.misc`
        added = {
            alias: table[target]
            for alias, target in reexports.items()
            if target in table and alias not in table
        }
        if not added:
            break
        table.update(added)
    return table


def needed_again(
    table: Mapping[str, Summary],
    imports: set[str],
    factory_imports: set[str],
    plain_imports: set[str],
) -> bool:
    """Would the project's summaries change this file's result? (engine.lint_paths, phase 2)"""
    for name in imports & table.keys():
        summary = table[name]
        if summary.cameras or summary.numpy or summary.fixed or summary.kernel or summary.fresh:
            return True
        # A tuple of activations or unknowns, called with an activation: the call's result was
        # an activation already, and each item is one (`summary_item_value`). Anything else
        # in it (a camera, a helper's own factory) is news.
        if summary.items is not None and (
            name in plain_imports or not set(summary.items) <= {"act", None}
        ):
            return True
    return any(
        table[name].param_pairs
        or table[name].params_meeting_acts
        or table[name].passes
        or table[name].keeps
        or table[name].chooses
        or table[name].layer_params  # a submodule's class given a cast (`MLP.forward`)
        for name in factory_imports & table.keys()
    )


def module_name_for(path: str | Path) -> str | None:
    """The dotted module name of a file, from the package folders (`__init__.py`) above it."""
    file = Path(path)
    if file.suffix not in (".py", ".pyi") or not file.exists():
        return None
    parts = [] if file.stem == "__init__" else [file.stem]
    folder = file.resolve().parent
    if not (folder / "__init__.py").exists():
        parts.append(folder.name)  # a namespace package (PEP 420), or a folder of scripts
    while (folder / "__init__.py").exists():
        parts.append(folder.name)
        folder = folder.parent
    return ".".join(reversed(parts)) or None


def resolve_relative(
    module_name: str | None, level: int, target: str | None, is_package: bool
) -> str | None:
    """`from ..ops import f` in module `pkg.models.head` -> `pkg.ops`."""
    if module_name is None:
        return None
    package = module_name.split(".") if is_package else module_name.split(".")[:-1]
    if level - 1 > len(package):
        return None
    base = package[: len(package) - (level - 1)]
    if target:
        base.append(target)
    return ".".join(base) or None
