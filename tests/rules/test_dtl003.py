"""DTL003 one-sided-cast: the attention pattern of the inductor seed and its look-alikes."""

from __future__ import annotations

from pathlib import Path

import pytest

from dtypelint.config import Config
from dtypelint.engine import lint_paths
from tests.rules.helpers import (
    assert_fix_runs,
    dedent,
    executed,
    findings,
    fix_titles,
    fixed,
    messages,
)

SEED_ATTENTION = """
import math

import torch
import torch.nn as nn


class SingleHeadAttention(nn.Module):
    def __init__(self, embed_dim=512, num_embeddings=10000):
        super().__init__()
        self.embedding = nn.Embedding(num_embeddings, embed_dim)
        self.query_proj = nn.Linear(embed_dim, embed_dim)
        self.key_proj = nn.Linear(embed_dim, embed_dim)
        self.value_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x):
        x_emb = self.embedding(x)
        query = self.query_proj(x_emb)
        key = self.key_proj(x_emb)
        value = self.value_proj(x_emb)
        batch_size, seq_len, embed_dim = query.shape
        query = query.view(batch_size, seq_len, 1, embed_dim).permute(0, 2, 1, 3)
        key = key.view(batch_size, seq_len, 1, embed_dim).permute(0, 2, 1, 3)
        value = value.view(batch_size, seq_len, 1, embed_dim).permute(0, 2, 1, 3)
        query = query / math.sqrt(query.size(-1))
        attn_scores = query @ key.transpose(-2, -1)
        attn_scores = attn_scores.float()         # upcast to float32 for stable softmax
        attn_weights = torch.softmax(attn_scores, dim=-1)
        attn_weights = attn_weights.half()         # downcast back to float16
        context = attn_weights @ value             # half @ float => error in eager, OK in compile
        context = context.permute(0, 2, 1, 3).reshape(batch_size, seq_len, embed_dim)
        return self.out_proj(context)
"""


def test_seed_attention_block() -> None:
    assert findings(SEED_ATTENTION) == [("DTL003", 30, 19)]
    assert messages(SEED_ATTENTION) == [
        "'attn_weights' is cast to float16 (.half()) but meets activation 'value' in `@`,"
        " which has the run's dtype; cast to value.dtype instead"
    ]
    after = fixed(SEED_ATTENTION)
    assert (
        "        attn_weights = attn_weights.to(value.dtype)         # downcast back to float16\n"
        in after
    )
    assert after.count("\n") == dedent(SEED_ATTENTION).count("\n")


CASES = {
    "float() directly in the operand": (
        """
        import torch
        def logits(x: torch.Tensor, w: torch.Tensor):
            return x.float() @ w
        """,
        (3, 12),
        "return x.to(w.dtype) @ w",
    ),
    "to(torch.float16) in F.linear": (
        """
        import torch
        import torch.nn.functional as F
        def f(x: torch.Tensor, weight: torch.Tensor):
            return F.linear(x.to(torch.float16), weight)
        """,
        (4, 21),
        "return F.linear(x.to(weight.dtype), weight)",
    ),
    "camera cast to float": (
        """
        import torch
        def f(points: torch.Tensor, K: torch.Tensor):
            return points @ K.float().T
        """,
        (3, 21),
        "return points @ K.to(points.dtype).T",
    ),
}


@pytest.mark.parametrize(("code", "where", "after"), CASES.values(), ids=CASES.keys())
def test_true_positives(code: str, where: tuple[int, int], after: str) -> None:
    assert findings(code, select="DTL003") == [("DTL003", *where)]
    assert after in fixed(code, select="DTL003")


NEGATIVES = {
    "both sides cast together": """
        import torch
        def f(q: torch.Tensor, k: torch.Tensor):
            return q.float() @ k.float().transpose(-2, -1)
    """,
    "cast back to the other operand's dtype before the matmul": """
        import torch
        def f(scores: torch.Tensor, v: torch.Tensor):
            p = torch.softmax(scores.float(), dim=-1).to(v.dtype)
            return p @ v
    """,
    "cast only used in a reduction": """
        import torch
        def f(x: torch.Tensor, w: torch.Tensor):
            norm = x.float().pow(2).mean(-1, keepdim=True)
            return (x * torch.rsqrt(norm).type_as(x)) @ w
    """,
    # audiocraft's StreamingMultiheadAttention (review round 22): q, k, v upcast together on
    # one branch, the weights cast to v itself: one dtype on every path
    "cast to the other operand, which a branch upcast": """
        import torch
        import torch.nn.functional as F
        def f(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, as_float32: bool):
            if as_float32:
                q, k, v = [x.float() for x in [q, k, v]]
            w = torch.softmax(torch.einsum("btd,bsd->bts", q, k), dim=-1)
            w = F.dropout(w, 0.1).to(v)
            return torch.einsum("bts,bsd->btd", w, v)
    """,
    "autocast disabled region is deliberate": """
        import torch
        def f(x: torch.Tensor, w: torch.Tensor):
            with torch.autocast("cuda", enabled=False):
                return x.float() @ w
    """,
}


@pytest.mark.parametrize("code", NEGATIVES.values(), ids=NEGATIVES.keys())
def test_true_negatives(code: str) -> None:
    assert findings(code, select="DTL003") == []


def test_no_fix_when_the_cast_is_not_the_operands_own() -> None:
    """`delta` gets float32 from its bias's cast: replacing that cast would not change `delta`
    itself (and would change the bias everywhere else): report, do not fix."""
    code = """
    import torch
    def scan(delta: torch.Tensor, bias: torch.Tensor, A: torch.Tensor):
        delta = delta + bias[..., None].float()
        return torch.einsum("bdl,dn->bln", delta, A)
    """
    assert findings(code) == [("DTL003", 4, 40)]
    assert fixed(code) == dedent(code)


def test_an_upcast_into_a_broadcast_einsum_is_deliberate() -> None:
    """No index is summed: mixed dtypes promote to the float32 the cast asked for, nothing
    raises (mamba's reference scan). The same upcast into a contracting einsum raises."""
    code = """
    import torch
    def scan(delta: torch.Tensor, u: torch.Tensor, B: torch.Tensor):
        return torch.einsum("bdl,bnl,bdl->bdln", delta.float(), B, u)
    """
    assert findings(code) == []
    raising = code.replace("->bdln", "->bdn")
    assert findings(raising) == [("DTL003", 3, 45)]


def test_an_upcast_meeting_only_module_parameters_is_deliberate() -> None:
    code = """
    import torch
    from torch import nn
    class SSM(nn.Module):
        def __init__(self):
            super().__init__()
            self.A_log = nn.Parameter(torch.zeros(4, 8))
        def forward(self, x):
            return torch.einsum("bd,dn->bn", x.float(), self.A_log)
    """
    assert findings(code) == []


def test_a_submodule_given_an_upcast_input_returns_the_runs_dtype() -> None:
    """vit-pytorch's CrossFormer: `self.dpb(rel_pos.float())` feeds float32 positions to a
    bias MLP. Under autocast its Linear layers run in bf16; without autocast the call itself
    raises: that is the finding (the MLP is an `nn.Sequential`, its first layer a `Linear`).
    Either way its output is not a float32 cast, so the attention after it is not one."""
    code = """
        import torch
        from torch import nn

        class Bias(nn.Module):
            def __init__(self, dim: int) -> None:
                super().__init__()
                self.dpb = nn.Sequential(nn.Linear(2, dim), nn.ReLU(), nn.Linear(dim, 1))

            def forward(self, sim: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
                pos = torch.arange(-3, 4, device=sim.device)
                rel_pos = torch.stack(torch.meshgrid(pos, pos, indexing="ij")).flatten(1).t()
                biases = self.dpb(rel_pos.float())
                attn = (sim + biases.squeeze(-1)).softmax(dim=-1)
                return torch.einsum("i j, j d -> i d", attn, v)
    """
    assert findings(code) == [("DTL003", 12, 27)]
    # the same cast written on the attention itself is still the seed's hazard
    cast_here = code.replace(".softmax(dim=-1)", ".softmax(dim=-1).float()")
    assert findings(cast_here) == [("DTL003", 12, 27), ("DTL003", 14, 48)]


def test_an_upcast_input_to_a_torch_layer_meets_its_weights() -> None:
    """`self.proj(x.float())` with `self.proj = nn.Linear(...)`: model.to(bfloat16) converts the
    weights, and the call raises `mat1 and mat2 must have the same dtype` (mmocr's edge
    embedding, guided diffusion's `linear_t(t.float())`). The fix casts to the weight's dtype,
    which a Linear or Conv always has; a norm layer's may be None, so it has no fix. Under
    autocast, and into a weightless layer, nothing is reported."""
    code = """
        import torch
        from torch import nn

        class Head(nn.Module):
            def __init__(self, dim: int) -> None:
                super().__init__()
                self.proj = nn.Linear(dim, dim)
                self.norm = nn.LayerNorm(dim)
                self.act = nn.GELU()

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                h = self.proj(x.float())
                with torch.autocast("cuda", dtype=torch.bfloat16):
                    g = self.proj(x.float())
                return self.norm(h.float()) + self.act(x.float()) + g
    """
    assert findings(code) == [("DTL003", 12, 23), ("DTL003", 15, 26)]
    assert messages(code)[0] == (
        "'x.float()' is cast to float32 (.float()) but is given to `self.proj`, whose weights"
        " have the run's dtype (without autocast the call raises); cast to self.proj.weight.dtype"
        " instead"
    )
    assert "h = self.proj(x.to(self.proj.weight.dtype))" in fixed(code)
    assert "self.norm(h.float())" in fixed(code)


