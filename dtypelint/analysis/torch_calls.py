"""Calls of torch functions: factories, matmuls, casts."""

from __future__ import annotations

import ast
from dataclasses import replace

from dtypelint.analysis.expressions import literal_kind, literal_leaves
from dtypelint.analysis.roles import cast_receiver_kind, non_tensor_name
from dtypelint.analysis.syntax import (
    constant_string,
    defaults_by_param,
    expression_root_name,
    has_star_kwargs,
    is_empty_shape,
    keyword,
    last_name,
    one_dim_call,
)
from dtypelint.analysis.values import (
    ACT,
    BINDING,
    BOOL,
    CAMERA,
    COMPLEX,
    DEVICE,
    DTYPE_OF_ACT,
    DTYPE_OF_CAMERA,
    DTYPE_OF_FIXED,
    EMPTY,
    FIXED,
    INT,
    MODULE,
    NUMPY,
    ONE_DIM,
    PY_FLOAT,
    PY_NUMBER,
    SEQUENCE,
    TENSORISH,
    ZERO_DIM,
    FactoryCall,
    FixedCast,
    Value,
    compared,
    dtype_source,
    join,
    reduced,
)
from dtypelint.analysis.vocabulary import (
    AUTOCAST_FUNCS,
    BOOL_TORCH_FUNCS,
    COMPLEX_DTYPES,
    COMPLEX_TORCH_FUNCS,
    FACTORIES,
    FLOAT32_ONLY_FUNCS,
    FLOAT_DTYPES,
    FULL_REDUCTIONS,
    INDEX_ARGS,
    INT_DTYPES,
    INT_TORCH_FUNCS,
    LIKE_FACTORIES,
    MATMUL_FUNCS,
    REAL_INPUT_FFTS,
    SAME_DTYPE_PREFIXES,
    STRICT_FUNCS,
    TENSOR_KEYWORDS,
    TENSOR_TYPES,
    is_integer_name,
    non_tensor_torch,
)


