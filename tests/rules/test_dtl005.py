"""DTL005 unregistered-tensor-attribute: plain tensors on modules that meet activations."""

from __future__ import annotations

import pytest

from tests.rules.helpers import dedent, findings, fixed, messages

GRID = """
import torch
import torch.nn.functional as F
from torch import nn


class Warp(nn.Module):
    def __init__(self, size: int):
        super().__init__()
        self.base_grid = torch.stack(torch.meshgrid(torch.linspace(-1, 1, size), torch.linspace(-1, 1, size), indexing="xy"), -1)
        self.net = nn.Conv2d(3, 2, 3, padding=1)

    def forward(self, img):
        flow = self.net(img).permute(0, 2, 3, 1)
        return F.grid_sample(img, self.base_grid + flow, align_corners=True)
"""


def test_plain_grid_attribute() -> None:
    assert findings(GRID) == [("DTL005", 9, 9)]
    assert messages(GRID) == [
        "self.base_grid is a plain tensor attribute: module.to(torch.bfloat16), .half() and .cuda()"
        " skip it, and it meets 'flow'; register it as a buffer"
    ]
    assert (
        '        self.register_buffer("base_grid", torch.stack(torch.meshgrid(torch.linspace(-1, 1, size),'
        ' torch.linspace(-1, 1, size), indexing="xy"), -1), persistent=False)\n'
    ) in fixed(GRID)


def test_normalization_constants_in_a_subclass_method() -> None:
    code = """
    import torch
    from torch import nn

    class Normalize(nn.Module):
        def __init__(self):
            super().__init__()
            self.mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)

        def normalize(self, x: torch.Tensor) -> torch.Tensor:
            return x - self.mean
    """
    assert findings(code) == [("DTL005", 7, 9)]


def test_camera_attribute_made_in_init_gives_dtl005_and_dtl002() -> None:
    code = """
    import torch
    from torch import nn

    class Projector(nn.Module):
        def __init__(self):
            super().__init__()
            self.K = torch.tensor([[500.0, 0.0, 320.0], [0.0, 500.0, 240.0], [0.0, 0.0, 1.0]])
            self.lift = nn.Linear(8, 3)

        def forward(self, feats):
            pts = self.lift(feats)
            return pts @ self.K.T
    """
    assert findings(code) == [("DTL005", 7, 9), ("DTL002", 12, 22)]
    after = fixed(code)
    assert "return pts @ self.K.to(pts.dtype).T" in after
    assert 'self.register_buffer("K", torch.tensor(' in after


