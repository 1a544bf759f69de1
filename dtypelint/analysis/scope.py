"""Where low precision runs: which functions of a file see bf16/fp16 activations.

Findings belong where low-precision values actually flow (issue 8, SPEC section 3): code
reachable from an `nn.Module`'s compute methods (`forward`, `encode`, ... through `self` methods
and same-file helpers) and tensor-generic functions a library exports (public functions with a
`Tensor` parameter). Code that never sees low precision by construction (tests, datasets and data
pipelines, plotting, exporters, trainers, losses that are not modules, weight loading and
initialisation) is out of scope by default; `scope = "all"` in the configuration widens the net
to every tensor-taking function.

Measured on diffusers and ultralytics (review of all 60 findings of the previous analysis): 35
of 48 false findings and 3 of 4 "never low precision" ones were in such code.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from dtypelint.analysis.syntax import walk
from dtypelint.analysis.values import ClassInfo, FunctionInfo
from dtypelint.analysis.vocabulary import is_data_class_name

DEFAULT_SCOPE = "models"  # the other: "all" (config.SCOPES)

#: Folder names of code that is not the library's models (tests, benchmarks, docs examples).
_NEVER_LOW_FOLDERS = frozenset(
    {
        "test",
        "tests",
        "testing",
        "bench",
        "benchmark",
        "benchmarks",
        "benchmarking",
        "docs",
        "doc",
        "examples",
        "scripts",
        "export",
        "exporter",
        "exporters",
        "deploy",
        # inference interfaces: pretrained models wrapped with loading, batching and
        # post-processing (speechbrain's `inference/`: VAD boundaries, relative lengths)
        "inference",
        # data pipelines and augmentation: inputs in their own dtype, float32 by design
        "transforms",
        "augment",
        "augmentation",
        "augmentations",
        "dataio",
        "datasets",
        "data",
        "dataloaders",
        # multi-object trackers: post-processing of float32 detections (mmdet's camera motion
        # compensation, ultralytics' trackers)
        "tracking",
        "trackers",
        "tracker",
        # explainability: perturbing inputs and fitting surrogates around a trained model
        "explain",
        "explainers",
        "captum",
        "interpretability",
    }
)
#: Words in a file name of plotting, logging or data-loading code.
_NEVER_LOW_FILE_WORDS = (
    "plot", "visuali", "vis_", "logger", "callbacks", "export", "onnx", "colormap",
    # data pipelines in a file of their own (learning3d's `data_utils/dataloaders.py`)
    "dataset", "dataloader",
)  # fmt: skip
#: Words in a (non-module) class name of code that prepares data or drives models in float32.
_NEVER_LOW_CLASS_WORDS = (
    "Dataset", "DataParser", "Dataparser", "DataLoader", "DataModule", "Sampler", "Transform",
    "Augment", "FeatureExtractor", "Processor", "ImageProcessing", "Tokenizer", "Pipeline",
    "Predictor", "Validator", "Trainer", "Exporter", "Backend", "Callback", "Logger", "Loss",
    "Metric", "Evaluator", "Visualizer", "Plotter", "Writer", "Loader", "Optimizer", "Strategy",
    "Scheduler", "Tester", "Tracker", "Task",
)  # fmt: skip
#: Function names (prefixes) of code that never computes with activations.
_NEVER_LOW_FUNCTION_PREFIXES = (
    "test_", "plot", "visuali", "draw_", "show_", "save_", "load_", "export", "init_weights",
    "_init_weights", "reset_parameters", "initialize", "_initialize", "from_pretrained",
    "convert_", "extra_repr", "state_dict", "load_state_dict", "_load_from_state_dict",
    "to_numpy", "numpy", "benchmark",
    # RepVGG / RepMLP reparameterisation: weights merged once for deployment
    "get_equivalent", "_get_equivalent",
)  # fmt: skip
#: Function names of deploy-time reparameterisation (RepVGG-style `fuse()`): weights rebuilt once.
_DEPLOY_FUNCTIONS = frozenset(
    {"fuse", "_fuse", "fuse_bn", "fuse_conv_bn", "fuse_model", "switch_to_deploy",
     "local_inject", "reparameterize", "reparameterise"}
)  # fmt: skip
#: Methods of a module that build or load it rather than compute with it.
_BUILDER_METHODS = frozenset({"__init__", "__repr__", "__getstate__", "__setstate__", "__call__"})


@dataclass(frozen=True)
class ScopeFacts:
    """Why a function sees low precision: "module" (a module's compute method or what it calls),
    "library" (a public tensor function: assumed), or None (out of scope)."""

    reason: str | None


def _metrics_library(part: str) -> bool:
    """`metrics/`, `torchmetrics/`: evaluation metrics, accumulated in float32 (or float64) by
    design, after the model ran."""
    return part.lower().endswith("metrics")


def file_in_scope(filename: str) -> bool:
    """False for tests, benchmarks, docs examples and plotting code, by path."""
    path = PurePath(filename)
    name = path.name
    if name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py":
        return False
    if any(part in _NEVER_LOW_FOLDERS or _metrics_library(part) for part in path.parts[:-1]):
        return False
    # romav2's `vis.py`; escnn's `nn/init.py` (weight initialisation, written into parameters)
    if path.stem.lower() in ("vis", "viz", "vis_utils", "viz_utils", "init", "initialization"):
        return False
    return not any(word in name.lower() for word in _NEVER_LOW_FILE_WORDS)


def never_low_class_name(names: Iterable[str]) -> bool:
    """A data, driver or evaluation class, by its name or its bases' names."""
    return any(word in name for name in names for word in _NEVER_LOW_CLASS_WORDS)


def never_low_class(cls: ClassInfo) -> bool:
    """A data, driver or evaluation class (not an `nn.Module`)."""
    if cls.is_module:
        return False
    if diffusion_sampler(cls):
        return False
    return never_low_class_name([cls.name, *(base.rsplit(".", 1)[-1] for base in cls.bases)])


def diffusion_sampler(cls: ClassInfo) -> bool:
    """A DDIM / PLMS sampler given its network (`self.model = model`): it drives the network
    with its latents, unlike a data `Sampler`, which yields indices."""
    return not cls.is_module and "Sampler" in cls.name and bool(cls.submodules)


def data_class(cls: ClassInfo) -> bool:
    """A dataset, data parser or data sampler: it prepares inputs in their own dtype."""
    names = [cls.name, *cls.bases]
    return not cls.is_module and not diffusion_sampler(cls) and any(map(is_data_class_name, names))


def never_low_function(name: str) -> bool:
    """Plotting, loading, initialising, exporting, fusing layers for deployment, evaluation
    metrics (`compute_detection_metrics`: accumulated in float32 after the model ran)."""
    if {"metric", "metrics"} & set(name.lower().split("_")):  # not `geometric_transform`
        return True
    if name.endswith("_init") and name != "_init":  # `generalized_he_init(weight, ...)`
        return True
    return name.startswith(_NEVER_LOW_FUNCTION_PREFIXES) or name in _DEPLOY_FUNCTIONS


def optimizer_code(info: FunctionInfo) -> bool:
    """Optimizer-state bookkeeping (gsplat's densification pads Adam's `exp_avg`): a function
    given the optimizers works on parameters and their state, in float32 by design."""
    args = info.node.args
    return any(
        "optimizer" in arg.arg.lower() for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs)
    )


