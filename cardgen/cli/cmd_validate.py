"""``cardgen validate`` and ``cardgen schema``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, TYPE_CHECKING, Optional

import typer

from cardgen.cli.options import FindingsFormat, FindingsFormatOption
from cardgen.cli.app import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INPUT
from cardgen.findings import Finding, InputError, Severity, format_findings

if TYPE_CHECKING:
    from cardgen.validate.registry import CheckKind

# The spec models, checks and schema are imported inside the commands (start-up stays light).


def validate(
    games: Annotated[Optional[list[str]], typer.Argument(help="Game ids or spec folders; default: every game under specs/.")] = None,
    fmt: FindingsFormatOption = FindingsFormat.text,
    no_sim: Annotated[bool, typer.Option("--no-sim", help="Skip the quick simulation.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
    list_codes: Annotated[bool, typer.Option("--list-codes", help="Print every finding code and its meaning (docs/findings.md), then exit.")] = False,
) -> None:
    """Check specs and list every finding with its file, line, code and a fix hint."""
    if list_codes:
        from cardgen.catalogue import findings_reference_markdown

        typer.echo(findings_reference_markdown())
        raise typer.Exit(EXIT_CLEAN)
    from cardgen.cli.common import resolve_games
    from cardgen.progress import TerminalProgress
    from cardgen.api import validate_spec
    from cardgen.validate.runner import input_error_finding

    kinds: list[CheckKind] = ["static", "render", "i18n"]
    if not no_sim:
        kinds.append("sim")
    findings: list[Finding] = []
    input_failed = False
    folders = resolve_games(games)
    with TerminalProgress("validating", quiet or fmt != "text") as progress:
        progress.start(len(folders), "validating")
        for folder in folders:
            try:
                findings.extend(validate_spec(folder, kinds).findings)
            except InputError as error:
                input_failed = True
                findings.append(input_error_finding(error))
            progress.advance(1)
    findings = list(dict.fromkeys(findings))  # a shared file (a catalog) is checked once per spec
    output = format_findings(findings, fmt.value)
    if fmt == "text":
        errors = sum(f.severity is Severity.ERROR for f in findings)
        warnings = sum(f.severity is Severity.WARNING for f in findings)
        summary = f"{len(folders)} spec(s) checked: {errors} error(s), {warnings} warning(s)"
        output = f"{output}\n{summary}" if output else summary
    if output:
        typer.echo(output)
    if input_failed:
        raise typer.Exit(EXIT_INPUT)
    failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    raise typer.Exit(EXIT_FINDINGS if any(f.severity in failing for f in findings) else EXIT_CLEAN)


def schema(
    out: Annotated[Optional[Path], typer.Option("--out", help="Write the schema to this file instead of printing it.")] = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the field reference (docs/spec.md) instead.")] = False,
) -> None:
    """Print the JSON Schema of the spec language (editors use it to autocomplete specs)."""
    from cardgen.spec.schema import schema_text, spec_reference_markdown

    text = spec_reference_markdown() if markdown else schema_text()
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")


def register(app: typer.Typer) -> None:
    """Add the commands of this module to the app."""
    app.command("validate")(validate)
    app.command("schema")(schema)
