"""Evidence about parameters: annotations and uses that make a name a tensor, a dict, a namespace."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from dtypelint.analysis.geometry import (
    converts_rotations,
    geometry_names,
    is_product,
    weak_camera_name,
)
from dtypelint.analysis.syntax import (
    constant_string,
    dotted_name,
    expression_root_name,
    is_int_constant,
    is_self_attribute,
    keyword,
    last_name,
    walk,
)
from dtypelint.analysis.values import ACT, BOOL, EMPTY, FIXED, INT, Value
from dtypelint.analysis.vocabulary import (
    BOOL_METHODS,
    COUNTING_REDUCTIONS,
    EXTENSION_MODULES,
    FACTORIES,
    FIXED_CAST_METHODS,
    NUMPY_ONLY_METHODS,
    REGISTRARS,
    SCALAR_ANNOTATIONS,
    TENSOR_ANNOTATIONS,
    TENSOR_ATTRS,
    TORCH_ONLY_ATTRS,
    kernel_package,
    non_tensor_torch,
)

if TYPE_CHECKING:
    from dtypelint.analysis.module import ModuleAnalysis
    from dtypelint.analysis.values import ClassInfo


def cast_receiver_kind(node: ast.expr, value: Value) -> str:
    """What a value cast to a fixed float dtype was: "mask" (bool: a comparison, `logical_not`,
    `~mask`), "count" (integer: indices, `mask.sum(-1)`), or "" (float or unknown: the
    activations themselves, or a value already cast)."""
    if value.flags & (ACT | FIXED):
        return ""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr in COUNTING_REDUCTIONS:
            return "count" if value.flags & (BOOL | INT) else ""
        if node.func.attr in BOOL_METHODS:
            return "mask"
    if isinstance(node, ast.Compare) or value.flags & BOOL:
        return "mask"
    return "count" if value.flags & INT else ""


_SEQUENCE_TYPES = frozenset(
    {"list", "List", "tuple", "Tuple", "Sequence", "Iterable", "MutableSequence", "Iterator"}
)
_MAPPING_TYPES = frozenset({"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict"})


def annotation_kind(annotation: ast.expr | None) -> str | None:
    """What a parameter annotation says it holds, `None` (Optional) aside.

    tensor | int_tensor | tensors (a list/tuple of tensors) | tensor_dict | numpy | int | float |
    scalar | device | module | mixed (`dict[str, Tensor] | Tensor`: not one kind) | any_dict
    (`dict[str, Any]`) | other | None.
    """
    if annotation is None:
        return None
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return "other"
    kinds = {_kind(option) for option in _options(annotation)} - {"none"}
    if len(kinds) > 1:
        kinds = {"other" if kind == "any_dict" else kind for kind in kinds}
    if not kinds:
        return "other"
    if len(kinds) > 1:
        return "mixed" if "tensor" in kinds else "other"
    return kinds.pop()


def annotation_optional(annotation: ast.expr | None) -> bool:
    """`Optional[Tensor]`, `Tensor | None`: None on some path."""
    if annotation is None:
        return False
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return "Optional" in annotation.value or "None" in annotation.value
    return any(_kind(option) == "none" for option in _options(annotation))


def _options(node: ast.expr) -> list[ast.expr]:
    """The alternatives of a union (`A | B`, `Union[A, B]`, `Optional[A]` = A | None)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _options(node.left) + _options(node.right)
    if isinstance(node, ast.Subscript):
        base = last_name(node.value)
        if base == "Optional":
            return [*_options(node.slice), ast.Constant(None)]
        if base == "Union":
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            return [option for part in parts for option in _options(part)]
    return [node]


