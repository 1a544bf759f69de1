import torch
import torch.nn as nn


class KeypointLifter(nn.Module):
    """Predicts camera-space 3D keypoints and reprojects them with the batch intrinsics."""

    def __init__(self, backbone: nn.Module, feat_dim: int = 512, num_kp: int = 17):
        super().__init__()
        self.backbone = backbone
        self.num_kp = num_kp
        self.head = nn.Linear(feat_dim, num_kp * 3)

    def forward(self, batch):
        feats = self.backbone(batch["image"]).flatten(1)
        xyz = self.head(feats).view(-1, self.num_kp, 3)
        xyz = torch.cat([xyz[..., :2], xyz[..., 2:].exp()], dim=-1)
        K = batch["intrinsics"]
        uvw = torch.bmm(xyz, K.transpose(1, 2))  # expect: DTL002
        uv = uvw[..., :2] / uvw[..., 2:]
        return {"xyz": xyz, "uv": uv}
