import torch
from torch import nn


class FP32LogitAttention(nn.Module):
    """Attention whose logits and the camera-ray bias run in a deliberate float32 region."""

    def __init__(self, dim: int = 16):
        super().__init__()
        self.qk = nn.Linear(dim, 2 * dim)
        self.v = nn.Linear(dim, dim)
        self.ray_bias = nn.Linear(3, 1)

    def forward(self, x: torch.Tensor, rays: torch.Tensor, cam2world: torch.Tensor) -> torch.Tensor:
        q, k = self.qk(x).chunk(2, dim=-1)
        with torch.autocast(device_type=x.device.type, enabled=False):
            logits = q.float() @ k.float().transpose(-1, -2)  # lookalike: both operands cast, fixed-precision region
            dirs = rays.float() @ cam2world[:, :3, :3].float().transpose(-1, -2)  # lookalike: autocast(enabled=False) region
            cos = dirs @ dirs.transpose(-1, -2)
            attn = (logits * q.shape[-1] ** -0.5 + cos).softmax(dim=-1)
        attn = attn.to(x.dtype)  # lookalike: cast back before meeting activations
        return attn @ self.v(x) + self.ray_bias(dirs.to(x.dtype))


def example():
    torch.manual_seed(0)
    model = FP32LogitAttention().to(torch.bfloat16)
    x = torch.randn(2, 6, 16).to(torch.bfloat16)
    rays = torch.nn.functional.normalize(torch.randn(2, 6, 3), dim=-1).to(torch.bfloat16)
    cam2world = torch.eye(4).repeat(2, 1, 1)
    return model, (x, rays, cam2world)
