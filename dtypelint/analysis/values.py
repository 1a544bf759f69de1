"""Values and events: what an expression holds (roles as flags) and what the rules read."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from dtypelint.analysis.syntax import raises_not_implemented

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


#: `None` on some path to here (`x=None` parameters, `x = None` before a branch): never a dtype
#: source there. Cleared by narrowing (`if x is None: return`) and by any operation on the value.
MAYBE_NONE = 32768
#: assigned on some paths only (inside an `if` or a loop body): never a dtype source after that.
MAYBE_UNBOUND = 65536
#: the dtype of a camera value (`K.dtype`): what `dtype=K.dtype` / `.to(K.dtype)` makes
DTYPE_OF_CAMERA = 131072
#: a complex tensor (`torch.polar`, `torch.fft.*`, `.to(torch.complex64)`): a fixed dtype of its
#: own that casting to the activations' dtype would destroy (the imaginary part is dropped)
COMPLEX = 262144
#: a 1-D factory result as made (`torch.linspace(...)`, `torch.zeros(n)`), at most moved or
#: sliced: iterating or indexing it with a number gives 0-dim scalars. Any operation clears it.
ONE_DIM = 524288
#: the product of a camera value with activations (`points @ R.mT`): a camera value added to it
#: (`+ t`) is part of the same geometry, and DTL002's too
CAMERA_PRODUCT = 1048576
#: Properties of a name's binding, not of what operations compute from it.
BINDING = MAYBE_NONE | MAYBE_UNBOUND
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
    class_name: str | None = None  # the class a method belongs to
    parent: FunctionInfo | None = None  # the enclosing function of a nested one
    callees: set[int] = field(default_factory=set)  # node ids of this file's functions it uses
    #: loop variables that take this file's functions in turn (`for fn in [f, g]: fn(x)`)
    loop_functions: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] | None = None
    #: the callees it uses outside fixed-precision regions (`autocast(enabled=False)`): what
    #: it calls only inside them runs in float32 by design, not in the run's low precision
    open_callees: set[int] = field(default_factory=set)
    #: why low precision runs here (scope.py): "module", "helper", "library" (assumed: a public
    #: tensor function), "all" (`scope = "all"`); None: out of scope
    scope_reason: str | None = None
    #: it hands tensors to a compiled extension, directly or through its callees: it runs in
    #: that kernel's dtype (custom CUDA kernels read `data_ptr<float>()` as a rule)
    kernel: bool = False
    #: it gives its activations to linear algebra or an FFT with no bfloat16 kernel
    #: (`torch.linalg.solve(A, b)`): in a run that works they are float32, by design
    float32_numerics: bool = False
    #: it gives back indices only (farthest point sampling): its float math reaches no
    #: activation, so only what raises is reported there, as in a loss
    indices_only: bool = False
    #: it hands tensors to NumPy (`.numpy()`): post-processing, where float32 results are needed
    to_numpy: bool = False

    @property
    def low_precision(self) -> bool:
        """Findings are reported here: tensors come in on evidence and low precision runs."""
        return self.is_tensor_taking and self.scope_reason is not None


@dataclass(eq=False)
class Meet:
    """A place where a tracked value meets an activation."""

    node: ast.AST  # the meeting operation
    kind: (
        str  # "matmul", "strict", "arith", "accumulate" (`buf += act` into a buffer of ours),
        # "compare", "cat", "index", "inplace", "module",
        # "helper" (a function whose summary says the parameter meets its activations), "return"
    )
    act_operand: ast.AST | None  # the activation side, if there is an expression for it
    act_names: tuple[str, ...]  # activation names in that operand (dtype sources), in order
    autocast: bool  # inside an enabled autocast region
    function: FunctionInfo | None = None  # where it happens: findings need low precision there
    #: inside `autocast(enabled=False)` or `custom_fwd(cast_inputs=...)`: float32 by design
    fixed_precision: bool = False
    #: the function's parameters the activation side is computed from (`dist` from `xyz`)
    act_params: frozenset[str] = frozenset()
    #: its result is rounded right away (`(x + offsets).ceil()`): index math, which float32
    #: keeps exact (bf16 rounds integers past 256), so nothing to report
    rounded: bool = False

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
    #: an alternative to an activation on another path (`if bias is None: bias = torch.zeros()`,
    #: `app = emb(i) if training else torch.zeros(...)`): once the branches join into "an
    #: activation or this factory", the factory path still meets the activations it is used with
    path_alternative: bool = False
    #: activations are written into it (`buf[idx] = act`, `buf.copy_(act)`): once fixed it holds
    #: the activations' dtype, and so does everything derived from it, wherever that is computed
    written_into: bool = False
    #: `torch.tensor([0, 1, 0])`: a vector of int literals, a float quantity written with ints
    #: (the fix log's `y_global`). Unlike an index `arange`, it meets activations in arithmetic too.
    int_literal_vector: bool = False
    largest_literal: int = 0  # of an int-literal vector: 256 and below are exact in bf16
    literal_count: int = 0  # how many literals the vector has
    #: filled with a float (`masked_fill(m, -100.0)`): an additive attention mask, which meets the
    #: scores it is added to even when passed as `mask=`
    additive_mask: bool = False
    #: a 1-D result (`linspace`, `arange`, `zeros(n)`): its elements are 0-dim scalars
    one_dim: bool = False
    #: `torch.Tensor([...])`, `torch.FloatTensor([...])`: legacy constructors, float32 always,
    #: which take no `dtype=` (a fix makes them `torch.tensor([...], dtype=...)`)
    legacy: bool = False
    #: a call of a helper returning a float factory's value made there without `dtype=`
    #: (mmdet's `generate_coordinate`): what and where, `torch.linspace(...) on line 390`
    returned_from: str | None = None
    #: the parameter of the helper it is made in that gives its `dtype=` (`dtype=None` by
    #: default): no dtype unless a caller passes one (`make_grid_points(h, w, device)`)
    dtype_param: str | None = None
    #: factories this one meets in an op that needs one dtype (`buf.scatter_add_(1, i, src)`):
    #: a fix must give them the same dtype, or the fixed line raises
    partners: set[FactoryCall] = field(default_factory=set)
    #: other factories' values it meets (`cat([coords, torch.rand(...)])` after `coords =
    #: torch.rand(...)`), with the operand holding them: once those are fixed to the activations'
    #: dtype, this one meets that dtype too, so one check reports it with them
    companions: list[tuple[FactoryCall, ast.AST | None]] = field(default_factory=list)

    @property
    def becomes_act(self) -> bool:
        """An activation on some path (a parameter's default) or once fixed (a written buffer)."""
        return self.path_alternative or self.written_into

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
    #: "mask" (a bool tensor: 0 and 1 are exact in every float dtype), "count" (an integer
    #: tensor), or "" (a float or unknown one, the activations themselves included)
    receiver_kind: str = ""
    #: a factory given the dtype (`torch.ones(..., dtype=torch.float32)`): `node` is the dtype
    #: expression, which a fix rewrites
    made: bool = False
    #: the helper whose every return went through such a cast (`timestep_embedding(t)` returning
    #: `t.float()` math): `node` is the call, where the caller's layer or product meets it
    returned_from: str = ""


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
    elementwise: bool = False  # a mask or count cast meeting it in `*`, `cat` (promotes)


#: Immutable by convention, not `frozen=True` (a frozen __init__ costs 7 times as much, and a
#: check of kornia makes 170,000): never assign to a field; tests/analysis checks the sources.
@dataclass(slots=True, unsafe_hash=True)
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
    #: a dict whose keys are all known (`dict(device=x.device)`): what `**opts` passes
    keys: frozenset[str] | None = None
    #: the function's parameters this value derives from: what a helper's summary is made of
    params: frozenset[str] = frozenset()

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
NONE = Value(MAYBE_NONE)  # the constant `None`


def narrowed_env(
    env: dict[str, Value], none_facts: dict[str, bool], float_facts: dict[str, bool]
) -> dict[str, Value]:
    """A branch's copy of `env` with what its test says: `x is None` or not, `x` a floating
    tensor or not (then the other kind's origins go)."""
    env = dict(env)
    for name, is_none in none_facts.items():
        if name in env:
            env[name] = NONE if is_none else bound_on_every_path(env[name])
    for name, floating in float_facts.items():
        if name in env:
            value = env[name]
            env[name] = (
                replace(value, flags=value.flags & ~(INT | BOOL), int_factories=frozenset())
                if floating
                else replace(value, flags=value.flags & ~ACT | INT, factories=frozenset())
            )
    return env


def bound_on_every_path(value: Value) -> Value:
    """The value with its binding doubts removed (after `if x is None: return`)."""
    return replace(value, flags=value.flags & ~BINDING) if value.flags & BINDING else value


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
    params = frozenset().union(*(value.params for value in values))
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
    flags &= ~(
        SEQUENCE | MODULE | TENSOR_DICT | DEVICE | DTYPE_OF_ACT | DTYPE_OF_FIXED | DTYPE_OF_CAMERA
    )
    flags &= ~(BINDING | ONE_DIM | CAMERA_PRODUCT)
    tensor_values = [v for v in values if v.flags & (TENSORISH | ONE_DIM) or v.tracked]
    if len(tensor_values) == 1 and tensor_values[0].flags & ONE_DIM:
        flags |= ONE_DIM  # `scales * 0.5`: scaled by numbers, still 1-D
    if flags & COMPLEX:  # complex arithmetic stays complex: its own dtype, not the run's
        return Value(COMPLEX, params=params)
    wide = [v for v in values if v.flags & (CAMERA | FIXED) and not v.flags & (ACT | ZERO_DIM)]
    if int_factories and wide:
        # `(torch.arange(W) - cx) / fx` with float32 intrinsics: the camera's dtype decides the
        # result, not the integer grid (in bf16 a pixel grid past 256 would lose integers).
        int_factories = frozenset()
    if any(v.flags & FIXED and not v.tracked and _upcast(v.fixed) for v in wide):
        # `cat((torch.zeros(b, 1, 3), coords))`, coords float32 on purpose: float32 whatever the
        # factory's dtype; the factory decides nothing (unless activations are written into it)
        factories = frozenset(r for r in factories if r.becomes_act)
    if flags & FIXED and flags & ACT and _upcast(fixed) and not _scalar_casts(values):
        # An upcast value mixed with activations: type promotion makes the result the wider dtype.
        # Promoted by mask or count casts only (`x * keep.float()`), it is still the activation
        # once those are fixed: what meets it later meets an activation (one check, all fixes).
        met = any(v.flags & ACT and not v.flags & FIXED for v in values)  # not a path's union
        return Value(
            FIXED | (ACT if met and masks_or_counts(fixed) else 0), fixed=fixed, params=params
        )
    if flags & TENSORISH or factories or int_factories:
        flags &= ~(PY_NUMBER | PY_FLOAT)  # `x * 0.5` is a tensor, not a Python number
    if flags & ACT and factories and all(v.flags & ZERO_DIM for v in values if v.is_act):
        flags &= ~(ACT | ZERO_DIM)  # `randn(n) * self.strength` (0-dim): the factory's dtype
    if flags & ACT:
        # Mixed with an activation: the result is an activation (promoted); its origins have met.
        # Only 0-dim tensors and numbers (`self.xflip * self.p`) give a 0-dim result.
        scalar = all(v.flags & ZERO_DIM for v in tensor_values) and not factories
        flags = flags & ~(FIXED | ZERO_DIM | INT | BOOL | CAMERA) | (ZERO_DIM if scalar else 0)
        # A buffer activations are written into stays itself (`dist = torch.ones(...) * 1e10`)
        becoming = frozenset(r for r in factories if r.becomes_act)
        return Value(flags | ACT, factories=becoming, params=params)
    return Value(flags, factories, int_factories, tuple(cameras), fixed, params=params)


def _scalar_casts(values: list[Value]) -> bool:
    """Every cast value is 0-dim and some activation is not (`x * (r < 1).float()`, `r` 0-dim):
    to type promotion the casts are numbers, and the activation's dtype decides."""
    cast = [v for v in values if v.flags & FIXED]
    acts = [v for v in values if v.flags & ACT and not v.flags & FIXED]
    return all(v.flags & ZERO_DIM for v in cast) and any(not v.flags & ZERO_DIM for v in acts)


def _upcast(fixed: frozenset[FixedCast]) -> bool:
    """Cast to float32 or wider (or made so, no cast to show): what a mixed result promotes to."""
    return not fixed or any(cast.dtype in ("float32", "float64") for cast in fixed)


def union(a: Value, b: Value) -> Value:
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
        params=a.params | b.params,
    )


