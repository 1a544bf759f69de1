# run-dtype: float32
import torch


def compute_depth_metrics(pred: torch.Tensor, gt: torch.Tensor, min_depth: float = 1e-3):
    """Standard monocular-depth evaluation metrics over valid pixels (float32 evaluation code)."""
    valid = gt > min_depth
    pred, gt = pred[valid].float(), gt[valid].float()
    ratio = torch.maximum(pred / gt, gt / pred)
    thresholds = torch.tensor([1.25, 1.25 ** 2, 1.25 ** 3])
    deltas = (ratio[:, None] < thresholds).float().mean(0)
    abs_rel = ((pred - gt).abs() / gt).mean()
    rmse = torch.sqrt(((pred - gt) ** 2).mean())
    log_rmse = torch.sqrt(((pred.log() - gt.log()) ** 2).mean())
    return {"abs_rel": abs_rel, "rmse": rmse, "log_rmse": log_rmse, "delta": deltas}


def example():
    gt = torch.rand(2, 24, 32) * 10
    gt[:, :2] = 0
    pred = gt * (1 + 0.1 * torch.randn_like(gt)).abs() + 0.01
    return compute_depth_metrics, (pred, gt)
