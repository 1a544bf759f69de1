import numpy as np
import torch
from torch import nn


class BEVPointSampling(nn.Module):
    """BEVFormer point_sampling: lidar2img from img_metas via new_tensor, projection done in float32 on
    both operands, results cast back to the query dtype."""

    def __init__(self, pc_range=(-20.0, -20.0, -3.0, 20.0, 20.0, 3.0)) -> None:
        super().__init__()
        self.pc_range = pc_range

    def forward(self, reference_points: torch.Tensor, img_metas: list) -> torch.Tensor:
        lidar2img = np.asarray([m["lidar2img"] for m in img_metas])
        lidar2img = reference_points.new_tensor(lidar2img)  # lookalike: new_tensor takes the activation dtype
        pc = self.pc_range
        ref = reference_points.clone()
        ref[..., 0:1] = ref[..., 0:1] * (pc[3] - pc[0]) + pc[0]
        ref[..., 1:2] = ref[..., 1:2] * (pc[4] - pc[1]) + pc[1]
        ref[..., 2:3] = ref[..., 2:3] * (pc[5] - pc[2]) + pc[2]
        ref = torch.cat((ref, torch.ones_like(ref[..., :1])), -1)
        B, Q = ref.shape[:2]
        N = lidar2img.shape[1]
        ref = ref.view(B, 1, Q, 4, 1).repeat(1, N, 1, 1, 1)
        l2i = lidar2img.view(B, N, 1, 4, 4).repeat(1, 1, Q, 1, 1)
        cam = torch.matmul(l2i.to(torch.float32), ref.to(torch.float32)).squeeze(-1)  # lookalike: both operands cast together
        eps = 1e-5
        uv = cam[..., 0:2] / torch.maximum(cam[..., 2:3], torch.ones_like(cam[..., 2:3]) * eps)
        return uv.type_as(reference_points)  # lookalike: cast back


def example():
    torch.manual_seed(0)
    model = BEVPointSampling().to(torch.bfloat16)
    l2i = np.tile(np.eye(4), (2, 1, 1))
    l2i[:, 2, 3] = 25.0
    metas = [{"lidar2img": l2i}, {"lidar2img": l2i}]
    return model, (torch.rand(2, 10, 3, dtype=torch.bfloat16), metas)
