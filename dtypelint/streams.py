"""Standard streams that cannot surprise: bytes where code goes, clear errors where they fail.

- Reports never fail on a character the terminal's encoding lacks (`PYTHONIOENCODING=ascii`, a
  file name that is not UTF-8): such characters are written as `\\xe9`-style escapes.
- Code read from standard input goes back out as bytes: its encoding, byte-order mark and line
  endings are kept, whatever standard output's encoding is.
- A closed standard input or output, or one that cannot be written (`/dev/full`), is one
  `error:` line and exit code 2, not an internal error.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from typing import Any

#: errno values that mean "this stream cannot take the output" (a full disk, a closed descriptor).
STREAM_ERRNOS = frozenset(
    getattr(errno, name)
    for name in ("ENOSPC", "EBADF", "EIO", "EDQUOT", "EFBIG", "EINVAL", "ENXIO")
    if hasattr(errno, name)
)


class StreamError(Exception):
    """A standard stream is closed or cannot be written; the message is the whole error line."""


class _Closed:
    """Stands in for a standard stream whose descriptor was closed (`>&-`): any use is an error."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.closed = False
        self.encoding = "utf-8"
        self.errors = "strict"

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        raise StreamError(f"cannot write to {self.name}: it is closed")

    write = writelines = _fail

    def flush(self) -> None:
        return None

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(errno.EBADF, f"{self.name} is closed")

    @property
    def buffer(self) -> Any:
        return self


def prepare() -> None:
    """At start-up: escapes instead of encoding errors on stdout and stderr; closed ones marked."""
    if sys.stdout is None:
        sys.stdout = _Closed("standard output")  # type: ignore[assignment]
    if sys.stderr is None:
        sys.stderr = _Closed("standard error")  # type: ignore[assignment]
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(Exception):
                reconfigure(errors="backslashreplace")


def read_stdin_bytes() -> bytes:
    """All of standard input, as bytes."""
    stream = sys.stdin
    if stream is None:
        raise StreamError("cannot read standard input: it is closed")
    source = getattr(stream, "buffer", stream)
    try:
        data = source.read()
    except OSError as exc:
        raise StreamError(f"cannot read standard input: {describe_os_error(exc)}") from None
    except ValueError:  # "I/O operation on closed file"
        raise StreamError("cannot read standard input: it is closed") from None
    if isinstance(data, str):  # a text-only stand-in (tests, embedding)
        return data.encode("utf-8", "surrogateescape")
    return bytes(data)


def write_stdout_bytes(data: bytes) -> None:
    """Write `data` to standard output unchanged (the text layer is flushed first)."""
    stream = sys.stdout
    if isinstance(stream, _Closed):
        stream.write(data)
    buffer = getattr(stream, "buffer", None)
    stream.flush()
    if buffer is None:  # a text-only stream (an embedding application's)
        stream.write(data.decode("utf-8", "surrogateescape"))
        stream.flush()
        return
    buffer.write(data)
    buffer.flush()


def describe_os_error(exc: OSError) -> str:
    reason = exc.strerror or str(exc)
    return f"{reason} (os error {exc.errno})" if exc.errno is not None else reason


def is_stream_error(exc: BaseException) -> bool:
    """An OSError from writing a standard stream (disk full, bad descriptor), not a bug."""
    return isinstance(exc, OSError) and exc.errno in STREAM_ERRNOS


def flush_standard_streams() -> None:
    """Flush stdout then stderr now, so that a failure is ours to report (raises OSError)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()


def discard_standard_output() -> None:
    """After standard output failed: point its descriptor at /dev/null, so that the final flush
    at exit does not fail again (Python would print a warning and exit with 120)."""
    with contextlib.suppress(Exception):
        descriptor = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, descriptor)
        os.close(null)
