# run-dtype: float32
"""Visualisation of optical flow: Middlebury colour wheel, arrow grid, and a saved figure."""
import numpy as np
import torch


def make_colorwheel() -> torch.Tensor:
    RY, YG, GC, CB, BM, MR = 15, 6, 4, 11, 13, 6
    ncols = RY + YG + GC + CB + BM + MR
    wheel = torch.zeros(ncols, 3)  # lookalike: plotting code
    col = 0
    for n, (a, b, rising) in enumerate([(0, 1, True), (1, 0, False), (1, 2, True), (2, 1, False), (2, 0, True), (0, 2, False)]):
        size = [RY, YG, GC, CB, BM, MR][n]
        ramp = torch.floor(255 * torch.arange(size) / size)
        wheel[col:col + size, a] = 255 if rising else 255 - ramp
        wheel[col:col + size, b] = ramp if rising else 255
        col += size
    return wheel


def flow_to_color(flow: torch.Tensor) -> torch.Tensor:
    flow = flow.detach().float().cpu()
    u, v = flow[0], flow[1]
    rad = torch.sqrt(u**2 + v**2)
    rad = rad / (rad.max() + 1e-5)
    wheel = make_colorwheel()
    ncols = wheel.shape[0]
    a = torch.atan2(-v, -u) / np.pi
    fk = (a + 1) / 2 * (ncols - 1)
    k0 = fk.floor().long()
    k1 = (k0 + 1) % ncols
    f = (fk - k0).unsqueeze(-1)
    col = (1 - f) * wheel[k0] / 255 + f * wheel[k1] / 255
    col = 1 - rad.unsqueeze(-1) * (1 - col)
    return (col * 255).to(torch.uint8)


def plot_flow(flow: torch.Tensor, path=None, step: int = 4):
    img = flow_to_color(flow)
    grid_y, grid_x = torch.meshgrid(torch.arange(0, flow.shape[1], step), torch.arange(0, flow.shape[2], step), indexing="ij")
    arrows = torch.stack([grid_x.float(), grid_y.float()], -1) + flow[:, ::step, ::step].permute(1, 2, 0).float()
    if path is not None:
        import matplotlib.pyplot as plt  # optional dependency, only to save a figure

        plt.imshow(img.numpy())
        plt.quiver(grid_x.numpy(), grid_y.numpy(), flow[0, ::step, ::step].numpy(), flow[1, ::step, ::step].numpy())
        plt.savefig(path)
    return img, arrows


def example():
    return plot_flow, (torch.randn(2, 16, 20),)
