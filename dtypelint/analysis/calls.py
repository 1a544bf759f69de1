"""Calls of tensor methods, submodules and local functions."""

from __future__ import annotations

import ast
from dataclasses import replace

from dtypelint.analysis.passthrough import alternatives, camera_returned
from dtypelint.analysis.roles import explicit_numpy_dtype, is_float64
from dtypelint.analysis.summaries import summary_item_values
from dtypelint.analysis.syntax import (
    bound_arguments,
    constant_string,
    float_constant,
    has_star_kwargs,
    keyword,
    names_in_order,
)
from dtypelint.analysis.values import (
    ACT,
    BOOL,
    CAMERA,
    COMPLEX,
    EMPTY,
    FIXED,
    INT,
    MAYBE_NONE,
    MODULE,
    NONE,
    NUMPY,
    ONE_DIM,
    PY_FLOAT,
    PY_NUMBER,
    SEQUENCE,
    TENSOR_DICT,
    TENSORISH,
    FactoryCall,
    FixedCast,
    Summary,
    Value,
    compared,
    options_value,
    reduced,
    union_all,
)
from dtypelint.analysis.vocabulary import (
    BOOL_METHODS,
    CONTAINER_METHODS,
    DTYPE_REDUCTIONS,
    FIXED_CAST_METHODS,
    FLOAT32_ONLY_METHODS,
    FULL_REDUCTIONS,
    INT_METHODS,
    MATMUL_METHODS,
    MEETING_METHODS,
    METHOD_INDEX_ARGS,
    MODULE_METHODS,
    PY_FLOAT_BUILTINS,
    PY_INT_BUILTINS,
    SCALAR_METHODS,
    STRICT_METHODS,
    TENSOR_ATTRS,
    is_integer_name,
)


