# run-dtype: float32
"""KITTI-style monocular 3D dataset: NumPy calibration, per-sample tensors for the collate function."""
import numpy as np
import torch
from torch.utils.data import Dataset


class KittiMonoDataset(Dataset):
    def __init__(self, num_samples: int = 4, image_size=(48, 160)):
        rng = np.random.default_rng(0)
        self.image_size = image_size
        self.samples = []
        for _ in range(num_samples):
            P2 = np.array([[721.5, 0.0, 609.6, 44.9], [0.0, 721.5, 172.9, 0.2], [0.0, 0.0, 1.0, 0.003]])
            centers = rng.uniform([-10, 1, 5], [10, 2, 40], size=(3, 3))
            self.samples.append({"P2": P2, "centers": centers})

    def __len__(self) -> int:
        return len(self.samples)

    def __getitem__(self, idx: int):
        s = self.samples[idx]
        P2 = torch.from_numpy(s["P2"]).float()  # lookalike: dataset code runs in float32
        K = P2[:, :3]
        centers = torch.from_numpy(s["centers"]).float()
        proj = centers @ K.T  # lookalike: dataset geometry, both float32
        uv = proj[:, :2] / proj[:, 2:]
        h, w = self.image_size
        img = torch.rand(3, h, w)
        heatmap = torch.zeros(1, h // 4, w // 4)  # lookalike: target built in a dataset
        ij = (uv / 4).long()
        ok = (ij[:, 0] >= 0) & (ij[:, 0] < w // 4) & (ij[:, 1] >= 0) & (ij[:, 1] < h // 4)
        heatmap[0, ij[ok, 1], ij[ok, 0]] = 1.0
        return {"img": img, "intrinsics": K, "centers_3d": centers, "centers_2d": uv, "heatmap": heatmap}


def example():
    ds = KittiMonoDataset()
    return ds.__getitem__, (1,)
