"""``cardgen build``: every artefact of every game, in one command."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cardgen.cli.options import BuildJobsOption, CardLangOption, LangOption, OutOption, PaperChoice, PaperOption, card_locale, papers

from cardgen.cli.app import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INPUT
from cardgen.findings import InputError, format_findings

# The build pipeline, spec loading and progress bar are imported inside the
# command, so `cardgen --help` and the other commands do not pay for them.


def build(
    games: Annotated[Optional[list[str]], typer.Argument(help="Game ids or spec folders; default: every game under specs/.")] = None,
    paper: PaperOption = PaperChoice.all,
    lang: LangOption = "all",
    card_lang: CardLangOption = None,
    out: OutOption = Path("output"),
    quiet: Annotated[bool, typer.Option("--quiet", help="Print only findings and errors.")] = False,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Build everything afresh, ignoring and not writing <out>/.cache/.")] = False,
    only: Annotated[Optional[str], typer.Option("--only", help="Build only these artefacts, comma-separated: faces (SVGs), print (sheets), bleed (one card per page), rulebooks, gallery.")] = None,
    jobs: BuildJobsOption = None,
) -> None:
    """Validate, then write card faces (SVG), print sheets (PDF) and rulebooks under the output folder."""
    from cardgen.api import build_spec, output_lock
    from cardgen.artefacts import BuildOptions
    from cardgen.build import artefact_kinds
    from cardgen.cli.common import resolve_games
    from cardgen.progress import TerminalProgress

    chosen: tuple[str, ...] = ()
    if only is not None:
        kinds = artefact_kinds()
        chosen = tuple(dict.fromkeys(k.strip() for k in only.split(",") if k.strip()))
        unknown = [k for k in chosen if k not in kinds]
        if unknown or not chosen:
            raise typer.BadParameter(f"unknown artefact {', '.join(unknown) or '(none given)'}; choose from {', '.join(sorted(kinds))}", param_hint="--only")
    options = BuildOptions(papers=papers(paper), langs=() if lang == "all" else (lang,), card_lang=card_locale(lang, card_lang), cache=not no_cache, only=chosen, jobs=jobs)
    folders = resolve_games(games)
    failed = False
    unreadable = False
    with output_lock(out), TerminalProgress("building", quiet, redraw_thread=False) as progress:
        progress.start(len(folders), "building")
        for folder in folders:
            progress.advance(0)
            try:
                result = build_spec(folder, out, options, lock=False)
            except InputError as error:  # one unreadable spec: say so in one line, build the others
                unreadable = True
                typer.echo(error.render(), err=True)
                typer.echo(f"{folder.name}: not built; the previous output was left as it was", err=True)
                continue
            if result.findings:
                typer.echo(format_findings(result.findings, "text"))
            failed = failed or result.failed
            if result.failed:
                typer.echo(f"{result.game}: not built (errors above); the previous output was left as it was", err=True)
                continue
            if not quiet:
                for note in result.notes:
                    typer.echo(f"{result.game}: {note}")
                typer.echo(f"{result.game}: {len(result.files)} file(s) written to {out / result.game}")
            progress.advance(1)
    raise typer.Exit(EXIT_INPUT if unreadable else EXIT_FINDINGS if failed else EXIT_CLEAN)


def register(app: typer.Typer) -> None:
    """Add the build command to the app."""
    app.command("build")(build)
