"""SuperGlue-style optimal transport with a learned dustbin score."""

import torch
import torch.nn as nn


def log_sinkhorn_iterations(Z, log_mu, log_nu, iters: int):
    u, v = torch.zeros_like(log_mu), torch.zeros_like(log_nu)
    for _ in range(iters):
        u = log_mu - torch.logsumexp(Z + v.unsqueeze(1), dim=2)
        v = log_nu - torch.logsumexp(Z + u.unsqueeze(2), dim=1)
    return Z + u.unsqueeze(2) + v.unsqueeze(1)


def log_optimal_transport(scores, alpha, iters: int):
    b, m, n = scores.shape
    one = scores.new_tensor(1)
    ms, ns = (m * one).to(scores), (n * one).to(scores)
    bins0 = alpha.expand(b, m, 1)
    bins1 = alpha.expand(b, 1, n)
    alpha = alpha.expand(b, 1, 1)
    couplings = torch.cat([torch.cat([scores, bins0], -1), torch.cat([bins1, alpha], -1)], 1)
    norm = -(ms + ns).log()
    log_mu = torch.cat([norm.expand(m), ns.log()[None] + norm])
    log_nu = torch.cat([norm.expand(n), ms.log()[None] + norm])
    log_mu, log_nu = log_mu[None].expand(b, -1), log_nu[None].expand(b, -1)
    Z = log_sinkhorn_iterations(couplings, log_mu, log_nu, iters)
    return Z - norm


class Matcher(nn.Module):
    def __init__(self, dim: int = 16, iters: int = 5):
        super().__init__()
        self.iters = iters
        self.proj = nn.Linear(dim, dim)
        self.bin_score = nn.Parameter(torch.tensor(1.0))

    def forward(self, d0, d1):
        scores = torch.einsum("bmd,bnd->bmn", self.proj(d0), self.proj(d1)) / d0.shape[-1] ** 0.5
        Z = log_optimal_transport(scores, self.bin_score, self.iters)
        max0, max1 = Z[:, :-1, :-1].max(2), Z[:, :-1, :-1].max(1)
        indices0, indices1 = max0.indices, max1.indices
        arange1 = torch.arange(indices0.shape[1], device=d0.device)[None]
        mutual0 = arange1 == indices1.gather(1, indices0)
        conf0 = torch.where(mutual0, max0.values.exp(), max0.values.new_tensor(0))
        return Z, indices0, conf0


def example():
    return Matcher().to(torch.bfloat16), (torch.randn(1, 5, 16, dtype=torch.bfloat16), torch.randn(1, 6, 16, dtype=torch.bfloat16))
