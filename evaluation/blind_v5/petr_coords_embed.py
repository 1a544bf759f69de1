import torch
from torch import nn


class PETRCoordsEmbed(nn.Module):
    """Lifts per-pixel depth estimates to 3D with the dataset's img2lidars and embeds them."""

    def __init__(self, in_channels: int = 32, embed_dims: int = 32, depth_num: int = 8):
        super().__init__()
        self.depth_net = nn.Conv2d(in_channels, depth_num, 1)
        self.register_buffer("depth_bins", torch.linspace(1.0, 50.0, depth_num).view(1, -1, 1, 1))
        self.position_encoder = nn.Sequential(nn.Linear(3, embed_dims), nn.ReLU(), nn.Linear(embed_dims, embed_dims))

    def forward(self, img_feats, img2lidars):
        B, C, H, W = img_feats.shape
        prob = self.depth_net(img_feats).softmax(dim=1)
        depth = (prob * self.depth_bins).sum(dim=1)
        ys, xs = torch.meshgrid(
            torch.arange(H, device=img_feats.device),  # lookalike: int64 pixel index, elementwise with bf16
            torch.arange(W, device=img_feats.device),
            indexing="ij",
        )
        pix = torch.stack([xs * depth, ys * depth, depth, torch.ones_like(depth)], dim=-1)
        pix = pix.flatten(1, 2)
        coords3d = torch.einsum(
            "bij,bnj->bni",
            img2lidars,  # expect: DTL002
            pix,
        )[..., :3]
        pos_embed = self.position_encoder(coords3d / 50.0)
        return img_feats.flatten(2).transpose(1, 2) + pos_embed


def example():
    torch.manual_seed(0)
    model = PETRCoordsEmbed().to(torch.bfloat16)
    feats = torch.randn(2, 32, 6, 8, dtype=torch.bfloat16)
    img2lidars = torch.eye(4).expand(2, 4, 4).clone()
    return model, (feats, img2lidars)
