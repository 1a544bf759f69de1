import torch
import torch.nn as nn


def window_partition(x, window_size: int):
    B, H, W, C = x.shape
    x = x.view(B, H // window_size, window_size, W // window_size, window_size, C)
    return x.permute(0, 1, 3, 2, 4, 5).reshape(-1, window_size * window_size, C)


class ShiftedWindowAttention(nn.Module):
    def __init__(self, dim: int = 32, window_size: int = 4, shift: int = 2):
        super().__init__()
        self.ws, self.shift = window_size, shift
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        self.scale = dim ** -0.5

    def forward(self, x):
        B, H, W, C = x.shape
        img_mask = torch.zeros((1, H, W, 1), device=x.device)  # expect: DTL001
        cnt = 0
        spans = (slice(0, -self.ws), slice(-self.ws, -self.shift), slice(-self.shift, None))
        for hs in spans:
            for ws in spans:
                img_mask[:, hs, ws, :] = cnt
                cnt += 1
        mask_windows = window_partition(img_mask, self.ws).squeeze(-1)
        attn_mask = mask_windows.unsqueeze(1) - mask_windows.unsqueeze(2)
        attn_mask = attn_mask.masked_fill(attn_mask != 0, -100.0).masked_fill(attn_mask == 0, 0.0)
        shifted = torch.roll(x, shifts=(-self.shift, -self.shift), dims=(1, 2))
        q, k, v = self.qkv(window_partition(shifted, self.ws)).chunk(3, dim=-1)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.view(B, -1, *attn.shape[1:]) + attn_mask.unsqueeze(0)
        out = attn.softmax(-1).flatten(0, 1) @ v
        return self.proj(out).view(B, -1, C)


def example():
    model = ShiftedWindowAttention().to(torch.bfloat16)
    return model, (torch.randn(2, 8, 8, 32, dtype=torch.bfloat16),)
