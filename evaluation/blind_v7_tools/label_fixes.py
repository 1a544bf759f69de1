"""Hand-written minimal fixes, one per `# expect:` label, in line order (used by check_labels.py).

Each entry replaces `old` by `new` on the labelled line only. "REGISTER" turns
`self.NAME = EXPR` into `self.register_buffer("NAME", EXPR, persistent=False)` (the DTL005 fix).
"""
REGISTER = "REGISTER"

FIXES = {
    "flowkit/estimator.py": [
        ("window_offsets(self.radius, coords.device)", "window_offsets(self.radius, coords.device).to(coords.dtype)"),
        ("coords_grid(B, h, w, device=image1.device) +", "coords_grid(B, h, w, device=image1.device).to(flow_init.dtype) +"),
    ],
    "mask_feat_coord_head.py": [("device=top.device)", "device=top.device, dtype=top.dtype)")] * 2,
    "nerf_ray_sampler.py": [("device=rays_o.device)", "device=rays_o.device, dtype=rays_o.dtype)")],
    "anchor_free_points.py": [("device=feat.device)", "device=feat.device, dtype=feat.dtype)")] * 2,
    "kinematic_chain_fk.py": [("device=joints.device)", "device=joints.device, dtype=joints.dtype)")],
    "pair_bias_attention.py": [("device=qkv.device)", "device=qkv.device, dtype=qkv.dtype)")],
    "streaming_posenc.py": [("**opts)", "dtype=x.dtype, **opts)")],
    "dynamic_voxel_encoder.py": [("device=points.device)", "device=points.device, dtype=points.dtype)")] * 2,
    "pose_heatmap_decode.py": [("device=heat.device)", "device=heat.device, dtype=heat.dtype)")],
    "color_hist_pooling.py": [("device=tiles.device)", "device=tiles.device, dtype=tiles.dtype)")],
    "pointnet_tnet.py": [("device=x.device)", "device=x.device, dtype=x.dtype)")],
    "cfg_null_condition.py": [("device=cond.device)", "device=cond.device, dtype=cond.dtype)")],
    "mask2former_point_sample.py": [("device=mask_logits.device)", "device=mask_logits.device, dtype=mask_logits.dtype)")],
    "vq_onehot_matmul.py": [("device=z.device)", "device=z.device, dtype=z.dtype)")],
    "lidar_pixel_lift.py": [("torch.inverse(intrinsics),", "torch.inverse(intrinsics).to(uv1.dtype),")],
    "monodepth_backproject_batch.py": [
        ('batch["inv_K"][:, :3, :3],', 'batch["inv_K"][:, :3, :3].to(rays.dtype),'),
        ("P,", "P.to(cam_points.dtype),"),
    ],
    "splat_means_camera.py": [
        ("viewmat[:3, :3].T", "viewmat[:3, :3].to(self.means.dtype).T"),
        ("viewmat[:3, 3]", "viewmat[:3, 3].to(self.means.dtype)"),
    ],
    "object_pose_apply.py": [
        ("R, pts)", "R.to(pts.dtype), pts)"),
        ("t[:, None, :]", "t[:, None, :].to(pts.dtype)"),
    ],
    "tsdf_fusion_project.py": [
        ("world2cam[:, :3, :],", "world2cam[:, :3, :].to(pts_h.dtype),"),
        ("K,", "K.to(cam.dtype),"),
    ],
    "hand_mesh_reprojection.py": [('batch["intrinsics"].transpose', 'batch["intrinsics"].to(joints_cam.dtype).transpose')],
    "multiview_lidar2imgs.py": [("lidar2imgs,", "lidar2imgs.to(pts_h.dtype),")],
    "ddpm_unet_time.py": [("self.model_channels))", "self.model_channels).to(self.time_embed[0].weight.dtype))")],
    "unet2d_time_proj.py": [("self.time_proj(timestep))", "self.time_proj(timestep).to(self.time_embedding.linear_1.weight.dtype))")],
    "fourier_nerf_mlp.py": [("positional_encoding(pts, self.n_freqs)))", "positional_encoding(pts, self.n_freqs).to(self.pts_linears[0].weight.dtype)))")],
    "superglue_kpt_encoder.py": [("inputs.float()", "inputs.to(self.encoder[0].weight.dtype)")],
    "clip_proj_head_fp32.py": [("dim=-1).float())", "dim=-1).to(self.head[0][0].weight.dtype))")],
    "detr_box_mlp_loop.py": [("hs.float()", "hs.to(self.layers[0].weight.dtype)")],
    "groupnorm32_resblock.py": [("x.float()", "x.to(self.weight.dtype)")],
    "stochastic_depth_block.py": [("keep.float()", "keep.to(x.dtype)")],
    "wav2vec_masked_mean.py": [
        ("frame_mask.float()", "frame_mask.to(h.dtype)"),
        ("frame_mask.sum(dim=1).float()", "frame_mask.sum(dim=1).to(pooled.dtype)"),
    ],
    "temporal_coord_concat.py": [("t_idx.float()", "t_idx.to(x.dtype)")],
    "flow_warp_backward.py": [("torch.cat((xx, yy), 1).float()", "torch.cat((xx, yy), 1).to(flo.dtype)")],
    "point_prompt_embedder.py": [("coords.to(torch.float)", "coords.to(self.gaussian_matrix.dtype)")],
    "yolo_anchor_numpy.py": [("device=x.device)", "device=x.device, dtype=x.dtype)")],
    "retrieval_whitening.py": [
        (".to(img.device)", ".to(img.device, gem.dtype)"),
        ("torch.from_numpy(self.desc_scale).to(img.device)", "torch.from_numpy(self.desc_scale).to(img.device, centred.dtype)"),
    ],
    "gaussian_blur_numpy_kernel.py": [(".to(sr.device)", ".to(sr.device, sr.dtype)")],
    "conv_mel_frontend.py": [(".to(wav.device)", ".to(wav.device, power.dtype)")],
    "clip_preprocess_attrs.py": [REGISTER] * 2,
    "diffusion_q_schedule.py": [REGISTER] * 2,
    "neox_rotary_cache.py": [REGISTER] * 2,
}

FIXES.update({
    "flowkit/encoder.py": [("coords_grid(B, h, w, device=image.device) / scale)", "coords_grid(B, h, w, device=image.device).to(ctx.dtype) / scale)")],
    "nerf_camera_rays.py": [("c2w[:3, :3].T", "c2w[:3, :3].to(dirs.dtype).T")],
})
