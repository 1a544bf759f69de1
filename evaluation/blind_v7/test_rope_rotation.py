# run-dtype: float32
import torch


def apply_rope(x: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    T, D = x.shape[-2:]
    inv = 1.0 / base ** (torch.arange(0, D, 2, device=x.device, dtype=x.dtype) / D)
    ang = torch.arange(T, device=x.device, dtype=x.dtype)[:, None] * inv[None]
    cos, sin = ang.cos(), ang.sin()
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).flatten(-2)


def test_rope_preserves_norm_and_relative_angle():
    torch.manual_seed(0)
    q = torch.randn(2, 4, 16, 32)  # lookalike: test builds float32 inputs
    k = torch.randn(2, 4, 16, 32)
    qr, kr = apply_rope(q), apply_rope(k)
    assert torch.allclose(qr.norm(dim=-1), q.norm(dim=-1), atol=1e-4)
    shift = torch.zeros(2, 4, 16, 32)
    shift[..., 3:, :] = 1.0
    same = apply_rope(torch.ones(1, 1, 8, 32))
    dots = (same[..., 1:, :] * same[..., :-1, :]).sum(-1)
    assert torch.allclose(dots, dots[..., :1].expand_as(dots), atol=1e-3)
    return qr.shape == kr.shape


def example():
    return test_rope_preserves_norm_and_relative_angle, ()
