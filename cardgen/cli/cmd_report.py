"""``cardgen report GAME``: the balance report as a page and a PDF.

Runs the engine's checks for every player count (and the exact solver on a
few deals where the game has one) and writes ``index.html``,
``<game>-balance.pdf`` and ``report.json`` into ``<out>/<game>/report/``.
Exit codes: 0 written and no error finding, 1 written but some finding is an
error (or the spec itself has errors, in which case nothing is written), 2 the
game cannot be found or read.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from cardgen.cli.outputs import output_folder

from cardgen.limits import MAX_AGENT_BUDGET, MAX_JOBS, MAX_PLAYOUTS, MAX_SEED, MAX_SKILL_GAMES


def report(
    game: Annotated[str, typer.Argument(help="A game id under specs/ or a spec folder.")],
    playouts: Annotated[Optional[int], typer.Option("--playouts", min=1, max=MAX_PLAYOUTS, help="Random playouts per player count (default: enough for the win-rate interval).")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="The first playout's seed; the same seed gives the same report, byte for byte.")] = 0,
    jobs: Annotated[Optional[int], typer.Option("--jobs", min=1, max=MAX_JOBS, help="Processes to play in, at most (default: every CPU; a worker starts only on an idle processor); the report does not depend on it.")] = None,
    out: Annotated[Path, typer.Option("--out", callback=output_folder, help="Output root; the report goes to OUT/<game>/report/.")] = Path("output"),
    solve_deals: Annotated[int, typer.Option("--solve-deals", min=0, help="Deals per player count for the exact solver, where the game has one (0: off).")] = 5,
    skill_games: Annotated[int, typer.Option("--skill-games", min=0, max=MAX_SKILL_GAMES, help="Games per rung of the skill ladder (0 skips it).")] = 12,
    mcts_budget: Annotated[int, typer.Option("--mcts-budget", min=1, max=MAX_AGENT_BUDGET, help="Planner iterations per decision in the skill ladder.")] = 48,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Write GAME's balance report (HTML page, PDF, JSON) for every player count."""
    from cardgen.cli.common import load_or_refuse
    from cardgen.progress import TerminalProgress
    from cardgen.report import REPORT_FOLDER, gather, write_report

    loaded = load_or_refuse(game, "reporting on it")
    assert loaded.spec is not None
    started = time.perf_counter()
    with TerminalProgress(f"{loaded.spec.id}: playouts", quiet) as progress:
        data = gather(loaded, playouts, seed, jobs, skill_games=skill_games, mcts_budget=mcts_budget, solve=solve_deals, progress=progress)
    simulated = time.perf_counter()
    paths = write_report(data, out / loaded.spec.id / REPORT_FOLDER)
    done = time.perf_counter()
    for path in paths:
        typer.echo(f"wrote {path}")
    counts = data.severity_counts()
    statuses = ", ".join(f"{v.key} {v.status}" for v in data.verdicts)
    typer.echo(f"{data.game}: {statuses}; {counts['error']} error(s), {counts['warning']} warning(s)")
    typer.echo(f"simulation {simulated - started:.1f} s, drawing {done - simulated:.1f} s")
    if data.has_errors():
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the report command to the app."""
    app.command("report")(report)
