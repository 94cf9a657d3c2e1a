"""The check every ``--out`` folder option runs before a command writes anything."""

from __future__ import annotations

from pathlib import Path

import typer


def output_folder(value: Path | None) -> Path | None:
    """Check an ``--out`` option before anything is written (a typer callback): a usage error, exit 2.

    Refused: a path naming a file, a symbolic link that leads nowhere, and the
    root of a file system (a build would scatter game folders and its cache
    over it). A folder that does not exist yet is fine: it is made.
    """
    if value is None:
        return None
    if value.is_symlink() and not value.exists():
        raise typer.BadParameter(f"{value} is a symbolic link to nothing; point --out at a folder", param_hint="--out")
    if value.exists() and not value.is_dir():
        raise typer.BadParameter(f"{value} is a file, not a folder; point --out at a folder", param_hint="--out")
    try:
        resolved = value.resolve()
    except (RuntimeError, OSError):  # a symbolic link loop (RuntimeError before Python 3.13)
        raise typer.BadParameter(f"{value} goes through a symbolic link that loops back on itself", param_hint="--out") from None
    if resolved == Path(resolved.anchor):
        raise typer.BadParameter(f"{value} is the root of the file system; point --out at a folder of its own, e.g. output/", param_hint="--out")
    return value
