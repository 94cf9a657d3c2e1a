"""The artefact cache: built artefacts and parse results kept under ``<out>/.cache/``, keyed by everything that shapes them.

A low module (it imports nothing of cardgen): the spec loader, the layers that
produce artefacts and the build pipeline all use it.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Callable, Iterator

CACHE_DIR = ".cache"
"""Inside the output folder: the artefact cache, one sub-folder per game."""

_CODE_FINGERPRINT: list[str] = []
_STAT_ONLY = (".ttf", ".png", ".jpg", ".mo")
"""Large binary files of the package that the fingerprint covers by size and modification time, not content."""
FINGERPRINT_LIBRARIES = ("reportlab", "rl_accel", "Jinja2", "Babel", "pyphen", "PyYAML", "num2words")
"""Libraries whose version changes what cardgen writes or finds (typesetting, templates, catalogs, YAML parsing, spelled-out numbers)."""


def _fingerprint_files(root: Path) -> list[str]:
    """Every file under ``root`` (``__pycache__`` folders skipped), as sorted '/'-joined paths relative to ``root``'s parent.

    Walked with ``os.scandir`` (a third of ``os.walk``'s time, which works out each folder's relative path again);
    as with ``os.walk``, a link to a folder is neither entered nor listed, and an unreadable folder is passed over.
    """
    found: list[str] = []
    folders = [(str(root), root.name)]
    while folders:
        folder, relative = folders.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if not entry.is_dir():
                        found.append(f"{relative}/{entry.name}")
                    elif entry.name != "__pycache__" and not entry.is_symlink():
                        folders.append((entry.path, f"{relative}/{entry.name}"))
        except OSError:
            continue
    return sorted(found)


def _distribution_key(name: str) -> str:
    """A distribution's name as its metadata folder spells it, compared case-blind (PEP 503 runs of ``-_.`` as one ``_``)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def installed_versions() -> dict[str, str]:
    """The version of every distribution installed on ``sys.path``, from the names of their metadata folders.

    ``<name>-<version>.dist-info`` (and the older ``<name>-<version>[-pyX.Y].egg-info``) carry both in the
    folder's name, so one directory listing per path entry answers for every library; the first entry
    of ``sys.path`` holding a distribution wins, as for imports. ``importlib.metadata.version`` gives
    the same answers but reads each METADATA file with the e-mail parser, and importing that machinery
    cost about a twentieth of a small build's time.
    """
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # (a zip file, a missing folder, a path hook's marker)
            continue
        for folder in names:
            stem, dot, suffix = folder.rpartition(".")
            if not dot or suffix not in ("dist-info", "egg-info"):
                continue
            name, dash, rest = stem.partition("-")
            if dash:
                found.setdefault(_distribution_key(name), rest.split("-")[0])
    return found


def code_fingerprint() -> str:
    """A digest of everything besides its inputs that shapes an artefact: cardgen's code, templates, fonts, the versions of the libraries that write or typeset them.

    Part of every cache key, so a cache written by another version of cardgen
    (or of reportlab, Jinja2, Babel, PyYAML, or of Python itself) is never
    reused. Source files and templates are hashed by content; the large binary
    files (fonts, images) by size and modification time. Computed once per
    process (about 5 ms: one directory walk, ~1 MB of text hashed).
    """
    if not _CODE_FINGERPRINT:
        digest = hashlib.sha256()
        digest.update(f"python={sys.implementation.cache_tag}:{sys.version}".encode())
        package = Path(__file__).resolve().parent
        for root in (package, package.parent / "templates"):
            if not root.is_dir():
                continue
            for relative in _fingerprint_files(root):
                path = os.path.join(root.parent, relative)
                if relative.endswith(_STAT_ONLY):
                    info = os.stat(path)
                    content = f"{info.st_size}:{info.st_mtime_ns}".encode()
                else:
                    with open(path, "rb") as handle:
                        content = handle.read()
                digest.update(f"{relative}\0{len(content)}\0".encode())
                digest.update(content)
        installed = installed_versions()
        for name in FINGERPRINT_LIBRARIES:
            digest.update(f"{name}={installed.get(_distribution_key(name), 'none')}".encode())
        _CODE_FINGERPRINT.append(digest.hexdigest())
    return _CODE_FINGERPRINT[0]


ENTRY_HEADER = b"cardgen-entry sha256:"
"""Every file of the artefact cache starts with this, the sha256 of its payload in hex, and a newline."""


def seal_artefact(data: bytes) -> bytes:
    """``data`` as stored in the artefact cache: a header with its sha256, then the bytes."""
    return ENTRY_HEADER + hashlib.sha256(data).hexdigest().encode("ascii") + b"\n" + data


