"""Progress on a terminal: `Checking files: 123/507` on standard error, cleared at the end.

Shown only when standard error is a terminal, the run is not quiet, and the run has lasted
`DELAY` seconds (a quick run prints nothing extra); redrawn at most every `INTERVAL` seconds.
Updated as files finish (no thread: worker processes are forked, and a thread would not help).
DTYPELINT_PROGRESS_DELAY (seconds) replaces `DELAY`, for tests that need progress on a quick run.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

DELAY = 1.0
INTERVAL = 0.1
_CLEAR = "\r\x1b[K"


class Progress:
    """Files done out of a total, per phase; does nothing unless `enabled`."""

    def __init__(
        self, stream: TextIO | None = None, *, enabled: bool = True, delay: float = DELAY
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.delay = delay
        self.started = time.monotonic()
        self.label = "Checking files"
        self.total = 0
        self.done = 0
        self._drawn_at: float | None = None
        self._shown = False

    @classmethod
    def for_terminal(cls, *, quiet: bool, stream: TextIO | None = None) -> Progress:
        stream = stream if stream is not None else sys.stderr
        try:
            terminal = stream.isatty()
        except (AttributeError, ValueError):  # closed or replaced streams
            terminal = False
        try:
            delay = float(os.environ.get("DTYPELINT_PROGRESS_DELAY", DELAY))
        except ValueError:
            delay = DELAY
        return cls(stream, enabled=terminal and not quiet, delay=delay)

    def start(self, total: int, label: str = "Checking files") -> None:
        self.label, self.total, self.done = label, total, 0
        self._draw(force=self._shown)

    def advance(self, count: int = 1) -> None:
        self.done += count
        self._draw()

    def _draw(self, *, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.started < self.delay:
            return
        recent = self._drawn_at is not None and now - self._drawn_at < INTERVAL
        if recent and not force and self.done < self.total:
            return
        self._drawn_at = now
        self._shown = True
        self._write(f"{_CLEAR}{self.label}: {self.done}/{self.total}")

    def finish(self) -> None:
        """Clear the line (only if something was drawn)."""
        if self._shown:
            self._write(_CLEAR)
            self._shown = False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a terminal that went away: stop drawing
            self.enabled = False
