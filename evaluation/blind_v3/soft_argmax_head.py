import torch
from torch import nn


def soft_argmax_2d(heatmaps: torch.Tensor, beta: float = 10.0) -> torch.Tensor:
    """Differentiable keypoint locations (x, y) in pixels from (B, J, H, W) heatmaps."""
    B, J, H, W = heatmaps.shape
    prob = torch.softmax(heatmaps.flatten(2) * beta, dim=-1).view(B, J, H, W)
    xs = torch.linspace(0, W - 1, W, device=heatmaps.device)  # expect: DTL001
    ys = torch.arange(H, device=heatmaps.device)  # lookalike: integer arange in an elementwise product keeps bf16
    x = (prob.sum(dim=2) * xs).sum(dim=-1)
    y = (prob.sum(dim=3) * ys).sum(dim=-1)
    return torch.stack([x, y], dim=-1)


class KeypointHead(nn.Module):
    def __init__(self, in_ch: int = 8, n_joints: int = 5):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(in_ch, in_ch, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(in_ch, n_joints, 1),
        )

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        return soft_argmax_2d(self.conv(feats))


def example():
    torch.manual_seed(0)
    model = KeypointHead().to(torch.bfloat16)
    feats = torch.randn(2, 8, 16, 24).to(torch.bfloat16)
    return model, (feats,)
