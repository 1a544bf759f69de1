# run-dtype: float32
import torch


class RandomPhotometric:
    """Brightness / contrast / gamma jitter and sensor noise on a float image in [0, 1]."""

    def __init__(self, brightness: float = 0.2, contrast: float = 0.2, gamma=(0.8, 1.2), noise_std: float = 0.01):
        self.brightness, self.contrast = brightness, contrast
        self.gamma, self.noise_std = gamma, noise_std

    def __call__(self, sample: dict):
        img = sample["image"]
        b = 1.0 + (torch.rand(1) * 2 - 1) * self.brightness
        c = 1.0 + (torch.rand(1) * 2 - 1) * self.contrast
        mean = img.mean(dim=(1, 2), keepdim=True)
        img = ((img - mean) * c + mean) * b
        gamma = torch.empty(1).uniform_(*self.gamma)
        img = img.clamp(0, 1) ** gamma
        noise = torch.randn(img.shape) * self.noise_std
        out = dict(sample)
        out["image"] = (img + noise).clamp(0, 1)
        return out


def example():
    torch.manual_seed(0)
    sample = {"image": torch.rand(3, 24, 32), "label": torch.tensor(2)}
    return RandomPhotometric(), (sample,)
