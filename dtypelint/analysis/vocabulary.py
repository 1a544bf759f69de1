"""Vocabulary tables: what torch functions, tensor methods and names mean for dtypes."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

DEFAULT_CAMERA_NAMES: tuple[str, ...] = (
    "intrinsics", "intrinsic", "extrinsics", "extrinsic", "K", "Ks", "cam_K", "camera_matrix",
    "calib", "proj", "projection", "proj_matrix", "projection_matrix", "P", "w2c", "c2w",
    "world2cam", "cam2world", "world_to_cam", "cam_to_world", "pose", "poses", "cam_pose",
    "cam_poses", "RT", "Rt", "lidar2img", "lidar2cam", "cam2img", "img2cam", "cam2lidar",
    "viewmat", "viewmats", "view_matrix", "camera_pose", "camera_poses", "intrinsic_matrix",
    "extrinsic_matrix", "K_inv", "inv_K", "calib_matrix", "camtoworld", "camtoworlds",
    "worldtocam", "cam2worlds", "world2cams", "c2ws", "w2cs", "viewmatrix", "projmat",
    "proj_mats", "intrinsic_matrices", "extrinsic_matrices", "ext", "exts", "intr", "extr",
    "intrins",  # Lift-Splat-Shoot and BEVDet: `rots, trans, intrins, post_rots, post_trans`
    # Rotation and translation values: cameras when used as geometry (in a matmul with points,
    # added to one), which is where DTL002 looks; built together (`cat([R, t])`) they stay camera
    # values, so `K @ Rt` is no finding.
    # (`T` too, PyTorch3D's translation: a temperature or a length is no matmul operand.)
    "R", "t", "T", "rot", "rotation", "trans", "translation", "trans_mat", "trans_mats",
    "Rs", "rots", "rotations", "translations",  # a batch of frames (AlphaFold's IPA)
    "cam", "camera", "cams", "cameras",
)  # fmt: skip


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
     "torch.scatter", "torch.scatter_add", "torch.index_add", "torch.index_copy",
     "torch.nn.functional.cross_entropy", "torch.nn.functional.nll_loss"}
)  # fmt: skip


#: Among them, those whose two first operands are data (not an index): a cast one is DTL003's,
#: as a matmul operand is (`F.grid_sample(x, grid.float())` raises in bf16).
SAME_DTYPE_PREFIXES = ("grid_sample", "conv", "scaled_dot_product_attention")


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


#: Attributes a NumPy array has too: using them proves nothing about torch.
NUMPY_SHARED_ATTRS = frozenset(
    {"shape", "ndim", "T", "size", "reshape", "flatten", "sum", "mean", "std", "var", "prod",
     "cumsum", "argmax", "argmin", "repeat", "transpose", "squeeze", "item", "dtype", "nonzero",
     "round", "dot", "max", "min", "all", "any", "clip", "swapaxes", "data"}
)  # fmt: skip
#: Attributes only a torch tensor has (`x.to(...)`, `x.device`, `x.unsqueeze(0)`).
TORCH_ONLY_ATTRS = TENSOR_ATTRS - NUMPY_SHARED_ATTRS
#: Methods only a NumPy array has (a torch tensor has `.clone()`, `.to()`).
NUMPY_ONLY_METHODS = frozenset({"copy", "astype", "tobytes", "tofile", "ravel"})


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


#: `nn.Module`'s own methods (`self.to(...)`, `self.parameters()`): no submodule call.
MODULE_METHODS = frozenset(
    {"register_buffer", "register_parameter", "parameters", "named_parameters", "modules",
     "children", "state_dict", "apply", "train", "eval", "to", "cuda", "float", "half",
     "named_modules", "buffers", "named_buffers", "load_state_dict", "zero_grad", "requires_grad_",
     # LightningModule's own methods: `self.log("train/grad_norm", norm)` logs, computes nothing
     "log", "log_dict", "print", "save_hyperparameters", "manual_backward"}
)  # fmt: skip

#: Tensor methods taking `dtype=` for their result (`mask.cumsum(1, dtype=x.dtype)`).
DTYPE_REDUCTIONS = frozenset(
    {"cumsum", "cumprod", "sum", "nansum", "mean", "nanmean", "prod", "softmax", "log_softmax",
     "norm"}
)  # fmt: skip

#: Linear algebra with no bfloat16 or float16 kernel (`linalg.inv: Low precision dtypes not
#: supported`, `"geqrf_cpu" not implemented for 'BFloat16'`): in a run that works, what they are
#: given is float32 or wider, so their result is no low-precision activation.
FLOAT32_ONLY_METHODS = frozenset(
    {"inverse", "pinverse", "det", "logdet", "slogdet", "cholesky", "cholesky_inverse", "qr",
     "svd", "lu", "triangular_solve", "cholesky_solve", "lu_solve"}
)  # fmt: skip
FLOAT32_ONLY_FUNCS = frozenset(
    {"torch.inverse", "torch.pinverse", "torch.det", "torch.logdet", "torch.slogdet",
     "torch.cholesky", "torch.cholesky_inverse", "torch.cholesky_solve", "torch.qr", "torch.svd",
     "torch.lu", "torch.lu_solve", "torch.triangular_solve",
     "torch.linalg.inv", "torch.linalg.inv_ex", "torch.linalg.pinv", "torch.linalg.det",
     "torch.linalg.slogdet", "torch.linalg.solve", "torch.linalg.solve_ex", "torch.linalg.lstsq",
     "torch.linalg.cholesky", "torch.linalg.cholesky_ex", "torch.linalg.qr", "torch.linalg.svd",
     "torch.linalg.svdvals", "torch.linalg.eig", "torch.linalg.eigh", "torch.linalg.eigvals",
     "torch.linalg.eigvalsh", "torch.linalg.lu", "torch.linalg.lu_factor", "torch.linalg.lu_solve",
     "torch.linalg.solve_triangular", "torch.linalg.matrix_rank",
     # removed in torch 2 but still in code written for torch 1
     "torch.solve", "torch.lstsq", "torch.eig", "torch.symeig", "torch.matrix_rank"}
)  # fmt: skip
#: FFTs of real data: no bfloat16 kernel (`Unsupported dtype BFloat16`), so a function handing
#: them its activations computes in float32 by design.
REAL_INPUT_FFTS = frozenset(
    {"torch.fft.fft", "torch.fft.fft2", "torch.fft.fftn", "torch.fft.rfft", "torch.fft.rfft2",
     "torch.fft.rfftn", "torch.fft.hfft", "torch.stft"}
)  # fmt: skip

FIXED_CAST_METHODS = {
    "float": "float32",
    "half": "float16",
    "double": "float64",
    "bfloat16": "bfloat16",
}


COMPLEX_DTYPES = frozenset(
    {"torch.complex64", "torch.cfloat", "torch.complex128", "torch.cdouble", "torch.complex32",
     "torch.chalf"}
)  # fmt: skip
#: torch functions whose result is complex (RoPE tables, spectra).
#: `torch.stft` has no bfloat16 kernel either (MKL and cuFFT): a spectrogram is computed in float32
COMPLEX_TORCH_FUNCS = frozenset(
    {"torch.polar", "torch.view_as_complex", "torch.complex", "torch.stft"}
)
FLOAT_DTYPES = {
    "torch.float32": "float32", "torch.float": "float32", "torch.float16": "float16",
    "torch.half": "float16", "torch.bfloat16": "bfloat16", "torch.float64": "float64",
    "torch.double": "float64",
}  # fmt: skip


#: Legacy tensor types as dtypes (`x.type(torch.cuda.FloatTensor)`): a fixed dtype, and for
#: `torch.cuda.*` a device move too, so no cast there is rewritten.
TENSOR_TYPES = {
    f"torch.{cuda}{name}Tensor": kind
    for cuda in ("", "cuda.")
    for name, kind in (
        ("Float", "float"), ("Double", "float"), ("Half", "float"), ("BFloat16", "float"),
        ("Long", "int"), ("Int", "int"), ("Short", "int"), ("Char", "int"), ("Byte", "int"),
        ("Bool", "bool"),
    )
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
     "torch.broadcast_shapes", "torch.promote_types", "torch.result_type", "torch.is_grad_enabled",
     # whatever was saved: a state dict, a dict of tensors, a module (not one tensor to register)
     "torch.load", "torch.jit.load", "torch.hub.load", "torch.hub.load_state_dict_from_url",
     "torch.utils.model_zoo.load_url"}
)  # fmt: skip
#: Namespaces whose calls make no tensor: devices and backends, process groups, optimizers and
#: schedulers (a trainer's `self.optimizer = Adam(...)` is no tensor attribute), data loaders
NON_TENSOR_TORCH_PREFIXES = (
    "torch.cuda.", "torch.backends.", "torch.distributed.", "torch.optim.", "torch.utils.data."
)  # fmt: skip


def non_tensor_torch(qualname: str) -> bool:
    return qualname in NON_TENSOR_TORCH_FUNCS or qualname.startswith(NON_TENSOR_TORCH_PREFIXES)


AUTOCAST_FUNCS = frozenset(
    {"torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast", "torch.cpu.amp.autocast",
     "torch.amp.autocast_mode.autocast"}
)  # fmt: skip


PY_INT_BUILTINS = frozenset({"len", "int", "round", "range", "hash", "ord", "id"})


PY_FLOAT_BUILTINS = frozenset({"float"})


#: Tensor parameters named so hold integers or masks, not activations (`labels`, `input_ids`).
INTEGER_PARAM_WORDS = frozenset(
    {"ids", "idx", "index", "indices", "mask", "masks", "label", "labels", "length", "lengths",
     "lens", "count", "counts", "classes", "indicator", "indicators", "prompts",
     # voxel grid indices (mmdet3d, OpenPCDet: `coors`, `voxel_coors`), never float points
     "coors"}
)  # fmt: skip


#: Attention code names its keys `K`; a `K` beside `Q` and `V` is not a camera matrix.
ATTENTION_NAMES = frozenset({"Q", "V", "q", "v", "query", "value", "queries", "values"})


#: Methods of modules and module containers that return no tensor in the module's dtype.
CONTAINER_METHODS = frozenset(
    {"keys", "values", "items", "index", "count", "parameters", "named_parameters", "buffers",
     "named_buffers", "children", "named_children", "modules", "named_modules", "state_dict",
     "load_state_dict", "train", "eval", "apply", "register_buffer", "register_parameter",
     "add_module", "append", "extend", "insert", "pop", "copy", "requires_grad_", "zero_grad",
     # a metric's or an EMA's bookkeeping (`self.accuracy.update(preds, target)`): no weights
     "update", "reset"}
)  # fmt: skip


#: Operators that only make sense on integers (shifts, bit masks, floor division, modulo).
INTEGER_OPERATORS = (
    ast.LShift,
    ast.RShift,
    ast.BitAnd,
    ast.BitOr,
    ast.BitXor,
    ast.FloorDiv,
    ast.Mod,
)


#: Keyword arguments of torch functions that take tensor data (not `stride=`, `padding=`, ...).
TENSOR_KEYWORDS = frozenset(
    {"input", "other", "weight", "bias", "tensors", "mat1", "mat2", "batch1", "batch2", "vec",
     "vec1", "vec2", "target", "exponent", "src", "source", "values", "grid", "query", "key",
     "value", "attn_mask", "x", "y", "end", "tensor", "min", "max", "condition"}
)  # fmt: skip


#: torch functions (besides factories) whose result, stored on a module, is a plain tensor.
TENSOR_BUILDERS = frozenset(
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


REGISTRARS = frozenset({"register_buffer", "register_parameter", "add_module", "register_module"})


#: Camera names that are also common words in model code (`q_proj`, `pose_feat`, `P` patches):
#: with an affix they count only when the affix is itself camera vocabulary.
AMBIGUOUS_CAMERA_NAMES = frozenset(
    {"K", "Ks", "P", "proj", "projection", "pose", "poses", "Rt", "RT", "calib", "R", "t", "T",
     "rot", "rotation", "trans", "translation", "cam", "camera", "Rs", "rots", "rotations",
     "translations", "ext", "exts", "intr", "extr"}
)  # fmt: skip
#: `cam2img`, `lidar2imgs`, `img2lidars`, `world_to_cam`, `ego2global`: a transform between frames.
_FRAMES = r"(?:cam|camera|img|image|lidar|world|ego|global|local|sensor|pix|pixel|ndc|view|rig|obj|depth|radar)"
FRAME_TRANSFORM = re.compile(rf"^{_FRAMES}s?(?:2|_to_){_FRAMES}s?$")


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

    def _is_core(self, name: str) -> bool:
        """A camera name by itself: listed, a frame-to-frame transform, or a plural of one."""
        if name in self.names or FRAME_TRANSFORM.match(name):
            return True
        # `cam2imgs`, `intrinsics_mats`: plurals of listed names (not of ambiguous ones: `Ps`)
        return (
            name.endswith("s")
            and name[:-1] in self.names
            and name[:-1] not in AMBIGUOUS_CAMERA_NAMES
        )

    def _match(self, name: str) -> bool:
        if self._is_core(name):
            return True
        if "_" not in name:
            return False
        parts = name.strip("_").split("_")
        # Any contiguous run of `_`-separated parts may be the camera name: K_inv, intrinsics_src,
        # src_intrinsics, batch_cam_K.
        for start in range(len(parts)):
            for stop in range(start + 1, len(parts) + 1):
                core = "_".join(parts[start:stop])
                if (stop - start) == len(parts) or not self._is_core(core):
                    continue
                affixes = parts[:start] + parts[stop:]
                if any(affix.lower() in NETWORK_AFFIXES for affix in affixes):
                    continue  # `proj_weight`, `pose_feat`: a network's weight or feature
                if core not in AMBIGUOUS_CAMERA_NAMES or all(
                    a.lower() in CAMERA_AFFIXES or a.isdigit() or len(a) == 1 for a in affixes
                ):
                    return True
        return False


#: Last words that name float values whatever comes before (`mask_preds`, `label_embeddings`).
_FLOAT_VALUE_WORDS = frozenset(
    {"pred", "preds", "logit", "logits", "feat", "feats", "feature", "features", "score",
     "scores", "embed", "embeds", "embedding", "embeddings", "prob", "probs", "weight", "weights",
     "emb", "embs", "output", "outputs"}
)  # fmt: skip


def is_integer_name(name: str) -> bool:
    """`attention_mask`, `input_ids`, `labels`: names of index or mask tensors (not
    `mask_preds`, `mask_logits`: float predictions of masks)."""
    words = name.lower().split("_")
    return words[-1] not in _FLOAT_VALUE_WORDS and bool(INTEGER_PARAM_WORDS & set(words))


#: Training-loop counters a batch dict carries (`samples["epoch"]`): Python numbers.
_COUNTER_WORDS = frozenset({"epoch", "epochs", "iter", "iters", "iteration", "iterations"})


def is_counter_name(name: str) -> bool:
    """`epoch`, `iters`, `num_iters_per_epoch`: a loop counter, not a tensor of the run's dtype."""
    return bool(_COUNTER_WORDS & set(name.lower().split("_")))


