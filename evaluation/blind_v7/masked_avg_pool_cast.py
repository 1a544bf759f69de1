import torch
from torch import nn


class MaskedAveragePooling(nn.Module):
    """Few-shot segmentation prototype (PANet/PFENet): masked average of support features, mask cast to x.dtype."""

    def __init__(self, in_channels: int = 16, dim: int = 16) -> None:
        super().__init__()
        self.reduce = nn.Conv2d(in_channels, dim, 1)

    def forward(self, support_feat: torch.Tensor, support_mask: torch.Tensor, query_feat: torch.Tensor) -> torch.Tensor:
        x = self.reduce(support_feat)
        m = nn.functional.interpolate(support_mask[:, None].float(), size=x.shape[-2:], mode="nearest")
        m = m.to(x.dtype)  # lookalike: mask cast with .to(x.dtype)
        proto = (x * m).sum(dim=(2, 3)) / m.sum(dim=(2, 3)).clamp(min=1e-5)
        q = self.reduce(query_feat)
        return nn.functional.cosine_similarity(q, proto[..., None, None], dim=1) * 20


def example():
    torch.manual_seed(0)
    model = MaskedAveragePooling().to(torch.bfloat16)
    sf = torch.randn(2, 16, 8, 8, dtype=torch.bfloat16)
    mask = torch.rand(2, 32, 32) > 0.5
    qf = torch.randn(2, 16, 8, 8, dtype=torch.bfloat16)
    return model, (sf, mask, qf)
