# run-dtype: float32
"""Training transforms on NumPy images (HWC uint8, as PIL/OpenCV decode them) before batching."""
import numpy as np
import torch


class ToTensor:
    def __call__(self, img: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(np.ascontiguousarray(img.transpose(2, 0, 1))).float().div(255.0)


class Normalize:
    def __init__(self, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225)):
        self.mean = torch.tensor(mean).view(-1, 1, 1)  # lookalike: a transform, not an nn.Module
        self.std = torch.tensor(std).view(-1, 1, 1)

    def __call__(self, tensor: torch.Tensor) -> torch.Tensor:
        return (tensor - self.mean) / self.std


class RandomErasing:
    def __init__(self, p: float = 1.0, area=(0.05, 0.2), seed: int = 0):
        self.p, self.area = p, area
        self.rng = np.random.default_rng(seed)

    def __call__(self, img: torch.Tensor) -> torch.Tensor:
        if self.rng.random() > self.p:
            return img
        C, H, W = img.shape
        a = self.rng.uniform(*self.area) * H * W
        h = int(min(H, max(1, round(np.sqrt(a)))))
        w = int(min(W, max(1, round(a / h))))
        y, x = int(self.rng.integers(0, H - h + 1)), int(self.rng.integers(0, W - w + 1))
        patch = torch.from_numpy(self.rng.normal(size=(C, h, w))).float()  # lookalike: augmentation on float32 data
        img = img.clone()
        img[:, y:y + h, x:x + w] = patch
        return img


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img


def example():
    pipeline = Compose([ToTensor(), Normalize(), RandomErasing()])
    img = (np.random.default_rng(1).random((32, 40, 3)) * 255).astype(np.uint8)
    return pipeline, (img,)
