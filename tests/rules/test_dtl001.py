"""DTL001 factory-without-dtype: exact findings, exact fixes, and the look-alikes it must not flag."""

from __future__ import annotations

import pytest

from tests.rules.helpers import (
    assert_fix_runs,
    dedent,
    executed,
    findings,
    fix_titles,
    fixed,
    messages,
)

# -- true positives ------------------------------------------------------------------------------


def test_cat_with_ones_takes_the_met_activation_dtype() -> None:
    code = """
    import torch

    def homogeneous(points_3d: torch.Tensor) -> torch.Tensor:
        B, N, _ = points_3d.shape
        return torch.cat([points_3d, torch.ones(B, N, 1, device=points_3d.device)], dim=-1)
    """
    assert findings(code) == [("DTL001", 5, 34)]
    assert messages(code) == [
        "torch.ones(...) defaults to float32 but meets 'points_3d'; add dtype=points_3d.dtype"
    ]
    assert fixed(code) == dedent("""
    import torch

    def homogeneous(points_3d: torch.Tensor) -> torch.Tensor:
        B, N, _ = points_3d.shape
        return torch.cat([points_3d, torch.ones(B, N, 1, device=points_3d.device, dtype=points_3d.dtype)], dim=-1)
    """)


def test_true_division_of_ints_makes_floats() -> None:
    """`torch.tensor((2 / W, 2 / H, 1))` is float32 (RoMa's TinyRoMa), not an int64 vector."""
    code = """
    import torch

    def normalize(flow: torch.Tensor, W1: int, H1: int):
        to_normalized = torch.tensor((2 / W1, 2 / H1, 1)).to(flow.device)
        return flow * to_normalized
    """
    assert findings(code) == [("DTL001", 4, 21)]
    assert "torch.tensor((2 / W1, 2 / H1, 1), dtype=flow.dtype).to(flow.device)" in fixed(code)


def test_model_outputs_in_a_dict_of_any() -> None:
    """`outputs: dict[str, Any]` says nothing of its values: the body reads tensors from it
    (rfdetr's mask matcher). A data batch annotated so stays data."""
    code = """
    from typing import Any
    import torch
    import torch.nn.functional as F

    def mask_cost(outputs: dict[str, Any], num_points: int):
        out_masks = outputs["pred_masks"].flatten(0, 1)[:, None]
        coords = torch.rand(1, num_points, 2, device=out_masks.device)
        return F.grid_sample(out_masks, coords[:, None].expand(out_masks.shape[0], 1, num_points, 2))

    def denoise(batch: dict[str, Any], queries: torch.Tensor):
        boxes = batch["gt_bboxes"]
        padding = torch.zeros(4, 4, device=boxes.device)
        padding[0] = boxes[0]
        return padding
    """
    assert findings(code) == [("DTL001", 7, 14)]
    assert "torch.rand(1, num_points, 2, device=out_masks.device, dtype=out_masks.dtype)" in fixed(
        code
    )


def test_legacy_constructors_are_float32_factories() -> None:
    """`torch.Tensor([...])` and `torch.FloatTensor([...])` are float32 whatever the run and take
    no `dtype=`: the fix makes them `torch.tensor(..., dtype=...)` (pyiqa's color matrices).
    `torch.Tensor(3, 4)` (sizes) and `torch.Tensor(x)` are not followed."""
    code = """
    import torch

    def shift(x: torch.Tensor):
        buf = torch.Tensor(3, 4)
        return x + torch.FloatTensor([1.0, 2.0, 3.0, 4.0]) + buf + torch.Tensor(x)
    """
    assert messages(code) == [
        "torch.FloatTensor(...) defaults to float32 but meets 'x';"
        " make it torch.tensor(..., dtype=x.dtype)"
    ]
    assert findings(code) == [("DTL001", 5, 16)]
    assert (
        "return x + torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=x.dtype) + buf + torch.Tensor(x)"
        in fixed(code)
    )
    assert fix_titles(code) == ["Use `torch.tensor(..., dtype=x.dtype)`"]


def test_point_sample_coordinates_meet_the_sampled_logits() -> None:
    """mmcv's and detectron2's `point_sample(input, coords)` is `grid_sample`: one dtype for both
    (PointRend's and Mask2Former's random points), also when imported in a `try`. `mask_preds`
    holds float predictions of masks, not an integer mask."""
    code = """
    import torch
    try:
        from mmcv.ops import point_sample
    except ImportError:
        point_sample = None

    def uncertain_points(mask_preds: torch.Tensor, n: int):
        coords = torch.rand(mask_preds.shape[0], n, 2, device=mask_preds.device)
        return point_sample(mask_preds, coords)
    """
    assert findings(code) == [("DTL001", 8, 14)]
    assert "device=mask_preds.device, dtype=mask_preds.dtype)" in fixed(code)


def test_a_network_parameter_is_no_dtype_source() -> None:
    """`unet`, `resnet`, `encoder`: modules, which have no `.dtype` (imagen's sampling loop)."""
    code = """
    import torch

    def sample(unet, shape, images: torch.Tensor):
        noise = torch.randn(shape, device=images.device)
        return unet(images + noise)
    """
    assert messages(code) == [
        "torch.randn(...) defaults to float32 but meets 'images'; add dtype=images.dtype"
    ]
    from dtypelint.analysis.roles import non_tensor_name

    assert [non_tensor_name(n) for n in ("unet", "resnet", "text_encoder", "net", "images")] == [
        "module",
        "module",
        "module",
        "module",
        None,
    ]


def test_aliases_and_from_imports() -> None:
    code = """
    import torch as th
    from torch import zeros as z

    def f(x: th.Tensor):
        a = th.zeros(3, device=x.device)
        b = z(3, device=x.device)
        return x + a + b
    """
    assert findings(code) == [("DTL001", 5, 9), ("DTL001", 6, 9)]


def test_import_inside_function() -> None:
    code = """
    def f(x):
        import torch
        return x.view(-1) * torch.rand(4)
    """
    assert findings(code) == [("DTL001", 3, 25)]


def test_index_assignment_through_device_variable() -> None:
    code = """
    import torch

    def frames(joints: torch.Tensor) -> torch.Tensor:
        device = joints.device
        B = joints.shape[0]
        origins = torch.zeros(B, 22, 3, device=device)
        origins[:, :21] = joints
        return origins
    """
    assert findings(code) == [("DTL001", 6, 15)]
    assert "origins = torch.zeros(B, 22, 3, device=device, dtype=joints.dtype)" in fixed(code)


def test_source_not_yet_bound_falls_back_to_the_device_tensor() -> None:
    code = """
    import torch

    def axes(joints: torch.Tensor):
        device = joints.device
        rotations = torch.zeros(4, 3, 3, device=device)
        for i in range(4):
            x_axis = joints[:, i]
            rotations[:, i] = torch.stack([x_axis, x_axis, x_axis], dim=-1)
        return rotations
    """
    assert findings(code) == [("DTL001", 5, 17)]
    assert "device=device, dtype=joints.dtype)" in fixed(code)


def test_integer_tensor_in_cross_product() -> None:
    code = """
    import torch

    def frame(z_axis: torch.Tensor):
        y_global = torch.tensor([0, 1, 0], device=z_axis.device).expand_as(z_axis)
        return torch.cross(y_global, z_axis, dim=-1)
    """
    assert findings(code) == [("DTL001", 4, 16)]
    assert messages(code)[0].startswith("torch.tensor(...) defaults to int64 but meets 'z_axis'")
    # Small int literals meeting float activations only: the same values in float.
    assert "torch.tensor([0, 1, 0], device=z_axis.device, dtype=z_axis.dtype)" in fixed(code)


def test_integer_literal_vector_in_arithmetic_like_the_fix_log() -> None:
    code = """
    import torch

    def up_axis(z_axis: torch.Tensor):
        y_global = torch.tensor([0, 1, 0], device=z_axis.device).expand_as(z_axis)
        return y_global - (y_global * z_axis).sum(dim=-1, keepdim=True) * z_axis
    """
    assert findings(code) == [("DTL001", 4, 16)]


def test_integer_arange_in_a_matmul_has_an_unsafe_fix() -> None:
    code = """
    import torch

    def f(x: torch.Tensor):
        return x @ torch.arange(x.shape[-1], device=x.device)
    """
    assert findings(code) == [("DTL001", 4, 16)]
    # An int64 range given a float dtype computes other values in general: unsafe.
    assert fixed(code) == dedent(code)
    assert "torch.arange(x.shape[-1], device=x.device, dtype=x.dtype)" in fixed(code, unsafe=True)


def test_submodule_call_and_forward_params() -> None:
    code = """
    import torch
    import torch.nn as nn

    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, feats):
            query = torch.randn(feats.shape[0], 4, device=feats.device)
            return self.fc(query) + feats
    """
    assert findings(code) == [("DTL001", 10, 17)]


def test_returned_from_forward() -> None:
    code = """
    import torch
    from torch import nn

    class Empty(nn.Module):
        def forward(self, x):
            if x.numel() == 0:
                return torch.zeros(0, 4, device=x.device)
            return x
    """
    assert findings(code) == [("DTL001", 7, 20)]
    assert messages(code) == [
        "torch.zeros(...) defaults to float32 and is returned from forward; add dtype=x.dtype"
    ]


def test_arange_divided_becomes_float32() -> None:
    code = """
    import torch

    def ramp(x: torch.Tensor):
        t = torch.arange(x.shape[1], device=x.device) / x.shape[1]
        return x + t
    """
    assert findings(code) == [("DTL001", 4, 9)]
    assert messages(code) == [
        "torch.arange(...) makes int64 values that arithmetic turns into float32, but meets 'x';"
        " add dtype=x.dtype"
    ]
    # An int64 factory given a float dtype computes other values (bf16 counts exactly only to
    # 256): never a safe fix, applied only with --unsafe-fixes.
    assert fixed(code) == dedent(code)
    assert "torch.arange(x.shape[1], device=x.device, dtype=x.dtype)" in fixed(code, unsafe=True)


def test_dict_of_tensors_parameter() -> None:
    code = """
    import torch

    def step(batch):
        img = batch["image"]
        noise = torch.randn(img.shape, device=img.device)
        return img + noise
    """
    assert findings(code) == [("DTL001", 5, 13)]


def test_multiline_call_with_trailing_comma_keeps_layout() -> None:
    code = """
    import torch

    def f(x: torch.Tensor):
        pad = torch.zeros(
            x.shape[0],
            3,
            device=x.device,
        )
        return torch.cat([x, pad], dim=1)
    """
    assert findings(code) == [("DTL001", 4, 11)]
    assert fixed(code) == dedent("""
    import torch

    def f(x: torch.Tensor):
        pad = torch.zeros(
            x.shape[0],
            3,
            device=x.device,
            dtype=x.dtype,
        )
        return torch.cat([x, pad], dim=1)
    """)


