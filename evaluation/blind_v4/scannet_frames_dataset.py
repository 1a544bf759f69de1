# run-dtype: float32
import numpy as np
import torch
from torch.utils.data import Dataset


class ScanNetFrames(Dataset):
    """RGB frames with intrinsics and camera-to-world poses; per-pixel world rays."""

    def __init__(self, n: int = 4, H: int = 12, W: int = 16):
        rng = np.random.default_rng(0)
        self.H, self.W = H, W
        self.images = rng.random((n, H, W, 3))
        self.poses = np.tile(np.eye(4), (n, 1, 1))
        self.K = np.array([[20.0, 0.0, W / 2], [0.0, 20.0, H / 2], [0.0, 0.0, 1.0]])

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        img = torch.from_numpy(self.images[i]).permute(2, 0, 1).float()
        K = torch.as_tensor(self.K, dtype=torch.float32)
        pose = torch.from_numpy(self.poses[i]).float()
        ys, xs = torch.meshgrid(torch.arange(self.H), torch.arange(self.W), indexing="ij")
        pix = torch.stack([xs, ys, torch.ones_like(xs)], dim=-1).float().view(-1, 3)
        rays = pix @ torch.inverse(K).T
        rays_world = rays @ pose[:3, :3].T
        return {"image": img, "K": K, "pose": pose, "rays": rays_world}


def example():
    ds = ScanNetFrames()
    return ds.__getitem__, (1,)
