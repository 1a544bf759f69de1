"""Self-check of the pinhole projection conventions on a synthetic float32 scene (run in CI)."""

import math

import torch


def make_synthetic_scene(num_points: int = 32, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    points = torch.rand(num_points, 3, generator=g) * 2 - 1
    K = torch.tensor([[500.0, 0.0, 320.0], [0.0, 500.0, 240.0], [0.0, 0.0, 1.0]])
    angle = math.radians(10.0)
    R = torch.tensor([[math.cos(angle), 0.0, math.sin(angle)], [0.0, 1.0, 0.0], [-math.sin(angle), 0.0, math.cos(angle)]])
    t = torch.tensor([0.0, 0.0, 5.0])
    return points, K, R, t


def check_roundtrip(num_points: int = 32, atol: float = 1e-3):
    """Project the scene with K [R | t], lift it back with the true depth, compare."""
    points, K, R, t = make_synthetic_scene(num_points)
    cam = points @ R.T + t
    uvw = cam @ K.T
    uv = uvw[:, :2] / uvw[:, 2:]
    ones = torch.ones(num_points, 1)
    rays = torch.cat([uv, ones], dim=-1) @ torch.linalg.inv(K).T
    recovered = (rays * cam[:, 2:] - t) @ R
    err = (recovered - points).abs().max()
    assert torch.allclose(recovered, points, atol=atol), f"round trip error {err:.2e}"
    principal = torch.tensor([320.0, 240.0])
    on_axis = torch.zeros(1, 3)
    on_axis[0, 2] = 2.0
    center_uv = (on_axis @ K.T)[:, :2] / 2.0
    assert torch.allclose(center_uv[0], principal)
    return err


def example():
    return check_roundtrip, (32,)
