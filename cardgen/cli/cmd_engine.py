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
from typing import Annotated, TYPE_CHECKING, Optional

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
    game: Annotated[str, typer.Argument(help="A game id under specs/ or a spec folder.")],
    players: Annotated[Optional[int], typer.Option("--players", min=1, max=MAX_PLAYERS, help="Check only this player count.")] = None,
    playouts: Annotated[Optional[int], typer.Option("--playouts", min=1, max=MAX_PLAYOUTS, help="Random playouts per player count (default: enough for the win-rate interval).")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="The first playout's seed; playout i uses seed + i.")] = 0,
    jobs: Annotated[Optional[int], typer.Option("--jobs", min=1, max=MAX_JOBS, help="Processes to play in, at most (default: every CPU); a worker starts only on an idle processor.")] = None,
    fmt: ReportFormatOption = ReportFormat.text,
    skill_games: Annotated[int, typer.Option("--skill-games", min=0, max=MAX_SKILL_GAMES, help="Games per rung of the skill ladder (0 skips it).")] = 12,
    mcts_budget: Annotated[int, typer.Option("--mcts-budget", min=1, max=MAX_AGENT_BUDGET, help="Planner iterations per decision in the skill ladder.")] = 48,
    replays: Annotated[bool, typer.Option("--replays", help="Write replays of odd games to <out>/<game>/replays/.")] = False,
    out: OutOption = Path("output"),
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
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
    game: Annotated[str, typer.Argument(help="A game id under specs/ or a spec folder.")],
    players: Annotated[Optional[int], typer.Option("--players", min=1, max=MAX_PLAYERS, help="Player count (default: the smallest supported).")] = None,
    agents: Annotated[str, typer.Option("--agents", help="Agents per seat, comma separated (random, greedy, mcts, mcts:400...); one name is used for every seat.")] = "random",
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="The deal and every random choice follow this seed.")] = 0,
    replay_out: Annotated[Optional[Path], typer.Option("--replay-out", help="Write the game's replay (JSON lines) to this file.")] = None,
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
    file: Annotated[Path, typer.Argument(help="A replay written by `cardgen play --replay-out` or `cardgen check --replays`.")],
    spec: Annotated[Optional[str], typer.Option("--spec", help="The game id or spec folder (default: the game named in the replay).")] = None,
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
    game: Annotated[str, typer.Argument(help="A game id under specs/ or a spec folder.")],
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="The deal to solve (the first one with --deals).")] = 0,
    deals: Annotated[int, typer.Option("--deals", min=1, max=MAX_PLAYOUTS, help="Solve this many deals (seed, seed+1, ...) and print the distribution.")] = 1,
    players: Annotated[Optional[int], typer.Option("--players", min=1, max=MAX_PLAYERS, help="Player count (default: the smallest supported).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar (one is shown with --deals above 1).")] = False,
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
