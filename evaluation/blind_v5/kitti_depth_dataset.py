# run-dtype: float32
import numpy as np
import torch
from torch.utils.data import Dataset


class KittiDepthDataset(Dataset):
    """Depth-completion samples from NumPy arrays (stand-ins for PNG reads), with the intrinsics."""

    def __init__(self, num_items: int = 4, height: int = 24, width: int = 32, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.images = rng.random((num_items, height, width, 3))
        self.depths = rng.random((num_items, height, width)) * 80.0
        self.K = np.array([[721.5, 0.0, 609.5], [0.0, 721.5, 172.8], [0.0, 0.0, 1.0]])

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx: int):
        img = torch.from_numpy(self.images[idx]).permute(2, 0, 1).float()
        depth = torch.from_numpy(self.depths[idx]).float()[None]
        K = torch.tensor(self.K, dtype=torch.float32)
        scale = torch.tensor([img.shape[-1] / 1242.0, img.shape[-2] / 375.0, 1.0])
        K = K * scale[:, None]
        valid = (depth > 0.1) & (depth < 80.0)
        sparse = depth * (torch.rand(depth.shape) < 0.05)
        return {"image": img, "depth": depth, "sparse_depth": sparse, "K": K, "valid": valid}


def example():
    ds = KittiDepthDataset()
    return ds.__getitem__, (1,)
