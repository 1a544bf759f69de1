"""Generate /work/blind_v6/README.md from the files, their labels and the runtime-check report."""
import ast
import json
import re
from collections import Counter
from pathlib import Path

ROOT = (Path(__file__).resolve().parent.parent / "blind_v6")
REPORT = json.loads((Path(__file__).resolve().parent / "check_report.json").read_text())
NEC = json.loads((Path(__file__).resolve().parent / "label_necessity.json").read_text())

HAZ = {
    "pixel_aligned_sampler.py": "torch.ones in the homogeneous cat (DTL001); extrinsics and intrinsics uncast in matmul (DTL002 x2)",
    "vit_drop_path.py": "drop-path bool mask cast with .float() and multiplied with the bf16 residual",
    "sam_prompt_encoder.py": "prompt coords .to(torch.float) handed to a method that multiplies them with a registered buffer",
    "rotary_embedding.py": "RoPE inv_freq stored as a plain tensor attribute in __init__ (not converted by .to(bf16))",
    "smpl_lbs.py": "J_regressor stored as a plain attribute; body pose to batch_rodrigues and K named from activations are look-alike lines",
    "nerf_volume_render.py": "linspace t_vals meeting rays; torch.ones in the transmittance cat",
    "solov2_mask_head.py": "generate_coordinate(x.size(), x.device) (float grid from sizes) concatenated with features",
    "detr_decoder_queries.py": "zero target queries without dtype added to query_pos and fed to the decoder",
    "bev_lidar2img_sampling.py": "batch['lidar2img'] from the data dict in matmul with reference points",
    "pointnet2_sa.py": "FPS distance buffer torch.ones(...)*1e10; distance[mask] = dist[mask] raises (indices-only function)",
    "vq_codebook.py": "one-hot torch.zeros buffer filled by scatter_ then matmul with the codebook weight",
    "gumbel_quantizer.py": "F.one_hot(...).float() @ self.embed.weight (a submodule weight)",
    "swin_shift_mask.py": "img_mask zeros built in forward, window_partition, added to attention logits",
    "ddim_sampler.py": "three torch.full schedule values (a_t, a_prev, sqrt_one_minus_at) meeting the latents in a DDIM sampler",
    "centernet_topk_decode.py": "sparse zeros buffer receiving topk .values via scatter_",
    "attention_qkv_split.py": "helper returns (q, k, v, bias) with bias = torch.zeros(...); the caller adds it to logits",
    "pillar_feature_net.py": "opts = dict(device=...) and torch.tensor([self.vx, ...], **opts) list literals of float attributes",
    "mono3d_center_head.py": "batch['intrinsics'] transposed into a bmm with predicted centres",
    "object_pose_projection.py": "R and t used as geometry (points @ R.T + t) and P = K @ Rt applied to keypoints",
    "masked_temporal_pooling.py": "mask.float() and valid_lengths.float() meeting bf16 features (pytorchvideo pattern)",
    "guided_diffusion_resblock.py": "GroupNorm32: super().forward(x.float()) with bf16 norm weights",
    "film_conditioning.py": "self.to_film(cond.float()) into a Linear whose weights are bf16",
    "spynet_flow_warp.py": "integer grid .float() + flow (BasicVSR flow_warp)",
    "attention_fp32_softmax.py": "softmax(dtype=torch.float32) result @ v",
    "mel_projector.py": "torch.from_numpy of a NumPy mel filter bank attribute @ magnitudes",
    "isp_color_matrix.py": "torch.as_tensor of a NumPy colour matrix in an einsum with the image",
    "anchor_decoder_numpy.py": "torch.from_numpy anchors (float64) decoded with bf16 deltas",
    "clip_image_normalize.py": "CLIP mean/std stored as plain tensor attributes",
    "diffusion_q_sample.py": "sqrt_alphas_cumprod / sqrt_one_minus_alphas_cumprod plain attributes used in q_sample",
    "dense_heads/fcos_head.py": "linspace passed to a helper imported through utils/__init__ re-exports; grid points helper from sizes",
    "pointrend_subdivision.py": "torch.rand point coords given to point_sample (grid_sample) with bf16 features",
    "spin_perspective_projection.py": "K = torch.zeros(...) in the projection helper; torch.eye rotation passed to it",
    "yolo_anchor_free_head.py": "torch.arange(w) + 0.5 anchor points meeting regressed distances",
    "hand_joint_frames.py": "origins zeros buffer written with joints; torch.tensor([0, 1, 0]) in torch.cross",
    "pointpillars_scatter.py": "BEV canvas zeros buffer written with pillar features by index assignment",
    "stylegan_noise.py": "torch.randn noise in NoiseInjection (the new_empty().normal_() variant beside it is clean)",
    "gaussian_splat_project.py": "viewmat[:3, :3] and viewmat[:3, 3] as rotation/translation of Gaussian means; K for projection",
    "monodepth_backproject.py": "inv_K sliced 3x3 times pixel grid; P = K @ T (camera-only) applied to points",
    "detr3d_feature_sampling.py": "lidar2img gathered from img_metas via np.asarray + torch.from_numpy (DTL004) and used in matmul (DTL002)",
}
LOOK = {
    "swin_relative_position.py": "integer index grid registered as buffer and used for gather",
    "mamba_state_kwargs.py": "dtype passed through **factory_kwargs / unknown **kwargs",
    "padding_mask_attention.py": "bool masks (masked_fill, where) and a mask cast with .to(x.dtype)",
    "unet_skip_like.py": "new_zeros / ones_like / new_full / randn_like factories",
    "adaptive_drop_scalar.py": "0-dim buffers/parameters/scalar tensors; torch.rand < 0-dim p",
    "depth_backproject_cast.py": "cameras cast (.to(x.dtype) after inv, .to(x), .type_as) before the products",
    "camera_compose.py": "camera-only products (K @ Rt, composing poses), then cast once",
    "dino_token_selection.py": "factories meeting only integer tensors (arange batch index, integer full), topk indices",
    "losses.py": "focal / GIoU loss upcast to float32 on purpose (output float32 by design)",
    "metrics/psnr_ssim.py": "evaluation metrics in float32 (run in float32)",
    "kitti_mono_dataset.py": "dataset with NumPy calibration and from_numpy (run in float32)",
    "transforms.py": "NumPy-fed transforms, tensor attributes on non-module classes (run in float32)",
    "test_drop_path.py": "unit tests building float32 inputs (run in float32)",
    "plot_flow_field.py": "plotting code, factories without dtype (run in float32)",
    "llama_rms_norm.py": "RMSNorm upcast region of the activation itself, cast back",
    "vit_pos_embed_buffers.py": "factories in __init__ registered as buffers / parameters",
    "inplace_token_merge.py": "in-place ops (a *= mask.float(), masked_fill_, clamp_)",
    "mae_random_masking.py": "torch.rand noise only argsorted into indices; bool masks",
    "sincos_embed_helpers.py": "helpers receiving dtype= / device= from the caller",
    "ibot_mask_tokens.py": "bool masks in torch.where with the mask token cast",
    "autocast_projection.py": "matmuls with float32 cameras under torch.autocast; float32 solve under autocast(enabled=False)",
    "hmr_pose_regressor.py": "body pose and weak-perspective camera regressed by the network (activations)",
    "attention_named_qkv.py": "attention matrices named K and P assigned from activations",
    "scale_shift_lstsq.py": "float32 least squares with torch.linalg.solve by design",
    "export_detections.py": "post-processing handing boxes to NumPy (run in float32)",
    "mae_sincos_init.py": "NumPy pos-embed copied into a parameter at initialisation",
    "deformable_reference_points.py": "linspace with dtype=valid_ratios.dtype",
    "voxelize_index_math.py": "index math: float meeting rounded right away (.floor().long())",
    "clip_contrastive_head.py": "arange labels as cross-entropy targets, 0-dim logit scale",
    "video_temporal_sampling.py": "linspace(...).round().long() frame indices and arange embedding ids",
    "edsr_mean_shift.py": "plain mean attribute cast with type_as(x) before use (basicsr EDSR)",
    "raft_coords_grid.py": "coords_grid helper given dtype=f1.dtype",
    "coordconv_add_coords.py": "integer coordinate grids cast to the input dtype / type_as",
    "detr3d_lidar2img_newtensor.py": "lidar2img built with ref.new_tensor (cast camera)",
    "esm_token_dropout.py": "mask-ratio count cast with .to(x.dtype), padding mask type_as",
    "unet_timestep_embedding.py": "float32 sinusoid cast to sample dtype before the time MLP (diffusers)",
    "dense_heads/rpn_lite_head.py": "package helpers called with dtype=x.dtype and new_tensor",
    "dense_heads/utils/grids.py": "grid helper with no tensor parameter (dtype chosen by the caller)",
    "dense_heads/utils/misc.py": "scale_by_level / multi_apply helpers run with bf16 inputs",
}


