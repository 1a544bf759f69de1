# run-dtype: float32
import torch


def end_point_error(flow_pred, flow_gt, valid=None):
    """Per-pixel EPE (B, H, W); invalid pixels are dropped when a mask is given."""
    epe = torch.sum((flow_pred - flow_gt) ** 2, dim=1).sqrt()
    if valid is not None:
        epe = epe[valid]
    return epe


class FlowMetricAccumulator:
    """KITTI-style running metrics: EPE, 1px accuracy and the Fl outlier rate."""

    def __init__(self):
        self.sums = torch.zeros(3)
        self.count = 0

    def update(self, flow_pred, flow_gt, valid):
        epe = end_point_error(flow_pred.float(), flow_gt, valid)
        mag = torch.sum(flow_gt ** 2, dim=1).sqrt()[valid]
        outlier = ((epe > 3.0) & ((epe / mag.clamp(min=1e-6)) > 0.05)).float()
        self.sums += torch.stack([epe.sum(), (epe < 1.0).float().sum(), outlier.sum()])
        self.count += epe.numel()

    def compute(self):
        epe, acc1, fl = (self.sums / max(self.count, 1)).tolist()
        return {"epe": epe, "1px": acc1, "fl-all": fl * 100.0}


def evaluate(preds, gts, valids):
    acc = FlowMetricAccumulator()
    for p, g, v in zip(preds, gts, valids):
        acc.update(p, g, v)
    return acc.compute()


def example():
    torch.manual_seed(0)
    gts = [torch.randn(2, 2, 8, 8) * 4 for _ in range(2)]
    preds = [g + torch.randn_like(g) for g in gts]
    valids = [torch.rand(2, 8, 8) > 0.2 for _ in range(2)]
    return evaluate, (preds, gts, valids)
