"""Keypoint dataset producing float32 samples from NumPy images and annotations."""

import numpy as np
import torch
from torch.utils.data import Dataset


class KeypointHeatmapDataset(Dataset):
    def __init__(self, num_samples: int = 4, image_size: int = 16, num_joints: int = 5, sigma: float = 1.5):
        rng = np.random.default_rng(0)
        self.images = rng.integers(0, 255, size=(num_samples, image_size, image_size, 3), dtype=np.uint8)
        self.keypoints = rng.random((num_samples, num_joints, 2)) * (image_size - 1)
        self.K = np.array([[50.0, 0.0, 8.0], [0.0, 50.0, 8.0], [0.0, 0.0, 1.0]])
        self.image_size = image_size
        self.sigma = sigma

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        img = torch.from_numpy(self.images[idx]).permute(2, 0, 1).float() / 255.0
        kpts = torch.tensor(self.keypoints[idx], dtype=torch.float32)
        size = self.image_size
        ys = torch.arange(size).float()[:, None]
        xs = torch.arange(size).float()[None, :]
        heatmaps = torch.zeros(kpts.shape[0], size, size)
        for j, (x, y) in enumerate(kpts):
            heatmaps[j] = torch.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * self.sigma ** 2))
        visible = torch.ones(kpts.shape[0])
        return {
            "image": img,
            "heatmaps": heatmaps,
            "keypoints": kpts,
            "visible": visible,
            "K": torch.from_numpy(self.K).float(),
        }


def example():
    dataset = KeypointHeatmapDataset()
    return dataset.__getitem__, (1,)
