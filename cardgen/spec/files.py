"""Reading an input file's bytes and text within the size limit, refusing what is not a regular UTF-8 text file."""

from __future__ import annotations

import stat
from pathlib import Path

from cardgen.findings import InputError
from cardgen.limits import MAX_FILE_BYTES


def read_bytes(path: Path, shown: str, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """Read a file's bytes, refusing anything but a regular file and files over ``max_bytes`` with a clear error.

    The read itself stops after ``max_bytes`` + 1 bytes, so a file that grows
    while it is read, or one whose stated size is wrong, cannot make it endless.
    """
    try:
        info = path.stat()
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", shown) from exc
    if not stat.S_ISREG(info.st_mode):
        raise InputError("not a regular file (a device, a pipe or a folder); name a file", shown)
    if info.st_size > max_bytes:
        raise InputError(f"file is {info.st_size} bytes, over the {max_bytes}-byte limit for this kind of file", shown)
    try:
        with path.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", shown) from exc
    if len(raw) > max_bytes:
        raise InputError(f"file holds more than {max_bytes} bytes, over the {max_bytes}-byte limit for this kind of file", shown)
    return raw


def decode_text(raw: bytes, shown: str) -> str:
    """A spec file's bytes as UTF-8 text, with clear errors for binary data and bad encodings."""
    if b"\x00" in raw:
        raise InputError("file holds binary data (a NUL byte), not YAML or CSV text", shown)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(f"file is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); save it as UTF-8", shown, line, column) from exc
    return text


def read_text(path: Path, shown: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a spec file as UTF-8 text with clear errors for size, binary data and encoding."""
    return decode_text(read_bytes(path, shown, max_bytes), shown)
