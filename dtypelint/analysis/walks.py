"""Walking a file's functions to a fixed point, re-walking only what a new fact can change.

A file is walked in units: each class and each function defined at module level. What one
unit learns reaches another only through four channels, all keyed by function or node ids:

- the summaries of the functions it calls (`consulted`: the summary each callee had when used),
- the parameters its callers pass activations or camera values to (`forced_acts`/`forced_cameras`),
- the factory calls that activations are written into (`written`).

So after the first walk, a unit whose inputs on these channels did not change would be walked
to the same result; its events are replayed instead. Most files settle in one walk; the ones
that need another re-walk a unit or two (a helper and its callers), not the whole file.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from dtypelint.analysis.flow import FunctionFlow, walk_definitions
from dtypelint.analysis.syntax import child_blocks, is_main_guard
from dtypelint.analysis.values import (
    ClassInfo,
    FactoryCall,
    FixedCast,
    FunctionInfo,
    MatmulOperand,
    Summary,
)

if TYPE_CHECKING:
    from dtypelint.analysis.module import ModuleAnalysis

#: Walks of one file at most: the channels only grow, and real code settles in two or three.
MAX_WALKS = 4

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef

K = TypeVar("K")
V = TypeVar("V")


class Journal(dict[K, V]):
    """A dict that lists its keys in the order they were first set, so that the keys one unit's
    walk added are a slice (`added[mark:]`), not a scan of the whole table: a file of 100,000
    functions would otherwise cost a scan per function. `update` is not journaled; it is used
    only to replay earlier walks, whose keys are never "added since a mark"."""

    def __init__(self) -> None:
        super().__init__()
        self.added: list[K] = []

    def __setitem__(self, key: K, value: V) -> None:
        if key not in self:
            self.added.append(key)
        super().__setitem__(key, value)

    def since(self, mark: int) -> dict[K, V]:
        return {key: self[key] for key in self.added[mark:]}


@dataclass
class Unit:
    """A class or a function defined at module level (under `if`/`try` blocks too)."""

    node: FunctionNode | ast.ClassDef
    cls: ClassInfo | None


@dataclass
class UnitEvents:
    """What one walk of a unit added to the module, to replay when it is not walked again."""

    functions: list[FunctionInfo] = field(default_factory=list)
    factory_calls: list[FactoryCall] = field(default_factory=list)
    matmul_operands: list[MatmulOperand] = field(default_factory=list)
    fixed_casts: list[FixedCast] = field(default_factory=list)
    attribute_records: dict[tuple[str, str], FactoryCall] = field(default_factory=dict)
    summaries: dict[int, Summary] = field(default_factory=dict)
    camera_args: dict[int, set[str]] = field(default_factory=dict)
    act_args: dict[int, set[str]] = field(default_factory=dict)
    data_args: dict[int, set[str]] = field(default_factory=dict)  # given data or index tensors
    consulted: dict[int, Summary | None] = field(default_factory=dict)
    #: factory nodes this unit owns: a write into one of them changes this unit
    factory_nodes: frozenset[int] = frozenset()
    #: the functions walked (methods and nested functions included)
    function_ids: frozenset[int] = frozenset()


def module_units(module: ModuleAnalysis) -> list[Unit]:
    return list(_units(module, module.tree.body))


def _units(module: ModuleAnalysis, body: Sequence[ast.stmt]) -> Iterator[Unit]:
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            cls = module.classes.get(stmt.name) if isinstance(stmt, ast.ClassDef) else None
            yield Unit(stmt, cls)
        elif isinstance(stmt, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            if is_main_guard(stmt):
                continue  # `if __name__ == "__main__":` demos and smoke tests run in float32
            for block in child_blocks(stmt):
                yield from _units(module, block)


def walk_unit(module: ModuleAnalysis, unit: Unit) -> UnitEvents:
    """Walk one unit, collecting what it adds to the module's lists and tables."""
    marks = (
        len(module.functions),
        len(module.factory_calls),
        len(module.matmul_operands),
        len(module.fixed_casts),
    )
    records_mark = len(module.attribute_records.added)
    summaries_mark = len(module.new_summaries.added)
    events = UnitEvents()
    # Per-unit tables for the channels read only after the walk; merged by `replay`.
    module.camera_args, module.act_args, module.data_args, module.consulted = (
        events.camera_args,
        events.act_args,
        events.data_args,
        events.consulted,
    )
    if isinstance(unit.node, ast.ClassDef):
        walk_definitions(module, unit.node.body, unit.cls, None, f"{unit.node.name}.")
    else:
        FunctionFlow(module, unit.node, None, None, "").run()
    events.functions = module.functions[marks[0] :]
    events.factory_calls = module.factory_calls[marks[1] :]
    events.matmul_operands = module.matmul_operands[marks[2] :]
    events.fixed_casts = module.fixed_casts[marks[3] :]
    events.attribute_records = module.attribute_records.since(records_mark)
    events.summaries = module.new_summaries.since(summaries_mark)
    events.function_ids = frozenset(id(info.node) for info in events.functions)
    events.factory_nodes = frozenset(
        id(record.node) for record in (*events.factory_calls, *events.attribute_records.values())
    )
    return events


