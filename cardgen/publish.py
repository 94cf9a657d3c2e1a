"""Publishing a staged build into ``<out>/<game>/``: the output folder's lock, a checked plan, a journal.

A build writes every artefact into a private staging folder first (see
:mod:`cardgen.build`). Publishing moves those files into the game's folder. It
cannot be one rename (the game's folder also holds the user's own files and
the output of other commands, which cardgen must not touch), so it is a small
transaction:

1. **Check** every destination before anything moves: a folder (or a link)
   where a file must go, or a file where a folder must go, is an
   :class:`InputError` naming that path, and nothing is published.
2. **Journal**: ``<out>/.cardgen-publish-<game>.json`` names the staging folder
   and the files it holds, written atomically before the first rename.
3. **Move** each file with one atomic rename, ``index.html`` last; Ctrl-C and
   SIGTERM are held back until the last rename is done.
4. Remove the journal, then the staging folder.

A build killed inside step 3 (``kill -9``, a power cut) leaves its journal and
its staging folder, which holds the files not moved yet, complete. The next
build on the same output folder finishes that publish as soon as it holds the
lock (:func:`finish_interrupted_publishes`), so the game's folder never stays a
mix of two builds.

The lock is an operating-system lock (``fcntl.flock``) on
``<out>/.cardgen-build.lock``: the kernel releases it when its process ends,
however it ends, so a stale lock never needs taking over and two builds can
never both hold it. The file also carries the holder's process id, for the
message the second build prints; it is removed when the build ends.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import IO, Any, Iterator

from cardgen.fsmove import move_file
from cardgen.findings import InputError

LOCK_NAME = ".cardgen-build.lock"
JOURNAL_PREFIX = ".cardgen-publish-"
"""``<out>/.cardgen-publish-<game>.json``: a publish under way (or interrupted)."""
STAGING_PREFIX = ".staging-"
LAST = ("index.html",)
"""Files moved after every other one: the gallery appears only when what it links is in place."""

_REPAIRED: dict[str, list[str]] = {}
"""Game id -> notes about an interrupted publish finished by this process (see :func:`repair_notes`)."""


# --------------------------------------------------------------------------- the lock
def _try_lock(handle: IO[bytes]) -> bool:
    """Take an exclusive lock on ``handle`` without waiting; False when someone holds it."""
    if sys.platform == "win32":  # pragma: no cover - cardgen is developed on POSIX
        import msvcrt

        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _holder(lock: Path) -> str:
    try:
        text = lock.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return "unknown"
    return text if text.isdigit() else "unknown"


def _open_locked(lock: Path) -> IO[bytes]:
    """Open ``lock`` and hold its operating-system lock, or raise :class:`InputError` when another build holds it."""
    for _attempt in range(20):
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as error:
            raise InputError(f"cannot open the build lock {LOCK_NAME} ({error.strerror or error})", str(lock.parent)) from error
        handle = os.fdopen(fd, "r+b")
        if not _try_lock(handle):
            holder = _holder(lock)
            handle.close()
            raise InputError(
                f"another build is running on this output folder (process {holder}); wait for it to finish", str(lock.parent)
            )
        try:  # the file may have been removed (and made anew) by the build that held it just before
            same = os.path.samestat(os.fstat(handle.fileno()), os.stat(lock, follow_symlinks=False))
        except OSError:
            same = False
        if same:
            return handle
        handle.close()
    raise InputError(f"cannot take the build lock {LOCK_NAME}", str(lock.parent))


@contextmanager
def build_lock(out: Path) -> Iterator[None]:
    """Hold the output folder's lock for the duration of a build.

    On taking it, publishes that a killed build left half done are finished
    (:func:`finish_interrupted_publishes`) and staging folders of builds that
    no longer run are removed.
    """
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot use this as the output folder ({error.strerror or error})", str(out)) from error
    lock = out / LOCK_NAME
    handle = _open_locked(lock)
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()).encode("ascii"))
        handle.flush()
        try:
            finish_interrupted_publishes(out)
        except OSError as error:
            raise InputError(f"cannot finish the publish an interrupted build left ({error.strerror or error})", str(out)) from error
        remove_stale_staging(out)
        yield
    finally:
        try:
            lock.unlink(missing_ok=True)  # while still locked: a waiting build then sees a new file and retries
        finally:
            handle.close()


def _process_alive(pid: int) -> bool:
    """Whether a process with this id is running on this machine."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, owned by someone else
    except OSError:
        return False
    return True


def remove_stale_staging(out: Path) -> None:
    """Remove staging folders left by builds whose process is gone and that no unfinished journal names."""
    for folder in out.glob(f"{STAGING_PREFIX}*"):
        pid_part = folder.name.rsplit("-pid", 1)[-1].split("-", 1)[0]
        if folder.is_dir() and not folder.is_symlink() and pid_part.isdigit() and not _process_alive(int(pid_part)):
            shutil.rmtree(folder, ignore_errors=True)


