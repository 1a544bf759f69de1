"""A `dtypelint verify` worker: one process per side (reference, original, patched) that imports
torch once and then runs every example it is sent, each isolated from the ones before it.

    python -m dtypelint.verify.worker

Protocol, one JSON document per line. The worker reads requests on its stdin and writes events
on its original stdout; fd 1 is pointed at stderr (the parent's log file) before any user code
runs, so what examples print never garbles the channel.

- first line in: {"device", "dtype", "stack_path", "remove_path"}; out: {"event": "ready",
  "choice", "torch"} or {"event": "error", "message"} (bad device: the run stops there).
- {"op": "run", "index", "root", "example_file", "example_name", "phases", "saves",
  "compile_backend"}: out {"event": "state", "index", "phase"} before importing ("import") and
  before each phase, {"event": "phase", "index", "phase", "outcome"} after each, {"event":
  "done", "index"} at the end. The parent's per-example timeout restarts at every state.
- {"op": "compare", "pairs": [[outputs, reference or null], ...]}: out {"event": "compared",
  "results": [{"error", "note"}, ...]}.

Isolation between examples: the modules of the example's tree are imported afresh, sys.path,
the working folder, torch's default dtype and grad mode are reset, every phase is seeded. A crash
(a segfault, os._exit) or a hang kills this process: the parent records it as that example's
verdict and starts a new worker for the next one.
"""

from __future__ import annotations

import faulthandler
import json
import os
import signal
import sys
from pathlib import Path
from typing import IO, Any

import torch

from dtypelint.verify.device import DeviceError, choose_device
from dtypelint.verify.recorder import FrameFilter
from dtypelint.verify.runner import (
    PhaseRunner,
    compare_files,
    forget_modules,
    import_error_outcome,
    import_example,
    setup_sys_path,
)


class Channel:
    """The request/event lines, on file descriptors of their own (see the module doc)."""

    def __init__(self) -> None:
        self.incoming: IO[str] = os.fdopen(os.dup(0), "r", encoding="utf-8")
        self.outgoing: IO[str] = os.fdopen(os.dup(1), "w", encoding="utf-8")
        os.dup2(2, 1)  # print() and C-level writes of the examples go to the log
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # an example reading stdin gets EOF, not our requests
        os.close(null)

    def receive(self) -> dict[str, Any] | None:
        line = self.incoming.readline()
        return json.loads(line) if line else None

    def send(self, **event: Any) -> None:
        self.outgoing.write(json.dumps(event, default=str) + "\n")
        self.outgoing.flush()


class Worker:
    def __init__(self, channel: Channel, setup: dict[str, Any]) -> None:
        self.channel = channel
        self.setup = setup
        self.baseline_path = list(sys.path)
        self.cwd = os.getcwd()

    def handle(self, request: dict[str, Any]) -> None:
        if request["op"] == "run":
            self.run(request)
        elif request["op"] == "compare":
            pairs = [(output, reference) for output, reference in request["pairs"]]
            self.channel.send(event="compared", results=compare_files(pairs))

    def run(self, request: dict[str, Any]) -> None:
        index, root = request["index"], Path(request["root"])
        self.fresh_state(root)
        self.channel.send(event="state", index=index, phase="import")
        try:
            example = import_example(Path(request["example_file"]), root, request["example_name"])
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            outcome = import_error_outcome(exc, FrameFilter(root))
            for phase in request["phases"]:
                self.channel.send(event="phase", index=index, phase=phase, outcome=outcome)
            self.channel.send(event="done", index=index)
            return
        runner = PhaseRunner(
            example,
            root,
            self.setup["device"],
            self.setup["dtype"],
            request.get("compile_backend"),
        )
        saves = request.get("saves") or {}
        for phase in request["phases"]:
            self.channel.send(event="state", index=index, phase=phase)
            save = saves.get(phase)
            outcome = runner.run(phase, Path(save) if save else None)
            self.channel.send(event="phase", index=index, phase=phase, outcome=outcome)
        self.channel.send(event="done", index=index)

    def fresh_state(self, root: Path) -> None:
        """Undo what an earlier example may have left behind in this process."""
        forget_modules(root)
        setup_sys_path(root, self.baseline_path, self.setup.get("remove_path"))
        os.chdir(self.cwd)
        torch.set_default_dtype(torch.float32)
        torch.set_grad_enabled(True)


def autocast_follows_the_device(device: str) -> None:
    """On a CPU run, autocast regions written for CUDA (`torch.autocast("cuda", ...)`,
    `torch.cuda.amp.autocast()`, as decorators too) apply to the CPU.

    The harness moves the example's modules and tensors to the CPU when it runs there; a CUDA
    autocast region would then be a no-op (torch disables it without CUDA), and code that is
    correct on the GPU, where autocast casts a matmul's operands, would raise. CUDA's default
    autocast dtype (float16) is kept when the code names none.
    """
    if not device.startswith("cpu"):
        return
    autocast = torch.amp.autocast_mode.autocast
    original = autocast.__init__

    def __init__(
        self: Any,
        device_type: str,
        dtype: torch.dtype | None = None,
        enabled: bool = True,
        cache_enabled: bool | None = None,
    ) -> None:
        if device_type == "cuda":
            device_type = "cpu"
            dtype = dtype if dtype is not None else torch.float16
        original(self, device_type, dtype, enabled, cache_enabled)

    autocast.__init__ = __init__  # type: ignore[method-assign]


def _install_stack_dump(path: Path) -> None:
    """On a crash (SIGSEGV, SIGABRT, ...) or SIGTERM (the parent's timeout), write where every
    thread is before dying, so the parent can name the user's line."""
    dump = path.open("w")  # kept open for the life of the process: faulthandler writes to its fd
    faulthandler.enable(file=dump, all_threads=True)
    if hasattr(faulthandler, "register"):  # not on Windows: there the parent just kills us
        faulthandler.register(signal.SIGTERM, file=dump, all_threads=True, chain=True)


def main() -> int:
    channel = Channel()
    setup = channel.receive()
    if setup is None:
        return 0
    _install_stack_dump(Path(setup["stack_path"]))
    try:
        choice = choose_device(torch, setup["device"], setup["dtype"])
    except DeviceError as exc:
        channel.send(event="error", message=str(exc))
        return 0
    setup = {**setup, "device": choice.device, "dtype": choice.dtype}
    autocast_follows_the_device(choice.device)
    channel.send(event="ready", choice=choice.to_json(), torch=torch.__version__)
    worker = Worker(channel, setup)
    while True:
        request = channel.receive()
        if request is None or request["op"] == "exit":
            return 0
        worker.handle(request)


if __name__ == "__main__":
    sys.exit(main())
