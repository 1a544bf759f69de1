import torch
from torch import nn


class ConditionDropout(nn.Module):
    """Classifier-free guidance training: replace the text/class condition by a null vector with prob p."""

    def __init__(self, cond_dim: int = 32, hidden: int = 64, p_uncond: float = 0.1) -> None:
        super().__init__()
        self.p_uncond = p_uncond
        self.cond_proj = nn.Linear(cond_dim, hidden)

    def forward(self, cond: torch.Tensor, force_drop: torch.Tensor) -> torch.Tensor:
        B, D = cond.shape
        drop = force_drop | (torch.rand(B, device=cond.device) < self.p_uncond)  # lookalike: rand meets a number, gives a bool mask
        null = torch.zeros(B, D, device=cond.device)  # expect: DTL001
        cond = torch.where(drop[:, None], null, cond)
        return self.cond_proj(cond)


def example():
    torch.manual_seed(0)
    model = ConditionDropout().to(torch.bfloat16)
    cond = torch.randn(4, 32, dtype=torch.bfloat16)
    force = torch.tensor([False, True, False, False])
    return model, (cond, force)