NEGATIVES = {
    # super-gradients' YOLO head: a list of per-level grids; the fix registered the list (TypeError)
    "a list of tensors repeated per level": """
        import torch
        from torch import nn
        class DetectX(nn.Module):
            def __init__(self, levels: int):
                super().__init__()
                self.grid = [torch.zeros(1)] * levels
            def forward(self, x):
                return x + self.grid[0]
    """,
    # rectified-flow's Reflow trainer: the fix registered an Adam optimizer as a buffer (TypeError)
    "an optimizer kept on a module and handed to an object's method": """
        import torch
        from torch import nn
        from torch.optim import Adam
        from accelerate import Accelerator
        class Trainer(nn.Module):
            def __init__(self, model: nn.Module, learning_rate=1e-4):
                super().__init__()
                self.accelerator = Accelerator()
                self.model = model
                self.optimizer = Adam(model.parameters(), lr=learning_rate)
            def save(self, path):
                state = self.accelerator.unwrap_model(self.optimizer).state_dict()
                torch.save(dict(optimizer=state), path)
    """,
    "whatever torch.load gives (a dict of tensors, basicsr's DFDNet)": """
        import torch
        from torch import nn
        class DFD(nn.Module):
            def __init__(self, path):
                super().__init__()
                self.dict = torch.load(path)
            def to_device(self, x):
                for k, v in self.dict.items():
                    self.dict[k] = v.to(x)
            def forward(self, x):
                self.to_device(x)
                return x * self.dict["left_eye"]
    """,
    "registered buffer": """
        import torch
        from torch import nn
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("scale", torch.ones(3))
            def forward(self, x):
                return x * self.scale
    """,
    "parameter": """
        import torch
        from torch import nn
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = nn.Parameter(torch.ones(3))
            def forward(self, x):
                return x * self.scale
    """,
    "integer index attribute": """
        import torch
        from torch import nn
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.order = torch.arange(8).flip(0)
            def forward(self, x):
                return x[:, self.order]
    """,
    "attribute cast before use": """
        import torch
        from torch import nn
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = torch.ones(3)
            def forward(self, x):
                return x * self.scale.to(x)
    """,
    "a 0-dim element of a local tensor": """
        import torch
        from torch import nn
        class Pillars(nn.Module):
            def __init__(self, voxel_size, pc_range):
                super().__init__()
                rng = torch.tensor(pc_range)
                self.x_offset = voxel_size[0] / 2 + rng[0]
                self.lin = nn.Linear(3, 3)
            def forward(self, x):
                return self.lin(x) - self.x_offset
    """,
    "not a module": """
        import torch
        class Sampler:
            def __init__(self):
                self.weights = torch.ones(3)
            def draw(self, x: torch.Tensor):
                return x * self.weights
    """,
    # PyG's SchNet: `.item()` gives a Python float
    "a number from .item()": """
        import torch
        from torch import nn
        class ShiftedSoftplus(nn.Module):
            def __init__(self):
                super().__init__()
                self.shift = torch.log(torch.tensor(2.0)).item()
            def forward(self, x):
                return nn.functional.softplus(x) - self.shift
    """,
    # torchgeo's BYOL wrapper: an empty placeholder the forward hook replaces
    "an empty placeholder": """
        import torch
        from torch import nn
        class Wrapper(nn.Module):
            def __init__(self, model, projector):
                super().__init__()
                self.model = model
                self.projector = projector
                self._encoded = torch.empty(0)
                self.model.register_forward_hook(self._hook)
            def _hook(self, module, inputs, output):
                self._encoded = self.projector(output)
            def forward(self, x):
                self.model(x)
                return self._encoded * 1.0 + x
    """,
    # speechbrain's KeyValueAttention (review round 23): `torch.tensor(attn_dim)` is one number,
    # and its square root too: 0-dim, a Python scalar to type promotion
    "a 0-dim scale through a cast and a square root": """
        import torch
        from torch import nn
        class KeyValue(nn.Module):
            def __init__(self, attn_dim: int = 8):
                super().__init__()
                self.keys = nn.Linear(attn_dim, attn_dim)
                self.scaling = torch.sqrt(torch.tensor(attn_dim).float())
            def forward(self, x):
                return self.keys(x) / self.scaling
    """,
    # audiocraft's MultiBandProcessor (review round 22): the attribute holds the argument, a float
    # by default; the tensor made after it (on one branch) is not what was stored, and
    # `register_buffer` would raise on a float
    "a parameter converted after it is stored": """
        import typing as tp
        import torch
        from torch import nn
        class Bands(nn.Module):
            def __init__(self, n: int = 8, power_std: tp.Union[float, tp.List[float], torch.Tensor] = 1.0):
                super().__init__()
                self.power_std = power_std
                if isinstance(power_std, list):
                    power_std = torch.tensor(power_std)
                self.register_buffer("std", torch.ones(n))
            def forward(self, bands):
                return bands * self.std ** self.power_std
    """,
}


@pytest.mark.parametrize("code", NEGATIVES.values(), ids=NEGATIVES.keys())
def test_true_negatives(code: str) -> None:
    assert findings(code, select="DTL005") == []


def test_no_fix_when_assigned_twice_in_init() -> None:
    code = """
    import torch
    from torch import nn
    class M(nn.Module):
        def __init__(self, learn: bool):
            super().__init__()
            self.scale = None
            self.scale = torch.ones(3)
        def forward(self, x):
            return x * self.scale
    """
    assert findings(code) == [("DTL005", 7, 9)]
    assert fixed(code) == dedent(code)


