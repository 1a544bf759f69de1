import numpy as np
import torch
from torch import nn


class JointRegressor(nn.Module):
    """Regresses body joints from predicted mesh vertices with a fixed sparse regressor."""

    def __init__(self, j_regressor: np.ndarray, feat_dim: int = 16, n_betas: int = 10):
        super().__init__()
        self.J_regressor = np.asarray(j_regressor, dtype=np.float64)
        self.n_verts = j_regressor.shape[1]
        self.shape_head = nn.Linear(feat_dim, n_betas)
        self.blend = nn.Linear(n_betas, self.n_verts * 3)

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        betas = self.shape_head(feats)
        verts = self.blend(betas).view(feats.shape[0], self.n_verts, 3)
        J = torch.from_numpy(self.J_regressor)  # expect: DTL004
        return torch.einsum("jv,bvc->bjc", J, verts)


def example():
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    j_reg = rng.random((5, 20))
    j_reg /= j_reg.sum(axis=1, keepdims=True)
    model = JointRegressor(j_reg).to(torch.bfloat16)
    feats = torch.randn(3, 16).to(torch.bfloat16)
    return model, (feats,)