def test_elementwise_meet_is_flagged_inside_autocast() -> None:
    code = """
    import torch

    def f(x: torch.Tensor):
        with torch.autocast("cuda"):
            return torch.cat([x, torch.zeros(2, 3)])
    """
    assert findings(code) == [("DTL001", 5, 30)]


def test_a_number_default_is_no_dtype_source() -> None:
    """mmagic's BigGAN: `truncation=-1.0` is a float however the body uses it (`torch.clamp(noise,
    -1. * truncation, ...)`); `dtype=truncation.dtype` would raise AttributeError."""
    code = """
    import torch
    from torch import nn

    class Generator(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, num_batches=1, truncation=-1.0):
            noise = torch.randn((num_batches, 4))
            if truncation >= 0.0:
                noise = torch.clamp(noise, -1.0 * truncation, 1.0 * truncation)
            return self.fc(noise)
    """
    assert findings(code) == [("DTL001", 10, 17)]
    assert messages(code) == [
        "torch.randn(...) defaults to float32 and is passed to a submodule; give it the "
        "activations' dtype (no tensor known to have it is bound on every path to this call)"
    ]
    assert fixed(code, unsafe=True) == dedent(code)


def test_a_parameter_some_caller_passes_a_list_is_no_activation() -> None:
    """face_alignment's `transform(point, ...)`: one caller passes a landmark tensor, another
    `[1, 1]`; `dtype=point.dtype` raised AttributeError on the list. A parameter given a list,
    a number or None by some caller is no tensor on that path: callers do not make it one."""
    code = """
    import torch

    def transform(point, scale):
        pt = torch.ones(3)
        pt[0] = point[0]
        return torch.matmul(torch.eye(3) * scale, pt)

    def crop(scale):
        return transform([1, 1], scale)

    def heatmap(landmarks: torch.Tensor, scale):
        return transform(landmarks[0] + 1, scale)
    """
    assert findings(code) == []
    # Without the list caller, the tensor caller makes `point` an activation.
    tensor_only = code.replace("transform([1, 1], scale)", "transform(scale, scale)")
    assert findings(tensor_only) == [("DTL001", 4, 10), ("DTL001", 6, 25)]


def test_demo_code_under_a_main_guard_is_not_checked() -> None:
    """rectified-flow's `if __name__ == '__main__':` demo models run once, in float32."""
    code = """
    import torch
    from torch import nn

    if __name__ == "__main__":
        class Policy(nn.Module):
            def forward(self, s: torch.Tensor):
                return s + torch.randn(s.shape[0], 1)
    """
    assert findings(code) == []
    assert findings(code.replace('__name__ == "__main__"', "True")) == [("DTL001", 7, 24)]


def test_a_submodule_whose_forward_returns_a_fixed_cast_gives_that_dtype() -> None:
    """torchgeo's `FourierExpansion` ends `return encoding.float()`: what the model's zeros
    meet is float32 by design (the class may come after its user in the file). Without the
    cast, the zeros meet the run's dtype."""
    code = """
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(8, 8)
            self.expansion = FourierExpansion(4)

        def forward(self, x, lons):
            emb = self.expansion(lons)
            emb = torch.cat([emb, torch.zeros(emb.shape[0], 2, device=emb.device)], -1)
            return self.lin(x) + emb


    class FourierExpansion(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.n = n

        def forward(self, t):
            freqs = t[..., None] * torch.arange(self.n, device=t.device)
            return torch.cat([freqs.sin(), freqs.cos()], -1).float()
    """
    assert findings(code) == []
    uncast = code.replace("], -1).float()", "], -1)")
    assert findings(uncast) == [("DTL001", 12, 31)]
    assert "torch.zeros(emb.shape[0], 2, device=emb.device, dtype=emb.dtype)" in fixed(uncast)


def test_an_additive_mask_made_by_a_static_helper_and_passed_as_mask() -> None:
    """mmpretrain's ShiftWindowMSA: `get_attn_mask` (a staticmethod calling another one through
    the class) returns a float32 mask filled with -100; passed as `mask=` to the window
    attention, which the signature's default names (`window_msa=WindowMSA`), it is added to the
    bf16 scores. The fix casts the helper's result where it is used."""
    code = """
    import torch
    from torch import nn


    class WindowMSA(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.qkv = nn.Linear(dim, dim)

        def forward(self, x, mask=None):
            attn = self.qkv(x) @ x.transpose(-2, -1)
            return (attn + mask.unsqueeze(0)).softmax(-1) @ x


    class ShiftWindowMSA(nn.Module):
        def __init__(self, dim, window_size=2, window_msa=WindowMSA):
            super().__init__()
            self.window_size = window_size
            self.w_msa = window_msa(dim)

        def forward(self, query, hw_shape):
            attn_mask = self.get_attn_mask(hw_shape, self.window_size, device=query.device)
            return self.w_msa(query, mask=attn_mask)

        @staticmethod
        def window_partition(x, window_size):
            B, H, W, C = x.shape
            x = x.view(B, H // window_size, window_size, W // window_size, window_size, C)
            return x.permute(0, 1, 3, 2, 4, 5).reshape(-1, window_size, window_size, C)

        @staticmethod
        def get_attn_mask(hw_shape, window_size, device=None):
            img_mask = torch.zeros(1, *hw_shape, 1, device=device)
            img_mask[:, window_size:, :, :] = 1
            windows = ShiftWindowMSA.window_partition(img_mask, window_size)
            windows = windows.view(-1, window_size * window_size)
            attn_mask = windows.unsqueeze(1) - windows.unsqueeze(2)
            return attn_mask.masked_fill(attn_mask != 0, -100.0)
    """
    assert findings(code) == [("DTL001", 22, 21)]
    assert messages(code) == [
        "self.get_attn_mask(...) returns a float32 tensor (torch.zeros(...) on line 33 has no"
        " dtype=) but meets 'query'; cast it with .to(query.dtype)"
    ]
    assert fixed(code) == dedent(code).replace(
        "device=query.device)\n", "device=query.device).to(query.dtype)\n"
    )
    assert fix_titles(code) == ["Cast the result with `.to(query.dtype)`"]  # what it does


def test_a_buffer_registered_only_for_some_options_is_no_dtype_source() -> None:
    """mmagic's StyleGAN2 registers `w_avg` only when `w_avg_beta` is given: `dtype=self.w_avg.dtype`
    raised AttributeError with the default options. Without another source: no fix."""
    code = """
    import torch
    from torch import nn

    class Generator(nn.Module):
        def __init__(self, w_avg_beta=None):
            super().__init__()
            self.style_mapping = nn.Linear(8, 8)
            if w_avg_beta is not None:
                self.register_buffer("w_avg", torch.zeros([8]))

        def forward(self, num_batches: int, truncation: float = 1.0):
            styles = torch.randn((num_batches, 8))
            styles = self.style_mapping(styles)
            if truncation < 1:
                styles = self.w_avg + truncation * (styles - self.w_avg)
            return styles
    """
    assert findings(code) == [("DTL001", 12, 18)]
    assert "no tensor known to have it is bound" in messages(code)[0]
    assert fixed(code, unsafe=True) == dedent(code)


def test_a_sentinel_buffer_scaled_by_a_number_stays_the_buffer() -> None:
    """Farthest point sampling: `distance = torch.ones(B, N).to(device) * 1e10`, then
    `distance[mask] = dist[mask]` (boolean-mask assignment raises in bf16: `Index put requires
    the source and destination dtypes match`). Scaling the buffer by a number kept it."""
    code = """
    import torch

    def farthest_point_sample(xyz: torch.Tensor, npoint: int):
        device = xyz.device
        B, N, C = xyz.shape
        distance = torch.ones(B, N).to(device) * 1e10
        farthest = torch.randint(0, N, (B,), dtype=torch.long).to(device)
        batch_indices = torch.arange(B, dtype=torch.long).to(device)
        for i in range(npoint):
            centroid = xyz[batch_indices, farthest, :].view(B, 1, 3)
            dist = torch.sum((xyz - centroid) ** 2, -1)
            mask = dist < distance
            distance[mask] = dist[mask]
            farthest = torch.max(distance, -1)[1]
        return farthest
    """
    assert findings(code) == [("DTL001", 6, 16)]
    assert fixed(code, unsafe=True) == dedent(code).replace(
        "torch.ones(B, N)", "torch.ones(B, N, dtype=xyz.dtype)"
    )


def test_training_counters_in_a_batch_dict_are_numbers() -> None:
    """LAVIS's ALBEF: `alpha = self.alpha * self._rampup_factor(epoch=samples["epoch"], ...)` is a
    Python float; `dtype=alpha.dtype` raised AttributeError in every run. The targets take the
    similarity logits' dtype."""
    code = """
    import torch
    import torch.nn.functional as F
    from torch import nn

    class Pretrain(nn.Module):
        def __init__(self, alpha=0.4):
            super().__init__()
            self.proj = nn.Linear(8, 8)
            self.alpha = alpha

        def _rampup_factor(self, epoch, iters, num_iters_per_epoch):
            return min(1, (epoch * num_iters_per_epoch + iters) / (2 * num_iters_per_epoch))

        def forward(self, samples):
            image = samples["image"]
            alpha = self.alpha * self._rampup_factor(
                epoch=samples["epoch"],
                iters=samples["iters"],
                num_iters_per_epoch=samples["num_iters_per_epoch"],
            )
            sim_i2t_m = self.proj(image) @ self.proj(image).t()
            sim_targets = torch.zeros(sim_i2t_m.size()).to(image.device)
            sim_targets.fill_diagonal_(1)
            return alpha * F.softmax(sim_i2t_m, dim=1) + (1 - alpha) * sim_targets
    """
    assert findings(code) == [("DTL001", 22, 23)]
    assert fixed(code) == dedent(code).replace(
        "torch.zeros(sim_i2t_m.size())", "torch.zeros(sim_i2t_m.size(), dtype=sim_i2t_m.dtype)"
    )


# -- true negatives ------------------------------------------------------------------------------