def masks_or_counts(fixed: frozenset[FixedCast]) -> bool:
    """Casts, all of a mask or a count (`keep.float()`): they promote what they meet."""
    return bool(fixed) and all(cast.receiver_kind for cast in fixed)


def promoted(value: Value) -> bool:
    """An activation promoted by mask or count casts (`x * keep.float()`, see `join`)."""
    return bool(value.flags & ACT and value.flags & FIXED) and masks_or_counts(value.fixed)


def dtype_source(value: Value) -> bool:
    """A floating activation a fix may take its dtype from: not a submodule (`self.proj` has no
    `.dtype`), an index or mask, a sequence, or a value cast to a fixed dtype (unless only masks
    promoted it: `x` of `x = x * m.float()` is the activation once that cast is fixed)."""
    return (
        value.is_act
        and not value.alias
        and not value.flags & (MODULE | INT | BOOL | COMPLEX | SEQUENCE)
        and (not value.flags & FIXED or promoted(value))
    )


def reduced(value: Value) -> Value | None:
    """A full reduction (`torch.mean(x)`, `m.float().sum()`) of an activation or a cast: a 0-dim
    tensor, a number to type promotion; None for other values."""
    if value.flags & (ACT | FIXED) and not value.flags & SEQUENCE:
        return replace(value, flags=value.flags | ZERO_DIM, items=None)
    return None


