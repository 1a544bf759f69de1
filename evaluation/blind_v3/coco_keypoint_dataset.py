import numpy as np
import torch
from torch import nn
from torch.utils.data import Dataset


class KeypointHeatmapDataset(Dataset):
    """Synthetic COCO-like samples: image, projected keypoints, Gaussian target heatmaps."""

    def __init__(self, n: int = 4, n_joints: int = 5, size: int = 16, sigma: float = 1.5):
        self.rng = np.random.default_rng(0)
        self.n, self.n_joints, self.size, self.sigma = n, n_joints, size, sigma
        self.K = np.array([[12.0, 0.0, 8.0], [0.0, 12.0, 8.0], [0.0, 0.0, 1.0]])

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        pts = self.rng.uniform([-0.5, -0.5, 2.0], [0.5, 0.5, 3.0], size=(self.n_joints, 3))
        uvw = pts @ self.K.T  # lookalike: NumPy product in dataset code
        uv = uvw[:, :2] / uvw[:, 2:]
        ys, xs = np.mgrid[0:self.size, 0:self.size]
        heat = np.exp(-((xs[None] - uv[:, 0, None, None]) ** 2 + (ys[None] - uv[:, 1, None, None]) ** 2) / (2 * self.sigma ** 2))
        image = torch.from_numpy(self.rng.random((3, self.size, self.size))).float()
        visibility = torch.ones(self.n_joints)  # lookalike: factory in dataset code
        return {"image": image, "heatmap": torch.from_numpy(heat).float(), "visibility": visibility}


def example():
    torch.manual_seed(0)
    sample = KeypointHeatmapDataset()[0]
    head = nn.Conv2d(3, 5, 3, padding=1).to(torch.bfloat16)

    def step(image: torch.Tensor):
        pred = head(image)
        target = sample["heatmap"].to(image.dtype)[None]
        vis = sample["visibility"].to(image.dtype).view(1, -1, 1, 1)
        return (pred - target) * vis

    return step, (sample["image"][None].to(torch.bfloat16),)
