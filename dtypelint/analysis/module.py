"""Module-level facts (imports, classes, attributes) and the driver that walks every function."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from dtypelint.analysis.attributes import AttributeKinds
from dtypelint.analysis.roles import FunctionScan, injected_module
from dtypelint.analysis.scope import DEFAULT_SCOPE, assign_scope, never_low_class_name
from dtypelint.analysis.summaries import ProjectContext, resolve_relative
from dtypelint.analysis.syntax import (
    attribute_pairs,
    canonical,
    class_default,
    class_definitions,
    conditional_self_attrs,
    constant_string,
    defaults_by_param,
    dotted_name,
    import_aliases,
    is_literal_false,
    is_self_attribute,
    is_zero_dim_factory,
    keyword,
    last_name,
    params_of,
    walk,
)
from dtypelint.analysis.values import (
    ClassInfo,
    FactoryCall,
    FixedCast,
    FunctionInfo,
    MatmulOperand,
    Summary,
    Value,
)
from dtypelint.analysis.vocabulary import (
    AFFINE_OPTIONS,
    DEFAULT_CAMERA_NAMES,
    WEIGHTLESS_MODULES,
    CameraNames,
)
from dtypelint.analysis.walks import FunctionNode, Journal, walk_to_fixed_point
from dtypelint.source import SourceText


class ModuleAnalysis(AttributeKinds):
    """Everything the rules need to know about one file, computed once."""

    def __init__(
        self,
        tree: ast.Module,
        source: SourceText,
        filename: str,
        camera_names: Iterable[str] = DEFAULT_CAMERA_NAMES,
        scope: str = DEFAULT_SCOPE,
        project: ProjectContext | None = None,
        scope_path: str | None = None,
    ) -> None:
        """`scope_path`: the file's path in its project (its folders tell the scope)."""
        self.tree = tree
        self.scope = scope
        self.project = project if project is not None else ProjectContext()
        self.source = source
        self.filename = filename
        self.scope_path = scope_path or filename
        self.camera_names = CameraNames(camera_names)
        self.aliases: dict[str, str] = {}
        self._scans: dict[int, FunctionScan] = {}
        self._scanning: set[int] = set()
        self.classes: dict[str, ClassInfo] = {}
        self.functions: list[FunctionInfo] = []
        self.factory_calls: list[FactoryCall] = []
        self.matmul_operands: list[MatmulOperand] = []
        self.fixed_casts: list[FixedCast] = []
        self._collect_module_facts()
        self._analyze_functions()

    def release(self) -> None:
        """Drop everything computed once the rules have read it: scans, flows and summaries point
        back at the module, so it would wait for a full collection (an eighth of a 20 MB check)."""
        self.__dict__.clear()

    # -- module facts -------------------------------------------------------------------------

    def _collect_module_facts(self) -> None:
        #: module-level `NAME = value` (constants a class may store: `self.m = RGB_TO_YUV`)
        self.module_constants: dict[str, ast.expr] = {
            stmt.targets[0].id: stmt.value
            for stmt in self.tree.body
            if isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        }
        #: method name -> whether its body makes complex tensors (`torch.polar` RoPE tables),
        #: found when an attribute is built by calling it
        self._complex_methods: dict[str, bool] = {}
        shadowed: set[str] = set()
        for stmt in self._module_statements(self.tree.body):
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                for local, qualname in self._import_aliases(stmt):
                    self.aliases[local] = qualname
                    shadowed.discard(local)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    for node in walk(target):
                        if isinstance(node, ast.Name):
                            shadowed.add(node.id)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                shadowed.add(stmt.name)
        for name in shadowed:
            self.aliases.pop(name, None)
        self.aliases.update(self._layer_aliases())
        #: NumPy is imported: `a @ b.T` on parameters may be NumPy code (roles need torch's);
        #: without torch too, a file's matrix products are NumPy's (mmhuman3d's metrics)
        self.imports_numpy = any(q.split(".")[0] == "numpy" for q in self.aliases.values())
        self.imports_torch = any(q.split(".")[0] == "torch" for q in self.aliases.values())
        definitions = list(class_definitions(self.tree.body))
        #: the file's methods by name: `self.schedule(n, rho)` gives tensors only to the
        #: parameters the method uses as tensors, unlike a submodule (`self.fc(x)`)
        self.methods_by_name: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
        for node in definitions:
            for stmt in node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.methods_by_name.setdefault(stmt.name, []).append(stmt)
        for node in definitions:
            self.classes[node.name] = self._class_info(node)
        self._resolve_module_classes()

    def _import_aliases(self, stmt: ast.Import | ast.ImportFrom) -> list[tuple[str, str]]:
        """Import aliases, relative imports resolved against this file's module name."""
        if isinstance(stmt, ast.ImportFrom) and stmt.level:
            package = resolve_relative(
                self.project.module_name,
                stmt.level,
                stmt.module,
                self.filename.endswith("__init__.py"),
            )
            if package is None:
                return []
            return [
                (alias.asname or alias.name, f"{package}.{alias.name}")
                for alias in stmt.names
                if alias.name != "*"
            ]
        return list(import_aliases(stmt))

    def in_project(self, qualname: str) -> bool:
        """A name from this project's own package (where summaries come from)."""
        name = self.project.module_name
        return name is not None and qualname.split(".", 1)[0] == name.split(".", 1)[0]

    def exported_summaries(self) -> dict[str, Summary]:
        """Interesting summaries of this module's top-level functions, by qualified name."""
        name = self.project.module_name
        if name is None:
            return {}
        functions = self.local_functions.values()
        pairs = ((node.name, self.new_summaries.get(id(node))) for node in functions)
        exported = {  # no file's factory records leave it (most summaries have none: no copy then)
            f"{name}.{function}": replace(s, fresh_items=()) if s.fresh_items else s
            for function, s in pairs
            if s is not None and s.interesting
        }
        for cls in self.classes.values():  # what a submodule's forward tells its holders
            forward = cls.method_nodes.get("forward") if cls.node in self.tree.body else None
            summary = self.new_summaries.get(id(forward)) if forward is not None else None
            if summary is not None and (summary.fixed or summary.layer_params):
                exported[f"{name}.{cls.name}.forward"] = Summary(
                    fixed=summary.fixed,
                    fixed_casts=summary.fixed_casts,
                    layer_params=summary.layer_params,
                    params=summary.params,
                )
        return exported

    def package_reexports(self) -> dict[str, str]:
        """In a package's `__init__.py`: the project functions it imports, by their importers' names."""
        name = self.project.module_name
        if name is None or not self.filename.endswith("__init__.py"):
            return {}
        return {
            f"{name}.{local}": qualname
            for local, qualname in self.aliases.items()
            if self.in_project(qualname) and qualname != f"{name}.{local}"
        }

    @staticmethod
    def _module_statements(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
        """Module-level statements, looking into `if`/`try` blocks (guarded imports)."""
        for stmt in body:
            yield stmt
            if isinstance(stmt, ast.If):
                yield from ModuleAnalysis._module_statements(stmt.body)
                yield from ModuleAnalysis._module_statements(stmt.orelse)
            elif isinstance(stmt, ast.Try):
                for block in (stmt.body, stmt.orelse, stmt.finalbody):
                    yield from ModuleAnalysis._module_statements(block)
                for handler in stmt.handlers:
                    yield from ModuleAnalysis._module_statements(handler.body)

    def qualify(self, node: ast.AST, local: dict[str, Value] | None = None) -> str | None:
        """The canonical qualified name of a dotted expression (`th.nn.functional.linear`)."""
        name = dotted_name(node)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        if local is not None and head in local:
            qualname = local[head].alias
        else:
            qualname = self.aliases.get(head)
        if qualname is None:
            return None
        return canonical(f"{qualname}.{rest}" if rest else qualname)

    def _layer_aliases(self) -> dict[str, str]:
        """`MList = nn.ModuleList` at module level, assigned once: another name of a torch.nn
        class (lucidrains' VQGAN builds its layers with `MList([])`)."""
        found: dict[str, str] = {}
        assigned: dict[str, int] = {}
        for stmt in self.tree.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                assigned[name] = assigned.get(name, 0) + 1
                qualname = self.qualify(stmt.value) or ""
                if len(stmt.targets) == 1 and qualname.startswith("torch.nn."):
                    found[name] = qualname
        return {name: qualname for name, qualname in found.items() if assigned[name] == 1}

    def _class_info(self, node: ast.ClassDef) -> ClassInfo:
        info = ClassInfo(node.name, node, is_module=False)
        info.bases = [self.qualify(base) or dotted_name(base) or "" for base in node.bases]
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                info.methods.add(stmt.name)
                info.method_nodes[stmt.name] = stmt
                self._collect_attributes(stmt, info)
        if init := info.method_nodes.get("__init__"):
            info.conditional_attrs = conditional_self_attrs(init)
        return info

    def class_function(self, receiver: ast.expr, attr: str) -> tuple[FunctionNode, bool] | None:
        """`Cls.method` of a class of this file; whether a call skips a classmethod's `cls`."""
        cls = self.classes.get(receiver.id) if isinstance(receiver, ast.Name) else None
        method = cls.method_nodes.get(attr) if cls else None
        if method is None:
            return None
        return method, any(last_name(d) == "classmethod" for d in method.decorator_list)

    def kernel_function_class(self, name: str) -> bool:
        """An autograd Function of this file whose methods call a compiled extension. Never
        recursive: methods are scanned before their class is in `self.classes`."""
        cls = self.classes.get(name)
        if cls is None or not any(base.endswith("Function") for base in cls.bases):
            return False
        return any(self.scan(method).kernel for method in cls.method_nodes.values())

    def scan(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> FunctionScan:
        """One generic walk of a function, shared by class facts and the flow (cached)."""
        scan = self._scans.get(id(func))
        if scan is None:
            self._scanning.add(id(func))
            try:
                scan = self._scans[id(func)] = FunctionScan.of(func, self)
            finally:
                self._scanning.discard(id(func))
        return scan

    def scanned_or_none(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> FunctionScan | None:
        """`scan(func)`, or None while `func` is being scanned (methods calling each other)."""
        return None if id(func) in self._scanning else self.scan(func)

    def _collect_attributes(
        self, method: ast.FunctionDef | ast.AsyncFunctionDef, info: ClassInfo
    ) -> None:
        defaults = defaults_by_param(method)
        for node in self.scan(method).self_facts:
            if isinstance(node, ast.Assign):
                for target, value in attribute_pairs(node, defaults):
                    self._classify_attribute(target.attr, value, info, method.name, node)
            elif isinstance(node, ast.AnnAssign) and node.value and is_self_attribute(node.target):
                self._classify_attribute(node.target.attr, node.value, info, method.name, node)  # type: ignore[attr-defined]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                registrar = node.func.attr
                if registrar in ("register_buffer", "register_parameter") and node.args:
                    name = constant_string(node.args[0])
                    if name:
                        (info.buffers if registrar == "register_buffer" else info.parameters).add(
                            name
                        )
                        value = node.args[1] if len(node.args) > 1 else None
                        if (
                            value is not None
                            and self._tensor_kind(value, self._init_locals(info)) == "int"
                        ):
                            info.int_buffers.add(name)  # `register_buffer("grid", arange(n))`
                        if value is not None and is_zero_dim_factory(value, self.qualify):
                            info.scalar_buffers.add(name)  # `register_buffer("p", ones([]))`
                        info.plain_attrs.pop(name, None)
                        info.tensor_attrs.pop(name, None)
                elif registrar in ("add_module", "register_module") and node.args:
                    name = constant_string(node.args[0])
                    if name:
                        info.submodules.add(name)

    def _classify_attribute(
        self, attr: str, value: ast.AST, info: ClassInfo, method: str, stmt: ast.stmt
    ) -> None:
        if method == "__init__":
            info.init_assignments[attr] = info.init_assignments.get(attr, 0) + 1
            if isinstance(value, ast.Attribute) and value.attr in ("weight", "bias"):
                info.parameters.add(attr)  # `self.k0 = conv0.weight`: a module's parameter
        if attr in info.buffers or attr in info.parameters:
            return
        if method == "__init__":
            init, local = info.method_nodes.get("__init__"), self._init_locals(info)
            params = params_of(init) if init is not None else set()  # `p: float|Tensor = 1.0`
            kind = self._tensor_kind(value, {k: v for k, v in local.items() if k not in params})
            if kind is not None:
                info.tensor_attrs.setdefault(attr, (stmt, kind == "int"))
                info.plain_attrs.setdefault(attr, value)
                return
            if self._numpy_expression(value, info):
                info.numpy_attrs.add(attr)
        if isinstance(value, ast.Call):
            # `self.w_msa = window_msa(...)` with `window_msa=WindowMSA` in the signature
            init = info.method_nodes.get("__init__") if method == "__init__" else None
            func = class_default(init, value.func)
            qualname = self.qualify(func) or dotted_name(func) or ""
            last = qualname.rsplit(".", 1)[-1]
            if (
                qualname in ("torch.nn.Parameter", "torch.nn.parameter.Parameter")
                or last == "Parameter"
            ):
                info.parameters.add(attr)
                if value.args and is_zero_dim_factory(value.args[0], self.qualify):
                    info.scalar_buffers.add(attr)  # `nn.Parameter(torch.zeros([]))`: a number
                return
            if (qualname.startswith("torch.nn.") or not qualname.startswith("torch.")) and last[
                :1
            ].isupper():
                info.submodules.add(attr)
                if qualname.startswith("torch.nn.") or isinstance(func, ast.Name):
                    torch_layer = qualname.startswith("torch.nn.")
                    info.submodule_classes.setdefault(attr, qualname if torch_layer else func.id)
                plain = any(is_literal_false(keyword(value, a)) for a in AFFINE_OPTIONS)
                if qualname.startswith("torch.nn.") and (last in WEIGHTLESS_MODULES or plain):
                    info.weightless.add(attr)  # `nn.LayerNorm(d, elementwise_affine=False)` too
                return
        init = info.method_nodes.get("__init__") if method == "__init__" else None
        if isinstance(value, ast.Name) and injected_module(init, value.id):
            info.submodules.add(attr)  # `self.model = model`: an injected network
            return
        if method == "__init__" or attr not in info.plain_attrs:
            info.plain_attrs.setdefault(attr, value)

    def _resolve_module_classes(self) -> None:
        def is_module(info: ClassInfo, seen: set[str]) -> bool:
            for base in info.bases:
                if base.startswith("torch.nn.") or base.rsplit(".", 1)[-1].endswith("Module"):
                    return True
                local = self.classes.get(base.rsplit(".", 1)[-1])
                if local and local.name not in seen and is_module(local, seen | {local.name}):
                    return True
            # A class with a `forward` and a base class is a model in PyTorch code, unless its
            # name says it drives one (`HailoBackend.forward`, `Predictor.forward`).
            return (
                "forward" in info.methods
                and any(b and b != "object" for b in info.bases)
                and not never_low_class_name([info.name, *info.bases])
            )

        for info in self.classes.values():
            info.is_module = is_module(info, {info.name})
        for info in self.classes.values():  # inherit attribute kinds from in-file bases
            for base in info.bases:
                parent = self.classes.get(base.rsplit(".", 1)[-1])
                if parent and parent is not info:
                    info.submodules |= parent.submodules
                    info.parameters |= parent.parameters
                    info.buffers |= parent.buffers
                    info.methods |= parent.methods
                    for name, method in parent.method_nodes.items():
                        info.method_nodes.setdefault(name, method)
                    for key, tensor_attr in parent.tensor_attrs.items():
                        info.tensor_attrs.setdefault(key, tensor_attr)
                    info.numpy_attrs |= parent.numpy_attrs
                    for key, val in parent.plain_attrs.items():
                        info.plain_attrs.setdefault(key, val)

    # -- functions ----------------------------------------------------------------------------

    def _analyze_functions(self) -> None:
        """Walk every function; walk again while helper summaries teach callers something new.

        Summaries are per function and per file: a helper returning a camera value or a NumPy
        tensor gives that provenance to its callers' results, and a helper called with a camera
        argument sees that parameter as a camera parameter. Most files settle in one walk.
        """
        kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
        self.local_functions = {s.name: s for s in self.tree.body if isinstance(s, kinds)}
        self.summaries: dict[int, Summary] = {}
        self.forced_cameras: dict[int, frozenset[str]] = {}
        self.forced_data: dict[int, frozenset[str]] = {}  # passed lists, numbers, indices
        #: parameters (by function node id) that callers in this file pass activations to
        self.forced_acts: dict[int, frozenset[str]] = {}
        #: factory calls (by node id) that activations are written into: from the walk that
        #: finds the write on, the buffer is an activation wherever it is used
        self.written: set[int] = set()
        self.attribute_records: Journal[tuple[str, str], FactoryCall] = Journal()
        self.new_summaries: Journal[int, Summary] = Journal()
        walk_to_fixed_point(self)
        assign_scope(self.functions, self.classes, self.scope_path, self.scope)
        self.project.exports = self.exported_summaries()
        self.project.reexports = self.package_reexports()

    def attribute_record(self, cls: ClassInfo, attr: str) -> FactoryCall:
        """The one record for a plain tensor attribute of a module, shared by all its methods."""
        key = (cls.name, attr)
        record = self.attribute_records.get(key)
        if record is None:
            stmt, integer = cls.tensor_attrs[attr]
            record = FactoryCall(
                node=stmt,
                func_text=f"self.{attr}",
                factory="attribute",
                integer=integer,
                function=None,
                bound_act_names=frozenset(),
                device_source=None,
                origin="attribute",
                attribute=attr,
            )
            self.attribute_records[key] = record
        return record

    # -- queries for rules ----------------------------------------------------------------------

    def text(self, node: ast.AST) -> str:
        return self.source.segment(node)
