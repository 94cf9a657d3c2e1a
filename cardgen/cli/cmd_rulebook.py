"""``cardgen rulebook`` and ``cardgen i18n extract|update|compile|check``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cardgen.cli.options import FindingsFormat, FindingsFormatOption, LangOption, PaperChoice, PaperOption, papers
from cardgen.cli.outputs import output_folder

from cardgen.cli.app import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INPUT
from cardgen.findings import Finding, InputError, Severity, format_findings

# The rulebook pipeline and the spec models are imported inside the commands.



def rulebook(
    game: Annotated[str, typer.Argument(help="A game id under specs/ or a spec folder.")],
    lang: LangOption = "all",
    paper: PaperOption = PaperChoice.all,
    out: Annotated[Path, typer.Option("--out", callback=output_folder, help="The output folder; files go to <out>/<game>/.")] = Path("output"),
) -> None:
    """Write a game's rulebooks: <game>-rules-<lang>.pdf (and -letter.pdf) and <game>-rules-<lang>.md."""
    from cardgen.rulebook.build import RulebookError, build_rulebooks
    from cardgen.cli.common import load_or_refuse

    # The catalogs are checked as `validate` and `build` check them (CG3xx): a translation the
    # rulebook cannot use is reported the same way everywhere. Rendering is left to the writing below.
    loaded = load_or_refuse(game, "making its rulebook", ["static", "i18n"], skip=["rulebook-render"])
    spec = loaded.spec
    assert spec is not None
    folder = loaded.folder
    if lang == "all":
        locales = list(spec.locales)
    elif lang in spec.locales:
        locales = [lang]
    else:
        raise typer.BadParameter(f"{spec.id} declares {', '.join(spec.locales)}; choose one of them or all", param_hint="--lang")
    try:
        written = build_rulebooks(spec, out, locales, list(papers(paper)), spec_folder=folder, loaded=loaded)
    except RulebookError as error:
        place = f"{error.file}:{error.line}: " if error.file and error.line else f"{error.file}: " if error.file else ""
        typer.echo(f"{place}error: {error}", err=True)
        raise typer.Exit(EXIT_FINDINGS) from None
    for path in written:
        typer.echo(f"wrote {path}")


i18n_app = typer.Typer(
    help="Manage the gettext catalogs of the rulebook's generic prose (game text lives in the specs).",
    no_args_is_help=True,
)


@i18n_app.command("extract")
def i18n_extract() -> None:
    """Extract messages from templates/rulebook and cardgen/rulebook into locales/cardgen.pot."""
    from cardgen.rulebook.i18n import extract_catalog, write_pot

    path, changed = write_pot()
    count = sum(1 for m in extract_catalog() if m.id)
    typer.echo(f"{'wrote' if changed else 'unchanged'} {path} ({count} messages)")


@i18n_app.command("update")
def i18n_update(
    locale: Annotated[Optional[list[str]], typer.Option("--locale", help="Locales to update; default: every catalog under locales/.")] = None,
) -> None:
    """Merge the current messages into each locales/<locale>/LC_MESSAGES/cardgen.po."""
    from cardgen.rulebook.i18n import catalog_locales, locale_problem, update_locale

    for name in locale or []:
        problem = locale_problem(name)
        if problem:
            raise typer.BadParameter(problem, param_hint="--locale")
    for name in locale or catalog_locales():
        path, changed = update_locale(name)
        typer.echo(f"{'updated' if changed else 'unchanged'} {path}")


@i18n_app.command("compile")
def i18n_compile(
    out: Annotated[Optional[Path], typer.Option("--out", callback=output_folder, help="Where to write <locale>/LC_MESSAGES/cardgen.mo; default build/locales.")] = None,
) -> None:
    """Compile every catalog to .mo (cardgen itself compiles in memory; this is for other tools)."""
    from cardgen.rulebook.i18n import MO_BUILD_DIR, catalog_locales, compile_locale

    for name in catalog_locales():
        typer.echo(f"wrote {compile_locale(name, out_dir=out or MO_BUILD_DIR)}")


@i18n_app.command("check")
def i18n_check(
    fmt: FindingsFormatOption = FindingsFormat.text,
) -> None:
    """Check every catalog: all translated, nothing fuzzy, placeholders kept, up to date with the templates."""
    from cardgen.rulebook.checks import check_all_catalogs

    try:
        findings: list[Finding] = check_all_catalogs()
    except InputError as error:
        typer.echo(error.render(), err=True)
        raise typer.Exit(EXIT_INPUT) from None
    output = format_findings(findings, fmt.value)
    if fmt == "text":
        errors = sum(f.severity is Severity.ERROR for f in findings)
        summary = f"catalogs checked: {errors} error(s), {len(findings) - errors} other finding(s)"
        output = f"{output}\n{summary}" if output else summary
    if output:
        typer.echo(output)
    raise typer.Exit(EXIT_FINDINGS if any(f.severity is Severity.ERROR for f in findings) else EXIT_CLEAN)


def register(app: typer.Typer) -> None:
    """Add the commands of this module to the app."""
    app.command("rulebook")(rulebook)
    app.add_typer(i18n_app, name="i18n")
