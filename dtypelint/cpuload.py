"""How much CPU the rest of the machine leaves free, measured while dtypelint starts.

Importing this module (dtypelint.cli does, first) or `mark()` reads the machine's idle time
(Linux: /proc/stat) when the command starts;
`idle_cores()` reads it again when the work is about to be shared out and returns how many
cores stood idle on average in between (the process itself was busy starting, on one core).
On a machine shared with other work, a second worker process gets no core of its own and only
adds its start-up: scheduling.pool_size uses this to pick one process where a pool cannot pay.
None where it cannot be told (no /proc/stat, no mark, a window too short for the clock's ticks).
"""

from __future__ import annotations

import os
import time

#: Shortest window worth reading: /proc/stat counts in clock ticks (usually 10 ms).
MIN_WINDOW = 0.04


def sample() -> tuple[float, int] | None:
    """(now, idle ticks of all CPUs together), or None off Linux."""
    try:
        with open("/proc/stat", "rb") as stream:
            fields = stream.readline().split()
    except OSError:
        return None
    if len(fields) < 6 or fields[0] != b"cpu":
        return None
    try:
        idle = int(fields[4]) + int(fields[5])  # idle + iowait
    except ValueError:
        return None
    return time.monotonic(), idle


def mark() -> None:
    global _mark
    _mark = sample()


#: When this module was first imported: dtypelint.cli imports it before anything else.
_mark: tuple[float, int] | None = sample()


def idle_cores() -> float | None:
    """Cores that stood idle since `mark()`, on average; None if that cannot be told."""
    now = sample()
    if _mark is None or now is None:
        return None
    seconds = now[0] - _mark[0]
    if seconds < MIN_WINDOW:
        return None
    try:
        ticks = os.sysconf("SC_CLK_TCK")
    except (ValueError, OSError, AttributeError):
        return None
    return max(0.0, (now[1] - _mark[1]) / (seconds * ticks))
