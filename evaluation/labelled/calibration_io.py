import numpy as np
import torch


def load_calibration(path: str) -> dict[str, torch.Tensor]:
    """Dataset side: parse a KITTI calib file into tensors; no model activations here."""
    calib = {}
    with open(path) as f:
        for line in f:
            if ":" not in line:
                continue
            key, vals = line.split(":", 1)
            calib[key] = np.array([float(v) for v in vals.split()]).reshape(3, -1)
    P2 = torch.from_numpy(calib["P2"]).float()  # lookalike: no tensor parameter, nothing meets an activation
    R0 = torch.eye(4)
    R0[:3, :3] = torch.from_numpy(calib["R0_rect"])
    velo2cam = torch.eye(4)
    velo2cam[:3] = torch.from_numpy(calib["Tr_velo_to_cam"])
    bottom = torch.tensor([[0.0, 0.0, 0.0, 1.0]])
    return {"P2": P2, "lidar2img": torch.cat([P2, bottom]) @ R0 @ velo2cam}


def collate_views(samples: list[dict]) -> dict[str, torch.Tensor]:
    images = torch.stack([torch.from_numpy(s["image"]).permute(2, 0, 1) for s in samples])
    Ks = torch.stack([torch.from_numpy(s["K"]) for s in samples])
    return {"image": images.float().div_(255.0), "intrinsics": Ks.float()}
