import torch
import torch.nn as nn


class EpipolarCrossAttention(nn.Module):
    """Target tokens attend to source tokens, then predicted points are projected into the source view."""

    def __init__(self, dim: int = 256):
        super().__init__()
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.xyz = nn.Linear(dim, 3)

    def forward(self, tgt, src, intrinsics_src):
        Q = self.to_q(tgt)
        K = self.to_k(src)
        V = self.to_v(src)
        attn = torch.softmax(Q @ K.transpose(1, 2) / Q.shape[-1] ** 0.5, dim=-1)  # lookalike: attention keys named K
        out = attn @ V
        xyz = self.xyz(out)
        uvw = torch.matmul(xyz, intrinsics_src.transpose(1, 2))  # expect: DTL002
        return out, uvw[..., :2] / uvw[..., 2:].clamp(min=1e-4)
