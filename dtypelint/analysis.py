"""The dtype-flow model every rule shares.

One pass over Python's `ast` (about ten times cheaper to build than a libcst tree) answers:
which names hold tensors, which hold activations (the run's dtype), which hold camera parameters
(the dataset's dtype), which tensors a factory created without `dtype=` (float32/int64), and
where those values *meet* (SPEC section 3, "Shared vocabulary").

Each function is walked once, statement by statement, with an environment mapping local names to
`Value`s. Branches are walked on copies of the environment and joined. Rules never re-walk the tree:
they read the events recorded here (`factory_calls`, `camera_operands`, ...).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar

from dtypelint.source import SourceText

DEFAULT_CAMERA_NAMES: tuple[str, ...] = (
    "intrinsics", "intrinsic", "extrinsics", "extrinsic", "K", "Ks", "cam_K", "camera_matrix",
    "calib", "proj", "projection", "proj_matrix", "projection_matrix", "P", "w2c", "c2w",
    "world2cam", "cam2world", "world_to_cam", "cam_to_world", "pose", "poses", "cam_pose",
    "cam_poses", "RT", "Rt", "lidar2img", "lidar2cam", "cam2img", "img2cam", "cam2lidar",
    "viewmat", "viewmats", "view_matrix", "camera_pose", "camera_poses", "intrinsic_matrix",
    "extrinsic_matrix", "K_inv", "inv_K", "calib_matrix", "camtoworld", "camtoworlds",
    "worldtocam", "cam2worlds", "world2cams", "c2ws", "w2cs", "viewmatrix", "projmat",
    "proj_mats", "intrinsic_matrices", "extrinsic_matrices",
)  # fmt: skip

# ---------------------------------------------------------------------------------------------
# Vocabulary tables
# ---------------------------------------------------------------------------------------------

#: Float-defaulting factories (SPEC DTL001). `arange`/`tensor`/`full` may be integer-valued.
FACTORIES = frozenset(
    {"zeros", "ones", "empty", "full", "rand", "randn", "eye", "linspace", "logspace", "arange",
     "tensor", "as_tensor"}
)  # fmt: skip
#: `torch.X_like(t)` and friends take the dtype of `t`.
LIKE_FACTORIES = frozenset(
    {"zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like",
     "randint_like"}
)  # fmt: skip
#: Operations whose operands must share one dtype (bf16 @ float32 raises).
MATMUL_FUNCS = frozenset(
    {"torch.matmul", "torch.mm", "torch.bmm", "torch.mv", "torch.dot", "torch.outer",
     "torch.baddbmm", "torch.addmm", "torch.addbmm", "torch.addmv", "torch.einsum",
     "torch.tensordot", "torch.chain_matmul", "torch.linalg.matmul", "torch.linalg.multi_dot",
     "torch.linalg.vecdot", "torch.inner", "torch.nn.functional.linear",
     "torch.nn.functional.bilinear", "torch.functional.einsum"}
)  # fmt: skip
MATMUL_METHODS = frozenset(
    {"matmul", "mm", "bmm", "mv", "dot", "outer", "inner", "baddbmm", "addmm", "addbmm"}
)
#: Same-dtype ops that are not matrix products.
STRICT_FUNCS = frozenset(
    {"torch.cross", "torch.linalg.cross", "torch.nn.functional.grid_sample",
     "torch.nn.functional.conv1d", "torch.nn.functional.conv2d", "torch.nn.functional.conv3d",
     "torch.nn.functional.conv_transpose1d", "torch.nn.functional.conv_transpose2d",
     "torch.nn.functional.conv_transpose3d", "torch.nn.functional.scaled_dot_product_attention",
     "torch.scatter", "torch.scatter_add", "torch.index_add", "torch.index_copy"}
)  # fmt: skip
STRICT_METHODS = frozenset(
    {"cross", "scatter_", "scatter", "scatter_add_", "scatter_add", "scatter_reduce_",
     "scatter_reduce", "index_add_", "index_add", "index_copy_", "index_copy", "masked_scatter_",
     "masked_scatter", "index_put_", "index_put", "put_"}
)  # fmt: skip
#: Arithmetic/comparison/in-place methods where two tensors meet and promote.
MEETING_METHODS = frozenset(
    {"add", "sub", "mul", "div", "true_divide", "add_", "sub_", "mul_", "div_", "copy_",
     "maximum", "minimum", "pow", "pow_", "atan2", "lerp", "lerp_", "addcmul", "addcdiv",
     "addcmul_", "addcdiv_", "fmod", "remainder", "hypot", "where", "expand_as_", "eq", "ne",
     "lt", "le", "gt", "ge", "dist", "clamp", "clamp_", "clip", "logaddexp", "xlogy"}
)  # fmt: skip
#: Arguments that are positions of indices/masks, not data operands: func -> positions.
INDEX_ARGS: dict[str, tuple[int, ...]] = {
    "gather": (2,), "index_select": (2,), "take_along_dim": (1,), "take": (1,),
    "masked_fill": (1,), "masked_select": (1,), "where": (0,), "scatter": (2,),
    "scatter_add": (2,), "scatter_reduce": (2,), "index_add": (2,), "index_copy": (2,),
    "index_fill": (1,), "embedding": (0,), "bucketize": (1,), "searchsorted": (0,),
    "one_hot": (0,), "nll_loss": (1,), "cross_entropy": (1,), "repeat_interleave": (1,),
}  # fmt: skip
METHOD_INDEX_ARGS: dict[str, tuple[int, ...]] = {
    "gather": (1,), "index_select": (1,), "masked_fill": (0,), "masked_fill_": (0,),
    "masked_select": (0,), "scatter": (1,), "scatter_": (1,), "scatter_add": (1,),
    "scatter_add_": (1,), "scatter_reduce": (1,), "scatter_reduce_": (1,), "index_add": (1,),
    "index_add_": (1,), "index_copy": (1,), "index_copy_": (1,), "index_fill": (1,),
    "index_fill_": (1,), "masked_scatter": (0,), "masked_scatter_": (0,), "index_put_": (0,),
    "index_put": (0,), "take_along_dim": (0,), "where": (0,), "put_": (0,), "take": (0,),
    "repeat_interleave": (0,),
}  # fmt: skip
#: Methods and attributes that only tensors have: using a parameter so makes it a tensor.
TENSOR_ATTRS = frozenset(
    {"shape", "device", "dtype", "ndim", "T", "mT", "H", "mH", "is_cuda", "requires_grad",
     "grad", "data", "size", "view", "view_as", "reshape", "reshape_as", "permute", "transpose",
     "unsqueeze", "squeeze", "expand", "expand_as", "flatten", "unflatten", "contiguous",
     "float", "half", "double", "bfloat16", "long", "int", "bool", "to", "cuda", "cpu", "detach",
     "clone", "matmul", "mm", "bmm", "sum", "mean", "softmax", "log_softmax", "norm", "new_zeros",
     "new_ones", "new_empty", "new_full", "new_tensor", "dim", "numel", "type_as", "masked_fill",
     "chunk", "unbind", "flip", "repeat", "index_select", "gather", "scatter", "scatter_", "clamp",
     "abs", "exp", "sqrt", "rsqrt", "sigmoid", "tanh", "relu", "argmax", "argmin", "topk",
     "item", "numpy", "inverse", "pinverse", "det", "t", "narrow", "roll", "cumsum", "prod",
     "amax", "amin", "std", "var", "nonzero", "is_floating_point", "element_size", "new",
     "index_add_", "index_put_", "masked_scatter_", "zero_", "fill_", "normal_", "uniform_",
     "add_", "mul_", "sub_", "div_", "copy_", "cross", "logsumexp", "einsum", "split_with_sizes",
     "unfold", "movedim", "swapaxes", "squeeze_", "unsqueeze_", "view_as_real", "pow", "sin",
     "cos", "atan2", "allclose", "isnan", "isfinite", "nan_to_num", "round", "floor", "ceil",
     "bernoulli_", "exponential_"}
)  # fmt: skip
#: Methods that return a tensor of the receiver's dtype (shape/elementwise/reduction/copies).
PRESERVING_METHODS = frozenset(
    {"view", "view_as", "reshape", "reshape_as", "permute", "transpose", "unsqueeze", "squeeze",
     "expand", "expand_as", "flatten", "unflatten", "contiguous", "cuda", "cpu", "detach",
     "clone", "sum", "mean", "softmax", "log_softmax", "norm", "chunk", "unbind", "split",
     "tensor_split", "flip", "repeat", "index_select", "gather", "abs", "exp", "log", "sqrt",
     "rsqrt", "sigmoid", "tanh", "relu", "t", "narrow", "roll", "cumsum", "prod", "amax", "amin",
     "std", "var", "inverse", "pinverse", "det", "unfold", "movedim", "swapaxes", "neg", "sin",
     "cos", "pow", "square", "reciprocal", "logsumexp", "nan_to_num", "round", "floor", "ceil",
     "masked_fill", "masked_fill_", "zero_", "fill_", "normal_", "uniform_", "requires_grad_",
     "squeeze_", "unsqueeze_", "diagonal", "diag", "diag_embed", "tril", "triu", "trace",
     "select", "index_fill", "index_fill_", "pin_memory", "share_memory_",
     "max", "min", "median", "mode", "sort", "topk", "kthvalue", "cummax", "cummin", "clamp_min",
     "clamp_max", "sign", "mul_", "div_", "add_", "sub_", "bernoulli_", "exponential_",
     "repeat_interleave", "tile", "broadcast_to", "as_strided", "type_as"}
)  # fmt: skip
#: Methods returning an integer or bool tensor whatever the receiver.
INT_METHODS = frozenset(
    {
        "argmax",
        "argmin",
        "argsort",
        "nonzero",
        "long",
        "int",
        "short",
        "byte",
        "char",
        "count_nonzero",
    }
)
BOOL_METHODS = frozenset(
    {"bool", "isnan", "isinf", "isfinite", "isneginf", "isposinf", "logical_not", "logical_and",
     "logical_or", "logical_xor", "any", "all"}
)  # fmt: skip
SCALAR_METHODS = frozenset(
    {
        "item",
        "dim",
        "numel",
        "element_size",
        "ndimension",
        "nelement",
        "get_device",
        "is_floating_point",
        "stride",
        "tolist",
        "data_ptr",
    }
)
FIXED_CAST_METHODS = {
    "float": "float32",
    "half": "float16",
    "double": "float64",
    "bfloat16": "bfloat16",
}
FLOAT_DTYPES = {
    "torch.float32": "float32", "torch.float": "float32", "torch.float16": "float16",
    "torch.half": "float16", "torch.bfloat16": "bfloat16", "torch.float64": "float64",
    "torch.double": "float64",
}  # fmt: skip
INT_DTYPES = frozenset(
    {"torch.int64", "torch.long", "torch.int32", "torch.int", "torch.int16", "torch.short",
     "torch.int8", "torch.uint8", "torch.bool", "torch.uint16", "torch.uint32", "torch.uint64"}
)  # fmt: skip
INT_TORCH_FUNCS = frozenset(
    {"torch.argmax", "torch.argmin", "torch.argsort", "torch.nonzero", "torch.randint",
     "torch.randperm", "torch.searchsorted", "torch.bucketize", "torch.multinomial",
     "torch.count_nonzero", "torch.tril_indices", "torch.triu_indices", "torch.unique",
     "torch.nn.functional.one_hot", "torch.combinations", "torch.cartesian_prod"}
)  # fmt: skip
BOOL_TORCH_FUNCS = frozenset(
    {"torch.isnan", "torch.isinf", "torch.isfinite", "torch.logical_not", "torch.logical_and",
     "torch.logical_or", "torch.logical_xor", "torch.eq", "torch.ne", "torch.lt", "torch.le",
     "torch.gt", "torch.ge", "torch.any", "torch.all", "torch.isclose", "torch.bernoulli"}
)  # fmt: skip
#: torch functions whose result is metadata or a Python value, never a tensor to follow.
NON_TENSOR_TORCH_FUNCS = frozenset(
    {"torch.device", "torch.Size", "torch.is_tensor", "torch.is_floating_point", "torch.numel",
     "torch.get_default_dtype", "torch.finfo", "torch.iinfo", "torch.no_grad",
     "torch.enable_grad", "torch.inference_mode", "torch.set_grad_enabled", "torch.manual_seed",
     "torch.cuda.is_available", "torch.is_autocast_enabled", "torch.get_autocast_gpu_dtype",
     "torch.jit.is_scripting", "torch.jit.is_tracing", "torch.compiler.is_compiling",
     "torch.broadcast_shapes", "torch.promote_types", "torch.result_type", "torch.is_grad_enabled"}
)  # fmt: skip
AUTOCAST_FUNCS = frozenset(
    {"torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast", "torch.cpu.amp.autocast",
     "torch.amp.autocast_mode.autocast"}
)  # fmt: skip
CUSTOM_FWD_FUNCS = frozenset({"torch.cuda.amp.custom_fwd", "torch.amp.custom_fwd"})
PY_INT_BUILTINS = frozenset({"len", "int", "round", "range", "hash", "ord", "id"})
PY_FLOAT_BUILTINS = frozenset({"float"})
#: Tensor parameters named so hold integers or masks, not activations (`labels`, `input_ids`).
INTEGER_PARAM_WORDS = frozenset(
    {"ids", "idx", "index", "indices", "mask", "masks", "label", "labels", "length", "lengths",
     "lens", "count", "counts"}
)  # fmt: skip
#: Attention code names its keys `K`; a `K` beside `Q` and `V` is not a camera matrix.
ATTENTION_NAMES = frozenset({"Q", "V", "q", "v", "query", "value", "queries", "values"})

# ---------------------------------------------------------------------------------------------
# Values and events
# ---------------------------------------------------------------------------------------------

ACT = 1  # an activation: the run's dtype (bf16 in a bf16 run)
CAMERA = 2  # a camera parameter, uncast: the dataset's dtype
INT = 4  # an integer tensor (indices, counts)
BOOL = 8  # a bool tensor (mask)
FIXED = 16  # cast explicitly to a fixed floating dtype (.float(), .half(), .to(torch.float32))
ZERO_DIM = 32  # a 0-dim tensor: type promotion treats it like a Python scalar
PY_NUMBER = 64  # a Python int or float
PY_FLOAT = 128  # a Python float (turns int tensors into float32 ones)
MODULE = 256  # an nn.Module (calling it produces activations)
TENSOR_DICT = 512  # a dict/namespace of activation tensors (`batch`)
DEVICE = 1024  # a torch.device
DTYPE_OF_ACT = 2048  # a dtype equal to the activations' (`x.dtype`, `self.dtype`)
DTYPE_OF_FIXED = 16384  # the dtype of a value cast to a fixed dtype (its casts in `fixed`)
NUMPY = 4096  # a NumPy array (float64 by default)
SEQUENCE = 8192  # a Python list/tuple whose items have the value's other properties
TENSORISH = ACT | CAMERA | INT | BOOL | FIXED | ZERO_DIM


@dataclass(eq=False)
class FunctionInfo:
    node: ast.FunctionDef | ast.AsyncFunctionDef
    qualname: str
    is_tensor_taking: bool
    tensor_params: list[str]  # activation parameters, in signature order
    camera_params: list[str]
    is_forward: bool
    fixed_precision: bool  # custom_fwd(cast_inputs=...) or autocast(enabled=False) decorator
    autocast: bool  # decorated with autocast()


@dataclass(eq=False)
class Meet:
    """A place where a tracked value meets an activation."""

    node: ast.AST  # the meeting operation
    kind: (
        str  # "matmul", "strict", "arith", "compare", "cat", "index", "inplace", "module", "return"
    )
    act_operand: ast.AST | None  # the activation side, if there is an expression for it
    act_names: tuple[str, ...]  # activation names in that operand (dtype sources), in order
    autocast: bool  # inside an enabled autocast region

    @property
    def strict(self) -> bool:
        return self.kind in ("matmul", "strict")

    @property
    def matmul(self) -> bool:
        return self.kind == "matmul"


@dataclass(eq=False)
class FactoryCall:
    """A tensor made in a fixed default dtype whose meetings with activations we follow.

    `origin` says how it was made: "factory" (`torch.zeros(...)` without dtype: DTL001),
    "numpy" (`torch.from_numpy(a)`, `torch.tensor(np_array)`: DTL004), "helper" (a call of a local
    function returning a NumPy-derived tensor: DTL004), "attribute" (`self.x = torch...` in a
    module's `__init__`, not registered: DTL005).
    """

    node: ast.AST
    func_text: str  # `torch.zeros`, `th.ones`, `zeros` as written
    factory: str  # canonical name: zeros, ones, arange, from_numpy, ...
    integer: bool  # int64 result (integer arange/tensor/full)
    function: FunctionInfo | None
    bound_act_names: frozenset[str]  # activation names bound where the call runs
    device_source: str | None  # tensor whose `.device` the call uses
    meets: list[Meet] = field(default_factory=list)
    origin: str = "factory"
    attribute: str | None = None  # for "attribute" origins: the attribute name
    #: assigned to a parameter (`if bias is None: bias = torch.zeros(...)`): a default that still
    #: meets activations when the branches join into "an activation or this factory"
    parameter_default: bool = False
    #: `torch.tensor([0, 1, 0])`: a vector of int literals, a float quantity written with ints
    #: (the fix log's `y_global`). Unlike an index `arange`, it meets activations in arithmetic too.
    int_literal_vector: bool = False

    @property
    def numpy_data(self) -> bool:
        return self.origin in ("numpy", "helper")

    became_float: bool = False  # an int64 result turned float32 (`torch.arange(n) / n`)
    used_as_index: bool = False  # an int64 result used to index: a float dtype would break it

    @property
    def default_dtype(self) -> str:
        return "int64" if self.integer and not self.became_float else "float32"


@dataclass(eq=False)
class FixedCast:
    """An explicit cast to a fixed floating dtype (`x.float()`, `.to(torch.float16)`)."""

    node: ast.AST
    dtype: str
    source_node: ast.AST  # the receiver that was cast
    bound_act_names: frozenset[str] = frozenset()  # activation names bound where the cast runs


@dataclass(eq=False)
class MatmulOperand:
    """An operand of the matmul family whose other side is an activation."""

    operand: ast.AST
    value: Value
    op_node: ast.AST
    op_name: str  # "torch.matmul", "@", ".bmm", ...
    other_operand: ast.AST
    other_names: tuple[str, ...]
    function: FunctionInfo
    autocast: bool
    fixed_precision: bool


@dataclass(frozen=True, slots=True)
class Value:
    flags: int = 0
    factories: frozenset[FactoryCall] = frozenset()  # float32 factory origins still in this value
    int_factories: frozenset[FactoryCall] = frozenset()  # int64 factory origins
    cameras: tuple[str, ...] = ()  # descriptions of camera origins, e.g. 'batch["intrinsics"]'
    fixed: frozenset[FixedCast] = frozenset()
    items: tuple[Value, ...] | None = None  # tuple/list literal elements
    device_of: str | None = None  # `device = x.device`
    alias: str | None = None  # an imported module/function: its qualified name
    qualname: str | None = None  # for attribute chains on aliases

    def has(self, flag: int) -> bool:
        return bool(self.flags & flag)

    @property
    def is_act(self) -> bool:
        return bool(self.flags & ACT)

    @property
    def is_camera(self) -> bool:
        return bool(self.flags & CAMERA) and not self.flags & ACT

    @property
    def tracked(self) -> bool:
        return bool(self.factories or self.int_factories)


EMPTY = Value()


def join(values: Iterable[Value]) -> Value:
    """The value of an operation combining `values` (before any dtype change it makes)."""
    values = [v for v in values if v is not EMPTY]
    if not values:
        return EMPTY
    if len(values) == 1:
        return values[0]
    flags = 0
    factories: frozenset[FactoryCall] = frozenset()
    int_factories: frozenset[FactoryCall] = frozenset()
    fixed: frozenset[FixedCast] = frozenset()
    cameras: list[str] = []
    tensors = 0
    cameras_only = True
    for value in values:
        flags |= value.flags
        factories |= value.factories
        int_factories |= value.int_factories
        fixed |= value.fixed
        if value.flags & TENSORISH or value.tracked:
            tensors += 1
            if not value.flags & CAMERA or value.flags & ACT:
                cameras_only = False
            cameras.extend(c for c in value.cameras if c not in cameras)
    # Camera provenance survives only arithmetic among camera values (and scalars).
    if not cameras_only or not tensors:
        flags &= ~CAMERA
        cameras = []
    flags &= ~(SEQUENCE | MODULE | TENSOR_DICT | DEVICE | DTYPE_OF_ACT | DTYPE_OF_FIXED)
    if (
        flags & FIXED
        and flags & ACT
        and any(cast.dtype in ("float32", "float64") for cast in fixed)
    ):
        # An upcast value mixed with activations: type promotion makes the result the wider dtype.
        return Value(FIXED, fixed=fixed)
    if flags & TENSORISH or factories or int_factories:
        flags &= ~(PY_NUMBER | PY_FLOAT)  # `x * 0.5` is a tensor, not a Python number
    if flags & ACT:
        # Mixed with an activation: the result is an activation (promoted); its origins have met.
        return Value(flags & ~(FIXED | ZERO_DIM | INT | BOOL | CAMERA) | ACT)
    return Value(flags, factories, int_factories, tuple(cameras), fixed)


def element_of(value: Value) -> Value:
    """An element of a sequence value (iteration, unpacking)."""
    if value.items is not None:
        return join(value.items)
    if value.flags & PY_NUMBER and not value.flags & TENSORISH:
        return Value(PY_NUMBER)
    if value.flags & MODULE:
        return Value(MODULE)
    if value.flags & TENSOR_DICT:
        return Value(ACT)
    return replace(value, flags=value.flags & ~SEQUENCE, items=None)


# ---------------------------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------------------------


#: Camera names that are also common words in model code (`q_proj`, `pose_feat`, `P` patches):
#: with an affix they count only when the affix is itself camera vocabulary.
AMBIGUOUS_CAMERA_NAMES = frozenset(
    {"K", "Ks", "P", "proj", "projection", "pose", "poses", "Rt", "RT", "calib"}
)
CAMERA_AFFIXES = frozenset(
    {"inv", "inverse", "src", "tgt", "ref", "dst", "cur", "curr", "prev", "next", "orig", "gt", "l",
     "r", "left", "right", "cam", "cams", "camera", "cameras", "mat", "mats", "matrix", "matrices",
     "scaled", "full", "rel", "hom", "homo", "new", "batch", "world", "img", "image", "depth", "rgb",
     "color", "lidar", "view", "views", "target", "source", "context", "ctx", "input", "b", "i", "j",
     "t", "w2c", "c2w", "4x4", "3x3", "3x4", "crop", "resized", "ori", "raw", "all", "ego", "rect",
     "np", "numpy", "tensor", "torch", "h", "homog", "cv", "gl", "opencv", "opengl", "ndc", "pix"}
)  # fmt: skip
#: Affixes that make a name a network weight or feature, never a camera (`proj_weight`, `pose_feat`).
NETWORK_AFFIXES = frozenset(
    {"weight", "weights", "bias", "out", "in", "layer", "layers", "q", "k", "v", "qkv", "kv", "gate",
     "up", "down", "dim", "dims", "drop", "dropout", "norm", "attn", "mlp", "head", "heads", "feat",
     "feats", "feature", "features", "emb", "embed", "embeds", "embedding", "embeddings", "hidden",
     "conv", "linear", "fc", "act", "logits", "cls", "class", "token", "tokens", "encoder",
     "decoder", "net", "block", "channels", "size", "fn", "func", "type", "cfg", "config", "loss",
     "pred", "preds", "score", "scores", "param", "params", "latent", "code", "enc", "dec", "text"}
)  # fmt: skip


class CameraNames:
    """Case-sensitive matching of names to camera parameters, whole or with `_` affixes."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(names)
        self._cache: dict[str, bool] = {}

    def matches(self, name: str) -> bool:
        cached = self._cache.get(name)
        if cached is None:
            cached = self._cache[name] = self._match(name)
        return cached

    def _match(self, name: str) -> bool:
        if name in self.names:
            return True
        if "_" not in name:
            return False
        parts = name.strip("_").split("_")
        # Any contiguous run of `_`-separated parts may be the camera name: K_inv, intrinsics_src,
        # src_intrinsics, batch_cam_K.
        for start in range(len(parts)):
            for stop in range(start + 1, len(parts) + 1):
                core = "_".join(parts[start:stop])
                if (stop - start) == len(parts) or core not in self.names:
                    continue
                affixes = parts[:start] + parts[stop:]
                if any(affix.lower() in NETWORK_AFFIXES for affix in affixes):
                    continue  # `proj_weight`, `pose_feat`: a network's weight or feature
                if core not in AMBIGUOUS_CAMERA_NAMES or all(
                    a.lower() in CAMERA_AFFIXES or a.isdigit() or len(a) == 1 for a in affixes
                ):
                    return True
        return False


def dotted_name(node: ast.AST) -> str | None:
    """`a.b.c` for a chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def expression_root_name(node: ast.AST) -> str | None:
    """The simple name or `self.attr` an expression starts from (`x` in `x[:, 0].mean()`)."""
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                return f"self.{node.attr}"
            node = node.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        else:
            return None


def constant_string(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def has_star_kwargs(call: ast.Call) -> bool:
    return any(kw.arg is None for kw in call.keywords)


def is_literal_false(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def is_integer_name(name: str) -> bool:
    """`attention_mask`, `input_ids`, `labels`: names of index or mask tensors."""
    return bool(INTEGER_PARAM_WORDS & set(name.lower().split("_")))


def number_list_value(node: ast.AST | None) -> Value | None:
    """The value of a literal list/tuple of numbers (`(0.485, 0.456, 0.406)`), else None."""
    if not isinstance(node, (ast.List, ast.Tuple)) or not node.elts:
        return None
    numbers = [e.operand if isinstance(e, ast.UnaryOp) else e for e in node.elts]
    if not all(
        isinstance(n, ast.Constant)
        and isinstance(n.value, (int, float))
        and not isinstance(n.value, bool)
        for n in numbers
    ):
        return None
    floats = any(isinstance(n.value, float) for n in numbers)  # type: ignore[attr-defined]
    return Value(SEQUENCE | PY_NUMBER | (PY_FLOAT if floats else 0))


def is_empty_shape(node: ast.AST) -> bool:
    return isinstance(node, (ast.Tuple, ast.List)) and not node.elts


# ---------------------------------------------------------------------------------------------
# Module-level facts: imports and classes
# ---------------------------------------------------------------------------------------------


def import_aliases(stmt: ast.Import | ast.ImportFrom) -> Iterator[tuple[str, str]]:
    """(local name, qualified name) pairs bound by an import statement."""
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            if alias.asname:
                yield alias.asname, alias.name
            else:
                top = alias.name.split(".")[0]
                yield top, top
    elif stmt.module and not stmt.level:
        for alias in stmt.names:
            if alias.name != "*":
                yield alias.asname or alias.name, f"{stmt.module}.{alias.name}"


def canonical(qualname: str) -> str:
    """Spellings of the same torch object mapped to one name."""
    if qualname.startswith("numpy."):
        return qualname
    for prefix, replacement in (
        ("torch.nn.functional.", "torch.nn.functional."),
        ("torch.functional.", "torch."),
        ("torch.linalg.", "torch.linalg."),
        ("torch.Tensor.", "torch."),
        ("torch.cuda.amp.autocast_mode.", "torch.cuda.amp."),
    ):
        if qualname.startswith(prefix):
            return replacement + qualname[len(prefix) :]
    return qualname


@dataclass
class ClassInfo:
    name: str
    node: ast.ClassDef
    is_module: bool
    submodules: set[str] = field(default_factory=set)
    parameters: set[str] = field(default_factory=set)  # nn.Parameter and buffers: module dtype
    buffers: set[str] = field(default_factory=set)
    plain_attrs: dict[str, ast.AST] = field(default_factory=dict)  # self.x = <value> in __init__
    methods: set[str] = field(default_factory=set)
    method_nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    bases: list[str] = field(default_factory=list)
    #: plain tensors made in __init__ (`self.grid = torch.zeros(...)`): attr -> (statement, int64?)
    tensor_attrs: dict[str, tuple[ast.stmt, bool]] = field(default_factory=dict)
    numpy_attrs: set[str] = field(default_factory=set)
    init_assignments: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Summary:
    """What a local function's return value carries, seen by its callers."""

    cameras: tuple[str, ...] = ()
    numpy: bool = False

    @property
    def interesting(self) -> bool:
        return bool(self.cameras or self.numpy)


# ---------------------------------------------------------------------------------------------
# The analysis
# ---------------------------------------------------------------------------------------------


class ModuleAnalysis:
    """Everything the rules need to know about one file, computed once."""

    def __init__(
        self,
        tree: ast.Module,
        source: SourceText,
        filename: str,
        camera_names: Iterable[str] = DEFAULT_CAMERA_NAMES,
    ) -> None:
        self.tree = tree
        self.source = source
        self.filename = filename
        self.camera_names = CameraNames(camera_names)
        self.aliases: dict[str, str] = {}
        self._scans: dict[int, _FunctionScan] = {}
        self.classes: dict[str, ClassInfo] = {}
        self.functions: list[FunctionInfo] = []
        self.factory_calls: list[FactoryCall] = []
        self.matmul_operands: list[MatmulOperand] = []
        self.fixed_casts: list[FixedCast] = []
        self._collect_module_facts()
        self._analyze_functions()

    # -- module facts -------------------------------------------------------------------------

    def _collect_module_facts(self) -> None:
        shadowed: set[str] = set()
        for stmt in self._module_statements(self.tree.body):
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                for local, qualname in import_aliases(stmt):
                    self.aliases[local] = qualname
                    shadowed.discard(local)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    for node in ast.walk(target):
                        if isinstance(node, ast.Name):
                            shadowed.add(node.id)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                shadowed.add(stmt.name)
        for name in shadowed:
            self.aliases.pop(name, None)
        for node in _class_definitions(self.tree.body):
            self.classes[node.name] = self._class_info(node)
        self._resolve_module_classes()

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

    def _class_info(self, node: ast.ClassDef) -> ClassInfo:
        info = ClassInfo(node.name, node, is_module=False)
        info.bases = [self.qualify(base) or dotted_name(base) or "" for base in node.bases]
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                info.methods.add(stmt.name)
                info.method_nodes[stmt.name] = stmt
                self._collect_attributes(stmt, info)
        return info

    def scan(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> _FunctionScan:
        """One generic walk of a function, shared by class facts and the flow (cached)."""
        scan = self._scans.get(id(func))
        if scan is None:
            scan = self._scans[id(func)] = _FunctionScan.of(func, self)
        return scan

    def _collect_attributes(
        self, method: ast.FunctionDef | ast.AsyncFunctionDef, info: ClassInfo
    ) -> None:
        for node in self.scan(method).self_facts:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if _is_self_attribute(target):
                        self._classify_attribute(target.attr, node.value, info, method.name, node)  # type: ignore[attr-defined]
            elif isinstance(node, ast.AnnAssign) and node.value and _is_self_attribute(node.target):
                self._classify_attribute(node.target.attr, node.value, info, method.name, node)  # type: ignore[attr-defined]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                registrar = node.func.attr
                if registrar in ("register_buffer", "register_parameter") and node.args:
                    name = constant_string(node.args[0])
                    if name:
                        (info.buffers if registrar == "register_buffer" else info.parameters).add(
                            name
                        )
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
        if attr in info.buffers or attr in info.parameters:
            return
        if method == "__init__":
            kind = self._tensor_kind(value, self._init_locals(info))
            if kind is not None:
                info.tensor_attrs.setdefault(attr, (stmt, kind == "int"))
                info.plain_attrs.setdefault(attr, value)
                return
            if isinstance(value, ast.Call) and (self.qualify(value.func) or "").startswith(
                "numpy."
            ):
                info.numpy_attrs.add(attr)
        if isinstance(value, ast.Call):
            qualname = self.qualify(value.func) or dotted_name(value.func) or ""
            last = qualname.rsplit(".", 1)[-1]
            if (
                qualname in ("torch.nn.Parameter", "torch.nn.parameter.Parameter")
                or last == "Parameter"
            ):
                info.parameters.add(attr)
                return
            if (qualname.startswith("torch.nn.") or not qualname.startswith("torch.")) and last[
                :1
            ].isupper():
                info.submodules.add(attr)
                return
        if method == "__init__" or attr not in info.plain_attrs:
            info.plain_attrs.setdefault(attr, value)

    def _tensor_kind(
        self, value: ast.AST, local: dict[str, ast.AST] | None = None, depth: int = 0
    ) -> str | None:
        """float | int when `value` builds a tensor with torch (for plain `self.x = ...`).

        `local` maps the method's local names to what they were last assigned (`pe = torch.zeros
        (...)` then `self.pe = pe.unsqueeze(0)`).
        """
        makes_tensor = False
        for node in ast.walk(value):
            if isinstance(node, ast.Call):
                qualname = self.qualify(node.func) or ""
                short = qualname.rsplit(".", 1)[-1]
                if qualname.startswith("torch.nn.") and short[:1].isupper():
                    return None  # a module or an nn.Parameter
                if qualname.startswith("torch.") and (
                    short in FACTORIES or short in _TENSOR_BUILDERS
                ):
                    makes_tensor = True
            elif (
                isinstance(node, ast.Name)
                and local
                and node.id in local
                and depth < 3
                and _is_plain_chain(value, node.id)
            ):
                # `self.pe = pe.unsqueeze(0)`; not `self.off = size / 2 + rng[0]` (a 0-dim element)
                origin = self._tensor_kind(local[node.id], local, depth + 1)
                if origin is not None:
                    return origin
        if not makes_tensor:
            return None
        return "int" if self._integer_expression(value) else "float"

    def _init_locals(self, info: ClassInfo) -> dict[str, ast.AST]:
        """Local names of the class's __init__ and the value each was first assigned."""
        method = info.method_nodes.get("__init__")
        if method is None:
            return {}
        cached = getattr(info, "_init_locals", None)
        if cached is None:
            cached = {}
            for node in ast.walk(method):
                if (
                    isinstance(node, ast.Assign)
                    and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                ):
                    cached.setdefault(node.targets[0].id, node.value)
            info._init_locals = cached  # type: ignore[attr-defined]
        return cached

    def _integer_expression(self, value: ast.AST) -> bool:
        node = value
        while isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr in INT_METHODS | {"bool"}:
                return True
            dtype = keyword(node, "dtype")
            if dtype is not None:
                return (self.qualify(dtype) or "") in INT_DTYPES
            qualname = self.qualify(node.func) or ""
            short = qualname.rsplit(".", 1)[-1]
            if qualname.startswith("torch."):
                if short in ("randint", "randperm"):
                    return True
                if short == "arange":
                    return not any(
                        isinstance(c, ast.Constant) and isinstance(c.value, float)
                        for c in ast.walk(node)
                    )
                if short in ("tensor", "as_tensor") and node.args:
                    constants = [
                        c.value for c in ast.walk(node.args[0]) if isinstance(c, ast.Constant)
                    ]
                    return bool(constants) and all(isinstance(c, int) for c in constants)
                return False
            if isinstance(node.func, ast.Attribute):
                node = node.func.value
            else:
                return False
        return False

    def _resolve_module_classes(self) -> None:
        def is_module(info: ClassInfo, seen: set[str]) -> bool:
            for base in info.bases:
                if base.startswith("torch.nn.") or base.rsplit(".", 1)[-1].endswith("Module"):
                    return True
                local = self.classes.get(base.rsplit(".", 1)[-1])
                if local and local.name not in seen and is_module(local, seen | {local.name}):
                    return True
            # A class with a `forward` and a base class is a model in PyTorch code.
            return "forward" in info.methods and any(b and b != "object" for b in info.bases)

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
        self.local_functions = {
            stmt.name: stmt
            for stmt in self.tree.body
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        self.summaries: dict[int, Summary] = {}
        self.forced_cameras: dict[int, frozenset[str]] = {}
        for _ in range(3):
            self.functions, self.factory_calls, self.matmul_operands, self.fixed_casts = (
                [],
                [],
                [],
                [],
            )
            self.attribute_records: dict[tuple[str, str], FactoryCall] = {}
            self.new_summaries: dict[int, Summary] = {}
            self.camera_args: dict[int, set[str]] = {}
            self.act_args: dict[int, set[str]] = {}
            self._walk_definitions(self.tree.body, None, None, "")
            summaries = {
                key: value for key, value in self.new_summaries.items() if value.interesting
            }
            forced = {
                key: frozenset(names - self.act_args.get(key, set()))
                for key, names in self.camera_args.items()
                if names - self.act_args.get(key, set())
            }
            if summaries == self.summaries and forced == self.forced_cameras:
                break
            self.summaries, self.forced_cameras = summaries, forced

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

    def _walk_definitions(
        self,
        body: Sequence[ast.stmt],
        cls: ClassInfo | None,
        closure: dict[str, Value] | None,
        prefix: str,
    ) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                FunctionFlow(self, stmt, cls, closure, prefix).run()
            elif isinstance(stmt, ast.ClassDef):
                self._walk_definitions(
                    stmt.body, self.classes.get(stmt.name), None, f"{prefix}{stmt.name}."
                )
            elif isinstance(stmt, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
                for block in _child_blocks(stmt):
                    self._walk_definitions(block, cls, closure, prefix)

    # -- queries for rules ----------------------------------------------------------------------

    def text(self, node: ast.AST) -> str:
        return self.source.segment(node)


def _is_float64(node: ast.AST | None, module: ModuleAnalysis) -> bool:
    if node is None:
        return True
    if isinstance(node, ast.Constant):
        return node.value in ("float64", "f8", "double", float)
    qualname = module.qualify(node) or dotted_name(node) or ""
    return qualname.rsplit(".", 1)[-1] in ("float64", "double", "float_", "float")


def _explicit_numpy_dtype(call: ast.Call, module: ModuleAnalysis) -> bool:
    """`np.array(x, dtype=np.float32)`: a NumPy array whose dtype is not the float64 default."""
    dtype = keyword(call, "dtype")
    return dtype is not None and not _is_float64(dtype, module)


def _is_plain_chain(value: ast.AST, name: str) -> bool:
    """`name`, `name.view(...)`, `name[None]`, `name.T`: the same tensor reshaped or moved."""
    node = value
    while True:
        if isinstance(node, ast.Name):
            return node.id == name
        if isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        elif isinstance(node, ast.Subscript) and not (
            isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int)
        ):
            node = node.value
        else:
            return False


def _is_data_class_name(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return any(
        word in last
        for word in ("Dataset", "DataParser", "Dataparser", "DataLoader", "DataModule", "Sampler",
                     "FeatureExtractor", "Processor", "ImageProcessing", "Tokenizer")
    )  # fmt: skip


def _is_self_attribute(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _child_blocks(stmt: ast.stmt) -> Iterator[list[ast.stmt]]:
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if block:
            yield block
    for handler in getattr(stmt, "handlers", ()):
        yield handler.body
    for case in getattr(stmt, "cases", ()):
        yield case.body


# ---------------------------------------------------------------------------------------------
# Per-function flow
# ---------------------------------------------------------------------------------------------


class FunctionFlow:
    """Walks one function in statement order, evaluating every expression to a `Value`."""

    TENSOR_ANNOTATIONS: ClassVar[frozenset[str]] = frozenset(
        {"Tensor", "FloatTensor", "LongTensor"}
    )
    SCALAR_ANNOTATIONS: ClassVar[frozenset[str]] = frozenset(
        {"int", "float", "bool", "str", "bytes", "complex", "Size", "dtype", "device"}
    )

    def __init__(
        self,
        module: ModuleAnalysis,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        cls: ClassInfo | None,
        closure: dict[str, Value] | None,
        prefix: str,
    ) -> None:
        self.module = module
        self.node = node
        self.cls = cls
        self.env: dict[str, Value] = dict(closure) if closure else {}
        self.autocast_depth = 0
        self.fixed_precision_depth = 0
        self.seen_calls: set[int] = set()
        self.dict_params: list[str] = []
        self.returns: list[Value] = []
        args = node.args
        self.param_names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
        self.info = self._function_info(prefix)

    # -- setup ----------------------------------------------------------------------------------

    def _function_info(self, prefix: str) -> FunctionInfo:
        node = self.node
        args = node.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        defaults = self._defaults_by_param()
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
        for param in params:
            name = param.arg
            self.env[name] = EMPTY  # every parameter shadows a module-level import of its name
            annotation = _annotation_kind(param.annotation)
            default = defaults.get(name)
            scalar_default = isinstance(default, ast.Constant) and default.value is not None
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
            numbers = number_list_value(default)
            if numbers is not None:  # `mean=(0.485, 0.456, 0.406)`
                self.env[name] = numbers
                continue
            namespace = name in used.objects and name not in used.tensors
            is_tensor = (
                annotation == "tensor"
                or name in used.tensors
                or (is_forward and not scalar_default and annotation != "other" and not namespace)
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
            if self.module.camera_names.matches(name) and not (name == "K" and attention):
                self.env[name] = Value(CAMERA, cameras=(name,))
                camera_params.append(name)
            elif is_integer_name(name):
                self.env[name] = Value(INT)  # an index or mask tensor: not the run's dtype
            else:
                self.env[name] = Value(ACT)
                tensor_params.append(name)
        fixed_precision, autocast = self._decorator_precision()
        # A module's __init__ builds weights and buffers, which `module.to(dtype)` converts; plain
        # tensor attributes made there are DTL005's business.
        builds_module = (
            in_method and node.name == "__init__" and bool(self.cls and self.cls.is_module)
        )
        # Datasets and data parsers prepare inputs in their own dtype: no activations there.
        data_code = (
            self.cls is not None
            and not self.cls.is_module
            and any(_is_data_class_name(b) for b in [self.cls.name, *self.cls.bases])
        )
        builds_module = builds_module or data_code
        is_tensor_taking = (
            bool(tensor_params or camera_params or self.dict_params) and not builds_module
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
        )
        self.module.functions.append(info)
        return info

    def _defaults_by_param(self) -> dict[str, ast.expr]:
        args = self.node.args
        positional = [*args.posonlyargs, *args.args]
        result: dict[str, ast.expr] = {}
        for param, default in zip(
            positional[len(positional) - len(args.defaults) :], args.defaults
        ):
            result[param.arg] = default
        for param, default in zip(args.kwonlyargs, args.kw_defaults):
            if default is not None:
                result[param.arg] = default
        return result

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
            elif (qualname in CUSTOM_FWD_FUNCS or qualname.endswith("custom_fwd")) and (
                call is not None and keyword(call, "cast_inputs") is not None
            ):
                fixed = True
        return fixed, autocast

    # -- driver ---------------------------------------------------------------------------------

    def run(self) -> None:
        if self.info.autocast:
            self.autocast_depth += 1
        if self.info.fixed_precision:
            self.fixed_precision_depth += 1
        self.block(self.node.body)
        self.module.new_summaries[id(self.node)] = self.summary()

    def summary(self) -> Summary:
        returned = [
            item
            for value in self.returns
            for item in (value.items if value.items is not None else (value,))
        ]
        if not returned or any(value.is_act for value in returned):
            return Summary()
        cameras = tuple(c for value in returned if value.is_camera for c in value.cameras)
        numpy = any(record.numpy_data for value in returned for record in value.factories)
        return Summary(cameras=cameras[:1], numpy=numpy)

    @property
    def in_autocast(self) -> bool:
        return self.autocast_depth > 0 or self.fixed_precision_depth > 0

    # -- statements -----------------------------------------------------------------------------

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
                if self.info.is_forward:
                    self.record_return(stmt.value, value)
        elif isinstance(stmt, ast.If):
            self.eval(stmt.test)
            self.branches([stmt.body, stmt.orelse])
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
            FunctionFlow(self.module, stmt, self.cls, self.env, f"{self.info.qualname}.").run()
        elif isinstance(stmt, ast.ClassDef):
            self.module._walk_definitions(
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
                    merged[name] = _union(previous, value)
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
            if value.tracked and not value.is_act and target.id in self.param_names:
                for record in value.factories:
                    record.parameter_default = True
            if (
                value.tracked
                and not value.is_act
                and target.id in self.param_names
                and is_integer_name(target.id)
            ):
                # `if pixel_mask is None: pixel_mask = torch.ones(...)`: a default for a mask or
                # index parameter, not a float tensor that meets activations.
                value = Value(INT)
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
            if constant_string(target.slice) is None:  # `d["key"] = v` stores in a dict
                self.meet([(target.value, container), (value_node, value)], target, "index")

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
        value = self.eval(stmt.value)
        kind = "matmul" if isinstance(stmt.op, ast.MatMult) else "arith"
        result = self.meet([(stmt.target, current), (stmt.value, value)], stmt, kind)
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

    # -- expressions ----------------------------------------------------------------------------

    def qualify(self, node: ast.AST) -> str | None:
        return self.module.qualify(node, self.env)

    def eval(self, node: ast.AST | None) -> Value:
        if node is None:
            return EMPTY
        if isinstance(node, ast.Name):
            value = self.env.get(node.id)
            if value is not None:
                return value
            alias = self.module.aliases.get(node.id)
            return Value(alias=alias) if alias else EMPTY
        if isinstance(node, ast.Constant):
            if (
                isinstance(node.value, bool)
                or node.value is None
                or isinstance(node.value, (str, bytes))
            ):
                return EMPTY
            if isinstance(node.value, float):
                return Value(PY_NUMBER | PY_FLOAT)
            return Value(PY_NUMBER)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.BinOp):
            left, right = self.eval(node.left), self.eval(node.right)
            if isinstance(node.op, ast.MatMult):
                self.matmul_operands_check(node, "@", [(node.left, left), (node.right, right)])
                return self.meet([(node.left, left), (node.right, right)], node, "matmul")
            kind = "intop" if isinstance(node.op, _INTEGER_OPERATORS) else "arith"
            result = self.meet([(node.left, left), (node.right, right)], node, kind)
            return self.arithmetic_result(node.op, [left, right], result)
        if isinstance(node, ast.UnaryOp):
            value = self.eval(node.operand)
            return EMPTY if isinstance(node.op, ast.Not) else value
        if isinstance(node, ast.Compare):
            operands = [(node.left, self.eval(node.left))]
            operands += [(c, self.eval(c)) for c in node.comparators]
            if all(
                isinstance(op, (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE))
                for op in node.ops
            ):
                self.meet(operands, node, "compare")
                if any(v.flags & TENSORISH or v.tracked for _, v in operands):
                    return Value(BOOL)
            return EMPTY
        if isinstance(node, ast.BoolOp):
            return _union_all(self.eval(v) for v in node.values)
        if isinstance(node, ast.IfExp):
            self.eval(node.test)
            return _union(self.eval(node.body), self.eval(node.orelse))
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = tuple(self.eval(e) for e in node.elts)
            base = _union_all(items)
            return Value(
                (base.flags | SEQUENCE) & ~(DEVICE | DTYPE_OF_ACT),
                base.factories,
                base.int_factories,
                base.cameras,
                base.fixed,
                items=items,
            )
        if isinstance(node, ast.Dict):
            for key in node.keys:
                self.eval(key)
            values = [self.eval(v) for v in node.values]
            return Value(SEQUENCE, items=tuple(values)) if values else EMPTY
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return self.comprehension(node.generators, [node.elt])
        if isinstance(node, ast.DictComp):
            return self.comprehension(node.generators, [node.key, node.value])
        if isinstance(node, ast.Starred):
            return self.eval(node.value)
        if isinstance(node, ast.NamedExpr):
            value = self.eval(node.value)
            self.assign(node.target, value, node.value)
            return value
        if isinstance(node, ast.Await):
            return self.eval(node.value)
        if isinstance(node, ast.JoinedStr):
            for part in node.values:
                self.eval(part)
            return EMPTY
        if isinstance(node, ast.FormattedValue):
            self.eval(node.value)
            return EMPTY
        if isinstance(node, ast.Slice):
            for part in (node.lower, node.upper, node.step):
                self.eval(part)
            return EMPTY
        return EMPTY

    def comprehension(self, generators: list[ast.comprehension], elements: list[ast.expr]) -> Value:
        saved = self.env
        self.env = dict(saved)
        for generator in generators:
            iterable = self.eval(generator.iter)
            self.assign(generator.target, self.iteration_value(generator.iter, iterable), None)
            for condition in generator.ifs:
                self.eval(condition)
        values = [self.eval(e) for e in elements]
        self.env = saved
        element = _union_all(values[-1:])
        return Value(
            element.flags | SEQUENCE,
            element.factories,
            element.int_factories,
            element.cameras,
            element.fixed,
        )

    def arithmetic_result(self, op: ast.operator, operands: list[Value], joined: Value) -> Value:
        """Integer tensors become float32 under true division or with a Python float."""
        if joined.is_act or not joined.int_factories:
            return joined
        to_float = isinstance(op, ast.Div) or any(v.flags & (PY_FLOAT | NUMPY) for v in operands)
        if isinstance(
            op, (ast.FloorDiv, ast.Mod, ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor)
        ):
            to_float = False
        if not to_float:
            return joined
        for record in joined.int_factories:
            record.became_float = True
        return replace(
            joined,
            flags=joined.flags & ~INT,
            factories=joined.factories | joined.int_factories,
            int_factories=frozenset(),
        )

    def attribute(self, node: ast.Attribute) -> Value:
        qualname = self.qualify(node)
        if qualname is not None:
            if qualname in FLOAT_DTYPES or qualname in INT_DTYPES:
                return Value(qualname=qualname)
            return Value(alias=qualname)
        base_node = node.value
        if isinstance(base_node, ast.Name) and base_node.id == "self":
            return self.self_attribute(node.attr)
        base = self.eval(base_node)
        attr = node.attr
        if attr in ("shape",):
            return Value(PY_NUMBER | SEQUENCE)
        if attr in ("ndim",):
            return Value(PY_NUMBER)
        if attr == "device":
            return Value(DEVICE, device_of=expression_root_name(base_node) if base.is_act else None)
        if attr == "dtype":
            if base.is_act:
                return Value(DTYPE_OF_ACT)
            return Value(DTYPE_OF_FIXED, fixed=base.fixed) if base.flags & FIXED else EMPTY
        if attr in ("T", "mT", "H", "mH", "data", "real", "imag"):
            return base
        if self.module.camera_names.matches(attr) and (
            base.flags & MODULE or not base.flags & (ACT | TENSORISH)
        ):
            # `cam.K`, `data.intrinsics`: a camera attribute of some container.
            return Value(CAMERA, cameras=(self.module.text(node),))
        if base.flags & TENSOR_DICT:
            return Value(ACT)
        if base.flags & MODULE:
            return Value(MODULE | ACT)  # `self.fc.weight` or `self.encoder.layer`: either
        return EMPTY

    def self_attribute(self, attr: str) -> Value:
        key = f"self.{attr}"
        if key in self.env:
            return self.env[key]
        cls = self.cls
        if attr in ("dtype",):
            return Value(DTYPE_OF_ACT)
        if attr == "device":
            return Value(DEVICE)
        if cls is None:
            return EMPTY
        if attr in cls.parameters or attr in cls.buffers:
            return Value(ACT)
        if attr in cls.submodules:
            return Value(MODULE)
        if attr in cls.methods:
            return EMPTY
        if self.module.camera_names.matches(attr):
            # A plain attribute: `module.to(torch.bfloat16)` does not convert it. Made as a
            # tensor in __init__, it is DTL005's too (register it) besides DTL002's (cast it).
            records: frozenset[FactoryCall] = frozenset()
            if attr in cls.tensor_attrs and cls.is_module:
                records = frozenset({self.module.attribute_record(cls, attr)})
            return Value(CAMERA, factories=records, cameras=(key,))
        if attr in cls.tensor_attrs and cls.is_module:
            record = self.module.attribute_record(cls, attr)
            if record.integer:
                return Value(INT, int_factories=frozenset({record}))
            return Value(0, factories=frozenset({record}))
        if attr in cls.numpy_attrs:
            return Value(NUMPY)
        numbers = number_list_value(cls.plain_attrs.get(attr))
        if numbers is not None:  # `self.mean = [0.485, 0.456, 0.406]`
            return numbers
        if attr not in cls.plain_attrs and cls.is_module:
            # Set elsewhere (a parent class): a submodule when called, a parameter when used.
            return Value(MODULE | ACT)
        return EMPTY

    def subscript(self, node: ast.Subscript) -> Value:
        base = self.eval(node.value)
        key = constant_string(node.slice)
        if key is not None:
            if self.module.camera_names.matches(key):
                return Value(CAMERA, cameras=(self.module.text(node),))
            if base.flags & TENSOR_DICT or base.is_act:
                return Value(ACT)
            if base.items is not None:
                return join(base.items) if base.items else EMPTY
            return EMPTY
        index = self.eval(node.slice)
        for record in index.int_factories:
            record.used_as_index = True
        if (
            base.items is not None
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, int)
        ):
            index = node.slice.value
            if -len(base.items) <= index < len(base.items):
                return base.items[index]
        if base.flags & SEQUENCE and base.flags & PY_NUMBER and not base.flags & TENSORISH:
            return Value(PY_NUMBER)  # x.shape[0]
        if base.flags & MODULE:
            return Value(base.flags & (MODULE | ACT))  # self.layers[i], self.experts_weight[i]
        if base.flags & TENSOR_DICT:
            return Value(ACT)
        if base.flags & SEQUENCE and base.items is not None:
            return element_of(base)
        return (
            replace(base, flags=base.flags & ~SEQUENCE, items=None)
            if base.flags & SEQUENCE
            else base
        )

    # -- calls ------------------------------------------------------------------------------------

    def call(self, node: ast.Call) -> Value:
        func = node.func
        qualname = self.qualify(func)
        if qualname is not None:
            if qualname.startswith("torch."):
                return self.torch_call(node, qualname)
            if qualname.startswith("numpy."):
                self.eval_args(node)
                return Value(NUMPY | (FIXED if _explicit_numpy_dtype(node, self.module) else 0))
        if isinstance(func, ast.Attribute) and qualname is None:
            receiver_node = func.value
            receiver = self.eval(receiver_node)
            if isinstance(receiver_node, ast.Name) and receiver_node.id == "self":
                return self.self_method_call(node, func.attr)
            if receiver.flags & NUMPY:
                self.eval_args(node)
                if func.attr == "astype" and not _is_float64(
                    node.args[0] if node.args else None, self.module
                ):
                    return Value(NUMPY | FIXED)  # an explicit dtype: not NumPy's float64 default
                return Value(receiver.flags & (NUMPY | FIXED) or NUMPY)
            if (
                receiver.flags & MODULE
                and receiver.flags & ACT
                and func.attr in TENSOR_ATTRS | {"type"}
            ):
                # `self.weight.float()` on an attribute we could not see defined: a tensor.
                return self.tensor_method(node, func.attr, receiver_node, Value(ACT))
            if (receiver.flags & TENSORISH and not receiver.flags & MODULE) or receiver.tracked:
                return self.tensor_method(node, func.attr, receiver_node, receiver)
            args = self.eval_args(node)
            if receiver.flags & MODULE:
                if func.attr in _CONTAINER_METHODS or func.attr.startswith(("get_", "num_", "is_")):
                    return EMPTY  # `self.adapters.keys()`, `self.encoder.parameters()`
                return self.module_call(node, args)
            if func.attr == "get" and node.args and (key := constant_string(node.args[0])):
                if self.module.camera_names.matches(key):
                    return Value(CAMERA, cameras=(self.module.text(node),))
                return Value(ACT) if receiver.flags & TENSOR_DICT else EMPTY
            if func.attr in ("size", "dim", "numel"):
                return Value(PY_NUMBER)
            return self.unknown_call(args)
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
            return self.module_call(node, args)  # `self.layers[i](x)`
        if isinstance(func, ast.Name):
            callee = self.env.get(func.id)
            if callee is not None and callee.flags & MODULE:
                return self.module_call(node, args)
            if func.id in PY_INT_BUILTINS:
                return Value(PY_NUMBER)
            if func.id in PY_FLOAT_BUILTINS:
                return Value(PY_NUMBER | PY_FLOAT)
            if func.id in ("list", "tuple", "reversed", "sorted"):
                return args[0][1] if args else EMPTY
            if (
                func.id in ("max", "min", "sum", "abs")
                and args
                and not any(v.flags & TENSORISH for _, v in args)
            ):
                return _union_all(v for _, v in args)
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
        return self.unknown_call(args)

    def eval_args(self, node: ast.Call) -> list[tuple[ast.expr, Value]]:
        values = [(arg, self.eval(arg)) for arg in node.args]
        values += [(kw.value, self.eval(kw.value)) for kw in node.keywords]
        return values

    def unknown_call(self, args: list[tuple[ast.expr, Value]]) -> Value:
        """A call we know nothing about: it returns an activation when it is given one."""
        if any(v.is_act or v.flags & TENSOR_DICT for _, v in args):
            return Value(ACT)
        return EMPTY

    def module_call(self, node: ast.Call, args: list[tuple[ast.expr, Value]]) -> Value:
        """Calling a submodule: its weights are in the run's dtype, so its inputs meet them."""
        masks = {id(kw.value) for kw in node.keywords if kw.arg and is_integer_name(kw.arg)}
        positional = [
            (a, v)
            for a, v in args
            if (v.flags & TENSORISH or v.tracked or v.items)
            and id(a) not in masks
            and not (isinstance(a, ast.Name) and is_integer_name(a.id))
        ]
        self.meet([*positional, (None, Value(ACT))], node, "module")
        fixed = [v for _, v in positional if v.flags & FIXED and not v.is_act]
        if fixed:  # an upcast input promotes the module's computation: the output keeps it
            return join(fixed)
        return Value(ACT)

    def self_method_call(self, node: ast.Call, name: str) -> Value:
        args = self.eval_args(node)
        cls = self.cls
        if cls is not None and name in cls.method_nodes:
            return self.local_call(
                node, cls.method_nodes[name], args, f"self.{name}", skip_self=True
            )
        if cls is not None and (
            name in cls.submodules
            or (cls.is_module and name not in cls.methods and name not in cls.plain_attrs)
        ):
            if name in (
                "register_buffer",
                "register_parameter",
                "parameters",
                "named_parameters",
                "modules",
                "children",
                "state_dict",
                "apply",
                "train",
                "eval",
                "to",
                "cuda",
                "float",
                "half",
            ):
                return EMPTY
            return self.module_call(node, args)
        if name in ("to", "float", "half"):
            return EMPTY
        return self.unknown_call(args)

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
        params = [p.arg for p in (*callee.args.posonlyargs, *callee.args.args)]
        if skip_self:
            params = params[1:]
        if not any(isinstance(a, ast.Starred) for a in node.args):
            received = list(zip(params, (v for _, v in args[: len(node.args)])))
            received += [
                (kw.arg, v) for kw, (_, v) in zip(node.keywords, args[len(node.args) :]) if kw.arg
            ]
            for param, value in received:
                if value.is_camera:
                    self.module.camera_args.setdefault(key, set()).add(param)
                elif value.is_act:
                    self.module.act_args.setdefault(key, set()).add(param)
        summary = self.module.summaries.get(key)
        if summary is not None and summary.cameras:
            return Value(CAMERA, cameras=(f"{name}(...)",))
        if summary is not None and summary.numpy:
            record = FactoryCall(
                node=node,
                func_text=name,
                factory="helper",
                integer=False,
                function=self.info,
                bound_act_names=self.bound_act_names(),
                device_source=None,
                origin="helper",
            )
            self.record_once(node, self.module.factory_calls, record)
            return Value(0, factories=frozenset({record}))
        return self.unknown_call(args)

    def tensor_method(
        self, node: ast.Call, name: str, receiver_node: ast.expr, receiver: Value
    ) -> Value:
        args = [(arg, self.eval(arg)) for arg in node.args]
        kwargs = {kw.arg: (kw.value, self.eval(kw.value)) for kw in node.keywords}
        if name in FIXED_CAST_METHODS:
            return self.fixed_cast(node, receiver_node, FIXED_CAST_METHODS[name])
        if name in INT_METHODS:
            return Value(INT)
        if name in BOOL_METHODS:
            return Value(BOOL)
        if name in SCALAR_METHODS or name == "size":
            return Value(PY_NUMBER | (SEQUENCE if name == "tolist" else 0))
        if name == "numpy":
            return Value(NUMPY)
        if name == "to" or name == "type":
            return self.to_call(node, receiver_node, receiver, args, kwargs)
        if name == "type_as":
            other = args[0][1] if args else EMPTY
            if other.is_act:
                return Value(ACT)
            return Value(FIXED, fixed=other.fixed) if other.flags & FIXED else EMPTY
        if name.startswith("new_") or name == "new":
            # `x.new_zeros(...)` has x's dtype unless told otherwise.
            dtype = kwargs.get("dtype")
            if dtype is not None:
                return self.dtype_value(dtype[0], dtype[1])
            return Value(
                receiver.flags & (ACT | CAMERA | FIXED),
                cameras=receiver.cameras,
                fixed=receiver.fixed,
            )
        if name in MATMUL_METHODS:
            operands = [(receiver_node, receiver)] + [a for a in args]
            self.matmul_operands_check(node, f".{name}", operands)
            return self.meet(operands, node, "matmul")
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
        if name in STRICT_METHODS:
            return self.meet(
                [(receiver_node, receiver), *data_args], node, "strict", keep_left=True
            )
        if name in MEETING_METHODS:
            kind = "compare" if name in ("eq", "ne", "lt", "le", "gt", "ge") else "arith"
            result = self.meet(
                [(receiver_node, receiver), *data_args], node, kind, keep_left=name.endswith("_")
            )
            return Value(BOOL) if kind == "compare" else result
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
                if value.flags & DEVICE or (
                    isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                ):
                    continue
                spelled = (
                    arg.id
                    if isinstance(arg, ast.Name)
                    else arg.attr
                    if isinstance(arg, ast.Attribute)
                    else ""
                )
                known = value.flags & (TENSORISH | DTYPE_OF_ACT | DTYPE_OF_FIXED) or value.tracked
                if (
                    spelled
                    and "dtype" not in spelled.lower()
                    and not known
                    and value.qualname is None
                    and self.qualify(arg) is None
                ):
                    continue  # `.to(device)`, `.to(dev)`, `.to(self.device)`: a move, not a cast
                if isinstance(arg, ast.Constant) and isinstance(arg.value, bool):
                    continue
                target = (arg, value)
                break
        if target is None:
            return receiver
        arg, value = target
        if value.is_act:  # .to(x): x's dtype and device
            return Value(ACT)
        if value.flags & FIXED:  # .to(y) where y was cast to a fixed dtype
            return Value(FIXED, fixed=value.fixed)
        return self.dtype_value(arg, value, cast_node=node, receiver_node=receiver_node)

    def dtype_value(
        self,
        arg: ast.expr,
        value: Value,
        cast_node: ast.AST | None = None,
        receiver_node: ast.expr | None = None,
    ) -> Value:
        """The tensor value produced by a dtype argument (`dtype=x.dtype`, `torch.float16`)."""
        if value.flags & DTYPE_OF_ACT:
            return Value(ACT)
        if value.flags & DTYPE_OF_FIXED:
            return Value(FIXED, fixed=value.fixed)
        qualname = value.qualname or self.qualify(arg)
        if qualname in FLOAT_DTYPES:
            if cast_node is not None and receiver_node is not None:
                return self.fixed_cast(cast_node, receiver_node, FLOAT_DTYPES[qualname])
            return EMPTY
        if qualname in INT_DTYPES:
            return Value(BOOL) if qualname == "torch.bool" else Value(INT)
        return EMPTY  # an unknown dtype: assume the author chose it

    def record_once(self, node: ast.AST, events: list, event: object) -> None:
        """Add the event a node makes to the module's list, once per node."""
        if id(node) not in self.seen_calls:
            self.seen_calls.add(id(node))
            events.append(event)

    def fixed_cast(self, node: ast.AST, receiver_node: ast.expr, dtype: str) -> Value:
        cast = FixedCast(node, dtype, receiver_node, self.bound_act_names())
        self.record_once(node, self.module.fixed_casts, cast)
        return Value(FIXED, fixed=frozenset({cast}))

    # -- torch functions ------------------------------------------------------------------------

    def torch_call(self, node: ast.Call, qualname: str) -> Value:
        short = qualname.rsplit(".", 1)[-1]
        if qualname in NON_TENSOR_TORCH_FUNCS or qualname.startswith(
            ("torch.cuda.", "torch.backends.", "torch.distributed.")
        ):
            self.eval_args(node)
            return Value(DEVICE) if qualname == "torch.device" else EMPTY
        if qualname in AUTOCAST_FUNCS:
            self.eval_args(node)
            return EMPTY
        if (
            qualname.startswith("torch.nn.")
            and not qualname.startswith("torch.nn.functional.")
            and short[:1].isupper()
        ):
            self.eval_args(node)
            return EMPTY if short in ("Parameter",) else Value(MODULE)
        if qualname.count(".") == 1 and short in FACTORIES:
            return self.factory_call(node, qualname, short)
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
            record = self.new_factory(node, short, integer=False)
            record.origin = "numpy"
            # A camera array stays a camera (DTL002 at the matmul) and is NumPy-made (DTL004).
            return Value(data.flags & CAMERA, factories=frozenset({record}), cameras=data.cameras)
        args = [(arg, self.eval(arg)) for arg in node.args]
        kwargs = [(kw.arg, kw.value, self.eval(kw.value)) for kw in node.keywords]
        if qualname in INT_TORCH_FUNCS:
            return Value(INT)
        if qualname in BOOL_TORCH_FUNCS:
            return Value(BOOL)
        if qualname in MATMUL_FUNCS:
            operands = self.matmul_operand_list(qualname, node, args)
            self.matmul_operands_check(node, qualname, operands)
            return self.meet(operands, node, "matmul")
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
        operands += [(v, val) for k, v, val in kwargs if k in _TENSOR_KEYWORDS]
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
            result = self.meet(tensor_operands, node, kind)
            return Value(BOOL) if kind == "compare" else result
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

    def factory_call(self, node: ast.Call, qualname: str, short: str) -> Value:
        args = self.eval_args(node)
        dtype = keyword(node, "dtype")
        if dtype is not None:
            return self.dtype_value(dtype, self.eval(dtype)) or EMPTY
        if has_star_kwargs(node):
            return EMPTY  # `**factory_kwargs` may well carry the dtype
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
            return Value(0, factories=frozenset({record}))
        if kind is None:
            return EMPTY
        record = self.new_factory(node, short, integer=(kind == "int"))
        if kind == "int" and short in ("tensor", "as_tensor"):
            data = node.args[0] if node.args else None
            record.int_literal_vector = isinstance(data, (ast.List, ast.Tuple)) and all(
                isinstance(leaf, ast.Constant)
                or (isinstance(leaf, ast.UnaryOp) and isinstance(leaf.operand, ast.Constant))
                for leaf, _ in _literal_leaves(data, EMPTY)
            )
        if kind == "int":
            return Value(INT, int_factories=frozenset({record}))
        return Value(0, factories=frozenset({record}))

    def bound_act_names(self) -> frozenset[str]:
        bound = frozenset(
            name for name, value in self.env.items() if value.is_act and not value.alias
        )
        return bound | frozenset(self.info.tensor_params)

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
        record = FactoryCall(
            node=node,
            func_text=self.module.text(node.func),
            factory=short,
            integer=integer,
            function=self.info,
            bound_act_names=self.bound_act_names(),
            device_source=device_source,
        )
        self.record_once(node, self.module.factory_calls, record)
        return record

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
                return _literal_kind(data_node, data)
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
                if fill_value.flags & PY_FLOAT or (
                    isinstance(fill, ast.Constant) and isinstance(fill.value, float)
                ):
                    return "float"
                return None  # a token id as often as a float: do not guess
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

    # -- meeting --------------------------------------------------------------------------------

    def mark_indices(
        self,
        args: Iterable[tuple[ast.AST, Value]],
        node: ast.AST | None = None,
        data: Sequence[tuple[ast.AST | None, Value]] = (),
    ) -> None:
        """Index and mask arguments: int factories there must stay integer; a module's plain
        tensor used as the mask of an activation still meets it (`.cuda()` skips it)."""
        acts = [(n, v) for n, v in data if v.is_act]
        for _, value in args:
            for record in value.int_factories:
                record.used_as_index = True
            if acts and node is not None and self.info.is_tensor_taking:
                for record in value.factories | value.int_factories:
                    if record.origin == "attribute":
                        meet = Meet(
                            node, "mask", acts[0][0], self.act_names(acts), self.in_autocast
                        )
                        record.meets.append(meet)

    def meet(
        self,
        operands: list[tuple[ast.AST | None, Value]],
        node: ast.AST,
        kind: str,
        keep_left: bool = False,
    ) -> Value:
        """Record tracked values meeting activations, and return the combined value."""
        tracked = [(i, v) for i, (_, v) in enumerate(operands) if v.tracked]
        for index, value in tracked if self.info.is_tensor_taking else ():
            # `if bias is None: bias = torch.zeros(...)` joins an activation and a factory: the
            # factory path still meets the *other* operands' activations.
            if value.is_act and not any(r.parameter_default for r in value.factories):
                continue
            acts = [(n, v) for i, (n, v) in enumerate(operands) if v.is_act and i != index]
            if not acts:
                continue
            meet = Meet(node, kind, acts[0][0], self.act_names(acts), self.in_autocast)
            for record in value.factories:
                if value.is_act and not record.parameter_default:
                    continue
                record.meets.append(meet)
            for record in value.int_factories:
                if meet.strict or (record.int_literal_vector and kind in ("arith", "cat", "index")):
                    record.meets.append(meet)
        if keep_left and operands:
            return operands[0][1]
        return join(v for _, v in operands)

    def act_names(self, acts: list[tuple[ast.AST | None, Value]]) -> tuple[str, ...]:
        """Names holding activations inside the activation operands, in source order."""
        names: list[str] = []
        for node, _ in acts:
            if node is None:
                continue
            for sub in _names_in_order(node):
                if sub in names:
                    continue
                value = (
                    self.env.get(sub)
                    if not sub.startswith("self.")
                    else self.self_attribute(sub[5:])
                )
                if value is not None and value.is_act and not value.alias:
                    names.append(sub)
        return tuple(names)

    def record_return(self, node: ast.expr, value: Value) -> None:
        values = value.items if value.items is not None else (value,)
        for item in values:
            if item.tracked and not item.is_act:
                meet = Meet(node, "return", None, (), self.in_autocast)
                for record in item.factories:
                    record.meets.append(meet)

    def matmul_operands_check(
        self, node: ast.AST, op_name: str, operands: list[tuple[ast.AST | None, Value]]
    ) -> None:
        """Record matmul operands facing an activation (DTL002/DTL003 read these)."""
        if not self.info.is_tensor_taking:
            return
        for index, (operand, value) in enumerate(operands):
            if operand is None or value.is_act:
                continue
            if not (value.is_camera or value.flags & FIXED):
                continue
            # An operand that is an activation on one path and upcast on another is no clear side.
            others = [
                (n, v)
                for i, (n, v) in enumerate(operands)
                if i != index and v.is_act and not v.flags & FIXED and n is not None
            ]
            if not others:
                continue
            other_node = others[0][0]
            self.module.matmul_operands.append(
                MatmulOperand(
                    operand=operand,
                    value=value,
                    op_node=node,
                    op_name=op_name,
                    other_operand=other_node,  # type: ignore[arg-type]
                    other_names=self.act_names(others),
                    function=self.info,
                    autocast=self.autocast_depth > 0 or self.info.autocast,
                    fixed_precision=self.fixed_precision_depth > 0 or self.info.fixed_precision,
                )
            )


def _names_in_order(node: ast.AST) -> list[str]:
    """Simple names and `self.attr` in an expression, in source order."""
    found: list[tuple[int, int, str]] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id != "self":
            found.append((sub.lineno, sub.col_offset, sub.id))
        elif _is_self_attribute(sub):
            found.append((sub.lineno, sub.col_offset, f"self.{sub.attr}"))  # type: ignore[attr-defined]
    found.sort()
    return [name for _, _, name in found]


def _union(a: Value, b: Value) -> Value:
    """Either value (control-flow join), not an operation on both."""
    if a == b:
        return a
    if a is EMPTY:
        return b
    if b is EMPTY:
        return a
    flags = a.flags | b.flags
    cameras = a.cameras + tuple(c for c in b.cameras if c not in a.cameras)
    if flags & ACT:
        # One branch an activation: the name is a dtype source; keep tracked origins too.
        flags &= ~CAMERA
        cameras = ()
    return Value(
        flags,
        a.factories | b.factories,
        a.int_factories | b.int_factories,
        cameras,
        a.fixed | b.fixed,
        items=a.items if a.items == b.items else None,
        device_of=a.device_of or b.device_of,
        alias=a.alias if a.alias == b.alias else None,
    )


def _union_all(values: Iterable[Value]) -> Value:
    result = EMPTY
    for value in values:
        result = _union(result, value)
    return result


def _annotation_kind(annotation: ast.expr | None) -> str | None:
    """tensor | scalar | numpy | other | None for a parameter annotation."""
    if annotation is None:
        return None
    names = [
        n.attr if isinstance(n, ast.Attribute) else n.id
        for n in ast.walk(annotation)
        if isinstance(n, (ast.Name, ast.Attribute))
    ]
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        names = [
            part.strip("[], ")
            for part in annotation.value.replace("|", " ").replace(",", " ").split()
        ]
        names = [p.rsplit(".", 1)[-1] for p in names]
    if any(n in FunctionFlow.TENSOR_ANNOTATIONS for n in names):
        return "tensor"
    if any(n == "ndarray" for n in names):
        return "numpy"
    if names and all(
        n in FunctionFlow.SCALAR_ANNOTATIONS
        or n in ("Optional", "Union", "None", "Tuple", "tuple", "List", "list", "Sequence")
        for n in names
    ):
        if names[0] in ("int", "float") and len(set(names) - {"Optional", "None"}) == 1:
            return names[0]
        return "scalar"
    return "other"


def _literal_kind(node: ast.AST, value: Value) -> str | None:
    """float | int | None (a list of tensors: their dtype) for a literal given to torch.tensor()."""
    if isinstance(node, ast.ListComp):
        return "float"
    saw_float = saw_int = saw_unknown = False
    for leaf, leaf_value in _literal_leaves(node, value):
        number = leaf.operand if isinstance(leaf, ast.UnaryOp) else leaf
        if isinstance(number, ast.Constant) and isinstance(number.value, (int, float)):
            if isinstance(number.value, float):
                saw_float = True
            else:
                saw_int = True
        elif leaf_value.flags & (ACT | FIXED | CAMERA):
            return None
        elif leaf_value.flags & PY_FLOAT:
            saw_float = True
        elif leaf_value.flags & PY_NUMBER:
            saw_int = True
        else:
            saw_unknown = True
    if saw_float:
        return "float"
    if saw_int:
        return "int"  # ints beside names we cannot see: `[1, merge, merge]`
    return None if saw_unknown else "float"


def _literal_leaves(node: ast.AST, value: Value) -> Iterator[tuple[ast.AST, Value]]:
    if isinstance(node, (ast.List, ast.Tuple)):
        items = (
            value.items if value.items is not None and len(value.items) == len(node.elts) else None
        )
        for index, element in enumerate(node.elts):
            yield from _literal_leaves(element, items[index] if items else EMPTY)
    else:
        yield node, value


def _class_definitions(body: Sequence[ast.stmt]) -> Iterator[ast.ClassDef]:
    """Class definitions among statements (nested ones too), without walking expressions."""
    for stmt in body:
        if isinstance(stmt, ast.ClassDef):
            yield stmt
            yield from _class_definitions(stmt.body)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from _class_definitions(stmt.body)
        else:
            for block in _child_blocks(stmt):
                yield from _class_definitions(block)


#: Methods of modules and module containers that return no tensor in the module's dtype.
_CONTAINER_METHODS = frozenset(
    {"keys", "values", "items", "index", "count", "parameters", "named_parameters", "buffers",
     "named_buffers", "children", "named_children", "modules", "named_modules", "state_dict",
     "load_state_dict", "train", "eval", "apply", "register_buffer", "register_parameter",
     "add_module", "append", "extend", "insert", "pop", "copy", "requires_grad_", "zero_grad"}
)  # fmt: skip
#: Operators that only make sense on integers (shifts, bit masks, floor division, modulo).
_INTEGER_OPERATORS = (
    ast.LShift,
    ast.RShift,
    ast.BitAnd,
    ast.BitOr,
    ast.BitXor,
    ast.FloorDiv,
    ast.Mod,
)
#: Keyword arguments of torch functions that take tensor data (not `stride=`, `padding=`, ...).
_TENSOR_KEYWORDS = frozenset(
    {"input", "other", "weight", "bias", "tensors", "mat1", "mat2", "batch1", "batch2", "vec",
     "vec1", "vec2", "target", "exponent", "src", "source", "values", "grid", "query", "key",
     "value", "attn_mask", "x", "y", "end", "tensor", "min", "max", "condition"}
)  # fmt: skip
#: torch functions (besides factories) whose result, stored on a module, is a plain tensor.
_TENSOR_BUILDERS = frozenset(
    {
        "from_numpy",
        "stack",
        "cat",
        "meshgrid",
        "randint",
        "randperm",
        "diag",
        "tril",
        "triu",
        "exp",
        "pow",
        "sin",
        "cos",
    }
)
_REGISTRARS = frozenset({"register_buffer", "register_parameter", "add_module", "register_module"})


class _FunctionScan:
    """Facts from one walk of a function: parameters used as tensors (or as dicts of tensors),
    and the statements that define `self.<attr>` (for class facts)."""

    def __init__(self) -> None:
        self.tensors: set[str] = set()
        self.dicts: set[str] = set()
        self.objects: set[str] = set()  # `cam` in `cam.K`: a namespace, not a tensor
        self.self_facts: list[ast.AST] = []

    @classmethod
    def of(
        cls, func: ast.FunctionDef | ast.AsyncFunctionDef, module: ModuleAnalysis
    ) -> _FunctionScan:
        usage = cls()
        taken_from: dict[str, ast.expr] = {}  # `img = batch["image"]`: img's use tells batch's kind
        for node in ast.walk(func):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(_is_self_attribute(t) for t in targets):
                    usage.self_facts.append(node)
                if (
                    len(targets) == 1
                    and isinstance(targets[0], ast.Name)
                    and isinstance(node.value, (ast.Subscript, ast.Call))
                ):
                    taken_from[targets[0].id] = node.value
                continue
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in _REGISTRARS
            ):
                usage.self_facts.append(node)
            if isinstance(node, ast.Attribute) and node.attr in TENSOR_ATTRS:
                usage.mark(node.value)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                usage.objects.add(node.value.id)
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
                usage.mark(node.left)
                usage.mark(node.right)
            elif isinstance(node, ast.Call) and node.args:
                qualname = module.qualify(node.func) or ""
                if qualname.startswith("torch.") and qualname not in NON_TENSOR_TORCH_FUNCS:
                    short = qualname.rsplit(".", 1)[-1]
                    if short in FACTORIES and short not in ("tensor", "as_tensor"):
                        continue
                    for arg in node.args:
                        for element in (
                            arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else (arg,)
                        ):
                            usage.mark(element)
        for name, value in taken_from.items():
            if name in usage.tensors:
                usage.mark(value)
        return usage

    def mark(self, node: ast.AST) -> None:
        if isinstance(node, ast.Name):
            self.tensors.add(node.id)
        elif isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Name):
                if constant_string(node.slice) is not None:
                    self.dicts.add(node.value.id)
                else:
                    self.tensors.add(node.value.id)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
        ) and isinstance(node.func.value, ast.Name):
            self.dicts.add(node.func.value.id)
