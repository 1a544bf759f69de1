"""Reading source files safely: regular files only, within a size limit, never blocking.

A FIFO would block the run forever, `/dev/zero` would be read until memory runs out, a socket
cannot be read at all: only regular files are read. Folders walked skip such entries silently;
named on the command line (or found as broken symbolic links) they are DTL900 findings.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

#: `max-file-size` when none is set: generous (a 20 MB generated module is still checked), but a
#: data dump renamed `.py` does not stall a pre-commit hook.
DEFAULT_MAX_FILE_SIZE = 64 * 1024 * 1024
_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class SkippedFile(OSError):
    """A path that is not read: not a regular file, or over the size limit. The message (its
    `strerror`) says why, for the DTL900 finding."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.strerror = message


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def format_size(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    if size >= 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size} bytes"


def _broken_link(path: Path, exc: OSError) -> OSError:
    """A clearer error for a symbolic link whose target is missing."""
    if exc.errno == errno.ENOENT and os.path.islink(path):
        try:
            target = os.readlink(path)
        except OSError:
            target = "its target"
        error = OSError(errno.ENOENT, f"Broken symbolic link: `{target}` does not exist")
        return error
    return exc


def read_bytes(path: Path, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> bytes:
    """The contents of the regular file `path`.

    Raises SkippedFile for a FIFO, device, socket or directory, or a file over `max_size` bytes
    (None: no limit), and OSError when it cannot be opened (missing, broken symlink, loop, no
    permission). Never blocks: the file is opened non-blocking and checked again once open, so a
    FIFO put in its place after the first check is not waited on either.
    """
    try:
        status = os.stat(path)
    except OSError as exc:
        raise _broken_link(path, exc) from None
    if stat.S_ISDIR(status.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    if not stat.S_ISREG(status.st_mode):
        raise SkippedFile(f"Not a regular file ({_kind(status.st_mode)}); skipped")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    descriptor = os.open(path, flags)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise SkippedFile(f"Not a regular file ({_kind(status.st_mode)}); skipped")
        _check_size(status.st_size, max_size)
        chunks = []
        total = 0
        while True:  # read to the end, but no further than the limit if the file grows
            chunk = os.read(descriptor, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            _check_size(total, max_size)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def _check_size(size: int, max_size: int | None) -> None:
    if max_size is not None and size > max_size:
        raise SkippedFile(
            f"File too large to check ({format_size(size)}, over `max-file-size` = "
            f"{format_size(max_size)}); skipped"
        )


def walked_file_wanted(path: Path) -> bool:
    """Whether a `*.py` name met in a walked folder is checked: regular files (also through a
    symbolic link), and broken or looping links (reported as DTL900). FIFOs, devices and sockets
    are skipped."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return os.path.islink(path)
