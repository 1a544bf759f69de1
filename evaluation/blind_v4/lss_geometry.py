import torch
import torch.nn as nn


class LiftSplatGeometry(nn.Module):
    """Lift-Splat-Shoot frustum -> ego-frame points, with a learned depth refinement."""

    def __init__(self, D: int = 4, H: int = 4, W: int = 6):
        super().__init__()
        ds = torch.linspace(2.0, 10.0, D).view(D, 1, 1).expand(D, H, W)
        xs = torch.linspace(0, 63, W).view(1, 1, W).expand(D, H, W)
        ys = torch.linspace(0, 47, H).view(1, H, 1).expand(D, H, W)
        self.register_buffer("frustum", torch.stack((xs, ys, ds), -1), persistent=False)  # lookalike: buffer
        self.depth_refine = nn.Linear(3, 3)

    def forward(self, rots, trans, intrins):
        B, N = trans.shape[:2]
        points = self.frustum + 0.1 * self.depth_refine(self.frustum).tanh()
        points = points[None, None].expand(B, N, -1, -1, -1, -1)
        points = torch.cat((points[..., :2] * points[..., 2:3], points[..., 2:3]), -1)
        combine = rots.matmul(torch.inverse(intrins))
        points = combine.view(B, N, 1, 1, 1, 3, 3).matmul(  # expect: DTL002
            points.unsqueeze(-1)
        ).squeeze(-1)
        points = points + trans.view(B, N, 1, 1, 1, 3).to(points.dtype)  # lookalike: translation cast
        return points


def example():
    model = LiftSplatGeometry().to(torch.bfloat16)
    B, N = 1, 2
    rots = torch.eye(3).expand(B, N, 3, 3).contiguous()
    trans = torch.tensor([[[1.5, 0.0, 1.6], [1.0, 0.5, 1.6]]])
    intrins = torch.tensor([[40.0, 0, 32], [0, 40.0, 24], [0, 0, 1]]).expand(B, N, 3, 3).contiguous()
    return model, (rots, trans, intrins)