def is_data_class_name(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return any(
        word in last
        for word in ("Dataset", "DataParser", "Dataparser", "DataLoader", "DataModule", "Sampler",
                     "FeatureExtractor", "Processor", "ImageProcessing", "Tokenizer")
    )  # fmt: skip


#: Modules without weights: what they are given keeps its own dtype (`nn.Dropout(p)(ones)`).
WEIGHTLESS_MODULES = frozenset(
    {"Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "Identity", "ReLU", "GELU",
     "SiLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Flatten", "Unflatten", "Upsample",
     "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
     "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool2d",
     "PixelShuffle", "PixelUnshuffle", "LeakyReLU", "ELU", "Mish", "Hardswish", "Softplus"}
)  # fmt: skip
#: torch.nn layers that always have a `.weight`, which the model's `.to(bfloat16)` converts: an
#: input upcast to float32 raises there (`mat1 and mat2 must have the same dtype`).
LAYERS_WITH_WEIGHT = frozenset(
    {"Linear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
     "ConvTranspose3d"}
)  # fmt: skip
#: Those and the norm layers, whose weights are converted too (but may be None).
WEIGHTED_LAYERS = LAYERS_WITH_WEIGHT | {
    "LayerNorm", "GroupNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d"
}  # fmt: skip
#: Methods that round a float result to integers (index math follows).
ROUNDING_METHODS = frozenset({"ceil", "floor", "round", "trunc", "long", "int", "short"})
#: The options that build a norm layer without weights (`nn.LayerNorm(d, elementwise_affine=False)`).
AFFINE_OPTIONS = frozenset({"elementwise_affine", "affine"})
#: Parameter annotations that make a parameter a tensor / a scalar.
TENSOR_ANNOTATIONS = frozenset({"Tensor", "FloatTensor", "LongTensor"})
SCALAR_ANNOTATIONS = frozenset(
    {"int", "float", "bool", "str", "bytes", "complex", "Size", "dtype", "device"}
)


#: How an arithmetic operator is written, for messages.
OPERATOR_SYMBOLS: dict[type, str] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Pow: "**", ast.MatMult: "@",
}  # fmt: skip


