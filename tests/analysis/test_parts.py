"""Unit tests of the analysis's parts: vocabulary, values, roles, scope, summaries, flow."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import dtypelint
from dtypelint.analysis import ModuleAnalysis
from dtypelint.analysis.geometry import geometry_names
from dtypelint.analysis.roles import annotation_kind, annotation_optional
from dtypelint.analysis.scope import file_in_scope
from dtypelint.analysis.summaries import (
    ProjectContext,
    module_name_for,
    needed_again,
    resolve_relative,
)
from dtypelint.analysis.syntax import walk
from dtypelint.analysis.values import (
    ACT,
    CAMERA,
    EMPTY,
    MAYBE_NONE,
    MAYBE_UNBOUND,
    ONE_DIM,
    PY_NUMBER,
    ZERO_DIM,
    Summary,
    Value,
    element_of,
    join,
    union,
)
from dtypelint.analysis.vocabulary import DEFAULT_CAMERA_NAMES, CameraNames
from dtypelint.config import Config
from dtypelint.source import SourceText


def analyze(code: str, filename: str = "model.py", **kwargs) -> ModuleAnalysis:
    code = textwrap.dedent(code)
    return ModuleAnalysis(ast.parse(code), SourceText(code), filename, **kwargs)


# -- vocabulary -------------------------------------------------------------------------------


def test_camera_names_cover_compounds_plurals_and_affixes() -> None:
    names = CameraNames(DEFAULT_CAMERA_NAMES)
    for name in ("cam2imgs", "lidar2imgs", "img2lidars", "cam2imgs_inv", "trans_mats",
                 "world_to_cam", "K_inv", "intrinsics_src", "viewmats"):  # fmt: skip
        assert names.matches(name), name
    for name in ("proj_weight", "pose_feat", "Ps", "cam_tokens", "x", "timesteps"):
        assert not names.matches(name), name


# -- values -----------------------------------------------------------------------------------


def test_operations_clear_binding_doubts_and_joins_keep_them() -> None:
    maybe = Value(ACT | MAYBE_NONE)
    assert not join([maybe, Value(ACT)]).flags & MAYBE_NONE  # `x + 1` ran: x was not None
    assert union(maybe, Value(ACT)).flags & MAYBE_NONE  # either branch: maybe None
    assert not join([Value(ACT | MAYBE_UNBOUND), Value(ACT)]).flags & MAYBE_UNBOUND


def test_one_dim_values_iterate_into_zero_dim_scalars() -> None:
    assert element_of(Value(ONE_DIM)).flags & ZERO_DIM
    assert join([Value(ONE_DIM), Value(PY_NUMBER)]).flags & ONE_DIM  # scaled by a number: 1-D
    assert not join([Value(ONE_DIM), Value(ONE_DIM)]).flags & ONE_DIM  # two tensors: unknown


def test_camera_provenance_survives_only_camera_arithmetic() -> None:
    assert join([Value(CAMERA, cameras=("K",)), Value(CAMERA, cameras=("Rt",))]).is_camera
    assert join([Value(CAMERA, cameras=("K",)), Value(ACT)]).is_act
    assert join([EMPTY]) is EMPTY


# -- roles ------------------------------------------------------------------------------------


def _annotation(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def test_annotations_say_what_a_parameter_holds() -> None:
    assert annotation_kind(_annotation("torch.Tensor")) == "tensor"
    assert annotation_kind(_annotation("Optional[Tensor]")) == "tensor"
    assert annotation_optional(_annotation("Tensor | None"))
    assert annotation_kind(_annotation("list[Tensor]")) == "tensors"
    assert annotation_kind(_annotation("dict[str, torch.Tensor]")) == "tensor_dict"
    assert annotation_kind(_annotation("dict[str, Tensor] | Tensor")) == "mixed"
    assert annotation_kind(_annotation("tuple[int, int]")) == "other"
    assert annotation_kind(_annotation("torch.device")) == "device"
    assert annotation_kind(_annotation("'np.ndarray'")) == "numpy"
    # jaxtyping
    assert annotation_kind(_annotation('Float[Tensor, "*bs 3"]')) == "tensor"
    assert annotation_kind(_annotation('Shaped[torch.Tensor, "n"]')) == "tensor"
    assert annotation_kind(_annotation('Int[Tensor, "n"]')) == "int_tensor"
    assert annotation_kind(_annotation('Bool[Tensor, "n"]')) == "int_tensor"
    assert annotation_kind(_annotation('Float[np.ndarray, "n"]')) == "other"


def test_geometry_names_are_matmul_operands_and_what_they_are_built_from() -> None:
    func = ast.parse(
        textwrap.dedent("""
        def f(K, R, t, x, rot, feats):
            Rt = torch.cat([R, t], -1)
            y = x @ rot.mT + feats
            return K @ Rt
    """)
    ).body[0]
    module = analyze("import torch\n")
    assert geometry_names(walk(func), module) == {"K", "Rt", "R", "t", "x", "rot", "feats"}


# -- scope ------------------------------------------------------------------------------------


def test_files_of_tests_plots_and_exports_are_out_of_scope() -> None:
    assert file_in_scope("src/models/head.py")
    for path in ("tests/test_head.py", "pkg/tests/helpers.py", "conftest.py",
                 "utils/plotting.py", "pkg/export/onnx.py", "docs/example.py",
                 "nerfstudio/exporter/tsdf_utils.py", "nerfstudio/utils/colormaps.py",
                 "depth_anything_3/bench/utils.py",
                 "mmdet/models/task_modules/tracking/camera_motion_compensation.py",
                 "ultralytics/trackers/byte_tracker.py",
                 "torch_points3d/metrics/registration_tracker.py",
                 "learning3d/data_utils/dataloaders.py", "pkg/utils/dataset_utils.py",
                 "torch_geometric/contrib/explain/pgm_explainer.py",
                 "lightly/utils/benchmarking/knn.py", "mmseg/evaluation/metrics/iou_metric.py",
                 "romav2/vis.py", "pkg/utils/viz.py", "speechbrain/augment/time_domain.py",
                 "speechbrain/dataio/dataio.py",
                 "torchmetrics/functional/nominal/cramers.py",
                 # review round 24: an interpretability library, weight initialisation
                 "captum/influence/_core/similarity_influence.py", "escnn/nn/init.py",
                 # review round 23's inference interfaces (VAD post-processing, lengths)
                 "speechbrain/inference/VAD.py"):  # fmt: skip
        assert not file_in_scope(path), path
    assert file_in_scope("pkg/models/vision.py") and file_in_scope("pkg/models/visible_mask.py")
    assert file_in_scope("pkg/models/initial_block.py")
    assert file_in_scope("pkg/models/inference_head.py")  # a folder's name, not a file's


def test_low_precision_runs_in_module_methods_their_helpers_and_public_tensor_functions() -> None:
    module = analyze("""
        import torch
        from torch import nn
        def _helper(x):
            return x * 2
        def _unused(x: torch.Tensor):
            return x
        def public(x: torch.Tensor):
            return x
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(2, 2)
            def forward(self, x):
                return _helper(self.fc(x))
            def _init_weights(self):
                pass
        class ToyDataset(torch.utils.data.Dataset):
            def __getitem__(self, i: torch.Tensor):
                return i
    """)
    reasons = {info.qualname: info.scope_reason for info in module.functions}
    assert reasons["Head.forward"] == "module"
    assert reasons["_helper"] == "helper"
    assert reasons["public"] == "library"
    assert reasons["_unused"] is None
    assert reasons["Head._init_weights"] is None
    assert reasons["ToyDataset.__getitem__"] is None
    wide = analyze("import torch\ndef _unused(x: torch.Tensor):\n    return x\n", scope="all")
    assert wide.functions[0].scope_reason == "all"


def test_kernel_feeding_optimizer_and_deploy_code_is_out_of_scope() -> None:
    """gsplat: public functions handing tensors to a compiled extension run in its dtype (its
    rasterizer reads `data_ptr<float>()`), and so do their callers; densification given the
    optimizers pads Adam state; `fuse()` rebuilds weights once for deployment."""
    module = analyze(
        """
        import torch
        from torch import nn
        from ._backend import _C

        class _Rasterize(torch.autograd.Function):
            @staticmethod
            def forward(ctx, colors: torch.Tensor):
                return _C.rasterize_fwd(colors)

        def rasterize_to_pixels(colors: torch.Tensor):
            return _Rasterize.apply(colors)

        def rasterization(colors: torch.Tensor):
            return rasterize_to_pixels(colors)

        def project(points: torch.Tensor):
            return points * 2

        def duplicate(params: dict, optimizers: dict, mask: torch.Tensor):
            return mask

        class Block(nn.Module):
            def forward(self, x):
                return rasterization(x)
            def fuse(self, x: torch.Tensor):
                return x
            def get_equivalent_kernel_bias(self, x: torch.Tensor):
                return x
    """,
        project=ProjectContext(module_name="splat.rendering"),
    )
    reasons = {info.qualname: info.scope_reason for info in module.functions}
    kernels = {info.qualname for info in module.functions if info.kernel}
    assert kernels == {
        "_Rasterize.forward",
        "rasterize_to_pixels",
        "rasterization",
        "Block.forward",
    }
    assert reasons["rasterize_to_pixels"] is None
    assert reasons["rasterization"] is None
    assert reasons["project"] == "library"
    assert reasons["duplicate"] is None
    assert reasons["Block.forward"] == "module"  # a module's own method stays in scope
    assert reasons["Block.fuse"] is None
    assert reasons["Block.get_equivalent_kernel_bias"] is None
    exported = module.project.exports
    assert exported["splat.rendering.rasterization"].kernel
    # It says only that its result keeps its argument's dtype (a factory given comes back).
    assert exported["splat.rendering.project"] == Summary(params=("points",), keeps="points")


def test_a_function_importing_a_float32_rasterizer_is_a_kernel_caller() -> None:
    """gsplat's Inria comparison wrappers (review round 27): the rasterizer is imported inside
    the function (`from diff_gaussian_rasterization import ...`) or at the top, and reads
    float32 only; a function that merely renders with torch stays in scope."""
    module = analyze(
        """
        import torch
        from nvdiffrast.torch import rasterize

        def inria_wrapper(colors: torch.Tensor, viewmat: torch.Tensor):
            from diff_gaussian_rasterization import GaussianRasterizer
            pad = torch.zeros(colors.shape[0], 1, device=colors.device)
            return GaussianRasterizer()(torch.cat([colors, pad], dim=-1), viewmat)

        def nv_wrapper(colors: torch.Tensor):
            return rasterize(colors)

        def shade(colors: torch.Tensor):
            pad = torch.zeros(colors.shape[0], 1, device=colors.device)
            return torch.cat([colors, pad], dim=-1)
    """,
        project=ProjectContext(module_name="splat.rendering"),
    )
    kernels = {info.qualname for info in module.functions if info.kernel}
    assert kernels == {"inria_wrapper", "nv_wrapper"}
    reasons = {info.qualname: info.scope_reason for info in module.functions}
    assert reasons == {"inria_wrapper": None, "nv_wrapper": None, "shade": "library"}


def test_float32_numerics_is_out_of_scope_and_so_are_helpers_only_it_calls() -> None:
    """torch_points3d's registration solver hands its activations to `torch.solve` (no bfloat16
    kernel): float32 by design, and so is the public `get_matrix_system` only it calls. A public
    helper someone else may call, a camera inverted for a product, and a module's forward that
    only inverts a camera stay in scope."""
    module = analyze(
        """
        import torch
        from torch import nn

        def get_matrix_system(xyz: torch.Tensor, weight: torch.Tensor):
            return xyz * weight, weight

        def register(xyz: torch.Tensor):
            A, b = get_matrix_system(xyz, torch.ones(len(xyz), 1, device=xyz.device))
            return torch.linalg.solve(A.T @ A, A.T @ b)

        def spectrum(img: torch.Tensor):
            return torch.fft.fft2(img).abs()

        def project(points: torch.Tensor):
            return points * 2

        class Cam(nn.Module):
            def forward(self, feats, K: torch.Tensor):
                return torch.inverse(K) @ feats

        class GP(nn.Module):
            def forward(self, x, y):
                L = torch.linalg.cholesky(x @ x.mT + torch.eye(x.shape[-1], device=x.device))
                return torch.cholesky_solve(y, L)
    """
    )
    reasons = {info.qualname: info.scope_reason for info in module.functions}
    numerics = {info.qualname for info in module.functions if info.float32_numerics}
    assert numerics == {"register", "spectrum", "GP.forward"}
    assert reasons == {
        "get_matrix_system": None,
        "register": None,
        "spectrum": None,
        "project": "library",
        "Cam.forward": "module",
        "GP.forward": None,
    }


# -- summaries --------------------------------------------------------------------------------


def test_module_names_and_relative_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg" / "models"
    package.mkdir(parents=True)
    for folder in (tmp_path / "pkg", package):
        (folder / "__init__.py").write_text("")
    (package / "head.py").write_text("")
    assert module_name_for(package / "head.py") == "pkg.models.head"
    assert module_name_for(package / "__init__.py") == "pkg.models"
    assert resolve_relative("pkg.models.head", 1, "geometry", False) == "pkg.models.geometry"
    assert resolve_relative("pkg.models.head", 2, "ops", False) == "pkg.ops"
    assert resolve_relative("pkg.models", 1, "head", True) == "pkg.models.head"


def test_a_module_exports_what_its_functions_tell_callers() -> None:
    project = ProjectContext(module_name="pkg.geometry")
    analyze(
        """
        import torch
        def hist(values, centers):
            return (values[..., None] - centers).abs()
        def windows(x, size: int):
            B, H, W, C = x.shape
            x = x.view(B, H // size, size, W // size, size, C)
            return x.permute(0, 1, 3, 2, 4, 5).reshape(-1, size, size, C)
        def scaled(x):
            return x * 2.0
        def chosen(x, y):
            if y is None:
                return x
            return y
    """,
        project=project,
    )
    assert set(project.exports) == {
        "pkg.geometry.hist",
        "pkg.geometry.windows",
        "pkg.geometry.scaled",
        "pkg.geometry.chosen",
    }
    assert ("values", "centers") in project.exports["pkg.geometry.hist"].param_pairs
    # Returned reshaped: a caller's result is what it gave (a factory's value stays one).
    assert project.exports["pkg.geometry.windows"].passes == "x"
    # Computed from one parameter: in its dtype (a factory given comes back a float32 tensor);
    # `chosen` returns one of two as given: either comes back.
    assert project.exports["pkg.geometry.scaled"].keeps == "x"
    assert set(project.exports["pkg.geometry.chosen"].chooses) == {"x", "y"}
    assert project.exports["pkg.geometry.chosen"].keeps is None


# -- flow -------------------------------------------------------------------------------------


def test_narrowing_on_none_tests() -> None:
    module = analyze("""
        import torch
        def f(x: torch.Tensor, feats: torch.Tensor | None = None):
            if feats is None:
                return x
            return feats + torch.zeros(3, device=x.device)
    """)
    (record,) = module.factory_calls
    assert "feats" in record.bound_act_names  # narrowed: not None after the early return


MODEL_WITH_A_HAZARD = """\
import torch


def shifted(x: torch.Tensor) -> torch.Tensor:
    return x + torch.linspace(0.5, 1, x.shape[-1], device=x.device)
"""


def test_the_folders_above_a_project_are_none_of_its_scope(tmp_path: Path) -> None:
    """A checkout in `~/data/proj` is model code: only the project's own `data/`, `tests/`
    folders say a file never runs in low precision. The project is the configuration's root,
    else the nearest folder above holding .git, pyproject.toml, setup.py or setup.cfg."""
    project = tmp_path / "data" / "proj"
    (project / "pkg" / "data").mkdir(parents=True)
    model, loader = project / "pkg" / "model.py", project / "pkg" / "data" / "loader.py"
    for path in (model, loader):
        path.write_text(MODEL_WITH_A_HAZARD)

    def codes(path: Path, config: Config) -> list[str]:
        return [d.code for d in dtypelint.lint_source(path.read_text(), str(path), config)]

    assert codes(model, Config(project_root=project)) == ["DTL001"]
    assert codes(loader, Config(project_root=project)) == []
    (project / "setup.py").write_text("")  # no configuration: the marker finds the project
    assert codes(model, Config()) == ["DTL001"]
    assert codes(loader, Config()) == []


def test_a_tuple_of_activations_is_news_only_to_a_call_without_one() -> None:
    """Phase 2 reruns a file for a summary that can change it: a helper returning a tuple of
    activations (`q, k = split(x)`) tells a call given an activation nothing it did not know
    (each item was an activation already); a call given none, or a tuple holding a camera, is
    rerun (kornia: 43 files rerun before, 28 now, every finding the same)."""
    from dtypelint.analysis.values import Summary

    table = {
        "pkg.ops.split": Summary(items=("act", None)),
        "pkg.cam.pair": Summary(items=("camera", "act")),
    }
    assert not needed_again(table, {"pkg.ops.split"}, set(), set())
    assert needed_again(table, {"pkg.ops.split"}, set(), {"pkg.ops.split"})
    assert needed_again(table, {"pkg.cam.pair"}, set(), set())
    assert not needed_again(table, {"pkg.other"}, set(), {"pkg.other"})
