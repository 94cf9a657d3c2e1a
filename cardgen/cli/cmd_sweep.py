"""``cardgen sweep`` and ``cardgen tune``: many variants of a spec, checked on this machine or a Dask cluster.

Both read ``--vary numbers.NAME=LOW..HIGH[:STEP]`` options, check variants
with :mod:`cardgen.sweep` and write their records to a results file as they
arrive (``--resume`` goes on from it). ``sweep`` prints a table and the
figures against each varied value (or JSON) and writes ``sweep.html`` and
``sweep.json`` beside the game's balance report; ``tune`` prints the best
values, their evidence and a patch of ``game.yaml`` (never applied).
Exit codes: 0 done, 1 some variant has error findings (or was refused by the
validator), 2 bad options or unreadable input, 3 a variant's check crashed (a
bug in cardgen; the table shows which).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import TracebackType
from typing import Annotated, TYPE_CHECKING, Optional

import typer

from cardgen.cli.options import ReportFormat, ReportFormatOption
from cardgen.findings import InputError
from cardgen.limits import MAX_AGENT_BUDGET, MAX_JOBS, MAX_PLAYERS, MAX_PLAYOUTS, MAX_SEED, MAX_SKILL_GAMES, MAX_TRIALS

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from cardgen.sweep.executors import Executor
    from cardgen.sweep.run import SweepPlan
    from cardgen.sweep.work import Record

OUTPUT_ROOT = Path("output")


class EtaProgress:
    """A progress bar of finished variants or trials with an estimate of the time left (terminal only)."""

    def __init__(self, quiet: bool) -> None:
        from cardgen.progress import stderr_surely_not_a_terminal

        self._progress: Progress | None = None
        self._task: TaskID | None = None
        if quiet or stderr_surely_not_a_terminal():
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        console = Console(stderr=True)
        self._progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
            console=console, transient=True, disable=not console.is_terminal,
        )

    def __enter__(self) -> "EtaProgress":
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.stop()

    def start(self, total: int, description: str = "") -> None:
        """Begin the bar with ``total`` units."""
        if self._progress is not None:
            self._task = self._progress.add_task(description, total=total)

    def advance(self, done: int = 1) -> None:
        """Move the bar on by ``done`` units."""
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task, done)


def _plan(game: str, vary: list[str], players: Optional[int], playouts: Optional[int], agents: str, skill_games: int, mcts_budget: int, seed: int) -> SweepPlan:
    from cardgen.engine.checks import default_playouts
    from cardgen.spec.load import find_spec_folder, load_spec
    from cardgen.sweep.run import plan_sweep
    from cardgen.sweep.variants import parse_varies
    from cardgen.sweep.work import AGENT_CHOICES, CheckSettings

    folder = find_spec_folder(game)  # the game first: a missing game is named before any option is judged
    if agents not in AGENT_CHOICES:
        raise InputError(f"--agents must be one of {', '.join(AGENT_CHOICES)}, not {agents!r}")
    varies = parse_varies(vary)
    loaded = load_spec(folder)
    if loaded.spec is None:
        raise InputError("the spec does not load; fix it first (cardgen validate)", loaded.file)
    spec = loaded.spec
    if players is not None and not spec.players.min <= players <= spec.players.max:
        raise InputError(f"{spec.id} plays with {spec.players.min} to {spec.players.max} players, not {players}", loaded.file)
    if playouts is None:
        playouts = default_playouts(loaded)
    settings = CheckSettings((players,) if players else (), playouts, agents, skill_games, mcts_budget, seed)
    return plan_sweep(folder, varies, settings)


def _executor(name: str, jobs: Optional[int], scheduler: Optional[str]) -> Executor:
    from cardgen.sweep.executors import make_executor

    return make_executor(name, jobs=jobs, scheduler=scheduler)


VARY_HELP = "A number to vary: numbers.NAME=LOW..HIGH[:STEP]; repeat for several (every combination is checked)."


def sweep(
    game: Annotated[str, typer.Argument(help="A game id under specs/ or a spec folder.")],
    vary: Annotated[list[str], typer.Option("--vary", help=VARY_HELP)] = [],
    players: Annotated[Optional[int], typer.Option("--players", min=1, max=MAX_PLAYERS, help="Check only this player count (default: every supported count).")] = None,
    playouts: Annotated[Optional[int], typer.Option("--playouts", min=1, max=MAX_PLAYOUTS, help="Playouts per variant and player count (default: as cardgen check).")] = None,
    agents: Annotated[str, typer.Option("--agents", help="Who plays the balance playouts at every seat: random, greedy or mcts.")] = "random",
    skill_games: Annotated[int, typer.Option("--skill-games", min=0, max=MAX_SKILL_GAMES, help="Games per rung of the skill ladder, per variant (0 skips it and the skill gradient).")] = 12,
    mcts_budget: Annotated[int, typer.Option("--mcts-budget", min=1, max=MAX_AGENT_BUDGET, help="Planner iterations per decision (skill ladder and --agents mcts).")] = 48,
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="Part of every seed; the same seed gives the same figures on any executor.")] = 0,
    executor: Annotated[str, typer.Option("--executor", help="local (processes on this machine) or dask (a Dask cluster).")] = "local",
    jobs: Annotated[Optional[int], typer.Option("--jobs", min=1, max=MAX_JOBS, help="Local worker processes, or LocalCluster workers for dask without --scheduler (default: every CPU).")] = None,
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="The Dask scheduler, tcp://HOST:PORT (default: a LocalCluster on this machine).")] = None,
    results: Annotated[Optional[Path], typer.Option("--results", help="The results file (default: output/<game>/sweep/results.jsonl).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Go on from the results file, playing only the variants it lacks.")] = False,
    fmt: ReportFormatOption = ReportFormat.text,
    out: Annotated[Path, typer.Option("--out", help="Output root; the page goes to OUT/<game>/report/sweep.html.")] = OUTPUT_ROOT,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Check every combination of the varied numbers like `cardgen check`; print a table and the figures per value."""
    from cardgen.sweep.charts import write_sweep_page
    from cardgen.sweep.present import effects, render_effects, render_table, sweep_json
    from cardgen.sweep.run import run_sweep

    plan = _plan(game, vary, players, playouts, agents, skill_games, mcts_budget, seed)
    path = results if results is not None else out / plan.source.folder_name / "sweep" / "results.jsonl"
    runner = _executor(executor, jobs, scheduler)
    try:
        with EtaProgress(quiet) as progress:
            records = run_sweep(plan, runner, path, resume=resume, progress=progress)
    finally:
        runner.close()
    pages = write_sweep_page(plan, records, out / plan.source.folder_name / "report")
    if fmt == "json":
        typer.echo(json.dumps(sweep_json(plan, records), indent=1, sort_keys=True, ensure_ascii=False))
    else:
        typer.echo(render_table(plan, records))
        typer.echo("")
        typer.echo(render_effects(effects(plan, records)))
        refused = sum(1 for r in records if r["status"] != "played")
        typer.echo(f"{len(records)} variants on {runner.name} ({runner.workers} worker(s)), {refused} refused or failed; results: {path}; page: {pages[0]}")
    _exit_for(records)


