"""The build pipeline: validate, produce every artefact into a staging folder, then move it into place.

Artefact producers (card faces, print sheets, rulebooks...) register themselves
with :func:`cardgen.artefacts.register_producer`; this pipeline imports their
modules explicitly (:data:`PRODUCER_MODULES`) and the artefact cache from
:mod:`cardgen.cache`, so every import points down. A build
never leaves a half-written file next to a good one: producers write into a
private staging folder, and only when every producer of a game has finished are
the files published into ``<out>/<game>/`` by :func:`cardgen.publish.publish`
(destinations checked first, a journal so a killed publish is finished by the
next build). An operating-system lock stops two builds from writing the same
output folder at once. cardgen only ever replaces files it writes; it deletes
nothing else.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from cardgen import artefacts
from cardgen.artefacts import BuildContext, BuildOptions, Producer
from cardgen.build_parts import PartPool, workers_for
from cardgen.cache import CACHE_DIR, ArtefactCache, user_store_scope
from cardgen.export import gallery
from cardgen.findings import Finding, Severity
from cardgen.processors import CpuSample, cpu_sample
from cardgen.publish import LOCK_NAME as LOCK_NAME, STAGING_PREFIX, publish, publish_pending, repair_notes
from cardgen.publish import build_lock as build_lock
from cardgen.spec.parse_cache import parse_cache_scope
from cardgen.render import produce as render_produce
from cardgen.rulebook import produce as rulebook_produce
from cardgen.catalogue import validate_folder

PRODUCER_MODULES = (render_produce, rulebook_produce, gallery)
"""The modules whose import registers the artefact producers, imported here by name."""
CHECKS_DONE_BY_PRODUCERS: dict[str, str] = {"rulebook-render": "rulebooks"}
"""Validation checks a build skips because a producer does the same work: check name -> producer name.

The ``rulebook-render`` check renders each locale's rulebook and reports a
failure as CG310; the ``rulebooks`` producer renders the same rulebooks (with
their card pictures) and reports a failure as CG310 too, failing the build
before anything is published. So when that producer runs for every locale of
the spec, the build renders each rulebook once, in the producer. With
``--lang`` the check still runs, as it covers the locales not being built.
A build restricted with ``--only`` to artefacts that producer does not write
(``--only print``) skips the check: no rulebook is wanted, so none is typeset.
"""
CHECKS_ONLY_FOR_PRODUCERS: dict[str, str] = {"rulebook-catalogs": "rulebooks"}
"""Validation checks about what only one producer uses: check name -> producer name.

The catalog check reads the rulebook templates' translation catalogs, which
only the rulebooks print; a build restricted with ``--only`` to artefacts
that producer does not write skips it (``cardgen validate`` and every full
build still run it).
"""


def artefact_kinds() -> dict[str, str]:
    """Every artefact kind a build can be restricted to, with the producer that writes it."""
    return {kind: name for name in sorted(artefacts.registered()) for kind in artefacts.kinds_of(name)}


def _selected(producers: dict[str, Producer], options: BuildOptions) -> dict[str, Producer]:
    """The producers that write at least one artefact kind the options ask for."""
    return {name: p for name, p in producers.items() if any(options.wants(kind) for kind in artefacts.kinds_of(name))}


def registered_producers() -> dict[str, Producer]:
    """Every producer (those of :data:`PRODUCER_MODULES`, and any registered from elsewhere)."""
    return artefacts.registered()


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


def build_game(folder: Path, out: Path, options: BuildOptions) -> GameBuild:
    """Validate one spec and produce all its artefacts under ``out/<game>/`` (nothing on failure).

    Unless ``options.cache`` is False, the build's :class:`ArtefactCache` is
    opened before validation and passed down, so the spec's YAML parse, the
    layout files' parses, the catalog check and the compiled rulebook
    templates of an earlier build are reused when their inputs are unchanged
    (cardgen's own templates from this user's store: see :func:`cardgen.cache.user_store`).
    """
    everything = registered_producers()
    producers = _selected(everything, options)
    # A check whose work a producer does is skipped when that producer runs for every locale, or when the
    # build was restricted (--only) to artefacts that producer does not write: then its work is not wanted.
    skip = [
        check for check, producer in CHECKS_DONE_BY_PRODUCERS.items()
        if producer in everything and (producer not in producers or not options.langs)
    ] + [check for check, producer in CHECKS_ONLY_FOR_PRODUCERS.items() if producer in everything and producer not in producers]
    cache = ArtefactCache.unbound(out / CACHE_DIR) if options.cache else None
    started = cpu_sample() if options.jobs != 1 else None  # how idle the processors stand while this build validates
    with parse_cache_scope(cache), user_store_scope(options.cache):  # --no-cache: nothing from any store
        return _build_game(folder, out, options, producers, skip, cache, started)


def _run_producers(context: BuildContext, producers: dict[str, Producer], workers: int) -> list[list[BuildContext]]:
    """Run the producers in the order of their names, with ``workers`` worker processes for their parts.

    A producer runs here once every part of the producers before it has finished,
    so it sees their files; one registered apart (it reads nothing another producer
    writes) runs without waiting for them. Returns, per producer in that order, the contexts whose notes and
    findings it left (its own first, then its parts' in hand-off order).
    """
    names = sorted(producers)
    pool = PartPool(workers)
    own: dict[int, BuildContext] = {}
    try:
        for position, name in enumerate(names):
            if not artefacts.runs_apart(name):  # (one registered apart reads nothing the parts before it write)
                pool.settle(before=position)
            own[position] = replace(context, notes=[], findings=[], parts=pool, owner=position)
            try:
                producers[name](own[position])
            except Exception:
                pool.settle()  # a part handed off before this error, still running, fails first (as in one process)
                raise
            pool.start()  # its parts begin in workers, if one may start, while the next producer runs here
        pool.settle()
    finally:
        pool.stop()  # (a producer failed: the workers still running are stopped; after the last settle, none is)
    return [[own[position], *pool.contexts_of(position)] for position in range(len(names))]


def _build_game(
    folder: Path, out: Path, options: BuildOptions, producers: dict[str, Producer], skip: list[str], cache: ArtefactCache | None,
    started: CpuSample | None = None,
) -> GameBuild:
    """:func:`build_game` once its cache is open (and set as the parse cache of the files read on the way)."""
    result = validate_folder(folder, kinds=("static", "render", "i18n"), skip=skip, cache=cache)
    game_id = result.loaded.spec.id if result.loaded and result.loaded.spec else folder.name
    if cache is not None and result.loaded is not None and result.loaded.spec is not None:
        cache.bind(game_id)
    build = GameBuild(game_id, folder, findings=list(result.findings))
    if build.failed or result.loaded is None or result.loaded.spec is None:
        return build
    if not producers:
        build.notes.append("validated; no artefact producers are installed yet, so nothing was written")
        return build
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{game_id}-pid{os.getpid()}-", dir=out))
    try:
        context = BuildContext(result.loaded, staging, options, cache=cache)
        for contexts in _run_producers(context, producers, workers_for(options.jobs, started)):
            for done in contexts:
                build.findings.extend(done.findings)
                build.notes.extend(done.notes)
        if build.failed:
            return build
        build.files = publish(staging, out / game_id)
        build.notes.extend(repair_notes(game_id))
        if cache is not None and not options.only:  # a partial build leaves the other artefacts' entries alone
            cache.prune()
    finally:
        if not publish_pending(staging):  # (a publish stopped halfway keeps its files for the next build to finish)
            shutil.rmtree(staging, ignore_errors=True)
    return build
