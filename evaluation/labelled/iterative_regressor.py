import numpy as np
import torch
import torch.nn as nn


def _load_mean_params(path: str = "smpl_mean_params.npz") -> torch.Tensor:
    data = np.load(path)
    return torch.from_numpy(np.concatenate([data["theta"], data["betas"], data["cam_t"]]))  # lookalike: no tensor parameter here


class IterativeRegressor(nn.Module):
    """HMR-style iterative error feedback starting from the mean parameters."""

    def __init__(self, dim: int = 2048, n_params: int = 85, n_iter: int = 3):
        super().__init__()
        self.n_iter = n_iter
        self.fc = nn.Sequential(nn.Linear(dim + n_params, 1024), nn.ReLU(), nn.Linear(1024, n_params))

    def forward(self, feat):
        init = _load_mean_params().to(feat.device)  # expect: DTL004
        theta = init.unsqueeze(0).expand(feat.shape[0], -1)
        for _ in range(self.n_iter):
            theta = theta + self.fc(torch.cat([feat, theta], dim=1))
        return theta
