import numpy as np
import torch
from torch import Tensor


def project_to_image(points: Tensor, intrinsics: np.ndarray) -> Tensor:
    """Project (N, 3) predicted camera-space points with a NumPy (3, 3) K from the calib file."""
    K = torch.from_numpy(intrinsics)  # expect: DTL004
    uvw = points @ K.T  # expect: DTL002
    return uvw[:, :2] / uvw[:, 2:].clamp(min=1e-6)


def project_to_image_cast(points: Tensor, intrinsics: np.ndarray) -> Tensor:
    K = torch.from_numpy(intrinsics).to(device=points.device, dtype=points.dtype)  # lookalike: cast at creation
    uvw = points @ K.T
    return uvw[:, :2] / uvw[:, 2:].clamp(min=1e-6)


def lidar_to_camera(points: Tensor, lidar2cam: np.ndarray) -> Tensor:
    return points @ torch.from_numpy(lidar2cam[:3, :3]).T + points.new_tensor(lidar2cam[:3, 3])  # expect: DTL002, DTL004
