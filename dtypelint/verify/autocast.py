"""Which torch calls autocast casts, per device type: the op lists of ATen's autocast.

Inside `torch.autocast(device, dtype=...)` the dispatcher casts the floating operands of some ops
before running them: the "lower precision" ops (matmul, linear, conv, ...) to the autocast dtype,
the "fp32" ops (losses, norms, linalg, ...) to float32. Their operands may well mix bf16 and
float32 at the Python level, yet the kernel sees one dtype: that is autocast working, not a
dtype hazard. The "promote" ops (cat, stack, ...) are cast to the widest operand dtype, which is
exactly the silent promotion the recorder reports, so they are not listed here.

The lists follow aten/src/ATen/autocast_mode.cpp (CPU: `AutocastCPU`; CUDA and other GPU
backends: `AT_FORALL_LOWER_PRECISION_FP` / `AT_FORALL_FP32` / `AT_FORALL_FP32_SET_OPT_DTYPE` in
autocast_mode.h), keyed by the ATen op name. Python-level names are mapped to those names by
`aten_name` (`torch.nn.functional.grid_sample` runs `aten::grid_sampler`, `torch.linalg.inv`
runs `aten::linalg_inv`, ...).

No torch import: the tables are data, used by the recorder in the process that runs torch.
"""

from __future__ import annotations

LOWER_PRECISION = "lower_precision_fp"
FP32 = "fp32"

_CPU_LOWER = """
conv1d conv2d conv3d bmm mm linalg_vecdot baddbmm addmm _addmm_activation addbmm linear
_convolution matmul conv_tbc mkldnn_rnn_layer conv_transpose1d conv_transpose2d conv_transpose3d
prelu scaled_dot_product_attention _native_multi_head_attention
"""
_CPU_FP32 = """
avg_pool3d binary_cross_entropy grid_sampler polar prod quantile nanquantile stft cdist
grid_sampler_2d _grid_sampler_2d_cpu_fallback grid_sampler_3d trace view_as_complex cholesky
cholesky_inverse cholesky_solve inverse lu_solve orgqr ormqr pinverse max_pool3d max_unpool2d
max_unpool3d adaptive_avg_pool3d reflection_pad1d reflection_pad2d replication_pad1d
replication_pad2d replication_pad3d mse_loss cosine_embedding_loss nll_loss nll_loss2d
hinge_embedding_loss poisson_nll_loss smooth_l1_loss cross_entropy_loss l1_loss huber_loss
margin_ranking_loss soft_margin_loss triplet_margin_loss multi_margin_loss ctc_loss kl_div
multilabel_margin_loss binary_cross_entropy_with_logits fft_fft fft_ifft fft_fft2 fft_ifft2
fft_fftn fft_ifftn fft_rfft fft_irfft fft_rfft2 fft_irfft2 fft_rfftn fft_irfftn fft_hfft fft_ihfft
linalg_cond linalg_matrix_rank linalg_solve linalg_cholesky linalg_svdvals linalg_eigvals
linalg_eigvalsh linalg_inv linalg_householder_product linalg_tensorinv linalg_tensorsolve
fake_quantize_per_tensor_affine geqrf _lu_with_info qr svd triangular_solve
fractional_max_pool2d fractional_max_pool3d adaptive_max_pool3d multilabel_margin_loss_forward
linalg_qr linalg_cholesky_ex linalg_svd linalg_eig linalg_eigh linalg_lstsq linalg_inv_ex
"""
_GPU_LOWER = """
_convolution conv1d conv2d conv3d conv_tbc conv_transpose1d conv_transpose2d conv_transpose3d
convolution prelu addmm addmv addr matmul einsum mm mv linalg_vecdot linear addbmm baddbmm bmm
chain_matmul linalg_multi_dot _thnn_fused_lstm_cell _thnn_fused_gru_cell lstm_cell gru_cell
rnn_tanh_cell rnn_relu_cell _scaled_dot_product_flash_attention scaled_dot_product_attention
cudnn_convolution cudnn_convolution_transpose
"""
# fp32 and fp32_set_opt_dtype; cross_entropy is not registered on CUDA, but it runs log_softmax
# (fp32_set_opt_dtype) and nll_loss (fp32), so its operands end up in float32 all the same.
_GPU_FP32 = """
acos asin cosh erfinv exp expm1 log log10 log2 log1p reciprocal rsqrt sinh tan pow softplus
layer_norm native_layer_norm rms_norm group_norm frobenius_norm nuclear_norm cosine_similarity
poisson_nll_loss cosine_embedding_loss nll_loss nll_loss2d hinge_embedding_loss kl_div l1_loss
smooth_l1_loss huber_loss mse_loss margin_ranking_loss multilabel_margin_loss soft_margin_loss
triplet_margin_loss multi_margin_loss binary_cross_entropy_with_logits dist pdist cdist renorm
logsumexp upsample_nearest1d _upsample_nearest_exact1d upsample_nearest2d
_upsample_nearest_exact2d upsample_nearest3d _upsample_nearest_exact3d upsample_linear1d
upsample_bilinear2d _upsample_bilinear2d_aa upsample_trilinear3d upsample_bicubic2d
_upsample_bicubic2d_aa prod softmax log_softmax cumprod cumsum linalg_vector_norm
linalg_matrix_norm sum norm cross_entropy_loss
"""