def loss_name(name: str) -> bool:
    """A loss or criterion, or a label assigner (the targets a loss compares with): float32
    accumulators and targets are its design, so only what raises (a matmul, a strict op) is
    reported there, not elementwise promotion."""
    lowered = name.lower()
    return "loss" in lowered or "criterion" in lowered or "assign" in lowered


def assign_scope(
    functions: Sequence[FunctionInfo],
    classes: dict[str, ClassInfo],
    filename: str,
    scope: str,
) -> None:
    """Set `low_precision` / `scope_reason` on every function of a file."""
    if scope == "all":
        for info in functions:
            info.scope_reason = "all"
        return
    if not file_in_scope(filename):
        return
    by_node = {id(info.node): info for info in functions}
    _spread_kernels(functions, by_node)
    callers = _callers(functions, by_node)
    facts = _InitFacts.of(functions, classes)
    roots = []
    for info in functions:
        reason = _root_reason(info, classes, facts)
        if reason == "library" and _only_float32_callers(callers.get(id(info.node), [])):
            # Assumed low precision yields to evidence: the file's own callers all compute in
            # float32 by design (a registration solver's `get_matrix_system`).
            reason = None
        if reason:
            info.scope_reason = reason
            roots.append(info)
    _reach(roots, by_node)
    # `utils/loss.py`: yolov7's RankSort Function (not `loss_functions.py`: DICL's warp is there);
    # speechbrain's `stoi_loss.py` (not every file of a `loss/` folder: deepinv's score model)
    stem = PurePath(filename).stem.lower()
    losses = stem in ("loss", "losses", "criterion", "criterions") or stem.endswith("_loss")
    for info in functions:
        if (info.indices_only or losses) and info.scope_reason:
            info.scope_reason = "loss"  # only what raises: its float math reaches no activation


def _callers(
    functions: Sequence[FunctionInfo], by_node: dict[int, FunctionInfo]
) -> dict[int, list[FunctionInfo]]:
    callers: dict[int, list[FunctionInfo]] = {}
    for info in functions:
        for callee in info.callees:
            if callee in by_node and callee != id(info.node):
                callers.setdefault(callee, []).append(info)
    return callers


