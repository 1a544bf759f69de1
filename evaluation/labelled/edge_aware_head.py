import math

import torch
import torch.nn as nn

_SOBEL_X = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])  # lookalike: module level


def make_anchor_grid(h: int, w: int, stride: int) -> torch.Tensor:
    ys = torch.arange(h) * stride + stride // 2  # lookalike: not a tensor-taking function
    xs = torch.arange(w) * stride + stride // 2
    gy, gx = torch.meshgrid(ys, xs, indexing="ij")
    return torch.stack([gx, gy], dim=-1).reshape(-1, 2).float()


class EdgeAwareHead(nn.Module):
    def __init__(self, dim: int, stride: int = 8):
        super().__init__()
        self.stride = stride
        kernel = torch.stack([_SOBEL_X, _SOBEL_X.T]).unsqueeze(1)  # lookalike: __init__ takes no tensor
        self.edge = nn.Conv2d(1, 2, 3, padding=1, bias=False)
        self.edge.weight.data.copy_(kernel)
        self.offset = nn.Conv2d(dim + 2, 2, 1)
        self.gamma = nn.Parameter(torch.full((1, dim, 1, 1), 1e-2))  # lookalike: parameter
        nn.init.normal_(self.offset.weight, std=1.0 / math.sqrt(dim))

    def forward(self, feat, gray):
        edges = self.edge(gray)
        offsets = self.offset(torch.cat([feat * self.gamma, edges], dim=1))
        H, W = feat.shape[-2:]
        anchors = make_anchor_grid(H, W, self.stride).to(offsets)  # lookalike: helper result cast with .to(x)
        return anchors + offsets.flatten(2).transpose(1, 2) * self.stride