class TorchCallEvaluation:
    """Calls of torch functions and factories (part of `FunctionFlow`)."""

    def torch_call(self, node: ast.Call, qualname: str) -> Value:
        short = qualname.rsplit(".", 1)[-1]
        if non_tensor_torch(qualname):
            self.eval_args(node)
            return Value(DEVICE) if qualname == "torch.device" else EMPTY
        if qualname in AUTOCAST_FUNCS:
            self.eval_args(node)
            return EMPTY
        if qualname in COMPLEX_TORCH_FUNCS or qualname.startswith("torch.fft."):
            args = self.eval_args(node)
            if qualname in REAL_INPUT_FFTS and args and args[0][1].is_act:
                self.info.float32_numerics = True  # no bfloat16 FFT: float32 numerics by design
            return Value(COMPLEX)
        if (
            qualname.startswith("torch.nn.")
            and not qualname.startswith("torch.nn.functional.")
            and short[:1].isupper()
        ):
            self.eval_args(node)
            return EMPTY if short in ("Parameter",) else Value(MODULE)
        if qualname.count(".") == 1 and short in FACTORIES:
            return self.factory_call(node, qualname, short)
        if qualname in ("torch.Tensor", "torch.FloatTensor"):
            return self.legacy_constructor(node, short)
        if short in LIKE_FACTORIES:
            args = self.eval_args(node)
            dtype = keyword(node, "dtype")
            if dtype is not None:
                return self.dtype_value(dtype, self.eval(dtype))
            like = args[0][1] if args else EMPTY
            return Value(
                like.flags & (ACT | CAMERA | FIXED | INT | BOOL),
                cameras=like.cameras,
                fixed=like.fixed,
            )
        if qualname == "torch.from_numpy":
            args = self.eval_args(node)
            data = args[0][1] if args else EMPTY
            if data.flags & FIXED and not data.flags & CAMERA:
                return EMPTY  # an array given its dtype on purpose (`dtype=np.float32`)
            if not data.flags & (NUMPY | CAMERA):
                return EMPTY  # an array from elsewhere: its dtype is unknown, not float64
            record = self.new_factory(node, short, integer=False)
            record.origin = "numpy"
            # A camera array stays a camera (DTL002 at the matmul) and is NumPy-made (DTL004).
            return Value(data.flags & CAMERA, factories=frozenset({record}), cameras=data.cameras)
        args = [(arg, self.eval(arg)) for arg in node.args]
        kwargs = [(kw.arg, kw.value, self.eval(kw.value)) for kw in node.keywords]
        softmax = short in ("softmax", "log_softmax") and args and args[0][1].is_act
        dtype = next(((v, val) for k, v, val in kwargs if k == "dtype"), None) if softmax else None
        if dtype is not None:  # `F.softmax(scores, dim=-1, dtype=torch.float32)`: a cast
            return self.dtype_value(*dtype, cast_node=node, receiver_node=node)
        if qualname == "torch.nn.functional.binary_cross_entropy":
            # the one loss raising on mixed dtypes: `F.binary_cross_entropy(p, t.float())`
            given = args + [(v, val) for k, v, val in kwargs if k in ("input", "target")]
            self.matmul_operands_check(node, "F.binary_cross_entropy", given[:2])
        if qualname in INT_TORCH_FUNCS:
            return Value(INT)
        full = short in FULL_REDUCTIONS and len(args) == 1 and not kwargs  # `torch.mean(x)`
        if full and (scalar := reduced(args[0][1])) is not None:
            return scalar
        if qualname in FLOAT32_ONLY_FUNCS and any(
            v.flags & (ACT | FIXED) and not v.is_camera for _, v in args
        ):
            # No low-precision kernel: where it runs, its operands and result are float32 or
            # wider (`cholesky_solve(f, L)`). An inverted camera stays one (DTL002's, below).
            if any(v.is_act for _, v in args):
                self.info.float32_numerics = True
            return Value(FIXED)
        if qualname in BOOL_TORCH_FUNCS:
            return compared(args) if short != "bernoulli" else Value(BOOL)  # 0-dim stays 0-dim
        if qualname in MATMUL_FUNCS:  # `F.linear(input=x, weight=w)`: keywords are operands too
            keyed = [(v, val) for k, v, val in kwargs if k in TENSOR_KEYWORDS]
            operands = self.matmul_operand_list(qualname, node, args + keyed)
            return self.matmul(node, qualname, operands)
        index_positions = INDEX_ARGS.get(short, ())
        self.mark_indices(
            [a for i, a in enumerate(args) if i in index_positions],
            node,
            [a for i, a in enumerate(args) if i not in index_positions],
        )
        operands: list[tuple[ast.AST | None, Value]] = []
        for position, (arg, value) in enumerate(args):
            if position in index_positions:
                continue
            if value.items is not None and isinstance(arg, (ast.List, ast.Tuple)):
                operands.extend(zip(arg.elts, value.items))
            else:
                operands.append((arg, value))
        operands += [(v, val) for k, v, val in kwargs if k in TENSOR_KEYWORDS]
        tensor_operands = [o for o in operands if o[1].flags & TENSORISH or o[1].tracked]
        dtype_kw = next(((v, val) for k, v, val in kwargs if k == "dtype"), None)
        if dtype_kw is not None:
            return self.dtype_value(*dtype_kw)
        if len(tensor_operands) >= 2:
            kind = (
                "strict"
                if qualname in STRICT_FUNCS
                else (
                    "cat"
                    if short
                    in ("cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack")
                    else "arith"
                )
            )
            if short in ("maximum", "minimum", "eq", "ne", "lt", "gt", "le", "ge"):
                kind = "compare" if short in ("eq", "ne", "lt", "gt", "le", "ge") else kind
            if kind == "strict" and short.startswith(SAME_DTYPE_PREFIXES):  # a cast grid too
                self.matmul_operands_check(node, f"F.{short}", tensor_operands[:2])
            result = self.meet(tensor_operands, node, kind)
            return compared(tensor_operands) if kind == "compare" else result
        if qualname.startswith("torch.nn.functional.") and tensor_operands:
            # F.* with a module's weights or on an activation: the result is an activation.
            return join(v for _, v in tensor_operands)
        if tensor_operands:
            value = tensor_operands[0][1]
            if short in (
                "unbind",
                "chunk",
                "split",
                "tensor_split",
                "meshgrid",
                "broadcast_tensors",
            ):
                return Value(
                    value.flags | SEQUENCE,
                    value.factories,
                    value.int_factories,
                    value.cameras,
                    value.fixed,
                )
            if (
                short in ("max", "min", "sort", "topk", "kthvalue", "median", "mode")
                and len(node.args) + len(node.keywords) > 1
            ):
                return Value(SEQUENCE, items=(replace(value, items=None), Value(INT)))
            return (
                replace(value, flags=value.flags & ~SEQUENCE, items=None)
                if value.items is not None
                else value
            )
        if any(v.is_act for _, v in args):
            return Value(ACT)
        return EMPTY

    def point_sample(self, node: ast.Call) -> Value:
        """mmcv's and detectron2's `point_sample(input, coords)`: `F.grid_sample` on points, whose
        input and coordinates must share one dtype (PointRend, Mask2Former)."""
        return self.sampled(node, self.eval_args(node))

    def sampled(self, node: ast.Call, args: list[tuple[ast.expr, Value]]) -> Value:
        self.matmul_operands_check(node, "point_sample", args[:2])  # type: ignore[arg-type]
        self.meet(args[:2], node, "strict")  # type: ignore[arg-type]
        return Value(ACT) if args[0][1].is_act else self.unknown_call(args, node)

    def einops_operands(self, node: ast.Call) -> list[tuple[ast.AST | None, Value]]:
        return [(a, v) for a, v in self.eval_args(node) if constant_string(a) is None]

    @staticmethod
    def matmul_operand_list(
        qualname: str, node: ast.Call, args: list[tuple[ast.expr, Value]]
    ) -> list[tuple[ast.AST | None, Value]]:
        if qualname.endswith("einsum"):
            rest = args[1:]
            if (
                len(rest) == 1
                and rest[0][1].items is not None
                and isinstance(rest[0][0], (ast.List, ast.Tuple))
            ):
                return list(zip(rest[0][0].elts, rest[0][1].items))
            return list(rest)
        if (
            qualname.endswith("multi_dot")
            and args
            and args[0][1].items is not None
            and isinstance(args[0][0], (ast.List, ast.Tuple))
        ):
            return list(zip(args[0][0].elts, args[0][1].items))
        return [a for a in args if a[1].flags & TENSORISH or a[1].tracked or a[1] is EMPTY]

    def none_dtype_parameter(self, dtype: ast.expr | None) -> str | None:
        """`dtype=dtype` with the function's parameter `dtype=None`, never reassigned: the
        factory has no dtype unless a caller passes one (blind set v6's `make_grid_points`)."""
        if not isinstance(dtype, ast.Name) or dtype.id not in self.param_names:
            return None
        default = defaults_by_param(self.node).get(dtype.id)
        unset = isinstance(default, ast.Constant) and default.value is None
        return dtype.id if unset and dtype.id not in self.assigned_from else None

    def factory_call(self, node: ast.Call, qualname: str, short: str) -> Value:
        args = self.eval_args(node)
        dtype = keyword(node, "dtype")
        dtype_param = self.none_dtype_parameter(dtype)
        if dtype is not None and dtype_param is None:
            return self.given_dtype(dtype)
        options = self.star_options(node)
        if options is None:
            return EMPTY  # `**factory_kwargs` may well carry the dtype
        if "dtype" in options.keys:  # type: ignore[operator]
            return EMPTY  # `opts = dict(dtype=x.dtype, ...)`: given, through the options
        kind = self.factory_kind(node, short, args)
        if kind == "zero_dim":
            return Value(ZERO_DIM)
        if kind == "copy":
            data = args[0][1]
            return Value(
                data.flags & (ACT | CAMERA | INT | BOOL | FIXED),
                cameras=data.cameras,
                fixed=data.fixed,
            )
        if kind == "numpy":
            record = self.new_factory(node, short, integer=False)
            record.origin = "numpy"
            data = args[0][1] if args else EMPTY
            # A camera array stays a camera (DTL002 at the matmul) and is NumPy-made (DTL004).
            return Value(data.flags & CAMERA, factories=frozenset({record}), cameras=data.cameras)
        if kind is None:
            return EMPTY
        record = self.new_factory(node, short, integer=(kind == "int"))
        record.dtype_param = dtype_param
        if kind == "int" and short in ("tensor", "as_tensor"):
            data = node.args[0] if node.args else None
            leaves = (
                [
                    leaf.operand if isinstance(leaf, ast.UnaryOp) else leaf
                    for leaf, _ in literal_leaves(data, EMPTY)
                ]
                if isinstance(data, (ast.List, ast.Tuple))
                else []
            )
            numbers = [
                leaf.value
                for leaf in leaves
                if isinstance(leaf, ast.Constant) and isinstance(leaf.value, int)
            ]
            # Small int literals: a float quantity (`[0, 1, 0]`); large ones: hash primes, ids.
            record.int_literal_vector = bool(leaves) and len(numbers) == len(leaves)
            record.largest_literal = max((abs(n) for n in numbers), default=0)
            record.literal_count = len(numbers)
        one_dim = ONE_DIM if record.one_dim else 0
        if kind == "int":
            return Value(INT | one_dim, int_factories=frozenset({record}))
        if id(node) in self.module.written:  # activations are written into it (an earlier walk)
            record.written_into = True
            return Value(ACT, factories=frozenset({record}))
        return Value(one_dim, factories=frozenset({record}))

    def legacy_constructor(self, node: ast.Call, short: str) -> Value:
        """`torch.Tensor([[a, b], [c, d]])`: float32 whatever the run (pyiqa's color matrices).
        Only a literal is followed: `torch.Tensor(x)` may copy a tensor or take sizes."""
        args = self.eval_args(node)
        if (
            node.keywords
            or len(node.args) != 1
            or not isinstance(node.args[0], (ast.List, ast.Tuple))
        ):
            return EMPTY
        for leaf, value in literal_leaves(node.args[0], args[0][1]):
            number = leaf.operand if isinstance(leaf, ast.UnaryOp) else leaf
            known = value.flags & (TENSORISH | PY_NUMBER) and not value.flags & NUMPY
            if not (isinstance(number, ast.Constant) or known):
                # `torch.Tensor((value,))` of a metric computed elsewhere (in NumPy, float64 as
                # often as not: lpips'): numbers to keep, not constants to give the run's dtype
                return EMPTY
        record = self.new_factory(node, short, integer=False)
        record.legacy = True
        return Value(0, factories=frozenset({record}))

    def bound_act_names(self) -> frozenset[str]:
        """Names that hold a floating activation on every path to here, never `None`: the only
        names a fix may take a dtype from."""
        return frozenset(
            name
            for name, value in self.env.items()
            if dtype_source(value) and not value.flags & BINDING
        )

    def new_factory(self, node: ast.Call, short: str, integer: bool) -> FactoryCall:
        device = keyword(node, "device")
        device_source = None
        if device is not None:
            if (
                isinstance(device, ast.Attribute)
                and device.attr == "device"
                and self.eval(device.value).is_act
            ):
                device_source = expression_root_name(device.value)
            else:
                device_source = self.eval(device).device_of
        elif has_star_kwargs(node):  # `**dict(device=x.device)`
            options = self.star_options(node)
            device_source = options.device_of if options is not None else None
        record = FactoryCall(
            node=node,
            func_text=self.module.text(node.func),
            factory=short,
            integer=integer,
            function=self.info,
            bound_act_names=self.bound_act_names(),
            device_source=device_source,
            one_dim=one_dim_call(node, short),
        )
        self.record_once(node, self.module.factory_calls, record)
        return record

    def star_options(self, node: ast.Call) -> Value | None:
        """What the call's `**opts` pass, when every one is a dict of known keys (the keys of all,
        and the device one gives); None when any is unknown (`**kwargs`: may carry a dtype)."""
        keys: frozenset[str] = frozenset()
        device_of = None
        for kw in node.keywords:
            if kw.arg is not None:
                continue
            value = self.eval(kw.value)
            if value.keys is None:
                return None
            keys |= value.keys
            device_of = device_of or value.device_of
        return Value(keys=keys, device_of=device_of)

    def factory_kind(
        self, node: ast.Call, short: str, args: list[tuple[ast.expr, Value]]
    ) -> str | None:
        """float | int | zero_dim | copy | numpy | None (unknown: do not track)."""
        positional = node.args
        if short in ("tensor", "as_tensor"):
            data_node = positional[0] if positional else keyword(node, "data")
            if data_node is None:
                return None
            data = self.eval(data_node)
            if data.flags & NUMPY:
                return None if data.flags & FIXED else "numpy"
            if data.flags & (ACT | CAMERA | FIXED) or (
                data.flags & (INT | BOOL) and not data.flags & SEQUENCE
            ):
                return "copy"
            if isinstance(data_node, (ast.List, ast.Tuple, ast.ListComp)):
                return literal_kind(data_node, data)
            if data.flags & SEQUENCE and data.flags & PY_NUMBER and not data.flags & TENSORISH:
                return "float" if data.flags & PY_FLOAT else "int"
            if data.flags & PY_NUMBER and not data.flags & SEQUENCE:
                return "zero_dim"
            if isinstance(data_node, (ast.Constant, ast.UnaryOp, ast.BinOp)):
                return "zero_dim"
            return None  # a name we cannot see into: a scalar as often as a list
        if short in ("zeros", "ones", "empty", "rand", "randn", "full"):
            size = positional[0] if positional else keyword(node, "size")
            if size is None or (is_empty_shape(size) and (short == "full" or len(positional) == 1)):
                return "zero_dim"
            if short == "full":
                fill = positional[1] if len(positional) > 1 else keyword(node, "fill_value")
                if fill is None:
                    return None
                if isinstance(fill, ast.Constant) and isinstance(fill.value, bool):
                    return None
                fill_value = self.eval(fill)
                if isinstance(fill, ast.Constant) and isinstance(fill.value, int):
                    return "int"
                if (
                    isinstance(fill, ast.UnaryOp)
                    and isinstance(fill.operand, ast.Constant)
                    and isinstance(fill.operand.value, int)
                ):
                    return "int"
                if fill_value.flags & (PY_FLOAT | ACT | ZERO_DIM) or (
                    isinstance(fill, ast.Constant) and isinstance(fill.value, float)
                ):
                    return "float"  # a float, or a 0-dim tensor: the default float dtype
                if fill_value.flags & (PY_NUMBER | INT | BOOL) or _names_an_index(fill):
                    return None  # a token id, a pad index, a label: integer by intent
                # `self.min_sigma`, `norm`: a quantity; if it is an int, the int64 result is used
                # as an index somewhere and the fix is never safe (int_change).
                return "float"
            return "float"
        if short == "arange":
            values = [v for _, v in args[: len(positional)]]
            floats = any(v.flags & PY_FLOAT for v in values) or any(
                isinstance(a, ast.Constant) and isinstance(a.value, float) for a in positional
            )
            return "float" if floats else "int"
        if short in ("eye", "linspace", "logspace"):
            return "float"
        return None

    def given_dtype(self, dtype: ast.expr) -> Value:
        """What a call given `dtype=` makes; `dtype=torch.float32` spelled out is a fixed dtype,
        DTL003's where it meets activations in a product or a layer (SAM2's position grid)."""
        made, qualname = self.dtype_value(dtype, self.eval(dtype)), self.qualify(dtype) or ""
        if made is EMPTY and qualname in FLOAT_DTYPES:
            cast = FixedCast(
                dtype, FLOAT_DTYPES[qualname], dtype, self.bound_act_names(), made=True
            )
            self.record_once(dtype, self.module.fixed_casts, cast)
            return Value(FIXED, fixed=frozenset({cast}))
        return made

    def fixed_cast(
        self, node: ast.AST, receiver_node: ast.expr, dtype: str, receiver: Value = EMPTY
    ) -> Value:
        kind = cast_receiver_kind(receiver_node, receiver)
        cast = FixedCast(node, dtype, receiver_node, self.bound_act_names(), kind)
        self.record_once(node, self.module.fixed_casts, cast)
        return Value(FIXED | receiver.flags & ZERO_DIM, fixed=frozenset({cast}))

    def to_call(
        self,
        node: ast.Call,
        receiver_node: ast.expr,
        receiver: Value,
        args: list[tuple[ast.expr, Value]],
        kwargs: dict[str | None, tuple[ast.expr, Value]],
    ) -> Value:
        """`.to(...)`: a device move keeps the value; a dtype cast changes it."""
        target: tuple[ast.expr, Value] | None = kwargs.get("dtype")
        if target is None:
            for arg, value in args:
                # a `dtype` parameter is a DEVICE value, but `.to(dtype)` casts (to the caller's)
                spelled = last_name(arg)
                if (value.flags & DEVICE and "dtype" not in (spelled or "").lower()) or (
                    isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                ):
                    continue
                known = value.flags & (TENSORISH | DTYPE_OF_ACT | DTYPE_OF_FIXED) or value.tracked
                if (
                    isinstance(arg, ast.Name)
                    and not known
                    and value.params
                    and non_tensor_name(arg.id) is None
                    and "dtype" not in arg.id.lower()
                ):
                    return Value(ACT)  # `.to(x)` with a parameter `x`: x's dtype and device
                if (
                    spelled
                    and "dtype" not in spelled.lower()
                    and not known
                    and value.qualname is None
                    and self.qualify(arg) is None
                ):
                    if not any(w in spelled.lower() for w in ("dev", "cuda", "gpu", "cpu")):
                        return EMPTY  # `.to(cam_centers)`: some tensor's dtype, the author's
                    continue  # `.to(device)`, `.to(dev)`, `.to(self.device)`: a move, not a cast
                if isinstance(arg, ast.Constant) and isinstance(arg.value, bool):
                    continue
                if isinstance(arg, ast.Call) and not known and value.qualname is None:
                    return EMPTY  # `.to(self._compute_dtype())`: a dtype we cannot know
                target = (arg, value)
                break
        if target is None:
            return receiver
        arg, value = target
        if value.is_act:  # .to(x): x's dtype and device (upcast on a path where x is)
            return Value(ACT | value.flags & FIXED, fixed=value.fixed)
        if value.is_camera:  # .to(K): the camera's dtype
            return Value(CAMERA, cameras=value.cameras)
        if value.flags & FIXED:  # .to(y) where y was cast to a fixed dtype
            return Value(FIXED, fixed=value.fixed)
        if value.flags & (INT | BOOL) and not value.flags & (PY_NUMBER | DEVICE):
            return Value(value.flags & (INT | BOOL))  # `zeros(n, k).to(indices)`: int64, a count
        return self.dtype_value(arg, value, node, receiver_node, receiver)

    def dtype_value(
        self,
        arg: ast.expr,
        value: Value,
        cast_node: ast.AST | None = None,
        receiver_node: ast.expr | None = None,
        receiver: Value = EMPTY,
    ) -> Value:
        """The tensor value produced by a dtype argument (`dtype=x.dtype`, `torch.float16`)."""
        if value.flags & DTYPE_OF_ACT:  # from src's parameters, as src, upcast where it is
            upcast = FIXED if value.flags & DTYPE_OF_FIXED else 0
            return Value(ACT | upcast, fixed=value.fixed, params=value.params)
        if value.flags & DTYPE_OF_FIXED:
            return Value(FIXED, fixed=value.fixed)
        if value.flags & DTYPE_OF_CAMERA:  # `dtype=K.dtype`: made in the camera's dtype
            return Value(CAMERA, cameras=value.cameras)
        qualname = value.qualname or self.qualify(arg)
        if qualname in COMPLEX_DTYPES:
            return Value(COMPLEX)
        if qualname in FLOAT_DTYPES:
            if cast_node is not None and receiver_node is not None:
                return self.fixed_cast(cast_node, receiver_node, FLOAT_DTYPES[qualname], receiver)
            return EMPTY
        if qualname in INT_DTYPES:
            return Value(BOOL) if qualname == "torch.bool" else Value(INT)
        if qualname in TENSOR_TYPES:  # `.type(torch.cuda.FloatTensor)`: no DTL003 rewrite
            kind = TENSOR_TYPES[qualname]
            return Value({"float": FIXED, "int": INT, "bool": BOOL}[kind])
        return EMPTY  # an unknown dtype: assume the author chose it


def _names_an_index(node: ast.AST) -> bool:
    """`pad_id`, `self.ignore_index`, `num_classes`: a name of an integer quantity."""
    name = last_name(node)
    words = set(name.lower().split("_"))
    return is_integer_name(name) or bool(
        words & {"id", "token", "pad", "padding", "ignore", "num", "n", "class", "classes", "value"}
    )