# --------------------------------------------------------------------------- checking a publish
def _staged_files(staging: Path) -> list[str]:
    """Every regular file under ``staging`` as a '/'-joined relative path, in publishing order (``index.html`` last).

    Read with ``os.scandir``, whose entries tell a file from a folder or a link without a status call of
    their own on the file systems that report it (a large deck stages thousands of files); links are
    neither followed nor published.
    """
    found = _files_under(str(staging), "", links_refused=False)
    assert found is not None
    return sorted(found, key=lambda name: (name in LAST, name))


def _kind(path: Path) -> str | None:
    """'file', 'folder', 'link' or 'other' for what is at ``path`` (not following links); None when nothing is."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "folder"
    return "file" if stat.S_ISREG(mode) else "other"


def check_destinations(files: list[str], target: Path) -> None:
    """Raise :class:`InputError` when any of ``files`` cannot be published into ``target`` as a regular file.

    Every folder on the way must be a real folder (not a link, which would take
    the file elsewhere) or absent; every file's place must be a regular file or
    absent. Nothing is changed.
    """
    seen: dict[Path, str | None] = {}

    def kind(path: Path) -> str | None:
        if path not in seen:
            seen[path] = _kind(path)
        return seen[path]

    target_kind = kind(target)
    if target_kind == "link" and target.is_dir():
        target_kind = "folder"  # the game's folder may live elsewhere (another disk): files are copied there
    if target_kind not in (None, "folder"):
        raise InputError(f"the game's output folder is a {target_kind}, not a folder: move it away and build again", str(target))
    if target_kind is None:
        return  # nothing of the game's is there yet: nothing stands in the way
    for name in files:
        parts = name.split("/")
        folder = target
        for part in parts[:-1]:
            folder = folder / part
            found = kind(folder)
            if found is None:
                break
            if found != "folder":
                raise InputError(f"cardgen writes a folder here but found a {found}: move it away and build again", str(folder))
        else:
            found = "folder"
        if found is None:
            continue  # a folder on the way is absent, so is the file
        destination = target / name
        found = kind(destination)
        if found not in (None, "file"):
            raise InputError(f"cardgen writes a file here but found a {found}: move it away and build again", str(destination))


# --------------------------------------------------------------------------- the journal
def journal_path(out: Path, game: str) -> Path:
    """Where the journal of ``game``'s publish lives."""
    return out / f"{JOURNAL_PREFIX}{game}.json"


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def _regular_files(folder: str, prefix: str) -> list[str] | None:
    """Every file under ``folder`` as ``prefix``-joined relative paths, or None when it holds anything but regular files
    and folders (a link, which a publish never moves)."""
    return _files_under(folder, prefix, links_refused=True)


def _files_under(folder: str, prefix: str, links_refused: bool) -> list[str] | None:
    """Every regular file under ``folder`` as ``prefix``-joined relative paths (folders entered, links never
    followed); anything else (a link, a FIFO) is skipped, or, when ``links_refused``, the answer is None."""
    found: list[str] = []
    pending = [(folder, prefix)]
    while pending:
        here, start = pending.pop()
        with os.scandir(here) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    pending.append((entry.path, f"{start}{entry.name}/"))
                elif entry.is_file(follow_symlinks=False):
                    found.append(start + entry.name)
                elif links_refused:
                    return None
    return found


def _move_folder(staging: Path, target: Path, folder: str, names: list[str]) -> bool:
    """Move the staged ``folder`` into ``target`` with one rename when nothing of it is there yet and it holds
    exactly the files ``names`` (a first build's card faces: one rename instead of thousands); whether it did.

    An interruption leaves it either all staged or all published, which the journal's per-file record reads
    right (a file no longer staged whose destination is a file was published). Anything else (the folder
    already there, a link in the staged one, another file system) is left to the moves file by file.
    """
    source, destination = staging / folder, target / folder
    if _kind(source) != "folder" or _kind(destination) is not None:
        return False
    try:
        if set(_regular_files(str(source), f"{folder}/") or ()) != set(names):
            return False
        target.mkdir(parents=True, exist_ok=True)
        os.replace(source, destination)  # (a folder's rename; EXDEV on another file system, then the files are copied one by one)
    except OSError:
        return False
    return True