def compared(operands: Iterable[tuple[object, Value]]) -> Value:
    """A comparison's result: a bool tensor, 0-dim when every tensor compared is (`xbar < 1`)."""
    tensors = [v for _, v in operands if v.flags & TENSORISH or v.tracked]
    scalar = bool(tensors) and all(v.flags & ZERO_DIM for v in tensors)
    return Value(BOOL | (ZERO_DIM if scalar else 0))


def union_all(values: Iterable[Value]) -> Value:
    result = EMPTY
    for value in values:
        result = union(result, value)
    return result


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
    if value.flags & ONE_DIM and not value.flags & SEQUENCE:
        return Value(ZERO_DIM)  # `for scale in torch.logspace(...)`: 0-dim scalars
    return replace(value, flags=value.flags & ~SEQUENCE, items=None)


@dataclass
class ClassInfo:
    name: str
    node: ast.ClassDef
    is_module: bool
    submodules: set[str] = field(default_factory=set)
    weightless: set[str] = field(default_factory=set)  # submodules without weights (`nn.Dropout`)
    #: names a method checks for a dict (`isinstance(cond, dict)`), once computed (flow.py)
    dict_checked: frozenset[str] | None = None
    #: submodules made from a class of this file (`self.expand = FourierExpansion(...)`): attr ->
    #: class name, so a call gives what that class's forward returns
    submodule_classes: dict[str, str] = field(default_factory=dict)
    int_buffers: set[str] = field(default_factory=set)  # buffers holding integers (index grids)
    #: 0-dim buffers (`register_buffer("p", torch.ones([]))`): numbers to type promotion
    scalar_buffers: set[str] = field(default_factory=set)
    #: attributes `__init__` defines only under a condition or in a loop: no dtype source
    conditional_attrs: set[str] = field(default_factory=set)
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

    def concrete_method(
        self, name: str, classes: Mapping[str, ClassInfo]
    ) -> ast.FunctionDef | ast.AsyncFunctionDef:
        """`self.name()`'s method: when this class's only raises NotImplementedError, the one
        override among this file's direct subclasses (mmseg's `_build_bases`, called from the
        base class's `forward`)."""
        method = self.method_nodes[name]
        if not raises_not_implemented(method):
            return method
        overrides = {
            id(info.method_nodes[name]): info.method_nodes[name]
            for info in classes.values()
            if self.name in (base.rsplit(".", 1)[-1] for base in info.bases)
            and info.method_nodes.get(name, method) is not method
        }
        return next(iter(overrides.values())) if len(overrides) == 1 else method


