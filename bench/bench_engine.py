"""Engine benchmark: random playouts per second, check speed-up with workers, exact-solve times.

Run from the project root::

    python bench/bench_engine.py [--games ceramus,keramikos] [--seconds 2] [--deals 5] [--out bench/results.json]

For every game under specs/ the engine can play (a registered rules module, or rules as data) it measures, on
one core, uniformly random playouts per second at each player count, with the
conservation check ``cardgen check`` runs after every playout; the
wall time of ``run_checks`` (random playouts and a small skill ladder) with ``--jobs 1`` and
``--jobs 2`` and the speed-up (one run each; ``bench/run.py`` interleaves repeated runs); and, for games with a registered exact solver,
the median time to solve one deal. It prints a table (and writes JSON with --out).

Which clock: playout rates are given by CPU time (``time.process_time``) and by
wall time. The speed targets for random playouts are judged on the CPU-time
rate, because the benchmark machine is shared: other jobs take turns on the
same cores, which stretches the wall clock of a single-threaded loop without
changing how much work it does. The ``--jobs`` speed-up can only be a wall-clock
figure (it is about using a second core), so it is printed with the load
average at the time; it means little when the load is above about 1.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cardgen.engine.agents import RandomAgent  # noqa: E402
from cardgen.engine.checks import run_checks  # noqa: E402
from cardgen.engine.core import Game, make_game, registered_rules, solver_for  # noqa: E402
from cardgen.engine.mechanics import game_package  # noqa: E402
from cardgen.engine.playout import play_game  # noqa: E402
from cardgen.spec.load import LoadedSpec, load_spec  # noqa: E402


@dataclass(frozen=True)
class PlayoutRate:
    """Random playouts per second by both clocks, and the mean game length."""

    cpu: float
    """Games per second of this process's CPU time (what the targets are judged on)."""
    wall: float
    """Games per second of wall-clock time (lower than ``cpu`` when other jobs share the cores)."""
    mean_length: float
    """Actions per game, chance steps included."""
    games: int


def playout_rate(loaded: LoadedSpec, players: int, seconds: float, *, check_conservation: bool = True, first_seed: int = 0) -> PlayoutRate:
    """Play uniformly random games through ``play_game`` (the path ``cardgen check`` takes) for about ``seconds`` of CPU time.

    The end-of-game conservation check runs after every playout, as in
    ``cardgen check`` (``check_conservation=False`` leaves it out, for comparison).

    Seeds run from ``first_seed`` on, so memos a game keeps between playouts
    see new deals, as a check does.
    """
    assert loaded.spec is not None
    return game_playout_rate(make_game(loaded.spec, players), seconds, check_conservation=check_conservation, first_seed=first_seed)


def game_playout_rate(game: Game, seconds: float, *, check_conservation: bool = True, first_seed: int = 0) -> PlayoutRate:
    """As :func:`playout_rate`, for a game already made (a data game, or the hand-written engine it is measured against)."""
    players = game.num_players
    agents = [RandomAgent() for _ in range(players)]
    done = actions = 0
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    while True:
        result = play_game(game, agents, first_seed + done, check_conservation=check_conservation)
        done += 1
        actions += result.length
        cpu = time.process_time() - cpu_start
        if cpu >= seconds and done >= 5:
            wall = time.perf_counter() - wall_start
            return PlayoutRate(done / cpu, done / wall, actions / done, done)


def playouts_per_second(loaded: LoadedSpec, players: int, seconds: float, clock: str = "cpu") -> tuple[float, float]:
    """(random playouts per second, mean actions per playout) over about ``seconds`` of play.

    ``clock`` is ``"cpu"`` (the default, the figure the targets are judged on)
    or ``"wall"``.
    """
    if clock not in ("cpu", "wall"):
        raise ValueError(f"clock is 'cpu' or 'wall', not {clock!r}")
    rate = playout_rate(loaded, players, seconds)
    return (rate.cpu if clock == "cpu" else rate.wall), rate.mean_length


def check_seconds(loaded: LoadedSpec, playouts: int, skill_games: int, jobs: int) -> float:
    """Wall seconds of ``run_checks`` (random playouts and a small skill ladder) with ``jobs`` worker processes."""
    started = time.perf_counter()
    run_checks(loaded, playouts=playouts, jobs=jobs, skill_games=skill_games, mcts_budget=16)
    return time.perf_counter() - started


def check_speedup(loaded: LoadedSpec, playouts: int, skill_games: int) -> tuple[float, float]:
    """Wall seconds of ``run_checks`` with 1 and with 2 worker processes (one run each)."""
    return check_seconds(loaded, playouts, skill_games, 1), check_seconds(loaded, playouts, skill_games, 2)


