import torch
import torch.nn as nn
import torch.nn.functional as F


class KeypointDescriptorSampler(nn.Module):
    """SuperPoint-style: sample descriptors at predicted keypoints (integer size vector)."""

    def __init__(self, ch: int = 16, num_kpts: int = 12):
        super().__init__()
        self.num_kpts = num_kpts
        self.kpt_head = nn.Linear(ch, num_kpts * 2)

    def forward(self, desc_map):
        B, C, H, W = desc_map.shape
        pooled = desc_map.mean(dim=(2, 3))
        kpts = self.kpt_head(pooled).sigmoid().view(B, self.num_kpts, 2)
        size = torch.tensor([W - 1, H - 1], device=desc_map.device)  # lookalike: int64 list literal
        coords = kpts * size
        grid = coords / size * 2 - 1
        desc = F.grid_sample(desc_map, grid[:, :, None], align_corners=True)[..., 0]
        return F.normalize(desc, dim=1), coords


def example():
    model = KeypointDescriptorSampler().to(torch.bfloat16)
    return model, (torch.randn(2, 16, 12, 16, dtype=torch.bfloat16),)
