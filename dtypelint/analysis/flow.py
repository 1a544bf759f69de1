"""Per-function flow: statements in order, branches joined, meetings with activations recorded."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from dtypelint.analysis.calls import CallEvaluation
from dtypelint.analysis.expressions import (
    ExpressionEvaluation,
    number_default_value,
    number_list_value,
)
from dtypelint.analysis.geometry import ambiguous_camera_name, weak_camera_name
from dtypelint.analysis.layer_inputs import LayerInputs
from dtypelint.analysis.meetings import MeetingRecorder
from dtypelint.analysis.passthrough import (
    fresh_factory,
    given_back,
    mark_alternatives,
    numpy_return,
    returned_casts,
    returned_parameter,
    tuple_roles,
)
from dtypelint.analysis.roles import (
    annotation_kind,
    annotation_optional,
    dict_checked,
    model_outputs_name,
    non_tensor_name,
    reads_activations,
)
from dtypelint.analysis.scope import data_class
from dtypelint.analysis.syntax import (
    block_exits,
    child_blocks,
    constant_string,
    defaults_by_param,
    dotted_name,
    expression_root_name,
    float_facts,
    import_aliases,
    is_literal_false,
    keyword,
    none_facts,
)
from dtypelint.analysis.torch_calls import TorchCallEvaluation
from dtypelint.analysis.values import (
    ACT,
    BOOL,
    CAMERA,
    DEVICE,
    EMPTY,
    FIXED,
    INT,
    MAYBE_NONE,
    MAYBE_UNBOUND,
    MODULE,
    NUMPY,
    PY_FLOAT,
    PY_NUMBER,
    SEQUENCE,
    TENSOR_DICT,
    ClassInfo,
    FunctionInfo,
    Meet,
    Summary,
    Value,
    element_of,
    narrowed_env,
    union,
)
from dtypelint.analysis.vocabulary import (
    ATTENTION_NAMES,
    AUTOCAST_FUNCS,
    is_integer_name,
)

if TYPE_CHECKING:
    from dtypelint.analysis.module import ModuleAnalysis


class FunctionFlow(
    ExpressionEvaluation, CallEvaluation, TorchCallEvaluation, MeetingRecorder, LayerInputs
):
    """Walks one function in statement order, evaluating every expression to a `Value`."""

    def __init__(
        self,
        module: ModuleAnalysis,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        cls: ClassInfo | None,
        closure: dict[str, Value] | None,
        prefix: str,
        parent: FunctionInfo | None = None,
    ) -> None:
        self.module = module
        self.node = node
        self.cls = cls
        self.env: dict[str, Value] = dict(closure) if closure else {}
        self.autocast_depth = 0
        self.fixed_precision_depth = 0
        self.seen_calls: set[int] = set()
        self.meets_at: dict[int, list[Meet]] = {}  # by the meeting node's id
        self.assigned_from: dict[str, list[ast.AST | None]] = {}  # each name's values, in order
        self.dict_params: list[str] = []
        self.returns: list[Value] = []
        # In the order they meet (dicts as ordered sets): a caller names the first meeting.
        self.param_pairs: dict[tuple[str, str], None] = {}  # parameters meeting each other
        self.params_meeting_acts: dict[str, None] = {}  # parameters meeting its own activations
        self.param_products: dict[tuple[str, str], None] = {}  # ... in a matrix product
        self.cast_meetings = 0  # casts it records meeting activations (MatmulOperand)
        self.layer_params: dict[str, str] = {}  # parameters given to its layers: the weight
        args = node.args
        self.param_names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
        self.info = self._function_info(prefix, parent)

    def _function_info(self, prefix: str, parent: FunctionInfo | None) -> FunctionInfo:
        node = self.node
        args = node.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        defaults = defaults_by_param(node)
        in_method = self.cls is not None and bool(params) and params[0].arg in ("self", "cls")
        if in_method:
            params = params[1:]
        is_forward = in_method and node.name == "forward" and bool(self.cls and self.cls.is_module)
        used = self.module.scan(node)
        attention = ATTENTION_NAMES & {p.arg for p in params}
        forced_cameras = self.module.forced_cameras.get(id(node), frozenset())
        tensor_params: list[str] = []
        camera_params: list[str] = []
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                self.env[extra.arg] = EMPTY
        forced_acts = self.module.forced_acts.get(id(node), frozenset())
        mapped = dict_checked(self.module, self.cls, node)
        for param in params:
            name = param.arg
            self.env[name] = EMPTY  # every parameter shadows a module-level import of its name
            annotation = annotation_kind(param.annotation)
            if annotation == "any_dict":  # `outputs: dict[str, Any]`: the body's use decides
                annotation = None if model_outputs_name(name) else "other"
            default = defaults.get(name)
            scalar_default = isinstance(default, ast.Constant) and default.value is not None
            number = number_default_value(default)
            if number and annotation in (None, "scalar") and name not in forced_acts:
                self.env[name] = number  # `truncation=-1.0`: `truncation.dtype` would raise
                continue
            if name in self.module.forced_data.get(id(node), ()) and annotation != "tensor":
                continue  # a caller passes a list, a number or an index tensor: no dtype source
            named = non_tensor_name(name)
            if named == "device" or annotation == "device":
                self.env[name] = Value(DEVICE)
                continue
            if named == "size" and annotation != "tensor":  # `dim`, `num_heads`: ints
                self.env[name] = Value(PY_NUMBER)
                continue
            config = named == "config" and annotation != "tensor"  # `opt`, `test_cfg`
            if named == "module" or config or annotation in ("module", "other", "mixed"):
                # A module, a dataclass or config object, or `dict | Tensor`: never a dtype
                # source; its calls and attributes are what they are.
                self.env[name] = Value(MODULE) if "module" in (named, annotation) else EMPTY
                continue
            listed = isinstance(default, (ast.Tuple, ast.List))  # `labels=()`: data given
            items = (name in used.elements - used.tensors and not listed) or name in mapped
            if annotation == "tensors" or (items and not annotation):
                # `feats: list[Tensor]`, `p[0].shape`, `cond` (a dict elsewhere): items are acts
                self.env[name] = Value(ACT | SEQUENCE)
                self.dict_params.append(name)  # tensors come in (not a dtype source itself)
                continue
            if annotation == "tensor_dict":
                self.env[name] = Value(TENSOR_DICT)
                self.dict_params.append(name)
                continue
            if annotation == "numpy" and self.module.camera_names.matches(name):
                self.env[name] = Value(NUMPY | CAMERA, cameras=(name,))  # `intrinsics: np.ndarray`
                camera_params.append(name)
                continue
            if annotation in ("int", "float", "numpy"):
                self.env[name] = {
                    "int": Value(PY_NUMBER),
                    "float": Value(PY_NUMBER | PY_FLOAT),
                    "numpy": Value(NUMPY),
                }[annotation]
                continue
            if annotation == "scalar":
                continue
            if annotation == "int_tensor":  # `Int[Tensor, "n"]`: indices, not the run's dtype
                self.env[name] = Value(INT)
                continue
            numbers = number_list_value(default)
            if numbers is not None:  # `mean=(0.485, 0.456, 0.406)`
                self.env[name] = numbers
                continue
            namespace = name in used.objects and name not in used.tensors
            # A tensor only on evidence: annotated so, used as one in the body (`.shape`, an
            # operand of torch functions), or passed activations by this file's callers. In a
            # file that imports NumPy, `a @ b.T` alone is not evidence: NumPy arrays do that too.
            used_as_tensor = (
                name in used.tensors
                and name not in used.sequences
                and name not in used.numpy_names
                and not scalar_default
                and (used.torch_evidence or not self.module.imports_numpy)
            )
            is_tensor = name not in used.data_names and (
                annotation == "tensor" or used_as_tensor or name in forced_acts
            )
            if is_forward and namespace and annotation != "tensor":
                # `forward(self, feats, cam)` reading `cam.K`: a batch or camera object whose
                # attributes are tensors (cameras by name, activations otherwise).
                self.env[name] = Value(TENSOR_DICT)
                self.dict_params.append(name)
                continue
            if name in used.dicts and annotation != "tensor":
                self.env[name] = Value(TENSOR_DICT)
                self.dict_params.append(name)
                continue
            if name in forced_cameras:  # called with a camera argument (`project(points, K)`)
                self.env[name] = Value(CAMERA, cameras=(name,))
                camera_params.append(name)
                continue
            if not is_tensor:
                continue
            geometry_unused = (
                weak_camera_name(name) and name not in used.geometry
            ) or name in used.rotation_inputs
            if (
                self.module.camera_names.matches(name)
                and not (attention and name.split("_", 1)[0] == "K")  # `K_r`: relative keys
                and not geometry_unused
                # `twist(opt_lwrist)`: a rotation's name was only a hint (`c2w` stays one)
                and not (name in forced_acts and ambiguous_camera_name(name))
            ):
                self.env[name] = Value(CAMERA, cameras=(name,))
                camera_params.append(name)
            elif is_integer_name(name):
                self.env[name] = Value(INT)  # an index or mask tensor: not the run's dtype
            else:
                self.env[name] = Value(ACT)
                tensor_params.append(name)
        for param in params:
            # provenance: what the function's summary is made of; and `x=None`,
            # `x: Optional[Tensor]`: None on some path
            default = defaults.get(param.arg)
            none_default = isinstance(default, ast.Constant) and default.value is None
            value = self.env[param.arg]
            # also where nothing says what it is: `default(inpaint_videos, inpaint_images)`
            # may be None, and so may be what a branch joins it with (imagen's sampler)
            maybe_none = none_default or annotation_optional(param.annotation)
            self.env[param.arg] = replace(
                value,
                flags=value.flags | MAYBE_NONE if maybe_none else value.flags,
                params=frozenset({param.arg}),
            )
        fixed_precision, autocast = self._decorator_precision()
        # A module's __init__ builds weights and buffers, which `module.to(dtype)` converts; plain
        # tensor attributes made there are DTL005's business.
        builds_module = (
            in_method and node.name == "__init__" and bool(self.cls and self.cls.is_module)
        )
        # Datasets and data parsers prepare inputs in their own dtype: no activations there.
        builds_module = builds_module or (self.cls is not None and data_class(self.cls))
        # A module's own methods compute with its weights: what its submodules return is an
        # activation on evidence even when no parameter is (`for x in feats: x = self.m[i](x)`).
        module_method = in_method and bool(self.cls and self.cls.is_module)
        # A nested function reading its parent's activations computes with them (PLMS's `x`).
        reads_acts = parent is not None and reads_activations(used.nodes, self.env, params)
        is_tensor_taking = (
            bool(tensor_params or camera_params or self.dict_params or module_method or reads_acts)
            and not builds_module
        )
        info = FunctionInfo(
            node=node,
            qualname=prefix + node.name,
            is_tensor_taking=is_tensor_taking,
            tensor_params=tensor_params,
            camera_params=camera_params,
            is_forward=is_forward,
            fixed_precision=fixed_precision,
            autocast=autocast,
            class_name=self.cls.name if self.cls is not None else None,
            parent=parent,
            kernel=used.kernel,
            to_numpy=used.to_numpy,
        )
        self.module.functions.append(info)
        return info

    def _decorator_precision(self) -> tuple[bool, bool]:
        fixed = autocast = False
        for decorator in self.node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            qualname = self.module.qualify(call.func if call else decorator) or ""
            if qualname in AUTOCAST_FUNCS or qualname.endswith(".autocast"):
                if call is not None and is_literal_false(keyword(call, "enabled")):
                    fixed = True
                else:
                    autocast = True
            elif call is not None and keyword(call, "cast_inputs") is not None:
                # `custom_fwd(cast_inputs=...)`, and wrappers of it (speechbrain's
                # `fwd_default_precision(cast_inputs=torch.float32)` on its feature front-ends)
                fixed = True
            elif qualname.rsplit(".", 1)[-1] == "force_fp32":
                fixed = True  # mmcv's `@force_fp32(apply_to=...)`: its inputs are cast to float32
        return fixed, autocast

    def run(self) -> None:
        if self.info.autocast:
            self.autocast_depth += 1
        if self.info.fixed_precision:
            self.fixed_precision_depth += 1
        self.block(self.node.body)
        given = [i for v in self.returns for i in (v.items if v.items is not None else (v,))]
        if given and all(v.flags & (INT | BOOL) and not v.flags & ACT for v in given):
            self.info.indices_only = not any(v.tracked for v in given)  # farthest points
        self.module.new_summaries[id(self.node)] = self.summary()

    def summary(self) -> Summary:
        args = self.node.args
        names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
        meetings = self.parameter_meetings()
        meetings["params"] = tuple(names[1:] if self.cls and names[:1] == ["self"] else names)
        meetings["kernel"] = self.info.kernel
        returned = [
            item
            for value in self.returns
            for item in (value.items if value.items is not None else (value,))
        ]
        items, meetings["fresh_items"] = tuple_roles(self.returns)
        nodes = self.module.scan(self.node).nodes  # the function's walk, shared
        meetings["passes"] = returned_parameter(self.node, nodes, self.returns, meetings["params"])
        meetings |= given_back(self.node, nodes, returned, meetings["params"])
        if not returned or any(value.is_act for value in returned):
            return Summary(items=items, **meetings)
        cameras = tuple(c for value in returned if value.is_camera for c in value.cameras)
        from_params = set(cameras) <= set(names)  # cameras by the parameters' names alone
        meetings["camera_params"] = tuple(dict.fromkeys(cameras)) if from_params else ()
        numpy, meetings["numpy_array"] = numpy_return(returned)
        meetings["fresh"], meetings["fresh_dtype_param"] = fresh_factory(self.returns)
        masks = (r.additive_mask for value in returned for r in value.factories)
        meetings["fresh_mask"] = bool(meetings["fresh"]) and any(masks)
        fixed = all(value.flags & FIXED and not value.is_camera for value in returned)
        fixed = fixed or self.info.float32_numerics  # `eigvalsh`, an FFT: float32 by design
        meetings["fixed_casts"] = () if self.cast_meetings else returned_casts(self.returns)
        return Summary(cameras=cameras[:1], numpy=numpy, fixed=fixed, items=items, **meetings)

    @property
    def in_autocast(self) -> bool:
        return self.autocast_depth > 0 or self.fixed_precision_depth > 0

    def block(self, stmts: Sequence[ast.stmt]) -> None:
        for stmt in stmts:
            self.statement(stmt)

    def statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Assign):
            value = self.eval(stmt.value)
            for target in stmt.targets:
                self.assign(target, value, stmt.value)
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self.assign(stmt.target, self.eval(stmt.value), stmt.value)
        elif isinstance(stmt, ast.AugAssign):
            self.aug_assign(stmt)
        elif isinstance(stmt, ast.Expr):
            self.eval(stmt.value)
        elif isinstance(stmt, ast.Return):
            if stmt.value is not None:
                value = self.eval(stmt.value)
                self.returns.append(value)
                if self.info.is_forward and (self.info.tensor_params or self.dict_params):
                    # A forward taking only indices or metadata (`forward(self, camera_indices)`)
                    # has no input dtype to return in: what it builds is its own choice.
                    self.record_return(stmt.value, value)
        elif isinstance(stmt, ast.If):
            self.if_statement(stmt)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            iterable = self.eval(stmt.iter)
            before = dict(self.env)
            self.assign(stmt.target, self.iteration_value(stmt.iter, iterable), None)
            self.block(stmt.body)
            self.env = self.join_envs([before, self.env])
            self.block(stmt.orelse)
        elif isinstance(stmt, ast.While):
            self.eval(stmt.test)
            before = dict(self.env)
            self.block(stmt.body)
            self.env = self.join_envs([before, self.env])
            self.block(stmt.orelse)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            self.with_statement(stmt)
        elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            self.block(stmt.body)  # type: ignore[attr-defined]
            self.branches([h.body for h in stmt.handlers] + [stmt.orelse])  # type: ignore[attr-defined]
            self.block(stmt.finalbody)  # type: ignore[attr-defined]
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # A nested helper sees the enclosing names as they are where it is defined.
            self.env[stmt.name] = EMPTY
            nested = FunctionFlow(
                self.module, stmt, self.cls, self.env, f"{self.info.qualname}.", parent=self.info
            )
            self.note_callee(stmt)
            nested.run()
        elif isinstance(stmt, ast.ClassDef):
            walk_definitions(
                self.module,
                stmt.body,
                self.module.classes.get(stmt.name),
                None,
                f"{self.info.qualname}.{stmt.name}.",
            )
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for local, qualname in import_aliases(stmt):
                self.env[local] = Value(alias=qualname)
        elif isinstance(stmt, ast.Assert):
            self.eval(stmt.test)
        elif type(stmt).__name__ == "Match":
            self.eval(stmt.subject)  # type: ignore[attr-defined]
            self.branches([case.body for case in stmt.cases])  # type: ignore[attr-defined]

    def branches(self, blocks: list[list[ast.stmt]]) -> None:
        start = self.env
        results = []
        for block in blocks:
            self.env = dict(start)
            self.block(block)
            results.append(self.env)
        self.env = self.join_envs(results)

    def if_statement(self, stmt: ast.If) -> None:
        """Both branches from one start, narrowed by the test; a leaving branch reaches nothing."""
        self.eval(stmt.test)
        start = self.env
        reaching = []
        kinds = float_facts(stmt.test)
        for block, facts, floats in zip((stmt.body, stmt.orelse), none_facts(stmt.test), kinds):
            self.env = narrowed_env(start, facts, floats)
            self.block(block)
            if not block_exits(block):
                reaching.append(self.env)
        self.env = self.join_envs(reaching) if reaching else dict(start)

    @staticmethod
    def join_envs(envs: list[dict[str, Value]]) -> dict[str, Value]:
        if len(envs) == 1:
            return envs[0]
        merged: dict[str, Value] = {}
        for env in envs:
            for name, value in env.items():
                previous = merged.get(name)
                if previous is None or previous == value:
                    merged[name] = value
                elif value.alias or previous.alias:
                    merged[name] = value if value.alias else previous
                else:
                    mark_alternatives([previous, value])
                    merged[name] = union(previous, value)
        for name, value in merged.items():  # bound on some paths only
            if not value.alias and not all(name in env for env in envs):
                merged[name] = replace(value, flags=value.flags | MAYBE_UNBOUND)
        return merged

    def with_statement(self, stmt: ast.With | ast.AsyncWith) -> None:
        autocast = fixed = 0
        for item in stmt.items:
            value = self.eval(item.context_expr)
            kind = self.autocast_kind(item.context_expr)
            if kind == "enabled":
                autocast += 1
            elif kind == "disabled":
                fixed += 1
            if item.optional_vars is not None:
                self.assign(item.optional_vars, value if not kind else EMPTY, None)
        self.autocast_depth += autocast
        self.fixed_precision_depth += fixed
        self.block(stmt.body)
        self.autocast_depth -= autocast
        self.fixed_precision_depth -= fixed

    def autocast_kind(self, expr: ast.AST) -> str | None:
        if not isinstance(expr, ast.Call):
            return None
        qualname = self.qualify(expr.func) or ""
        if qualname in AUTOCAST_FUNCS or (
            qualname.startswith("torch") and qualname.endswith(".autocast")
        ):
            return "disabled" if is_literal_false(keyword(expr, "enabled")) else "enabled"
        return None

    def assign(self, target: ast.AST, value: Value, value_node: ast.AST | None) -> None:
        if isinstance(target, ast.Name):
            self.assigned_from.setdefault(target.id, []).append(value_node)  # for `x.ceil_()`
            if value.tracked and not value.is_act and target.id in self.param_names:
                for record in value.factories:
                    record.path_alternative = True
                if is_integer_name(target.id):
                    # `if pixel_mask is None: pixel_mask = torch.ones(...)`: a default for a mask
                    # or index parameter, not a float tensor that meets activations.
                    value = Value(INT)
            if target.id.startswith("dummy") and not value.is_act:
                # `dummy_input = torch.zeros(shape)`: a shape probe or a placeholder, by its name
                value = replace(value, factories=frozenset(), int_factories=frozenset())
            if is_integer_name(target.id) and value_node is not None:  # a copy kept as indices
                root = expression_root_name(value_node)  # `E_idx = seqpos.repeat()`, not `torch.`
                copied = root is not None and root not in self.module.aliases
                for record in value.int_factories if copied else ():
                    record.used_as_index = True
            self.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            self.unpack(target.elts, value, value_node)
        elif isinstance(target, ast.Starred):
            self.assign(
                target.value,
                Value(
                    value.flags | SEQUENCE,
                    value.factories,
                    value.int_factories,
                    value.cameras,
                    value.fixed,
                ),
                None,
            )
        elif isinstance(target, ast.Attribute):
            self.eval(target.value)
            key = dotted_name(target)
            if key and key.startswith("self."):
                self.env[key] = value
        elif isinstance(target, ast.Subscript):
            container = self.eval(target.value)
            index = self.eval(target.slice)
            for record in index.int_factories:
                record.used_as_index = True
            if constant_string(target.slice) is None and not self.python_list(target.value):
                self.meet([(target.value, container), (value_node, value)], target, "index")
                self.mark_written(container, value)

    def unpack(self, targets: list[ast.expr], value: Value, value_node: ast.AST | None) -> None:
        items = value.items
        node_items = value_node.elts if isinstance(value_node, (ast.Tuple, ast.List)) else None
        starred = any(isinstance(t, ast.Starred) for t in targets)
        for index, target in enumerate(targets):
            if items is not None and not starred and len(items) == len(targets):
                item = items[index]
                item_node = (
                    node_items[index] if node_items and len(node_items) == len(targets) else None
                )
            else:
                item, item_node = element_of(value), None
            self.assign(target, item, item_node)

    def aug_assign(self, stmt: ast.AugAssign) -> None:
        current = self.eval(stmt.target)
        mark = len(self.module.matmul_operands)
        result = self.in_place(stmt, current, self.eval(stmt.value), mark)
        if isinstance(stmt.target, ast.Name):
            # In-place arithmetic keeps the left operand's dtype.
            self.env[stmt.target.id] = current if current.tracked or current.is_act else result
        elif isinstance(stmt.target, ast.Subscript):
            self.eval(stmt.target.slice)

    def iteration_value(self, iter_node: ast.AST, iterable: Value) -> Value:
        if isinstance(iter_node, ast.Call):
            name = self.qualify(iter_node.func) or (
                iter_node.func.id if isinstance(iter_node.func, ast.Name) else ""
            )
            if name == "range":
                return Value(PY_NUMBER)
            if name == "enumerate" and iter_node.args:
                return Value(
                    SEQUENCE, items=(Value(PY_NUMBER), element_of(self.eval(iter_node.args[0])))
                )
            if name == "zip":
                return Value(
                    SEQUENCE, items=tuple(element_of(self.eval(a)) for a in iter_node.args)
                )
        return element_of(iterable)


def walk_definitions(
    module: ModuleAnalysis,
    body: Sequence[ast.stmt],
    cls: ClassInfo | None,
    closure: dict | None,
    prefix: str,
) -> None:
    """Walk the functions of a block, and those of the classes in it (a class's own body)."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            FunctionFlow(module, stmt, cls, closure, prefix).run()
        elif isinstance(stmt, ast.ClassDef):
            walk_definitions(
                module, stmt.body, module.classes.get(stmt.name), None, f"{prefix}{stmt.name}."
            )
        elif isinstance(stmt, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for block in child_blocks(stmt):
                walk_definitions(module, block, cls, closure, prefix)
