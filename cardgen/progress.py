"""Progress reporting that the library layers can call without knowing about terminals.

Library code accepts an optional :class:`ProgressHook`; the command line passes
one that draws a rich progress bar on the terminal (and nothing when the
output is not a terminal, or with ``--quiet``).

rich is imported only when a bar may actually be drawn: a quiet run, or one
whose standard error is plainly not a terminal, never loads it (about 30 ms
of start-up, with setting the bar up, for every command that reports progress).
"""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


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


def stderr_surely_not_a_terminal() -> bool:
    """True when rich would certainly find standard error is not a terminal, so a bar would stay hidden.

    rich treats the stream as a terminal when ``TTY_COMPATIBLE=1`` or a
    non-empty ``FORCE_COLOR`` is set, whatever the stream is; with either of
    those variables set this answers False and leaves the decision to rich.
    Otherwise it asks the stream itself, as rich does.
    """
    if os.environ.get("TTY_COMPATIBLE") == "1" or os.environ.get("FORCE_COLOR") is not None:
        return False
    stream = sys.stderr
    isatty = getattr(stream, "isatty", None)
    if isatty is None:
        return True
    try:
        return not isatty()
    except ValueError:  # a closed stream
        return True


class TerminalProgress:
    """A rich progress bar on standard error; silent when quiet or not on a terminal."""

    def __init__(self, description: str, quiet: bool = False, redraw_thread: bool = True) -> None:
        """``redraw_thread``: keep the elapsed time ticking from a thread of rich's; without it the bar is
        redrawn only when it moves, and the process keeps one thread (a build forks its workers only then)."""
        self._description = description
        self._redraw_on_move = not redraw_thread
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        if quiet or stderr_surely_not_a_terminal():
            return  # nothing will be drawn: do not pay for importing rich
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(stderr=True)
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
            disable=not console.is_terminal,
            auto_refresh=redraw_thread,
        )

    @property
    def shown(self) -> bool:
        """Whether a rich bar was set up (it may still be disabled by rich, e.g. in Jupyter)."""
        return self._progress is not None

    def __enter__(self) -> "TerminalProgress":
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.stop()

    def start(self, total: int, description: str = "") -> None:
        """Begin (or restart) the bar with ``total`` units."""
        if self._progress is None:
            return
        if self._task is not None:
            self._progress.remove_task(self._task)
        self._task = self._progress.add_task(description or self._description, total=total)

    def advance(self, done: int = 1) -> None:
        """Move the bar on by ``done`` units."""
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task, done)
            if self._redraw_on_move:
                self._progress.refresh()
