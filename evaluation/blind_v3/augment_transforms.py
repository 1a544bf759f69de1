import numpy as np
import torch
from torch import nn

IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)


class RandomAffineNumpy:
    """Random rotation + scale of an HxWx3 float image and its 2D keypoints, in NumPy."""

    def __init__(self, max_deg: float = 15.0, seed: int = 0):
        self.max_deg = max_deg
        self.rng = np.random.default_rng(seed)

    def __call__(self, img: np.ndarray, kpts: np.ndarray):
        theta = np.deg2rad(self.rng.uniform(-self.max_deg, self.max_deg))
        R = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
        centre = np.array(img.shape[1::-1], dtype=np.float64) / 2
        kpts = (kpts - centre) @ R.T + centre  # lookalike: NumPy product in transform code
        return np.ascontiguousarray(img), kpts


class ToNormalizedTensor:
    def __call__(self, img: np.ndarray) -> torch.Tensor:
        t = torch.from_numpy(img).permute(2, 0, 1).float()
        mean = torch.tensor(IMAGENET_MEAN).view(3, 1, 1)  # lookalike: transform code, not a module
        std = torch.tensor(IMAGENET_STD).view(3, 1, 1)
        return (t - mean) / std


def example():
    rng = np.random.default_rng(1)
    img, _ = RandomAffineNumpy()(rng.random((16, 16, 3)), rng.random((5, 2)) * 16)
    img_t = ToNormalizedTensor()(img)
    torch.manual_seed(0)
    stem = nn.Conv2d(3, 8, 3, padding=1).to(torch.bfloat16)
    return stem, (img_t[None].to(torch.bfloat16),)