def test_layers_without_weights_or_kept_in_float32_take_upcast_inputs() -> None:
    """diffusers' Kandinsky: `nn.LayerNorm(d, elementwise_affine=False)` has no weights, and the
    layers `_keep_in_fp32_modules` names (matched inside the layer's path, as diffusers does:
    `time_embeddings.in_layer`) stay float32 in a bf16 model, so their float32 inputs are right."""
    code = """
        import torch
        from torch import nn

        class TimeEmbeddings(nn.Module):
            def __init__(self, dim: int) -> None:
                super().__init__()
                self.in_layer = nn.Linear(dim, dim)

            def forward(self, time: torch.Tensor) -> torch.Tensor:
                return self.in_layer(time.to(torch.float32))

        class Block(nn.Module):
            def __init__(self, dim: int) -> None:
                super().__init__()
                self.norm = nn.LayerNorm(dim, elementwise_affine=False)
                self.modulation = nn.Linear(dim, dim)

            def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
                return self.norm(x.float()).type_as(x) + self.modulation(t.float())

        class Transformer(nn.Module):
            _keep_in_fp32_modules = ["time_embeddings", "modulation"]

            def __init__(self, dim: int) -> None:
                super().__init__()
                self.time_embeddings = TimeEmbeddings(dim)
                self.block = Block(dim)

            def forward(self, x: torch.Tensor, time: torch.Tensor) -> torch.Tensor:
                return self.block(x, self.time_embeddings(time))
    """
    assert findings(code) == []
    without_keep = code.replace('_keep_in_fp32_modules = ["time_embeddings", "modulation"]', "")
    assert findings(without_keep) == [("DTL003", 10, 30), ("DTL003", 19, 66)]


def test_an_operand_upcast_on_one_branch_is_reported() -> None:
    """Stable diffusion's CrossAttention (anytext): `if _ATTN_PRECISION == "fp32"` (the default)
    upcasts q and k, else not; on the upcast path `einsum(sim, v)` meets bf16 values in float32.
    No fix: the cast is not the operand's own."""
    code = """
        import os
        import torch
        from torch import nn, einsum

        _ATTN_PRECISION = os.environ.get("ATTN_PRECISION", "fp32")

        class CrossAttention(nn.Module):
            def __init__(self, dim: int) -> None:
                super().__init__()
                self.to_q, self.to_k, self.to_v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                q, k, v = self.to_q(x), self.to_k(x), self.to_v(x)
                if _ATTN_PRECISION == "fp32":
                    with torch.autocast(enabled=False, device_type="cuda"):
                        q, k = q.float(), k.float()
                        sim = einsum("b i d, b j d -> b i j", q, k)
                else:
                    sim = einsum("b i d, b j d -> b i j", q, k)
                sim = sim.softmax(dim=-1)
                return einsum("b i j, b j d -> b i d", sim, v)
    """
    assert findings(code) == [("DTL003", 21, 48)]
    assert fixed(code) == dedent(code)
    cast_back = code.replace("sim.softmax(dim=-1)", "sim.softmax(dim=-1).to(v.dtype)")
    assert findings(cast_back) == []


def test_a_tensor_made_in_an_operands_dtype_follows_its_upcast() -> None:
    """diffusers' and AnimateDiff's `if self.upcast_attention: query = query.float()`, then
    `baddbmm(torch.empty(..., dtype=query.dtype), query, key.T)`: on the upcast path the empty
    input is float32 too, so nothing meets in two dtypes."""
    code = """
        import torch
        from torch import nn

        class Attention(nn.Module):
            def __init__(self, upcast: bool) -> None:
                super().__init__()
                self.upcast = upcast

            def forward(self, query: torch.Tensor, key: torch.Tensor) -> torch.Tensor:
                if self.upcast:
                    query = query.float()
                    key = key.float()
                scores = torch.empty(query.shape[0], query.shape[1], key.shape[1], dtype=query.dtype)
                return torch.baddbmm(scores, query, key.transpose(-1, -2), beta=0)
    """
    assert findings(code) == []


def test_a_product_computed_under_autocast_has_autocasts_dtype() -> None:
    """Blind set v4: `q.float() @ k` inside `torch.autocast` is computed in bf16, so what comes
    of it is no float32 value when it reaches a layer after the region."""
    code = """
        import torch
        from torch import nn

        class Attention(nn.Module):
            def __init__(self, dim: int = 32):
                super().__init__()
                self.qkv = nn.Linear(dim, 3 * dim)
                self.proj = nn.Linear(dim, dim)

            def forward(self, x):
                q, k, v = self.qkv(x).chunk(3, dim=-1)
                with torch.autocast(device_type=x.device.type, dtype=torch.bfloat16):
                    attn = (q.float() @ k.transpose(-2, -1)).softmax(dim=-1)
                    out = attn @ v
                return self.proj(out)
    """
    assert findings(code) == []
    plain = code.replace(
        "                with torch.autocast(device_type=x.device.type, dtype=torch.bfloat16):\n",
        "",
    ).replace("                    ", "                ")
    assert findings(plain)[0] == ("DTL003", 12, 17)


def test_an_upcast_meeting_a_registered_buffer_is_reported_there_and_through_a_method() -> None:
    """SAM's random position embedding (round 20: easydetect, sssegmentation): prompt coordinates
    cast to float32 meet the Gaussian matrix, a buffer `module.to(torch.bfloat16)` converts, in
    a method called with the cast: bf16 raises `expected m1 and m2 to have the same dtype`.
    A parameter may be kept float32 by hand (Mamba's `A_log`); a buffer is not."""
    code = """
        import torch
        from torch import nn

        class PositionEmbeddingRandom(nn.Module):
            def __init__(self, n: int = 64) -> None:
                super().__init__()
                self.register_buffer("gaussian", torch.randn((2, n)))
                self.A_log = nn.Parameter(torch.zeros(2, n))

            def _pe_encoding(self, coords: torch.Tensor) -> torch.Tensor:
                coords = 2 * coords - 1
                return torch.sin(coords @ self.gaussian)

            def forward_with_coords(self, coords: torch.Tensor, size: int) -> torch.Tensor:
                return self._pe_encoding(coords.to(torch.float) / size)

            def direct(self, coords: torch.Tensor) -> torch.Tensor:
                return coords.float() @ self.gaussian + coords.float() @ self.A_log
    """
    assert findings(code) == [("DTL003", 15, 34), ("DTL003", 18, 16)]
    assert messages(code)[0] == (
        "'coords.to(torch.float) / size' is cast to float32 (.to(torch.float)) but meets activation"
        " 'self.gaussian' in `self._pe_encoding`, which has the run's dtype; cast to"
        " self.gaussian.dtype instead"
    )
    after = fixed(code)
    assert "self._pe_encoding(coords.to(self.gaussian.dtype) / size)" in after
    assert "coords.to(self.gaussian.dtype) @ self.gaussian + coords.float() @ self.A_log" in after
    # run: the fixed module works in bf16 and computes the same in float32
    torch = pytest.importorskip("torch")

    namespace: dict[str, object] = {}
    exec(compile(dedent(after), "model.py", "exec"), namespace)
    module = namespace["PositionEmbeddingRandom"](8)  # type: ignore[operator]
    coords = torch.rand(2, 5, 2) * 64
    before: dict[str, object] = {}
    exec(compile(dedent(code), "model.py", "exec"), before)
    original = before["PositionEmbeddingRandom"](8)  # type: ignore[operator]
    original.load_state_dict(module.state_dict())
    assert torch.equal(
        module.forward_with_coords(coords, 64), original.forward_with_coords(coords, 64)
    )
    assert (
        module.to(torch.bfloat16).forward_with_coords(coords.bfloat16(), 64).dtype == torch.bfloat16
    )


def test_a_spectrogram_is_float32_by_design() -> None:
    """`torch.stft` has no bfloat16 kernel (MKL, cuFFT): diffusers' MMAudio mel converter computes
    its magnitude in float32 and multiplies it with the mel buffer; the module never runs in
    bf16, so the buffer meeting the upcast magnitude is no finding there."""
    code = """
        import torch
        from torch import nn

        class MelConverter(nn.Module):
            def __init__(self, n_fft: int = 64, mels: int = 8) -> None:
                super().__init__()
                self.register_buffer("mel_basis", torch.rand(mels, n_fft // 2 + 1))
                self.register_buffer("window", torch.hann_window(n_fft))

            def forward(self, waveform: torch.Tensor) -> torch.Tensor:
                spectrum = torch.stft(waveform, 64, window=self.window, return_complex=True)
                magnitude = torch.sqrt(torch.view_as_real(spectrum).pow(2).sum(-1) + 1e-9).float()
                return torch.log(torch.clamp(torch.matmul(self.mel_basis, magnitude), min=1e-5))
    """
    assert findings(code) == []
    assert findings(
        code.replace(
            "torch.stft(waveform, 64, window=self.window, return_complex=True)", "waveform"
        )
    ) == [("DTL003", 13, 67)]


def test_an_upcast_input_to_a_sequential_meets_its_first_layer() -> None:
    """Depth Anything 3's camera decoder (round 21's missed-real): `self.fc_fov =
    nn.Sequential(nn.Linear(d, 2), nn.ReLU())` given `feat.float()` raises in bf16 like its
    `nn.Linear` twins; the fix takes the first layer's weight dtype."""
    code = """
        import torch
        from torch import nn

        class Scale(nn.Module):
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return x * 2

        class CameraDec(nn.Module):
            def __init__(self, d: int = 8) -> None:
                super().__init__()
                self.fc_t = nn.Linear(d, 3)
                self.fc_fov = nn.Sequential(nn.Linear(d, 2), nn.ReLU())
                self.act = nn.Sequential(nn.ReLU(), nn.Linear(d, 2))
                self.custom = nn.Sequential(Scale(), nn.Linear(d, 2))

            def forward(self, feat: torch.Tensor):
                return self.fc_t(feat.float()), self.fc_fov(feat.float())
    """
    assert findings(code) == [("DTL003", 17, 26), ("DTL003", 17, 53)]
    # weightless layers first (x-transformers' `Sequential(Rearrange(...), nn.Linear(1, d))`,
    # round 22's missed-real): the input reaches the first layer with weights unchanged
    with_relu = code.replace("return self.fc_t", "return self.act(feat.float()), self.fc_t")
    assert findings(with_relu) == [("DTL003", 17, 25), ("DTL003", 17, 50), ("DTL003", 17, 77)]
    assert "self.act(feat.to(self.act[1].weight.dtype))" in fixed(with_relu)
    # a first layer of the project's own: what its input meets is not known here
    with_custom = code.replace("return self.fc_t", "return self.custom(feat.float()), self.fc_t")
    assert findings(with_custom) == [("DTL003", 17, 53), ("DTL003", 17, 80)]
    after = fixed(code)
    assert "self.fc_fov(feat.to(self.fc_fov[0].weight.dtype))" in after
    torch = pytest.importorskip("torch")
    namespace: dict[str, object] = {}
    exec(compile(dedent(after), "model.py", "exec"), namespace)
    module = namespace["CameraDec"]().to(torch.bfloat16)  # type: ignore[operator]
    outputs = module(torch.randn(2, 8, dtype=torch.bfloat16))
    assert [o.dtype for o in outputs] == [torch.bfloat16, torch.bfloat16]


