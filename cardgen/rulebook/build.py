"""Building a game's rulebooks: spec -> template -> document -> PDF and Markdown files.

File names (one consistent rule: a paper always maps to the same name)::

    output/<game>/<game>-rules-<lang>.md            the Markdown (paper does not matter)
    output/<game>/<game>-rules-<lang>.pdf           the PDF on A4, the default paper
    output/<game>/<game>-rules-<lang>-letter.pdf    the PDF on US Letter

Every file is written through a temporary file in the same folder and
``os.replace``, so an interrupted build never leaves half a file.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from babel.numbers import format_decimal
from jinja2 import TemplateError, TemplateSyntaxError

from cardgen.findings import display_path

from cardgen.render.scene import Scene, scene_digest
from cardgen.rulebook.bounded import render_bounded
from cardgen.rulebook.context import build_context
from cardgen.rulebook.document import Document, DocumentError, parse_document
from cardgen.rulebook.environment import MAIN_TEMPLATE, get_template, make_environment, template_dirs_for
from cardgen.rulebook.i18n import N_, TEMPLATE_SUFFIX, TEMPLATES_DIR, atomic_write_bytes, translations
from cardgen.rulebook.markdown import to_markdown
from cardgen.spec.load import LoadedSpec
from cardgen.spec.models import Spec
from cardgen.spec.parse_cache import ResultCache

if TYPE_CHECKING:
    from cardgen.cache import ArtefactCache
    from cardgen.rulebook.figures import FigurePlay
    from cardgen.rulebook.pdf import TypesetPdf

# reportlab's page layout (platypus) and the card pictures drawn for it are imported where a rulebook
# is typeset: `cardgen validate` renders each rulebook's text (the rulebook-render check) but typesets none.

DEFAULT_PAPER = "a4"
PAGE_LABEL = N_("Page %(page)s")
"""The page number in the footer."""


class RulebookError(Exception):
    """A rulebook could not be made (a template error, a malformed document).

    ``file`` and ``line`` name the template line that failed, when known.
    """

    def __init__(self, message: str, file: str = "", line: int = 0) -> None:
        super().__init__(message)
        self.file = file
        self.line = line


def _template_place(error: BaseException) -> tuple[str, int]:
    """The template file and line an error in rendering comes from ("", 0 when no template line is on its traceback)."""
    if isinstance(error, TemplateSyntaxError) and error.filename:
        return error.filename, error.lineno or 0
    place = ("", 0)
    for frame, line in traceback.walk_tb(error.__traceback__):
        name = frame.f_code.co_filename
        if name.endswith(TEMPLATE_SUFFIX):  # Jinja maps a template's frames back to its file and line
            place = (name, line)
    return place


@dataclass
class Rulebook:
    """One rulebook in one language: the parsed document and its Markdown."""

    locale: str
    document: Document
    markdown: str


def pdf_name(game_id: str, locale: str, paper: str) -> str:
    """The PDF's file name: no suffix for the default paper, ``-<paper>`` otherwise."""
    suffix = "" if paper == DEFAULT_PAPER else f"-{paper}"
    return f"{game_id}-rules-{locale}{suffix}.pdf"


def markdown_name(game_id: str, locale: str) -> str:
    """The Markdown file's name."""
    return f"{game_id}-rules-{locale}.md"


def render_xhtml(
    spec: Spec,
    locale: str,
    spec_folder: Path | None = None,
    pictures: Iterable[str] = (),
    cache: ResultCache | None = None,
    figures: dict[str, Any] | None = None,
) -> str:
    """Render the rulebook template for ``spec`` in ``locale`` (the intermediate XHTML).

    ``cache`` (a build's) keeps the compiled templates for later processes; ``figures`` is the text of the
    figures drawn from the engine (:meth:`cardgen.rulebook.figures.GameFigureSet.context`), none when omitted.
    """
    translation = translations(locale)
    env = make_environment(locale, template_dirs_for(spec_folder), translation, cache=cache, spec_folder=spec_folder)
    context = build_context(spec, locale, set(pictures), translation.gettext, translation)
    context["figures"] = figures or {"setup": [], "turn": None, "positions": []}
    try:
        return render_bounded(lambda: get_template(env, MAIN_TEMPLATE).render(context), env)  # (compiling folds constants: bounded too)
    except Exception as error:  # a spec's own template may raise anything (1/0, '%s' % ()): its designer's to fix
        file, line = _template_place(error)
        bundled = bool(file) and Path(file).resolve().is_relative_to(TEMPLATES_DIR.resolve())
        if not isinstance(error, TemplateError) and not (file and not bundled):
            raise  # an error in cardgen's own templates or code is a bug, not the designer's
        raise RulebookError(
            f"the rulebook template failed for {spec.id} ({locale}): {type(error).__name__}: {error}", display_path(Path(file)) if file else "", line
        ) from error


