import torch


def scale_invariant_log_loss(pred: torch.Tensor, target: torch.Tensor, variance_focus: float = 0.85) -> torch.Tensor:
    """BTS/AdaBins SILog loss, computed in float32 on purpose from a bf16 prediction."""
    pred = pred.float()  # lookalike: loss computed in float32 by design
    target = target.float()
    valid = (target > 1e-3).float()  # lookalike: mask meets float32 values only
    n = valid.sum().clamp(min=1.0)
    d = (torch.log(pred.clamp(min=1e-3)) - torch.log(target.clamp(min=1e-3))) * valid
    return torch.sqrt((d ** 2).sum() / n - variance_focus * (d.sum() / n) ** 2) * 10.0


def gradient_matching_loss(pred: torch.Tensor, target: torch.Tensor, scales: int = 3) -> torch.Tensor:
    """MiDaS multi-scale gradient loss on the float32 residual."""
    total = torch.zeros(())  # lookalike: float32 accumulator in a loss
    res = pred.float() - target.float()
    for s in range(scales):
        r = res[..., :: 2 ** s, :: 2 ** s]
        total = total + (r[..., :, 1:] - r[..., :, :-1]).abs().mean() + (r[..., 1:, :] - r[..., :-1, :]).abs().mean()
    return total / scales


def depth_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return scale_invariant_log_loss(pred, target) + 0.5 * gradient_matching_loss(pred, target)


def example():
    torch.manual_seed(0)
    pred = (torch.rand(2, 1, 16, 16) * 5 + 0.5).to(torch.bfloat16)
    target = torch.rand(2, 1, 16, 16) * 5
    return depth_loss, (pred, target)