def test_operands_given_by_keyword_are_operands() -> None:
    """yolov7's Swin v2 attention (round 21's missed-real): `F.linear(input=x, weight=...)`
    written with keywords made no activation, so `attn.half() @ v` went unseen while its v1 twin
    (`self.qkv(x)`) was reported."""
    code = """
        import torch
        import torch.nn.functional as F
        from torch import nn

        class Attention(nn.Module):
            def __init__(self, dim: int) -> None:
                super().__init__()
                self.qkv = nn.Linear(dim, dim * 3, bias=False)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                q, k, v = F.linear(input=x, weight=self.qkv.weight).chunk(3, dim=-1)
                attn = (q @ k.transpose(-2, -1)).softmax(-1)
                return attn.half() @ v
    """
    assert findings(code) == [("DTL003", 13, 16)]
    assert "return attn.to(v.dtype) @ v" in fixed(code)


def test_a_parenthesised_receiver_keeps_its_parenthesis() -> None:
    """x-transformers' belief-state wrapper (round 22): `(bi - fi).float()` given to a layer; the
    receiver's node ends before its closing parenthesis, so the message showed `).float()` and
    the fix, cut from there, would not parse."""
    code = """
        import torch
        from torch import nn

        class Distance(nn.Module):
            def __init__(self, d: int = 4) -> None:
                super().__init__()
                self.to_cond = nn.Sequential(nn.Flatten(0), nn.Unflatten(0, (-1, 1)), nn.Linear(1, d))

            def forward(self, x: torch.Tensor, bi: torch.Tensor, fi: torch.Tensor) -> torch.Tensor:
                distance = (bi - fi).float()
                return x * self.to_cond(distance)
    """
    assert findings(code) == [("DTL003", 11, 33)]
    assert "'distance' is cast to float32 (.float())" in messages(code)[0]
    after = fixed(code)
    assert "distance = (bi - fi).to(self.to_cond[2].weight.dtype)\n" in after
    torch = pytest.importorskip("torch")
    distance = executed(after)["Distance"]
    for dtype in (torch.float32, torch.bfloat16):
        module = distance().to(dtype)  # type: ignore[operator]
        bi, fi = torch.arange(6), torch.zeros(6, dtype=torch.long)
        assert module(torch.randn(6, 4, dtype=dtype), bi, fi).dtype == dtype


def test_an_upcast_given_to_the_layer_a_class_extends() -> None:
    """deepinv's DiffUNet (review round 22's missed-real), guided diffusion's `GroupNorm32`:
    `super().forward(x.float())` meets the norm's own weights, bf16 after `module.to(...)`, and
    raises. No fix: a norm may have no weight (`affine=False`). A subclass of a layer without
    weights, or of `nn.Module`, is no such call."""
    code = """
        import torch
        from torch import nn

        class GroupNorm32(nn.GroupNorm):
            def forward(self, x):
                return super().forward(x.float()).type(x.dtype)

        class Drop(nn.Dropout):
            def forward(self, x):
                return super().forward(x.float()).type(x.dtype)
    """
    assert findings(code) == [("DTL003", 6, 32)]
    assert fixed(code) == dedent(code)
    torch = pytest.importorskip("torch")
    norm = executed(code, "norm.py")["GroupNorm32"](2, 4).to(torch.bfloat16)  # type: ignore[operator]
    with pytest.raises(RuntimeError):
        norm(torch.randn(2, 4, 3, dtype=torch.bfloat16))


def test_a_softmax_given_a_float32_dtype_is_a_cast() -> None:
    """speechbrain's RelPosMHAXL (review round 23's missed-real) and imagen-video's attention:
    `F.softmax(scores, dim=-1, dtype=torch.float32)` upcasts the weights as `.float()` would, and
    the product with bf16 values raises. The fix casts the weights back after the softmax; cast
    back already (`.to(v.dtype)`, `.type_as(v)`) it is no finding."""
    code = """
        import torch
        import torch.nn.functional as F
        from torch import nn

        class Attention(nn.Module):
            def __init__(self, d: int = 8) -> None:
                super().__init__()
                self.qkv = nn.Linear(d, 3 * d)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                q, k, v = self.qkv(x).chunk(3, dim=-1)
                scores = F.softmax(torch.matmul(q, k.transpose(-1, -2)), dim=-1, dtype=torch.float32)
                attn = (q @ k.transpose(-1, -2)).softmax(dim=-1, dtype=torch.float32)
                return torch.matmul(scores, v) + attn @ v
    """
    assert findings(code) == [("DTL003", 14, 29), ("DTL003", 14, 42)]
    assert messages(code)[0] == (
        "'scores' is cast to float32 (dtype=torch.float32) but meets activation 'v' in"
        " `torch.matmul`, which has the run's dtype; cast to v.dtype instead"
    )
    after = fixed(code)
    assert "dim=-1, dtype=torch.float32).to(v.dtype)\n" in after
    assert ".softmax(dim=-1, dtype=torch.float32).to(v.dtype)\n" in after
    assert findings(after) == []
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError):
        executed(code)["Attention"]().to(torch.bfloat16)(torch.randn(2, 3, 8, dtype=torch.bfloat16))  # type: ignore[operator]
    attention = executed(after)["Attention"]
    for dtype in (torch.float32, torch.bfloat16):
        module = attention().to(dtype)  # type: ignore[operator]
        assert module(torch.randn(2, 3, 8, dtype=dtype)).dtype == dtype


PROMOTING_MASKS = """
import torch
from torch import nn


class DropPath(nn.Module):
    def __init__(self, p: float = 0.1) -> None:
        super().__init__()
        self.p = p
        self.fc = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        keep = torch.rand(x.shape[0], 1, 1, device=x.device) >= self.p
        x = x.div(1 - self.p) * keep.float()
        return self.fc(x)


class TokenDropout(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(33, 8)
        self.fc = nn.Linear(8, 8)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)
        lengths = (tokens != 1).sum(-1)
        observed = (tokens == 32).sum(-1).float() / lengths
        x = x * 0.88 / (1 - observed)[:, None, None]
        return self.fc(x)


class CoordConv(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(5, 4, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, _, h, w = x.shape
        rows = torch.arange(h, device=x.device).view(1, 1, h, 1).expand(b, 1, h, w)
        return self.conv(torch.cat([x, rows.float() / h], dim=1))
"""


def test_a_mask_or_count_cast_to_float32_promotes_the_activation_it_meets() -> None:
    """Review round 23's missed-real (vit-pytorch's drop path, ESM-1b's token dropout, facexlib's
    coordinate channels): `x * keep.float()` is float32 in a bf16 model, and the next layer
    raises. A mask's fix is safe (0 and 1 are exact in every dtype); a count's is unsafe (bf16
    counts exactly only to 256)."""
    assert findings(PROMOTING_MASKS) == [("DTL003", 13, 33), ("DTL003", 27, 24), ("DTL003", 39, 40)]
    assert messages(PROMOTING_MASKS)[0] == (
        "'keep.float()' is a mask cast to float32 (.float()) and meets activation 'x' in `*`: the"
        " result is promoted to float32, and a layer given it in a bf16 model raises; cast to"
        " x.dtype instead"
    )
    assert messages(PROMOTING_MASKS)[2].startswith(
        "'rows.float() / h' is an integer tensor cast to float32 (.float()) and meets activation"
        " 'x' in `cat`"
    )
    safe = fixed(PROMOTING_MASKS)
    assert "x = x.div(1 - self.p) * keep.to(x.dtype)\n" in safe
    assert "observed = (tokens == 32).sum(-1).float() / lengths\n" in safe  # not its own cast
    unsafe = fixed(PROMOTING_MASKS, unsafe=True)
    assert "torch.cat([x, rows.to(x.dtype) / h], dim=1)" in unsafe
    assert findings(unsafe) == [("DTL003", 27, 24)]
    torch = pytest.importorskip("torch")
    before, after = executed(PROMOTING_MASKS), executed(unsafe)
    for name, given in (
        ("DropPath", torch.randn(2, 3, 8)),
        ("CoordConv", torch.randn(2, 4, 3, 3)),
    ):
        with pytest.raises(RuntimeError):
            before[name]().to(torch.bfloat16)(given.bfloat16())  # type: ignore[operator]
        torch.manual_seed(0)
        expected = before[name]()(given)  # type: ignore[operator]
        torch.manual_seed(0)
        module = after[name]()  # type: ignore[operator]
        assert torch.equal(module(given), expected)  # float32 unchanged
        assert module.to(torch.bfloat16)(given.bfloat16()).dtype == torch.bfloat16


def _forward_block(*body: str) -> str:
    """A module whose `forward(x)` runs `body`, one line per argument, indented in place."""
    lines = "".join(f"        {line}\n" for line in body)
    head = (
        "import torch\nfrom torch import nn\n\n\nclass Block(nn.Module):\n"
        "    def __init__(self) -> None:\n        super().__init__()\n"
        "        self.fc = nn.Linear(8, 8)\n\n"
        "    def forward(self, x: torch.Tensor) -> torch.Tensor:\n"
    )
    return head + lines


def test_the_look_alike_template_reports_the_plain_promotion() -> None:
    """The template of the look-alikes below parses and is analysed: the plain pattern in it is
    a finding, so their empty results are the look-alikes' own."""
    assert findings(_forward_block("return self.fc(x * (x > 0).float())")) == [("DTL003", 11, 28)]


@pytest.mark.parametrize(
    "body",
    [
        # an upcast region of the activation itself, cast back where it ends (T5's norm)
        (
            "v = x.float().pow(2).mean(-1, keepdim=True)",
            "return self.fc((x * torch.rsqrt(v + 1e-6)).to(x.dtype))",
        ),
        # written in place: the activation keeps its dtype
        ("x *= (x > 0).float()", "return self.fc(x)"),
        # a comparison's result is a bool, whatever its operands promoted to
        ("m = (x > 0).float()", "return self.fc(x * ((x - m) > 0))"),
        # cast to the activation's dtype already
        ("return self.fc(x * (x > 0).to(x.dtype))",),
        # the mask meets only a Python number
        ("return self.fc(x) * (2.0 * (x > 0).float()).sum()",),
    ],
)
def test_mask_casts_that_promote_nothing_are_no_finding(body: tuple[str, ...]) -> None:
    assert findings(_forward_block(*body)) == []


