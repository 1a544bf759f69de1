import torch.nn.functional as F
from torch import Tensor


def distillation_loss(student: Tensor, teacher: Tensor, labels: Tensor, T: float = 2.0) -> Tensor:
    s = F.log_softmax(student.float() / T, dim=-1)  # lookalike: fixed cast outside the matmul family
    t = F.softmax(teacher.float() / T, dim=-1)
    kd = F.kl_div(s, t, reduction="batchmean") * T * T
    ce = F.cross_entropy(student.float(), labels)
    return kd + ce


def feature_cosine_loss(a: Tensor, b: Tensor) -> Tensor:
    return 1.0 - F.cosine_similarity(a.float(), b.float(), dim=-1).mean()


def gram_loss(fa: Tensor, fb: Tensor) -> Tensor:
    fa32 = fa.flatten(2).float()
    fb32 = fb.flatten(2).float()
    ga = fa32 @ fa32.transpose(1, 2)  # lookalike: both operands cast
    gb = fb32 @ fb32.transpose(1, 2)
    return F.mse_loss(ga, gb)