def _kind(node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and node.value is None:
        return "none"
    if isinstance(node, ast.Subscript):
        base = last_name(node.value)
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        inner = {_kind(arg) for arg in args if not isinstance(arg, ast.Constant)}
        if base in _SEQUENCE_TYPES:
            return "tensors" if inner and inner <= {"tensor", "tensors"} else "other"
        if base in _MAPPING_TYPES:
            if "tensor" in inner:
                return "tensor_dict"
            # `dict[str, Any]`: says nothing of its values (a model's outputs, a data batch)
            return "any_dict" if args and last_name(args[-1]) in ("Any", "object") else "other"
        if args and _kind(args[0]) == "tensor":
            # jaxtyping: `Float[Tensor, "*bs 3"]`, `Int[Tensor, "n"]`, `Shaped[torch.Tensor, ""]`
            return "int_tensor" if base.startswith(_JAXTYPING_INTEGER) else "tensor"
        return "other"
    name = last_name(node)
    if name in TENSOR_ANNOTATIONS or (name or "").endswith("Tensor"):
        return "tensor"
    if name == "ndarray":
        return "numpy"
    if name in ("int", "float"):
        return name
    if name == "device":
        return "device"
    if name in SCALAR_ANNOTATIONS:
        return "scalar"
    if name in _SEQUENCE_TYPES:
        return "other"
    if (name or "").endswith("Module"):
        return "module"
    return "other"


def model_outputs_name(name: str) -> bool:
    """`outputs`, `preds`, `out_dict`: what a model returned (activations), not a data batch."""
    words = name.lower().split("_")
    return any(word.startswith(("output", "pred")) or word == "out" for word in words)


#: Parameters named so hold modules or metadata, never a tensor to take a dtype from.
_MODULE_WORDS = frozenset(
    {"model", "module", "net", "network", "backbone", "layer", "block", "encoder", "decoder",
     "transformer"}
)  # fmt: skip
#: Parameter names of option objects (yolov5's `train(hyp, opt, device, callbacks)`, `test_cfg`).
_CONFIG_WORDS = frozenset({"opt", "opts", "args", "cfg", "config", "hyp", "hparams", "options"})
#: Parameter names of sizes: Python ints, never a tensor to take a dtype from.
_SIZE_WORDS = frozenset({"dim", "dims", "size", "sizes", "height", "width", "steps", "num"})


#: jaxtyping dtype names of integer and bool arrays (`Int64[Tensor, "n"]`, `Bool[...]`).
_JAXTYPING_INTEGER = ("Int", "UInt", "Bool", "Integer")


def _cast_before(node: ast.expr) -> bool:
    """`x.float().cpu()` (what `.numpy()` is called on): cast on purpose, as NumPy needs."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr in ("float", "double", "to", "type"):
            return True
        node = node.func.value
    return False


def non_tensor_name(name: str) -> str | None:
    """'device' | 'module' | 'size' | 'config' | None: what a parameter's name says it is."""
    last = name.lower().rsplit("_", 1)[-1]
    if last in ("device", "dtype"):
        return "device"
    if last in _MODULE_WORDS or (len(last) > 3 and last.endswith("net")):  # `unet`, `resnet`
        return "module"
    if last in _SIZE_WORDS or name.lower().startswith(("num_", "n_")):
        return "size"
    return "config" if last in _CONFIG_WORDS else None


def _mapping_type(types: list[ast.expr]) -> bool:
    """`isinstance(x, dict)`, `isinstance(x, (dict, list))`: the types include a mapping."""
    nodes = [e for t in types for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
    return any(last_name(n) in ("dict", "Dict", "Mapping", "MutableMapping") for n in nodes)


def sequence_guard(node: ast.If) -> str | None:
    """`if isinstance(x, (tuple, list)): return [f(e) for e in x]`: the name a branch that
    handles the sequence case and leaves checks; past it, `x` is one tensor (celldetection's
    `fouriers2contours`). Its uses in that branch (`len(x)`, iteration) say nothing there."""
    test, body = node.test, node.body
    if not (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and len(test.args) == 2
        and isinstance(test.args[0], ast.Name)
        and isinstance(body[-1], (ast.Return, ast.Raise))
    ):
        return None
    types = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
    kinds = {last_name(t) for t in types}
    return test.args[0].id if kinds and kinds <= {"tuple", "list", "Tuple", "List"} else None


def dict_checked(
    module: ModuleAnalysis, cls: ClassInfo | None, func: ast.FunctionDef | ast.AsyncFunctionDef
) -> frozenset[str]:
    """Names a method of the class (or `func` itself) checks for a dict, once a class."""
    if cls is None:
        return frozenset(module.scan(func).mappings)
    if cls.dict_checked is None:
        methods = cls.method_nodes.values()
        checked = set().union(*(module.scan(m).mappings for m in methods))
        while checked and _passed_on(module, cls, checked):
            pass
        cls.dict_checked = frozenset(checked)
    return cls.dict_checked


def _passed_on(module: ModuleAnalysis, cls: ClassInfo, checked: set[str]) -> bool:
    """Add the parameters of the class's methods that `self.method(...)` calls pass a checked
    name to (ldm's `sample(conditioning)` checks it for a dict, then hands it to
    `ddim_sampling(cond, ...)`); whether any was new."""
    added = False
    for method in cls.method_nodes.values():
        for node in module.scan(method).nodes:
            if not (type(node) is ast.Call and is_self_attribute(node.func)):
                continue
            callee = cls.method_nodes.get(node.func.attr)  # type: ignore[attr-defined]
            if callee is None:
                continue
            params = [a.arg for a in (*callee.args.posonlyargs, *callee.args.args)][1:]
            names = [a.arg for a in callee.args.kwonlyargs] + params
            passed = [(p, a) for p, a in zip(params, node.args, strict=False)]
            passed += [(k.arg, k.value) for k in node.keywords if k.arg in names]
            for param, arg in passed:
                if type(arg) is ast.Name and arg.id in checked and param not in checked:
                    checked.add(param)  # type: ignore[arg-type]
                    added = True
    return added


def injected_module(init: ast.FunctionDef | ast.AsyncFunctionDef | None, name: str) -> bool:
    """Whether `name` is a parameter of `init` that holds a network, by its annotation or its
    name (`def __init__(self, model: dict | Module)`): `self.model = model` registers it."""
    args = init.args if init is not None else None
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs) if args else ():
        if arg.arg == name:
            kind = annotation_kind(arg.annotation)
            return kind == "module" or (
                kind in (None, "other") and non_tensor_name(name) == "module"
            )
    return False


def extension_call(node: ast.Call, module: ModuleAnalysis) -> bool:
    """A call into a compiled extension: `_C.fn(...)`, `selective_scan_cuda.fwd(...)`,
    `_make_lazy_cuda_func("name")(...)`, `Fn.apply(...)` of an autograd Function of this file
    that makes one, a kernel package's (Triton and `torch.ops` are dtype-generic: not these)."""
    func = node.func
    if type(func) is ast.Call:
        return "cuda" in last_name(func.func).lower()
    if type(func) is ast.Name:  # `from nvdiffrast.torch import rasterize`
        return kernel_package(module.aliases.get(func.id, ""))
    if type(func) is not ast.Attribute:
        return False
    root = expression_root_name(func)
    if root is None:
        return False
    if func.attr == "apply" and type(func.value) is ast.Name:
        return module.kernel_function_class(func.value.id)
    qualname = module.aliases.get(root, root)
    segment = qualname.rsplit(".", 1)[-1]
    return segment in EXTENSION_MODULES or segment.endswith("_cuda") or kernel_package(qualname)


class FunctionScan:
    """Facts from one walk of a function: parameters used as tensors (or as dicts of tensors),
    and the statements that define `self.<attr>` (for class facts)."""

    def __init__(self) -> None:
        self.tensors: set[str] = set()
        self.dicts: set[str] = set()
        self.objects: set[str] = set()  # `cam` in `cam.K`: a namespace, not a tensor
        #: unpacked (`x0, y0, x1, y1 = crop`), iterated, `len()`-ed or `isinstance`-checked:
        #: a tuple or list, or not one kind; never a dtype source
        self.sequences: set[str] = set()
        #: indexed by a number or a variable and used as a tensor only so (`p[0].shape`,
        #: `feats[i - 1] + x`): a list of tensors (or rows); items are tensors, it no dtype source
        self.elements: set[str] = set()
        #: checked for a dict (`isinstance(cond, dict)`): ldm's `cond` is a tensor, a list or a
        #: dict by configuration; a parameter so named in the class is no dtype source
        self.mappings: set[str] = set()
        #: given to a rotation conversion (`batch_rodrigues(pose.view(-1, 3))`): a body pose in
        #: axis-angle or 6D, an activation, not a camera pose
        self.rotation_inputs: set[str] = set()
        #: it calls a compiled extension (a custom CUDA kernel, `_C.rasterize(...)`)
        self.kernel = False
        #: it hands a tensor to NumPy uncast (`boxes.numpy()`), though NumPy has no bfloat16
        self.to_numpy = False
        #: something in it is torch's only (`torch.*` calls, `.to()`, `.device`, submodules):
        #: without it, `a @ b.T` in a file that imports NumPy may well be NumPy code
        self.torch_evidence = False
        #: it calls NumPy (`np.asarray(Ms)`): with no torch evidence, NumPy code (a float64
        #: calibration routine), whose products are NumPy's
        self.numpy_calls = False
        #: used as NumPy arrays only can be (`poses.copy()`, `a.astype(...)`)
        self.numpy_names: set[str] = set()
        #: the data a tensor is made from (`torch.tensor(param)`): a list or an array, whatever
        #: its annotation says (torch warns when given a tensor there); never a dtype source
        self.data_names: set[str] = set()
        self.self_facts: list[ast.AST] = []
        self.function: ast.FunctionDef | ast.AsyncFunctionDef | None = None
        self.module: ModuleAnalysis | None = None
        self._geometry: set[str] | None = None
        #: every node of the function (syntax.walk), kept for the other whole-function looks
        self.nodes: list[ast.AST] = []

    @property
    def geometry(self) -> set[str]:
        """Names used as geometry: matmul operands, inverted, added to a product (or the names a
        local such operand was built from: `Rt = cat([R, t]); K @ Rt`). Computed only when a
        rotation or translation name asks (a second walk of the function)."""
        if self._geometry is None:
            assert self.function is not None and self.module is not None
            self._geometry = geometry_names(self.nodes, self.module)
        return self._geometry

    @classmethod
    def of(
        cls, func: ast.FunctionDef | ast.AsyncFunctionDef, module: ModuleAnalysis
    ) -> FunctionScan:
        usage = cls()
        taken_from: dict[str, ast.expr] = {}  # `img = batch["image"]`: img's use tells batch's kind
        guards: set[str] = set()  # names a branch handles as a sequence and then returns
        casts: set[str] = set()  # names cast with `.float()`, `.half()`: tensors only do that
        usage.nodes = walk(func)
        for node in usage.nodes:
            kind = type(node)
            if kind is ast.Attribute:
                attr = node.attr  # type: ignore[attr-defined]
                value = node.value  # type: ignore[attr-defined]
                if type(value) is ast.Name and value.id in module.aliases:
                    continue  # `np.einsum`, `math.inf`: a module's attribute, not a tensor's
                if attr in TORCH_ONLY_ATTRS:
                    usage.torch_evidence = True
                elif attr in NUMPY_ONLY_METHODS and type(node.value) is ast.Name:  # type: ignore[attr-defined]
                    usage.numpy_names.add(node.value.id)  # type: ignore[attr-defined]
                if attr in TENSOR_ATTRS:
                    usage.mark(node.value)  # type: ignore[attr-defined]
                    if attr in FIXED_CAST_METHODS and type(value) is ast.Name:
                        casts.add(value.id)
                elif type(node.value) is ast.Name:  # type: ignore[attr-defined]
                    usage.objects.add(node.value.id)  # type: ignore[attr-defined]
            elif kind is ast.Call:
                usage._call(node, module)  # type: ignore[arg-type]
            elif kind is ast.Subscript:
                value = node.value  # type: ignore[attr-defined]
                if type(value) is ast.Name and _array_index(node.slice):  # type: ignore[attr-defined]
                    usage.tensors.add(value.id)  # `trans[:, :, None, :]`: no list or dict does that
            elif kind is ast.BinOp:
                usage._binop(node, module)  # type: ignore[arg-type]
            elif kind is ast.Assign or kind is ast.AnnAssign:
                usage._assignment(node, taken_from)  # type: ignore[arg-type]
            elif (kind is ast.For or kind is ast.comprehension) and type(node.iter) is ast.Name:  # type: ignore[attr-defined]
                usage.sequences.add(node.iter.id)  # type: ignore[attr-defined]
            elif kind is ast.If and (guarded := sequence_guard(node)) is not None:  # type: ignore[arg-type]
                guards.add(guarded)
            elif kind is ast.ImportFrom and kernel_package(node.module or ""):  # type: ignore[attr-defined]
                usage.kernel = True  # `from diff_gaussian_rasterization import ...` in the body
        usage.sequences -= guards | casts  # `len(labels)`, then `labels.float()`: a tensor
        for name, value in taken_from.items():
            if name in usage.tensors:
                usage.mark(value)
        usage.function, usage.module = func, module
        for name, value in taken_from.items():  # `aa = pose[:, idx]`; `rodrigues(aa)`
            if name in usage.rotation_inputs:
                usage.rotation_inputs.update(
                    n.id
                    for n in walk(value)
                    if isinstance(n, ast.Name) and n.id not in module.aliases
                )
        return usage

    def _assignment(
        self, node: ast.Assign | ast.AnnAssign, taken_from: dict[str, ast.expr]
    ) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any(
            is_self_attribute(t)
            or (isinstance(t, ast.Tuple) and any(is_self_attribute(e) for e in t.elts))
            for t in targets
        ):
            self.self_facts.append(node)
        value = node.value
        if len(targets) == 1 and isinstance(targets[0], ast.Name):
            if isinstance(value, (ast.Subscript, ast.Call)):
                taken_from[targets[0].id] = value
        elif isinstance(value, ast.Name) and any(
            isinstance(target, (ast.Tuple, ast.List)) for target in targets
        ):
            self.sequences.add(value.id)  # `x0, y0, x1, y1 = crop`

    def _binop(self, node: ast.BinOp, module: ModuleAnalysis) -> None:
        if isinstance(node.op, ast.MatMult):
            self.mark(node.left)
            self.mark(node.right)
            return
        # `x * self.scale`, `x + torch.sigmoid(g)`: arithmetic with a module's tensor or a torch
        # result makes the other operand a tensor too.
        translation = isinstance(node.op, (ast.Add, ast.Sub))
        for operand, other in ((node.left, node.right), (node.right, node.left)):
            if type(operand) is ast.Name and (
                _is_self_attribute_chain(other)
                or _is_torch_call(other, module)
                # `R @ p + t`: a translation added to a rotated point is a tensor
                or (translation and weak_camera_name(operand.id) and is_product(other, module))
            ):
                self.mark(operand)

    def _call(self, node: ast.Call, module: ModuleAnalysis) -> None:
        func = node.func
        if type(func) is ast.Attribute and func.attr in REGISTRARS:
            self.self_facts.append(node)
        if type(func) is ast.Attribute and func.attr == "numpy" and not node.args:
            self.to_numpy = self.to_numpy or not _cast_before(func.value)
        if (
            type(func) is ast.Attribute
            and func.attr in ("device", "dtype", "sparse_sizes")
            and type(func.value) is ast.Name
        ):
            # torch_sparse's `adj.device()`: a SparseTensor, whose `dtype` is a method; no
            # torch.Tensor, never a dtype source
            self.data_names.add(func.value.id)
        if not self.kernel and extension_call(node, module):
            self.kernel = True
        if not (self.torch_evidence and self.numpy_calls):  # each known once: stop looking
            root = expression_root_name(func)
            library = module.aliases.get(root, "") if root is not None else ""
            if library.startswith("torch"):
                self.torch_evidence = True
            elif library.startswith("numpy"):
                self.numpy_calls = True
        if not node.args:
            return
        if converts_rotations(node):
            root = expression_root_name(node.args[0])
            if root is not None:
                self.rotation_inputs.add(root)
        if type(func) is ast.Name and func.id in ("len", "isinstance"):
            if type(node.args[0]) is ast.Name:
                self.sequences.add(node.args[0].id)  # type: ignore[attr-defined]
                if func.id == "isinstance" and _mapping_type(node.args[1:]):
                    self.mappings.add(node.args[0].id)  # type: ignore[attr-defined]
            return
        if _calls_submodule(node):
            self.torch_evidence = True
            methods = (
                module.methods_by_name.get(func.attr, []) if type(func) is ast.Attribute else []
            )
            for position, arg in enumerate(node.args):
                # `self.fc(x)`, `self.blocks[i](x)`: modules take tensors; `self._project(x, K)`:
                # a method, what it uses as tensors (`self.schedule(steps, rho)`: numbers)
                if not methods or any(_takes_tensor(module, m, position) for m in methods):
                    self.mark(arg)
            return
        qualname = module.qualify(func) or ""
        if qualname.startswith("torch.") and not non_tensor_torch(qualname):
            if qualname.rsplit(".", 1)[-1] in FACTORIES:
                if (
                    qualname in ("torch.tensor", "torch.as_tensor")
                    and type(node.args[0]) is ast.Name
                ):
                    self.data_names.add(node.args[0].id)  # type: ignore[attr-defined]
                return  # `torch.tensor(mean)`: data, a list or a number as often
            for arg in node.args:
                for element in arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else (arg,):
                    self.mark(element)

    def mark(self, node: ast.AST) -> None:
        if isinstance(node, ast.Name):
            self.tensors.add(node.id)
        elif isinstance(node, ast.BinOp):  # `2 * math.pi * coords @ B`: the names in the chain
            if _chain_has_call(node):
                return  # `(mean + std * torch.randn(n)).exp()`: the call may be the only tensor
            self.mark(node.left)
            self.mark(node.right)
        elif isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Name):
                if constant_string(node.slice) is not None:
                    self.dicts.add(node.value.id)
                elif is_int_constant(node.slice) or isinstance(node.slice, (ast.Name, ast.BinOp)):
                    self.elements.add(node.value.id)  # `p[0]`, `l_features[i - 1]`: an item
                else:
                    self.tensors.add(node.value.id)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
        ) and isinstance(node.func.value, ast.Name):
            self.dicts.add(node.func.value.id)


