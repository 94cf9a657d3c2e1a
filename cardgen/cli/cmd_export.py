"""``cardgen preview``, ``cardgen export tts|profile|profiles``, and the gallery build producer.

* ``cardgen preview GAME [--dpi 100]``: a PNG per face and a contact sheet in
  ``<out>/<game>/preview/``;
* ``cardgen export tts GAME``: Tabletop Simulator sheets and saved object in
  ``<out>/<game>/tts/``;
* ``cardgen export profile NAME GAME [--profiles-dir DIR]``: the files a print
  shop wants, in ``<out>/<game>/<NAME>/``; a profile is a YAML file
  (``templates/profiles/<NAME>.yaml`` unless ``--profiles-dir`` is given);
* ``cardgen export profiles``: the profiles available.

The ``zz-gallery`` build producer (``cardgen.export.gallery``, loaded by the
build) makes ``cardgen build`` write ``<out>/<game>/index.html``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, TYPE_CHECKING, Optional

import typer

from cardgen.cli.outputs import output_folder

from cardgen.cli.app import EXIT_CLEAN, EXIT_FINDINGS
from cardgen.findings import Severity, format_findings

if TYPE_CHECKING:
    from cardgen.spec.load import LoadedSpec

# The exporters and the spec models are imported inside the commands. The
# gallery build producer is registered by the build itself (cardgen.build's
# PRODUCER_MODULES), not by importing this module.

OUT_HELP = "The output folder; files go to <out>/<game>/..."
LANG_HELP = "The language printed on the cards (default: the spec's first locale)."

export_app = typer.Typer(
    name="export",
    help="Exports for virtual tables and print shops: 'tts', 'profile NAME', 'profiles'.",
    no_args_is_help=True,
    add_completion=False,
)


def _load(game: str, card_lang: str | None) -> tuple[LoadedSpec, str]:
    """The validated spec of ``game`` and the card locale; exits 1 when the spec has errors."""
    from cardgen.cli.common import load_or_refuse

    loaded = load_or_refuse(game, "exporting")
    spec = loaded.spec
    assert spec is not None
    if card_lang is not None and card_lang not in spec.locales:
        raise typer.BadParameter(f"choose one of: {', '.join(spec.locales)}", param_hint="--card-lang")
    return loaded, card_lang or spec.locales[0]


def preview(
    game: Annotated[str, typer.Argument(help="A game id under specs/ or a spec folder.")],
    dpi: Annotated[int, typer.Option("--dpi", min=10, max=1200, help="Resolution of the PNGs.")] = 100,
    out: Annotated[Path, typer.Option("--out", callback=output_folder, help=OUT_HELP)] = Path("output"),
    card_lang: Annotated[Optional[str], typer.Option("--card-lang", help=LANG_HELP)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Write a PNG of every face (trim + bleed at --dpi) and contact-sheet.png to <out>/<game>/preview/."""
    from cardgen.export.preview import write_previews
    from cardgen.progress import TerminalProgress

    loaded, locale = _load(game, card_lang)
    assert loaded.spec is not None
    with TerminalProgress("previews", quiet) as progress:
        result = write_previews(loaded, out / loaded.spec.id / "preview", dpi, locale, progress)
    typer.echo(f"{loaded.spec.id}: {len(result.faces)} face PNG(s) and {result.contact_sheet.name} at {dpi} dpi in {result.contact_sheet.parent}")


@export_app.command("tts")
def export_tts_command(
    game: Annotated[str, typer.Argument(help="A game id under specs/ or a spec folder.")],
    out: Annotated[Path, typer.Option("--out", callback=output_folder, help=OUT_HELP)] = Path("output"),
    card_lang: Annotated[Optional[str], typer.Option("--card-lang", help=LANG_HELP)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
    base_url: Annotated[Optional[str], typer.Option("--base-url", help="Where the tts/ images will be hosted (http or https folder); the save names them there instead of by file:/// path.")] = None,
) -> None:
    """Write Tabletop Simulator deck sheets and <game>.json (a saved object) to <out>/<game>/tts/."""
    from cardgen.cli.app import fail
    from cardgen.export.tts import check_base_url, export_tts
    from cardgen.progress import TerminalProgress

    if base_url is not None:
        try:
            check_base_url(base_url)
        except ValueError as error:
            fail(str(error))
    loaded, locale = _load(game, card_lang)
    assert loaded.spec is not None
    with TerminalProgress("Tabletop Simulator decks", quiet) as progress:
        result = export_tts(loaded, out / loaded.spec.id / "tts", locale, progress, base_url)
    decks = ", ".join(f"{name} {count}" for name, count in result.decks.items())
    typer.echo(f"{loaded.spec.id}: {len(result.images)} image(s) and {result.saved_object} ({decks})")
    if base_url is None:
        typer.echo("copy the .json into Tabletop Simulator's Saves/Saved Objects folder; the images stay where they are")
    else:
        typer.echo(f"upload the PNGs of {result.saved_object.parent} to {base_url}, then copy the .json into Tabletop Simulator's Saves/Saved Objects folder")


@export_app.command("profile")
def export_profile_command(
    name: Annotated[str, typer.Argument(help="The print-shop profile (see 'cardgen export profiles').")],
    game: Annotated[str, typer.Argument(help="A game id under specs/ or a spec folder.")],
    out: Annotated[Path, typer.Option("--out", callback=output_folder, help=OUT_HELP)] = Path("output"),
    profiles_dir: Annotated[Optional[Path], typer.Option("--profiles-dir", help="Read <NAME>.yaml from this folder instead of templates/profiles/.")] = None,
    card_lang: Annotated[Optional[str], typer.Option("--card-lang", help=LANG_HELP)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Write the files a print shop wants to <out>/<game>/<NAME>/ and report colours over its ink limit."""
    from cardgen.export.profiles import export_profile, load_profile
    from cardgen.progress import TerminalProgress

    profile = load_profile(name, profiles_dir)
    loaded, locale = _load(game, card_lang)
    assert loaded.spec is not None
    with TerminalProgress(profile.name, quiet) as progress:
        result = export_profile(loaded, profile, out / loaded.spec.id / profile.name, locale, progress)
    if result.findings:
        typer.echo(format_findings(result.findings, "text"))
    for note in result.notes:
        typer.echo(f"{loaded.spec.id}: {note}")
    typer.echo(f"{loaded.spec.id}: {len(result.files)} file(s) for {profile.name} in {out / loaded.spec.id / profile.name}")
    failed = any(f.severity is Severity.ERROR for f in result.findings)
    raise typer.Exit(EXIT_FINDINGS if failed else EXIT_CLEAN)


@export_app.command("profiles")
def list_profiles(
    profiles_dir: Annotated[Optional[Path], typer.Option("--profiles-dir", help="List this folder instead of templates/profiles/.")] = None,
) -> None:
    """List the print-shop profiles and what each writes."""
    from cardgen.export.profiles import available_profiles, load_profile

    for name in available_profiles(profiles_dir):
        profile = load_profile(name, profiles_dir)
        typer.echo(f"{name}: {profile.format}, bleed {profile.bleed_mm:g} mm - {profile.description}")


def register(app: typer.Typer) -> None:
    """Add ``preview`` and the ``export`` sub-app."""
    app.command("preview")(preview)
    app.add_typer(export_app, name="export")
