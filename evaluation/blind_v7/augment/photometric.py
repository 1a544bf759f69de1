# run-dtype: float32
import numpy as np
import torch


class PhotometricAugment:
    """Color jitter and noise for optical-flow/stereo training pairs, applied on float32 [0, 1] tensors."""

    def __init__(self, brightness: float = 0.4, contrast: float = 0.4, gamma=(0.8, 1.2), noise_std: float = 0.02, seed: int = 0) -> None:
        self.brightness, self.contrast, self.gamma, self.noise_std = brightness, contrast, gamma, noise_std
        self.rng = np.random.default_rng(seed)

    def __call__(self, img1: torch.Tensor, img2: torch.Tensor):
        b = torch.tensor(1.0 + self.rng.uniform(-self.brightness, self.brightness))  # lookalike: transform, out of scope
        c = torch.rand(1) * 2 * self.contrast + (1 - self.contrast)  # lookalike: transform, out of scope
        g = float(self.rng.uniform(*self.gamma))
        out = []
        for img in (img1, img2):
            mean = img.mean(dim=(-2, -1), keepdim=True)
            x = ((img - mean) * c + mean) * b
            x = x.clamp(0, 1) ** g
            x = x + torch.randn(img.shape) * self.noise_std
            out.append(x.clamp(0, 1))
        return tuple(out)


def load_pair(h: int = 16, w: int = 20):
    rng = np.random.default_rng(1)
    a = (rng.random((h, w, 3)) * 255).astype(np.uint8)
    b = np.roll(a, 2, axis=1)
    return (torch.from_numpy(a).permute(2, 0, 1).float() / 255, torch.from_numpy(b).permute(2, 0, 1).float() / 255)


def example():
    aug = PhotometricAugment()
    return aug, load_pair()
