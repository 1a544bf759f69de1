"""The analysis-v2 patterns (issue 8): one check finds what one fix fixes, fixes never break code.

Every case gives the exact findings (code, row, column), the exact fixed source, and a function
`run(dtype)` in the snippet: the original runs in float32; the fixed code runs in float32 *and*
bfloat16 (inputs made in that dtype) and gives the float32 values of the original. Look-alikes
are checked to produce no finding.
"""

from __future__ import annotations

import pytest

from tests.rules.helpers import dedent, findings, fixed

torch = pytest.importorskip("torch")

CASES = {
    "a buffer activations are written into, then derived from": (
        """
        import torch

        def frames(joints: torch.Tensor):
            origins = torch.zeros(joints.shape[0], 4, 3, device=joints.device)
            origins[:, 1:] = joints
            z = origins[:, 1:] - origins[:, :-1]
            up = torch.tensor([0, 1, 0], device=joints.device).expand_as(z)
            return up - (up * z).sum(dim=-1, keepdim=True) * z

        def run(dtype):
            return frames(torch.arange(18.0).view(2, 3, 3).to(dtype))
        """,
        [("DTL001", 4, 15), ("DTL001", 7, 10)],
        {
            4: "    origins = torch.zeros(joints.shape[0], 4, 3, device=joints.device, dtype=joints.dtype)",
            7: "    up = torch.tensor([0, 1, 0], device=joints.device, dtype=z.dtype).expand_as(z)",
        },
    ),
    "values of kthvalue keep the dtype": (
        """
        import torch

        def floor_scale(residual: torch.Tensor):
            median = residual.kthvalue(2, dim=-1).values
            return torch.maximum(median, torch.ones(residual.shape[0], device=residual.device))

        def run(dtype):
            return floor_scale(torch.arange(12.0).view(3, 4).to(dtype))
        """,
        [("DTL001", 5, 34)],
        {
            5: "    return torch.maximum(median, torch.ones(residual.shape[0], device=residual.device, dtype=median.dtype))",
        },
    ),
    "a local options dict passed with **": (
        """
        import torch

        def pad(x: torch.Tensor):
            opts = dict(device=x.device)
            return torch.cat([x, torch.ones(x.shape[0], 1, **opts)], dim=-1)

        def run(dtype):
            return pad(torch.arange(6.0).view(2, 3).to(dtype))
        """,
        [("DTL001", 5, 26)],
        {5: "    return torch.cat([x, torch.ones(x.shape[0], 1, **opts, dtype=x.dtype)], dim=-1)"},
    ),
    "a list of attribute values given to torch.tensor": (
        """
        import torch
        from torch import nn

        class Pinhole(nn.Module):
            def __init__(self, fx: float, cx: float):
                super().__init__()
                self.fx, self.cx = fx, cx

            def forward(self, pts: torch.Tensor):
                K = torch.tensor([[self.fx, 0.0, self.cx], [0.0, self.fx, self.cx], [0.0, 0.0, 1.0]], device=pts.device)
                return pts @ K.T

        def run(dtype):
            return Pinhole(2.0, 1.0)(torch.arange(6.0).view(2, 3).to(dtype))
        """,
        [("DTL001", 10, 13)],
        {
            10: "        K = torch.tensor([[self.fx, 0.0, self.cx], [0.0, self.fx, self.cx], [0.0, 0.0, 1.0]], device=pts.device, dtype=pts.dtype)",
        },
    ),
    "a factory given to a helper together with an activation": (
        """
        import torch

        def soft_histogram(values, centers):
            return torch.exp(-(values[..., None] - centers) ** 2).sum(-2)

        def head(tiles: torch.Tensor):
            return soft_histogram(tiles, torch.linspace(0, 1, 4, device=tiles.device))

        def run(dtype):
            return head(torch.arange(6.0).view(2, 3).div(6).to(dtype))
        """,
        [("DTL001", 7, 34)],
        {
            7: "    return soft_histogram(tiles, torch.linspace(0, 1, 4, device=tiles.device, dtype=tiles.dtype))"
        },
    ),
    "the source of a scatter is fixed with its destination": (
        """
        import torch

        def route(x: torch.Tensor, idx: torch.Tensor):
            counts = torch.zeros(x.shape[0], 4, device=x.device)
            counts.scatter_add_(1, idx, torch.ones(idx.shape, device=x.device))
            return counts * x

        def run(dtype):
            return route(torch.arange(8.0).view(2, 4).to(dtype), torch.tensor([[0, 1], [2, 2]]))
        """,
        [("DTL001", 4, 14)],
        {
            4: "    counts = torch.zeros(x.shape[0], 4, device=x.device, dtype=x.dtype)",
            5: "    counts.scatter_add_(1, idx, torch.ones(idx.shape, device=x.device, dtype=x.dtype))",
        },
    ),
    "a rotation and a translation used as geometry": (
        """
        import torch

        def to_reference(points: torch.Tensor, R: torch.Tensor, t: torch.Tensor):
            return points @ R.mT + t[:, None, :]

        def run(dtype):
            points = torch.arange(12.0).view(2, 2, 3).to(dtype)
            R = torch.eye(3).expand(2, 3, 3)  # as the dataset gives them: float32
            t = torch.ones(2, 3)
            return to_reference(points, R, t)
        """,
        [("DTL002", 4, 21), ("DTL002", 4, 28)],
        {4: "    return points @ R.to(points.dtype).mT + t[:, None, :].to(points.dtype)"},
    ),
    "a mask reshaped by a helper, then added to the scores (Swin's shifted windows)": (
        """
        import torch

        def partition(x, size: int):
            B, H, W, C = x.shape
            x = x.view(B, H // size, size, W // size, size, C)
            return x.permute(0, 1, 3, 2, 4, 5).reshape(-1, size * size, C)

        def attend(query: torch.Tensor):
            img_mask = torch.zeros((1, 4, 4, 1), device=query.device)
            img_mask[:, 2:, :, :] = 1
            mask = partition(img_mask, 2).squeeze(-1)
            mask = mask.unsqueeze(1) - mask.unsqueeze(2)
            mask = mask.masked_fill(mask != 0, -100.0)
            windows = partition(query, 2)
            scores = windows @ windows.transpose(-1, -2)
            return (scores + mask).softmax(-1) @ windows

        def run(dtype):
            return attend(torch.arange(32.0).view(1, 4, 4, 2).div(32).to(dtype))
        """,
        [("DTL001", 9, 16)],
        {9: "    img_mask = torch.zeros((1, 4, 4, 1), device=query.device, dtype=query.dtype)"},
    ),
    "a legacy constructor becomes torch.tensor with the dtype": (
        """
        import torch

        def shift(x: torch.Tensor):
            offsets = torch.FloatTensor([1.0, 2.0])
            return x + offsets

        def run(dtype):
            return shift(torch.arange(4.0).view(2, 2).to(dtype))
        """,
        [("DTL001", 4, 15)],
        {4: "    offsets = torch.tensor([1.0, 2.0], dtype=x.dtype)"},
    ),
    "a helper's float32 grid meets the caller's features (mmdet's generate_coordinate)": (
        """
        import torch

        def coordinates(sizes, device="cpu"):
            x = torch.linspace(-1, 1, sizes[-1], device=device)
            return x.expand(sizes[0], 1, sizes[-2], -1)

        def with_coords(feat: torch.Tensor):
            return torch.cat([feat, coordinates(feat.size(), feat.device)], 1)

        def run(dtype):
            return with_coords(torch.arange(8.0).view(1, 2, 2, 2).to(dtype))
        """,
        [("DTL001", 8, 29)],
        {
            8: "    return torch.cat([feat, coordinates(feat.size(), feat.device).to(feat.dtype)], 1)"
        },
    ),
    "a factory that meets only another reported one is reported with it (rfdetr's points)": (
        """
        import torch
        import torch.nn.functional as F

        def sample(logits: torch.Tensor, n: int):
            coords = torch.rand(logits.shape[0], n, 2, device=logits.device)
            values = F.grid_sample(logits, coords[:, None] * 2 - 1, align_corners=False)
            coords = torch.cat([coords, torch.rand(logits.shape[0], 2, 2, device=logits.device)], 1)
            return F.grid_sample(logits, coords[:, None] * 2 - 1, align_corners=False) + values.sum()

        def run(dtype):
            torch.manual_seed(0)
            return sample(torch.arange(32.0).view(2, 1, 4, 4).div(32).to(dtype), 3)
        """,
        [("DTL001", 5, 14), ("DTL001", 7, 33)],
        {
            5: "    coords = torch.rand(logits.shape[0], n, 2, device=logits.device, dtype=logits.dtype)",
            7: "    coords = torch.cat([coords, torch.rand(logits.shape[0], 2, 2, device=logits.device, dtype=logits.dtype)], 1)",
        },
    ),
    "Lift-Splat geometry: intrins and rots in matmuls, trans sliced and added": (
        """
        import torch
        from torch import nn

        class Lifter(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Linear(4, 3)

            def forward(self, feats, intrins, rots, trans):
                pts = self.head(feats)
                pts = torch.matmul(pts, torch.inverse(intrins).transpose(-1, -2))
                pts = torch.matmul(pts, rots.transpose(-1, -2))
                return pts + trans[:, :, None, :]

        def run(dtype):
            torch.manual_seed(0)
            model = Lifter().to(dtype)
            intrins = torch.tensor([[30.0, 0.0, 2.0], [0.0, 30.0, 1.0], [0.0, 0.0, 1.0]]).repeat(1, 2, 1, 1)
            rots = torch.eye(3).repeat(1, 2, 1, 1)
            return model(torch.rand(1, 2, 5, 4).to(dtype), intrins, rots, torch.rand(1, 2, 3))
        """,
        [("DTL002", 11, 33), ("DTL002", 12, 33), ("DTL002", 13, 22)],
        {
            11: "        pts = torch.matmul(pts, torch.inverse(intrins).to(pts.dtype).transpose(-1, -2))",
            12: "        pts = torch.matmul(pts, rots.to(pts.dtype).transpose(-1, -2))",
            13: "        return pts + trans[:, :, None, :].to(pts.dtype)",
        },
    ),
}


