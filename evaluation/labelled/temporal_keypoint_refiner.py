import numpy as np
import torch
import torch.nn as nn


class TemporalKeypointRefiner(nn.Module):
    """Residual refinement against a moving-average track computed in NumPy."""

    def __init__(self, num_kp: int = 17, window: int = 5):
        super().__init__()
        self.window = window
        self.refine = nn.Linear(num_kp * 2, num_kp * 2)

    def forward(self, kp_seq):
        T, J, _ = kp_seq.shape
        track = kp_seq.detach().float().cpu().numpy()
        kernel = np.ones(self.window) / self.window
        smoothed = np.stack(
            [np.convolve(track[:, j, d], kernel, mode="same") for j in range(J) for d in range(2)],
            axis=-1,
        )
        smoothed_t = torch.from_numpy(smoothed).to(kp_seq.device).view(T, J, 2)  # expect: DTL004
        residual = (kp_seq - smoothed_t).flatten(1)
        return smoothed_t + self.refine(residual).view(T, J, 2)