def _only_float32_callers(callers: list[FunctionInfo]) -> bool:
    return bool(callers) and all(caller.float32_numerics for caller in callers)


def _root_reason(
    info: FunctionInfo, classes: dict[str, ClassInfo], facts: _InitFacts
) -> str | None:
    name = info.node.name
    if never_low_function(name) or info.parent is not None or optimizer_code(info):
        return None
    if info.float32_numerics:
        return None  # it solves or transforms its activations in float32: float32 by design
    cls = classes.get(info.class_name) if info.class_name else None
    if cls is not None:
        if cls.is_module:
            # A module's compute methods: `forward`, and public ones (`encode`, `decode`, ...),
            # but not one taking nothing but `self` that an `__init__` calls: an init-time probe
            # (`get_backbone_output_channels(self)` runs a dummy input through the stem).
            public = not (name.startswith("_") or name in _BUILDER_METHODS)
            probe = not _takes_inputs(info) and name in facts.calls
            if name in ("forward", "__call__") or (public and not probe):
                return "loss" if loss_name(cls.name) or loss_name(name) else "module"
            return None
        if loss_name(cls.name) and not name.startswith("_") and info.is_tensor_taking:
            return "loss"
        if never_low_class(cls) or cls.name in facts.numpy_classes:
            return None
    # A public function or method taking tensors (on evidence): a library's tensor-generic API,
    # unless it feeds a compiled extension, whose kernels fix the dtype (gsplat's rasterizer), or
    # hands its results to NumPy, which has no bfloat16: post-processing, which a float32
    # constant's promotion lets work (GroundingDINO's `annotate`: `(boxes * wh).numpy()`).
    # `__call__` too, of a class built from tensors: RAFT's `CorrBlock(fmap1, fmap2)`, then
    # `corr_fn(coords)` in a forward (not a data transform's, built from options).
    tensor_holder = info.class_name in facts.tensor_classes
    private = name.startswith("_") and not (name == "__call__" and tensor_holder)
    if not info.is_tensor_taking or private or info.kernel or info.to_numpy:
        return None
    return "loss" if loss_name(name) else "library"


@dataclass(frozen=True)
class _InitFacts:
    """What the file's `__init__` methods tell the scope."""

    calls: set[str]  # methods they call (`self._backbone.get_output_channels()`): init-time
    tensor_classes: set[str]  # classes whose `__init__` takes tensors (RAFT's `CorrBlock`)
    #: plain classes a method of which hands tensors to NumPy (mmtrack's camera motion
    #: compensation: `img.cpu().numpy()` for cv2, then boxes warped by cv2's float32 matrix):
    #: trackers and post-processing around a model, float32 by design
    numpy_classes: set[str]

    @classmethod
    def of(cls, functions: Sequence[FunctionInfo], classes: dict[str, ClassInfo]) -> _InitFacts:
        inits = [
            c.method_nodes["__init__"] for c in classes.values() if "__init__" in c.method_nodes
        ]
        calls = {
            node.func.attr
            for init in inits
            for node in walk(init)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        }
        holders = {
            info.class_name
            for info in functions
            if info.node.name == "__init__" and info.class_name and info.tensor_params
        }
        bridges = {
            info.class_name
            for info in functions
            if info.to_numpy
            and (owner := classes.get(info.class_name or "")) is not None
            and not owner.is_module
            and set(owner.bases) <= {"object"}  # a base we cannot see may be a module's
        }
        return cls(calls, holders, bridges)  # type: ignore[arg-type]


def _takes_inputs(info: FunctionInfo) -> bool:
    args = info.node.args
    named = [*args.posonlyargs, *args.args, *args.kwonlyargs][1:]  # after `self`
    return bool(named or args.vararg or args.kwarg)


def _spread_kernels(functions: Sequence[FunctionInfo], by_node: dict[int, FunctionInfo]) -> None:
    """A function calling one of this file's kernel functions feeds the kernel too."""
    changed = True
    while changed:
        changed = False
        for info in functions:
            if not info.kernel and any(by_node[c].kernel for c in info.callees if c in by_node):
                info.kernel = changed = True


def _reach(roots: Iterable[FunctionInfo], by_node: dict[int, FunctionInfo]) -> None:
    """Everything called from an in-scope function (helpers, `self` methods, nested defs)."""
    stack = list(roots)
    while stack:
        info = stack.pop()
        for callee_id in info.open_callees:
            callee = by_node.get(callee_id)
            if (
                callee is None
                or callee.scope_reason
                or callee.kernel
                or callee.float32_numerics
                or never_low_function(callee.node.name)
                or optimizer_code(callee)
            ):
                continue
            inherited = info.scope_reason if info.scope_reason in ("library", "loss") else "helper"
            callee.scope_reason = "loss" if loss_name(callee.node.name) else inherited
            stack.append(callee)
