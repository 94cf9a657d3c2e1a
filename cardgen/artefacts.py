"""What an artefact producer is given and how it registers: the options of a build, its context, the registry.

Producers (card faces, print sheets, rulebooks, the gallery) live in the layers
that draw them and register here; the pipeline (:mod:`cardgen.build`) imports
each producer module by name and runs what is registered. This module sits
below all of them, so their imports point down.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Literal, Protocol

from cardgen.cache import ArtefactCache
from cardgen.findings import Finding
from cardgen.spec.load import LoadedSpec

Paper = Literal["a4", "letter"]


@dataclass(frozen=True)
class BuildOptions:
    """What the designer asked for."""

    papers: tuple[Paper, ...] = ("a4", "letter")
    langs: tuple[str, ...] = ()
    """Locales to build; empty means every locale the spec declares."""
    card_lang: str | None = None
    """The locale printed on the cards; None means the spec's first locale."""
    only: tuple[str, ...] = ()
    """Artefact kinds to build (``cardgen build --only``, see :func:`cardgen.build.artefact_kinds`); empty means every kind."""
    cache: bool = True
    """Reuse artefacts (face SVGs, PDFs) and intermediate results (YAML parses, the catalog check, compiled
    rulebook templates) from ``<out>/.cache/`` when their inputs are unchanged; False: compute everything afresh."""

    jobs: int | None = 1
    """Processes the build may use at most, itself included (None: every processor it may run on). Parts
    handed off by producers run in forked workers on idle processors; the files written do not depend on it."""

    def wants(self, kind: str) -> bool:
        """Whether artefacts of ``kind`` are to be built."""
        return not self.only or kind in self.only


class PartRunner(Protocol):
    """Where a producer's handed-off parts run (see :class:`cardgen.build_parts.PartPool`)."""

    def hand_off(self, context: "BuildContext", owner: int, run: Callable[["BuildContext"], object]) -> None:
        """Run ``run`` with a context of its own, now or in a worker process."""


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
    print_guides: dict[str, list[str]] = field(default_factory=dict)
    """The short print guide (``how_to_print``) of each layout sidecar staged by this build, by the sidecar's file
    name: the gallery shows it without parsing the sidecar again (a large deck's sidecar holds every placement)."""

    parts: PartRunner | None = None
    """Where :meth:`hand_off` sends parts (None: they run at once, in this process)."""
    owner: int = 0
    """The position of the producer this context was made for, among the build's producers."""

    def hand_off(self, run: Callable[["BuildContext"], object]) -> None:
        """Run ``run``, a part of this producer's work that nothing later in the producer reads, now or in a worker.

        ``run`` receives a context of its own: it writes its files under
        ``staging`` and may add notes, findings and print guides and use the
        cache, all of which reach the build (in hand-off order) before any
        later producer runs. It must not change anything else the producer
        or the build reads afterwards (in a worker, such a change is lost),
        nor read anything the producer changes after handing it off (a
        worker may start at once, with the process as it is then).
        """
        if self.parts is None:
            run(self)
        else:
            self.parts.hand_off(self, self.owner, run)

    @property
    def game_id(self) -> str:
        """The game's id."""
        assert self.loaded.spec is not None
        return self.loaded.spec.id


Producer = Callable[[BuildContext], list[Path]]
_PRODUCERS: dict[str, Producer] = {}
_ARTEFACTS: dict[str, tuple[str, ...]] = {}
"""Producer name -> the artefact kinds it writes (what ``cardgen build --only`` chooses from)."""
_APART: set[str] = set()
"""Producers that read nothing other producers write: they run without waiting for the parts before them."""


def register_producer(name: str, producer: Producer, artefacts: tuple[str, ...] = (), apart: bool = False) -> None:
    """Add an artefact producer; it writes under ``context.staging`` and returns the files it wrote.

    ``artefacts`` names the kinds of artefact it writes (default: one kind named
    like the producer). A build with ``BuildOptions.only`` runs a producer only
    when it writes one of the chosen kinds; a producer of several kinds asks
    ``context.options.wants(kind)`` for each.

    Producers run in the order of their names, and each sees the files of
    those before it: the parts they handed off (:meth:`BuildContext.hand_off`)
    are finished first. One registered ``apart`` promises to read nothing any
    other producer writes (only the validated spec, the options and the
    cache), so it runs without waiting for those parts.
    """
    _PRODUCERS[name] = producer
    _ARTEFACTS[name] = artefacts or (name,)
    if apart:
        _APART.add(name)
    else:
        _APART.discard(name)


def runs_apart(name: str) -> bool:
    """Whether the producer ``name`` was registered ``apart``."""
    return name in _APART


def registered() -> dict[str, Producer]:
    """Every producer registered so far (the pipeline imports the modules that register them)."""
    return dict(_PRODUCERS)


def kinds_of(name: str) -> tuple[str, ...]:
    """The artefact kinds the producer ``name`` writes."""
    return _ARTEFACTS.get(name, (name,))