def _move_all(staging: Path, target: Path, files: list[str]) -> list[Path]:
    """Move each of ``files`` still in ``staging`` to ``target`` (one rename each, or one for a staged folder
    :func:`_move_folder` moves whole); the published paths."""
    moved = []
    made: set[Path] = set()  # folders made (or found) by this publish: each is made once, not once per file
    in_folder: dict[str, list[str]] = {}
    for name in files:
        head, slash, _ = name.partition("/")
        if slash:
            in_folder.setdefault(head, []).append(name)
    whole = {head for head, names in in_folder.items() if _move_folder(staging, target, head, names)}
    for name in files:
        if name.partition("/")[0] in whole and "/" in name:
            moved.append(target / name)  # (published with its folder)
            continue
        source = staging / name
        destination = target / name
        if _kind(source) == "file":
            parent = destination.parent
            if parent not in made:
                parent.mkdir(parents=True, exist_ok=True)
                made.add(parent)
            move_file(source, destination)  # a rename; a copy and rename when the game folder is on another disk
            moved.append(destination)  # (a file just renamed into place: no need to look again)
        elif _kind(destination) == "file":  # moved by the publish an interrupted build began
            moved.append(destination)
    return moved


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) and SIGTERM until the block ends, then act on them (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, _frame: FrameType | None) -> None:
        caught.append(signum)

    previous: dict[int, Any] = {}
    held: int
    for held in (signal.SIGINT, signal.SIGTERM):
        try:
            previous[held] = signal.signal(held, hold)
        except (ValueError, OSError):
            continue
    try:
        yield
    finally:
        for held, handler in previous.items():
            signal.signal(held, handler)
        if caught:
            first = caught[0]
            if first == signal.SIGINT and previous.get(first) is signal.default_int_handler:
                raise KeyboardInterrupt
            os.kill(os.getpid(), first)  # the handler that was there before now runs


def publish(staging: Path, target: Path) -> list[Path]:
    """Move every file staged in ``staging`` into ``target`` as one journalled publish; the published paths.

    Raises :class:`InputError` (nothing moved) when a destination is in the way
    (see :func:`check_destinations`).
    """
    files = _staged_files(staging)
    check_destinations(files, target)
    out = staging.parent
    journal = journal_path(out, target.name)
    if _kind(journal) not in (None, "file"):
        raise InputError(f"cardgen keeps its publishing journal here but found a {_kind(journal)}: move it away and build again", str(journal))
    record = {"staging": staging.name, "target": target.name, "files": files}
    with _signals_held():
        try:
            _write_atomically(journal, json.dumps(record, sort_keys=True).encode("utf-8"))
        except OSError as error:
            raise InputError(f"cannot write the publishing journal ({error.strerror or error}); nothing was published", str(journal)) from error
        try:
            moved = _move_all(staging, target, files)
        except OSError as error:  # a full disk, a permission taken away: the journal stays, for the next build to finish
            raise InputError(
                f"publishing stopped ({error.strerror or error}); the next build on this output folder finishes it", str(target)
            ) from error
        journal.unlink(missing_ok=True)
    return moved


def publish_pending(staging: Path) -> bool:
    """Whether a journal names ``staging``: its publish began and did not end, so the folder must stay for the next build."""
    journal = journal_path(staging.parent, staging.name[len(STAGING_PREFIX):].rsplit("-pid", 1)[0])
    if _kind(journal) != "file":
        return False
    try:
        return bool(json.loads(journal.read_text(encoding="utf-8")).get("staging") == staging.name)
    except (OSError, ValueError, AttributeError):
        return False


def finish_interrupted_publishes(out: Path) -> list[str]:
    """Finish every publish in ``out`` that a killed build left half done; the games repaired.

    Call only while holding ``out``'s lock. A journal whose staging folder is
    gone (the build died after its last rename) is just removed.
    """
    repaired = []
    for journal in sorted(out.glob(f"{JOURNAL_PREFIX}*.json")):
        if _kind(journal) != "file":
            continue  # not one of ours: publish() names it if it is in the way
        try:
            record = json.loads(journal.read_text(encoding="utf-8"))
            staging = out / str(record["staging"])
            target = out / str(record["target"])
            files = [str(name) for name in record["files"]]
        except (OSError, ValueError, KeyError, TypeError):
            journal.unlink(missing_ok=True)  # not one of ours, or cut short before the first rename
            continue
        names_ok = staging.name.startswith(STAGING_PREFIX) and staging.parent == out and target.parent == out
        names_ok = names_ok and all(".." not in name.split("/") and not name.startswith("/") for name in files)
        if names_ok and _kind(staging) == "folder":
            remaining = [name for name in files if _kind(staging / name) == "file" and _unobstructed(name, target)]
            with _signals_held():
                _move_all(staging, target, remaining)
            if remaining:
                repaired.append(target.name)
                _REPAIRED.setdefault(target.name, []).append(
                    f"finished publishing {len(remaining)} file(s) that an interrupted build had left in {staging.name}"
                )
            shutil.rmtree(staging, ignore_errors=True)
        journal.unlink(missing_ok=True)
    return repaired


def _unobstructed(name: str, target: Path) -> bool:
    """Whether the file ``name`` can be published into ``target`` (what stands in the way is the user's: left as it is)."""
    try:
        check_destinations([name], target)
    except InputError:
        return False
    return True


def repair_notes(game: str) -> list[str]:
    """Notes about ``game``'s interrupted publish finished by this process (each handed out once)."""
    return _REPAIRED.pop(game, [])
