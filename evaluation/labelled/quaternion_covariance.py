import torch
import torch.nn.functional as F


def quaternion_to_rotation(q: torch.Tensor) -> torch.Tensor:
    q = F.normalize(q, dim=-1)
    r, x, y, z = q.unbind(-1)
    R = torch.stack(
        [
            1 - 2 * (y * y + z * z), 2 * (x * y - r * z), 2 * (x * z + r * y),
            2 * (x * y + r * z), 1 - 2 * (x * x + z * z), 2 * (y * z - r * x),
            2 * (x * z - r * y), 2 * (y * z + r * x), 1 - 2 * (x * x + y * y),
        ],
        dim=-1,
    )
    return R.view(*q.shape[:-1], 3, 3)


def build_covariance(scales: torch.Tensor, rotations: torch.Tensor) -> torch.Tensor:
    S = torch.diag_embed(scales)  # lookalike: built from activations, no factory
    M = quaternion_to_rotation(rotations) @ S
    return M @ M.transpose(-1, -2)


def strip_symmetric(cov: torch.Tensor) -> torch.Tensor:
    out = cov.new_zeros(cov.shape[0], 6)  # lookalike: new_*
    idx = torch.tensor([[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]], device=cov.device)  # lookalike: integer index tensor
    out[:] = cov[:, idx[:, 0], idx[:, 1]]
    return out
