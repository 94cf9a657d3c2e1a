"""Engine commands: ``cardgen check``, ``play``, ``replay`` and ``solve``.

GAME is a game id under specs/ or a spec folder. A spec with error findings is
refused (its findings are printed, exit 1); unreadable input is an
:class:`InputError` (exit 2). Files are written only when asked: ``check
--replays`` writes replays of odd games to <out>/<game>/replays/ (``--out``, default output/), ``play
--replay-out FILE`` writes the game's replay to FILE.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from cardgen.cli.options import OutOption, ReportFormat, ReportFormatOption
from cardgen.findings import InputError, display_path
from cardgen.limits import MAX_AGENT_BUDGET, MAX_JOBS, MAX_PLAYERS, MAX_PLAYOUTS, MAX_SEED, MAX_SKILL_GAMES

if TYPE_CHECKING:
    from cardgen.spec.load import LoadedSpec

# The engine (and every game's rules module it registers), the spec models,
# the progress bar and statistics are imported inside the functions that use
# them: every command (`cardgen build` too) loads this module, and needs none of them.

def _exit(message: str, code: int) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code)


def load_checked(name: str) -> LoadedSpec:
    """Load GAME (id or folder) and run the static validation, refusing a spec with errors (printed, exit 1)."""
    from cardgen.cli.common import load_or_refuse

    return load_or_refuse(name, "simulating it")


def check(
    game: str = typer.Argument(..., help="A game id under specs/ or a spec folder."),
    players: Optional[int] = typer.Option(None, "--players", min=1, max=MAX_PLAYERS, help="Check only this player count."),
    playouts: Optional[int] = typer.Option(None, "--playouts", min=1, max=MAX_PLAYOUTS, help="Random playouts per player count (default: enough for the win-rate interval)."),
    seed: int = typer.Option(0, "--seed", min=0, max=MAX_SEED, help="The first playout's seed; playout i uses seed + i."),
    jobs: Optional[int] = typer.Option(None, "--jobs", min=1, max=MAX_JOBS, help="Worker processes (default: every CPU)."),
    fmt: ReportFormatOption = ReportFormat.text,
    skill_games: int = typer.Option(12, "--skill-games", min=0, max=MAX_SKILL_GAMES, help="Games per rung of the skill ladder (0 skips it)."),
    mcts_budget: int = typer.Option(48, "--mcts-budget", min=1, max=MAX_AGENT_BUDGET, help="Planner iterations per decision in the skill ladder."),
    replays: bool = typer.Option(False, "--replays", help="Write replays of odd games to <out>/<game>/replays/."),
    out: OutOption = Path("output"),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Simulate GAME: dead ends, timeouts, unreachable cards, balance metrics and the skill ladder."""
    from cardgen.api import check_spec
    from cardgen.progress import TerminalProgress

    loaded = load_checked(game)
    spec = loaded.spec
    assert spec is not None
    replays_dir = out / spec.id / "replays" if replays else None
    with TerminalProgress(f"{spec.id}: playouts", quiet) as progress:
        report = check_spec(
            loaded, playouts, seed, jobs, players=players,
            skill_games=skill_games, mcts_budget=mcts_budget, replays_dir=replays_dir, progress=progress,
        )
    if replays_dir is not None and replays_dir.is_dir():
        from cardgen.export.folder_page import write_folder_page

        write_folder_page(spec, replays_dir, "replays", spec.locales[0])
    if fmt == "json":
        typer.echo(json.dumps(report.as_json(), indent=2, ensure_ascii=False))
    else:
        typer.echo(report.render_text())
    if report.has_errors():
        raise typer.Exit(1)


def play(
    game: str = typer.Argument(..., help="A game id under specs/ or a spec folder."),
    players: Optional[int] = typer.Option(None, "--players", min=1, max=MAX_PLAYERS, help="Player count (default: the smallest supported)."),
    agents: str = typer.Option("random", "--agents", help="Agents per seat, comma separated (random, greedy, mcts, mcts:400...); one name is used for every seat."),
    seed: int = typer.Option(0, "--seed", min=0, max=MAX_SEED, help="The deal and every random choice follow this seed."),
    replay_out: Optional[Path] = typer.Option(None, "--replay-out", help="Write the game's replay (JSON lines) to this file."),
) -> None:
    """Play one game of GAME with the given agents and print it turn by turn."""
    from cardgen.api import make_game, play_game
    from cardgen.engine.replay import replay_lines, replay_of, write_replay

    loaded = load_checked(game)
    built = make_game(loaded, players)
    result = play_game(built, [n.strip() for n in agents.split(",") if n.strip()], seed)
    if result.error:
        raise _exit(f"the rules module raised {result.error} after {result.length} actions", 1)
    replay = replay_of(built, result)
    for line in replay_lines(built, replay):
        typer.echo(line)
    if replay_out is not None:
        write_replay(replay, replay_out)
        typer.echo(f"replay written to {replay_out}")
    if not result.completed:
        raise _exit(f"the game did not end properly: {result.termination}", 1)