def make_rulebook(
    spec: Spec,
    locale: str,
    spec_folder: Path | None = None,
    pictures: Iterable[str] = (),
    cache: ResultCache | None = None,
    figures: dict[str, Any] | None = None,
) -> Rulebook:
    """The rulebook of ``spec`` in ``locale``, as a document and Markdown (``cache``, ``figures``: see :func:`render_xhtml`)."""
    xhtml = render_xhtml(spec, locale, spec_folder, pictures, cache, figures)
    try:
        document = parse_document(xhtml)
    except DocumentError as error:
        raise RulebookError(f"the rulebook template for {spec.id} ({locale}) made a bad document: {error}") from error
    return Rulebook(locale, document, to_markdown(document))


def prepare_rulebook(
    spec: Spec,
    locale: str,
    spec_folder: Path | None = None,
    loaded: LoadedSpec | None = None,
    cache: ResultCache | None = None,
    play: FigurePlay | None = None,
) -> tuple[Rulebook, dict[str, Scene]]:
    """The rulebook of ``spec`` in ``locale`` with every picture it shows: card faces (drawn when ``loaded`` is
    given) and the figures drawn from the engine (:mod:`cardgen.rulebook.figures`; ``play``, the engine's part
    of them, when the caller has it), as a build makes them."""
    from cardgen.rulebook.pictures import card_pictures

    pictures = card_pictures(spec, loaded, locale)
    if spec.rules is None:  # no rules, no figures drawn from the engine (and no engine or figure machinery loaded)
        return make_rulebook(spec, locale, spec_folder, pictures.keys(), cache), dict(pictures)
    from cardgen.rulebook.figures import rulebook_figures

    figures = rulebook_figures(spec, locale, play)
    rulebook = make_rulebook(spec, locale, spec_folder, pictures.keys(), cache, figures.context())
    return rulebook, {**pictures, **figures.scenes()}


def rulebook_pdf(spec: Spec, rulebook: Rulebook, paper: str, pictures: dict[str, Scene] | None = None) -> bytes:
    """Typeset a rulebook as PDF bytes on ``paper``."""
    return typeset_rulebook(spec, rulebook, paper, pictures).data


def typeset_rulebook(spec: Spec, rulebook: Rulebook, paper: str, pictures: dict[str, Scene] | None = None) -> TypesetPdf:
    """Typeset a rulebook on ``paper`` (one layout pass: see :mod:`cardgen.rulebook.pdf`)."""
    from cardgen.rulebook.pdf import typeset_pdf

    translation = translations(rulebook.locale)
    locale = rulebook.locale

    def page_label(number: int) -> str:
        return translation.gettext(PAGE_LABEL) % {"page": format_decimal(number, locale=locale)}

    fallback = spec.locales[0]
    credit = spec.licence.attribution.get(locale) or spec.licence.attribution.get(fallback, "")
    title = spec.title.get(locale) or spec.title.get(fallback, spec.id)
    return typeset_pdf(
        rulebook.document,
        paper,
        footer_credit=" ".join(credit.split()),
        page_label=page_label,
        title=title,
        author=", ".join(spec.credits.designers),
        pictures=pictures,
    )


def _pdf_inputs(spec: Spec, rulebook: Rulebook, pictures: dict[str, Scene]) -> tuple[object, ...]:
    """Everything :func:`rulebook_pdf` reads besides the paper, for cache keys."""
    translation = translations(rulebook.locale)
    return (
        rulebook.locale,
        translation.gettext(PAGE_LABEL),
        spec.locales[0],
        spec.licence.attribution,
        spec.title,
        spec.id,
        spec.credits.designers,
        rulebook.document,
        sorted((name, scene_digest(scene)) for name, scene in pictures.items()),
    )


def _typeset_keeping_lines(spec: Spec, rulebook: Rulebook, paper: str, pictures: dict[str, Scene], cache: ArtefactCache) -> bytes:
    """:func:`rulebook_pdf`, its paragraphs' lines read from and kept in ``cache``'s line pack of the book
    (:func:`cardgen.rulebook.line_breaks.line_pack`), so a later build's layout breaks only the paragraphs it changed."""
    from cardgen.rulebook.line_breaks import line_pack

    with line_pack(cache, rulebook.locale, paper):
        return rulebook_pdf(spec, rulebook, paper, pictures)


def figure_svg_name(game_id: str, locale: str, figure_id: str) -> str:
    """The file name of a rulebook figure's SVG, which the Markdown rulebook shows: ``<game>-rules-<lang>-<figure>.svg``."""
    return f"{game_id}-rules-{locale}-{figure_id}.svg"


