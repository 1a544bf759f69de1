# run-dtype: float32
import torch


def project(points: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
    uvw = points @ K.to(points.dtype).T
    return uvw[..., :2] / uvw[..., 2:]


def test_project_principal_point():
    K = torch.tensor([[100.0, 0.0, 32.0], [0.0, 100.0, 24.0], [0.0, 0.0, 1.0]])
    pts = torch.zeros(5, 3)
    pts[:, 2] = torch.linspace(1, 5, 5)
    uv = project(pts, K)
    assert torch.allclose(uv, torch.tensor([32.0, 24.0]).expand(5, 2))
    return uv


def test_project_scales_with_depth():
    K = torch.eye(3)
    pts = torch.tensor([[1.0, 2.0, 1.0], [2.0, 4.0, 2.0]])
    uv = project(pts, K)
    assert torch.allclose(uv[0], uv[1])
    return uv


def run_all():
    return test_project_principal_point(), test_project_scales_with_depth()


def example():
    return run_all, ()