def main():
    counts, hazards, looks = Counter(), [], []
    files = {r["file"]: r for r in REPORT["files"]}
    for p in sorted(ROOT.rglob("*.py")):
        if p.name == "__init__.py":
            continue
        rel = str(p.relative_to(ROOT))
        src = p.read_text()
        labels = []
        for i, line in enumerate(src.splitlines(), 1):
            m = re.search(r"#\s*expect:\s*(DTL\d{3}(?:\s*,\s*DTL\d{3})*)", line)
            if m:
                for code in m.group(1).split(","):
                    counts[code.strip()] += 1
                    labels.append(f"{code.strip()}:{i}")
        run = "float32" if src.startswith("# run-dtype: float32") else "bf16"
        r = files[rel]
        if labels:
            hazards.append(f"| `{rel}` | {', '.join(labels)} | {HAZ[rel]} | {'raised' if r['raised'] else ''}{' promoted' if r['promoted'] else ''} |")
        else:
            looks.append(f"| `{rel}` | {run} | {LOOK[rel]} |")
    s = REPORT["summary"]
    text = TEMPLATE.format(
        n_files=s["files"], n_haz=s["hazard_files"], n_look=s["lookalike_files"], n_labels=s["labels"],
        c1=counts["DTL001"], c2=counts["DTL002"], c3=counts["DTL003"], c4=counts["DTL004"], c5=counts["DTL005"],
        hazards="\n".join(hazards), looks="\n".join(looks), consistent=s["consistent"], confirmed=s["labels_confirmed"],
        fixed=s["hazard_files_clean_after_simulated_fix"], nec=NEC["necessary"], nec_total=NEC["labels"],
        torch=s["torch"],
    )
    (ROOT / "README.md").write_text(text)
    print(counts)


