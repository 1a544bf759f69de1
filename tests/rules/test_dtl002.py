"""DTL002 camera-matmul-uncast: exact findings, exact fixes, and the look-alikes it must not flag."""

from __future__ import annotations

import pytest

from tests.rules.helpers import dedent, executed, findings, fixed, messages


def test_fix_log_pattern_multiline_matmul() -> None:
    code = """
    import torch

    def project(points_homo: torch.Tensor, extrinsics: torch.Tensor):
        points_cam = torch.matmul(
            points_homo,
            extrinsics.transpose(-1, -2)
        )
        return points_cam
    """
    assert findings(code) == [("DTL002", 6, 9)]
    assert messages(code) == [
        "camera parameter 'extrinsics' meets activation 'points_homo' in `torch.matmul` without"
        " a cast; cast it with .to(points_homo.dtype)"
    ]
    assert "extrinsics.to(points_homo.dtype).transpose(-1, -2)" in fixed(code)


CASES = {
    "matmul operator with .T": (
        """
        import torch
        def f(points: torch.Tensor, K: torch.Tensor):
            return points @ K.T
        """,
        (3, 21),
        "return points @ K.to(points.dtype).T",
    ),
    "mT attribute": (
        """
        import torch
        def f(points: torch.Tensor, w2c: torch.Tensor):
            return points @ w2c.mT
        """,
        (3, 21),
        "return points @ w2c.to(points.dtype).mT",
    ),
    "bmm with a dict lookup": (
        """
        import torch
        def f(feats: torch.Tensor, batch):
            return torch.bmm(feats, batch["intrinsics"].transpose(1, 2))
        """,
        (3, 29),
        'return torch.bmm(feats, batch["intrinsics"].to(feats.dtype).transpose(1, 2))',
    ),
    "einsum with the camera first": (
        """
        import torch
        def f(means: torch.Tensor, viewmats: torch.Tensor):
            return torch.einsum("cij,nj->cni", viewmats[:, :3, :3], means)
        """,
        (3, 40),
        # cast the slice the matmul uses, not the whole tensor
        'torch.einsum("cij,nj->cni", viewmats[:, :3, :3].to(means.dtype), means)',
    ),
    "F.linear": (
        """
        import torch
        import torch.nn.functional as F
        def f(x: torch.Tensor, proj_matrix: torch.Tensor):
            return F.linear(x, proj_matrix)
        """,
        (4, 24),
        "return F.linear(x, proj_matrix.to(x.dtype))",
    ),
    "inverse then matmul: the cast goes after the inverse": (
        """
        import torch
        def f(pix: torch.Tensor, K: torch.Tensor):
            rays = torch.inverse(K)[:, None] @ pix[..., None]
            return rays
        """,
        (3, 12),
        "rays = torch.inverse(K)[:, None].to(pix.dtype) @ pix[..., None]",
    ),
    "linalg.inv method chain": (
        """
        import torch
        def f(pix: torch.Tensor, K: torch.Tensor):
            return pix @ torch.linalg.inv(K).mT
        """,
        (3, 18),
        "return pix @ torch.linalg.inv(K).to(pix.dtype).mT",
    ),
    "affixed camera name through a local": (
        """
        import torch
        def f(pts: torch.Tensor, K_inv: torch.Tensor):
            Kt = K_inv.transpose(-1, -2)
            return pts.matmul(Kt)
        """,
        (4, 23),
        "return pts.matmul(Kt.to(pts.dtype))",
    ),
    "plain self attribute in a module": (
        """
        import torch
        from torch import nn
        class Proj(nn.Module):
            def __init__(self, K):
                super().__init__()
                self.K = K
                self.net = nn.Linear(3, 3)
            def forward(self, x):
                y = self.net(x)
                return y @ self.K.T
        """,
        (10, 20),
        "return y @ self.K.to(y.dtype).T",
    ),
    "attribute of a camera object": (
        """
        import torch
        def f(points: torch.Tensor, cam):
            return torch.matmul(points, cam.intrinsics.mT)
        """,
        (3, 33),
        "return torch.matmul(points, cam.intrinsics.to(points.dtype).mT)",
    ),
    "arithmetic among camera values is wrapped": (
        """
        import torch
        def f(x: torch.Tensor, K: torch.Tensor, w2c: torch.Tensor):
            return x @ (K @ w2c[:3])
        """,
        (3, 17),
        "return x @ (K @ w2c[:3]).to(x.dtype)",
    ),
    "from_numpy of a camera": (
        """
        import torch
        def f(x: torch.Tensor, intrinsics):
            K = torch.from_numpy(intrinsics)
            return x @ K
        """,
        (4, 16),
        "return x @ K.to(x.dtype)",
    ),
}