def test_a_mask_cast_in_a_loss_or_a_library_function_is_no_finding() -> None:
    """Losses keep float32 math on purpose (only what raises counts there), and a public
    function's tensors are only assumed low precision: too weak a ground for a promotion."""
    code = """
        import torch

        def masked_mean(values: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
            mask = torch.arange(values.shape[1], device=values.device)[None] < lengths[:, None]
            return (values * mask.float()).sum(1)

        class MaskedLoss(torch.nn.Module):
            def forward(self, pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
                return ((pred - target) ** 2 * (target > 0).float()).mean()
    """
    assert findings(code, select="DTL003") == []


def test_an_einops_einsum_is_a_matrix_product() -> None:
    """vector-quantize-pytorch's BinaryMapper and x-transformers' free transformer (review round
    24's missed-real): `einops.einsum(logits, self.codes.float(), pattern)` raises in bf16."""
    code = """
        import torch
        import torch.nn.functional as F
        from einops import einsum
        from torch import nn

        class BinaryMapper(nn.Module):
            def __init__(self, bits: int = 3) -> None:
                super().__init__()
                codes = torch.arange(2**bits)[:, None] & (2 ** torch.arange(bits)) != 0
                self.register_buffer("codes", codes, persistent=False)

            def forward(self, logits: torch.Tensor) -> torch.Tensor:
                return einsum(F.logsigmoid(logits), self.codes.float(), "... b, c b -> ... c")
    """
    assert findings(code) == [("DTL003", 13, 45)]
    assert messages(code)[0].endswith(
        "in `einops.einsum`, which has the run's dtype; cast to logits.dtype instead"
    )
    after = fixed(code)
    assert 'self.codes.to(logits.dtype), "... b, c b -> ... c")' in after
    assert findings(after) == []


def test_binary_cross_entropy_of_a_cast_target_raises() -> None:
    """pyannote's loss (review round 24's missed-real): `F.binary_cross_entropy` is the one loss
    that raises on mixed dtypes (`Found dtype Float but expected BFloat16`); reported in a loss
    file too, since it raises. The fix casts the target to the prediction's dtype."""
    code = """
        import torch
        import torch.nn.functional as F

        def binary_cross_entropy(prediction: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
            return F.binary_cross_entropy(prediction, target.float())
    """
    assert findings(code) == [("DTL003", 5, 47)]
    after = fixed(code)
    assert "F.binary_cross_entropy(prediction, target.to(prediction.dtype))" in after
    torch = pytest.importorskip("torch")
    before_f, after_f = executed(code, "loss.py"), executed(after, "loss.py")
    pred, target = torch.rand(4, 3), (torch.rand(4, 3) > 0.5)
    with pytest.raises(RuntimeError):
        before_f["binary_cross_entropy"](pred.bfloat16(), target)  # type: ignore[operator]
    assert torch.equal(
        after_f["binary_cross_entropy"](pred, target),
        before_f["binary_cross_entropy"](pred, target),
    )  # type: ignore[operator]
    assert after_f["binary_cross_entropy"](pred.bfloat16(), target).dtype == torch.bfloat16  # type: ignore[operator]


def test_an_upcast_meeting_a_submodules_weight_is_reported() -> None:
    """CodeFormer's codebook lookup (review round 24's missed-real): a submodule's weight is
    converted by `module.to(torch.bfloat16)`, unlike a parameter the module may keep float32."""
    code = """
        import torch
        from torch import nn

        class Codebook(nn.Module):
            def __init__(self, n: int = 4, d: int = 8) -> None:
                super().__init__()
                self.embedding = nn.Embedding(n, d)

            def forward(self, one_hot: torch.Tensor) -> torch.Tensor:
                return torch.matmul(one_hot.float(), self.embedding.weight)
    """
    assert findings(code) == [("DTL003", 10, 29)]


CODEBOOK_LOOKUP = """
import torch
from torch import nn


class VectorQuantizer(nn.Module):
    def __init__(self, codebook_size: int = 6, emb_dim: int = 4) -> None:
        super().__init__()
        self.codebook_size = codebook_size
        self.embedding = nn.Embedding(codebook_size, emb_dim)

    def forward(self, z: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
        indices = indices.view(-1, 1)
        one_hot = torch.zeros(indices.shape[0], self.codebook_size).to(indices)
        one_hot.scatter_(1, indices, 1)
        z_q = torch.matmul(one_hot.float(), self.embedding.weight)
        return z + z_q.view(z.shape)
"""


def test_a_one_hot_made_in_the_indices_dtype_and_upcast_meets_the_codebook() -> None:
    """CodeFormer's `get_codebook_feat` (review round 24's missed-real): `zeros(...).to(indices)`
    is int64 like the indices, `.float()` makes it float32, and the bf16 codebook weight makes
    the product raise. The submodule's weight is the dtype source (`self.proj.weight.dtype`,
    never `self.proj.dtype`); the fix is safe: where the original runs the cast is the same."""
    assert findings(CODEBOOK_LOOKUP) == [("DTL003", 15, 28)]
    assert messages(CODEBOOK_LOOKUP)[0].endswith(
        "meets activation 'self.embedding.weight' in `torch.matmul`, which has the run's dtype;"
        " cast to self.embedding.weight.dtype instead"
    )
    after = fixed(CODEBOOK_LOOKUP)
    assert after == dedent(CODEBOOK_LOOKUP).replace(
        "one_hot.float()", "one_hot.to(self.embedding.weight.dtype)"
    )
    assert findings(after) == []
    torch = pytest.importorskip("torch")
    z, indices = torch.randn(3, 4), torch.tensor([0, 5, 2])
    assert_fix_runs(CODEBOOK_LOOKUP, after, "VectorQuantizer", inputs=(z, indices))


RESCALED_PROBABILITIES = """
import torch
from torch import nn


class Sampler(nn.Module):
    def __init__(self, budget: int = 4) -> None:
        super().__init__()
        self.budget = budget
        self.fc = nn.Linear(8, 8)

    def forward(self, batch_x: torch.Tensor) -> torch.Tensor:
        batch_x = self.fc(batch_x)
        sparsity = self.budget / batch_x.shape[1]
        x = batch_x[0:1]
        xbar = torch.mean(x)
        r = sparsity / xbar
        le = torch.le(r, 1).float()
        return le * x * r + (1 - le) * x
"""


def test_a_mask_compared_from_a_full_reduction_is_a_number() -> None:
    """fastmri's `rescale_probs` (round 22's false finding): `torch.mean(x)` is 0-dim, so is
    `torch.le(r, 1).float()`, and a 0-dim float32 tensor promotes no bf16 activation. Reduced
    along a dimension it is a tensor, and the product is float32 in a bf16 model."""
    assert findings(RESCALED_PROBABILITIES) == []
    per_row = RESCALED_PROBABILITIES.replace("torch.mean(x)", "torch.mean(x, dim=1, keepdim=True)")
    assert findings(per_row) == [("DTL003", 18, 16)]
    torch = pytest.importorskip("torch")
    given = torch.randn(2, 8).bfloat16()
    module = executed(RESCALED_PROBABILITIES)["Sampler"]().to(torch.bfloat16)  # type: ignore[operator]
    assert module(given).dtype == torch.bfloat16
    promoting = executed(per_row)["Sampler"]().to(torch.bfloat16)  # type: ignore[operator]
    assert promoting(given).dtype == torch.float32


OPTIONAL_LAYER = """
import torch
from torch import nn


class Tracker(nn.Module):
    def __init__(self, use_ptrs: bool = False, dim: int = 8) -> None:
        super().__init__()
        self.use_ptrs = use_ptrs
        self.proj = nn.Linear(dim, dim)
        if use_ptrs:
            self.mask_downsample = nn.Conv2d(1, 1, kernel_size=4, stride=4)

    def forward(self, feats: torch.Tensor, mask_inputs: torch.Tensor):
        feats = self.proj(feats)
        mask_inputs_float = mask_inputs.float()
        high = mask_inputs_float * 20.0 - 10.0
        if self.use_ptrs:
            return feats, high, self.mask_downsample(mask_inputs_float)
        return feats, high, None
"""


def test_a_layer_made_under_a_condition_is_no_dtype_source() -> None:
    """SAM2's `_use_mask_as_output` (review round 25's broken safe fix): the cast runs on every
    call, the layer exists only when `use_ptrs`; `.to(self.mask_downsample.weight.dtype)` in
    place of the cast raised AttributeError in the default configuration, float32 included.
    Reported without a fix; a layer made on every path is the source, as before."""
    assert findings(OPTIONAL_LAYER) == [("DTL003", 18, 54)]
    assert fixed(OPTIONAL_LAYER, unsafe=True) == dedent(OPTIONAL_LAYER)
    always = OPTIONAL_LAYER.replace(
        "        if use_ptrs:\n            self.mask_downsample", "        self.mask_downsample"
    )
    assert "mask_inputs.to(self.mask_downsample.weight.dtype)" in fixed(always)
    torch = pytest.importorskip("torch")
    feats, masks = torch.randn(2, 8), torch.rand(2, 1, 8, 8) > 0.5
    default = executed(OPTIONAL_LAYER)["Tracker"]()  # type: ignore[operator]
    assert default(feats, masks)[2] is None  # the original runs where the layer is missing
    module = executed(fixed(always))["Tracker"](use_ptrs=True).to(torch.bfloat16)  # type: ignore[operator]
    assert module(feats.bfloat16(), masks)[2].dtype == torch.bfloat16


NO_OBJECT_EMBEDDING = """
import torch
from torch import nn


class Memory(nn.Module):
    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.encoder = nn.Linear(dim, dim)
        self.no_obj_embed_spatial = nn.Parameter(torch.randn(1, dim))

    def forward(self, pix_feat: torch.Tensor, object_score_logits: torch.Tensor) -> torch.Tensor:
        maskmem_features = self.encoder(pix_feat)
        is_obj_appearing = (object_score_logits > 0).float()
        maskmem_features += (1 - is_obj_appearing[..., None]) * self.no_obj_embed_spatial
        return maskmem_features
"""


