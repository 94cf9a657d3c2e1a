"""Progress reporting that the library layers can call without knowing about terminals.

Library code accepts an optional :class:`ProgressHook`; the command line passes
one that draws a rich progress bar on the terminal (and nothing when the
output is not a terminal, or with ``--quiet``).
"""

from __future__ import annotations

from types import TracebackType
from typing import Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn


class ProgressHook(Protocol):
    """Told how much work there is, then how much has been done."""

    def start(self, total: int, description: str = "") -> None:
        """Announce ``total`` units of work."""

    def advance(self, done: int = 1) -> None:
        """Report ``done`` more units finished."""


class NoProgress:
    """A hook that shows nothing."""

    def start(self, total: int, description: str = "") -> None:
        """Ignore the announcement."""

    def advance(self, done: int = 1) -> None:
        """Ignore the report."""


class TerminalProgress:
    """A rich progress bar on standard error; silent when quiet or not on a terminal."""

    def __init__(self, description: str, quiet: bool = False) -> None:
        console = Console(stderr=True)
        self._description = description
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
            disable=quiet or not console.is_terminal,
        )
        self._task: TaskID | None = None

    def __enter__(self) -> "TerminalProgress":
        self._progress.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self._progress.stop()

    def start(self, total: int, description: str = "") -> None:
        """Begin (or restart) the bar with ``total`` units."""
        if self._task is not None:
            self._progress.remove_task(self._task)
        self._task = self._progress.add_task(description or self._description, total=total)

    def advance(self, done: int = 1) -> None:
        """Move the bar on by ``done`` units."""
        if self._task is not None:
            self._progress.advance(self._task, done)