def _exit_for(records: list[Record]) -> None:
    """Exit 3 when a variant's check crashed (a bug in cardgen), 1 when one was refused or has error findings."""
    if any(r["status"] == "failed" for r in records):
        raise typer.Exit(3)
    if any(r["status"] != "played" or any(f["severity"] == "error" for f in r["findings"]) for r in records):
        raise typer.Exit(1)


def tune(
    game: Annotated[str, typer.Argument(help="A game id under specs/ or a spec folder.")],
    vary: Annotated[list[str], typer.Option("--vary", help=VARY_HELP)] = [],
    objective: Annotated[str, typer.Option("--objective", help="balance, decisiveness or length:MIN..MAX (mean actions per game).")] = "balance",
    trials: Annotated[int, typer.Option("--trials", min=1, max=MAX_TRIALS, help="Trials of the search (the spec's own values are the first).")] = 32,
    batch: Annotated[int, typer.Option("--batch", min=1, max=MAX_TRIALS, help="Trials proposed and checked at once; part of the answer's identity, not the workers'.")] = 8,
    players: Annotated[Optional[int], typer.Option("--players", min=1, max=MAX_PLAYERS, help="Check only this player count (default: every supported count).")] = None,
    playouts: Annotated[Optional[int], typer.Option("--playouts", min=1, max=MAX_PLAYOUTS, help="Playouts per variant and player count (default: as cardgen check).")] = None,
    agents: Annotated[str, typer.Option("--agents", help="Who plays the balance playouts at every seat: random, greedy or mcts.")] = "random",
    skill_games: Annotated[int, typer.Option("--skill-games", min=0, max=MAX_SKILL_GAMES, help="Games per rung of the skill ladder, per variant (off by default: no objective reads it).")] = 0,
    mcts_budget: Annotated[int, typer.Option("--mcts-budget", min=1, max=MAX_AGENT_BUDGET, help="Planner iterations per decision.")] = 48,
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seeds the playouts and the optimiser.")] = 0,
    executor: Annotated[str, typer.Option("--executor", help="local or dask.")] = "local",
    jobs: Annotated[Optional[int], typer.Option("--jobs", min=1, max=MAX_JOBS, help="Local worker processes, or LocalCluster workers for dask.")] = None,
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="The Dask scheduler, tcp://HOST:PORT.")] = None,
    results: Annotated[Optional[Path], typer.Option("--results", help="The results file (default: output/<game>/sweep/tune.jsonl).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Reuse the variants already in the results file.")] = False,
    fmt: ReportFormatOption = ReportFormat.text,
    out: Annotated[Path, typer.Option("--out", help="Output root for the default results file.")] = OUTPUT_ROOT,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Search the varied numbers for the best objective (Optuna); print the values, their evidence and a patch."""
    from cardgen.sweep.tune import parse_objective, render_tune
    from cardgen.sweep.tune import tune as run_tune

    goal = parse_objective(objective)
    plan = _plan(game, vary, players, playouts, agents, skill_games, mcts_budget, seed)
    path = results if results is not None else out / plan.source.folder_name / "sweep" / "tune.jsonl"
    runner = _executor(executor, jobs, scheduler)
    try:
        with EtaProgress(quiet) as progress:
            result = run_tune(plan, goal, runner, trials, batch, path, resume=resume, progress=progress)
    finally:
        runner.close()
    if fmt == "json":
        typer.echo(json.dumps(result.as_json(), indent=1, sort_keys=True, ensure_ascii=False))
    else:
        typer.echo(render_tune(result))
    if result.best is None:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the sweep and tune commands to the app."""
    app.command("sweep")(sweep)
    app.command("tune")(tune)
