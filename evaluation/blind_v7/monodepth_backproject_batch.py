import torch
from torch import nn


class ViewSynthesis(nn.Module):
    """Monodepth2-style backproject + project of a predicted depth map into the source view."""

    def __init__(self, height: int = 6, width: int = 8) -> None:
        super().__init__()
        self.height, self.width = height, width
        self.disp = nn.Conv2d(3, 1, 3, padding=1)
        v, u = torch.meshgrid(torch.arange(height), torch.arange(width), indexing="ij")
        pix = torch.stack([u, v, torch.ones_like(u)]).view(1, 3, -1).float()
        self.register_buffer("pix_coords", pix, persistent=False)

    def forward(self, image: torch.Tensor, batch: dict) -> torch.Tensor:
        B = image.shape[0]
        depth = 1.0 / (0.01 + torch.sigmoid(self.disp(image)))
        rays = self.pix_coords * depth.view(B, 1, -1)
        cam_points = torch.matmul(
            batch["inv_K"][:, :3, :3],  # expect: DTL002
            rays,
        )
        cam_points = torch.cat([cam_points, torch.ones_like(cam_points[:, :1])], dim=1)
        P = torch.matmul(batch["K"], batch["extrinsics"])[:, :3, :]
        proj = torch.matmul(
            P,  # expect: DTL002
            cam_points,
        )
        pix = proj[:, :2] / (proj[:, 2:3] + 1e-7)
        return pix.view(B, 2, self.height, self.width).permute(0, 2, 3, 1)


def example():
    torch.manual_seed(0)
    model = ViewSynthesis().to(torch.bfloat16)
    K = torch.tensor([[[50.0, 0, 4, 0], [0, 50.0, 3, 0], [0, 0, 1, 0], [0, 0, 0, 1]]]).repeat(2, 1, 1)
    ext = torch.eye(4).repeat(2, 1, 1)
    ext[:, 0, 3] = 0.1
    batch = {"K": K, "inv_K": torch.inverse(K), "extrinsics": ext}
    return model, (torch.randn(2, 3, 6, 8, dtype=torch.bfloat16), batch)
