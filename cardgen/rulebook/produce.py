"""The build producer that writes each game's rulebooks (PDF per paper, Markdown) in every language."""

from __future__ import annotations

import os
from pathlib import Path

from cardgen.artefacts import BuildContext, register_producer
from cardgen.findings import Finding, Severity

# The rulebook pipeline (Jinja2, reportlab's page layout) is imported when a rulebook is built,
# so a build restricted to other artefacts (`cardgen build --only print`) does not load it.


def produce_rulebooks(context: BuildContext) -> list[Path]:
    """Write the rulebooks of ``context``'s game into its staging folder."""
    from cardgen.rulebook.build import RulebookError, build_rulebooks

    spec = context.loaded.spec
    assert spec is not None
    for lang in context.options.langs:
        context.loaded.require_locale(lang, "--lang")
    locales = [loc for loc in spec.locales if not context.options.langs or loc in context.options.langs]
    scratch = context.staging / ".rulebooks"
    try:
        written = build_rulebooks(
            spec, scratch, locales, context.options.papers, context.loaded.folder, context.loaded, cache=context.cache, staged=True
        )
    except RulebookError as error:
        where = (error.file, error.line, 1 if error.line else 0, "") if error.file else (context.loaded.file, 0, 0, "rules_text")
        context.findings.append(Finding(where[0], where[1], where[2], "CG310", Severity.ERROR, where[3], str(error)))
        return []
    placed = []
    for path in written:
        target = context.staging / path.name
        os.replace(path, target)
        placed.append(target)
    if scratch.is_dir():
        for folder in sorted((p for p in scratch.rglob("*") if p.is_dir()), reverse=True):
            folder.rmdir()
        scratch.rmdir()
    return placed


register_producer("rulebooks", produce_rulebooks, apart=True)