def _run(source: str, dtype: torch.dtype) -> torch.Tensor:
    namespace: dict[str, object] = {}
    exec(compile(source, "model.py", "exec"), namespace)
    return namespace["run"](dtype)  # type: ignore[operator]


@pytest.mark.parametrize(("code", "where", "lines"), CASES.values(), ids=CASES.keys())
def test_found_fixed_and_the_fix_runs(code: str, where: list, lines: dict[int, str]) -> None:
    assert findings(code) == where
    before = dedent(code).splitlines()
    after = fixed(code, unsafe=True)
    expected = [lines.get(row, line) for row, line in enumerate(before, start=1)]
    assert after.splitlines() == expected
    assert fixed(after, unsafe=True) == after  # a second fix changes nothing
    reference = _run(dedent(code), torch.float32)
    assert torch.equal(_run(after, torch.float32), reference)  # same float32 values
    low = _run(after, torch.bfloat16)  # and it runs in bf16, in bf16
    assert low.dtype == torch.bfloat16
    assert torch.allclose(low.float(), reference, rtol=5e-2, atol=5e-2)


LOOKALIKES = {
    "a helper's integer grid used as an index": """
        import torch
        def grid_ids(h, w):
            return torch.arange(h * w).view(h, w)
        def pick(x: torch.Tensor):
            return x[..., grid_ids(2, 2)]
    """,
    "an index reshaped by a helper stays an index": """
        import torch
        def flat(x):
            return x.reshape(-1)
        def pick(x: torch.Tensor):
            idx = flat(torch.arange(4, device=x.device).view(2, 2))
            return x[..., idx]
    """,
    "indices of topk used as an index": """
        import torch
        def pick(x: torch.Tensor):
            top = x.topk(2, dim=-1)
            offsets = torch.arange(2, device=x.device)
            return x[..., top.indices + offsets]
    """,
    "an unknown **kwargs may carry the dtype": """
        import torch
        def pad(x: torch.Tensor, **kwargs):
            return torch.cat([x, torch.ones(x.shape[0], 1, **kwargs)], dim=-1)
    """,
    "options that give the dtype": """
        import torch
        def pad(x: torch.Tensor):
            opts = {"device": x.device, "dtype": x.dtype}
            return torch.cat([x, torch.ones(x.shape[0], 1, **opts)], dim=-1)
    """,
    "a 1-D factory iterated into 0-dim scalars": """
        import torch
        def scale(feats: list[torch.Tensor], x: torch.Tensor):
            weights = torch.linspace(0.1, 1.0, len(feats), device=x.device)
            return [f * w for f, w in zip(feats, weights)], x * weights[-1]
    """,
    "camera values built together": """
        import torch
        def compose(K, R, t):
            Rt = torch.cat([R, t], dim=-1)
            return K @ Rt
    """,
    "a body pose given to a rotation conversion": """
        import torch
        from torch import nn
        def batch_rodrigues(v):
            return v / v.norm(dim=-1, keepdim=True)
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 3)
            def forward(self, feats, pose):
                rot = batch_rodrigues(pose.view(-1, 3))
                return self.fc(feats) @ rot.T
    """,
    "a hash-prime vector: integer math": """
        import torch
        def spatial_hash(coords: torch.Tensor):
            primes = torch.tensor([1, 2654435761, 805459861], device=coords.device)
            return (coords * primes).sum(-1) % 524288
    """,
    "a complex RoPE table is not a buffer to cast": """
        import torch
        from torch import nn
        class Rope(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.freqs = torch.polar(torch.ones(dim), torch.arange(dim) * 0.1)
            def forward(self, x):
                return torch.view_as_real(torch.view_as_complex(x) * self.freqs)
    """,
    "a weightless submodule imposes no dtype": """
        import torch
        from torch import nn
        class Gate(nn.Module):
            def __init__(self):
                super().__init__()
                self.drop = nn.Dropout(0.1)
            def forward(self, seq):
                keep = self.drop(torch.ones((seq.shape[0],), device=seq.device)).bool()
                return seq[keep]
    """,
    "sizes are ints, whatever their use": """
        import torch
        def posemb(h, w, dim, temperature: float = 10000.0):
            omega = torch.arange(dim // 4) / (dim // 4 - 1)
            y, x = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
            return torch.cat([x.flatten()[:, None] * omega[None], y.flatten()[:, None] * omega[None]], 1)
    """,
    "test code builds float32 inputs itself": """
        import torch
        def test_projection():
            x = torch.randn(2, 3)
            assert (x @ torch.eye(3)).shape == (2, 3)
    """,
}


