import torch
from torch import nn


class DetectorPreprocess(nn.Module):
    """detectron2-style GeneralizedRCNN preprocessing: pixel statistics registered as buffers."""

    def __init__(self, pixel_mean=(103.53, 116.28, 123.675), pixel_std=(57.375, 57.12, 58.395), size_divisibility: int = 16) -> None:
        super().__init__()
        self.register_buffer("pixel_mean", torch.tensor(pixel_mean).view(-1, 1, 1), False)  # lookalike: buffer, follows .to()
        self.register_buffer("pixel_std", torch.tensor(pixel_std).view(-1, 1, 1), False)  # lookalike: buffer
        self.size_divisibility = size_divisibility
        self.stem = nn.Conv2d(3, 8, 3, stride=2, padding=1)

    def forward(self, images: list[torch.Tensor]) -> torch.Tensor:
        images = [(x - self.pixel_mean) / self.pixel_std for x in images]
        max_h = max(img.shape[-2] for img in images)
        max_w = max(img.shape[-1] for img in images)
        d = self.size_divisibility
        max_h, max_w = (max_h + d - 1) // d * d, (max_w + d - 1) // d * d
        batched = images[0].new_zeros(len(images), 3, max_h, max_w)  # lookalike: new_* factory
        for i, img in enumerate(images):
            batched[i, :, : img.shape[-2], : img.shape[-1]].copy_(img)
        return self.stem(batched)


def example():
    torch.manual_seed(0)
    model = DetectorPreprocess().to(torch.bfloat16)
    imgs = [(torch.rand(3, 20, 30) * 255).to(torch.bfloat16), (torch.rand(3, 25, 18) * 255).to(torch.bfloat16)]
    return model, (imgs,)
