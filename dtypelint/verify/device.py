"""Which device and low-precision dtype `dtypelint verify` runs on, and why.

The rule follows the BF16 detection plan: BF16 needs native support, which NVIDIA GPUs have from
compute capability 8.0 (Ampere) on; older GPUs fall back to FP16; without CUDA the harness runs
BF16 on the CPU (PyTorch's CPU kernels support bf16, and it is the dtype most training runs use).

torch is passed in rather than imported so that the selection logic can be unit-tested with a fake
and so that importing this module never imports torch.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

DEVICE_CHOICES = ("auto", "cuda", "cpu")
DTYPE_CHOICES = ("auto", "bfloat16", "float16")
BF16_MIN_CAPABILITY = (8, 0)


class DeviceError(Exception):
    """The requested device or dtype cannot be used here (a usage error: exit 2)."""


@dataclass(frozen=True)
class DeviceChoice:
    device: str  # a torch device string: "cuda:0" or "cpu"
    name: str  # GPU or CPU model name
    capability: tuple[int, int] | None  # CUDA compute capability; None on CPU
    dtype: str  # "bfloat16" or "float16"
    reason: str

    @property
    def capability_text(self) -> str:
        return "n/a" if self.capability is None else f"{self.capability[0]}.{self.capability[1]}"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["capability"] = self.capability_text if self.capability else None
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DeviceChoice:
        capability = data.get("capability")
        parsed = tuple(int(part) for part in capability.split(".")) if capability else None
        return cls(
            device=data["device"],
            name=data["name"],
            capability=parsed,  # type: ignore[arg-type]
            dtype=data["dtype"],
            reason=data["reason"],
        )


def choose_device(torch: Any, device: str = "auto", dtype: str = "auto") -> DeviceChoice:
    """Pick the device and dtype for `--device` / `--dtype`; raise DeviceError when impossible."""
    if device not in DEVICE_CHOICES:
        raise DeviceError(f"unknown device {device!r}; choose one of {', '.join(DEVICE_CHOICES)}")
    if dtype not in DTYPE_CHOICES:
        raise DeviceError(f"unknown dtype {dtype!r}; choose one of {', '.join(DTYPE_CHOICES)}")

    cuda = _cuda_info(torch)
    if device == "cpu":
        return _cpu_choice(dtype, "--device cpu")
    if device == "cuda":
        if cuda is None:
            raise DeviceError("--device cuda was given but CUDA is not available to torch")
        return _cuda_choice(cuda, dtype, forced=True)

    # auto
    if cuda is None:
        return _cpu_choice(dtype, "CUDA is not available")
    _, name, capability = cuda
    if dtype == "bfloat16" and capability < BF16_MIN_CAPABILITY:
        # The user insists on bf16 and this GPU has no native bf16: the CPU does.
        return _cpu_choice(
            dtype,
            f"{name} (compute capability {_cap(capability)}) has no native bfloat16 "
            f"(needs {_cap(BF16_MIN_CAPABILITY)})",
        )
    return _cuda_choice(cuda, dtype, forced=False)


def _cuda_choice(cuda: tuple[int, str, tuple[int, int]], dtype: str, forced: bool) -> DeviceChoice:
    index, name, capability = cuda
    native_bf16 = capability >= BF16_MIN_CAPABILITY
    where = "--device cuda" if forced else "CUDA available"
    if dtype == "auto":
        if native_bf16:
            chosen = "bfloat16"
            why = f"{where}, compute capability {_cap(capability)} >= 8.0: native bfloat16"
        else:
            chosen = "float16"
            why = (
                f"{where}, compute capability {_cap(capability)} < 8.0: no native bfloat16, "
                "float16 fallback"
            )
    else:
        chosen = dtype
        why = f"{where}, --dtype {dtype}"
        if dtype == "bfloat16" and not native_bf16:
            why += f" (compute capability {_cap(capability)} < 8.0: bfloat16 is emulated)"
    return DeviceChoice(f"cuda:{index}", name, capability, chosen, why)


def _cpu_choice(dtype: str, why: str) -> DeviceChoice:
    chosen = "bfloat16" if dtype == "auto" else dtype
    reason = f"{why}; CPU {chosen}" + (" (--dtype)" if dtype != "auto" else "")
    return DeviceChoice("cpu", cpu_name(), None, chosen, reason)


def _cuda_info(torch: Any) -> tuple[int, str, tuple[int, int]] | None:
    """(index, name, capability) of the current CUDA device, or None without a usable one."""
    try:
        if not torch.cuda.is_available() or torch.cuda.device_count() == 0:
            return None
        index = torch.cuda.current_device()
        major, minor = torch.cuda.get_device_capability(index)
        return index, str(torch.cuda.get_device_name(index)), (int(major), int(minor))
    except (RuntimeError, AssertionError):  # a broken driver reads as "no CUDA", not a crash
        return None


def _cap(capability: tuple[int, int]) -> str:
    return f"{capability[0]}.{capability[1]}"


def cpu_name() -> str:
    """A human-readable CPU model (platform.processor() is empty on most Linux systems)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "cpu"


def choose_compile_backend(device: str) -> tuple[str, str]:
    """(backend, reason) for `--compile`: inductor on CUDA, and on CPU when a C++ compiler works.

    Inductor's CPU backend compiles C++ kernels; without a working compiler it fails at the first
    call, so the harness falls back to aot_eager (which keeps eager's dtype checks, see
    pytorch#177630, and therefore cannot show inductor's silent promotion).
    """
    if device.startswith("cuda"):
        return "inductor", "CUDA: inductor (triton)"
    compiler = working_cxx_compiler()
    if compiler:
        return "inductor", f"CPU: inductor (C++ compiler {compiler} works)"
    return "aot_eager", "CPU: aot_eager (no working C++ compiler for inductor)"


def working_cxx_compiler() -> str | None:
    """The first C++ compiler (CXX, then the usual names) that builds a trivial program."""
    candidates = [os.environ.get("CXX"), "g++", "c++", "clang++"]
    for candidate in filter(None, candidates):
        path = shutil.which(candidate)
        if path and _compiles(path):
            return candidate
    return None


def _compiles(compiler: str) -> bool:
    with tempfile.TemporaryDirectory(prefix="dtypelint-cxx-") as tmp:
        source = Path(tmp, "probe.cpp")
        source.write_text("int main() { return 0; }\n")
        try:
            done = subprocess.run(
                [compiler, str(source), "-o", str(Path(tmp, "probe"))],
                capture_output=True,
                timeout=60,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return False
        return done.returncode == 0