@pytest.mark.parametrize(("code", "where", "after"), CASES.values(), ids=CASES.keys())
def test_true_positives(code: str, where: tuple[int, int], after: str) -> None:
    assert findings(code, select="DTL002") == [("DTL002", *where)]
    assert after in fixed(code, select="DTL002")


NEGATIVES = {
    # speechbrain's legacy Gabor filters (review round 23): `t` is a time axis; a translation is
    # added to points, not a product's operand itself
    "a time axis named t in a product": """
        import torch
        def gabor(t: torch.Tensor, center: torch.Tensor, fwhm: torch.Tensor) -> torch.Tensor:
            gaussian = torch.exp(torch.tensordot(1.0 / (2.0 * fwhm.unsqueeze(1) ** 2), (-(t**2.0)).unsqueeze(0), dims=1))
            return gaussian * torch.tensordot(center.unsqueeze(1), t.unsqueeze(0), dims=1)
    """,
    # mmhuman3d's face metric: NumPy arrays in a file that imports NumPy and not torch
    "NumPy code in a file without torch": """
        import numpy as np
        from .mesh_eval import compute_similarity_transform
        def face_error(gt_landmarks, predicted_mesh_vertices, predicted_landmarks):
            _, tform = compute_similarity_transform(
                predicted_landmarks, gt_landmarks, return_tform=True)
            aligned = (tform["scale"] * tform["rotation"].dot(predicted_mesh_vertices.T) +
                       tform["translation"]).T
            return np.linalg.norm(aligned - np.array(gt_landmarks[4]))
    """,
    "points made float32 from integer grid coordinates (nerfacc)": """
        import torch
        from jaxtyping import Int
        from torch import Tensor
        def mark_cells(aabb: Tensor, grid_coords: Int[Tensor, "n 3"], K: Tensor, c2w: Tensor):
            x = grid_coords / 127
            xyzs_w = (aabb[:3] + x * (aabb[3:] - aabb[:3])).T
            xyzs_c = c2w[:, :3, :3] @ xyzs_w
            return K @ xyzs_c
    """,
    "camera already cast": """
        import torch
        def f(x: torch.Tensor, K: torch.Tensor, E: torch.Tensor):
            K = K.to(x.dtype)
            a = x @ K
            b = x @ E.type_as(x)
            c = torch.matmul(x, E.to(x))
            return a, b, c
    """,
    "matmul of two activations": """
        import torch
        def f(q: torch.Tensor, k: torch.Tensor):
            return q @ k.transpose(-2, -1)
    """,
    "attention keys named K": """
        import torch
        from torch import nn
        class Attn(nn.Module):
            def __init__(self):
                super().__init__()
                self.k_proj = nn.Linear(8, 8)
            def forward(self, x):
                K = self.k_proj(x)
                return x @ K.transpose(-2, -1)
    """,
    "attention function with Q, K, V": """
        import torch
        def attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor):
            return torch.softmax(Q @ K.transpose(-2, -1), -1) @ V
    """,
    "relative attention keys K_r beside Q (FlowFormer)": """
        import torch
        from torch import einsum
        def attend_with_rpe(Q: torch.Tensor, K: torch.Tensor, Q_r: torch.Tensor, K_r: torch.Tensor):
            return einsum("bhid, bhjd -> bhij", Q, K) + einsum("bhid, bhjd -> bhij", Q, K_r)
    """,
    "autocast region": """
        import torch
        def f(x: torch.Tensor, K: torch.Tensor):
            with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
                return x @ K.T
    """,
    "autocast decorator": """
        import torch
        @torch.autocast("cuda")
        def f(x: torch.Tensor, K: torch.Tensor):
            return x @ K.T
    """,
    "deliberate fixed precision": """
        import torch
        from torch.cuda.amp import custom_fwd
        @custom_fwd(cast_inputs=torch.float32)
        def f(x: torch.Tensor, K: torch.Tensor):
            return x @ K.T
    """,
    "camera with camera": """
        import torch
        def compose(K: torch.Tensor, w2c: torch.Tensor):
            return K @ w2c[:3]
    """,
    "linear projection weights named proj": """
        import torch
        import torch.nn.functional as F
        def f(x: torch.Tensor, proj_weight: torch.Tensor, q_proj: torch.Tensor):
            return F.linear(x, proj_weight) + x @ q_proj
    """,
    "registered buffer": """
        import torch
        from torch import nn
        class Proj(nn.Module):
            def __init__(self, K):
                super().__init__()
                self.register_buffer("K", K)
            def forward(self, x):
                return x @ self.K.T
    """,
    "R a residual vector in an einsum (pypose's robust corrector)": """
        import torch
        def correct(R: torch.Tensor, J: torch.Tensor):
            sJ = 2.0 * J
            return torch.einsum("...d,...k,...kl->...dl", R, R, sJ)
    """,
    "inverted frame with a camera: linalg has no bf16 kernel, the frame is float32": """
        import torch
        def relative(frame: torch.Tensor, extrinsics: torch.Tensor):
            a = frame.inverse() @ extrinsics[..., :3, :3]
            b = torch.linalg.inv(frame) @ extrinsics[..., :3, :3]
            return a, b
    """,
    "code outside tensor-taking functions": """
        import torch
        K = torch.eye(3)
        P = K @ torch.eye(3)
    """,
}