NEGATIVES = {
    "numbers handed to a method that uses them as numbers (a diffusion schedule)": """
        import torch
        from torch import nn
        class Sampler(nn.Module):
            def schedule(self, num_steps, rho):
                steps = torch.arange(num_steps, device=self.device, dtype=torch.float32)
                return (steps / num_steps) ** rho
            def sample(self, shape, num_steps, rho):
                sigmas = self.schedule(num_steps, rho)
                return sigmas[0] * torch.randn(shape, device=self.device)
    """,
    "float32 by decree: mmcv's force_fp32": """
        import torch
        from mmcv.runner import force_fp32
        @force_fp32(apply_to=("x",))
        def refine(x: torch.Tensor):
            return x @ torch.ones(3, 3, device=x.device)
    """,
    "scalars scaling a factory are not tensors (imagen's noise distribution)": """
        import torch
        class Imagen(torch.nn.Module):
            def noise(self, P_mean, P_std, n):
                return (P_mean + P_std * torch.randn((n,), device=self.device)).exp()
    """,
    "a NumPy metric put in a legacy tensor (lpips' DSSIM)": """
        import torch
        import numpy as np
        def dssim(in0: torch.Tensor, in1: torch.Tensor):
            value = np.abs(in0.cpu().numpy() - in1.cpu().numpy()).mean().astype("float")
            return in0.sum() * 0 + torch.Tensor((value,))
    """,
    "a parameter made into a tensor is data, whatever its annotation (pyiqa's NRQM)": """
        import torch
        def regress(feats: torch.Tensor, linear_param: torch.Tensor):
            preds = torch.ones(feats.shape[0], 1)
            return preds @ torch.tensor(linear_param)
    """,
    "integer pixel grid whose dtype the float32 intrinsics decide (gsplat)": """
        import torch
        import torch.nn.functional as F
        def depth_to_points(depths: torch.Tensor, camtoworlds: torch.Tensor, Ks: torch.Tensor):
            height, width = depths.shape[-3:-1]
            x, y = torch.meshgrid(
                torch.arange(width, device=depths.device),
                torch.arange(height, device=depths.device),
                indexing="xy",
            )
            fx, fy, cx, cy = Ks[..., 0, 0], Ks[..., 1, 1], Ks[..., 0, 2], Ks[..., 1, 2]
            camera_dirs = F.pad(
                torch.stack(
                    [
                        (x - cx[..., None, None] + 0.5) / fx[..., None, None],
                        (y - cy[..., None, None] + 0.5) / fy[..., None, None],
                    ],
                    dim=-1,
                ),
                (0, 1),
                value=1.0,
            )
            return depths * camera_dirs
    """,
    "dtype given": """
        import torch
        def f(x: torch.Tensor):
            return x + torch.zeros(3, dtype=x.dtype, device=x.device)
    """,
    "dtype through **factory_kwargs": """
        import torch
        def f(x: torch.Tensor, device=None, dtype=None):
            factory_kwargs = {"device": device, "dtype": dtype}
            return x + torch.zeros(3, **factory_kwargs)
    """,
    "*_like and new_*": """
        import torch
        def f(x: torch.Tensor):
            return x + torch.zeros_like(x) + x.new_ones(x.shape) + torch.full_like(x, 2.0)
    """,
    "cast right after creation": """
        import torch
        def f(x: torch.Tensor):
            a = torch.ones(3, device=x.device).to(x.dtype)
            b = torch.ones(3).to(x)
            c = torch.ones(3).type_as(x)
            return x * a * b * c
    """,
    "index arange": """
        import torch
        def f(x: torch.Tensor):
            idx = torch.arange(x.shape[0], device=x.device)
            return x[idx, idx] + x.gather(1, torch.arange(3)[None].expand(x.shape[0], 3))
    """,
    "integer arange in elementwise arithmetic keeps the activation dtype": """
        import torch
        def f(x: torch.Tensor):
            return x * torch.arange(x.shape[-1], device=x.device)
    """,
    "bool masks": """
        import torch
        def f(x: torch.Tensor):
            keep = torch.rand(x.shape[0], 1, device=x.device) < 0.9
            m = torch.ones(x.shape[0], dtype=torch.bool, device=x.device)
            return (x * keep)[m].masked_fill(torch.zeros(3).bool(), 0.0)
    """,
    "0-dim scalar tensors": """
        import torch
        def f(x: torch.Tensor, eps: float = 1e-6):
            return x * torch.tensor(0.5, device=x.device) + torch.tensor(eps) + torch.full((), 2.0)
    """,
    "code outside tensor-taking functions": """
        import torch
        GRID = torch.zeros(4, 4)
        def make_grid(n: int):
            return torch.zeros(n, n) + torch.linspace(0, 1, n)
    """,
    "module __init__ builds weights": """
        import torch
        from torch import nn
        class Scale(nn.Module):
            def __init__(self, dim: int, init: torch.Tensor):
                super().__init__()
                self.gamma = nn.Parameter(init * torch.ones(dim))
    """,
    "explicit fixed dtype is a choice": """
        import torch
        def f(x: torch.Tensor):
            return x + torch.zeros(3, dtype=torch.float32) + torch.arange(3).float()
    """,
    "factory never meets an activation": """
        import torch
        def f(x: torch.Tensor):
            counts = torch.zeros(10)
            counts[3] = 1.0
            print(counts)
            return x
    """,
    "matmul inside autocast": """
        import torch
        def f(x: torch.Tensor):
            with torch.autocast("cuda", dtype=torch.bfloat16):
                return x @ torch.eye(x.shape[-1], device=x.device)
    """,
    "dict key store is not an index assignment": """
        import torch
        def convert(state_dict):
            out = {k: v for k, v in state_dict.items()}
            out["head.bias"] = torch.zeros(state_dict["head.weight"].shape[0])
            return out
    """,
    "token id fill value": """
        import torch
        def f(embeds: torch.Tensor, token_id):
            ids = torch.full((embeds.shape[0], 1), token_id, device=embeds.device)
            return torch.cat([ids, ids], dim=1), embeds
    """,
    "torch.tensor of integers beside names": """
        import torch
        def f(grid: torch.Tensor, merge):
            return grid * torch.tensor([1, merge, merge])
    """,
    "default for a mask parameter": """
        import torch
        from torch import nn
        class Backbone(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Conv2d(3, 8, 3)
            def forward(self, pixel_values, pixel_mask=None):
                if pixel_mask is None:
                    pixel_mask = torch.ones(pixel_values.shape[0], 8, 8, device=pixel_values.device)
                return self.body(pixel_values), pixel_mask
    """,
    "integer tensors meeting index tensors": """
        import torch
        def undo_sort(sorted_idx: torch.Tensor):
            indices = torch.arange(sorted_idx.shape[-1], device=sorted_idx.device).expand(sorted_idx.shape)
            undo = sorted_idx.new(*sorted_idx.size())
            return undo.scatter_(-1, sorted_idx, indices)
    """,
    "metadata methods are not tensors": """
        import torch
        def positions(embeds: torch.Tensor, cache):
            seen = cache.get_seq_length()
            mask = torch.ones(embeds.shape[0], seen + embeds.shape[1], device=embeds.device)
            return (torch.cumsum(mask, dim=1) * mask - 1).long()
    """,
    "mask passed to a layer": """
        import torch
        from torch import nn
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = nn.TransformerEncoderLayer(8, 2)
            def forward(self, x):
                attention_mask = torch.ones(x.shape[0], x.shape[1], device=x.device)
                return self.layer(x, src_key_padding_mask=attention_mask)
    """,
    "noqa": """
        import torch
        def f(x: torch.Tensor):
            return x + torch.zeros(3)  # noqa: DTL001
    """,
    "noise added in place keeps the points' dtype": """
        import torch
        def jitter(points: torch.Tensor, sigma: float = 0.01):
            points += torch.randn(points.shape, device=points.device) * sigma
            return points
    """,
    "a pyramid level read with get(level)": """
        from typing import Dict
        import torch
        from torch import nn
        class Decoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Conv2d(4, 2, 3)
            def forward(self, feat1: Dict[str, torch.Tensor], level: str):
                _feat1 = feat1.get(level)
                B, _, h, w = _feat1.shape
                flow = torch.zeros((B, 2, h, w),
                                   requires_grad=False).to(_feat1)
                return self.head(_feat1) + flow
    """,
    # StyleGAN2-ADA: `p` is a 0-dim buffer, a number to type promotion; the comparison gives a
    # random mask and the product stays float32 whatever `p`'s dtype
    "a random draw against a 0-dim probability buffer": """
        import torch
        from torch import nn
        class AugmentPipe(nn.Module):
            def __init__(self, xflip=1.0):
                super().__init__()
                self.register_buffer("p", torch.ones([]))
                self.xflip = float(xflip)
            def forward(self, images):
                n = images.shape[0]
                keep = torch.rand([n], device=images.device) < self.xflip * self.p
                strength = torch.rand([n], device=images.device) * self.p
                keep = keep & (strength < 0.5)
                return torch.where(keep[:, None, None, None], images.flip(3), images)
    """,
    # mmagic's disco diffusion: `lanczos` computes only from its argument (`sinc(x)`,
    # `x.new_zeros`); its result is cast by the caller
    "a kernel computed from a helper's argument and cast where used": """
        import math
        import torch
        import torch.nn.functional as F
        def sinc(x):
            return torch.where(x != 0, torch.sin(math.pi * x) / (math.pi * x), x.new_ones([]))
        def lanczos(x, a):
            cond = torch.logical_and(-a < x, x < a)
            out = torch.where(cond, sinc(x) * sinc(x / a), x.new_zeros([]))
            return out / out.sum()
        def ramp(ratio, width):
            n = math.ceil(width / ratio + 1)
            out = torch.empty([n])
            cur = 0
            for i in range(out.shape[0]):
                out[i] = cur
                cur += ratio
            return torch.cat([-out[1:].flip([0]), out])[1:-1]
        def resample(input: torch.Tensor, dh: int):
            kernel = lanczos(ramp(dh / input.shape[-2], 2), 2).to(input.device, input.dtype)
            return F.conv2d(input, kernel[None, None, :, None])
    """,
    # HybrIK's heatmap head: `.type(torch.cuda.FloatTensor)` casts to float32 on purpose
    "a legacy tensor-type cast": """
        import torch
        def head(hm: torch.Tensor):
            w = torch.arange(hm.shape[-1]).type(torch.cuda.FloatTensor)
            coord = (hm * w).sum(-1)
            return coord * torch.ones(coord.shape[-1], device=hm.device)
    """,
    "empty placeholders replaced by index assignment (rfdetr's assignment)": """
        import torch
        def assign(costs: torch.Tensor, groups: int):
            pairs = [(torch.empty(0), torch.empty(0))] * groups
            for g in range(groups):
                rows = costs[g].argmin(-1)
                pairs[g] = (rows, costs[g][rows])
            return pairs
    """,
    # PyG's RGCNConv: node ids when there are no features, indices on the integer branch only
    "an index arange narrowed by is_floating_point": """
        import torch
        from torch import nn
        class RGCN(nn.Module):
            def __init__(self, n: int, d: int):
                super().__init__()
                self.n = n
                self.root = nn.Parameter(torch.randn(n, d))
            def forward(self, x):
                x_r = x
                if x_r is None:
                    x_r = torch.arange(self.n, device=self.root.device)
                if not torch.is_floating_point(x_r):
                    return self.root[x_r]
                return x_r @ self.root
    """,
    # torch_sparse's SparseTensor: `adj.device()` and `adj.dtype()` are methods
    "a SparseTensor is no dtype source": """
        import torch
        def ppr(adj, topk: int):
            x = torch.zeros(adj.size(0), topk, device=adj.device())
            return adj @ x
    """,
    # k-diffusion's DPM-Solver: `ts[i]` of a 1-D schedule is a 0-dim scalar per step
    "a schedule indexed by the loop variable": """
        import torch
        def sample(model, x: torch.Tensor, t_start: float, t_end: float, steps: int):
            ts = torch.linspace(t_start, t_end, steps + 1, device=x.device)
            for i in range(steps):
                t, t_next = ts[i], ts[i + 1]
                x = x + (t_next - t) * model(x)
            return x
    """,
    # linear algebra with no bfloat16 kernel: what it is given is float32 in any run that works
    "Gaussian process solved with cholesky (RoMa's GP)": """
        import torch
        from torch import nn
        class GP(nn.Module):
            def __init__(self, pos_conv):
                super().__init__()
                self.pos_conv = pos_conv
            def K(self, x, y):
                return torch.exp(-(x @ y.mT))
            def forward(self, x, y):
                f = self.pos_conv(y)
                x, y = x.float(), y.float()
                K_yy = self.K(y, y)
                sigma_noise = 0.1 * torch.eye(K_yy.shape[-1], device=x.device)[None, :, :]
                if self.training:
                    return self.K(x, y).matmul(torch.linalg.inv(K_yy + sigma_noise).matmul(f))
                L_t = torch.linalg.cholesky(K_yy + sigma_noise)
                return self.K(x, y) @ torch.cholesky_solve(f, L_t, upper=False)
    """,
    "registration solver and its matrix builder": """
        import torch
        def get_matrix_system(xyz: torch.Tensor, weight: torch.Tensor):
            A = torch.zeros(xyz.shape[0], 6, device=xyz.device)
            A[:, 3] = weight.view(-1) * xyz[:, 0]
            return A, weight.view(-1) * xyz[:, 1]
        def fast_global_registration(xyz: torch.Tensor, num_iter: int = 20):
            T_res = torch.eye(4, device=xyz.device)
            weight = torch.ones(len(xyz), 1, device=xyz.device)
            A, b = get_matrix_system(xyz, weight)
            x = torch.linalg.solve(A.T.mm(A), A.T @ b)
            return T_res + x.sum()
    """,
    "FFT of the activations (pyiqa's MAD)": """
        import torch
        def hi_index(ref: torch.Tensor, csf: torch.Tensor):
            spectrum = torch.fft.fft2(ref) * csf
            weights = torch.ones(ref.shape[-1], device=ref.device)
            return spectrum.abs().mean() + ref * weights
    """,
}