def _array_index(index: ast.AST) -> bool:
    """`[:, None]`, `[..., 0]`, `[:, :3]`: indexing a list or a dict that way raises; arrays and
    tensors take it."""
    if type(index) is not ast.Tuple:
        return False
    return any(
        type(element) is ast.Slice
        or (type(element) is ast.Constant and element.value in (None, Ellipsis))
        for element in index.elts
    )


def _takes_tensor(
    module: ModuleAnalysis, method: ast.FunctionDef | ast.AsyncFunctionDef, position: int
) -> bool:
    """Whether a method's parameter at `position` (after `self`) is used as a tensor; unknown
    (varargs, a method being scanned) counts as yes."""
    params = [*method.args.posonlyargs, *method.args.args][1:]
    if position >= len(params):
        return True
    param = params[position]
    kind = annotation_kind(param.annotation)
    if kind is not None:
        return kind in ("tensor", "mixed")
    scan = module.scanned_or_none(method)
    return scan is None or param.arg in scan.tensors or param.arg in scan.dicts


def _chain_has_call(node: ast.AST) -> bool:
    """A call among the operands of an arithmetic chain (`a + b * f(x)`)."""
    while isinstance(node, ast.BinOp):
        if isinstance(node.right, ast.Call) or _chain_has_call(node.right):
            return True
        node = node.left
    return isinstance(node, ast.Call)


