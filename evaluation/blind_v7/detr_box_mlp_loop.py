import torch
from torch import nn
import torch.nn.functional as F


class BoxRefineMLP(nn.Module):
    """Deformable-DETR box refinement: an MLP on decoder states plus the inverse-sigmoid reference."""

    def __init__(self, dim: int = 32, hidden: int = 32, num_layers: int = 3) -> None:
        super().__init__()
        h = [hidden] * (num_layers - 1)
        self.layers = nn.ModuleList(nn.Linear(n, k) for n, k in zip([dim] + h, h + [4]))

    def forward(self, hs: torch.Tensor, reference: torch.Tensor) -> torch.Tensor:
        x = hs.float()  # expect: DTL003
        for i, layer in enumerate(self.layers):
            x = F.relu(layer(x)) if i < len(self.layers) - 1 else layer(x)
        ref = reference.clamp(1e-5, 1 - 1e-5)
        return (x + torch.log(ref / (1 - ref))).sigmoid()


def example():
    torch.manual_seed(0)
    model = BoxRefineMLP().to(torch.bfloat16)
    hs = torch.randn(2, 10, 32, dtype=torch.bfloat16)
    ref = torch.rand(2, 10, 4, dtype=torch.bfloat16)
    return model, (hs, ref)