def _write_plainly(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (in a build's staging folder, which nobody else reads: see :func:`build_rulebooks`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _write_figure_svgs(
    spec: Spec, locale: str, folder: Path, pictures: dict[str, Scene], written: list[Path], write: Callable[[Path, bytes], None] = atomic_write_bytes
) -> dict[str, str]:
    """Write each figure drawn from the engine as an SVG beside the Markdown; returns figure id -> file name."""
    if spec.rules is None:  # no rules, no figures (see prepare_rulebook)
        return {}
    from cardgen.render.svg_backend import write_svg
    from cardgen.rulebook.figures import FIGURE_PREFIX

    images: dict[str, str] = {}
    for key, scene in pictures.items():
        if not key.startswith(FIGURE_PREFIX):
            continue
        figure_id = key[len(FIGURE_PREFIX) :]
        path = folder / figure_svg_name(spec.id, locale, figure_id)
        write(path, write_svg(scene).encode("utf-8"))
        written.append(path)
        images[figure_id] = path.name
    return images


def build_rulebooks(
    spec: Spec,
    out_dir: Path,
    locales: Iterable[str],
    papers: Iterable[str] = (DEFAULT_PAPER,),
    spec_folder: Path | None = None,
    loaded: LoadedSpec | None = None,
    cache: ArtefactCache | None = None,
    staged: bool = False,
    hand_off: Callable[[Callable[[], object]], None] | None = None,
) -> list[Path]:
    """Write the Markdown and PDF rulebooks of ``spec`` under ``out_dir/<game>/``; returns the files written.

    The figures drawn from the engine are also written as SVG files the Markdown shows
    (:func:`figure_svg_name`).

    ``loaded`` (the spec as loaded from its folder) lets the components section
    show card pictures drawn by the face renderer; without it there are none.
    The figures drawn from the engine (setup diagrams, a worked turn, scored
    positions: :mod:`cardgen.rulebook.figures`) need only the spec.
    With a ``cache``, a PDF whose inputs (document, paper, footer, title,
    author, pictures) are unchanged since an earlier build is reused, and so
    is the compiled code of the templates.

    Each file is written through a temporary file and made durable before it
    replaces the old one, unless ``staged``: a build writes into its private
    staging folder for the game (``out_dir`` itself, no game folder inside),
    whose files are published by renames only once every artefact is made
    (:mod:`cardgen.publish`), so they are written plainly, as the card
    producers write theirs (a flush to disk per file cost a rebuild several
    milliseconds each on a busy disk).

    ``hand_off``, when given, receives the typesetting and writing of each PDF
    (a function of no arguments) instead of having it run here: a build runs
    them side by side in workers (:meth:`cardgen.artefacts.BuildContext.hand_off`).
    Everything they read is made before they are handed off. Raised there, a
    :class:`RulebookError` is the caller's to report.
    """
    from cardgen.rulebook.pdf import PAPERS

    write = _write_plainly if staged else atomic_write_bytes

    folder = out_dir if staged else out_dir / spec.id
    written: list[Path] = []
    papers = list(papers)
    locales = list(locales)
    play = None
    if locales and spec.rules is not None:  # (a spec without rules has no figures: see prepare_rulebook)
        from cardgen.rulebook.figures import play_figures

        play = play_figures(spec, cache)
    for locale in locales:
        rulebook, pictures = prepare_rulebook(spec, locale, spec_folder, loaded, cache, play)
        images = _write_figure_svgs(spec, locale, folder, pictures, written, write)
        md_path = folder / markdown_name(spec.id, locale)
        markdown = to_markdown(rulebook.document, images) if images else rulebook.markdown
        write(md_path, markdown.encode("utf-8"))
        written.append(md_path)
        for paper in papers:
            if paper not in PAPERS:
                raise RulebookError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS)}")
            pdf_path = folder / pdf_name(spec.id, locale, paper)
            typeset = partial(_typeset_and_write, spec, rulebook, paper, pictures, cache, pdf_path, write)
            if hand_off is None:
                typeset()
            else:
                hand_off(typeset)
            written.append(pdf_path)
    return written


def _typeset_and_write(
    spec: Spec, rulebook: Rulebook, paper: str, pictures: dict[str, Scene], cache: ArtefactCache | None,
    path: Path, write: Callable[[Path, bytes], None],
) -> None:
    """Typeset one rulebook on one paper (or take its PDF from the cache) and write it to ``path``."""
    from cardgen.rulebook.line_breaks import pack_key

    if cache is None:
        data = rulebook_pdf(spec, rulebook, paper, pictures)
    else:
        key = cache.key("rulebook-pdf", paper, *_pdf_inputs(spec, rulebook, pictures))
        data = cache.fetch(key, lambda: _typeset_keeping_lines(spec, rulebook, paper, pictures, cache))
        cache.touch(pack_key(cache, rulebook.locale, paper))  # (kept for the edit that changes this book)
    write(path, data)
