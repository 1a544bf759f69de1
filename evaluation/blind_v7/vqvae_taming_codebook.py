import torch
from torch import nn


class TamingQuantizer(nn.Module):
    """taming-transformers VectorQuantizer: one-hot encodings cast to z right after creation."""

    def __init__(self, n_e: int = 32, e_dim: int = 8, beta: float = 0.25) -> None:
        super().__init__()
        self.n_e, self.e_dim, self.beta = n_e, e_dim, beta
        self.embedding = nn.Embedding(n_e, e_dim)
        self.embedding.weight.data.uniform_(-1.0 / n_e, 1.0 / n_e)

    def forward(self, z: torch.Tensor):
        z = z.permute(0, 2, 3, 1).contiguous()
        z_flattened = z.view(-1, self.e_dim)
        d = torch.sum(z_flattened ** 2, dim=1, keepdim=True) + torch.sum(self.embedding.weight ** 2, dim=1) - 2 * torch.matmul(
            z_flattened, self.embedding.weight.t()
        )
        min_encoding_indices = torch.argmin(d, dim=1).unsqueeze(1)
        min_encodings = torch.zeros(min_encoding_indices.shape[0], self.n_e).to(z)  # lookalike: cast right after creation
        min_encodings.scatter_(1, min_encoding_indices, 1)
        z_q = torch.matmul(min_encodings, self.embedding.weight).view(z.shape)
        loss = torch.mean((z_q.detach() - z) ** 2) + self.beta * torch.mean((z_q - z.detach()) ** 2)
        z_q = z + (z_q - z).detach()
        e_mean = torch.mean(min_encodings, dim=0)
        perplexity = torch.exp(-torch.sum(e_mean * torch.log(e_mean + 1e-10)))
        return z_q.permute(0, 3, 1, 2).contiguous(), loss, perplexity


def example():
    torch.manual_seed(0)
    model = TamingQuantizer().to(torch.bfloat16)
    return model, (torch.randn(2, 8, 4, 4, dtype=torch.bfloat16),)
