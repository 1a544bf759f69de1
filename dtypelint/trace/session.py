"""The traced side of `dtypelint trace`: the recorder running inside the user's own process.

Under `dtypelint trace -- COMMAND`, every Python process of the command runs our sitecustomize
(see `_bootstrap/`), which calls `install_on_torch_import`: nothing happens until the process
imports torch, so Python processes that never use torch pay nothing. The first process of the
command that imports torch claims the trace (an exclusive file in the trace folder) and becomes
"the main process": its recorder is pushed on torch's function-mode stack and records until
exit. Later processes (spawned DataLoader workers, subprocesses) find the claim taken and stay
untraced; forked children inherit the recorder switched off.

The records are written to the trace folder whenever a new site appears (so a process killed by
a signal still leaves its sites) and once more at exit with the final counts.

Only the standard library is imported at module level: torch is imported by the time the
recorder is built, and never by this module on its own.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import threading
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ENV_DIR = "DTYPELINT_TRACE_DIR"  # where the main process writes its records
ENV_PACKAGE = "DTYPELINT_TRACE_PACKAGE"  # the folder holding this dtypelint package
RECORDS_NAME = "records.json"
CLAIM_NAME = "claim"
FORMAT_VERSION = 1


class TraceSession:
    """One process's recorder and what it has seen."""

    def __init__(self, records_path: Path | None = None) -> None:
        import torch

        from dtypelint.verify.recorder import FrameFilter, MixedDtypeRecorder

        self.torch_version = str(torch.__version__)
        self.records_path = records_path
        self.pid = os.getpid()
        self.recorder = MixedDtypeRecorder(
            FrameFilter(None), on_new_site=self._new_site, keep_unattributed=False
        )
        self.lock = threading.Lock()
        self.active = False

    def start(self) -> None:
        # The mode stack is per thread: this traces the thread that starts the session.
        self.recorder.__enter__()
        self.active = True
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._forked)

    def stop(self) -> None:
        if self.active and os.getpid() == self.pid:
            self.active = False
            with contextlib.suppress(Exception):  # another mode pushed above ours and left
                self.recorder.__exit__(None, None, None)

    def _forked(self) -> None:
        # A forked child (DataLoader worker) keeps the mode on its stack: make it a no-op there.
        self.recorder.enabled = False

    def snapshot(self, complete: bool) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "pid": self.pid,
            "argv": list(sys.argv),
            "cwd": os.getcwd(),
            "torch": self.torch_version,
            "complete": complete,
            "sites": [dict(record) for record in self.recorder.records.values()],
            "unattributed": self.recorder.unattributed,
        }

    def write(self, complete: bool) -> None:
        """Atomically replace the records file (never from a forked child)."""
        if self.records_path is None or os.getpid() != self.pid:
            return
        with self.lock:
            partial = self.records_path.with_suffix(".partial")
            partial.write_text(json.dumps(self.snapshot(complete)))
            os.replace(partial, self.records_path)

    def _new_site(self, record: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):
            self.write(complete=False)

    def finish(self) -> None:
        """At exit: stop recording and write the final counts."""
        self.stop()
        with contextlib.suppress(OSError):
            self.write(complete=True)


_SESSION: TraceSession | None = None


def current() -> TraceSession | None:
    return _SESSION


def claim(folder: Path) -> bool:
    """True for the first process of the command to ask: it is the one traced."""
    try:
        descriptor = os.open(folder / CLAIM_NAME, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except OSError:
        return False
    os.write(descriptor, str(os.getpid()).encode())
    os.close(descriptor)
    return True


def start_traced_process() -> None:
    """Called once torch is imported: claim the trace and start recording if it is ours."""
    global _SESSION
    folder = os.environ.get(ENV_DIR)
    if not folder or _SESSION is not None or not claim(Path(folder)):
        return
    _SESSION = TraceSession(Path(folder) / RECORDS_NAME)
    _SESSION.start()
    _SESSION.write(complete=False)  # "traced, no site yet" survives a kill too
    atexit.register(_SESSION.finish)


class _TorchImportHook(importlib.abc.MetaPathFinder):
    """Runs `start_traced_process` right after `import torch` has finished executing."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "torch":
            return None
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)  # one shot; and find the real spec without us
        spec = importlib.util.find_spec("torch")
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader
        execute = loader.exec_module

        def exec_module(module: types.ModuleType) -> None:
            execute(module)
            try:
                start_traced_process()
            except Exception as exc:  # tracing must never break the user's program
                print(f"dtypelint trace: could not start recording: {exc}", file=sys.stderr)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install_on_torch_import() -> None:
    """Trace this process from its first `import torch` on (at once if torch is imported)."""
    if "torch" in sys.modules:
        start_traced_process()
        return
    sys.meta_path.insert(0, _TorchImportHook())