def replay(
    file: Path = typer.Argument(..., help="A replay written by `cardgen play --replay-out` or `cardgen check --replays`."),
    spec: Optional[str] = typer.Option(None, "--spec", help="The game id or spec folder (default: the game named in the replay)."),
) -> None:
    """Play a replay back through the engine, checking every action, and print it turn by turn."""
    from cardgen.api import make_game
    from cardgen.engine.replay import ReplayMismatch, read_replay, replay_lines

    try:
        log = read_replay(file)
    except (ValueError, RecursionError) as error:  # JSON nested too deep, a number too long to read: the file's fault
        raise InputError(f"cannot read the replay: {type(error).__name__}: {error}", display_path(file)) from None
    loaded = load_checked(spec or log.game)
    built = make_game(loaded, log.players)
    try:
        for line in replay_lines(built, log):
            typer.echo(line)
    except ReplayMismatch as error:
        raise _exit(f"{file}: {error}", 1) from None


def solve(
    game: str = typer.Argument(..., help="A game id under specs/ or a spec folder."),
    seed: int = typer.Option(0, "--seed", min=0, max=MAX_SEED, help="The deal to solve (the first one with --deals)."),
    deals: int = typer.Option(1, "--deals", min=1, max=MAX_PLAYOUTS, help="Solve this many deals (seed, seed+1, ...) and print the distribution."),
    players: Optional[int] = typer.Option(None, "--players", min=1, max=MAX_PLAYERS, help="Player count (default: the smallest supported)."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar (one is shown with --deals above 1)."),
) -> None:
    """Solve deals of GAME exactly with its registered solver and verify each line of play."""
    from cardgen.api import make_game, solve_deal
    from cardgen.engine.solving import SolveSummary
    from cardgen.progress import TerminalProgress

    loaded = load_checked(game)
    built = make_game(loaded, players)
    assert loaded.spec is not None
    summary = SolveSummary()
    with TerminalProgress("solving", quiet or deals == 1) as progress:
        progress.start(deals, "solving")
        for deal in range(seed, seed + deals):
            solved = solve_deal(loaded, deal, game=built)
            summary.add(solved)
            solution, verified = solved.solution, solved.verification
            if deals == 1:
                what = f" ({solution.detail})" if solution.detail else ""
                typer.echo(f"{loaded.spec.id}, seed {deal}: value {solution.value:g}{what}, {'proved optimal' if solution.proved else 'not proved (search budget hit; a lower bound)'}, {solution.nodes} positions, {solved.seconds:.2f} s")
                if solution.information:
                    typer.echo(f"what the solver knows: {solution.information}")
                for note in solution.notes:
                    typer.echo(note)
                for line in verified.lines:
                    typer.echo(line)
                typer.echo(f"verified: replaying the line reaches {verified.reached:g}" if verified.ok else f"NOT verified: replaying the line reaches {verified.reached:g}, not {solution.value:g}")
            else:
                typer.echo(f"seed {deal}: value {solution.value:g} {'proved' if solution.proved else 'bound'} {solution.nodes} positions {solved.seconds:.2f} s{'' if verified.ok else ' NOT VERIFIED'}")
            progress.advance()
    if deals > 1:
        for line in summary.text():
            typer.echo(line)
        information = summary.deals[-1].solution.information if summary.deals else ""
        if information:
            typer.echo(f"what the solver knows: {information}")
    if summary.failed:
        raise _exit(f"{summary.failed} solution(s) did not replay to their value", 1)


def register(app: typer.Typer) -> None:
    """Add the engine commands to the app."""
    app.command("check")(check)
    app.command("play")(play)
    app.command("replay")(replay)
    app.command("solve")(solve)