@pytest.mark.parametrize("code", LOOKALIKES.values(), ids=LOOKALIKES.keys())
def test_lookalikes_are_clean(code: str) -> None:
    assert findings(code) == []


SOURCES = {
    "a parameter that is None on a path is never the source": (
        """
        import torch
        def f(x: torch.Tensor, feats: torch.Tensor | None = None):
            ones = torch.ones(x.shape[0], 3, device=x.device)
            if feats is not None:
                return feats + ones
            return ones
        """,
        "ones = torch.ones(x.shape[0], 3, device=x.device, dtype=x.dtype)",
    ),
    "a name bound on another branch only is never the source": (
        """
        import torch
        def f(x: torch.Tensor, flag: bool):
            if flag:
                coords = x * 2
            grid = torch.zeros(3, device=x.device)
            return x + grid
        """,
        "grid = torch.zeros(3, device=x.device, dtype=x.dtype)",
    ),
    "a submodule is never the source; the input is": (
        """
        import torch
        from torch import nn
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(3, 3)
            def forward(self, x):
                return self.proj(x) + torch.ones(3, device=x.device)
        """,
        "return self.proj(x) + torch.ones(3, device=x.device, dtype=x.dtype)",
    ),
    "the input, not the module parameter it is multiplied with": (
        """
        import torch
        from torch import nn
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.regressor = nn.Parameter(torch.ones(4, 3))
            def forward(self, vertices):
                joints = torch.zeros(vertices.shape[0], 4, device=vertices.device)
                joints[:, 0] = (self.regressor[0] * vertices).sum(dim=1)
                return joints
        """,
        "joints = torch.zeros(vertices.shape[0], 4, device=vertices.device, dtype=vertices.dtype)",
    ),
}