@pytest.mark.parametrize("code", NEGATIVES.values(), ids=NEGATIVES.keys())
def test_true_negatives(code: str) -> None:
    assert findings(code, select="DTL002") == []


def test_fix_result_parses_and_is_stable() -> None:
    code = dedent("""
    import torch
    def f(x: torch.Tensor, K: torch.Tensor):
        return x @ -K
    """)
    import ast

    import dtypelint

    once = dtypelint.fix_source(code, "m.py").source
    ast.parse(once)
    assert "(-K).to(x.dtype)" in once
    assert dtypelint.fix_source(once, "m.py").source == once


def test_numpy_camera_inverse_and_camera_object_attribute() -> None:
    code = """
    import torch
    from torch import nn

    def backproject(depth: torch.Tensor, pix: torch.Tensor, K_np):
        K = torch.from_numpy(K_np)
        return (pix.to(depth) @ torch.inverse(K).T) * depth[..., None]

    class Renderer(nn.Module):
        def __init__(self, camera):
            super().__init__()
            self.camera = camera
            self.mlp = nn.Linear(3, 3)

        def forward(self, pts):
            return self.mlp(pts) @ self.camera.K.T
    """
    # A NumPy camera is both: uncast in the matmul (DTL002) and made float64 (DTL004).
    assert findings(code) == [("DTL004", 5, 9), ("DTL002", 6, 29), ("DTL002", 15, 32)]
    after = fixed(code)
    assert "torch.inverse(K).to(pix.dtype).T" in after
    assert "self.camera.K.to(pts.dtype).T" in after


