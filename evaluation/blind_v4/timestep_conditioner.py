import torch
import torch.nn as nn


class TimestepConditioner(nn.Module):
    """Adds a learned timestep embedding to a UNet feature map."""

    def __init__(self, num_steps: int = 1000, dim: int = 32):
        super().__init__()
        self.embed = nn.Embedding(num_steps, dim)
        self.time_proj = nn.Linear(dim, dim)
        self.act = nn.SiLU()

    def forward(self, x, timesteps):
        t_emb = self.embed(timesteps)
        t_emb = self.time_proj(t_emb.float())  # expect: DTL003
        return x + self.act(t_emb)[:, :, None, None]


def example():
    model = TimestepConditioner().to(torch.bfloat16)
    return model, (torch.randn(2, 32, 8, 8, dtype=torch.bfloat16), torch.randint(0, 1000, (2,)))