@pytest.mark.parametrize(("code", "line"), SOURCES.values(), ids=SOURCES.keys())
def test_dtype_source_is_a_tensor_bound_on_every_path(code: str, line: str) -> None:
    assert line in fixed(code)


def test_an_abstract_method_called_by_the_base_class_is_its_one_subclass_override() -> None:
    """mmseg's HamHead: the base class's `forward` calls `self._build_bases(...)`, which there
    only raises NotImplementedError; `NMF2D`, the file's one subclass defining it, returns
    `torch.rand(...)` made without dtype=, which then meets the features in `torch.bmm`."""
    code = """
        import torch
        from torch import nn

        class Decomposition(nn.Module):
            def _build_bases(self, batch, dim, rank, device=None):
                raise NotImplementedError

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                bases = self._build_bases(x.shape[0], x.shape[1], 8, device=x.device)
                return torch.bmm(x.transpose(1, 2), bases)

        class NMF(Decomposition):
            def _build_bases(self, batch, dim, rank, device=None):
                bases = torch.rand((batch, dim, rank)).to(device)
                return bases / bases.norm(dim=1, keepdim=True)
    """
    assert findings(code) == [("DTL001", 9, 17)]
    assert "device=x.device).to(x.dtype)" in fixed(code)


def test_positions_made_in_a_map_lambda_and_kept_through_einops_and_helpers() -> None:
    """perceiver-pytorch: `map(lambda size: torch.linspace(..., device=device), axis)` makes the
    axis positions; `rearrange` and a helper computing from its argument alone (`x * scales`,
    `scales` made in `x.dtype`) keep their float32 dtype, so they meet the data in `cat`."""
    code = """
        import torch
        from einops import rearrange
        from torch import nn

        def fourier_encode(x, max_freq: float):
            scales = torch.linspace(1.0, max_freq / 2, 4, device=x.device, dtype=x.dtype)
            x = rearrange(x, "... -> ... 1") * scales
            return torch.cat([x.sin(), x.cos()], dim=-1)

        class Perceiver(nn.Module):
            def forward(self, data: torch.Tensor) -> torch.Tensor:
                b, *axis, _, device = *data.shape, data.device
                axis_pos = list(map(lambda size: torch.linspace(-1.0, 1.0, size, device=device), axis))
                pos = torch.stack(torch.meshgrid(*axis_pos, indexing="ij"), dim=-1)
                enc_pos = rearrange(fourier_encode(pos, 10.0), "... n d -> ... (n d)")
                return torch.cat((data, enc_pos), dim=-1)

            def labelled(self, data: torch.Tensor) -> torch.Tensor:
                names = list(map(lambda size: str(size), data.shape))
                return data if names else data * 2
    """
    assert findings(code) == [("DTL001", 13, 42)]