def unseal_artefact(stored: bytes) -> bytes | None:
    """The payload of a stored entry, or None when its digest does not match (a damaged or foreign file)."""
    header, newline, data = stored.partition(b"\n")
    if not newline or not header.startswith(ENTRY_HEADER):
        return None
    if header[len(ENTRY_HEADER):] != hashlib.sha256(data).hexdigest().encode("ascii"):
        return None
    return data


class ArtefactCache:
    """A persistent content-addressed store of built artefacts and parse results, under the output folder.

    A producer computes a key from ALL the inputs of an artefact (see
    :meth:`key`); if the store has bytes for that key they are exactly the
    bytes the producer would write, because every artefact is a deterministic
    function of its inputs and the key also covers cardgen's code
    (:func:`code_fingerprint`). The spec loader, the catalog check and the
    rulebook's Jinja environment keep their results here the same way (see
    :class:`cardgen.spec.parse_cache.ResultCache`). Entries not used by a build are
    removed at its end, so the cache holds one build's worth of entries per game.

    An entry is only read back when it is a regular file owned by this user
    that nobody else may write (this cache writes them so), so a file planted
    in a shared output folder by someone else is never taken for an entry; and
    only when its bytes match the sha256 written with them
    (:func:`seal_artefact`), so a damaged entry (a flipped bit, a write cut
    short) is a miss, is deleted, and the artefact is made afresh.

    A build opens its cache before it knows the game's id (the id is read from
    the spec, whose parse is cached too): until :meth:`bind` names the game,
    lookups search every game's folder under ``root`` and new entries wait in
    memory; :meth:`bind` then writes them into ``<root>/<game>/``.
    """

    def __init__(self, folder: Path | None, root: Path | None = None) -> None:
        self.folder = folder
        self.root = root if root is not None else (folder.parent if folder is not None else None)
        self.used: set[str] = set()
        self.hits = 0
        self.misses = 0
        self._pending: dict[str, bytes] = {}

    @classmethod
    def unbound(cls, root: Path) -> "ArtefactCache":
        """A cache over ``root`` (``<out>/.cache``) whose game is not known yet; see :meth:`bind`."""
        return cls(None, root)

    def bind(self, game: str) -> None:
        """Name the game: entries go to ``<root>/<game>/`` from now on, the waiting ones first."""
        if self.folder is not None or self.root is None:
            return
        self.folder = self.root / game
        pending, self._pending = self._pending, {}
        for key, data in pending.items():
            if self._read(self.folder / key) != data:  # (a hit may have come from this very folder)
                self._write(key, data)

    @staticmethod
    def key(*parts: object) -> str:
        """A sha256 hex key over the code fingerprint and the ``repr`` of each part (str/bytes as is)."""
        digest = hashlib.sha256(code_fingerprint().encode())
        for part in parts:
            data = part if isinstance(part, bytes) else (part if isinstance(part, str) else repr(part)).encode()
            digest.update(len(data).to_bytes(8, "big"))
            digest.update(data)
        return digest.hexdigest()

    @staticmethod
    def _read(path: Path) -> bytes | None:
        """The bytes of the entry file ``path``, or None when it is missing or not to be trusted."""
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))  # (a FIFO must not block)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            foreign = hasattr(os, "geteuid") and info.st_uid != os.geteuid()
            if not stat.S_ISREG(info.st_mode) or foreign or info.st_mode & 0o022:
                return None
            try:
                stored = handle.read()
            except OSError:
                return None
        data = unseal_artefact(stored)
        if data is None:  # damaged (a flipped byte, a cut-short write) or not ours: a miss, and gone
            try:
                os.unlink(path)
            except OSError:
                pass
        return data

    def get(self, key: str) -> bytes | None:
        """The stored bytes for ``key``, or None. Marks the key used, so :meth:`prune` keeps it."""
        self.used.add(key)
        if self.folder is not None:
            data = self._read(self.folder / key)
        else:
            data = self._pending.get(key)
            for folder in self._game_folders() if data is None else []:
                data = self._read(folder / key)
                if data is not None:
                    self._pending[key] = data  # copied into this game's folder by bind()
                    break
        if data is None:
            self.misses += 1
        else:
            self.hits += 1
        return data

    def _game_folders(self) -> list[Path]:
        if self.root is None:
            return []
        try:
            return sorted(p for p in self.root.iterdir() if p.is_dir())
        except OSError:
            return []

    def put(self, key: str, data: bytes) -> None:
        """Store ``data`` under ``key`` (atomically; a failure to write only loses the cache entry)."""
        self.used.add(key)
        if self.folder is None:
            self._pending[key] = data
        else:
            self._write(key, data)

    def _write(self, key: str, data: bytes) -> None:
        assert self.folder is not None
        tmp = self.folder / f".{key}.{os.getpid()}.tmp"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
            with os.fdopen(fd, "wb") as handle:
                if hasattr(os, "fchmod"):
                    os.fchmod(handle.fileno(), 0o644)  # whatever the umask: only this user may write it
                handle.write(seal_artefact(data))
            os.replace(tmp, self.folder / key)
        except OSError:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass

    def touch(self, key: str) -> None:
        """Keep the entry ``key`` (if there is one) through this build's :meth:`prune` without reading it."""
        self.used.add(key)

    def fetch(self, key: str, make: Callable[[], bytes]) -> bytes:
        """The cached bytes for ``key``, or ``make()``'s, stored for next time."""
        data = self.get(key)
        if data is None:
            data = make()
            self.put(key, data)
        return data

    def prune(self) -> None:
        """Delete the entries this build did not use (only files this cache wrote: 64-hex names)."""
        if self.folder is None or not self.folder.is_dir():
            return
        for path in self.folder.iterdir():
            name = path.name
            stale_tmp = name.startswith(".") and name.endswith(".tmp")
            if (len(name) == 64 and name not in self.used) or stale_tmp:
                path.unlink(missing_ok=True)