@pytest.mark.parametrize("code", NEGATIVES.values(), ids=NEGATIVES.keys())
def test_true_negatives(code: str) -> None:
    assert findings(code, select="DTL001") == []


def test_second_fix_changes_nothing() -> None:
    code = """
    import torch
    def f(x: torch.Tensor):
        return torch.cat([x, torch.zeros(2, 3)])
    """
    once = fixed(code)
    assert once != dedent(code)
    assert dtypelint_fix(once) == once


def dtypelint_fix(source: str) -> str:
    import dtypelint

    return dtypelint.fix_source(source, "model.py").source


def test_normalization_constants_from_attribute_and_default_lists() -> None:
    code = """
    import torch
    from torch import nn

    class Normalize(nn.Module):
        def __init__(self):
            super().__init__()
            self.std = [0.229, 0.224, 0.225]

        def forward(self, x):
            std = torch.tensor(self.std, device=x.device).view(1, 3, 1, 1)
            return x / std

    def normalize(x: torch.Tensor, mean=(0.485, 0.456, 0.406)):
        m = torch.as_tensor(mean, device=x.device).view(1, -1, 1, 1)
        return x - m
    """
    assert findings(code) == [("DTL001", 10, 15), ("DTL001", 14, 9)]
    assert "torch.as_tensor(mean, device=x.device, dtype=x.dtype)" in fixed(code)


def test_linspace_grid_for_grid_sample() -> None:
    code = """
    import torch
    import torch.nn.functional as F

    def resample(feat: torch.Tensor):
        B, C, H, W = feat.shape
        ys = torch.linspace(-1, 1, H, device=feat.device)
        xs = torch.linspace(-1, 1, W, device=feat.device)
        grid = torch.stack(torch.meshgrid(xs, ys, indexing="xy"), -1).expand(B, H, W, 2)
        return F.grid_sample(feat, grid, align_corners=True)
    """
    assert findings(code) == [("DTL001", 6, 10), ("DTL001", 7, 10)]


def test_factory_default_for_an_optional_parameter() -> None:
    code = """
    from typing import Optional

    import torch

    def add_bias(scores: torch.Tensor, bias: Optional[torch.Tensor] = None):
        if bias is None:
            bias = torch.zeros(scores.shape[-1], device=scores.device)
        return scores + bias
    """
    assert findings(code) == [("DTL001", 7, 16)]
    assert "torch.zeros(scores.shape[-1], device=scores.device, dtype=scores.dtype)" in fixed(code)


def test_an_arange_turned_float_by_a_math_float_meets_timesteps() -> None:
    code = """
    import math
    import torch
    from torch import nn

    class SinusoidalPosEmb(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.dim = dim

        def forward(self, x):
            half_dim = self.dim // 2
            emb = math.log(10000) / (half_dim - 1)
            emb = torch.exp(torch.arange(half_dim, device=x.device) * -emb)
            return x[:, None] * emb[None, :]
    """
    assert findings(code) == [("DTL001", 13, 25)]
    assert fixed(code) == dedent(code)  # int64 made float: never a safe fix


def test_jaxtyping_annotations_are_tensors_and_integer_ones_indices() -> None:
    """nerfstudio's `Float[Tensor, "*bs num_samples 1"]` parameters are activations (its
    volume-rendering weights); `Int[Tensor, ...]` camera indices are not."""
    code = """
    import torch
    from torch import Tensor, nn
    from jaxtyping import Float, Int

    def render_weights(densities: Float[Tensor, "*bs n 1"], deltas: Float[Tensor, "*bs n 1"]):
        delta_density = deltas * densities
        transmittance = torch.cumsum(delta_density[..., :-1, :], dim=-2)
        zeros = torch.zeros((*transmittance.shape[:1], 1, 1), device=densities.device)
        transmittance = torch.cat([zeros, transmittance], dim=-2)
        return torch.exp(-transmittance)

    class CameraOptimizer(nn.Module):
        def forward(self, indices: Int[Tensor, "cams"]) -> Float[Tensor, "cams 3 4"]:
            return torch.eye(4, device=indices.device)[None, :3, :4].tile(indices.shape[0], 1, 1)
    """
    assert findings(code) == [("DTL001", 8, 13)]
    assert (
        "zeros = torch.zeros((*transmittance.shape[:1], 1, 1), device=densities.device, dtype=transmittance.dtype)"
        in fixed(code)
    )


def test_a_factory_on_one_branch_meets_what_the_joined_name_meets() -> None:
    """nerfacto's appearance embedding: an embedding on one path, zeros on the other, then
    `cat` with the activations and a bf16 head: the zeros path promotes (and the head raises)."""
    code = """
    import torch
    from torch import Tensor, nn

    class Field(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(4, 8)
            self.head = nn.Linear(11, 3)

        def forward(self, directions: Tensor, camera: Tensor, flag: bool) -> Tensor:
            if flag:
                app = self.emb(camera)
            else:
                app = torch.zeros((*directions.shape[:-1], 8), device=directions.device)
            return self.head(torch.cat([directions, app], dim=-1))
    """
    assert findings(code) == [("DTL001", 14, 19)]
    assert fixed(code).count("dtype=directions.dtype") == 1


def test_a_submodule_called_inside_autocast_gets_its_inputs_cast() -> None:
    code = """
    import torch
    from torch import nn

    class Sampler(nn.Module):
        def __init__(self):
            super().__init__()
            self.unet = nn.Conv2d(4, 4, 3)

        def forward(self, text_embeddings: torch.Tensor) -> torch.Tensor:
            latents = torch.randn((text_embeddings.shape[0], 4, 8, 8), device=text_embeddings.device)
            with torch.autocast("cuda"):
                return self.unet(latents) * text_embeddings.mean()
    """
    assert findings(code, select="DTL001") == []


def test_an_empty_placeholder_on_the_zero_sample_branch_is_not_reported() -> None:
    """nerfacc's renderer: no samples, no values; the placeholder promotes nothing."""
    code = """
    import torch
    def render(t_starts: torch.Tensor, rgb_sigma_fn):
        if t_starts.shape[0] != 0:
            rgbs, sigmas = rgb_sigma_fn(t_starts)
        else:
            rgbs = torch.empty((0, 3), device=t_starts.device)
            sigmas = torch.empty((0,), device=t_starts.device)
        return rgbs * sigmas[:, None] + t_starts[:, None]
    """
    assert findings(code) == []


def test_fixed_precision_regions_and_what_only_they_call_are_float32_by_design() -> None:
    """Depth Anything 3 runs its camera heads under `autocast(enabled=False)`: a factory there,
    or in a method called only from there, meets float32 values on purpose."""
    code = """
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.backbone = nn.Linear(4, 4)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            feats = self.backbone(x)
            with torch.autocast(device_type=x.device.type, enabled=False):
                focal = self._pose(feats)
                scale = feats + torch.ones(4, device=x.device)
            return feats + torch.zeros(4, device=x.device) + focal + scale

        def _pose(self, feats: torch.Tensor) -> torch.Tensor:
            return torch.eye(4, device=feats.device) * feats[..., None]
    """
    assert findings(code) == [("DTL001", 14, 24)]