def test_a_helper_choosing_among_its_arguments_gives_either() -> None:
    """lucidrains' `default(val, d)`: `noise = default(noise, torch.randn(...))` is the factory
    where no noise is given, so it meets what the noise meets (gigagan's style network); and
    `default(gate, sim[:, 0])` is never None, so it is a dtype source."""
    code = """
        import torch
        from torch import nn

        def exists(val):
            return val is not None

        def default(val, d):
            if exists(val):
                return val
            return d() if callable(d) else d

        class Up(nn.Module):
            def __init__(self):
                super().__init__()
                self.style_network = nn.Linear(8, 8)

            def forward(self, x: torch.Tensor, noise=None, gate=None):
                noise = default(noise, torch.randn((x.shape[0], 8), device=x.device))
                gate = default(gate, x[:, 0])
                eye = torch.eye(8, device=x.device)
                mask = (1 - eye) * gate
                return self.style_network(noise) * mask
    """
    assert findings(code) == [("DTL001", 18, 32), ("DTL001", 20, 15)]
    assert "torch.eye(8, device=x.device, dtype=gate.dtype)" in fixed(code)
    # rectified-flow's spelling in one return: `return v if exists(v) else d`
    one_return = code.replace(
        "if exists(val):\n                return val\n            return d() if callable(d) else d",
        "return val if exists(val) else d",
    )
    assert one_return != code
    assert findings(one_return) == [("DTL001", 16, 32), ("DTL001", 18, 15)]


def test_a_data_or_range_factory_with_a_literal_zero_is_no_empty_placeholder() -> None:
    """`torch.zeros((0, 3))` is an empty placeholder (no values to promote), but a 0 among a
    data or range factory's arguments is a value: `torch.linspace(0, 1, n)` holds n of them."""
    code = """
        import torch

        def default(val, d):
            return val if val is not None else d

        def shifted(x: torch.Tensor, offsets: torch.Tensor | None = None) -> torch.Tensor:
            offsets = default(offsets, torch.linspace(0, 1, x.shape[-1], device=x.device))
            return x + offsets

        def biased(x: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
            bias = default(bias, torch.tensor([0.0, 0.5], device=x.device))
            return x + bias

        def padded(x: torch.Tensor, rows: torch.Tensor | None = None) -> torch.Tensor:
            rows = default(rows, torch.zeros((0, 2), device=x.device))
            return torch.cat([x, rows])
    """
    assert findings(code) == [("DTL001", 7, 32), ("DTL001", 11, 26)]
    assert "torch.linspace(0, 1, x.shape[-1], device=x.device, dtype=x.dtype)" in fixed(code)


def test_a_network_given_to_the_constructor_is_a_submodule() -> None:
    """rectified-flow's `RectifiedFlow(model: dict | Module)`: `self.model = model` registers
    the network, so times made without dtype= and passed to it meet its weights. A callable
    whose parameter says no network (`self.loss_fn = loss_fn`) is not one."""
    code = """
        import torch
        from torch import nn

        class Flow(nn.Module):
            def __init__(self, model, loss_fn=None):
                super().__init__()
                self.model = model
                self.loss_fn = loss_fn

            def forward(self, data: torch.Tensor) -> torch.Tensor:
                times = torch.rand(data.shape[0], device=data.device)
                pred = self.model(data, times=times)
                return self.loss_fn(pred, torch.zeros(data.shape[0], device=data.device))
    """
    assert findings(code) == [("DTL001", 11, 17)]
    assert "torch.rand(data.shape[0], device=data.device, dtype=data.dtype)" in fixed(code)
    annotated = code.replace(
        "def __init__(self, model, ", "def __init__(self, denoise: nn.Module, "
    )
    annotated = annotated.replace("self.model = model", "self.model = denoise")
    assert annotated != code and findings(annotated) == [("DTL001", 11, 17)]


def test_a_parameter_indexed_by_numbers_only_is_a_list_of_tensors() -> None:
    """openpoints' decoders take `p` and `f` as lists of per-stage tensors: `p[0].shape`,
    `f[-1]`. Their items are activations; the list itself is no dtype source (`dtype=p.dtype`
    raised AttributeError, even in float32)."""
    code = """
        import torch
        from torch import nn

        class PartDecoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.convc = nn.Conv1d(16, 64, 1)

            def forward(self, p, f, cls_label):
                B, N = p[0].shape[0:2]
                one_hot = torch.zeros((B, 16), device=p[0].device)
                one_hot = one_hot.scatter_(1, cls_label, 1).unsqueeze(-1).repeat(1, 1, N)
                return self.convc(one_hot) + f[-1]
    """
    assert findings(code) == [("DTL001", 11, 19)]
    assert "dtype=" not in fixed(code)