def test_numpy_code_in_a_file_that_imports_torch_is_not_torch() -> None:
    """Depth Anything 3's pose alignment: `r @ Ri` on NumPy arrays. `.copy()` is NumPy's, and
    `@`/`.T` alone prove nothing where NumPy is imported; a `.to()` fix would raise there."""
    code = """
    import numpy as np
    import torch

    def apply_sim3(poses, r, t, s):
        out = poses.copy()
        out[:, :3, :3] = r @ poses[:, :3, :3]
        return out

    def transform_points(points, rot, trans, scale):
        return scale * (points @ rot.T) + trans

    def project(points, K):
        return torch.einsum("ij,nj->ni", K, points)
    """
    assert findings(code) == [("DTL002", 13, 38)]


def test_a_rotation_indexed_as_a_matrix_in_an_einsum_is_geometry() -> None:
    """Only vector operands of an einsum are no evidence of a rotation; `...ij` is a matrix."""
    code = """
    import torch
    def rotate(R: torch.Tensor, points: torch.Tensor):
        return torch.einsum("...ij,...j->...i", R, points)
    """
    assert findings(code) == [("DTL002", 3, 45)]
    assert 'torch.einsum("...ij,...j->...i", R.to(points.dtype), points)' in fixed(code)


def test_an_inverted_camera_is_cast_after_the_inverse() -> None:
    """`K.inverse()` stays a camera (the inverse of float32 intrinsics is float32); the cast
    goes after the inverse, which has no bf16 kernel."""
    code = """
    import torch
    def unproject(K: torch.Tensor, pixels: torch.Tensor):
        return K.inverse() @ pixels
    """
    assert findings(code) == [("DTL002", 3, 12)]
    assert "return K.inverse().to(pixels.dtype) @ pixels" in fixed(code)


def test_a_batch_of_frames_split_per_head_with_einops() -> None:
    """AlphaFold's invariant point attention: `rotations` and `translations` (plurals) given by
    the caller meet the point queries, which `map(lambda t: rearrange(t, ...), ...)` splits per
    head (einops passes its argument through); both frames are cast, as `R` and `t` would be."""
    code = """
    import torch
    from torch import nn, einsum
    from einops import rearrange

    class IPA(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.to_q = nn.Linear(dim, dim * 6)

        def forward(self, x, *, rotations, translations):
            q_point, k_point = self.to_q(x).chunk(2, dim=-1)
            q_point, k_point = map(lambda t: rearrange(t, "b n (d c) -> b n d c", c=3), (q_point, k_point))
            q_point = einsum("b n d c, b n c r -> b n d r", q_point, rotations) + translations
            return q_point, k_point
    """
    assert findings(code) == [("DTL002", 13, 66), ("DTL002", 13, 79)]
    assert (
        'einsum("b n d c, b n c r -> b n d r", q_point, rotations.to(q_point.dtype))'
        " + translations.to(q_point.dtype)"
    ) in fixed(code)


def test_a_helper_named_for_cameras_gives_back_what_it_is_given() -> None:
    """torchgeometry's `inverse_transformation(trans_12)` returns a camera by its parameter's
    name: given a pose computed from the activations (`ref_pose_base`), it returns one of them,
    and a product of two such poses is no finding. Given a camera, or a camera-named parameter
    passed on, it is still one."""
    code = """
        import torch

        def inverse_transformation(trans_12):
            rmat = trans_12[..., :3, :3].transpose(-1, -2)
            out = torch.zeros_like(trans_12)
            out[..., :3, :3] = rmat
            out[..., :3, 3:] = -rmat @ trans_12[..., :3, 3:]
            return out

        def relative_pose(pinhole_i: torch.Tensor, pinhole_ref: torch.Tensor) -> torch.Tensor:
            i_pose_base = pinhole_i.view(-1, 4, 4) * 2
            ref_pose_base = pinhole_ref.view(-1, 4, 4) * 2
            return torch.matmul(i_pose_base, inverse_transformation(ref_pose_base))

        def passed_on(points: torch.Tensor, trans_12: torch.Tensor) -> torch.Tensor:
            return torch.matmul(points, inverse_transformation(trans_12))

        def project(points: torch.Tensor, intrinsics: torch.Tensor) -> torch.Tensor:
            return torch.matmul(points, inverse_transformation(intrinsics))
    """
    assert findings(code) == [("DTL002", 16, 33), ("DTL002", 19, 33)]


