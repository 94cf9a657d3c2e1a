"""Errors that are the user's to fix, each as one line: usage errors and what the operating system refused."""

from __future__ import annotations

import os

import typer

from cardgen.findings import printable


def usage_line(error: typer.TyperException) -> str:
    """A usage error as one line: ``cardgen build: error: Invalid value for --paper: ...``.

    A command given no arguments at all (click's "no args is help") prints its help instead.
    """
    context = getattr(error, "ctx", None)
    format_message = getattr(error, "format_message", None)
    message = " ".join(str(format_message() if format_message else error).split())
    if not message and context is not None:
        return str(context.get_help())
    where = f"{context.command_path}: " if context is not None else ""
    return printable(f"{where}error: {message}")


def _name(value: object) -> str:
    return os.fsdecode(value) if isinstance(value, (str, bytes, os.PathLike)) else str(value)


def os_error_line(error: OSError) -> str:
    """An operating-system error as one line naming the file: ``output/x: error: Read-only file system``."""
    reason = error.strerror or type(error).__name__
    if error.filename is not None and error.filename2 is not None:
        return printable(f"{_name(error.filename)}: error: {reason} (moving it to {_name(error.filename2)})")
    if error.filename is not None:
        return printable(f"{_name(error.filename)}: error: {reason}")
    return printable(f"error: {reason} (while writing or reading a file)")
