"""CenterNet-style keypoint decoding: heatmap peaks -> input image -> 3D with depth."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class KeypointDecoder(nn.Module):
    def __init__(self, in_ch: int = 16, num_kpts: int = 4, topk: int = 5):
        super().__init__()
        self.topk = topk
        self.heat = nn.Conv2d(in_ch, num_kpts, 1)
        self.offset = nn.Conv2d(in_ch, 2, 1)
        self.depth = nn.Conv2d(in_ch, 1, 1)

    def forward(self, feats, trans_mats, cam2imgs):
        """trans_mats: (B, 2, 3) feature-map -> input-image affine (augmentation inverse);
        cam2imgs: (B, 3, 3) intrinsics of the original image."""
        heat = self.heat(feats).sigmoid()
        B, J, H, W = heat.shape
        hmax = F.max_pool2d(heat, 3, stride=1, padding=1)
        heat = heat * (hmax == heat)
        scores, inds = heat.amax(1).flatten(1).topk(self.topk)
        ys, xs = (inds // W), (inds % W)
        offset = self.offset(feats).flatten(2).gather(2, inds[:, None].expand(-1, 2, -1))
        depth = self.depth(feats).flatten(2).gather(2, inds[:, None]).squeeze(1).exp()
        pts = torch.stack([xs + offset[:, 0], ys + offset[:, 1], torch.ones_like(scores)], dim=-1)
        pts_img = pts @ trans_mats.transpose(1, 2)  # expect: DTL002
        uvd = torch.cat([pts_img * depth[..., None], depth[..., None]], dim=-1)
        cam2imgs_inv = torch.inverse(cam2imgs)
        pts_3d = torch.bmm(cam2imgs_inv, uvd.transpose(1, 2)).transpose(1, 2)  # expect: DTL002
        return pts_3d, scores


def example():
    B = 2
    dec = KeypointDecoder().to(torch.bfloat16)
    trans_mats = torch.tensor([[4.0, 0.0, 0.0], [0.0, 4.0, 0.0]]).expand(B, 2, 3)
    cam2imgs = torch.tensor([[100.0, 0.0, 16.0], [0.0, 100.0, 16.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    return dec, (torch.randn(B, 16, 8, 8, dtype=torch.bfloat16), trans_mats, cam2imgs)