def test_functions_called_in_turn_through_a_loop_variable_are_local_calls() -> None:
    """enformer calls its positional feature functions as `for fn in feature_functions:
    fn(distances, ...)` with `distances = torch.arange(...)`: each function's `positions` is an
    index tensor then, no dtype source (`dtype=positions.dtype` made its linspace int64)."""
    code = """
        import torch

        def exponential(positions, features: int):
            half_life = 2 ** torch.linspace(3.0, 10.0, features, device=positions.device)
            return torch.exp(-0.69 / half_life * positions.abs()[..., None])

        def central_mask(positions, features: int):
            widths = 2 ** torch.arange(1, features + 1, device=positions.device)
            return (widths[None, ...] > positions.abs()[..., None]).float()

        def embed(x: torch.Tensor, seq_len: int) -> torch.Tensor:
            distances = torch.arange(-seq_len + 1, seq_len, device=x.device)
            feature_functions = [exponential, central_mask]
            embeddings = [fn(distances, x.shape[-1]) for fn in feature_functions]
            for fn in feature_functions:
                embeddings.append(fn(distances, x.shape[-1]))
            return x + torch.cat(embeddings, dim=-1).to(x.dtype)
    """
    assert "dtype=positions.dtype" not in fixed(code)


def test_a_parameter_callers_pass_an_index_tensor_is_no_dtype_source() -> None:
    """enformer's `get_positional_features_exponential(positions, ...)` is given
    `torch.arange(-n + 1, n)`, an int64 tensor: `dtype=positions.dtype` made its `linspace`
    integer and changed the float32 embedding."""
    code = """
        import torch

        def features(positions, features: int):
            half_life = 2 ** torch.linspace(3.0, 10.0, features, device=positions.device)
            return torch.exp(-0.69 / half_life * positions.abs()[..., None])

        def embed(x: torch.Tensor, seq_len: int) -> torch.Tensor:
            distances = torch.arange(-seq_len + 1, seq_len, device=x.device)
            return x + features(distances, x.shape[-1]).to(x.dtype)
    """
    assert findings(code) == []
    called_with_floats = code.replace(
        "torch.arange(-seq_len + 1, seq_len, device=x.device)", "x[0]"
    )
    assert findings(called_with_floats) == [("DTL001", 4, 22)]


def test_noise_added_in_place_through_a_helper_keeps_the_activations_dtype() -> None:
    """StyleGAN's `modulated_conv2d(x, ..., noise=noise)` ends `x.add_(noise)`: the noise is
    written into the bf16 activation, which keeps its dtype; the helper's parameters do not
    meet (fcf.py's noise was reported as meeting the helper's own activations)."""
    code = """
        import torch
        from torch import nn
        from ops import conv2d_resample

        def modulated(x, weight, noise=None, resample_filter=None, fused=True):
            x = conv2d_resample(x=x, w=weight, f=resample_filter)
            if not fused and noise is not None:
                return x.add_(noise.to(x.dtype))
            if noise is not None:
                x = x.add_(noise)
            return x

        class Layer(nn.Module):
            def __init__(self):
                super().__init__()
                self.weight = nn.Parameter(torch.randn(4, 4, 3, 3))
                self.register_buffer("resample_filter", torch.ones(4, 4))

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                noise = torch.randn([x.shape[0], 1, 8, 8], device=x.device)
                f = self.resample_filter
                return modulated(x, self.weight, noise=noise, resample_filter=f)
    """
    assert findings(code) == []
    added = code.replace("x = x.add_(noise)", "x = x + noise")
    assert added != code and findings(added) == [("DTL001", 20, 17)]


def test_a_parameter_the_class_checks_for_a_dict_is_no_dtype_source() -> None:
    """ldm's `cond` is a tensor, a list or a dict by configuration, and a method of the class
    says so (`isinstance(cond, dict)`); `l_features[i - 1]` indexes a list of per-stage
    features. Both are still activations the noise meets, but neither is a dtype source
    (`dtype=cond.dtype` raised AttributeError on a dict). A generic helper elsewhere checking
    its own `x` for a dict says nothing of other functions' `x`."""
    code = """
        import torch
        from torch import nn

        class LatentDiffusion(nn.Module):
            def apply_model(self, x, t, cond):
                if isinstance(cond, dict):
                    cond = cond["c_crossattn"]
                return self.model(x, t, cond)

            def p_sample_loop(self, cond, shape, steps: int):
                img = torch.randn(shape, device=self.betas.device)
                for i in reversed(range(steps)):
                    if self.shorten_cond_schedule:
                        cond = self.q_sample(cond, torch.randn_like(cond).to(cond.device))
                    img = self.apply_model(img, i, cond)
                return img

        class Decoder(nn.Module):
            def forward(self, l_xyz, l_features):
                for i in range(-1, -len(l_features), -1):
                    l_features[i - 1] = l_features[i - 1] + l_features[i]
                B, N = l_xyz[0].shape[0:2]
                pad = torch.zeros((B, 16, N), device=l_xyz[0].device)
                return torch.cat([l_features[0], pad], dim=1)
    """
    assert findings(code) == [("DTL001", 11, 15), ("DTL001", 23, 15)]
    assert "dtype=" not in fixed(code)


