"""The build producer that writes each game's rulebooks (PDF per paper, Markdown) in every language."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.artefacts import BuildContext, register_producer
from cardgen.findings import Finding, Severity

if TYPE_CHECKING:
    from cardgen.rulebook.build import RulebookError

# The rulebook pipeline (Jinja2, reportlab's page layout) is imported when a rulebook is built,
# so a build restricted to other artefacts (`cardgen build --only print`) does not load it.


def produce_rulebooks(context: BuildContext) -> list[Path]:
    """Write the rulebooks of ``context``'s game into its staging folder.

    The rules are put into words, the templates rendered and the Markdown
    written here; each book's typesetting on each paper is handed off
    (:meth:`BuildContext.hand_off`), so the books are typeset side by side
    where processors stand idle. A rulebook that cannot be made is finding
    CG310, wherever it failed.
    """
    from cardgen.rulebook.build import RulebookError, build_rulebooks

    spec = context.loaded.spec
    assert spec is not None
    for lang in context.options.langs:
        context.loaded.require_locale(lang, "--lang")
    locales = [loc for loc in spec.locales if not context.options.langs or loc in context.options.langs]

    def hand_off(typeset: Callable[[], object]) -> None:
        def run(part: BuildContext) -> None:
            try:
                typeset()
            except RulebookError as error:
                part.findings.append(rulebook_finding(part, error))

        context.hand_off(run)

    try:
        return build_rulebooks(
            spec, context.staging, locales, context.options.papers, context.loaded.folder, context.loaded,
            cache=context.cache, staged=True, hand_off=hand_off,
        )
    except RulebookError as error:
        context.findings.append(rulebook_finding(context, error))
        return []


def rulebook_finding(context: BuildContext, error: "RulebookError") -> Finding:
    """Finding CG310 for a rulebook that could not be made: at the template's line, or at the spec's rules text."""
    where = (error.file, error.line, 1 if error.line else 0, "") if error.file else (context.loaded.file, 0, 0, "rules_text")
    return Finding(where[0], where[1], where[2], "CG310", Severity.ERROR, where[3], str(error))


register_producer("rulebooks", produce_rulebooks, apart=True)