def test_a_fixed_dtype_attribute_makes_no_activation() -> None:
    """FLAME sets `self.dtype = torch.float32` and builds `torch.eye(3, dtype=self.dtype)`: a
    float32 tensor, not the run's dtype. The tool called it an activation and proposed casting
    the bf16 rotations to it (the roles inverted). Without that assignment `self.dtype` is the
    model's own dtype (transformers' property), an activation's."""
    code = """
        import torch
        from torch import nn

        class FLAME(nn.Module):
            def __init__(self):
                super().__init__()
                self.dtype = torch.float32

            def forward(self, rot_mats: torch.Tensor) -> torch.Tensor:
                rel = torch.eye(3, device=rot_mats.device, dtype=self.dtype)
                return torch.bmm(rot_mats, rel.expand(rot_mats.shape[0], -1, -1))
    """
    assert findings(code) == []
    assert "rot_mats.to(" not in fixed(code, unsafe=True)


def test_pytorch3d_rotation_and_translation_are_camera_values_together() -> None:
    """PyTorch3D names a camera's translation `T`: `bmm(R, T[:, :, None])` multiplies two camera
    values (no finding), and the pose then meets the points (one finding, at that product)."""
    code = """
        import torch

        def rotate_on_spot(R: torch.Tensor, T: torch.Tensor, rotation: torch.Tensor):
            new_R = R @ rotation.transpose(1, 2)
            old_RT = torch.bmm(R, T[:, :, None])
            return new_R, torch.matmul(new_R.transpose(1, 2), old_RT)[:, :, 0]

        def to_view(points: torch.Tensor, R: torch.Tensor, T: torch.Tensor) -> torch.Tensor:
            return torch.bmm(points, R) + T[:, None, :]
    """
    assert findings(code) == [("DTL002", 9, 30), ("DTL002", 9, 35)]


def test_numpy_code_in_a_torch_file_gets_no_cast() -> None:
    """aniposelib's `transform_extrinsics(Ms, s, R, t)` works on NumPy arrays (`np.asarray`,
    `np.einsum`) in a file that imports torch too: `R.to(s.dtype)` raised AttributeError on the
    array. `np.einsum` is NumPy's function, no tensor method."""
    code = """
        import numpy as np
        import torch

        def transform_extrinsics(Ms, s, R, t):
            Ms = np.asarray(Ms, dtype="float64")
            C = -np.einsum("...ji,...j->...i", Ms[..., :3, :3], Ms[..., :3, 3])
            return s * C @ R.T + t

        def align(cams: torch.Tensor, s: torch.Tensor, R: torch.Tensor, t: torch.Tensor):
            return transform_extrinsics(cams.numpy(), s.item(), R.numpy(), t.numpy())
    """
    assert findings(code) == []


def test_a_value_cast_to_a_cameras_dtype_is_in_the_cameras_dtype() -> None:
    """calibdiff: `axes_z = torch.tensor([0, 0, 1.0]).type_as(R)` is in R's dtype, so a product
    with a translation (`dot(R @ axes_z, t)`) meets no activation."""
    code = """
        import torch

        def rotate(v1, v2):
            return torch.cross(v1, v2) / torch.dot(v1, v2)

        def rectify(R: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
            axes_nx = torch.tensor([-1.0, 0, 0]).type_as(R)
            axes_z = torch.tensor([0, 0, 1.0]).type_as(R)
            R_align_x = rotate(axes_nx, t)
            return rotate(R_align_x @ axes_z, R @ axes_z)
    """
    assert findings(code) == []
    assert findings(code.replace(".type_as(R)", ".to(R)")) == []