def test_a_promotion_added_in_place_promotes_nothing() -> None:
    """SAM2's no-object embedding (review round 25's false finding): the mask's float32 product
    is added in place, and `+=` keeps the bf16 destination's dtype. Written out of place, the
    sum is float32 and reported."""
    assert findings(NO_OBJECT_EMBEDDING) == []
    out_of_place = NO_OBJECT_EMBEDDING.replace(
        "maskmem_features += (1", "maskmem_features = maskmem_features + (1"
    )
    assert findings(out_of_place) == [("DTL003", 14, 48)]
    torch = pytest.importorskip("torch")
    given = (torch.randn(2, 8).bfloat16(), torch.randn(2))
    in_place = executed(NO_OBJECT_EMBEDDING)["Memory"]().to(torch.bfloat16)  # type: ignore[operator]
    assert in_place(*given).dtype == torch.bfloat16
    promoting = executed(out_of_place)["Memory"]().to(torch.bfloat16)  # type: ignore[operator]
    assert promoting(*given).dtype == torch.float32


MASKED_MEAN = """
import torch
from torch import nn


class MaskedTemporalPooling(nn.Module):
    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        x = self.proj(x)
        valid_lengths = mask.sum(dim=1)
        x = (x * mask.unsqueeze(-1).float()).sum(dim=1)
        x = x / valid_lengths.unsqueeze(-1).float().clamp(min=1)
        return self.proj(x)
"""


def test_a_count_meeting_an_activation_promoted_by_a_mask_is_reported_too() -> None:
    """pytorchvideo's masked pooling (blind set v6): `x` is float32 after the mask's product,
    but only because of the mask; fixed, it is bf16 again and the count's cast promotes it. One
    check reports both, as `--fix` fixes both (the count's fix is unsafe)."""
    assert findings(MASKED_MEAN) == [("DTL003", 13, 18), ("DTL003", 14, 17)]
    after = fixed(MASKED_MEAN, unsafe=True)
    assert "mask.unsqueeze(-1).to(x.dtype)" in after
    assert "valid_lengths.unsqueeze(-1).to(x.dtype).clamp(min=1)" in after
    assert findings(after) == []
    torch = pytest.importorskip("torch")
    x, valid = torch.randn(2, 5, 8), torch.rand(2, 5) > 0.3
    valid[:, 0] = True
    assert_fix_runs(MASKED_MEAN, after, "MaskedTemporalPooling", inputs=(x, valid))


GUARDED_HALF = """
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q, value_states = self.q(x), self.v(x)
        attn_weights = torch.bmm(q, q.transpose(1, 2))
        if attn_weights.dtype == torch.float16:
            attn_weights = attn_weights.softmax(-1, dtype=torch.float32).to(torch.float16)
        else:
            attn_weights = attn_weights.softmax(-1)
        return torch.bmm(attn_weights, value_states)
"""


def test_a_cast_to_the_dtype_a_test_says_the_tensor_has_is_none() -> None:
    """OPT's attention in BLIP-2 (review round 25's false finding): the float16 cast runs only
    where `attn_weights` is float16 already, so it restores the run's dtype; in bf16 the branch
    is not taken. Without the test it is the seed's hazard."""
    assert findings(GUARDED_HALF) == []
    unguarded = GUARDED_HALF.replace("attn_weights.dtype == torch.float16", "self.training")
    assert findings(unguarded) == [("DTL003", 18, 26)]
    torch = pytest.importorskip("torch")
    given = torch.randn(2, 3, 8)
    guarded = executed(GUARDED_HALF)["Attention"]()  # type: ignore[operator]
    assert guarded.to(torch.bfloat16)(given.bfloat16()).dtype == torch.bfloat16
    assert guarded.half()(given.half()).dtype == torch.float16
    with pytest.raises(RuntimeError):
        executed(unguarded)["Attention"]().to(torch.bfloat16).train()(given.bfloat16())  # type: ignore[operator]


MADE_IN_FLOAT32 = """
import torch
from torch import nn


class PositionEmbeddingRandom(nn.Module):
    def __init__(self, num_pos_feats: int = 4) -> None:
        super().__init__()
        self.register_buffer("positional_encoding_gaussian_matrix", torch.randn((2, num_pos_feats)))
        self.proj = nn.Linear(8, 8)

    def _pe_encoding(self, coords: torch.Tensor) -> torch.Tensor:
        coords = (2 * coords - 1) @ self.positional_encoding_gaussian_matrix
        return torch.cat([torch.sin(coords), torch.cos(coords)], dim=-1)

    def forward(self, size: tuple[int, int]) -> torch.Tensor:
        h, w = size
        device = self.positional_encoding_gaussian_matrix.device
        grid = torch.ones((h, w), device=device, dtype=torch.float32)
        y_embed = (grid.cumsum(dim=0) - 0.5) / h
        x_embed = (grid.cumsum(dim=1) - 0.5) / w
        return self._pe_encoding(torch.stack([x_embed, y_embed], dim=-1))

    def smooth(self, x: torch.Tensor) -> torch.Tensor:
        x = self.proj(x)
        kernel = torch.full((4, 4), 0.25, device=x.device, dtype=torch.float32)
        return kernel @ x
"""


def test_a_factory_made_in_a_fixed_dtype_is_a_cast_where_it_meets_activations() -> None:
    """SAM's and SAM2's `get_dense_pe` (round 24's and 25's missed-real, five copies on the
    corpora): a grid made with `dtype=torch.float32` reaches a method multiplying it with a
    buffer, which `module.to(torch.bfloat16)` converted; the product raises on every decode.
    Reported as a cast; where the factory is the operand's whole value the fix gives it the
    other side's dtype (`dtype=x.dtype`), safe as a cast's fix is."""
    assert findings(MADE_IN_FLOAT32) == [("DTL003", 21, 34), ("DTL003", 26, 16)]
    assert messages(MADE_IN_FLOAT32)[0].startswith(
        "'torch.stack([x_embed, y_embed], dim=-1)' is made in float32 (dtype=torch.float32) but"
        " meets activation 'self.positional_encoding_gaussian_matrix' in `self._pe_encoding`"
    )
    after = fixed(MADE_IN_FLOAT32)
    assert "kernel = torch.full((4, 4), 0.25, device=x.device, dtype=x.dtype)" in after
    assert "grid = torch.ones((h, w), device=device, dtype=torch.float32)" in after  # no fix
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    original = executed(MADE_IN_FLOAT32)["PositionEmbeddingRandom"]()  # type: ignore[operator]
    torch.manual_seed(0)
    patched = executed(after)["PositionEmbeddingRandom"]()  # type: ignore[operator]
    x = torch.randn(4, 8)
    assert torch.equal(original.smooth(x), patched.smooth(x))
    original, patched = original.to(torch.bfloat16), patched.to(torch.bfloat16)
    for call in (lambda m: m((3, 3)), lambda m: m.smooth(x.bfloat16())):
        with pytest.raises(RuntimeError):
            call(original)
    assert patched.smooth(x.bfloat16()).dtype == torch.bfloat16


SAMPLED = """
import torch
import torch.nn.functional as F
from torch import nn


def flow_warp(x: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
    _, _, h, w = x.size()
    grid_y, grid_x = torch.meshgrid(torch.arange(0, h), torch.arange(0, w), indexing="ij")
    grid = torch.stack((grid_x, grid_y), 2).float()
    vgrid = grid + flow
    vgrid_x = 2.0 * vgrid[:, :, :, 0] / max(w - 1, 1) - 1.0
    vgrid_y = 2.0 * vgrid[:, :, :, 1] / max(h - 1, 1) - 1.0
    vgrid_scaled = torch.stack((vgrid_x, vgrid_y), dim=3)
    return F.grid_sample(x, vgrid_scaled, align_corners=True)


class TriPlane(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.planes = nn.Conv2d(4, 4, 1)

    def forward(self, feats: torch.Tensor, coordinates: torch.Tensor) -> torch.Tensor:
        plane_features = self.planes(feats)
        return F.grid_sample(plane_features, coordinates.float(), align_corners=False)
"""


def test_a_cast_grid_given_to_grid_sample_is_a_cast_operand() -> None:
    """basicsr's `flow_warp` and EG3D's tri-plane sampling (review round 25's missed-real): a
    grid cast to float32 (or a count grid promoted by it) meets bf16 features in
    `F.grid_sample`, which raises `expected scalar type BFloat16 but found Float`. The grid's own
    cast gets the features' dtype (safe: where the original runs, the cast is the same); the
    grid built from an earlier cast is reported without a fix."""
    assert findings(SAMPLED) == [("DTL003", 14, 29), ("DTL003", 24, 46)]
    after = fixed(SAMPLED)
    assert "F.grid_sample(plane_features, coordinates.to(plane_features.dtype)," in after
    torch = pytest.importorskip("torch")
    x, flow = torch.randn(1, 2, 4, 4), torch.zeros(1, 4, 4, 2)
    before = executed(SAMPLED)
    with pytest.raises(RuntimeError):
        before["flow_warp"](x.bfloat16(), flow.bfloat16())  # type: ignore[operator]
    feats, coords = torch.randn(1, 4, 4, 4), torch.rand(1, 3, 3, 2) * 2 - 1
    assert_fix_runs(SAMPLED, after, "TriPlane", inputs=(feats, coords))


def test_a_filter_made_in_float32_only_when_not_given_a_tensor_is_no_finding() -> None:
    """pytorch_wavelets' `afb1d`: a filter given as a list is made float32 (`if not
    isinstance(h0, torch.Tensor)`), but a module passes its registered buffers, converted with
    it. Made on every path, the filter is the hazard (`F.conv2d` raises on mixed dtypes)."""
    code = """
        import torch
        import torch.nn.functional as F

        def afb1d(x: torch.Tensor, h0):
            if not isinstance(h0, torch.Tensor):
                h0 = torch.tensor(h0, dtype=torch.float, device=x.device)
            h = torch.cat([h0.reshape(1, 1, 1, -1)] * x.shape[1], dim=0)
            return F.conv2d(x, h, groups=x.shape[1])
    """
    assert findings(code) == []
    always = code.replace(
        "            if not isinstance(h0, torch.Tensor):\n                h0 = torch.tensor(",
        "            h0 = torch.tensor(",
    )
    assert always != code
    assert findings(always) == [("DTL003", 7, 24)]


