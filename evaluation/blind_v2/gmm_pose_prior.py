"""Gaussian-mixture pose prior (SMPLify) as a training regularizer.

Means and precisions are fitted offline and stored as NumPy arrays.
"""

import numpy as np
import torch
import torch.nn as nn


class MaxMixturePrior(nn.Module):
    def __init__(self, num_gaussians: int = 4, pose_dim: int = 12, seed: int = 0):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.means = rng.normal(size=(num_gaussians, pose_dim)) * 0.1
        A = rng.normal(size=(num_gaussians, pose_dim, pose_dim))
        self.precisions = A @ A.transpose(0, 2, 1) / pose_dim + np.eye(pose_dim)
        self.nll_weights = np.log(rng.random(num_gaussians) + 1.0)

    def forward(self, body_pose):
        """body_pose: (B, pose_dim) axis-angle pose predicted by the regressor."""
        diff = body_pose[:, None, :] - torch.from_numpy(self.means)  # expect: DTL004
        precisions = torch.as_tensor(self.precisions, dtype=body_pose.dtype)
        quad = torch.einsum("bmi,mij,bmj->bm", diff, precisions, diff)
        nll = 0.5 * quad + torch.from_numpy(self.nll_weights)  # expect: DTL004
        return nll.min(dim=1).values.mean()


def example():
    prior = MaxMixturePrior()
    body_pose = torch.randn(3, 12, dtype=torch.bfloat16) * 0.2
    return prior, (body_pose,)