#: Torch functions that combine their tensors elementwise or join them, promoting to the widest
#: dtype (`torch.cat([x, grid.float()])`): a mask or count cast to float32 promotes bf16 there.
ELEMENTWISE_FUNCS = frozenset(
    {"cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack", "add", "sub", "mul",
     "div", "multiply", "subtract", "divide", "true_divide", "lerp", "addcmul", "addcdiv"}
)  # fmt: skip

#: Reductions that count a mask's or an index's elements (`mask.sum(-1)`: int64).
COUNTING_REDUCTIONS = frozenset({"sum", "cumsum", "count_nonzero", "nansum"})

#: Reductions that, given no dimension, reduce to a 0-dim tensor (a number to type promotion).
FULL_REDUCTIONS = frozenset(
    {"sum", "mean", "max", "min", "amax", "amin", "prod", "norm", "std", "var", "nansum",
     "nanmean", "median", "logsumexp"}
)  # fmt: skip


#: Last segments of compiled-extension modules (`from ._backend import _C`, `import
#: selective_scan_cuda`, mmcv's `ext_module`).
EXTENSION_MODULES = ("_C", "_backend", "_ext", "ext_module")
#: Packages of float32-only CUDA kernels (Gaussian splatting's rasterizers, nvdiffrast).
KERNEL_PACKAGES = frozenset(
    {"diff_gaussian_rasterization", "diff_surfel_rasterization", "simple_knn", "nvdiffrast",
     "tinycudann"}
)  # fmt: skip


def kernel_package(name: str) -> bool:
    """A package of CUDA kernels that take float32 only (3D Gaussian splatting's rasterizers,
    nvdiffrast, tiny-cuda-nn): code handing it tensors runs in float32 by design."""
    return name.split(".", 1)[0] in KERNEL_PACKAGES
