import torch
from torch import nn


class FlowConfidenceFusion(nn.Module):
    """Keeps the new optical flow where it is confident, zero elsewhere, plus the propagated flow."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.flow_head = nn.Conv2d(dim, 2, 3, padding=1)
        self.conf_head = nn.Conv2d(dim, 1, 3, padding=1)

    def forward(self, feats, prev_flow):
        flow = self.flow_head(feats)
        conf = self.conf_head(feats).sigmoid()
        valid = conf > 0.5  # lookalike: bool mask
        B, _, H, W = flow.shape
        fused = torch.where(
            valid,
            flow,
            torch.zeros(B, 2, H, W, device=flow.device),  # expect: DTL001
        )
        return fused + (1 - conf) * prev_flow


def example():
    torch.manual_seed(0)
    model = FlowConfidenceFusion().to(torch.bfloat16)
    feats = torch.randn(2, 32, 12, 16, dtype=torch.bfloat16)
    prev_flow = torch.randn(2, 2, 12, 16, dtype=torch.bfloat16)
    return model, (feats, prev_flow)
