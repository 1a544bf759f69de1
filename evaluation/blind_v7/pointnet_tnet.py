import torch
from torch import nn
import torch.nn.functional as F


class TNet(nn.Module):
    """PointNet input/feature transform: regress a k x k matrix initialised at the identity."""

    def __init__(self, k: int = 3) -> None:
        super().__init__()
        self.k = k
        self.conv1 = nn.Conv1d(k, 32, 1)
        self.conv2 = nn.Conv1d(32, 64, 1)
        self.fc1 = nn.Linear(64, 32)
        self.fc2 = nn.Linear(32, k * k)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B = x.size(0)
        h = F.relu(self.conv2(F.relu(self.conv1(x))))
        h = torch.max(h, 2)[0]
        h = self.fc2(F.relu(self.fc1(h)))
        iden = torch.eye(self.k, device=x.device).flatten().repeat(B, 1)  # expect: DTL001
        trans = (h + iden).view(B, self.k, self.k)
        return torch.bmm(x.transpose(2, 1), trans).transpose(2, 1)


def example():
    torch.manual_seed(0)
    model = TNet().to(torch.bfloat16)
    return model, (torch.randn(4, 3, 128, dtype=torch.bfloat16),)
