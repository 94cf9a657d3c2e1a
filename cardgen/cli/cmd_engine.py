"""Engine commands: ``cardgen check``, ``play``, ``replay`` and ``solve``.

GAME is a game id under specs/ or a spec folder. A spec with error findings is
refused (its findings are printed, exit 1); unreadable input is an
:class:`InputError` (exit 2). Files are written only when asked: ``check
--replays`` writes replays of odd games to output/<game>/replays/, ``play
--replay-out FILE`` writes the game's replay to FILE.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from cardgen.findings import InputError, Severity, display_path, format_findings
from cardgen.limits import MAX_JOBS, MAX_PLAYERS, MAX_PLAYOUTS, MAX_SEED

if TYPE_CHECKING:
    from cardgen.engine.core import Game
    from cardgen.spec.load import LoadedSpec

# The engine (and every game's rules module it registers), the spec models,
# the progress bar and statistics are imported inside the functions that use
# them: every command (`cardgen build` too) loads this module, and needs none of them.

OUTPUT_ROOT = Path("output")


def _exit(message: str, code: int) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code)


def load_checked(name: str) -> LoadedSpec:
    """Load GAME (id or folder) and run the static validation, refusing a spec with errors (printed, exit 1)."""
    from cardgen.spec.load import find_spec_folder
    from cardgen.validate.runner import validate_folder

    result = validate_folder(find_spec_folder(name), ["static"])
    loaded = result.loaded
    errors = [f for f in result.findings if f.severity is Severity.ERROR]
    if errors or loaded is None or loaded.spec is None:
        typer.echo(format_findings(errors, "text"), err=True)
        raise _exit(f"{name}: the spec has errors; fix them before simulating it", 1)
    return loaded


def _build(loaded: LoadedSpec, players: int | None) -> Game:
    from cardgen.engine.core import make_game, registered_rules

    spec = loaded.spec
    assert spec is not None
    if spec.rules is None:
        raise InputError("the spec names no rules module, so it cannot be simulated", loaded.file)
    if spec.rules not in registered_rules():
        raise InputError(f"no rules module {spec.rules!r} is registered", loaded.file)
    count = players if players is not None else spec.players.min
    if not spec.players.min <= count <= spec.players.max:
        raise InputError(f"{spec.id} plays with {spec.players.min} to {spec.players.max} players, not {count}", loaded.file)
    return make_game(spec, count)


def check(
    game: str = typer.Argument(..., help="A game id under specs/ or a spec folder."),
    players: Optional[int] = typer.Option(None, "--players", min=1, max=MAX_PLAYERS, help="Check only this player count."),
    playouts: Optional[int] = typer.Option(None, "--playouts", min=1, max=MAX_PLAYOUTS, help="Random playouts per player count (default: enough for the win-rate interval)."),
    seed: int = typer.Option(0, "--seed", min=0, max=MAX_SEED, help="The first playout's seed; playout i uses seed + i."),
    jobs: Optional[int] = typer.Option(None, "--jobs", min=1, max=MAX_JOBS, help="Worker processes (default: every CPU)."),
    fmt: str = typer.Option("text", "--format", help="text or json."),
    skill_games: int = typer.Option(12, "--skill-games", min=0, help="Games per rung of the skill ladder (0 skips it)."),
    mcts_budget: int = typer.Option(48, "--mcts-budget", min=1, help="Planner iterations per decision in the skill ladder."),
    replays: bool = typer.Option(False, "--replays", help="Write replays of odd games to output/<game>/replays/."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Simulate GAME: dead ends, timeouts, unreachable cards, balance metrics and the skill ladder."""
    from cardgen.engine.checks import run_checks
    from cardgen.progress import TerminalProgress

    if fmt not in ("text", "json"):
        raise InputError(f"--format must be text or json, not {fmt!r}")
    loaded = load_checked(game)
    spec = loaded.spec
    assert spec is not None
    if players is not None and not spec.players.min <= players <= spec.players.max:
        raise InputError(f"{spec.id} plays with {spec.players.min} to {spec.players.max} players, not {players}", loaded.file)
    replays_dir = OUTPUT_ROOT / spec.id / "replays" if replays else None
    with TerminalProgress(f"{spec.id}: playouts", quiet) as progress:
        report = run_checks(
            loaded, playouts, seed, jobs, players=[players] if players else None,
            skill_games=skill_games, mcts_budget=mcts_budget, replays_dir=replays_dir, progress=progress,
        )
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
    from cardgen.engine.agents import make_agent
    from cardgen.engine.playout import play_game
    from cardgen.engine.replay import replay_lines, replay_of, write_replay

    loaded = load_checked(game)
    built = _build(loaded, players)
    names = [n.strip() for n in agents.split(",") if n.strip()]
    if len(names) == 1:
        names = names * built.num_players
    if len(names) != built.num_players:
        raise InputError(f"--agents names {len(names)} agents for {built.num_players} seats")
    try:
        seats = [make_agent(name, built) for name in names]
    except ValueError as error:
        raise InputError(str(error)) from None
    result = play_game(built, seats, seed)
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
    from cardgen.engine.replay import ReplayMismatch, read_replay, replay_lines

    try:
        log = read_replay(file)
    except (ValueError, RecursionError) as error:  # JSON nested too deep, a number too long to read: the file's fault
        raise InputError(f"cannot read the replay: {type(error).__name__}: {error}", display_path(file)) from None
    loaded = load_checked(spec or log.game)
    built = _build(loaded, log.players)
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
    import statistics

    from cardgen.engine.core import solver_for
    from cardgen.progress import TerminalProgress

    loaded = load_checked(game)
    built = _build(loaded, players)
    assert loaded.spec is not None and loaded.spec.rules is not None
    solver = solver_for(loaded.spec.rules)
    if solver is None:
        raise InputError(f"no exact solver is registered for {loaded.spec.rules!r}", loaded.file)
    values: list[float] = []
    times: list[float] = []
    proved = 0
    failed = 0
    with TerminalProgress("solving", quiet or deals == 1) as progress:
        progress.start(deals, "solving")
        for deal in range(seed, seed + deals):
            started = time.perf_counter()
            try:
                solution = solver(built, deal)
            except ValueError as error:
                raise InputError(f"the solver cannot solve this game: {error}", loaded.file) from None
            times.append(time.perf_counter() - started)
            values.append(solution.value)
            proved += solution.proved
            ok, reached, lines = _verify(built, deal, solution.actions, solution.value)
            failed += not ok
            if deals == 1:
                what = f" ({solution.detail})" if solution.detail else ""
                typer.echo(f"{loaded.spec.id}, seed {deal}: value {solution.value:g}{what}, {'proved optimal' if solution.proved else 'not proved (search budget hit; a lower bound)'}, {solution.nodes} positions, {times[-1]:.2f} s")
                if solution.information:
                    typer.echo(f"what the solver knows: {solution.information}")
                for note in solution.notes:
                    typer.echo(note)
                for line in lines:
                    typer.echo(line)
                typer.echo(f"verified: replaying the line reaches {reached:g}" if ok else f"NOT verified: replaying the line reaches {reached:g}, not {solution.value:g}")
            else:
                typer.echo(f"seed {deal}: value {solution.value:g} {'proved' if solution.proved else 'bound'} {solution.nodes} positions {times[-1]:.2f} s{'' if ok else ' NOT VERIFIED'}")
            progress.advance()
    if deals > 1:
        counts: dict[float, int] = {}
        for v in values:
            counts[v] = counts.get(v, 0) + 1
        typer.echo(f"{deals} deals: mean {statistics.fmean(values):.2f}, median {statistics.median(values):g}, min {min(values):g}, max {max(values):g}; {proved} proved; median time {statistics.median(times):.3f} s")
        if solution.information:
            typer.echo(f"what the solver knows: {solution.information}")
        typer.echo("distribution: " + ", ".join(f"{v:g}: {n}" for v, n in sorted(counts.items())))
    if failed:
        raise _exit(f"{failed} solution(s) did not replay to their value", 1)


def _verify(game: Game, seed: int, actions: tuple[int, ...], value: float) -> tuple[bool, float, list[str]]:
    """Replay a solver's line: (reaches ``value``, the value reached, readable lines)."""
    state = game.new_initial_state(seed)
    lines: list[str] = []
    for ply, action in enumerate(actions):
        if action not in state.legal_actions():
            return False, float("nan"), lines + [f"{ply:>4}  action {action} is not legal here"]
        lines.append(f"{ply:>4}  {state.action_to_string(action)}")
        state.apply_action(action)
    scores = state.scores()
    reached = float(scores[0]) if game.num_players == 1 else float(scores[0] - max(scores[1:]))
    return state.is_terminal() and abs(reached - value) < 1e-9, reached, lines


def register(app: typer.Typer) -> None:
    """Add the engine commands to the app."""
    app.command("check")(check)
    app.command("play")(play)
    app.command("replay")(replay)
    app.command("solve")(solve)
