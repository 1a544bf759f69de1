"""Shifted-window attention mask built in forward for the padded input size (mmdet's Swin backbone)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def window_partition(x: torch.Tensor, window_size: int) -> torch.Tensor:
    B, H, W, C = x.shape
    x = x.view(B, H // window_size, window_size, W // window_size, window_size, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, window_size, window_size, C)


class ShiftedWindowMSA(nn.Module):
    def __init__(self, dim: int = 32, num_heads: int = 2, window_size: int = 4, shift_size: int = 2):
        super().__init__()
        self.num_heads, self.window_size, self.shift_size = num_heads, window_size, shift_size
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        self.scale = (dim // num_heads) ** -0.5

    def forward(self, x: torch.Tensor, hw_shape):
        B, L, C = x.shape
        H, W = hw_shape
        ws, ss = self.window_size, self.shift_size
        x = x.view(B, H, W, C)
        x = torch.roll(x, shifts=(-ss, -ss), dims=(1, 2))
        img_mask = torch.zeros((1, H, W, 1), device=x.device)  # expect: DTL001
        cnt = 0
        for h in (slice(0, -ws), slice(-ws, -ss), slice(-ss, None)):
            for w in (slice(0, -ws), slice(-ws, -ss), slice(-ss, None)):
                img_mask[:, h, w, :] = cnt
                cnt += 1
        mask_windows = window_partition(img_mask, ws).view(-1, ws * ws)
        attn_mask = mask_windows.unsqueeze(1) - mask_windows.unsqueeze(2)
        attn_mask = attn_mask.masked_fill(attn_mask != 0, float(-100.0)).masked_fill(attn_mask == 0, float(0.0))
        windows = window_partition(x, ws).view(-1, ws * ws, C)
        nW = windows.shape[0] // B
        qkv = self.qkv(windows).reshape(-1, ws * ws, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q * self.scale) @ k.transpose(-2, -1)
        attn = attn.view(B, nW, self.num_heads, ws * ws, ws * ws) + attn_mask.unsqueeze(1).unsqueeze(0)
        attn = F.softmax(attn.view(-1, self.num_heads, ws * ws, ws * ws), dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(-1, ws, ws, C)
        out = out.view(B, H // ws, W // ws, ws, ws, C).permute(0, 1, 3, 2, 4, 5).reshape(B, H, W, C)
        out = torch.roll(out, shifts=(ss, ss), dims=(1, 2))
        return self.proj(out.view(B, L, C))


def example():
    msa = ShiftedWindowMSA().to(torch.bfloat16)
    return msa, (torch.randn(2, 64, 32, dtype=torch.bfloat16), (8, 8))
