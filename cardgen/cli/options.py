"""Options that several commands share, declared once so the same flag means the same thing everywhere.

``--paper`` (a4, letter or all; default all) is checked by typer against
:class:`PaperChoice` and turned into the papers to write by :func:`papers`;
``--lang`` and ``--card-lang`` go through :func:`card_locale`, so ``--lang
pt_BR`` prints Portuguese cards in ``build`` and ``watch`` alike; every
command that writes files takes ``--out`` (default ``output/``).
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Literal, Optional

import typer

from cardgen.limits import MAX_JOBS

from cardgen.cli.outputs import output_folder

PaperName = Literal["a4", "letter"]
"""A paper to write (the same as :data:`cardgen.artefacts.Paper`, which this light module cannot import)."""


class PaperChoice(str, Enum):
    """What ``--paper`` accepts."""

    a4 = "a4"
    letter = "letter"
    all = "all"


def papers(choice: PaperChoice) -> tuple[PaperName, ...]:
    """The papers ``--paper`` asks for: both for ``all``."""
    if choice is PaperChoice.all:
        return ("a4", "letter")
    return ("a4",) if choice is PaperChoice.a4 else ("letter",)


def card_locale(lang: str, card_lang: str | None) -> str | None:
    """The locale printed on the cards: ``--card-lang``, else the ``--lang`` given, else None (the spec's first locale)."""
    if card_lang is not None:
        return card_lang
    return None if lang == "all" else lang


class ReportFormat(str, Enum):
    """What ``--format`` accepts where a command prints a report: ``check``, ``sweep``, ``tune``."""

    text = "text"
    json = "json"


class FindingsFormat(str, Enum):
    """What ``--format`` accepts where a command prints findings: ``validate``, ``i18n check``."""

    text = "text"
    json = "json"
    github = "github"


PAPER_HELP = "Paper for print sheets and rulebooks: a4, letter or all (A4 files keep their names; Letter ones end in -letter)."
LANG_HELP = "Rulebook language: a locale of the game (en, pt_BR) or all."
CARD_LANG_HELP = "Language printed on the cards (default: the --lang given, or the spec's first locale with --lang all)."

PaperOption = Annotated[PaperChoice, typer.Option("--paper", help=PAPER_HELP, case_sensitive=False)]
LangOption = Annotated[str, typer.Option("--lang", help=LANG_HELP)]
CardLangOption = Annotated[Optional[str], typer.Option("--card-lang", help=CARD_LANG_HELP)]


BuildJobsOption = Annotated[
    Optional[int],
    typer.Option(
        "--jobs", min=1, max=MAX_JOBS,
        help="Processes to build in, at most (default: every CPU); a worker starts only on an idle processor. The files do not depend on it.",
    ),
]
OutOption = Annotated[Path, typer.Option("--out", callback=output_folder, help="The output folder; each game gets a folder inside it.")]
ReportFormatOption = Annotated[ReportFormat, typer.Option("--format", help="text or json.", case_sensitive=False)]
FindingsFormatOption = Annotated[
    FindingsFormat, typer.Option("--format", help="Output format: text, json or github (workflow annotations).", case_sensitive=False)
]
