"""Moving a finished file into place, also across file systems.

``os.replace`` is one atomic rename, but only within one file system: when the
destination folder lies on another one (``output/<game>`` a symbolic link to
another disk, a mount point inside ``output/``), it fails with EXDEV ("Invalid
cross-device link") every time. :func:`move_file` then copies the file into a
temporary file beside the destination and renames that into place, so a
reader still never sees a half-written file. :func:`write_atomic` writes new
bytes the same way (a temporary file beside the destination, one rename).
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from pathlib import Path


def move_file(source: Path, destination: Path) -> None:
    """Move ``source`` to ``destination`` (replacing it): a rename, or a copy and rename across file systems."""
    try:
        os.replace(source, destination)
        return
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise
    fd, temp_name = tempfile.mkstemp(prefix=f".{destination.name}.", suffix=".part", dir=destination.parent)
    try:
        with os.fdopen(fd, "wb") as target, source.open("rb") as origin:
            shutil.copyfileobj(origin, target)
            target.flush()
            os.fsync(target.fileno())
        shutil.copymode(source, temp_name)
        os.replace(temp_name, destination)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    source.unlink()


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and one rename (no half-written file is left)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    temporary.write_bytes(data)
    os.replace(temporary, path)
