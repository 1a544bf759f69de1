"""CLIP image tower stem with the OpenAI normalisation applied inside the model."""
import torch
import torch.nn as nn
import torch.nn.functional as F

OPENAI_CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)
OPENAI_CLIP_STD = (0.26862954, 0.26130258, 0.27577711)


class CLIPVisionStem(nn.Module):
    def __init__(self, width: int = 64, patch_size: int = 8, image_size: int = 32):
        super().__init__()
        self.mean = torch.tensor(OPENAI_CLIP_MEAN).view(1, 3, 1, 1)  # expect: DTL005
        self.std = torch.tensor(OPENAI_CLIP_STD).view(1, 3, 1, 1)  # expect: DTL005
        self.image_size = image_size
        self.conv1 = nn.Conv2d(3, width, kernel_size=patch_size, stride=patch_size, bias=False)
        scale = width**-0.5
        self.class_embedding = nn.Parameter(scale * torch.randn(width))
        self.positional_embedding = nn.Parameter(scale * torch.randn((image_size // patch_size) ** 2 + 1, width))
        self.ln_pre = nn.LayerNorm(width)

    def forward(self, pixel_values: torch.Tensor) -> torch.Tensor:
        x = F.interpolate(pixel_values, size=(self.image_size, self.image_size), mode="bicubic", align_corners=False)
        x = (x - self.mean) / self.std
        x = self.conv1(x).flatten(2).transpose(1, 2)
        cls = self.class_embedding.to(x.dtype) + torch.zeros(x.shape[0], 1, x.shape[-1], dtype=x.dtype, device=x.device)  # lookalike: dtype given
        x = torch.cat([cls, x], dim=1) + self.positional_embedding.to(x.dtype)
        return self.ln_pre(x)


def example():
    stem = CLIPVisionStem().to(torch.bfloat16)
    return stem, (torch.rand(2, 3, 40, 40, dtype=torch.bfloat16),)