def test_an_additive_attention_mask_passed_as_mask_meets_the_scores() -> None:
    """mmpose's Swin: the shifted-window mask is float32 zeros filled with -100.0 and passed as
    `mask=`; the window attention adds it to bf16 scores (and `attn @ v` then raises). A 0/1
    mask passed the same way is no data to meet."""
    code = """
    import torch
    from torch import nn

    class ShiftWindowMSA(nn.Module):
        def __init__(self):
            super().__init__()
            self.w_msa = nn.TransformerEncoderLayer(8, 2)

        def forward(self, query, hw_shape):
            H, W = hw_shape
            img_mask = torch.zeros((1, H, W, 1), device=query.device)
            attn_mask = img_mask.unsqueeze(1) - img_mask.unsqueeze(2)
            attn_mask = attn_mask.masked_fill(attn_mask != 0, float(-100.0))
            keep = torch.ones((1, H * W), device=query.device)
            return self.w_msa(query, src_mask=attn_mask, src_key_padding_mask=keep)
    """
    assert findings(code) == [("DTL001", 11, 20)]
    assert fixed(code) == dedent(code).replace(
        "torch.zeros((1, H, W, 1), device=query.device)",
        "torch.zeros((1, H, W, 1), device=query.device, dtype=query.dtype)",
    )