def solve_times(loaded: LoadedSpec, deals: int) -> tuple[int, float, float, int] | None:
    """(players, median seconds per deal, max seconds, deals proved) for the registered solver, if any."""
    assert loaded.spec is not None and loaded.spec.rules is not None
    package = game_package(loaded.spec)  # a rules module's id, or the package of a data game's mechanic (Ceramus, Ceratopsians)
    solver = solver_for(package) if package is not None else None
    if solver is None:
        return None
    players = loaded.spec.players.min
    game = make_game(loaded.spec, players)
    times = []
    proved = 0
    for seed in range(deals):
        started = time.perf_counter()
        solution = solver(game, seed)
        times.append(time.perf_counter() - started)
        proved += solution.proved
    return players, statistics.median(times), max(times), proved


def main() -> None:
    """Parse arguments, run every measurement and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="", help="Comma-separated game ids (default: every registered game under specs/).")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of random play per game and player count.")
    parser.add_argument("--no-conservation", action="store_true", help="Leave out the conservation check `cardgen check` runs after every playout (for comparison).")
    parser.add_argument("--check-playouts", type=int, default=381, help="Random playouts per player count in the speed-up run (0 skips it).")
    parser.add_argument("--check-skill", type=int, default=4, help="Skill-ladder games per rung in the speed-up run (planner budget 16).")
    parser.add_argument("--deals", type=int, default=5, help="Deals to solve per game with a solver.")
    parser.add_argument("--out", type=Path, default=None, help="Also write the figures as JSON to this file.")
    args = parser.parse_args()
    wanted = {g for g in args.games.split(",") if g}
    known = set(registered_rules())
    rows: list[dict[str, object]] = []
    for folder in sorted(p.parent for p in (ROOT / "specs").glob("*/game.yaml")):
        loaded = load_spec(folder)
        spec = loaded.spec
        if spec is None or (spec.rules_data is None and spec.rules_module not in known) or (wanted and spec.id not in wanted):
            continue
        row: dict[str, object] = {"game": spec.id, "playouts_per_second": {}, "playouts_per_wall_second": {}, "mean_length": {}}
        for players in range(spec.players.min, spec.players.max + 1):
            rate = playout_rate(loaded, players, args.seconds, check_conservation=not args.no_conservation)
            row["playouts_per_second"][players] = round(rate.cpu, 1)  # type: ignore[index]
            row["playouts_per_wall_second"][players] = round(rate.wall, 1)  # type: ignore[index]
            row["mean_length"][players] = round(rate.mean_length, 1)  # type: ignore[index]
        if args.check_playouts:
            load_before = os.getloadavg()[0]
            one, two = check_speedup(loaded, args.check_playouts, args.check_skill)
            row.update(check_jobs1_s=round(one, 2), check_jobs2_s=round(two, 2), speedup=round(one / two, 2), check_load=round(max(load_before, os.getloadavg()[0]), 2))
        solved = solve_times(loaded, args.deals) if args.deals else None
        if solved:
            players, median, worst, proved = solved
            row.update(solve_players=players, solve_median_s=round(median, 4), solve_max_s=round(worst, 4), solve_proved=f"{proved}/{args.deals}")
        rows.append(row)
        print(f"measured {spec.id}", file=sys.stderr)
    print("random playouts/s by CPU time (targets are judged on these) / by wall time, (mean actions); check speed-up is wall time, with the load average")
    print(f"{'game':<22} {'players: cpu/s / wall/s (mean actions)':<74} {'check j1 s':>10} {'j2 s':>7} {'speedup':>7} {'load':>5}  solve median (max, proved)")
    for row in rows:
        rates = row["playouts_per_second"]
        walls = row["playouts_per_wall_second"]
        lengths = row["mean_length"]
        assert isinstance(rates, dict) and isinstance(walls, dict) and isinstance(lengths, dict)
        cells = "  ".join(f"{p}p {rates[p]:.0f} / {walls[p]:.0f} ({lengths[p]:.0f})" for p in rates)
        solve = f"{row['solve_median_s']:.3f} s ({row['solve_max_s']:.3f} s, {row['solve_proved']}) at {row['solve_players']}p" if "solve_median_s" in row else "-"
        j1, j2, up, load = (row.get(k, "-") for k in ("check_jobs1_s", "check_jobs2_s", "speedup", "check_load"))
        print(f"{row['game']:<22} {cells:<74} {j1:>10} {j2:>7} {up:>7} {load:>5}  {solve}")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
