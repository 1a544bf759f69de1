"""Video transformer stem: uniform temporal sampling by index and learned frame embeddings."""
import torch
import torch.nn as nn


class TemporalStem(nn.Module):
    def __init__(self, dim: int = 32, num_frames: int = 8, max_frames: int = 64):
        super().__init__()
        self.num_frames = num_frames
        self.patch = nn.Conv3d(3, dim, (1, 4, 4), stride=(1, 4, 4))
        self.temporal_embed = nn.Embedding(max_frames, dim)

    def forward(self, video: torch.Tensor) -> torch.Tensor:
        """video: (B, C, T, H, W)"""
        T = video.shape[2]
        idx = torch.linspace(0, T - 1, self.num_frames, device=video.device).round().long()  # lookalike: index math, rounded right away
        clip = video.index_select(2, idx)
        x = self.patch(clip).flatten(3).permute(0, 2, 3, 1)  # (B, T', N, C)
        frame_ids = torch.arange(self.num_frames, device=video.device)  # lookalike: index arange
        x = x + self.temporal_embed(frame_ids)[None, :, None]
        return x.mean(dim=2)


def example():
    m = TemporalStem().to(torch.bfloat16)
    return m, (torch.randn(2, 3, 20, 16, 16, dtype=torch.bfloat16),)