def test_the_activation_named_does_not_depend_on_string_hashing(tmp_path) -> None:
    """The meeting reported first is the helper's first (source order), the same in every run
    whatever PYTHONHASHSEED is (its parameter pairs were a set)."""
    import os
    import subprocess
    import sys

    code = """
    import torch

    def correlate(a, b, window):
        return a * window + b * window

    def match(x: torch.Tensor, y: torch.Tensor):
        window = torch.linspace(-1, 1, 5, device=x.device)
        return correlate(x, y, window)
    """
    assert messages(code) == [
        "torch.linspace(...) defaults to float32 but meets 'x'; add dtype=x.dtype"
    ]
    (tmp_path / "m.py").write_text(dedent(code))
    outputs = set()
    for seed in ("0", "1", "2", "3", "4"):
        run = subprocess.run(
            [sys.executable, "-m", "dtypelint", "check", "--isolated", "--no-cache", "m.py"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        outputs.add(run.stdout)
    assert len(outputs) == 1


def test_a_tensor_made_in_a_parameters_dtype_inside_a_helper_is_not_its_own_activation() -> None:
    """torch_geometric's `scatter(src, index)` builds `torch.full(..., dtype=src.dtype)` and
    combines it with `src`: that is src meeting itself, so a float32 statistic over integer
    labels passed to it (`homophily`) meets no activation; one passed with an activation does."""
    code = """
        import torch

        def scatter(src: torch.Tensor, index: torch.Tensor, size: int) -> torch.Tensor:
            fill = torch.full((1,), 0.0, dtype=src.dtype, device=src.device).expand_as(src)
            out = src.new_zeros(size).scatter_reduce_(0, index, fill, reduce="amax")
            return out.scatter_reduce_(0, index, src, reduce="amax")

        def shift(src: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
            return src + torch.ones(1, dtype=offset.dtype, device=offset.device) * offset

        def homophily(edge_index: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
            row, col = edge_index
            out = torch.zeros(row.size(0), device=row.device)
            out[y[row] == y[col]] = 1.0
            return scatter(out, col, y.size(0))

        def shifted(x: torch.Tensor) -> torch.Tensor:
            return shift(torch.zeros(x.shape[0], device=x.device), x)
    """
    assert findings(code) == [("DTL001", 18, 18)]


def test_weights_taken_from_a_local_layer_in_every_branch_are_parameters_and_dtype_sources() -> (
    None
):
    """BasicSR's `SeqConv3x3`: `self.b0 = conv0.bias` in each branch of an if/elif chain whose
    else raises is a module parameter, defined on every path, so `torch.ones(...) * self.b0`
    meets it and takes its dtype (the fixed re-parameterisation runs in bf16)."""
    code = """
        import torch
        import torch.nn.functional as F
        from torch import nn

        class SeqConv(nn.Module):
            def __init__(self, kind: str, planes: int):
                super().__init__()
                if kind == "conv":
                    conv0 = nn.Conv2d(3, planes, kernel_size=1)
                    self.k0, self.b0 = conv0.weight, conv0.bias
                elif kind == "sobel":
                    conv0 = nn.Conv2d(3, planes, kernel_size=1)
                    self.b0 = conv0.bias
                else:
                    raise ValueError(kind)
                self.planes = planes

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return x * self.b0.view(1, -1, 1, 1)

            def rep_bias(self) -> torch.Tensor:
                return torch.ones(1, self.planes, 3, 3) * self.b0.view(1, -1, 1, 1)
    """
    assert findings(code) == [("DTL001", 22, 16)]
    assert "torch.ones(1, self.planes, 3, 3, dtype=self.b0.dtype) * self.b0" in fixed(code)


def test_post_processing_that_hands_results_to_numpy_is_out_of_scope() -> None:
    """GroundingDINO's `annotate`: `(boxes * torch.Tensor([w, h, w, h])).numpy()` works on bf16
    boxes only because the float32 constant promotes them; `dtype=boxes.dtype` made `.numpy()`
    raise. A public function that hands tensors to NumPy is post-processing: not reported."""
    code = """
        import torch

        def annotate(boxes: torch.Tensor, w: int, h: int):
            boxes = boxes * torch.Tensor([w, h, w, h])
            return boxes.numpy()

        def scale(boxes: torch.Tensor, w: int, h: int) -> torch.Tensor:
            return boxes * torch.Tensor([w, h, w, h])
    """
    assert findings(code) == [("DTL001", 8, 20)]


def test_option_objects_loop_indices_and_empty_placeholders_are_no_activations() -> None:
    """yolov5: `train(hyp, opt, device, callbacks)` takes option objects (`opt.data` is a path),
    not tensors; `for i, batch in pbar` over `pbar = enumerate(loader)` counts batches; NMS
    returns `[torch.zeros((0, 6))] * bs` for images without detections, a placeholder with no
    elements. None of them meets an activation."""
    code = """
        import torch

        def nms(prediction: torch.Tensor):
            output = [torch.zeros((0, 6), device=prediction.device)] * prediction.shape[0]
            return output

        def detect(x: torch.Tensor):
            return x[0] + nms(x)[0]

        def train(opt, device):
            return torch.ones(3, device=device) * opt.data

        def running_mean(x: torch.Tensor):
            mean = torch.zeros(x.shape[-1], device=x.device)
            batches = enumerate(x)
            for i, _ in batches:
                mean = mean * i / (i + 1)
            return mean
    """
    assert findings(code) == []


def test_losses_and_label_assigners_report_only_what_raises() -> None:
    """Losses and the label assigners that build their targets (mmyolo's `BatchYOLOv7Assigner`
    scaling ground truth by `torch.ones(7)`) accumulate and compare in float32 by design: an
    elementwise promotion there is no hazard; a matrix product with mixed dtypes still raises."""
    code = """
        import torch
        from torch import nn

        class FocalLoss(nn.Module):
            def forward(self, pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
                weight = torch.ones(pred.shape[-1], device=pred.device)
                return ((pred - target) ** 2 * weight).mean()

        class BatchAssigner(nn.Module):
            def forward(self, pred: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
                scale = torch.ones(7, device=pred.device)
                targets = gt * scale
                return pred @ torch.eye(pred.shape[-1], device=pred.device) + targets
    """
    assert findings(code) == [("DTL001", 13, 23)]


def test_tensors_made_in_float32_on_purpose_and_token_prompts_are_no_activations() -> None:
    """vit-pytorch's levjepa_nd: `grid / torch.tensor(sizes, dtype=torch.float)` is float32 on
    purpose, so the `torch.zeros` row concatenated to it meets no activation (while one added to
    the features does); x-transformers' beam search: `prompts` are token ids (int64), never the
    dtype of a score buffer."""
    code = """
        import torch

        def coordinates(x: torch.Tensor, sizes: list[int]) -> torch.Tensor:
            grid = torch.cartesian_prod(*[torch.arange(n, device=x.device) for n in sizes])
            coords = grid / torch.tensor(sizes, dtype=torch.float, device=x.device)
            coords = torch.cat((torch.zeros(1, len(sizes), device=x.device), coords), dim=0)
            return x + torch.zeros(x.shape[-1], device=x.device), coords

        def beam_search(prompts: torch.Tensor, beams: int) -> torch.Tensor:
            scores = torch.zeros(prompts.shape[0], beams, device=prompts.device)
            return scores + prompts.sum(-1, keepdim=True)
    """
    assert findings(code) == [("DTL001", 7, 16)]


def test_a_factory_mixed_with_a_float32_value_on_purpose_decides_nothing() -> None:
    """vit-pytorch's levjepa: `cat((torch.zeros(b, 1, 3), coords))` with `coords` computed in
    float32 on purpose is float32 whatever the zeros' dtype: no finding, even where it is
    returned from forward; the same zeros beside the features is one."""
    code = """
        import torch
        from torch import nn

        class Coords(nn.Module):
            def forward(self, x: torch.Tensor):
                grid = torch.arange(x.shape[1], device=x.device)[:, None]
                coords = grid / torch.tensor([x.shape[1]], dtype=torch.float, device=x.device)
                coords = torch.cat((torch.zeros(1, 1, device=x.device), coords), dim=0)
                cls = torch.cat((torch.zeros(x.shape[0], 1, device=x.device), x), dim=1)
                return cls, coords
    """
    assert findings(code) == [("DTL001", 9, 26)]


def test_a_zero_dim_parameter_is_a_number_and_an_in_place_add_keeps_the_dtype() -> None:
    """StyleGAN's `noise_strength = nn.Parameter(torch.zeros([]))` is a number to type
    promotion, and `x.add_(noise)` writes into the bf16 activation: nothing is promoted."""
    code = """
        import torch
        from torch import nn

        class SynthesisLayer(nn.Module):
            def __init__(self, resolution: int) -> None:
                super().__init__()
                self.resolution = resolution
                self.noise_strength = nn.Parameter(torch.zeros([]))

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                size = [x.shape[0], 1, self.resolution, self.resolution]
                noise = torch.randn(size, device=x.device) * self.noise_strength
                return x.add_(noise)
    """
    assert findings(code) == []
    assert findings(code.replace("x.add_(noise)", "x + noise")) == [("DTL001", 12, 17)]


def test_a_function_giving_back_only_indices_computes_in_its_own_precision() -> None:
    """Farthest point sampling (openpoints' baafnet, curvenet, pointmlp) keeps its distances in
    a float32 buffer and returns int64 indices: the promotion there reaches no activation, and
    a bf16 buffer would only pick worse points."""
    code = """
        import torch

        def farthest_point_sample(xyz: torch.Tensor, npoint: int) -> torch.Tensor:
            B, N, C = xyz.shape
            centroids = torch.zeros(B, npoint, dtype=torch.long, device=xyz.device)
            distance = torch.ones(B, N).to(xyz.device) * 1e10
            farthest = torch.zeros(B, dtype=torch.long, device=xyz.device)
            batch = torch.arange(B, dtype=torch.long, device=xyz.device)
            for i in range(npoint):
                centroids[:, i] = farthest
                dist = torch.sum((xyz - xyz[batch, farthest, :].view(B, 1, 3)) ** 2, -1)
                distance = torch.min(distance, dist)
                farthest = torch.max(distance, -1)[1]
            return centroids
    """
    assert findings(code) == []
    distances = code.replace("return centroids", "return centroids, distance")
    assert findings(distances) == [("DTL001", 6, 16)]


def test_offsets_rounded_right_away_are_index_math() -> None:
    """openpoints' simpleview splats points to pixels: `(x + offsets).ceil() * width + ...`
    is a flat pixel index. Float32 keeps it exact; `dtype=x.dtype` made it bf16, where 16355
    rounds to 16384. Offsets kept as floats are still reported."""
    code = """
        import torch

        def pixels(depth: torch.Tensor, x: torch.Tensor, y: torch.Tensor, size: int, width: int):
            offsets = torch.linspace(-size / 2, size / 2 - 1, size, device=depth.device)
            ex = (x.unsqueeze(2) + offsets).ceil()
            ey = (y.unsqueeze(2) + offsets).floor()
            return ex * width + ey
    """
    assert findings(code) == []
    kept = code.replace("(x.unsqueeze(2) + offsets).ceil()", "x.unsqueeze(2) + offsets")
    assert findings(kept) == [("DTL001", 4, 15)]


def test_offsets_rounded_in_place_later_are_index_math() -> None:
    """simpleview's own spelling: the sum is reshaped, then rounded in place (`ceil_()`)."""
    code = """
        import torch

        def pixels(depth: torch.Tensor, x: torch.Tensor, size: int, width: int):
            offsets = torch.linspace(-size / 2, size / 2 - 1, size, device=depth.device)
            ex = x.unsqueeze(2).repeat([1, 1, size]) + offsets
            ex = ex.unsqueeze(3).repeat([1, 1, 1, size])
            ex.ceil_()
            return ex * width
    """
    assert findings(code) == []
    assert findings(code.replace("ex.ceil_()", "ex.sigmoid_()")) == [("DTL001", 4, 15)]


def test_a_factory_moved_to_a_tensor_takes_its_dtype() -> None:
    """PyTorch3D's `torch.linspace(...).to(cam_centers)`: `.to(tensor)` casts to that tensor's
    dtype right after creation (a true negative); `.to(dev)` only moves it."""
    code = """
        import math
        import torch

        def fit(points: torch.Tensor, angles: torch.Tensor) -> torch.Tensor:
            return points * angles[:, None]

        def trajectory(cameras, points: torch.Tensor, n: int, dev: torch.device) -> torch.Tensor:
            cam_centers = cameras.get_camera_center()
            angle = torch.linspace(0, 2.0 * math.pi, n).to(cam_centers)
            return fit(points, angle)
    """
    assert findings(code) == []
    moved = code.replace(".to(cam_centers)", ".to(dev)")
    assert findings(moved) == [("DTL001", 9, 13)]


ROUND_19_LOOKALIKES = {
    # boltz: Lightning's `self.log(name, value)` logs a number, it is no submodule call
    "a value handed to Lightning's self.log": """
        import torch
        from pytorch_lightning import LightningModule
        class Model(LightningModule):
            def training_log(self):
                self.log("train/grad_norm", self.gradient_norm(self), prog_bar=False)

            def gradient_norm(self, module) -> float:
                parameters = filter(lambda p: p.grad is not None, module.parameters())
                return torch.tensor([p.grad.norm(p=2) ** 2 for p in parameters]).sum().sqrt()
    """,
    # ptlflow's PositionEmbeddingSine: the result has the dtype cumsum is given
    "a mask summed with cumsum(dtype=x.dtype)": """
        import torch
        from torch import nn
        class PositionEmbeddingSine(nn.Module):
            def forward(self, x):
                b, c, h, w = x.size()
                mask = torch.ones((b, h, w), device=x.device)
                y_embed = mask.cumsum(1, dtype=x.dtype)
                return x + y_embed[:, None]
    """,
    # super-gradients' DDRNet: a method taking nothing but self runs a dummy input at __init__
    "an init-time probe of a module's output channels": """
        import torch
        from torch import nn
        class Backbone(nn.Module):
            def __init__(self):
                super().__init__()
                self.stem = nn.Conv2d(3, 8, 3)
            def get_backbone_output_number_of_channels(self):
                x = torch.randn(1, 3, 32, 32)
                return self.stem(x).shape[1]
        class DDRNet(nn.Module):
            def __init__(self, backbone: Backbone):
                super().__init__()
                self.head = nn.Conv2d(backbone.get_backbone_output_number_of_channels(), 2, 1)
    """,
    # stylegan2-pytorch's `expand_greyscale`: a data transform called like a function
    "a transform class built from options and called on images": """
        import torch
        class expand_greyscale(object):
            def __init__(self, transparent: bool):
                self.transparent = transparent
            def __call__(self, tensor: torch.Tensor):
                alpha = torch.ones(1, *tensor.shape[1:], device=tensor.device)
                return torch.cat((tensor.expand(3, -1, -1), alpha))
    """,
    # super-gradients' sliding-window inference: logits summed into a float32 buffer on purpose
    "logits accumulated into a float32 buffer": """
        import torch
        def forward_with_sliding_window(forward, img: torch.Tensor, crop: int):
            b, _, h, w = img.size()
            preds = torch.zeros((b, 3, h, w), device=img.device)
            count = torch.zeros((b, 1, h, w), device=img.device)
            for y in range(0, h, crop):
                preds[:, :, y:y + crop] += forward(img[:, :, y:y + crop])
                count[:, :, y:y + crop] += 1
            return preds / count
    """,
    # super-gradients' compute_detection_metrics: evaluation, float32 by design
    "an evaluation metric": """
        import torch
        def compute_detection_metrics(preds_matched: torch.Tensor, preds_scores: torch.Tensor):
            ap = torch.zeros(preds_matched.shape[-1], device=preds_scores.device)
            return ap + preds_scores.mean()
    """,
}


@pytest.mark.parametrize("code", ROUND_19_LOOKALIKES.values(), ids=ROUND_19_LOOKALIKES.keys())
def test_round_19_lookalikes_are_clean(code: str) -> None:
    assert findings(code) == []


def test_round_19_lookalikes_keep_their_hazards() -> None:
    """The same shapes with the hazard in: each change below is what makes it one."""
    probe = ROUND_19_LOOKALIKES["an init-time probe of a module's output channels"]
    called = probe.replace(
        "def get_backbone_output_number_of_channels(self):", "def channels(self, n: int):"
    )
    assert findings(called) == [("DTL001", 8, 13)]
    summed = ROUND_19_LOOKALIKES["logits accumulated into a float32 buffer"]
    assert findings(summed.replace("return preds / count", "return preds + img")) == [
        ("DTL001", 4, 13)
    ]
    metric = ROUND_19_LOOKALIKES["an evaluation metric"]
    geometric = metric.replace("compute_detection_metrics", "compute_geometric_features")
    # A 0-dim mean is a number to type promotion: `zeros(n) + x.mean()` keeps the factory's
    # dtype and promotes no activation (the factory meets the run's dtype only unreduced).
    assert findings(geometric) == []
    unreduced = geometric.replace("preds_scores.mean()", "preds_scores")
    assert findings(unreduced) == [("DTL001", 3, 10)]  # a word, not a substring: not a metric
    masked = ROUND_19_LOOKALIKES["a mask summed with cumsum(dtype=x.dtype)"]
    assert findings(masked.replace("cumsum(1, dtype=x.dtype)", "cumsum(1)")) == [("DTL001", 6, 16)]


def test_a_tensor_of_float_attributes_is_a_float32_factory() -> None:
    """Blind set v4's voxel encoder: `self.vx, self.vy, self.vz = (float(v) for v in size)` are
    Python floats, so `torch.tensor([self.vx, ...])` is float32 and promotes the offsets. An
    attribute of unknown kind (an int would make an int64 tensor) decides nothing."""
    code = """
        import torch
        from torch import nn

        class VoxelCenter(nn.Module):
            def __init__(self, voxel_size=(0.2, 0.2, 0.4), scale: float = 2.0):
                super().__init__()
                self.vx, self.vy, self.vz = (float(v) for v in voxel_size)
                self.scale = 0.5
                self.head = nn.Linear(8, 3)

            def forward(self, feats):
                offsets = self.head(feats)
                size = torch.tensor([self.vx, self.vy, self.vz], device=feats.device)
                scale = torch.tensor([self.scale, self.scale], device=feats.device)
                return offsets * size, offsets[:, :2] * scale
    """
    assert findings(code) == [("DTL001", 13, 16), ("DTL001", 14, 17)]
    # Unpacked from the parameter, its default tells the kind (PointPillars, blind set v6)...
    unpacked = code.replace("(float(v) for v in voxel_size)", "voxel_size")
    assert findings(unpacked) == [("DTL001", 13, 16), ("DTL001", 14, 17)]
    # ... and without a default nothing does.
    unknown = unpacked.replace("voxel_size=(0.2, 0.2, 0.4)", "voxel_size")
    assert unknown != unpacked
    assert findings(unknown) == [("DTL001", 14, 17)]


def test_numbers_init_computes_from_number_defaults_are_python_numbers() -> None:
    """PointPillars' pillar centres (blind set v6): `self.x_offset = self.vx / 2 +
    point_cloud_range[0]` is a Python float, so `torch.tensor([self.x_offset, ...])` is a
    float32 factory that promotes the bf16 point features it is subtracted from. An operand
    that may be a tensor (a parameter without a default) decides nothing."""
    code = """
        import torch
        from torch import nn

        class PillarCenters(nn.Module):
            def __init__(self, voxel_size=(0.2, 0.2, 4.0), point_cloud_range=(0.0, -40.0, -3.0)):
                super().__init__()
                self.vx, self.vy, self.vz = voxel_size
                self.x_offset = self.vx / 2 + point_cloud_range[0]
                self.y_offset = self.vy / 2 + point_cloud_range[1]
                self.linear = nn.Linear(3, 8)

            def forward(self, features: torch.Tensor, coors: torch.Tensor) -> torch.Tensor:
                offset = torch.tensor([self.x_offset, self.y_offset], device=features.device)
                centers = coors[:, [2, 1]] * offset
                return self.linear(features[:, :2] - centers)
    """
    assert findings(code) == [("DTL001", 13, 18)]
    assert (
        "offset = torch.tensor([self.x_offset, self.y_offset], device=features.device, dtype=features.dtype)"
        in fixed(code)
    )
    unknown = code.replace("point_cloud_range=(0.0, -40.0, -3.0)", "point_cloud_range=None")
    assert unknown != code
    assert findings(unknown) == []


def test_a_factory_returned_as_one_item_of_a_helper_tuple_is_reported_where_it_is_made() -> None:
    """`return q, k, v, bias` with `bias = torch.zeros(...)` made in the helper and added to the
    caller's scores (blind set v4's masked_self_attention). The dtype comes from the helper's
    own tensor (the caller's `q` is another name there); an item the caller casts, or uses only
    as a mask, is not a finding."""
    code = """
    import torch
    from torch import nn

    def split_heads(qkv, key_padding_mask):
        B, N, _ = qkv.shape
        q, k = qkv.unbind(-1)
        bias = torch.zeros(B, N, device=qkv.device)
        bias = bias.masked_fill(key_padding_mask, float("-inf"))
        keep = torch.ones(B, N, device=qkv.device)
        return q, k, bias, keep

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(8, 16)

        def forward(self, x, key_padding_mask):
            q, k, bias, keep = split_heads(self.qkv(x), key_padding_mask)
            scores = q * k + bias
            return scores[keep.bool()]

        def cast(self, x, key_padding_mask):
            q, k, bias, keep = split_heads(self.qkv(x), key_padding_mask)
            return q * k + bias.to(q.dtype)
    """
    assert findings(code) == [("DTL001", 7, 12)]
    assert messages(code) == [
        "torch.zeros(...) defaults to float32, is returned and meets 'q' in Attention.forward();"
        " add dtype=qkv.dtype (the tensor its device comes from)"
    ]
    assert fixed(code) == dedent(code).replace(
        "bias = torch.zeros(B, N, device=qkv.device)",
        "bias = torch.zeros(B, N, device=qkv.device, dtype=qkv.dtype)",
    )


def test_complex_values_and_their_magnitudes_are_no_activations() -> None:
    """deepinv's Zernike PSF generator (review round 22): `exp(-2.0j * pi * phase)` is complex,
    the magnitude of its FFT float32 by design. The pixel grid `arange` times that magnitude is
    no promotion, and `dtype=pupil.dtype` (a complex tensor, named only for its `.shape`) made
    `arange` raise even in float32."""
    code = """
    import torch

    def recenter(phase: torch.Tensor, basis: torch.Tensor) -> torch.Tensor:
        pupil = torch.exp(-2.0j * torch.pi * phase)
        psf = torch.fft.fft2(pupil).abs().pow(2)
        x = torch.arange(0, psf.shape[-1], device=phase.device)
        shift = (x * psf).sum(dim=(-2, -1)) / psf.sum(dim=(-2, -1))
        tilt = basis[..., 1] - basis[..., 0]
        coeff = shift / (pupil.shape[-1] * tilt)
        return pupil * torch.exp(-2.0j * torch.pi * coeff)
    """
    assert findings(code) == []
    torch = pytest.importorskip("torch")
    recenter = executed(code, "psf.py")["recenter"]
    phase, basis = torch.rand(4, 4), torch.rand(4, 4, 2)
    assert recenter(phase, basis).dtype == torch.complex64  # type: ignore[operator]


def test_a_name_read_for_its_shape_is_no_dtype_source() -> None:
    code = """
    import torch

    def scale(grid: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
        ones = torch.ones(3, device=weights.device)
        return ones / (grid.shape[-1] * weights)
    """
    assert messages(code) == [
        "torch.ones(...) defaults to float32 but meets 'weights'; add dtype=weights.dtype"
    ]


def test_a_helper_solving_in_float32_returns_float32_by_design() -> None:
    """deepinv's noise level estimator (review round 22): the method takes eigenvalues
    (`torch.linalg.eigvalsh` has no bfloat16 kernel), so what it returns is float32 by design;
    its zeros, returned from forward, are no finding there. The same helper without the solver
    still is one."""
    code = """
    import torch
    from torch import nn

    class NoiseLevel(nn.Module):
        def estimate(self, x: torch.Tensor) -> torch.Tensor:
            cov = torch.bmm(x, x.transpose(-2, -1))
            values = torch.linalg.eigvalsh(cov)
            level = torch.zeros(x.shape[0], device=x.device)
            level[values[:, 0] > 0] = values[:, -1].sqrt()
            return level

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.estimate(x)
    """
    assert findings(code) == []
    without = code.replace("torch.linalg.eigvalsh(cov)", "cov.sum(-1)")
    assert findings(without) == [("DTL001", 8, 17)]


def test_an_additive_mask_in_a_dict_of_layer_options_meets_the_scores() -> None:
    """spandrel's ATD (review round 22's missed-real): Swin's float32 shift mask travels in
    `params = {"attn_mask": mask}` through `forward_features` to the blocks, which add it to their
    bf16 scores: `attn @ v` then raises. A module given as a parameter (`probe(model, x)`) is no
    submodule: what passes through it is not followed."""
    code = """
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self, d: int = 8):
            super().__init__()
            self.qkv = nn.Linear(d, d * 3)

        def forward(self, x: torch.Tensor, params: dict) -> torch.Tensor:
            q, k, v = self.qkv(x).chunk(3, dim=-1)
            attn = q @ k.transpose(-2, -1) + params["attn_mask"]
            return attn.softmax(-1) @ v

    class Net(nn.Module):
        def __init__(self, d: int = 8):
            super().__init__()
            self.layers = nn.ModuleList([Block(d), Block(d)])

        def calculate_mask(self, n: int) -> torch.Tensor:
            img_mask = torch.zeros((1, n, n))
            img_mask[:, : n // 2] = 1
            attn_mask = img_mask - img_mask.transpose(-2, -1)
            return attn_mask.masked_fill(attn_mask != 0, -100.0)

        def forward_features(self, x: torch.Tensor, params: dict) -> torch.Tensor:
            for layer in self.layers:
                x = layer(x, params)
            return x

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            attn_mask = self.calculate_mask(x.shape[1]).to(x.device)
            params = {"attn_mask": attn_mask}
            return self.forward_features(x, params)

    def probe(model: nn.Module, images):
        return model(images)

    def export(model: nn.Module):
        return probe(model, torch.rand(1, 4, 8))
    """
    assert findings(code) == [("DTL001", 31, 21)]
    after = fixed(code)
    assert "attn_mask = self.calculate_mask(x.shape[1]).to(x.dtype).to(x.device)\n" in after
    torch = pytest.importorskip("torch")
    net = executed(code, "before.py")["Net"]().to(torch.bfloat16)  # type: ignore[operator]
    with pytest.raises(RuntimeError):
        net(torch.randn(2, 4, 8, dtype=torch.bfloat16))
    fixed_net = executed(after, "after.py")["Net"]
    for dtype in (torch.float32, torch.bfloat16):
        net = fixed_net().to(dtype)  # type: ignore[operator]
        assert net(torch.randn(2, 4, 8, dtype=dtype)).dtype == dtype


def test_a_helper_given_only_maybe_none_values_may_give_none_back() -> None:
    """imagen's elucidated sampler (review round 23, a broken safe fix): `inpaint_images =
    default(inpaint_videos, inpaint_images)`, both None by default, then made a tensor only when
    inpainting; `dtype=inpaint_images.dtype` raised on every plain sampling call."""
    code = """
    import torch
    from torch import nn
    from helpers import default

    class Sampler(nn.Module):
        def sample(self, unet, shape, inpaint_videos=None, inpaint_images=None, masks=None):
            inpaint_images = default(inpaint_videos, inpaint_images)
            if masks is not None:
                inpaint_images = unet.normalize(inpaint_images)
            eps = torch.randn(shape, device=self.device)
            images = unet(eps)
            if masks is not None:
                images = images * ~masks + (inpaint_images + eps) * masks
            return images
    """
    assert findings(code) == [("DTL001", 10, 15)]
    assert fix_titles(code) == [None]


def test_an_int_factory_copied_into_indices_gets_no_float_dtype() -> None:
    """fair-esm's inverse-folding featurizer (review round 23, a broken unsafe fix): `seqpos`
    meets distances in arithmetic, and a copy of it is returned as neighbour indices (`E_idx`):
    `dtype=D.dtype` made `gather` raise. Reported, cast where it meets them; no fix."""
    code = """
    import torch

    def dist(X: torch.Tensor, top_k: int):
        D = torch.cdist(X, X)
        seqpos = torch.arange(X.shape[1], device=X.device)
        D_adjust = D + (seqpos[None] - seqpos[:, None]).abs() * 1e6
        if top_k == -1:
            E_idx = seqpos.repeat(X.shape[0], 1)
            return D_adjust, E_idx
        return torch.topk(D_adjust, top_k, dim=-1)
    """
    assert findings(code) == [("DTL001", 5, 14)]
    assert fix_titles(code) == [None]
    assert messages(code)[0].endswith("; cast it to D.dtype where it meets it (it is an index too)")


def test_a_dummy_tensor_is_a_probe_or_a_placeholder() -> None:
    """speechbrain (review round 23): `dummy_input = torch.zeros(shape)` run through a block to
    infer its output shape while building, and `dummy_att_weights` returned for API
    compatibility: by their authors' word no data. The same factory named otherwise is reported."""
    code = """
    import torch
    from torch import nn

    class Mixer(nn.Module):
        def __init__(self, d: int = 4):
            super().__init__()
            self.proj = nn.Linear(d, d)

        def forward(self, x: torch.Tensor):
            out = self.proj(x)
            dummy_att_weights = torch.zeros(x.shape[0], x.shape[1], x.shape[1], device=x.device)
            return out, dummy_att_weights
    """
    assert findings(code) == []
    named = code.replace("dummy_att_weights", "att_weights")
    assert findings(named) == [("DTL001", 11, 23)]


GP_POSITIONS = """
import torch
from torch import nn


class GP(nn.Module):
    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.pos_conv = nn.Conv2d(2, dim, 1)

    def project_to_basis(self, x):
        return torch.cos(self.pos_conv(x))

    def forward(self, y: torch.Tensor) -> torch.Tensor:
        b, c, h, w = y.shape
        grid = torch.linspace(-1, 1, w, device=y.device)
        coords = torch.stack(torch.meshgrid(grid, grid, indexing="ij"))[None].expand(b, 2, w, w)
        return self.project_to_basis(coords)
"""


def test_a_factory_given_only_to_a_layer_gets_an_unsafe_device_source() -> None:
    """RoMa's GP (review round 25's broken safe fix): the grid meets only `self.pos_conv`'s
    weights, through a helper. `dtype=y.dtype` is right in a bf16 model, but RoMa runs the GP
    outside autocast with bf16 features and float32 weights, where the bf16 grid makes the
    layer raise. The device tensor is a guess there: the fix is unsafe."""
    assert findings(GP_POSITIONS) == [("DTL001", 15, 16)]
    assert messages(GP_POSITIONS)[0].endswith(
        "add dtype=y.dtype (the tensor its device comes from; check it)"
    )
    assert fixed(GP_POSITIONS) == dedent(GP_POSITIONS)
    after = fixed(GP_POSITIONS, unsafe=True)
    assert "torch.linspace(-1, 1, w, device=y.device, dtype=y.dtype)" in after
    torch = pytest.importorskip("torch")
    features = torch.randn(1, 3, 4, 4)
    torch.manual_seed(0)
    original = executed(GP_POSITIONS)["GP"]()  # type: ignore[operator]
    torch.manual_seed(0)
    patched = executed(after)["GP"]()  # type: ignore[operator]
    assert torch.equal(original(features), patched(features))
    assert original(features.bfloat16()).dtype == torch.float32  # float32 weights: it runs
    with pytest.raises(RuntimeError):
        patched(features.bfloat16())  # why the fix is unsafe
    assert patched.to(torch.bfloat16)(features.bfloat16()).dtype == torch.bfloat16


GAIN_BANDS = """
import torch
from torch import nn


class Augment(nn.Module):
    def __init__(self, bands: int = 4) -> None:
        super().__init__()
        self.register_buffer("Hz_fbank", torch.randn(bands, 8))
        self.bands = bands

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        batch_size = images.shape[0]
        device = images.device
        g = torch.ones([batch_size, self.bands], device=device)
        for i in range(self.bands):
            t_i = torch.exp(torch.randn([batch_size], device=device))
            t = torch.ones([batch_size, self.bands], device=device)
            t[:, i] = t_i
            g = g * t
        return images + (g @ self.Hz_fbank)[:, None]
"""


def test_a_factory_written_into_another_is_no_companion() -> None:
    """StyleGAN2-ADA's image-filter gains (review round 25's false finding): `t[:, i] = t_i`
    copies into `t`'s dtype, so `t_i`'s own is no hazard; `g` and `t` meet the bf16 filter
    bank and are fixed, and the fixed module runs in bf16."""
    assert findings(GAIN_BANDS) == [("DTL001", 14, 13), ("DTL001", 17, 17)]
    after = fixed(GAIN_BANDS)
    assert after.count("dtype=self.Hz_fbank.dtype") == 2
    assert "torch.randn([batch_size], device=device))" in after
    torch = pytest.importorskip("torch")
    images = torch.randn(2, 4, 8)
    with pytest.raises(RuntimeError):
        executed(GAIN_BANDS)["Augment"]().to(torch.bfloat16)(images.bfloat16())  # type: ignore[operator]
    module = executed(after)["Augment"]().to(torch.bfloat16)  # type: ignore[operator]
    assert module(images.bfloat16()).dtype == torch.bfloat16


NMS_PLACEHOLDERS = """
import torch


def non_max_suppression(prediction: torch.Tensor, conf_thres: float = 0.25):
    output = [torch.zeros((0, 6), device=prediction.device)] * prediction.shape[0]
    for xi, x in enumerate(prediction):
        x = x[x[:, 4] > conf_thres]
        conf, j = x[:, 5:].max(1, keepdim=True)
        x = torch.cat((x[:, :4], conf, j.to(x.dtype)), 1)
        output[xi] = x
    return output
"""


def test_a_list_slot_replaced_by_an_activation_is_no_write() -> None:
    """YOLO's NMS (found by round 25's regression run): `output[xi] = x` replaces a list's
    placeholder, it writes nothing into the float32 zeros. A tensor buffer written into is."""
    assert findings(NMS_PLACEHOLDERS) == []
    buffer = NMS_PLACEHOLDERS.replace(
        "output = [torch.zeros((0, 6), device=prediction.device)] * prediction.shape[0]",
        "output = torch.zeros((prediction.shape[0], 6), device=prediction.device)",
    ).replace("output[xi] = x", "output[xi] = x[0]")
    assert findings(buffer) == [("DTL001", 5, 14)]
    torch = pytest.importorskip("torch")
    prediction = torch.rand(2, 5, 8).bfloat16()
    kept = executed(NMS_PLACEHOLDERS)["non_max_suppression"](prediction, 0.0)  # type: ignore[operator]
    assert all(out.dtype == torch.bfloat16 for out in kept)


CAMERA_MOTION = """
import numpy as np
import torch


class CameraMotionCompensation:
    def get_warp_matrix(self, img: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(np.eye(2, 3, dtype=np.float32))

    def warp_bboxes(self, bboxes: torch.Tensor, warp_matrix: torch.Tensor) -> torch.Tensor:
        tl = torch.cat((bboxes[:, :2], torch.ones(bboxes.shape[0], 1).to(bboxes.device)), dim=1)
        return torch.mm(warp_matrix, tl.t()).t()

    def track(self, img: torch.Tensor, bboxes: torch.Tensor) -> torch.Tensor:
        warp_matrix = self.get_warp_matrix(img.squeeze(0).cpu().numpy())
        return self.warp_bboxes(bboxes, warp_matrix)
"""


def test_a_plain_class_that_hands_tensors_to_numpy_is_post_processing() -> None:
    """mmtrack's camera motion compensation (review round 26's broken fix): the tracker warps
    boxes with cv2's float32 matrix, and the float32 ones promote the boxes so that `mm` runs;
    `dtype=bboxes.dtype` made it raise with bf16 boxes. A plain class one of whose methods hands
    tensors to NumPy is post-processing around a model, out of the default scope."""
    assert findings(CAMERA_MOTION) == []
    without_numpy = CAMERA_MOTION.replace("img.squeeze(0).cpu().numpy()", "img")
    assert findings(without_numpy) == [("DTL001", 10, 40)]
    torch = pytest.importorskip("torch")
    tracker = executed(CAMERA_MOTION)["CameraMotionCompensation"]()  # type: ignore[operator]
    boxes = torch.rand(3, 4).bfloat16()
    assert tracker.track(torch.rand(1, 3, 4, 4), boxes).dtype == torch.float32  # it runs
    fixed_code = fixed(without_numpy)
    patched = executed(fixed_code)["CameraMotionCompensation"]()  # type: ignore[operator]
    with pytest.raises(RuntimeError):
        patched.track(torch.rand(1, 3, 4, 4), boxes)  # why it is left out


def test_a_helper_taking_dtype_none_returns_float32_where_the_caller_leaves_it_out() -> None:
    """Blind set v6's FCOS head: `make_grid_points(h, w, device, dtype=None)` makes its grid
    with `dtype=dtype`, so a caller that leaves the dtype out gets float32 points, which meet the
    bf16 regression; a caller passing it (by keyword or position) gets that dtype. The factory
    inside is never given a second `dtype=` by a fix: the finding is at the call, whose result is
    cast."""
    code = """
        import torch
        from torch import nn

        def make_grid_points(h: int, w: int, device, dtype=None) -> torch.Tensor:
            ys = torch.arange(h, device=device, dtype=dtype) + 0.5
            xs = torch.arange(w, device=device, dtype=dtype) + 0.5
            yy, xx = torch.meshgrid(ys, xs, indexing="ij")
            return torch.stack([xx, yy], dim=-1).reshape(-1, 2)

        class Head(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.reg = nn.Conv2d(4, 2, 1)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                h, w = x.shape[-2:]
                reg = self.reg(x).flatten(2).transpose(1, 2)
                return reg + make_grid_points(h, w, x.device)
    """
    assert findings(code) == [("DTL001", 18, 22)]
    assert messages(code)[0].startswith(
        "make_grid_points(...) returns a float32 tensor (torch.arange(...) on line 5: its dtype"
        " comes from `dtype`, None unless given) but meets 'reg'"
    )
    after = fixed(code)
    assert "return reg + make_grid_points(h, w, x.device).to(reg.dtype)" in after
    assert after.count("dtype=dtype") == 2  # the helper's factories are left as they are
    for given in (
        "make_grid_points(h, w, x.device, reg.dtype)",
        "make_grid_points(h, w, x.device, dtype=reg.dtype)",
    ):
        assert findings(code.replace("make_grid_points(h, w, x.device)", given)) == []
    torch = pytest.importorskip("torch")
    x = torch.randn(1, 4, 3, 5)
    torch.manual_seed(0)
    original = executed(code)["Head"]()  # type: ignore[operator]
    torch.manual_seed(0)
    patched = executed(after)["Head"]()  # type: ignore[operator]
    assert torch.equal(original(x), patched(x))
    assert original.to(torch.bfloat16)(x.bfloat16()).dtype == torch.float32  # promoted
    assert patched.to(torch.bfloat16)(x.bfloat16()).dtype == torch.bfloat16


def test_a_slice_of_a_number_list_copied_from_a_default_is_float_data() -> None:
    """Blind set v7's dynamic voxel encoder: `self.pc_range = list(pc_range)` with a tuple of
    floats as the default, then `torch.tensor(self.pc_range[:3], device=points.device)`: a
    float32 factory that the bf16 points meet. A parameter without a number default (a caller may
    pass anything) decides nothing."""
    code = """
        import torch
        from torch import nn

        class Encoder(nn.Module):
            def __init__(self, pc_range=(-6.4, -6.4, -2.0, 6.4, 6.4, 2.0)) -> None:
                super().__init__()
                self.pc_range = list(pc_range)
                self.lin = nn.Linear(3, 3)

            def forward(self, points: torch.Tensor) -> torch.Tensor:
                origin = torch.tensor(self.pc_range[:3], device=points.device)
                return self.lin(points - origin)
    """
    assert findings(code) == [("DTL001", 11, 18)]
    after = fixed(code)
    assert "torch.tensor(self.pc_range[:3], device=points.device, dtype=points.dtype)" in after
    unknown = code.replace("pc_range=(-6.4, -6.4, -2.0, 6.4, 6.4, 2.0)", "pc_range=None")
    assert unknown != code
    assert findings(unknown) == []
    torch = pytest.importorskip("torch")
    points = torch.randn(4, 3)
    assert_fix_runs(code, after, "Encoder", inputs=(points,))
