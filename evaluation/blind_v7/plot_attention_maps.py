# run-dtype: float32
import numpy as np
import torch


def attention_rollout(attentions: list, discard_ratio: float = 0.5) -> torch.Tensor:
    """Abnar & Zuidema rollout over (heads-averaged) attention maps, for visualisation."""
    n = attentions[0].shape[-1]
    result = torch.eye(n)  # lookalike: plotting code, out of scope
    for attn in attentions:
        a = attn.mean(dim=1)[0]
        flat = a.flatten()
        _, idx = flat.topk(int(flat.numel() * discard_ratio), largest=False)
        flat[idx] = 0
        a = (a + torch.eye(n)) / 2
        a = a / a.sum(dim=-1, keepdim=True)
        result = a @ result
    return result


def overlay(image: np.ndarray, attentions: list, patch: int = 4) -> np.ndarray:
    rollout = attention_rollout(attentions)
    mask = rollout[0, 1:]
    side = int(mask.numel() ** 0.5)
    mask = (mask / mask.max()).view(side, side).cpu().numpy()
    heat = np.kron(mask, np.ones((patch, patch)))
    rgb = np.stack([heat, np.zeros_like(heat), 1 - heat], axis=-1)
    return 0.5 * image + 0.5 * rgb


def example():
    torch.manual_seed(0)
    atts = [torch.rand(1, 4, 17, 17).softmax(-1) for _ in range(3)]
    image = np.random.default_rng(0).random((16, 16, 3))
    return overlay, (image, atts)
