# run-dtype: float32
import torch


class FlowMetrics:
    """KITTI/Sintel flow metrics accumulated over a validation run: EPE, 1/3/5-px accuracy, Fl-all."""

    def __init__(self) -> None:
        self.sums = torch.zeros(5)  # lookalike: metrics bookkeeping, out of scope
        self.count = torch.zeros(1)

    def update(self, flow_pred: torch.Tensor, flow_gt: torch.Tensor, valid: torch.Tensor) -> None:
        epe = torch.sum((flow_pred - flow_gt) ** 2, dim=1).sqrt()
        mag = torch.sum(flow_gt ** 2, dim=1).sqrt()
        v = valid >= 0.5
        epe_v, mag_v = epe[v], mag[v]
        out = ((epe_v > 3.0) & ((epe_v / mag_v.clamp(min=1e-6)) > 0.05)).float()
        stats = torch.tensor([
            epe_v.sum(), (epe_v < 1).float().sum(), (epe_v < 3).float().sum(), (epe_v < 5).float().sum(), out.sum()
        ])
        self.sums += stats
        self.count += v.sum()

    def compute(self) -> dict:
        avg = self.sums / self.count.clamp(min=1)
        return {"epe": avg[0], "1px": avg[1], "3px": avg[2], "5px": avg[3], "fl_all": 100 * avg[4]}


def evaluate(pred: torch.Tensor, gt: torch.Tensor, valid: torch.Tensor) -> dict:
    m = FlowMetrics()
    for i in range(pred.shape[0]):
        m.update(pred[i : i + 1], gt[i : i + 1], valid[i : i + 1])
    return m.compute()


def example():
    torch.manual_seed(0)
    gt = torch.randn(3, 2, 10, 12) * 4
    pred = gt + torch.randn(3, 2, 10, 12)
    valid = (torch.rand(3, 10, 12) > 0.1).float()
    return evaluate, (pred, gt, valid)
