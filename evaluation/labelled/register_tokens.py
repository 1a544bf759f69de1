import torch
import torch.nn as nn


class RegisterTokens(nn.Module):
    def __init__(self, dim: int, num_reg: int = 4):
        super().__init__()
        self.num_reg = num_reg
        self.reg = nn.Parameter(torch.zeros(1, num_reg, dim))  # lookalike: parameter

    def forward(self, x):
        B, N, C = x.shape
        out = torch.empty(B, self.num_reg + N, C, device=x.device)  # expect: DTL001
        out[:, : self.num_reg] = self.reg.expand(B, -1, -1)
        out[:, self.num_reg :] = x
        return out

    def prepend(self, x):
        reg = self.reg.expand(x.shape[0], -1, -1).to(x.dtype)  # lookalike: cast to the activation dtype
        return torch.cat([reg, x], dim=1)

    def strip(self, x):
        return x[:, self.num_reg :]
