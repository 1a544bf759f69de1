# run-dtype: float32
import numpy as np
import torch
from torch.utils.data import Dataset


class MultiViewSceneDataset(Dataset):
    """MVS-style dataset: NumPy images and cameras (float64 as loaded), relative poses built here."""

    def __init__(self, n_scenes: int = 4, n_views: int = 3, hw=(12, 16), seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.images = rng.random((n_scenes, n_views, hw[0], hw[1], 3))
        self.K = np.array([[50.0, 0, hw[1] / 2], [0, 50.0, hw[0] / 2], [0, 0, 1]])
        self.c2w = np.tile(np.eye(4), (n_scenes, n_views, 1, 1))
        self.c2w[..., 0, 3] = rng.random((n_scenes, n_views))
        self.depth_range = (0.5, 5.0)

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int) -> dict:
        imgs = torch.from_numpy(self.images[i]).permute(0, 3, 1, 2).float()
        c2w = torch.from_numpy(self.c2w[i])  # lookalike: dataset code, out of scope
        w2c_ref = torch.inverse(c2w[0])
        rel = w2c_ref[None] @ c2w  # lookalike: camera-only product in float64
        K = torch.from_numpy(self.K)
        proj = K[None] @ torch.inverse(rel)[:, :3, :]
        depth_values = torch.linspace(*self.depth_range, 8)
        mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
        return {
            "imgs": (imgs - mean) / 0.226,
            "proj": proj.float(),
            "intrinsics": K.float(),
            "depth_values": depth_values,
        }


def example():
    ds = MultiViewSceneDataset()
    return ds.__getitem__, (1,)