TIMESTEP_EMBEDDER = """
import math

import torch
from torch import nn


def timestep_embedding(t: torch.Tensor, dim: int, max_period: int = 10000) -> torch.Tensor:
    half = dim // 2
    freqs = torch.exp(
        -math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half
    ).to(device=t.device)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class TimestepEmbedder(nn.Module):
    def __init__(self, hidden: int, frequency_size: int = 16) -> None:
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(frequency_size, hidden), nn.SiLU())
        self.frequency_size = frequency_size

    def forward(self, t: torch.Tensor) -> torch.Tensor:
        t_freq = timestep_embedding(t, self.frequency_size)
        return self.mlp(t_freq)


class Denoiser(nn.Module):
    def __init__(self, hidden: int, frequency_size: int = 16) -> None:
        super().__init__()
        self.time_embed = nn.Linear(frequency_size, hidden)
        self.frequency_size = frequency_size

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return x + self.time_embed(timestep_embedding(t, self.frequency_size))
"""


def test_a_helper_returning_float32_math_given_to_a_layer_is_reported_at_the_call() -> None:
    """DiT's and taming's timestep embedders (review rounds 25 and 26's missed-real: kiui's
    DiT, taming, the guided-diffusion classifier): the helper computes in float32 (`t.float()`
    times a float32 table) and the caller gives the result to a bf16 Linear, which raises. The
    cast is one call away, so it is reported at the call; the fix casts the result to the
    layer's weight dtype where it is made (safe: in a float32 run the helper returns float32
    already, so `.to` changes nothing)."""
    assert findings(TIMESTEP_EMBEDDER) == [("DTL003", 24, 25), ("DTL003", 34, 36)]
    assert messages(TIMESTEP_EMBEDDER)[0] == (
        "'t_freq' is returned in float32 (cast inside timestep_embedding()) but is given to"
        " `self.mlp`, whose weights have the run's dtype (without autocast the call raises);"
        " cast to self.mlp[0].weight.dtype instead"
    )
    after = fixed(TIMESTEP_EMBEDDER)
    assert (
        "t_freq = timestep_embedding(t, self.frequency_size).to(self.mlp[0].weight.dtype)" in after
    )
    assert (
        "x + self.time_embed(timestep_embedding(t, self.frequency_size)"
        ".to(self.time_embed.weight.dtype))" in after
    )
    assert findings(after) == []
    torch = pytest.importorskip("torch")
    t, x = torch.randint(0, 1000, (3,)), torch.randn(3, 8)
    for name, inputs in (("TimestepEmbedder", (t,)), ("Denoiser", (x, t))):
        assert_fix_runs(TIMESTEP_EMBEDDER, after, name, (8,), inputs)


@pytest.mark.parametrize(
    "forward",
    [
        # cast back to the activations' dtype by the caller (diffusers, SD)
        "return x + self.time_embed(timestep_embedding(t, 16).to(x.dtype))",
        "return x + self.time_embed(timestep_embedding(t, 16).type_as(x))",
        # under autocast the layer casts its input
        "with torch.autocast('cuda', dtype=torch.bfloat16):\n"
        "                    return x + self.time_embed(timestep_embedding(t, 16))",
        # met by a float32 computation only: nothing of the run's dtype
        "return timestep_embedding(t, 16).sum() + x.float().mean()",
    ],
)
def test_a_returned_float32_cast_back_or_under_autocast_is_no_finding(forward: str) -> None:
    code = f"""
        import math

        import torch
        from torch import nn


        def timestep_embedding(t: torch.Tensor, dim: int) -> torch.Tensor:
            freqs = torch.exp(-math.log(10000) * torch.arange(dim // 2, dtype=torch.float32))
            args = t[:, None].float() * freqs.to(t.device)[None]
            return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


        class Denoiser(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.time_embed = nn.Linear(16, 16)

            def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
                {forward}
    """
    assert findings(code) == []
    plain = code.replace(forward, "return x + self.time_embed(timestep_embedding(t, 16))")
    assert findings(plain) == [("DTL003", 19, 36)]


def test_a_helper_returning_its_input_cast_back_is_no_returned_cast() -> None:
    """An RMS norm's upcast region ends with a cast back (`.type_as(x)`): the helper returns the
    run's dtype, and its caller's layer meets no cast. Without the cast back it is one."""
    code = """
        import torch
        from torch import nn


        class Block(nn.Module):
            def __init__(self, dim: int) -> None:
                super().__init__()
                self.proj = nn.Linear(dim, dim)

            def _norm(self, x: torch.Tensor) -> torch.Tensor:
                normed = x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6)
                return normed.type_as(x)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.proj(self._norm(x))
    """
    assert findings(code) == []
    upcast = code.replace("return normed.type_as(x)", "return normed")
    assert findings(upcast) == [("DTL003", 15, 26)]


SUBMODULE_EMBEDDER = """
import math

import torch
import torch.nn.functional as F
from torch import nn


class Timesteps(nn.Module):
    def __init__(self, num_channels: int = 16) -> None:
        super().__init__()
        self.num_channels = num_channels

    def forward(self, timesteps: torch.Tensor) -> torch.Tensor:
        half = self.num_channels // 2
        exponent = -math.log(10000) * torch.arange(half, dtype=torch.float32) / half
        emb = timesteps[:, None].float() * torch.exp(exponent).to(timesteps.device)[None, :]
        return torch.cat([torch.sin(emb), torch.cos(emb)], dim=-1)


class TimestepEmbedding(nn.Module):
    def __init__(self, in_channels: int, dim: int) -> None:
        super().__init__()
        self.linear_1 = nn.Linear(in_channels, dim)
        self.linear_2 = nn.Linear(dim, dim)

    def forward(self, sample: torch.Tensor) -> torch.Tensor:
        return self.linear_2(F.silu(self.linear_1(sample)))


class DiT(nn.Module):
    def __init__(self, dim: int = 8) -> None:
        super().__init__()
        self.timestep_embed = Timesteps(16)
        self.timestep_proj = TimestepEmbedding(16, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        t_emb = self.timestep_embed(t)
        t_emb = self.timestep_proj(t_emb)
        return self.proj(x) + t_emb
"""


def test_a_float32_submodule_output_given_to_a_submodule_feeding_a_layer_is_reported() -> None:
    """kiui's DiT (review round 25's missed-real), diffusers' `Timesteps` and
    `TimestepEmbedding` used without diffusers' cast back: the first submodule returns float32
    and the second gives its input straight to its own Linear, which raises in a bf16 model.
    The fix casts the returned value to that Linear's weight dtype, where it is assigned."""
    assert findings(SUBMODULE_EMBEDDER) == [("DTL003", 39, 36)]
    assert messages(SUBMODULE_EMBEDDER)[0] == (
        "'t_emb' is returned in float32 (cast inside self.timestep_embed()) but is given to"
        " `self.timestep_proj`, whose weights have the run's dtype (without autocast the call"
        " raises); cast to self.timestep_proj.linear_1.weight.dtype instead"
    )
    after = fixed(SUBMODULE_EMBEDDER)
    assert "t_emb = self.timestep_embed(t).to(self.timestep_proj.linear_1.weight.dtype)" in after
    assert findings(after) == []
    torch = pytest.importorskip("torch")
    x, t = torch.randn(2, 8), torch.randint(0, 1000, (2,))
    assert_fix_runs(SUBMODULE_EMBEDDER, after, "DiT", inputs=(x, t))


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # the caller casts back (diffusers: `t_emb.to(dtype=sample.dtype)`)
        ("t_emb = self.timestep_embed(t)\n", "t_emb = self.timestep_embed(t).to(x.dtype)\n"),
        # the submodule casts its input to its weight's dtype before the layer
        (
            "return self.linear_2(F.silu(self.linear_1(sample)))",
            "sample = sample.to(self.linear_1.weight.dtype)\n"
            "        return self.linear_2(F.silu(self.linear_1(sample)))",
        ),
        # the submodule's forward normalises the input first: no layer meets it as given
        (
            "return self.linear_2(F.silu(self.linear_1(sample)))",
            "return self.linear_2(F.silu(self.linear_1(sample.to(self.linear_2.weight.dtype))))",
        ),
    ],
)
def test_a_submodule_input_cast_on_the_way_is_no_finding(before: str, after: str) -> None:
    code = SUBMODULE_EMBEDDER.replace(before, after)
    assert code != SUBMODULE_EMBEDDER
    assert findings(code) == []


def write_package(package: Path, modules: dict[str, str]) -> list[Path]:
    """A package of `modules` (name -> source, dedented), its files sorted."""
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name, source in modules.items():
        (package / name).write_text(dedent(source))
    return sorted(package.glob("*.py"))


def project_findings(files: list[Path], name: str, others_clean: bool) -> list:
    """The diagnostics of file `name` when the whole package is checked (project summaries)."""
    outcomes = {Path(o.filename).name: o for o in lint_paths(files, Config(), jobs=1)}
    if others_clean:
        assert all(not o.diagnostics for n, o in outcomes.items() if n != name)
    return outcomes[name].diagnostics


def test_a_helper_of_another_module_returning_float32_is_reported_at_the_call(
    tmp_path: Path,
) -> None:
    """The summary crosses modules (`Summary.fixed_casts`, phase 2 of `lint_paths`): a
    project's `embed.timestep_embedding` given to a layer in `model.py` is the same hazard as a
    helper of the file, with the same fix."""
    embed = """
        import math

        import torch


        def timestep_embedding(t: torch.Tensor, dim: int) -> torch.Tensor:
            freqs = torch.exp(-math.log(10000) * torch.arange(dim // 2, dtype=torch.float32))
            args = t[:, None].float() * freqs.to(t.device)[None]
            return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    """
    model = """
        import torch
        from torch import nn

        from .embed import timestep_embedding


        class Denoiser(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.time_embed = nn.Linear(16, 16)

            def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
                return x + self.time_embed(timestep_embedding(t, 16))
    """
    files = write_package(tmp_path / "mypkg", {"embed.py": embed, "model.py": model})
    found = project_findings(files, "model.py", others_clean=True)
    assert [(d.code, d.location.row, d.location.column) for d in found] == [("DTL003", 13, 36)]
    assert found[0].message.startswith(
        "'timestep_embedding(t, 16)' is returned in float32 (cast inside timestep_embedding())"
    )
    lint_paths(files, Config(), jobs=1, fix=True)
    assert (
        "self.time_embed(timestep_embedding(t, 16).to(self.time_embed.weight.dtype))"
        in (tmp_path / "mypkg" / "model.py").read_text()
    )


