import torch
from torch import nn


class VectorQuantizer(nn.Module):
    """VQ-VAE codebook (van den Oord et al.): nearest code by L2, straight-through estimator."""

    def __init__(self, n_e: int = 32, e_dim: int = 16, beta: float = 0.25) -> None:
        super().__init__()
        self.n_e, self.e_dim, self.beta = n_e, e_dim, beta
        self.embedding = nn.Embedding(n_e, e_dim)
        self.embedding.weight.data.uniform_(-1.0 / n_e, 1.0 / n_e)

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        z = z.permute(0, 2, 3, 1).contiguous()
        z_flat = z.view(-1, self.e_dim)
        d = (z_flat ** 2).sum(1, keepdim=True) + (self.embedding.weight ** 2).sum(1) - 2 * z_flat @ self.embedding.weight.t()
        idx = torch.argmin(d, dim=1).unsqueeze(1)
        encodings = torch.zeros(idx.shape[0], self.n_e, device=z.device)  # expect: DTL001
        encodings.scatter_(1, idx, 1)
        z_q = torch.matmul(encodings, self.embedding.weight).view(z.shape)
        z_q = z + (z_q - z).detach()
        return z_q.permute(0, 3, 1, 2).contiguous()


def example():
    torch.manual_seed(0)
    model = VectorQuantizer().to(torch.bfloat16)
    return model, (torch.randn(2, 16, 4, 4, dtype=torch.bfloat16),)
