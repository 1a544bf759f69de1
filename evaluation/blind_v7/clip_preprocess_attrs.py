import torch
from torch import nn
import torch.nn.functional as F

OPENAI_CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)
OPENAI_CLIP_STD = (0.26862954, 0.26130258, 0.27577711)


class ClipImageTower(nn.Module):
    """CLIP-style image tower that normalises raw [0, 1] pixels itself."""

    def __init__(self, width: int = 32, patch: int = 8, embed_dim: int = 16) -> None:
        super().__init__()
        self.pixel_mean = torch.tensor(OPENAI_CLIP_MEAN).view(1, 3, 1, 1)  # expect: DTL005
        self.pixel_std = torch.tensor(OPENAI_CLIP_STD).view(1, 3, 1, 1)  # expect: DTL005
        self.conv1 = nn.Conv2d(3, width, patch, stride=patch, bias=False)
        self.ln_post = nn.LayerNorm(width)
        self.proj = nn.Parameter(width ** -0.5 * torch.randn(width, embed_dim))

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        x = (pixels - self.pixel_mean) / self.pixel_std
        x = self.conv1(x).flatten(2).mean(-1)
        return F.normalize(self.ln_post(x) @ self.proj, dim=-1)


def example():
    torch.manual_seed(0)
    model = ClipImageTower().to(torch.bfloat16)
    return model, (torch.rand(2, 3, 32, 32, dtype=torch.bfloat16),)