class CallEvaluation:
    """Calls of methods, modules and local functions (part of `FunctionFlow`)."""

    def call(self, node: ast.Call) -> Value:
        func = node.func
        qualname = self.qualify(func)
        if qualname is not None:
            if qualname.startswith("torch."):
                return self.torch_call(node, qualname)
            if self.module.in_project(qualname):
                return self.project_call(node, qualname)
            if qualname.rsplit(".", 1)[-1] == "point_sample" and len(node.args) >= 2:
                return self.point_sample(node)
            if qualname == "einops.einsum":  # `einsum(a, b, "i j, j k -> i k")`: pattern last
                return self.matmul(node, "einops.einsum", self.einops_operands(node))
            if qualname.startswith("numpy."):
                self.eval_args(node)
                return Value(NUMPY | (FIXED if explicit_numpy_dtype(node, self.module) else 0))
            if qualname.startswith("math."):  # `math.log(theta)`: a Python float (ceil: an int)
                self.eval_args(node)
                integer = qualname.rsplit(".", 1)[-1] in (
                    "floor",
                    "ceil",
                    "comb",
                    "factorial",
                    "gcd",
                    "isqrt",
                    "perm",
                    "trunc",
                )
                return Value(PY_NUMBER if integer else PY_NUMBER | PY_FLOAT)
        if isinstance(func, ast.Attribute) and qualname is None:
            receiver_node = func.value
            receiver = self.eval(receiver_node)
            if isinstance(receiver_node, ast.Name) and receiver_node.id == "self":
                return self.self_method_call(node, func.attr)
            if func.attr == "forward" and (layer := self.layer_base(receiver_node)):
                # guided diffusion's `GroupNorm32`: `super().forward(x.float())` meets the
                # norm's own weights, which `module.to(torch.bfloat16)` converts
                self.layer_input_check(node, "", layer, self.eval_args(node))
                return Value(ACT)
            if found := self.module.class_function(receiver_node, func.attr):
                # `ShiftWindowMSA.window_partition(img_mask, ws)`: a method of this file's class
                method, skip_first = found
                return self.local_call(node, method, self.eval_args(node), func.attr, skip_first)
            if receiver.flags & NUMPY:
                self.eval_args(node)
                if func.attr == "astype" and not is_float64(
                    node.args[0] if node.args else None, self.module
                ):
                    return Value(NUMPY | FIXED)  # an explicit dtype: not NumPy's float64 default
                if func.attr in SCALAR_METHODS:  # `.tolist()`, `.item()`: Python numbers
                    return Value(PY_NUMBER | SEQUENCE)
                return Value(receiver.flags & (NUMPY | FIXED) or NUMPY)
            if receiver.flags & COMPLEX and func.attr in ("abs", "angle"):
                return Value(FIXED)  # the magnitude of a complex64 FFT: float32 by design
            if (
                receiver.flags & MODULE
                and receiver.flags & ACT
                and func.attr in TENSOR_ATTRS | {"type"}
            ):
                # `self.weight.float()` on an attribute we could not see defined: a tensor.
                return self.tensor_method(node, func.attr, receiver_node, Value(ACT))
            if (receiver.flags & TENSORISH and not receiver.flags & MODULE) or receiver.tracked:
                return self.tensor_method(node, func.attr, receiver_node, receiver)
            if (
                func.attr in FIXED_CAST_METHODS
                and not receiver.flags & (MODULE | SEQUENCE)
                and not self._comprehension_target(receiver_node)
            ):
                # `gt_sorted.float()` with a parameter of unknown kind (a caller passes
                # `labels[perm]`), `(t == 0).float()`: only a tensor has the method, and the
                # result has that dtype (an element of a list being built may be a number)
                return self.fixed_cast(node, receiver_node, FIXED_CAST_METHODS[func.attr], receiver)
            args = self.eval_args(node)
            if receiver.flags & MODULE:
                if (
                    func.attr in CONTAINER_METHODS
                    or func.attr.startswith(("get_", "num_", "is_"))
                    or "dtype" in func.attr  # `self.pe_layer._compute_dtype()`: a dtype
                ):
                    return EMPTY  # `self.adapters.keys()`, `self.encoder.parameters()`
                return self.module_call(node, args)
            if func.attr == "get" and node.args and (key := constant_string(node.args[0])):
                if self.module.camera_names.matches(key):
                    return Value(CAMERA, cameras=(self.module.text(node),))
                return Value(ACT) if receiver.flags & TENSOR_DICT else EMPTY
            if func.attr == "get" and receiver.flags & TENSOR_DICT:
                return Value(ACT)  # `feat1.get(level)` of a `Dict[str, Tensor]` pyramid
            if func.attr in ("size", "dim", "numel"):
                return Value(PY_NUMBER)
            return self.unknown_call(args, node)
        args = self.eval_args(node)
        if (
            isinstance(func, ast.Name)
            and func.id not in self.env
            and func.id in self.module.local_functions
        ):
            return self.local_call(
                node, self.module.local_functions[func.id], args, func.id, skip_self=False
            )
        if isinstance(func, ast.Subscript) and self.eval(func.value).flags & MODULE:
            self.indexed_layer_check(node, func, args)
            return self.module_call(node, args)  # `self.layers[i](x)`
        if isinstance(func, ast.Name):
            callee = self.env.get(func.id)
            if callee is not None and callee.flags & MODULE:
                if not callee.params:  # `for layer in self.layers`, not a module passed in
                    self.looped_layer_check(node, func.id, args)
                return self.module_call(node, args, own=not callee.params)
            if callee is not None and (looped := self._looped_functions(func.id)):  # enformer
                results = [self.local_call(node, f, args, f.name, False) for f in looped]
                return union_all(results)
            if func.id == "point_sample" and len(args) >= 2:  # imported in a `try` (optional)
                return self.sampled(node, args)
            if func.id in PY_INT_BUILTINS:
                return Value(PY_NUMBER)
            if func.id in PY_FLOAT_BUILTINS:
                return Value(PY_NUMBER | PY_FLOAT)
            if func.id in ("map", "filter", "enumerate", "zip"):
                # `map(lambda size: torch.linspace(...), axis)`: what the lambda makes; `pbar =
                # enumerate(loader)`: pairs, not tensors (a `for` over the call itself is followed)
                return self.mapped(node, args) if func.id == "map" else EMPTY
            if func.id in ("list", "tuple", "reversed", "sorted"):
                return args[0][1] if args else EMPTY
            if func.id == "dict" and not node.args and not has_star_kwargs(node):
                # `dict(device=x.device)`: options for `**opts`
                return options_value({kw.arg: v for kw, (_, v) in zip(node.keywords, args)})
            if (
                func.id in ("max", "min", "sum", "abs")
                and args
                and not any(v.flags & TENSORISH for _, v in args)
            ):
                return union_all(v for _, v in args)
            if func.id in (
                "isinstance",
                "hasattr",
                "getattr",
                "callable",
                "print",
                "str",
                "repr",
                "bool",
                "type",
            ):
                return EMPTY
            if func.id in self.module.classes and self.module.classes[func.id].is_module:
                return Value(MODULE)
            if func.id == "super":
                return Value(MODULE) if self.cls is not None and self.cls.is_module else EMPTY
        if qualname is not None and qualname.startswith("einops.") and args:
            return replace(args[0][1], items=None)  # `rearrange(x, ...)`: x reshaped, same dtype
        return self.unknown_call(args, node)

    def eval_args(self, node: ast.Call) -> list[tuple[ast.expr, Value]]:
        values = [(arg, self.eval(arg)) for arg in node.args]
        values += [(kw.value, self.eval(kw.value)) for kw in node.keywords]
        return values

    def unknown_call(
        self,
        args: list[tuple[ast.expr, Value]],
        node: ast.Call | None = None,
        derived: bool = False,
    ) -> Value:
        """A call we know nothing about: it returns what an explicit `dtype=` says
        (`make_grid(..., dtype=torch.float32)`), else an activation when it is given one."""
        dtype = keyword(node, "dtype") if node is not None else None
        if dtype is not None and (made := self.given_dtype(dtype)) is not EMPTY:
            return made
        if any(v.is_act or v.flags & TENSOR_DICT for _, v in args):
            # From its arguments (`sinc(x)`, `self.model(x)`); None if each may be (`default`).
            params = frozenset().union(*(v.params for _, v in args)) if derived else frozenset()
            acts = [v for _, v in args if v.is_act]
            none = MAYBE_NONE if acts and all(v.flags & MAYBE_NONE for v in acts) else 0
            return Value(ACT | none, params=params)
        return NONE if args and all(v.flags & MAYBE_NONE for _, v in args) else EMPTY

    def module_call(
        self, node: ast.Call, args: list[tuple[ast.expr, Value]], own: bool = True
    ) -> Value:
        """Calling a submodule: its weights are in the run's dtype, so its inputs meet them;
        `own`: a module of this one's (`for layer in self.layers`), not one passed in."""
        masks = {id(kw.value) for kw in node.keywords if kw.arg and is_integer_name(kw.arg)}
        positional = [
            (a, v)
            for a, v in args
            # a parameter passed on (`layer(x, params)`): the caller's argument meets the weights
            if (v.flags & TENSORISH or v.tracked or v.items or (own and v.params))
            and (
                # A mask is no data to meet, unless filled with floats to be added to scores.
                any(record.additive_mask for record in v.factories)
                or (id(a) not in masks and not (isinstance(a, ast.Name) and is_integer_name(a.id)))
            )
        ]
        self.meet([*positional, (None, Value(ACT))], node, "module")
        # An upcast input makes no float32 output: autocast runs layers low, else the call raises
        return Value(ACT)

    def self_method_call(self, node: ast.Call, name: str) -> Value:
        args = self.eval_args(node)
        cls = self.cls
        if cls is not None and name in cls.method_nodes:
            method = cls.concrete_method(name, self.module.classes)
            return self.local_call(node, method, args, f"self.{name}", skip_self=True)
        if cls is not None and name in cls.weightless and args:
            return args[0][1]  # `self.dropout(x)`: no weights to meet, x's dtype comes out
        if cls is not None and (
            name in cls.submodules
            or (cls.is_module and name not in cls.methods and name not in cls.plain_attrs)
        ):
            if name in MODULE_METHODS:
                return EMPTY
            result = self.module_call(node, args)
            self.layer_input_check(node, name, layer := cls.submodule_classes.get(name, ""), args)
            summary = self._forward_summary(layer, args)
            self.submodule_input_check(node, name, summary, args)
            if summary is not None and summary.fixed:  # `encoding.float()` returned
                return self.returned_cast(node, f"self.{name}", summary)
            return result
        if name in ("to", "float", "half"):
            return EMPTY
        return self.unknown_call(args, node)

    def _comprehension_target(self, node: ast.expr) -> bool:
        """`x` of `[x.float() if isinstance(x, torch.Tensor) else ... for x in elems]`."""
        return isinstance(node, ast.Name) and any(
            isinstance(n, ast.comprehension) and node.id in names_in_order(n.target)
            for n in self.module.scan(self.node).nodes
        )

    def _forward_summary(
        self, class_name: str | None, args: list[tuple[ast.expr, Value]]
    ) -> Summary | None:
        """The summary of the forward of a submodule whose class is in this file, or in another
        module of the project (`from .utils import MLP`: `project.MLP.forward`, noted as a use,
        and as given a cast where its first argument is one)."""
        cls = self.module.classes.get(class_name) if class_name else None
        if cls is not None:
            forward = cls.method_nodes.get("forward")
            return self.summary_of(forward) if forward is not None else None
        qualname = self.module.aliases.get(class_name or "")
        if qualname is None or not self.module.in_project(qualname):
            return None
        key, project = f"{qualname}.forward", self.module.project
        project.imports.add(key)
        if args and args[0][1].flags & FIXED and not args[0][1].is_act:
            project.factory_imports.add(key)  # its `layer_params` can make a finding here
        return project.summaries.get(key)

    def local_call(
        self,
        node: ast.Call,
        callee: ast.FunctionDef | ast.AsyncFunctionDef,
        args: list[tuple[ast.expr, Value]],
        name: str,
        skip_self: bool,
    ) -> Value:
        """A call of a function of this file: note what its parameters receive, use its summary."""
        key = id(callee)
        self.note_callee(callee)
        params = [p.arg for p in (*callee.args.posonlyargs, *callee.args.args)]
        if skip_self:
            params = params[1:]
        received = bound_arguments(node, params, args)
        for param, (arg, value) in received.items():
            index = (value.flags & INT or value.int_factories) and not value.flags & ACT
            if isinstance(arg, (ast.List, ast.Tuple, ast.Constant)) or index:  # data, indices
                table = self.module.data_args
            elif value.flags & CAMERA or value.is_act:  # a camera on some path is one
                table = self.module.camera_args if value.flags & CAMERA else self.module.act_args
            else:
                continue
            table.setdefault(key, set()).add(param)
        return self.summarised_call(node, name, self.summary_of(callee), received, args)

    def summary_of(self, callee: ast.FunctionDef | ast.AsyncFunctionDef) -> Summary | None:
        """This walk's summary of a local function, else the last walk's (noted in `consulted`)."""
        summary = self.module.new_summaries.get(id(callee))
        if summary is None or not summary.interesting:
            summary = self.module.summaries.get(id(callee))
        self.module.consulted.setdefault(id(callee), summary)
        return summary

    def summarised_call(
        self,
        node: ast.Call,
        name: str,
        summary: Summary | None,
        received: dict[str, tuple[ast.expr, Value]],
        args: list[tuple[ast.expr, Value]],
    ) -> Value:
        """A call of a function whose summary is known (this file's or an imported one's)."""
        if summary is not None:
            self.meet_through(node, summary, received)
            dtype = keyword(node, "dtype")
            if dtype is not None and "dtype" in summary.params:
                # `to_torch(p2d, dtype=A.dtype)`: the helper makes what it is told to
                made = self.given_dtype(dtype)
                return made if made is not EMPTY else self.unknown_call(args, node)
            if summary.kernel:
                self.info.kernel = True
            if summary.passes is not None and summary.passes in received:
                return received[summary.passes][1]  # the argument, reshaped: same dtype, origin
            chosen = [received[p][1] for p in summary.chooses if p in received]
            if chosen and len(chosen) == len(summary.chooses):  # `default(noise, torch.randn())`
                return alternatives(chosen)
            kept = received.get(summary.keeps or "", (None, EMPTY))[1]
            if kept.factories and not kept.flags & (ACT | FIXED):  # its dtype, still float32
                return Value(kept.flags & ~(SEQUENCE | ONE_DIM), factories=kept.factories)
        if summary is not None and summary.cameras:
            return camera_returned(summary, name, received, self._camera_parameter)
        if summary is not None and summary.fixed:
            return self.returned_cast(node, name, summary)
        if summary is not None and summary.fresh:
            if (given := received.get(summary.fresh_dtype_param or "")) is not None:
                made = self.given_dtype(given[0])  # `make_grid_points(h, w, device, x.dtype)`
                return made if made is not EMPTY else self.unknown_call(args, node)
            record = self.helper_factory(node, name, returned_from=summary.fresh)
            record.dtype_param = summary.fresh_dtype_param
            record.additive_mask = summary.fresh_mask
            return Value(0, factories=frozenset({record}))
        if summary is not None and summary.numpy_array:  # `torch.tensor(helper())`: DTL004's
            return Value(NUMPY)
        if summary is not None and summary.numpy:  # DTL004's, at the call
            record = self.helper_factory(node, name, origin="helper")
            return Value(0, factories=frozenset({record}))
        if summary is not None and summary.items is not None:
            result = self.unknown_call(args, node)
            return Value(SEQUENCE, items=summary_item_values(summary, name, result))
        return self.unknown_call(args, node, derived=not name.startswith("self."))

    def returned_cast(self, node: ast.Call, name: str, summary: Summary) -> Value:
        """A helper whose returns are cast to a fixed dtype inside: float32 by design, and its
        casts are met here, at the call (DTL003 reports a bf16 layer or product given it)."""
        acts = self.bound_act_names()
        casts = frozenset(
            FixedCast(node, dtype, node, acts, kind, returned_from=name)
            for dtype, kind in summary.fixed_casts
        )
        return Value(FIXED, fixed=casts)

    def _looped_functions(self, name: str) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
        """This file's functions a loop variable takes in turn (`for fn in [f, g]: fn(x)`)."""
        info = self.info
        if info.loop_functions is None:
            info.loop_functions = {}
            nodes = self.module.scan(self.node).nodes
            lists = {
                n.targets[0].id: n.value
                for n in nodes
                if isinstance(n, ast.Assign)
                and isinstance(n.targets[0], ast.Name)
                and isinstance(n.value, (ast.List, ast.Tuple))
            }
            for n in nodes:
                if isinstance(n, (ast.For, ast.AsyncFor)) and isinstance(n.target, ast.Name):
                    items = lists.get(n.iter.id) if isinstance(n.iter, ast.Name) else n.iter
                    names = items.elts if isinstance(items, (ast.List, ast.Tuple)) else []
                    found = [self.module.local_functions.get(getattr(e, "id", "")) for e in names]
                    if functions := [f for f in found if f is not None]:
                        info.loop_functions[n.target.id] = functions
        return info.loop_functions.get(name, [])

    def _camera_parameter(self, node: ast.expr) -> bool:
        """A parameter of this function with a camera name, a weak one (`trans_12`) too."""
        names = self.module.camera_names
        return isinstance(node, ast.Name) and node.id in self.param_names and names.matches(node.id)

    def project_call(self, node: ast.Call, qualname: str) -> Value:
        """A call of a function imported from another module of the project."""
        args = self.eval_args(node)
        self.module.project.imports.add(qualname)
        if any(value.tracked for _, value in args):
            self.module.project.factory_imports.add(qualname)
        summary = self.module.project.summaries.get(qualname)
        if summary is None:
            result = self.unknown_call(args, node)
            if not result.is_act:
                self.module.project.plain_imports.add(qualname)
            return result
        received = bound_arguments(node, summary.params, args)
        return self.summarised_call(node, qualname.rsplit(".", 1)[-1], summary, received, args)

    def tensor_method(
        self, node: ast.Call, name: str, receiver_node: ast.expr, receiver: Value
    ) -> Value:
        args = [(arg, self.eval(arg)) for arg in node.args]
        kwargs = {kw.arg: (kw.value, self.eval(kw.value)) for kw in node.keywords}
        self.rounded(name, receiver_node)
        if receiver.flags & ONE_DIM and name not in ("to", "cuda", "cpu", "clone", "detach"):
            receiver = replace(receiver, flags=receiver.flags & ~ONE_DIM)  # may reshape it
        if name in FIXED_CAST_METHODS:
            return self.fixed_cast(node, receiver_node, FIXED_CAST_METHODS[name], receiver)
        full = name in FULL_REDUCTIONS and not args and not kwargs  # `m.float().sum()`: 0-dim
        if full and (scalar := reduced(receiver)) is not None:
            return scalar
        if (
            name in ("masked_fill", "masked_fill_")
            and len(node.args) > 1
            and float_constant(node.args[1])
        ):
            # `mask.masked_fill(mask != 0, -100.0)`: an additive attention mask, added to the
            # scores wherever it is passed (Swin's shifted windows), not a 0/1 mask.
            for record in receiver.factories:
                record.additive_mask = True
        if name in INT_METHODS:
            return Value(INT)
        if name in BOOL_METHODS:
            return Value(BOOL)
        if name in SCALAR_METHODS or name == "size":
            return Value(PY_NUMBER | (SEQUENCE if name == "tolist" else 0))
        if name == "numpy":
            return Value(NUMPY | FIXED)  # the tensor's own dtype, not NumPy's float64 default
        if name == "to" or name == "type":
            return self.to_call(node, receiver_node, receiver, args, kwargs)
        if name == "type_as":
            other = args[0][1] if args else EMPTY
            if other.is_act:
                return Value(ACT | other.flags & FIXED, fixed=other.fixed)
            if other.is_camera:  # `torch.tensor([0, 0, 1.0]).type_as(R)`: in the camera's dtype
                return Value(CAMERA, cameras=other.cameras)
            return Value(FIXED, fixed=other.fixed) if other.flags & FIXED else EMPTY
        if name in DTYPE_REDUCTIONS and "dtype" in kwargs:
            cast = node if name in ("softmax", "log_softmax") and receiver.is_act else None
            return self.dtype_value(*kwargs["dtype"], cast_node=cast, receiver_node=cast)
        if name.startswith("new_") or name == "new":
            # `x.new_zeros(...)` has x's dtype unless told otherwise.
            dtype = kwargs.get("dtype")
            if dtype is not None:
                return self.dtype_value(dtype[0], dtype[1])
            return Value(  # of the receiver's making: what it derives from, too
                receiver.flags & (ACT | CAMERA | FIXED),
                cameras=receiver.cameras,
                fixed=receiver.fixed,
                params=receiver.params,
            )
        if (
            name in FLOAT32_ONLY_METHODS
            and receiver.flags & (ACT | FIXED)
            and not receiver.is_camera
        ):
            # No low-precision kernel: float32 or wider in a working run (see torch_call).
            if receiver.is_act:
                self.info.float32_numerics = True
            return Value(FIXED)
        if name in MATMUL_METHODS:
            operands = [(receiver_node, receiver)] + [a for a in args]
            return self.matmul(node, f".{name}", operands)
        index_positions = METHOD_INDEX_ARGS.get(name, ())
        self.mark_indices(
            [a for i, a in enumerate(args) if i in index_positions],
            node,
            [(receiver_node, receiver)],
        )
        data_args = [
            a
            for i, a in enumerate(args)
            if i not in index_positions and (a[1].flags & TENSORISH or a[1].tracked)
        ]
        data_args += [
            v
            for k, v in kwargs.items()
            if k not in ("dim", "index", "mask", "out") and (v[1].flags & TENSORISH or v[1].tracked)
        ]
        if name in STRICT_METHODS or (name in MEETING_METHODS and name.endswith("_")):
            for _, written in data_args:
                self.mark_written(receiver, written)
        if name in STRICT_METHODS:
            return self.meet(
                [(receiver_node, receiver), *data_args], node, "strict", keep_left=True
            )
        if name in MEETING_METHODS:
            kind = "compare" if name in ("eq", "ne", "lt", "le", "gt", "ge") else "arith"
            result = self.meet(
                [(receiver_node, receiver), *data_args], node, kind, keep_left=name.endswith("_")
            )
            return (
                compared([(receiver_node, receiver), *data_args]) if kind == "compare" else result
            )
        if name in ("unbind", "chunk", "split", "tensor_split", "split_with_sizes"):
            return Value(
                receiver.flags | SEQUENCE,
                receiver.factories,
                receiver.int_factories,
                receiver.cameras,
                receiver.fixed,
            )
        if name in (
            "max",
            "min",
            "sort",
            "topk",
            "kthvalue",
            "median",
            "mode",
            "cummax",
            "cummin",
        ) and (args or kwargs):
            return Value(SEQUENCE, items=(replace(receiver, items=None), Value(INT)))
        if name.startswith(("get_", "is_", "has_", "num_")) or name.endswith(
            ("_length", "_size", "_len")
        ):
            return EMPTY  # `cache.get_seq_length()`: metadata, not a tensor
        return receiver

    def helper_factory(
        self,
        node: ast.Call,
        name: str,
        origin: str = "factory",
        returned_from: str | None = None,
    ) -> FactoryCall:
        """A tensor a helper made and returned, followed from the call, where the caller's
        activations meet it: float32 made without `dtype=` (`Summary.fresh`), or NumPy-made."""
        record = FactoryCall(
            node=node,
            func_text=name,
            factory="helper",
            integer=False,
            function=self.info,
            bound_act_names=self.bound_act_names(),
            device_source=None,
            origin=origin,
            returned_from=returned_from,
        )
        self.record_once(node, self.module.factory_calls, record)
        return record

    def record_once(self, node: ast.AST, events: list, event: object) -> None:
        """Add the event a node makes to the module's list, once per node."""
        if id(node) not in self.seen_calls:
            self.seen_calls.add(id(node))
            events.append(event)
