"""Point-cloud registration: apply the known sensor pose, then refine with a predicted flow."""

import torch
import torch.nn as nn


class RegistrationHead(nn.Module):
    def __init__(self, dim: int = 16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(3, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.flow = nn.Linear(2 * dim, 3)

    def to_reference_frame(self, points, rotation, translation):
        """points: (B, N, 3); rotation: (B, 3, 3); translation: (B, 3) sensor-to-reference pose."""
        out = torch.matmul(points, rotation.transpose(1, 2))  # expect: DTL002
        return out + translation.unsqueeze(1)  # expect: DTL002

    def forward(self, src, tgt, rot, trans):
        """src/tgt: (B, N, 3) point clouds; rot/trans: pose of the source sensor."""
        src_ref = torch.einsum("bij,bnj->bni", rot, src) + trans[:, None]  # expect: DTL002
        tgt_feat = self.encoder(tgt).max(dim=1, keepdim=True).values
        src_feat = self.encoder(src_ref)
        flow = self.flow(torch.cat([src_feat, tgt_feat.expand_as(src_feat)], dim=-1))
        return src_ref + flow


class MultiSweepAccumulator(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = RegistrationHead()

    def forward(self, sweeps, rotation, translation):
        aligned = [self.head.to_reference_frame(s, r, t) for s, r, t in zip(sweeps, rotation, translation)]
        return torch.cat(aligned, dim=1)


def example():
    B, N = 2, 20
    head = RegistrationHead().to(torch.bfloat16)
    src = torch.randn(B, N, 3, dtype=torch.bfloat16)
    tgt = torch.randn(B, N, 3, dtype=torch.bfloat16)
    rot = torch.eye(3).expand(B, 3, 3)
    trans = torch.tensor([0.5, 0.0, 0.1]).expand(B, 3)
    return head, (src, tgt, rot, trans)


def example_sweeps():
    B, N = 2, 10
    acc = MultiSweepAccumulator().to(torch.bfloat16)
    sweeps = [torch.randn(B, N, 3, dtype=torch.bfloat16) for _ in range(3)]
    rotation = [torch.eye(3).expand(B, 3, 3) for _ in range(3)]
    translation = [torch.randn(B, 3) for _ in range(3)]
    return acc, (sweeps, rotation, translation)