@dataclass
class WalkTables:
    """The channel tables of one whole walk, merged from every unit's events."""

    camera_args: dict[int, set[str]] = field(default_factory=dict)
    act_args: dict[int, set[str]] = field(default_factory=dict)
    data_args: dict[int, set[str]] = field(default_factory=dict)

    def add(self, events: UnitEvents) -> None:
        for table, added in (
            (self.camera_args, events.camera_args),
            (self.act_args, events.act_args),
            (self.data_args, events.data_args),
        ):
            for key, names in added.items():
                table.setdefault(key, set()).update(names)


def replay(module: ModuleAnalysis, events: UnitEvents) -> None:
    """Add a unit's events from its last walk, as walking it again would."""
    module.functions += events.functions
    module.factory_calls += events.factory_calls
    module.matmul_operands += events.matmul_operands
    module.fixed_casts += events.fixed_casts
    module.attribute_records.update(events.attribute_records)
    module.new_summaries.update(events.summaries)


def consulted_changed(events: UnitEvents, summaries: dict[int, Summary]) -> bool:
    """Whether a summary the unit used in its last walk is not the latest one."""
    return any(summaries.get(key) != used for key, used in events.consulted.items())


def walk_to_fixed_point(module: ModuleAnalysis) -> None:
    """Walk every unit; walk again the units a new summary, forced parameter or written buffer
    can change, until nothing changes (at most `MAX_WALKS` walks)."""
    units = module_units(module)
    last: dict[int, UnitEvents] = {}  # each unit's events from its last walk
    changed: set[int] = set()  # functions whose forced parameters changed
    newly_written: set[int] = set()
    stale: set[int] = set()  # units that used a summary that has changed since
    for _ in range(MAX_WALKS):
        written = set(module.written)
        module.functions, module.factory_calls, module.matmul_operands, module.fixed_casts = (
            [],
            [],
            [],
            [],
        )
        module.attribute_records = Journal()
        module.new_summaries = Journal()
        tables = WalkTables()
        for unit in units:
            events = last.get(id(unit.node))
            if (
                events is None
                or id(unit.node) in stale
                or events.function_ids & changed
                or events.factory_nodes & newly_written
            ):
                events = last[id(unit.node)] = walk_unit(module, unit)
            else:
                replay(module, events)
            tables.add(events)
        summaries = {key: value for key, value in module.new_summaries.items() if value.interesting}
        # A camera parameter by name alone that callers here pass only activations is one.
        roles = {id(info.node): set(info.tensor_params) for info in module.functions}
        camera_args, act_args = tables.camera_args, tables.act_args
        # A parameter some caller passes a list or a number (`transform([1, 1], ...)`) is no
        # tensor on that path: no caller makes it a camera or an activation.
        forced = _without(camera_args, act_args, tables.data_args)
        # Callers passing activations matter only where the parameter was not a tensor.
        acts = _without(act_args, camera_args, roles, tables.data_args)
        acts = {
            key: names | module.forced_acts.get(key, frozenset()) for key, names in acts.items()
        }
        data = _without(tables.data_args)
        stale = {key for key, events in last.items() if consulted_changed(events, summaries)}
        if (
            not stale
            and all(names <= module.forced_acts.get(k, frozenset()) for k, names in acts.items())
            and forced == module.forced_cameras
            and data == module.forced_data
            and written == module.written
        ):
            break
        changed = {
            key
            for old, new in ((module.forced_cameras, forced), (module.forced_data, data))
            for key in {*old, *new}
            if old.get(key) != new.get(key)
        }
        merged_acts = {**module.forced_acts, **acts}
        changed |= {
            key
            for key in merged_acts
            if merged_acts[key] != module.forced_acts.get(key, frozenset())
        }
        newly_written = module.written - written
        module.summaries = summaries
        module.forced_cameras, module.forced_data = forced, data
        module.forced_acts = merged_acts


def _without(
    table: dict[int, set[str]], *excluded: Mapping[int, set[str]]
) -> dict[int, frozenset[str]]:
    """Each function's names in `table` less those `excluded` has for it; empty ones dropped."""
    kept: dict[int, frozenset[str]] = {}
    for key, names in table.items():
        left = frozenset(names.difference(*(other.get(key, ()) for other in excluded)))
        if left:
            kept[key] = left
    return kept
