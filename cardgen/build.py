"""The build pipeline: validate, produce every artefact into a staging folder, then move it into place.

Artefact producers (card faces, print sheets, rulebooks...) register themselves
with :func:`register_producer`; the pipeline knows none of them by name. A build
never leaves a half-written file next to a good one: producers write into a
private staging folder, and only when every producer of a game has finished are
the files moved, one atomic rename each, into ``<out>/<game>/``. A lock file
stops two builds from writing the same output folder at once. cardgen only
ever replaces files it writes; it deletes nothing else.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Literal

from cardgen.findings import Finding, InputError, Severity
from cardgen.spec.load import LoadedSpec
from cardgen.validate.runner import validate_folder

Paper = Literal["a4", "letter"]
LOCK_NAME = ".cardgen-build.lock"
CACHE_DIR = ".cache"
"""Inside the output folder: the artefact cache, one sub-folder per game."""
PRODUCER_MODULES = ("cardgen.render.produce", "cardgen.rulebook.produce", "cardgen.export.gallery")
"""Modules that register artefact producers when imported; those not written yet are skipped."""
CHECKS_DONE_BY_PRODUCERS: dict[str, str] = {"rulebook-render": "rulebooks"}
"""Validation checks a build skips because a producer does the same work: check name -> producer name.

The ``rulebook-render`` check renders each locale's rulebook and reports a
failure as CG310; the ``rulebooks`` producer renders the same rulebooks (with
their card pictures) and reports a failure as CG310 too, failing the build
before anything is published. So when that producer runs for every locale of
the spec, the build renders each rulebook once, in the producer. With
``--lang`` the check still runs, as it covers the locales not being built.
"""


@dataclass(frozen=True)
class BuildOptions:
    """What the designer asked for."""

    papers: tuple[Paper, ...] = ("a4", "letter")
    langs: tuple[str, ...] = ()
    """Locales to build; empty means every locale the spec declares."""
    card_lang: str | None = None
    """The locale printed on the cards; None means the spec's first locale."""
    cache: bool = True
    """Reuse artefacts (face SVGs, PDFs) from ``<out>/.cache/`` when their inputs are unchanged."""


_CODE_FINGERPRINT: list[str] = []


