"""A generated tree of small runnable modules for timing and checking `dtypelint verify`.

`make_tree(folder, count)` writes `count` one-module files (`m000_<kind>.py`, ...), each with an
`example()`, cycling through KINDS: dtype hazards the linter finds and fixes, and look-alikes
that are fine (some inside `torch.autocast` regions). `EXPECTED[kind]` is the verdict a correct
harness gives. Used by benchmarks/verify_bench.py and tests/test_verify_sides.py.
"""

from __future__ import annotations

from pathlib import Path

_PRELUDE = "import numpy as np\nimport torch\nfrom torch import nn\n\n"

# kind -> module body (after the prelude). `{n}` makes sizes differ from module to module.
KINDS: dict[str, str] = {
    # --- hazards ---------------------------------------------------------------------------
    "factory_cat": """
class Lift(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(4, 8)

    def forward(self, points: torch.Tensor) -> torch.Tensor:
        ones = torch.ones(points.shape[0], points.shape[1], 1, device=points.device)
        return self.proj(torch.cat([points, ones], dim=-1))


def example(dtype=torch.float32):
    model = Lift().to(dtype)
    return model, (torch.randn(2, {n}, 3).to(dtype),)
""",
    "camera_matmul": """
def project(points: torch.Tensor, intrinsics: torch.Tensor) -> torch.Tensor:
    pixels = points @ intrinsics.transpose(-1, -2)
    return pixels[..., :2] / pixels[..., 2:].clamp(min=1e-3)


def example(dtype=torch.float32):
    intrinsics = torch.tensor([[100.0, 0.0, 16.0], [0.0, 100.0, 16.0], [0.0, 0.0, 1.0]])
    points = torch.rand(2, {n}, 3) + torch.tensor([0.0, 0.0, 1.0])
    return project, (points.to(dtype), intrinsics)
""",
    "zeros_buffer": """
def centers(boxes: torch.Tensor) -> torch.Tensor:
    out = torch.zeros(boxes.shape[0], 2, device=boxes.device)
    out[:, 0] = (boxes[:, 0] + boxes[:, 2]) / 2
    out[:, 1] = (boxes[:, 1] + boxes[:, 3]) / 2
    return out


def example(dtype=torch.float32):
    return centers, (torch.rand({n}, 4).to(dtype),)
""",
    "numpy_table": """
class Gamma(nn.Module):
    def forward(self, image: torch.Tensor) -> torch.Tensor:
        weights = torch.tensor(np.linspace(0.5, 1.5, image.shape[-1]), device=image.device)
        return image * weights


def example(dtype=torch.float32):
    return Gamma(), (torch.rand(2, {n}, 8).to(dtype),)
""",
    "one_sided_cast": """
class Attend(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.qkv = nn.Linear(16, 48)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1)
        weights = torch.softmax(scores.float(), dim=-1)
        weights = weights.half()  # "back to half": not the run's dtype in bf16
        return weights @ v


def example(dtype=torch.float32):
    return Attend().to(dtype), (torch.randn(2, {n}, 16).to(dtype),)
""",
    "autocast_buffer_cat": """
class PadFeatures(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            h = self.proj(x)
            pad = torch.zeros(h.shape[0], 2, device=h.device)
            return torch.cat([h, pad], dim=-1)


def example(dtype=torch.float32):
    return PadFeatures(), (torch.randn({n}, 8),)
""",
    # --- look-alikes that are fine -----------------------------------------------------------
    "autocast_matmul": """
def project(points: torch.Tensor, intrinsics: torch.Tensor) -> torch.Tensor:
    with torch.autocast("cpu", dtype=torch.bfloat16):
        return points @ intrinsics.transpose(-1, -2)


def example(dtype=torch.float32):
    intrinsics = torch.tensor([[100.0, 0.0, 16.0], [0.0, 100.0, 16.0], [0.0, 0.0, 1.0]])
    return project, (torch.rand(2, {n}, 3).to(dtype), intrinsics)
""",
    "cuda_autocast_projector": """
class Projector(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.xyz = nn.Linear(8, 3)

    @torch.autocast(device_type="cuda", dtype=torch.bfloat16)
    def forward(self, feats: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
        return self.xyz(feats) @ K.transpose(-1, -2)  # written for a GPU: autocast casts


def example(dtype=torch.float32):
    K = torch.tensor([[100.0, 0.0, 16.0], [0.0, 100.0, 16.0], [0.0, 0.0, 1.0]])
    return Projector().to(dtype), (torch.randn(2, {n}, 8).to(dtype), K)
""",
    "camera_cast": """
def project(points: torch.Tensor, intrinsics: torch.Tensor) -> torch.Tensor:
    pixels = points @ intrinsics.to(points.dtype).transpose(-1, -2)
    return pixels[..., :2]


def example(dtype=torch.float32):
    intrinsics = torch.tensor([[100.0, 0.0, 16.0], [0.0, 100.0, 16.0], [0.0, 0.0, 1.0]])
    return project, (torch.rand(2, {n}, 3).to(dtype), intrinsics)
""",
    "factory_with_dtype": """
def homogeneous(points: torch.Tensor) -> torch.Tensor:
    ones = torch.ones(*points.shape[:-1], 1, device=points.device, dtype=points.dtype)
    return torch.cat([points, ones], dim=-1)


def example(dtype=torch.float32):
    return homogeneous, (torch.randn(2, {n}, 3).to(dtype),)
""",
    "scalar_tensor": """
def scale(x: torch.Tensor) -> torch.Tensor:
    return x * torch.tensor(0.5) + torch.tensor(1.0)


def example(dtype=torch.float32):
    return scale, (torch.randn({n}, 4).to(dtype),)
""",
    "integer_index": """
def gather_rows(x: torch.Tensor) -> torch.Tensor:
    rows = torch.arange(0, x.shape[0], 2, device=x.device)
    return x[rows]


def example(dtype=torch.float32):
    return gather_rows, (torch.randn({n}, 4).to(dtype),)
""",
    "registered_buffer": """
class Normalize(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("mean", torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1))

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        return image - self.mean


def example(dtype=torch.float32):
    return Normalize().to(dtype), (torch.rand(2, 3, {n}, 4).to(dtype),)
""",
    "autocast_norm": """
class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.norm = nn.LayerNorm(8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            return self.norm(self.fc(x))


def example(dtype=torch.float32):
    return Block(), (torch.randn({n}, 8),)
""",
}

HAZARDS = frozenset(
    {
        "factory_cat",
        "camera_matmul",
        "zeros_buffer",
        "numpy_table",
        "one_sided_cast",
        "autocast_buffer_cat",
    }
)
EXPECTED = {kind: "confirmed" if kind in HAZARDS else "no-hazard" for kind in KINDS}


def make_tree(folder: Path, count: int) -> dict[str, str]:
    """Write `count` example modules and a pyproject.toml; return {file name: kind}."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text(
        '[project]\nname = "tree"\nversion = "0"\n\n[tool.dtypelint]\n'
    )
    kinds = list(KINDS)
    written = {}
    for index in range(count):
        kind = kinds[index % len(kinds)]
        name = f"m{index:03d}_{kind}.py"
        body = KINDS[kind].replace("{n}", str(4 + index % 5))
        (folder / name).write_text(_PRELUDE + body.lstrip("\n"))
        written[name] = kind
    return written
