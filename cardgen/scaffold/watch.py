"""``cardgen watch``: rebuild a game whenever one of its files changes.

No file-system notification library is needed: the watcher polls. Each cycle
takes a :func:`snapshot` (relative path -> modification time and size) of the
watched folders and compares it with the previous one (:func:`changed_files`).
A change is acted on once the folder has been quiet for one whole interval, so
an editor that saves in several steps triggers one rebuild, not three.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from cardgen.findings import InputError, display_path

Snapshot = dict[str, tuple[int, int]]
"""Each watched file (as a path string) with its modification time in nanoseconds and its size."""

MAX_WATCHED_FILES = 5000
"""Watching more files than this is refused: the folder is not a spec folder."""
_IGNORED_SUFFIXES = ("~", ".swp", ".swo", ".swx", ".tmp", ".part", ".crdownload")
_IGNORED_DIRS = {"__pycache__", "node_modules"}


def ignored(name: str) -> bool:
    """Whether a file or folder name is an editor's or the system's scratch file, never part of a spec."""
    return (
        name.startswith(".")
        or name.startswith("~$")  # office lock files
        or (name.startswith("#") and name.endswith("#"))  # emacs auto-save
        or name.endswith(_IGNORED_SUFFIXES)
        or name in _IGNORED_DIRS
    )


def snapshot(roots: Iterable[Path], exclude: Iterable[Path] = ()) -> Snapshot:
    """The modification time and size of every file under ``roots``, skipping scratch files and ``exclude``.

    Files that vanish while the snapshot is taken (an editor replacing a file)
    are left out; the next snapshot sees them again.
    """
    skipped = [p.resolve() for p in exclude]
    seen: Snapshot = {}
    for root in roots:
        if not root.is_dir():
            continue
        for current, dirs, files in os.walk(root):
            here = Path(current)
            dirs[:] = sorted(d for d in dirs if not ignored(d) and not _excluded(here / d, skipped))
            for name in sorted(files):
                if ignored(name):
                    continue
                path = here / name
                try:
                    stat = path.stat()
                except OSError:
                    continue
                seen[str(path)] = (stat.st_mtime_ns, stat.st_size)
                if len(seen) > MAX_WATCHED_FILES:
                    raise InputError(f"more than {MAX_WATCHED_FILES} files to watch; name a single game's spec folder", display_path(root))
    return seen


def _excluded(path: Path, skipped: list[Path]) -> bool:
    resolved = path.resolve()
    return any(resolved == s or s in resolved.parents for s in skipped)


def changed_files(before: Snapshot, after: Snapshot) -> list[str]:
    """The files added, removed or modified (time or size) between two snapshots, sorted."""
    changed = {path for path, stamp in after.items() if before.get(path) != stamp}
    changed.update(path for path in before if path not in after)
    return sorted(changed)


@dataclass
class WatchState:
    """What the loop has seen: the last snapshot, the changes waiting to settle, and how many rebuilds ran."""

    last: Snapshot
    pending: list[str] = field(default_factory=list)
    rebuilds: int = 0
    cycles: int = 0


def poll_once(state: WatchState, take: Callable[[], Snapshot]) -> list[str] | None:
    """One polling step: the files to rebuild for, once changes have settled; None otherwise.

    A change first becomes pending; when the next snapshot equals the one that
    showed it (nothing moved for a whole interval), the pending files are returned.
    """
    current = take()
    changes = changed_files(state.last, current)
    state.last = current
    if changes:
        state.pending = sorted(set(state.pending) | set(changes))
        return None
    if state.pending:
        ready, state.pending = state.pending, []
        return ready
    return None


def watch_loop(
    take: Callable[[], Snapshot],
    rebuild: Callable[[list[str]], None],
    interval: float,
    max_cycles: int | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> WatchState:
    """Poll every ``interval`` seconds and call ``rebuild(changed files)`` after each settled change.

    Runs until interrupted (Ctrl-C raises KeyboardInterrupt to the caller) or,
    for tests, for ``max_cycles`` polls. Returns the final state.
    """
    state = WatchState(last=take())
    while max_cycles is None or state.cycles < max_cycles:
        sleep(interval)
        state.cycles += 1
        ready = poll_once(state, take)
        if ready:
            rebuild(ready)
            state.rebuilds += 1
    return state