TEMPLATE = """# blind_v6: a blind labelled evaluation set for dtypelint

{n_files} small, self-contained PyTorch files: {n_haz} **hazard** files (1-3 expected findings each,
{n_labels} labels in all) and {n_look} **look-alike** files (no finding expected). They re-create
patterns from vision, 3D, pose, NeRF, detection, segmentation, diffusion, super-resolution, optical
flow, video, audio and point-cloud code (mmdet/mmdet3d heads, basicsr, SAM, CLIP, DETR/DETR3D,
DDPM/DDIM, SMPL/HMR/SPIN, RAFT, PointNet++, PointPillars, Swin, MAE/iBOT, monodepth2, 3DGS, ...).

## How it was written

- Read: `/work/shared/SPEC.md` (section 3, the rule catalog and vocabulary), `/work/shared/seeds/*.md`,
  `/work/dtl25/README.md`, `/work/dtl25/rules/DTL001.md` ... `DTL005.md` (and DTL000.md). Labels follow
  these pages: the default `scope = "models"`, the "not reported / not flagged" lists, and the
  location conventions below.
- Not read and not run: the linter's implementation (`/work/dtl25/dtypelint/`), its tests,
  evaluation and fixtures, `/work/main`, `/work/corpora*`, `/work/dtl2[0-4]`. `dtypelint` was never
  run. Every file was written from scratch for this set.
- Every label was then checked at runtime (torch {torch}, CPU), see below.

## Label conventions (read by the scorer)

- `# expect: DTL00N` (comma-separated if several) at the end of the exact line where a finding
  starts: the factory call for DTL001 / DTL004 (the line where the call begins), the uncast camera
  operand for DTL002, the cast expression / operand for DTL003, the `self.x = ...` line in
  `__init__` for DTL005. Every other line is expected clean. Products with two findings are written
  one operand per line, so each line has one label.
- `# lookalike: <why>` marks notable true-negative lines (not scored). Hazard files also contain
  look-alike lines.
- Every file defines `example()` returning `(module_or_callable, args)`: modules `.to(torch.bfloat16)`,
  activations bf16, cameras as a dataset gives them (float32 tensors, or NumPy float64 in
  `img_metas`), ids int64. Files whose code never runs in low precision (dataset, transforms,
  plotting, tests, metrics, export) start with `# run-dtype: float32` and are called in float32.
  `losses.py` starts with `# output-dtype: float32` (its loss is float32 by design; checker only).
- The package `dense_heads/` (`__init__.py`, `fcos_head.py`, `rpn_lite_head.py`, `utils/__init__.py`
  re-exporting from `utils/misc.py` and `utils/grids.py`) uses relative imports: a helper in one
  module is used by a model in another. `test_drop_path.py` imports `vit_drop_path` as a top-level
  module (the set's root is the import root).
- Where a rule page locates a finding at the meeting rather than the cast / helper call (DTL003
  masks and counts, DTL001 helpers that make a float tensor from sizes), the cast or call and the
  meeting were written on the same line, so the label is unambiguous.

## Per-rule label counts

| rule | labels |
|---|---|
| DTL001 factory-without-dtype | {c1} |
| DTL002 camera-matmul-uncast | {c2} |
| DTL003 one-sided-cast | {c3} |
| DTL004 numpy-float64 | {c4} |
| DTL005 unregistered-tensor-attribute | {c5} |
| total | {n_labels} |

## Hazard files ({n_haz})

| file | labels (code:line) | what | bf16 run of the original |
|---|---|---|---|
{hazards}

## Look-alike files ({n_look})

| file | run dtype | the trap |
|---|---|---|
{looks}

## Runtime check

`/work/blind_v6_tools/check_labels.py` (report: `/work/blind_v6_tools/check_report.json`) imports every
file (package modules as `dense_heads.*`), calls `example()` and runs it under a
`torch.overrides.TorchFunctionMode` recorder, in bf16 (or float32 for `# run-dtype: float32` files):

- It records every torch call whose floating operands have mixed dtypes and that **raises**
  (recovered by casting the operands so the run goes on to later hazards), **promotes** a bf16
  operand to a wider result (the result is cast back, so each hazard is seen on its own), or writes
  bf16 values into a wider buffer (`buf[idx] = act`); an integer literal vector that makes an op
  raise (`torch.cross(int64, bf16)`) counts as well; plus floating outputs not in the expected dtype.
- Every value made by a call that starts on a labelled line is tainted with that label, and the
  taint follows the off-dtype values computed from it. A label is **confirmed** when an event's
  off-dtype operand carries its taint, or (for a float32 camera argument written as a bare name)
  when the event's call spans the labelled line. An event explained by no label makes the file
  inconsistent.
- **Simulated fix**: each hazard file is run again with the values made on its labelled lines cast
  to bf16 (what `dtype=x.dtype`, `.to(x.dtype)` or `register_buffer` would give); the run must then
  be clean, so the labels cover every hazard of the example.
- A look-alike file is consistent when its run has no event at all, no error, and its floating
  outputs are in the expected dtype.

Result: **{consistent}/{n_files} files consistent** ({n_haz} hazard files, all {confirmed}/{n_labels}
labels confirmed, {fixed}/{n_haz} hazard files clean after the simulated fix; {n_look} look-alike
files clean).

`/work/blind_v6_tools/label_necessity.py` (report `label_necessity.json`) drops one label at a
time and re-checks the file: {nec}/{nec_total} labels are individually necessary. The two that are
not are the pair in `detr3d_feature_sampling.py`, where the rule pages give two findings for one
runtime hazard (DTL004 at `torch.from_numpy` of the NumPy `lidar2img`, DTL002 at its uncast use in
the matmul); either fix alone cures the run, so runtime cannot separate them.

Run: `/work/dtl25/.venv/bin/python /work/blind_v6_tools/check_labels.py` (exit 0 when every file is
consistent).
"""

if __name__ == "__main__":
    main()
