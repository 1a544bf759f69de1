import torch
import torch.nn.functional as F
from torch import nn


def sample_keypoint_features(feat: torch.Tensor, uv: torch.Tensor) -> torch.Tensor:
    """Bilinearly sample (B, C, H, W) features at pixel positions uv (B, N, 2)."""
    H, W = feat.shape[-2:]
    scale = torch.tensor([(W - 1) / 2, (H - 1) / 2], device=uv.device)  # expect: DTL001
    grid = uv / scale - 1.0
    sampled = F.grid_sample(feat, grid[:, :, None, :], align_corners=True)
    return sampled.squeeze(-1).transpose(1, 2)


class KeypointRefiner(nn.Module):
    def __init__(self, ch: int = 8, n_kpts: int = 6):
        super().__init__()
        self.n_kpts = n_kpts
        self.backbone = nn.Conv2d(3, ch, 3, padding=1)
        self.kp = nn.Linear(ch, n_kpts * 2)
        self.refine = nn.Linear(ch, 2)

    def forward(self, img: torch.Tensor) -> torch.Tensor:
        feat = torch.relu(self.backbone(img))
        H, W = feat.shape[-2:]
        uv = self.kp(feat.mean(dim=(2, 3))).view(-1, self.n_kpts, 2).sigmoid()
        uv = uv * uv.new_tensor([W - 1, H - 1])  # lookalike: new_tensor takes uv's dtype
        return uv + self.refine(sample_keypoint_features(feat, uv))


def example():
    torch.manual_seed(0)
    model = KeypointRefiner().to(torch.bfloat16)
    img = torch.randn(2, 3, 16, 20).to(torch.bfloat16)
    return model, (img,)