DDIM_SAMPLER = """
    import torch

    class DDIMSampler(object):
        def __init__(self, model):
            self.model = model

        def sample(self, conditioning, shape, x0=None, mask=None):
            if isinstance(conditioning, dict):
                batch = conditioning[list(conditioning.keys())[0]].shape[0]
            return self.ddim_sampling(conditioning, shape, x0=x0, mask=mask)

        def ddim_sampling(self, cond, shape, x0=None, mask=None):
            img = torch.randn(shape, device=self.model.betas.device)
            if mask is not None:
                img = self.model.q_sample(x0) * mask + (1.0 - mask) * img
            return self.p_sample_ddim(img, cond, 3)

        def p_sample_ddim(self, x, c, index):
            b, device = x.shape[0], x.device
            e_t = self.model.apply_model(x, c)
            a_t = torch.full((b, 1, 1, 1), self.model.alphas[index], device=device)
            return (x - e_t) / a_t.sqrt()
"""


def test_a_diffusion_sampler_given_its_network_drives_it() -> None:
    """iopaint's DDIM and PLMS samplers (plain classes holding the LDM): `torch.full(...)` of a
    schedule value promotes the latents every step, and the float32 latents go into the
    half/bf16 UNet. A data sampler (`torch.utils.data.Sampler`, no network) stays out of scope.
    `conditioning` is checked for a dict and handed on as `cond`: no dtype source either."""
    assert findings(DDIM_SAMPLER) == [("DTL001", 13, 15), ("DTL001", 21, 15)]
    after = fixed(DDIM_SAMPLER)
    assert (
        "a_t = torch.full((b, 1, 1, 1), self.model.alphas[index], device=device, dtype=x.dtype)"
        in after
    )
    assert (
        "cond.dtype" not in after
        and "img = torch.randn(shape, device=self.model.betas.device)\n" in after
    )
    data_sampler = DDIM_SAMPLER.replace("def __init__(self, model):", "def __init__(self, data):")
    data_sampler = data_sampler.replace("self.model = model", "self.data = data")
    assert findings(data_sampler) == []


def test_a_nested_function_reading_its_parents_activations_computes_with_them() -> None:
    """iopaint's PLMS sampler: `get_x_prev_and_pred_x0(e_t, index)` is defined inside
    `p_sample_plms(self, x, ...)` and reads the latents `x` from it; its schedule values made
    with `torch.full` promote them. A nested function reading only numbers stays quiet."""
    code = """
        import torch

        class PLMSSampler(object):
            def __init__(self, model):
                self.model = model

            def p_sample_plms(self, x, c, index):
                b, device = x.shape[0], x.device

                def get_x_prev(e_t, index):
                    a_t = torch.full((b, 1, 1, 1), self.model.alphas[index], device=device)
                    return (x - e_t) / a_t.sqrt()

                return get_x_prev(self.model.apply_model(x, c), index)
    """
    assert findings(code) == [("DTL001", 11, 19)]
    assert (
        "a_t = torch.full((b, 1, 1, 1), self.model.alphas[index], device=device, dtype=x.dtype)"
        in fixed(code)
    )
    numbers = code.replace("return (x - e_t) / a_t.sqrt()", "return a_t.sqrt() * index")
    assert findings(numbers) == []


def test_a_plain_class_called_like_a_function_is_analysed() -> None:
    """RAFT's `CorrBlock`: a plain class built from feature maps whose `__call__(coords)` looks
    the correlation up around `coords` with a float32 `linspace` window; 12 copies in ptlflow went
    unread. (A transform class built from options stays out: tests/rules/test_dtl001.py.)"""
    code = """
        import torch
        import torch.nn.functional as F

        class CorrBlock:
            def __init__(self, fmap1: torch.Tensor, fmap2: torch.Tensor, radius: int = 4):
                self.corr = torch.matmul(fmap1.transpose(1, 2), fmap2)[:, None]
                self.radius = radius

            def __call__(self, coords: torch.Tensor) -> torch.Tensor:
                r = self.radius
                dx = torch.linspace(-r, r, 2 * r + 1, device=coords.device)
                delta = torch.stack(torch.meshgrid(dx, dx, indexing="ij"), -1)
                return F.grid_sample(self.corr, coords.reshape(-1, 1, 1, 2) + delta.view(1, -1, 1, 2))
    """
    assert findings(code) == [("DTL001", 11, 14)]
    assert (
        "dx = torch.linspace(-r, r, 2 * r + 1, device=coords.device, dtype=coords.dtype)"
        in fixed(code, unsafe=True)
    )