CONTAINED_LAYERS = """
import math

import torch
import torch.nn.functional as F
from torch import nn


def gen_sineembed_for_position(pos_tensor: torch.Tensor) -> torch.Tensor:
    scale = 2 * math.pi
    dim_t = torch.arange(8, dtype=torch.float32, device=pos_tensor.device)
    dim_t = 10000 ** (2 * (dim_t // 2) / 8)
    pos_x = pos_tensor[:, :, 0, None] * scale / dim_t
    pos_y = pos_tensor[:, :, 1, None] * scale / dim_t
    return torch.cat((pos_y.sin(), pos_x.cos()), dim=2)


class MLP(nn.Module):
    def __init__(self, input_dim: int, hidden_dim: int, output_dim: int, num_layers: int) -> None:
        super().__init__()
        self.num_layers = num_layers
        h = [hidden_dim] * (num_layers - 1)
        self.layers = nn.ModuleList(nn.Linear(n, k) for n, k in zip([input_dim] + h, h + [output_dim]))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for i, layer in enumerate(self.layers):
            x = F.relu(layer(x)) if i < self.num_layers - 1 else layer(x)
        return x


class Decoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.ref_point_head = MLP(16, 8, 8, 2)
        self.bbox = nn.Linear(8, 2)

    def forward(self, tgt: torch.Tensor) -> torch.Tensor:
        reference_points = self.bbox(tgt).sigmoid()
        query_sine_embed = gen_sineembed_for_position(reference_points)
        return tgt + self.ref_point_head(query_sine_embed)


class PriorMLP(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Sequential(nn.Linear(1, dim), nn.SiLU()), nn.Linear(dim, dim))

    def forward(self, t: torch.Tensor) -> torch.Tensor:
        return self.net(t.float())


class RelPosBias(nn.Module):
    def __init__(self, dim: int, layers: int = 2) -> None:
        super().__init__()
        self.net = nn.ModuleList([nn.Sequential(nn.Linear(2, dim), nn.LeakyReLU())])
        self.net.extend(nn.Sequential(nn.Linear(dim, dim), nn.LeakyReLU()) for _ in range(layers))
        self.register_buffer("rel_pos", torch.randn(5, 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rel_pos = self.rel_pos.float()
        for layer in self.net:
            rel_pos = layer(rel_pos)
        return x + rel_pos.mean()


class Indexed(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.dense = nn.ModuleList([nn.Linear(1, dim), nn.Linear(dim, dim)])

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return x + self.dense[1](self.dense[0](t[:, None].float()))


class Repeated(nn.Module):
    def __init__(self, dim: int, depth: int) -> None:
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(dim, dim) for _ in range(depth)])

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        h = t.float()
        for block in self.blocks:
            h = block(h)
        return x + h
"""


def test_a_cast_input_reaches_a_layer_inside_a_container() -> None:
    """Round 26's missed-real: DALLE2's prior MLP (a Linear inside a nested Sequential),
    VQGAN's continuous position bias (`for layer in self.net`), taming's `self.temb.dense[0]`,
    GroundingDINO's `ref_point_head` (DETR's MLP, a loop over a ModuleList, given a float32 sine
    embedding). Each cast input meets the first layer's weights; the fix reads that layer's
    weight where the element exists on every path (a Sequential's argument, a literal list, a
    comprehension over `zip([d] + h, ...)`), and a ModuleList of `range(depth)` layers, which may
    be empty, gets no fix."""
    assert findings(CONTAINED_LAYERS) == [
        ("DTL003", 39, 42),
        ("DTL003", 48, 25),
        ("DTL003", 61, 29),
        ("DTL003", 71, 48),
        ("DTL003", 82, 23),
    ]
    assert [m.split(" but ")[1].split(",")[0] for m in messages(CONTAINED_LAYERS)] == [
        "is given to `self.ref_point_head`",
        "is given to `self.net`",
        "is given to `self.net`",
        "is given to `self.dense[0]`",
        "is given to `self.blocks`",
    ]
    after = fixed(CONTAINED_LAYERS)
    for line in (
        "query_sine_embed = gen_sineembed_for_position(reference_points).to("
        "self.ref_point_head.layers[0].weight.dtype)",
        "return self.net(t.to(self.net[0][0].weight.dtype))",
        "rel_pos = self.rel_pos.to(self.net[0][0].weight.dtype)",
        "x + self.dense[1](self.dense[0](t[:, None].to(self.dense[0].weight.dtype)))",
        "h = t.float()",  # no fix: `self.blocks` may be empty
    ):
        assert line in after, line
    assert findings(after) == [("DTL003", 82, 23)]
    torch = pytest.importorskip("torch")
    cases = {
        "Decoder": ((), (torch.randn(3, 4, 8),)),
        "PriorMLP": ((8,), (torch.randn(3, 1),)),
        "RelPosBias": ((8,), (torch.randn(3, 8),)),
        "Indexed": ((8,), (torch.randn(3, 8), torch.randint(0, 9, (3,)))),
    }
    for name, (init, inputs) in cases.items():
        assert_fix_runs(CONTAINED_LAYERS, after, name, init, inputs)


@pytest.mark.parametrize(
    ("before", "after", "gone"),
    [
        # the MLP casts its input to its weights' dtype first
        (
            "for i, layer in enumerate(self.layers):",
            "x = x.to(self.layers[0].weight.dtype)\n        for i, layer in enumerate(self.layers):",
            "'query_sine_embed'",
        ),
        # an index past the literal list: no layer the code names
        ("self.dense[0](t[:, None].float())", "self.dense[2](t[:, None].float())", "'t[:, None]"),
        # a loop over something else than a submodule list
        ("for layer in self.net:", "for layer in [torch.nn.Identity()]:", "'rel_pos'"),
    ],
)
def test_containers_the_code_does_not_name_a_layer_of_are_no_finding(
    before: str, after: str, gone: str
) -> None:
    code = CONTAINED_LAYERS.replace(before, after)
    assert code != CONTAINED_LAYERS
    assert any(m.startswith(gone) for m in messages(CONTAINED_LAYERS))
    reported = messages(code)
    assert len(reported) == 4
    assert not any(m.startswith(gone) for m in reported)


BUILT_LISTS = """
import torch
from torch import nn

MList = nn.ModuleList


class MLP(nn.Module):
    def __init__(self, dim_in: int, dim_out: int, depth: int = 2) -> None:
        super().__init__()
        layers = [nn.Sequential(nn.Linear(dim_in, dim_out), nn.SiLU())]
        for _ in range(depth - 1):
            layers.append(nn.Sequential(nn.Linear(dim_out, dim_out), nn.SiLU()))
        self.net = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x.float())


class ContinuousPositionBias(nn.Module):
    def __init__(self, dim: int, heads: int, layers: int = 2) -> None:
        super().__init__()
        self.net = MList([])
        self.net.append(nn.Sequential(nn.Linear(2, dim), nn.LeakyReLU()))
        for _ in range(layers - 1):
            self.net.append(nn.Sequential(nn.Linear(dim, dim), nn.LeakyReLU()))
        self.net.append(nn.Linear(dim, heads))
        self.register_buffer("rel_pos", torch.arange(8).view(4, 2), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rel_pos = self.rel_pos.float()
        for layer in self.net:
            rel_pos = layer(rel_pos)
        return x + rel_pos.mean()
"""


def test_layer_lists_built_in_init_name_their_first_layer() -> None:
    """DALLE2's prior MLP (`layers = [...]; layers.append(...); nn.Sequential(*layers)`) and
    its VQGAN's continuous position bias (`MList = nn.ModuleList`; `self.net = MList([])` then
    appends), round 26's missed-real: the first element is the one `__init__` adds first, on
    every path, so the fix reads its weight."""
    assert findings(BUILT_LISTS) == [("DTL003", 16, 25), ("DTL003", 32, 29)]
    after = fixed(BUILT_LISTS)
    assert "return self.net(x.to(self.net[0][0].weight.dtype))" in after
    assert "rel_pos = self.rel_pos.to(self.net[0][0].weight.dtype)" in after
    torch = pytest.importorskip("torch")
    for name, init, inputs in (
        ("MLP", (3, 4), (torch.randn(2, 3),)),
        ("ContinuousPositionBias", (4, 2), (torch.randn(2, 2),)),
    ):
        assert_fix_runs(BUILT_LISTS, after, name, init, inputs)
    # The first element added under a condition: which layer comes first is not known.
    conditional = BUILT_LISTS.replace(
        "        self.net = MList([])\n        self.net.append(",
        "        self.net = MList([])\n        if heads > 1:\n            self.net.append(",
    )
    assert conditional != BUILT_LISTS
    assert findings(conditional) == [("DTL003", 16, 25)]
    # Another package's container may drop arguments (x-transformers' `Sequential` filters
    # None): the layer is the same, its position maybe not, so no fix reads it.
    foreign = BUILT_LISTS.replace(
        "from torch import nn\n", "from torch import nn\nfrom einops_utils import Sequential\n"
    ).replace("self.net = nn.Sequential(*layers)", "self.net = Sequential(*layers)")
    assert findings(foreign) == [("DTL003", 17, 25), ("DTL003", 33, 29)]
    assert fix_titles(foreign)[0] is None


