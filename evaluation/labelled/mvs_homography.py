import torch
import torch.nn.functional as F


def homo_warping(src_fea, src_proj, ref_proj, depth_values):
    """MVSNet: warp source features to the reference view for D depth hypotheses."""
    B, C, H, W = src_fea.shape
    D = depth_values.shape[1]
    with torch.no_grad():
        proj = torch.matmul(src_proj, torch.inverse(ref_proj))  # lookalike: camera @ camera
        rot, trans = proj[:, :3, :3], proj[:, :3, 3:4]
        y, x = torch.meshgrid(
            torch.arange(0, H, dtype=torch.float32, device=src_fea.device),  # lookalike: dtype given
            torch.arange(0, W, dtype=torch.float32, device=src_fea.device),
            indexing="ij",
        )
        xyz = torch.stack((x.reshape(-1), y.reshape(-1), torch.ones_like(x.reshape(-1))))
        xyz = xyz.unsqueeze(0).repeat(B, 1, 1)
        rot_xyz = torch.matmul(rot, xyz)  # lookalike: camera @ pixel grid, no activation
        rot_depth_xyz = rot_xyz.unsqueeze(2) * depth_values.view(B, 1, D, 1)
        warped_xyz = rot_depth_xyz + trans.view(B, 3, 1, 1)
        warped_xy = warped_xyz[:, :2] / warped_xyz[:, 2:3]
        grid_x = warped_xy[:, 0] / ((W - 1) / 2) - 1
        grid_y = warped_xy[:, 1] / ((H - 1) / 2) - 1
        grid = torch.stack((grid_x, grid_y), dim=3)
    warped = F.grid_sample(
        src_fea, grid.view(B, D * H, W, 2), mode="bilinear", padding_mode="zeros", align_corners=True  # expect: DTL003
    )
    return warped.view(B, C, D, H, W)