@dataclass(frozen=True)
class Summary:
    """What a function tells its callers (this file's, or the project's through imports)."""

    cameras: tuple[str, ...] = ()  # it returns a camera value
    #: the parameters that camera comes from, when only from them (`invert(trans_12)`): the
    #: name is the callee's hint; a caller giving them activations gets an activation back
    camera_params: tuple[str, ...] = ()
    numpy: bool = False  # it returns a NumPy-made tensor
    numpy_array: bool = False  # it returns a NumPy array (float64 by default)
    fixed: bool = False  # it returns values cast to a fixed dtype (`make_grid(...).float()`)
    #: the (dtype, receiver kind) of the explicit casts every return went through, activations'
    #: upcasts included (`timestep_embedding`: `t.float()` math): a caller meets them at the call
    fixed_casts: tuple[tuple[str, str], ...] = ()
    #: a tuple return, position by position: "camera", "numpy", "act", "fresh" or None (unknown)
    items: tuple[str | None, ...] | None = None
    #: the factories of each "fresh" item (made here without `dtype=`), which a caller's meeting
    #: reports where they are made; this file's only (never exported), not compared
    fresh_items: tuple[tuple[FactoryCall, ...], ...] = field(default=(), compare=False)
    #: parameter pairs that meet each other inside (`hist(tiles, bins)`: `tiles - bins`)
    param_pairs: tuple[tuple[str, str], ...] = ()  # in the order they meet
    #: parameters that meet the function's own activations (a module's weights, ...)
    params_meeting_acts: tuple[str, ...] = ()
    param_products: tuple[tuple[str, str], ...] = ()  # (parameter, own activation) multiplied
    params: tuple[str, ...] = ()  # parameter names in order (`self` left out): maps arguments
    kernel: bool = False  # it hands tensors to a compiled extension (FunctionInfo.kernel)
    #: the parameter it returns reshaped (analysis.passthrough): its result is that argument
    passes: str | None = None
    #: it returns a float tensor it made without `dtype=` from sizes alone: where and how
    fresh: str | None = None
    #: the parameter that gives that tensor's `dtype=` (None by default), where one does
    fresh_dtype_param: str | None = None
    #: that tensor is an additive attention mask (Swin's `get_attn_mask`): passed as `mask=`, it
    #: is added to the scores
    fresh_mask: bool = False
    #: the parameter whose dtype every return has, computed from it alone (perceiver's
    #: `fourier_encode(x)`: `x * scales` with `scales` made in `x.dtype`): a factory given for it
    #: comes back, in the caller, as a float32 tensor still
    keeps: str | None = None
    #: the parameters one of which it returns as given (`default(val, d)`: `val` or else `d`)
    chooses: tuple[str, ...] = ()
    #: parameters it gives unchanged to a torch.nn layer of its own, with that layer's weight
    #: (`TimestepEmbedding.forward(sample)`: `self.linear_1(sample)` -> "linear_1.weight")
    layer_params: tuple[tuple[str, str], ...] = ()

    @property
    def interesting(self) -> bool:
        return bool(
            self.cameras
            or self.numpy
            or self.numpy_array
            or self.fixed
            or (self.items and any(self.items))
            or self.param_pairs
            or (self.params_meeting_acts or self.param_products)
            or self.kernel
            or self.passes
            or self.fresh
            or self.keeps
            or self.chooses
            or self.layer_params
        )


def options_value(options: dict[str, Value]) -> Value:
    """A dict of keyword options with known keys; `device` names the tensor it came from."""
    device = options.get("device")
    return Value(
        SEQUENCE,
        items=tuple(options.values()),
        keys=frozenset(options),
        device_of=device.device_of if device is not None else None,
    )