def test_built_through_a_local_and_functional_calls() -> None:
    code = """
    import torch
    import torch.nn.functional as F
    from torch import nn

    class Encoding(nn.Module):
        def __init__(self, n: int, d: int):
            super().__init__()
            pe = torch.zeros(n, d)
            pe[:, 0::2] = torch.sin(torch.arange(n)[:, None] * 0.01)
            self.pe = pe.unsqueeze(0)
            self.bank = F.normalize(torch.randn(n, d), dim=-1)

        def forward(self, x):
            return (x + self.pe[:, : x.size(1)]) @ self.bank.t()
    """
    assert findings(code) == [("DTL005", 10, 9), ("DTL005", 11, 9)]


def test_mask_attribute_used_with_activations() -> None:
    code = """
    import torch
    from torch import nn

    class Causal(nn.Module):
        def __init__(self, n: int):
            super().__init__()
            self.causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
            self.proj = nn.Linear(n, n)

        def forward(self, x):
            att = self.proj(x)
            return torch.where(self.causal, att, torch.finfo(att.dtype).min)
    """
    assert findings(code) == [("DTL005", 7, 9)]


def test_numbers_from_a_local_tensor_are_not_tensor_attributes() -> None:
    code = """
    import torch
    from torch import nn
    class Down(nn.Module):
        def __init__(self):
            super().__init__()
            kernel = torch.tensor([1.0, 3.0, 3.0, 1.0])
            self.pad = kernel.shape[0] // 2 - 1
            self.taps = kernel.size(0)
            self.register_buffer("kernel", kernel)
        def forward(self, x):
            return x[..., self.pad :] * self.taps
    """
    assert findings(code) == []


def test_an_integer_table_attribute_is_no_finding() -> None:
    """openpoints' `SmoothCrossEntropy.reducing_list` (`torch.arange(n).long()` spliced with
    `cat`) maps labels through `gather`: `module.to(torch.bfloat16)` converts no integer tensor,
    so registering it changes nothing of its dtype."""
    code = """
        import torch
        import torch.nn.functional as F

        class SmoothCrossEntropy(torch.nn.Module):
            def __init__(self, num_classes: int, ignore_index: int) -> None:
                super().__init__()
                kept = torch.arange(0, num_classes).long()
                zero = torch.zeros((1,)).long()
                self.table = torch.cat([kept[:ignore_index], zero, kept[ignore_index:]], 0)

            def forward(self, pred: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
                return F.cross_entropy(pred, torch.gather(self.table, 0, gt))
    """
    assert findings(code) == []


def test_no_fix_where_the_other_plain_tensors_would_stay_behind() -> None:
    """speechbrain's Filterbank (review round 23, a broken safe fix): `f_central` is a plain
    tensor when frozen and an `nn.Parameter` otherwise, so no fix registers it; registering
    `all_freqs_mat` alone made `.cuda()` split the module across devices."""
    code = """
        import torch
        from torch import nn
        class Filterbank(nn.Module):
            def __init__(self, n: int = 4, freeze: bool = True):
                super().__init__()
                self.f_central = torch.linspace(0, 1, n)
                if not freeze:
                    self.f_central = nn.Parameter(self.f_central)
                self.all_freqs_mat = torch.linspace(0, 1, 8).repeat(n, 1)
            def forward(self, spectrogram):
                f_central_mat = self.f_central.repeat(8, 1).transpose(0, 1)
                fbank = self.all_freqs_mat - f_central_mat
                return spectrogram @ fbank.T
    """
    assert findings(code, select="DTL005") == [("DTL005", 9, 9)]
    assert fixed(code, select="DTL005") == dedent(code)
    assert messages(code, select="DTL005")[0].endswith(
        "register it as a buffer (with the plain tensors it is used with, which a fix cannot"
        " register)"
    )
