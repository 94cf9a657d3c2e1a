"""``cardgen new`` (scaffold a game folder) and ``cardgen watch`` (rebuild on every save)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, TYPE_CHECKING, Optional

import typer

from cardgen.cli.options import BuildJobsOption, CardLangOption, LangOption, OutOption, PaperChoice, PaperOption, card_locale, papers

from cardgen.cli.app import EXIT_CLEAN, EXIT_INPUT, debug_enabled, fail
from cardgen.cli.errors import os_error_line
from cardgen.findings import InputError, display_path, format_findings

if TYPE_CHECKING:
    from cardgen.artefacts import BuildOptions

# The build pipeline, the scaffold and the spec models are imported inside the commands.


def new(
    name: Annotated[str, typer.Argument(help="The new game's id: lower-case letters, digits, '-' and '_' (e.g. gem-market).")],
    folder: Annotated[Path, typer.Option("--dir", help="The folder the game folder is made in.")] = Path("specs"),
    kind: Annotated[
        str,
        typer.Option(
            "--kind",
            help="The kind of small game to start from, its play written as rules data: set-collection, drafting, push-your-luck, shedding or trick-taking.",
        ),
    ] = "set-collection",
) -> None:
    """Make a new game folder that validates, builds and plays (`cardgen check`) as it is: game.yaml, cards.csv, a layout and a rulebook note."""
    from cardgen.scaffold import create_game

    try:
        created = create_game(name, folder, kind)
    except InputError as error:
        fail(error.render(), EXIT_INPUT)
    shown = display_path(created)
    typer.echo(f"created {shown}/")
    for path in sorted(p for p in created.rglob("*") if p.is_file()):
        typer.echo(f"  {path.relative_to(created).as_posix()}")
    typer.echo(
        f"next: edit {shown}/game.yaml and {shown}/cards.csv, then run `cardgen validate {shown}`, "
        f"`cardgen check {shown}` (plays it) or `cardgen watch {shown}`"
    )
    raise typer.Exit(EXIT_CLEAN)


def _stamp() -> str:
    return time.strftime("%H:%M:%S")


def build_once(folder: Path, out: Path, options: BuildOptions) -> str | None:
    """Validate and build one game, printing findings and a one-line outcome; return the game id when known."""
    from cardgen.api import build_spec

    started = time.perf_counter()
    try:
        result = build_spec(folder, out, options)
    except InputError as error:
        typer.echo(error.render())
        typer.echo(f"[{_stamp()}] not built: fix the file and save again")
        return None
    except OSError as error:  # a full disk, a file where a folder goes: the user's to fix; keep watching
        if debug_enabled():
            raise
        typer.echo(os_error_line(error))
        typer.echo(f"[{_stamp()}] not built: fix the output folder and save again")
        return None
    except Exception as error:  # keep watching: the next save may fix it
        if debug_enabled():
            raise
        typer.echo(f"[{_stamp()}] internal error: {type(error).__name__}: {error} (run `cardgen --debug build` for the traceback)")
        return None
    if result.findings:
        typer.echo(format_findings(result.findings, "text"))
    seconds = time.perf_counter() - started
    if result.failed:
        typer.echo(f"[{_stamp()}] {result.game}: not built (errors above); the previous output was left as it was")
    else:
        for note in result.notes:
            typer.echo(f"{result.game}: {note}")
        typer.echo(f"[{_stamp()}] {result.game}: {len(result.files)} file(s) written to {display_path(out / result.game)} in {seconds:.1f} s")
    return result.game


def watch(
    game: Annotated[str, typer.Argument(help="A game id or spec folder.")],
    out: OutOption = Path("output"),
    interval: Annotated[float, typer.Option("--interval", min=0.1, max=60.0, help="Seconds between two looks at the files.")] = 0.5,
    paper: PaperOption = PaperChoice.all,
    lang: LangOption = "all",
    card_lang: CardLangOption = None,
    max_cycles: Annotated[Optional[int], typer.Option("--max-cycles", hidden=True, help="Stop after this many polls (for tests).")] = None,
    jobs: BuildJobsOption = None,
) -> None:
    """Build a game, then rebuild it (validation included) every time one of its files changes; Ctrl-C stops."""
    from cardgen.rulebook.line_breaks import keep_line_breaks

    with keep_line_breaks():  # this process builds again and again: its rulebooks' paragraphs keep their lines
        _watch(game, out, interval, paper, lang, card_lang, max_cycles, jobs)


def _watch(
    game: str, out: Path, interval: float, paper: PaperChoice, lang: str, card_lang: Optional[str], max_cycles: Optional[int], jobs: Optional[int]
) -> None:
    """:func:`watch`, with the rulebooks' line breaks kept between builds."""
    from cardgen.artefacts import BuildOptions
    from cardgen.scaffold.watch import snapshot, watch_loop
    from cardgen.spec.load import find_spec_folder

    options = BuildOptions(papers=papers(paper), langs=() if lang == "all" else (lang,), card_lang=card_locale(lang, card_lang), jobs=jobs)
    try:
        folder = find_spec_folder(game)
    except InputError as error:
        fail(error.render(), EXIT_INPUT)
    typer.echo(f"[{_stamp()}] building {display_path(folder)}")
    game_id = build_once(folder, out, options) or folder.name
    from cardgen.render.layouts import bundled_layouts, spec_package
    from cardgen.spec.load import load_spec

    roots = [folder]
    loaded = load_spec(folder)
    bundled = bundled_layouts(spec_package(loaded.spec) if loaded.spec is not None else None)
    if bundled is not None and bundled.is_dir():
        roots.append(bundled)
    watched = ", ".join(display_path(r) for r in roots)
    typer.echo(f"[{_stamp()}] watching {watched} every {interval:g} s; press Ctrl-C to stop")

    def rebuild(changed: list[str]) -> None:
        names = ", ".join(display_path(Path(p)) for p in changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
        typer.echo(f"[{_stamp()}] changed: {names}")
        build_once(folder, out, options)

    try:
        watch_loop(lambda: snapshot(roots, exclude=[out]), rebuild, interval, max_cycles)
    except KeyboardInterrupt:
        typer.echo(f"\n[{_stamp()}] stopped watching")
    except InputError as error:
        fail(error.render(), EXIT_INPUT)
    raise typer.Exit(EXIT_CLEAN)


def register(app: typer.Typer) -> None:
    """Add the workflow commands to the app."""
    app.command("new")(new)
    app.command("watch")(watch)