def _table(lower: str, fp32: str) -> dict[str, str]:
    table = dict.fromkeys(fp32.split(), FP32)
    table.update(dict.fromkeys(lower.split(), LOWER_PRECISION))
    return table


POLICIES: dict[str, dict[str, str]] = {
    "cpu": _table(_CPU_LOWER, _CPU_FP32),
    "cuda": _table(_GPU_LOWER, _GPU_FP32),
}
# xpu uses the CUDA lists; mps a subset of them. Other device types fall back to the CUDA lists
# too: a listed op there is at worst a missed report, never a false one.
_FALLBACK_DEVICE = "cuda"

# Python-level spellings whose ATen op has another name.
_ALIASES = {"grid_sample": "grid_sampler", "cross_entropy": "cross_entropy_loss"}
_NAMESPACE_PREFIXES = (("torch.linalg.", "linalg_"), ("torch.fft.", "fft_"))


def aten_name(qualified: str) -> str:
    """The ATen op a Python-level torch call name runs: `torch.Tensor.__matmul__` -> `matmul`,
    `torch.nn.functional.grid_sample` -> `grid_sampler`, `torch.linalg.inv` -> `linalg_inv`."""
    for prefix, replacement in _NAMESPACE_PREFIXES:
        if qualified.startswith(prefix):
            return replacement + qualified[len(prefix) :]
    name = qualified.rsplit(".", 1)[-1]
    if name.startswith("__") and name.endswith("__"):
        name = name[2:-2]
        if name.startswith(("r", "i")) and name[1:] in ("matmul", "pow"):
            name = name[1:]  # __rmatmul__, __ipow__: same op, other operand order
    return _ALIASES.get(name, name)


def policy(device_type: str, qualified: str) -> str | None:
    """LOWER_PRECISION, FP32, or None (autocast leaves the call's dtypes alone or promotes)."""
    table = POLICIES.get(device_type, POLICIES[_FALLBACK_DEVICE])
    return table.get(aten_name(qualified))


def dtypes_after_autocast(
    device_type: str, qualified: str, dtypes: list[str], autocast_dtype: str
) -> list[str] | None:
    """The operand dtypes the kernel sees once autocast has cast them, or None when autocast
    does not cast this call. float64 operands are never cast (autocast's `is_eligible`)."""
    rule = policy(device_type, qualified)
    if rule is None:
        return None
    target = autocast_dtype if rule == LOWER_PRECISION else "float32"
    return list(dict.fromkeys(d if d == "float64" else target for d in dtypes))
