import torch
import torch.nn as nn


class BatchIntrinsicsReprojector(nn.Module):
    """Reprojects predicted camera-frame joints with the batch's intrinsics, cast with type_as."""

    def __init__(self, dim: int = 32, num_joints: int = 17):
        super().__init__()
        self.num_joints = num_joints
        self.head = nn.Linear(dim, num_joints * 3)

    def forward(self, feats, batch: dict):
        B = feats.shape[0]
        j = self.head(feats).view(B, self.num_joints, 3)
        joints = torch.cat([j[..., :2], j[..., 2:].abs() + 2.0], dim=-1)
        K = batch["intrinsics"].type_as(feats)  # lookalike: camera cast
        proj = torch.bmm(joints, K.transpose(1, 2))
        return proj[..., :2] / proj[..., 2:]


def example():
    model = BatchIntrinsicsReprojector().to(torch.bfloat16)
    K = torch.tensor([[300.0, 0, 128], [0, 300.0, 128], [0, 0, 1]]).expand(2, 3, 3).contiguous()
    return model, (torch.randn(2, 32, dtype=torch.bfloat16), {"intrinsics": K})