def test_a_translation_added_to_a_reshaped_product_is_cast_too() -> None:
    """Blind set v5 (`lift_splat_geometry.py`): LSS lifting adds `trans` to a camera product that
    is reshaped first, and a translation used only so is a tensor by that use (`R @ p + t`)."""
    code = """
        import torch
        from torch import nn

        class Lift(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Conv2d(3, 3, 1)

            def forward(self, feats, rots, trans, intrinsics):
                pts = self.head(feats)
                combine = rots.matmul(torch.inverse(intrinsics))
                ego = combine.view(2, 1, 3, 3).matmul(pts).squeeze(-1) + trans.view(2, 1, 3)
                return ego + (rots @ pts + trans)
    """
    assert findings(code) == [
        ("DTL002", 12, 15),
        ("DTL002", 12, 66),
        ("DTL002", 13, 23),
        ("DTL002", 13, 36),
    ]
    assert "+ trans.to(pts.dtype).view(2, 1, 3)" in fixed(code)
    assert "(rots.to(pts.dtype) @ pts + trans.to(pts.dtype))" in fixed(code)
    # a number added to a product, or a name that is no translation, stays what it is
    assert findings(
        code.replace("+ trans)", "+ eps)").replace(", intrinsics)", ", intrinsics, eps=1e-6)")
    ) == [
        ("DTL002", 12, 15),
        ("DTL002", 12, 66),
        ("DTL002", 13, 23),
    ]


def test_a_pose_times_a_pose_and_einops_axes_are_no_finding() -> None:
    """Review round 24: pytorch-volumetric's `einsum("bij,pjk->bpik", T_est_inv, T_p)` composes
    two transforms (no activation); an einops pattern names its axes by words, so which operand
    is a matrix is not known (Depth Anything 3's `einsum(K_inv, pixel_size, "... i j, j -> ... i")`)."""
    code = """
        import torch
        from einops import einsum

        def pairwise_error(T_est_inv: torch.Tensor, T_p: torch.Tensor) -> torch.Tensor:
            return torch.einsum("bij,pjk->bpik", T_est_inv, T_p)

        def scale(intrinsics: torch.Tensor, pixel_size: torch.Tensor) -> torch.Tensor:
            return einsum(intrinsics[..., :2, :2], pixel_size, "... i j, j -> ... i")
    """
    assert findings(code, select="DTL002") == []
    assert findings(code.replace("T_est_inv", "points"), select="DTL002") == [("DTL002", 5, 50)]


TWIST = """
import torch
from torch import nn


def rotation_matrix_to_quaternion(rotation_matrix):
    q = rotation_matrix.reshape(-1, 9)[:, :4]
    return q / q.norm(dim=1, keepdim=True)


def compute_twist_rotation(rotation_matrix, twist_axis):
    quaternion = rotation_matrix_to_quaternion(rotation_matrix)
    axis = twist_axis / (torch.norm(twist_axis, dim=1, keepdim=True) + 1e-9)
    return torch.einsum("bi,bi->b", axis, quaternion[:, 1:]).unsqueeze(-1) * axis


class Head(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(9, 9)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        opt_lwrist = self.fc(x).view(-1, 3, 3)
        return compute_twist_rotation(opt_lwrist, x[:, :3])
"""


def test_a_camera_name_given_only_activations_is_an_activation() -> None:
    """mmhuman3d's `compute_twist_rotation` (review round 25's false finding): `rotation_matrix`
    is a camera by its name, but the file's only caller passes a rotation the network predicts.
    A caller passing the rotation of a camera's extrinsics keeps it a camera."""
    assert findings(TWIST) == []
    given = TWIST.replace(
        "def forward(self, x: torch.Tensor) -> torch.Tensor:",
        "def forward(self, x: torch.Tensor, extrinsics: torch.Tensor) -> torch.Tensor:",
    ).replace(
        "compute_twist_rotation(opt_lwrist, x[:, :3])",
        "compute_twist_rotation(extrinsics[:, :3, :3], x[:, :3])",
    )
    assert [code for code, _, _ in findings(given)] == ["DTL002"]
    torch = pytest.importorskip("torch")
    head = executed(TWIST)["Head"]().to(torch.bfloat16)  # type: ignore[operator]
    assert head(torch.randn(2, 9).bfloat16()).dtype == torch.bfloat16