USER_STORE_DAYS = 30
"""Entries of a per-user store neither written nor read for this many days are deleted when a new one is written."""
_USER_STORE_OFF: ContextVar[bool] = ContextVar("cardgen_user_store_off", default=False)
_USER_STORES: dict[tuple[str, str], "UserStore | None"] = {}


class UserStore(ArtefactCache):
    """A per-user store of what cardgen derives from its *own* files and libraries, never from a spec (as Python keeps ``__pycache__``).

    It lives in ``$XDG_CACHE_HOME/cardgen/<kind>/`` (``~/.cache/cardgen/<kind>/``
    by default), outside every output folder, so a build into a new folder
    (a "cold" build) still finds it. Its entries follow the artefact cache's
    rules: keys cover cardgen's code, the libraries' versions and every input,
    so an entry is never stale; a file is read back only when it is a regular
    file of this user that nobody else may write, and only when its seal
    matches. The folder itself must be this user's and writable by nobody
    else (and so must ``cardgen/`` above it), or the store is not used.
    Entries are not pruned per build (other output folders and other
    versions of cardgen share the store): one that has been neither written
    nor read for :data:`USER_STORE_DAYS` days is deleted when a new entry is
    written.
    """

    def get(self, key: str) -> bytes | None:
        """The stored bytes, or None; a hit keeps its entry from being pruned."""
        data = super().get(key)
        if data is not None and self.folder is not None:
            try:
                path = self.folder / key
                if os.stat(path).st_mtime < _now() - 86400:  # (touched at most once a day)
                    os.utime(path)
            except OSError:
                pass
        return data

    def put(self, key: str, data: bytes) -> None:
        """Store ``data`` and delete the entries left unused for :data:`USER_STORE_DAYS` days."""
        super().put(key, data)
        if self.folder is None:
            return
        limit = _now() - USER_STORE_DAYS * 86400
        try:
            for path in self.folder.iterdir():
                if len(path.name) == 64 and path.name != key and path.lstat().st_mtime < limit:
                    path.unlink(missing_ok=True)
        except OSError:
            pass


def _now() -> float:
    import time

    return time.time()


def _private_folder(folder: Path) -> bool:
    """Whether ``folder`` is a real directory (not a link) of this user that nobody else may write."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    mine = not hasattr(os, "geteuid") or info.st_uid == os.geteuid()
    return stat.S_ISDIR(info.st_mode) and mine and not info.st_mode & 0o022


def user_store(kind: str) -> UserStore | None:
    """This user's store of ``kind`` (see :class:`UserStore`), or None when it is switched off
    (:func:`user_store_scope`) or cannot be made private (no home, a read-only disk, a folder someone else owns)."""
    if _USER_STORE_OFF.get():
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # (unset, empty or relative: the XDG default)
        base = os.path.join(os.path.expanduser("~"), ".cache")
    place = (base, kind)
    if place not in _USER_STORES:
        folder = Path(base) / "cardgen" / kind
        try:
            folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            folder.mkdir(mode=0o700, exist_ok=True)
        except OSError:
            pass
        trusted = os.path.isabs(base) and _private_folder(folder.parent) and _private_folder(folder)
        _USER_STORES[place] = UserStore(folder) if trusted else None
    return _USER_STORES[place]


@contextmanager
def user_store_scope(enabled: bool) -> Iterator[None]:
    """Within the scope, :func:`user_store` answers None unless ``enabled`` (``cardgen build --no-cache`` uses none)."""
    token = _USER_STORE_OFF.set(not enabled)
    try:
        yield
    finally:
        _USER_STORE_OFF.reset(token)
