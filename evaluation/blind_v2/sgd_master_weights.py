"""SGD with momentum keeping float32 master weights and per-parameter state."""

import torch
import torch.nn as nn


class MasterWeightSGD(torch.optim.Optimizer):
    def __init__(self, params, lr: float = 1e-2, momentum: float = 0.9, weight_decay: float = 0.0):
        super().__init__(params, dict(lr=lr, momentum=momentum, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["step"] = torch.tensor(0.0)
                    state["master"] = p.detach().clone().float()
                    state["momentum_buffer"] = torch.zeros(p.shape, device=p.device)
                master, buf = state["master"], state["momentum_buffer"]
                grad = p.grad.float()
                if group["weight_decay"]:
                    grad = grad.add(master, alpha=group["weight_decay"])
                buf.mul_(group["momentum"]).add_(grad)
                master.add_(buf, alpha=-group["lr"])
                state["step"] += 1
                p.copy_(master.to(p.dtype))


def train_steps(num_steps: int = 3):
    model = nn.Linear(4, 2)
    opt = MasterWeightSGD(model.parameters(), lr=0.1, weight_decay=1e-4)
    x, y = torch.randn(8, 4), torch.randn(8, 2)
    for _ in range(num_steps):
        opt.zero_grad()
        loss = (model(x) - y).pow(2).mean()
        loss.backward()
        opt.step()
    return loss.detach()


def example():
    return train_steps, (3,)
