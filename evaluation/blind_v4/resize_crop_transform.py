# run-dtype: float32
import numpy as np
import torch


class ResizeWithIntrinsics:
    """Data transform: resize an HxWx3 uint8 image and rescale its 3x3 float64 intrinsics."""

    def __init__(self, out_hw=(12, 16)):
        self.out_h, self.out_w = out_hw

    def __call__(self, image: np.ndarray, K: np.ndarray):
        h, w = image.shape[:2]
        sy, sx = self.out_h / h, self.out_w / w
        rows = (np.arange(self.out_h) / sy).astype(np.int64).clip(0, h - 1)
        cols = (np.arange(self.out_w) / sx).astype(np.int64).clip(0, w - 1)
        resized = image[rows][:, cols]
        K = K.copy()
        K[0] *= sx
        K[1] *= sy
        img_t = torch.from_numpy(resized).permute(2, 0, 1).float() / 255.0
        K_t = torch.as_tensor(K, dtype=torch.float32)
        return img_t, K_t


def example():
    rng = np.random.default_rng(0)
    image = rng.integers(0, 255, (24, 32, 3), dtype=np.uint8)
    K = np.array([[40.0, 0.0, 16.0], [0.0, 40.0, 12.0], [0.0, 0.0, 1.0]])
    return ResizeWithIntrinsics(), (image, K)
