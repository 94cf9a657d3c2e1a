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
PRODUCER_MODULES = ("cardgen.render.produce", "cardgen.rulebook.produce")
"""Modules that register artefact producers when imported; those not written yet are skipped."""


@dataclass(frozen=True)
class BuildOptions:
    """What the designer asked for."""

    papers: tuple[Paper, ...] = ("a4", "letter")
    langs: tuple[str, ...] = ()
    """Locales to build; empty means every locale the spec declares."""
    card_lang: str | None = None
    """The locale printed on the cards; None means the spec's first locale."""


@dataclass
class BuildContext:
    """What a producer receives: the validated spec, the staging folder for this game, the options."""

    loaded: LoadedSpec
    staging: Path
    options: BuildOptions
    notes: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

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


@contextmanager
def build_lock(out: Path) -> Iterator[None]:
    """Hold the output folder's lock for the duration of a build."""
    out.mkdir(parents=True, exist_ok=True)
    lock = out / LOCK_NAME
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError as error:
        raise InputError(
            f"another build is running on this output folder (remove {LOCK_NAME} if no build is running)", str(out)
        ) from error
    try:
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
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
    result = validate_folder(folder, kinds=("static", "render", "i18n"))
    game_id = result.loaded.spec.id if result.loaded and result.loaded.spec else folder.name
    build = GameBuild(game_id, folder, findings=list(result.findings))
    if build.failed or result.loaded is None or result.loaded.spec is None:
        return build
    producers = registered_producers()
    if not producers:
        build.notes.append("validated; no artefact producers are installed yet, so nothing was written")
        return build
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".staging-{game_id}-", dir=out))
    try:
        context = BuildContext(result.loaded, staging, options)
        for _name, producer in sorted(producers.items()):
            producer(context)
        build.findings.extend(context.findings)
        build.notes.extend(context.notes)
        if build.failed:
            return build
        build.files = _publish(staging, out / game_id)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return build
