"""Feature matching with a dustbin and log-domain Sinkhorn iterations."""

import math

import torch
import torch.nn as nn


def log_sinkhorn(scores, log_mu, log_nu, iters: int):
    u, v = torch.zeros_like(log_mu), torch.zeros_like(log_nu)
    for _ in range(iters):
        u = log_mu - torch.logsumexp(scores + v[:, None, :], dim=2)
        v = log_nu - torch.logsumexp(scores + u[:, :, None], dim=1)
    return scores + u[:, :, None] + v[:, None, :]


class DustbinMatcher(nn.Module):
    def __init__(self, dim: int = 32, iters: int = 5):
        super().__init__()
        self.iters = iters
        self.proj = nn.Linear(dim, dim)
        self.bin_score = nn.Parameter(torch.tensor(1.0))

    def forward(self, desc0, desc1):
        """desc0: (B, M, D), desc1: (B, N, D) -> log assignment (B, M+1, N+1)."""
        B, M, D = desc0.shape
        N = desc1.shape[1]
        scores = torch.einsum("bmd,bnd->bmn", self.proj(desc0), self.proj(desc1)) / D ** 0.5
        bins0 = self.bin_score.expand(B, M, 1)
        bins1 = self.bin_score.expand(B, 1, N)
        alpha = self.bin_score.expand(B, 1, 1)
        couplings = torch.cat([torch.cat([scores, bins0], -1), torch.cat([bins1, alpha], -1)], 1)
        norm = -math.log(M + N)
        log_mu = torch.full((B, M + 1), norm, device=desc0.device)  # expect: DTL001
        log_nu = torch.full((B, N + 1), norm, device=desc0.device)  # expect: DTL001
        log_mu[:, -1] += math.log(N)
        log_nu[:, -1] += math.log(M)
        Z = log_sinkhorn(couplings, log_mu, log_nu, self.iters)
        return Z - norm


def example():
    matcher = DustbinMatcher().to(torch.bfloat16)
    return matcher, (torch.randn(2, 6, 32, dtype=torch.bfloat16), torch.randn(2, 7, 32, dtype=torch.bfloat16))
