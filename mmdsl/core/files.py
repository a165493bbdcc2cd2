"""Reading the user's input files: regular files only, of a bounded size, as UTF-8 text.

A litmus test, a model, a manifest or a herd ``.expected`` file that is a FIFO, a device
(``/dev/zero``), a socket or a folder is refused at once instead of being read forever,
and so is a file larger than :data:`MAX_INPUT_BYTES`. The file is opened without
blocking (a FIFO with no writer would block ``open``) and checked on the open descriptor,
so that it cannot be swapped between the check and the read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import MmdslError, SourcePos

MAX_INPUT_BYTES = 8 * 1024 * 1024  # 8 MiB: hundreds of times the largest test or model in herd's tree

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def read_input(path: str | Path, what: str, error: type[MmdslError] = MmdslError, *,
               encoding: str = "utf-8") -> str:
    """The text of the ``what`` file at ``path`` (e.g. "litmus file"), or ``error`` located
    at the file saying why it cannot be read: missing, not a regular file, too large, not UTF-8.

    Line ends are read as ``Path.read_text`` reads them (``\\r\\n`` and ``\\r`` become ``\\n``).
    """
    where = SourcePos(str(path), 1, 1)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        raise error(f"cannot read {what}: {err.strerror or err}", where) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a regular file")
            raise error(f"cannot read {what}: it is {kind}, not a regular file", where,
                        expected="a regular file")
        if info.st_size > MAX_INPUT_BYTES:
            raise error(f"cannot read {what}: {_size(info.st_size)} is too large", where,
                        expected=f"at most {_size(MAX_INPUT_BYTES)}")
        if hasattr(os, "O_NONBLOCK"):
            os.set_blocking(fd, True)
        # at most MAX_INPUT_BYTES + 1 bytes (one more tells that it grew), read with os.read in
        # pieces of about the file's size: a buffered read(MAX_INPUT_BYTES + 1) allocates
        # 8 MiB for every small test first
        parts = []
        size = 0
        while size <= MAX_INPUT_BYTES:
            chunk = os.read(fd, min(MAX_INPUT_BYTES + 1 - size, max(info.st_size + 1 - size, 65536)))
            if not chunk:
                break
            parts.append(chunk)
            size += len(chunk)
        data = b"".join(parts)
    except OSError as err:
        raise error(f"cannot read {what}: {err.strerror or err}", where) from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > MAX_INPUT_BYTES:  # it grew after the check
        raise error(f"cannot read {what}: it is larger than {_size(MAX_INPUT_BYTES)}", where,
                    expected=f"at most {_size(MAX_INPUT_BYTES)}")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        raise error(f"the {what} is not UTF-8 text", where) from None
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MiB" if n >= 1024 * 1024 else f"{n:,} bytes"
