# run-dtype: float32
import torch


def _project(points, K):
    uvw = points @ K.T
    return uvw[..., :2] / uvw[..., 2:]


def test_principal_point_on_axis():
    K = torch.tensor([[100.0, 0.0, 32.0], [0.0, 100.0, 24.0], [0.0, 0.0, 1.0]])
    pts = torch.tensor([[0.0, 0.0, 2.0], [0.0, 0.0, 7.5]])
    uv = _project(pts, K)
    torch.testing.assert_close(uv, torch.tensor([[32.0, 24.0], [32.0, 24.0]]))


def test_projection_scales_with_depth():
    K = torch.tensor([[100.0, 0.0, 32.0], [0.0, 100.0, 24.0], [0.0, 0.0, 1.0]])
    near = _project(torch.tensor([[0.1, -0.2, 1.0]]), K)
    far = _project(torch.tensor([[0.1, -0.2, 2.0]]), K)
    center = torch.tensor([32.0, 24.0])
    torch.testing.assert_close(far - center, (near - center) / 2)


def run_all():
    test_principal_point_on_axis()
    test_projection_scales_with_depth()
    return torch.ones(1)


def example():
    return run_all, ()