def test_a_parameter_handled_as_a_list_in_a_branch_that_returns_is_a_tensor_past_it() -> None:
    """celldetection's `fouriers2contours`: `if isinstance(fourier, (tuple, list)): return [...]`
    handles lists and leaves; past it `fourier` is one tensor, the dtype the default sampling
    `linspace` must take. Round 20 found the `linspace` reported only by a second check, after
    `--fix` had given the `arange` it meets `dtype=sampling.dtype`."""
    code = """
        import math
        import torch

        def fouriers2contours(fourier, locations, samples=64, sampling=None):
            if isinstance(fourier, (tuple, list)):
                if sampling is None:
                    sampling = [sampling] * len(fourier)
                return [fouriers2contours(f, l, samples, s) for f, l, s in zip(fourier, locations, sampling)]
            order = fourier.shape[-2]
            d = fourier.device
            if sampling is None:
                sampling = torch.linspace(0, 1.0, samples, device=d)
            c = 2 * math.pi * torch.arange(1, order + 1, device=d)[..., None] * sampling[..., None, :]
            return locations[..., None, :] + (fourier[..., None, (0, 2)] * torch.cos(c)[..., None]).sum(-3)
    """
    assert findings(code) == [("DTL001", 12, 20)]
    once = fixed(code, unsafe=True)
    assert "torch.linspace(0, 1.0, samples, device=d, dtype=fourier.dtype)" in once
    assert findings(once) == []  # one pass: nothing a second check would add


def test_a_loss_file_and_a_metrics_update_report_only_what_raises() -> None:
    """Round 21: yolov7's `utils/loss.py` (a RankSort autograd Function storing bf16 values in
    float32 buffers: nothing raises) and deepforest's `self.empty_frame_accuracy.update(preds,
    torch.tensor([0.0]))` (a torchmetrics metric's bookkeeping, no weights to meet)."""
    import dtypelint

    ranking = dedent("""
        import torch

        class RankSort(torch.autograd.Function):
            @staticmethod
            def forward(ctx, logits, targets):
                error = torch.zeros(logits.shape[0], device=logits.device)
                error[targets > 0] = logits[targets > 0]
                return error * logits
    """)
    assert [d.code for d in dtypelint.lint_source(ranking, "pkg/models/rank.py")] == ["DTL001"]
    assert dtypelint.lint_source(ranking, "pkg/utils/loss.py") == []
    # speechbrain's `nnet/loss/stoi_loss.py` (round 23: its safe fixes made the loss raise); a
    # folder of losses is no loss by itself (deepinv's `loss/score.py` holds a score model)
    assert dtypelint.lint_source(ranking, "pkg/nnet/loss/stoi_loss.py") == []
    assert [d.code for d in dtypelint.lint_source(ranking, "pkg/loss/score.py")] == ["DTL001"]
    metric = """
        import torch
        from torch import nn

        class Detector(nn.Module):
            def __init__(self, accuracy):
                super().__init__()
                self.backbone = nn.Linear(4, 4)
                self.accuracy = accuracy

            def validation_step(self, x):
                preds = self.backbone(x)
                self.accuracy.update(preds, torch.tensor([0.0], device=x.device))
                self.accuracy.reset()
                return preds
    """
    assert findings(metric) == []
    assert findings(metric.replace("self.accuracy.update(", "self.backbone(")) == [
        ("DTL001", 12, 30)
    ]


def test_a_wrapper_of_custom_fwd_with_cast_inputs_is_fixed_precision() -> None:
    """speechbrain's front-ends (review round 23): `@fwd_default_precision(cast_inputs=
    torch.float32)` wraps `torch.amp.custom_fwd`: the method runs in float32 by design."""
    code = """
        import torch
        from torch import nn
        from speechbrain.utils.autocast import fwd_default_precision

        class Fbank(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(4, 4)

            @fwd_default_precision(cast_inputs=torch.float32)
            def forward(self, wav: torch.Tensor) -> torch.Tensor:
                window = torch.ones(wav.shape[-1], device=wav.device)
                return self.proj(wav * window)
    """
    assert findings(code) == []
    plain = code.replace("@fwd_default_precision(cast_inputs=torch.float32)", "")
    assert findings(plain) == [("DTL001", 12, 18)]
