import torch
import torch.nn.functional as F


def build_concat_volume(left, right, max_disp: int):
    """GC-Net concatenation volume (B, 2C, D, H, W) from left/right feature maps."""
    B, C, H, W = left.shape
    volume = left.new_zeros(B, 2 * C, max_disp, H, W)  # lookalike: new_zeros follows the features
    for d in range(max_disp):
        if d > 0:
            volume[:, :C, d, :, d:] = left[..., d:]
            volume[:, C:, d, :, d:] = right[..., :-d]
        else:
            volume[:, :C, d] = left
            volume[:, C:, d] = right
    return volume


def soft_argmin(cost, disp_values):
    """Expected disparity under softmax(-cost) over the candidate disparities."""
    prob = F.softmax(-cost, dim=1)
    return (prob * disp_values.view(1, -1, 1, 1)).sum(dim=1, keepdim=True)


def example():
    torch.manual_seed(0)
    cost = torch.randn(2, 8, 6, 10, dtype=torch.bfloat16)
    disp_values = torch.arange(8, dtype=torch.bfloat16)
    return soft_argmin, (cost, disp_values)