def test_a_submodule_class_of_another_module_passes_its_input_to_its_layer(
    tmp_path: Path,
) -> None:
    """GroundingDINO's decoder: `MLP` and `gen_sineembed_for_position` live in `utils.py`, the
    decoder in `transformer.py`. The class's forward is exported (`utils.MLP.forward`: its input
    goes to `self.layers[0]`), so the float32 sine embedding given to `self.ref_point_head` is
    reported where it is given, with the same fix as within one file."""
    source = dedent(CONTAINED_LAYERS)
    transformer = """
        import torch
        from torch import nn

        from .utils import MLP, gen_sineembed_for_position


        class Decoder(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.ref_point_head = MLP(16, 8, 8, 2)
                self.bbox = nn.Linear(8, 2)

            def forward(self, tgt: torch.Tensor) -> torch.Tensor:
                reference_points = self.bbox(tgt).sigmoid()
                query_sine_embed = gen_sineembed_for_position(reference_points)
                return tgt + self.ref_point_head(query_sine_embed)
    """
    utils = source[: source.index("class Decoder")]
    files = write_package(tmp_path / "gd", {"utils.py": utils, "transformer.py": transformer})
    found = project_findings(files, "transformer.py", others_clean=True)
    assert [(d.code, d.location.row, d.location.column) for d in found] == [("DTL003", 16, 42)]
    assert found[0].message.endswith("cast to self.ref_point_head.layers[0].weight.dtype instead")
    lint_paths(files, Config(), jobs=1, fix=True)
    assert (
        "query_sine_embed = gen_sineembed_for_position(reference_points).to("
        "self.ref_point_head.layers[0].weight.dtype)"
        in (tmp_path / "gd" / "transformer.py").read_text()
    )


LOVASZ = """
import torch
import torch.nn.functional as F


def _lovasz_grad(gt_sorted):
    p = len(gt_sorted)
    gts = gt_sorted.sum()
    intersection = gts - gt_sorted.float().cumsum(0)
    union = gts + (1 - gt_sorted).float().cumsum(0)
    jaccard = 1.0 - intersection / union
    if p > 1:
        jaccard[1:p] = jaccard[1:p] - jaccard[0:-1]
    return jaccard


def lovasz_hinge_flat(logits, labels):
    if len(labels) == 0:
        return logits.sum() * 0.0
    signs = 2.0 * labels.float() - 1.0
    errors = 1.0 - logits * signs
    errors_sorted, perm = torch.sort(errors, dim=0, descending=True)
    grad = _lovasz_grad(labels[perm])
    return torch.dot(F.relu(errors_sorted), grad)


def lovasz_softmax_flat(probas, labels):
    losses = []
    for c in range(probas.size(1)):
        fg = (labels == c).type_as(probas)
        errors = (fg - probas[:, c]).abs()
        errors_sorted, perm = torch.sort(errors, 0, descending=True)
        losses.append(torch.dot(errors_sorted, _lovasz_grad(fg[perm])))
    return torch.stack(losses).mean()
"""


def test_a_loss_dot_with_a_returned_float32_gradient(tmp_path: Path) -> None:
    """segmentation_models_pytorch's Lovasz losses (review round 27): the multiclass loss dots
    bf16 errors with the float32 gradient `_lovasz_grad` returns (`gt_sorted.float()` inside,
    where `len(gt_sorted)` does not make it a list: only a tensor has `.float()`), and raises;
    the binary loss's errors are float32 already (`labels.float()` promoted them, which a loss
    may), so its dot is float32 with float32."""
    losses = tmp_path / "losses"
    losses.mkdir()
    path = losses / "lovasz.py"
    path.write_text(LOVASZ)
    found = lint_paths([path], Config(), jobs=1)[0].diagnostics
    assert [(d.code, d.location.row, d.location.column) for d in found] == [("DTL003", 33, 48)]
    lint_paths([path], Config(), jobs=1, fix=True)
    after = path.read_text()
    assert "torch.dot(errors_sorted, _lovasz_grad(fg[perm]).to(errors_sorted.dtype))" in after
    torch = pytest.importorskip("torch")
    before_ns, after_ns = executed(LOVASZ), executed(after)
    logits, labels = torch.randn(64), torch.randint(0, 2, (64,))
    probas, classes = torch.randn(64, 3).softmax(-1), torch.randint(0, 3, (64,))
    for name, inputs in (
        ("lovasz_hinge_flat", (logits, labels)),
        ("lovasz_softmax_flat", (probas, classes)),
    ):
        assert torch.equal(before_ns[name](*inputs), after_ns[name](*inputs))  # type: ignore[operator]
    low = (probas.bfloat16(), classes)
    with pytest.raises(RuntimeError):
        before_ns["lovasz_softmax_flat"](*low)  # type: ignore[operator]
    assert after_ns["lovasz_softmax_flat"](*low).dtype == torch.bfloat16  # type: ignore[operator]
    assert before_ns["lovasz_hinge_flat"](logits.bfloat16(), labels).dtype == torch.float32  # type: ignore[operator]


def test_a_cast_of_a_value_of_unknown_kind_is_a_cast() -> None:
    """DALLE2's samplers (review round 26's missed-real): `t` comes from the caller, its kind
    unknown here, yet `(t == 0).float()` is a float32 mask (only a tensor has `.float()`), and
    `model_mean + nonzero_mask * ... * noise` promotes the bf16 sample every step. An element of a
    list being built (`[x.float() if isinstance(x, torch.Tensor) else x for x in elems]`) may be
    a number: no cast is known there."""
    code = """
        import torch
        from torch import nn

        class Prior(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.net = nn.Linear(4, 8)

            def p_sample(self, x, t):
                model_mean, model_log_variance = self.net(x).chunk(2, dim=-1)
                noise = torch.randn_like(model_mean)
                nonzero_mask = (1 - (t == 0).float()).reshape(x.shape[0], 1)
                return model_mean + nonzero_mask * (0.5 * model_log_variance).exp() * noise

            def stack(self, x, elems):
                parts = [e.float() if isinstance(e, torch.Tensor) else e for e in elems]
                return torch.stack(parts) @ self.net(x)
    """
    assert findings(code) == [("DTL003", 13, 29)]
    assert messages(code)[0].startswith(
        "'nonzero_mask' is a mask cast to float32 (.float()) and meets activation"
        " 'model_log_variance' in `*`"
    )


DETR_POSITION = """
import math
import torch
from torch import nn


class PositionEmbeddingSine(nn.Module):
    def __init__(self, num_pos_feats=64, temperature=10000):
        super().__init__()
        self.num_pos_feats = num_pos_feats
        self.temperature = temperature
        self.scale = 2 * math.pi

    def forward(self, x, mask):
        not_mask = ~mask
        y_embed = not_mask.cumsum(1, dtype=torch.float32)
        x_embed = not_mask.cumsum(2, dtype=torch.float32)
        eps = 1e-6
        y_embed = y_embed / (y_embed[:, -1:, :] + eps) * self.scale
        x_embed = x_embed / (x_embed[:, :, -1:] + eps) * self.scale
        dim_t = torch.arange(self.num_pos_feats, dtype=torch.float32, device=x.device)
        dim_t = self.temperature ** (2 * (dim_t // 2) / self.num_pos_feats)
        pos_x = x_embed[:, :, :, None] / dim_t
        pos_y = y_embed[:, :, :, None] / dim_t
        pos_x = torch.stack((pos_x[:, :, :, 0::2].sin(), pos_x[:, :, :, 1::2].cos()), dim=4).flatten(3)
        pos_y = torch.stack((pos_y[:, :, :, 0::2].sin(), pos_y[:, :, :, 1::2].cos()), dim=4).flatten(3)
        return torch.cat((pos_y, pos_x), dim=3).permute(0, 3, 1, 2)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Conv2d(3, 128, 3, padding=1)
        self.position_embedding = PositionEmbeddingSine(64)
        self.proj = nn.Linear(128, 128)

    def forward(self, img, mask):
        src = self.backbone(img)
        pos = self.position_embedding(src, mask)
        h = (src + pos).flatten(2).transpose(1, 2)
        return self.proj(h)
"""


def test_a_value_computed_from_a_returned_float32_tensor_says_so() -> None:
    """DETR's sine position embedding (round 27's missed-real pattern, mmpose's EDPose and
    RTMO): the embedding module returns float32 (`cumsum(dtype=torch.float32)`, a float32
    `dim_t`), `src + pos` is float32, and the next Linear raises in a bf16 model. The operand
    is not the call, so the message says where its dtype comes from, and there is no cast of
    its own to fix."""
    assert findings(DETR_POSITION) == [("DTL003", 40, 26)]
    assert messages(DETR_POSITION)[0].startswith(
        "'h' is float32: it is computed from what self.position_embedding() returns (cast to"
        " float32 inside), but is given to `self.proj`"
    )
    assert fix_titles(DETR_POSITION) == [None]
    torch = pytest.importorskip("torch")
    encoder = executed(DETR_POSITION)["Encoder"]().to(torch.bfloat16)  # type: ignore[operator]
    img, mask = (
        torch.randn(1, 3, 4, 4, dtype=torch.bfloat16),
        torch.zeros(1, 4, 4, dtype=torch.bool),
    )
    with pytest.raises(RuntimeError):
        encoder(img, mask)


def test_a_layer_list_built_in_a_loop_names_its_first_layer_without_a_fix() -> None:
    """SuperGlue's keypoint encoder (blind set v7): `blocks.append(nn.Conv1d(...))` first in a
    loop, then `nn.Sequential(*blocks)`: where the loop runs, the encoder's first layer is that
    convolution, and `self.encoder(inputs.float())` raises in a bf16 model; the loop may run
    zero times, so no fix reads `self.encoder[0]`."""
    code = """
        import torch
        from torch import nn

        class KeypointEncoder(nn.Module):
            def __init__(self, channels=(3, 16, 32)) -> None:
                super().__init__()
                blocks = []
                for i in range(1, len(channels)):
                    blocks.append(nn.Conv1d(channels[i - 1], channels[i], kernel_size=1))
                    blocks.append(nn.ReLU())
                self.encoder = nn.Sequential(*blocks)

            def forward(self, kpts: torch.Tensor) -> torch.Tensor:
                return self.encoder(kpts.float())
    """
    assert findings(code) == [("DTL003", 14, 29)]
    assert fix_titles(code) == [None]
    torch = pytest.importorskip("torch")
    encoder = executed(code)["KeypointEncoder"]().to(torch.bfloat16)  # type: ignore[operator]
    with pytest.raises(RuntimeError):
        encoder(torch.randn(1, 3, 5, dtype=torch.bfloat16))
    # The loop's first statement appends something else: the first layer is not known.
    other = code.replace(
        "blocks.append(nn.Conv1d(channels[i - 1], channels[i], kernel_size=1))\n"
        "                    blocks.append(nn.ReLU())",
        "blocks.append(nn.ReLU())\n"
        "                    blocks.append(nn.Conv1d(channels[i - 1], channels[i], kernel_size=1))",
    )
    assert other != code
    assert findings(other) == []