def is_float64(node: ast.AST | None, module: ModuleAnalysis) -> bool:
    if node is None:
        return True
    if isinstance(node, ast.Constant):
        return node.value in ("float64", "f8", "double", float)
    qualname = module.qualify(node) or dotted_name(node) or ""
    return qualname.rsplit(".", 1)[-1] in ("float64", "double", "float_", "float")


def explicit_numpy_dtype(call: ast.Call, module: ModuleAnalysis) -> bool:
    """`np.array(x, dtype=np.float32)`: a NumPy array whose dtype is not the float64 default."""
    dtype = keyword(call, "dtype")
    return dtype is not None and not is_float64(dtype, module)


def _is_self_attribute_chain(node: ast.AST) -> bool:
    """`self.scale`, `self.pos_embed[:, :n]`."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return is_self_attribute(node)


def _is_torch_call(node: ast.AST, module: ModuleAnalysis) -> bool:
    """A torch call computing on tensors (a factory's result is multiplied by numbers too)."""
    if not isinstance(node, ast.Call):
        return False
    qualname = module.qualify(node.func) or ""
    return qualname.startswith("torch.") and qualname.rsplit(".", 1)[-1] not in FACTORIES


def _calls_submodule(call: ast.Call) -> bool:
    """`self.fc(x)`, `self.layers[i](x)`, `self._project(x, K)`: in a module, what its parts
    and methods are given is its input tensors."""
    func = call.func
    if isinstance(func, ast.Subscript):
        func = func.value
    return is_self_attribute(func)


def reads_activations(nodes: list[ast.AST], env: dict[str, Value], params: list) -> bool:
    """Whether `nodes` read an activation of `env` that is not one of `params` (a closure's)."""
    own = {param.arg for param in params}
    return any(
        type(node) is ast.Name and node.id not in own and env.get(node.id, EMPTY).is_act
        for node in nodes
    )