def code_fingerprint() -> str:
    """A digest of everything besides its inputs that shapes an artefact: cardgen's code, templates, fonts, the versions of the libraries that write or typeset them.

    Part of every cache key, so a cache written by another version of cardgen
    (or of reportlab, Jinja2, Babel) is never reused.
    """
    if not _CODE_FINGERPRINT:
        from importlib.metadata import PackageNotFoundError, version

        digest = hashlib.sha256()
        package = Path(__file__).resolve().parent
        roots = [package, package.parent / "templates"]
        for root in roots:
            if not root.is_dir():
                continue
            for path in sorted(root.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    digest.update(str(path.relative_to(root.parent)).encode())
                    if path.suffix in (".ttf", ".png", ".jpg", ".mo"):
                        stat = path.stat()
                        digest.update(f"{stat.st_size}:{stat.st_mtime_ns}".encode())
                    else:
                        digest.update(path.read_bytes())
        for name in ("reportlab", "rl_accel", "svgwrite", "Jinja2", "Babel", "pyphen"):
            try:
                digest.update(f"{name}={version(name)}".encode())
            except PackageNotFoundError:
                digest.update(f"{name}=none".encode())
        _CODE_FINGERPRINT.append(digest.hexdigest())
    return _CODE_FINGERPRINT[0]


class ArtefactCache:
    """A persistent content-addressed store of built artefacts, under the output folder.

    A producer computes a key from ALL the inputs of an artefact (see
    :meth:`key`); if the store has bytes for that key they are exactly the
    bytes the producer would write, because every artefact is a deterministic
    function of its inputs and the key also covers cardgen's code
    (:func:`code_fingerprint`). Entries not used by a build are removed at its
    end, so the cache holds one build's worth of artefacts per game.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.used: set[str] = set()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(*parts: object) -> str:
        """A sha256 hex key over the code fingerprint and the ``repr`` of each part (str/bytes as is)."""
        digest = hashlib.sha256(code_fingerprint().encode())
        for part in parts:
            data = part if isinstance(part, bytes) else (part if isinstance(part, str) else repr(part)).encode()
            digest.update(len(data).to_bytes(8, "big"))
            digest.update(data)
        return digest.hexdigest()

    def get(self, key: str) -> bytes | None:
        """The stored bytes for ``key``, or None."""
        self.used.add(key)
        try:
            data = (self.folder / key).read_bytes()
        except OSError:
            self.misses += 1
            return None
        self.hits += 1
        return data

    def put(self, key: str, data: bytes) -> None:
        """Store ``data`` under ``key`` (atomically; a failure to write only loses the cache entry)."""
        self.used.add(key)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp = self.folder / f".{key}.{os.getpid()}.tmp"
            tmp.write_bytes(data)
            os.replace(tmp, self.folder / key)
        except OSError:
            pass

    def fetch(self, key: str, make: Callable[[], bytes]) -> bytes:
        """The cached bytes for ``key``, or ``make()``'s, stored for next time."""
        data = self.get(key)
        if data is None:
            data = make()
            self.put(key, data)
        return data

    def prune(self) -> None:
        """Delete the entries this build did not use (only files this cache wrote: 64-hex names)."""
        if not self.folder.is_dir():
            return
        for path in self.folder.iterdir():
            name = path.name
            stale_tmp = name.startswith(".") and name.endswith(".tmp")
            if (len(name) == 64 and name not in self.used) or stale_tmp:
                path.unlink(missing_ok=True)


@dataclass
class BuildContext:
    """What a producer receives: the validated spec, the staging folder for this game, the options."""

    loaded: LoadedSpec
    staging: Path
    options: BuildOptions
    notes: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    cache: ArtefactCache | None = None
    """Where producers may reuse unchanged artefacts (None: build everything afresh)."""

    @property
    def game_id(self) -> str:
        """The game's id."""
        assert self.loaded.spec is not None
        return self.loaded.spec.id


Producer = Callable[[BuildContext], list[Path]]
_PRODUCERS: dict[str, Producer] = {}


def register_producer(name: str, producer: Producer) -> None:
    """Add an artefact producer; it writes under ``context.staging`` and returns the files it wrote."""
    _PRODUCERS[name] = producer


def registered_producers() -> dict[str, Producer]:
    """Every producer, after importing the modules that register them."""
    for module in PRODUCER_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise
    return dict(_PRODUCERS)


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
    return True


def _lock_owner(lock: Path) -> int:
    try:
        return int(lock.read_text(encoding="ascii").strip() or "0")
    except (OSError, ValueError):
        return 0


def _remove_stale_staging(out: Path) -> None:
    """Remove staging folders left by builds that were killed (their process is gone)."""
    for folder in out.glob(".staging-*"):
        pid_part = folder.name.rsplit("-pid", 1)[-1].split("-", 1)[0]
        if folder.is_dir() and pid_part.isdigit() and not _process_alive(int(pid_part)):
            shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def build_lock(out: Path) -> Iterator[None]:
    """Hold the output folder's lock for the duration of a build.

    A lock whose owner process is gone (a build killed with ``kill -9`` or a
    power cut) is taken over, and that build's staging folders are removed.
    """
    out.mkdir(parents=True, exist_ok=True)
    lock = out / LOCK_NAME
    for _attempt in range(2):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            break
        except FileExistsError as error:
            owner = _lock_owner(lock)
            if owner and not _process_alive(owner):
                lock.unlink(missing_ok=True)  # left by a build that no longer runs
                continue
            raise InputError(
                f"another build is running on this output folder (process {owner or 'unknown'}; remove {LOCK_NAME} if no build is running)", str(out)
            ) from error
    else:
        raise InputError(f"cannot take the build lock {LOCK_NAME}", str(out))
    try:
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        _remove_stale_staging(out)
        yield
    finally:
        lock.unlink(missing_ok=True)


@dataclass
class GameBuild:
    """What one game's build produced, or why it did not."""

    game: str
    folder: Path
    files: list[Path] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """Whether validation or a producer reported an error."""
        return any(f.severity is Severity.ERROR for f in self.findings)


def _publish(staging: Path, target: Path) -> list[Path]:
    """Move every staged file into ``target``, each with one atomic rename."""
    moved = []
    for source in sorted(p for p in staging.rglob("*") if p.is_file()):
        destination = target / source.relative_to(staging)
        destination.parent.mkdir(parents=True, exist_ok=True)
        os.replace(source, destination)
        moved.append(destination)
    return moved


def build_game(folder: Path, out: Path, options: BuildOptions) -> GameBuild:
    """Validate one spec and produce all its artefacts under ``out/<game>/`` (nothing on failure)."""
    producers = registered_producers()
    skip = [check for check, producer in CHECKS_DONE_BY_PRODUCERS.items() if producer in producers and not options.langs]
    result = validate_folder(folder, kinds=("static", "render", "i18n"), skip=skip)
    game_id = result.loaded.spec.id if result.loaded and result.loaded.spec else folder.name
    build = GameBuild(game_id, folder, findings=list(result.findings))
    if build.failed or result.loaded is None or result.loaded.spec is None:
        return build
    if not producers:
        build.notes.append("validated; no artefact producers are installed yet, so nothing was written")
        return build
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".staging-{game_id}-pid{os.getpid()}-", dir=out))
    try:
        cache = ArtefactCache(out / CACHE_DIR / game_id) if options.cache else None
        context = BuildContext(result.loaded, staging, options, cache=cache)
        for _name, producer in sorted(producers.items()):
            producer(context)
        build.findings.extend(context.findings)
        build.notes.extend(context.notes)
        if build.failed:
            return build
        build.files = _publish(staging, out / game_id)
        if cache is not None:
            cache.prune()
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return build
