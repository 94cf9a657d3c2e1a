"""Check the exact solvers on many full deals, with what independent checks are feasible at full size.

    python bench/solvers.py [--game ceratopsians|ceramus|all] [--deals N] [--start SEED]

Ceratopsians, per deal:

* solve the deal (perfect information) and replay the line through the engine: it must reach the value;
* the last ``--tail`` drafts of the line, from the position the line reaches: the solver's value must
  equal plain minimax through the engine (no bound, no table: tests/games/ceratopsians_solver_reference.py);
* every position on the line: for each card in the boneyard, the gain bound must not be below the
  exact gain of drafting it (values by the display search);
* the value under the players' information at ``--tail`` drafts from the end (the solver's note).

Ceramus (solo), per deal: solve, replay (done inside the solver), the root bound must not be below
the value, and on the line's last turns (two Shape cards or fewer in hand) both bounds must not be
below plain enumeration of every turn.

Prints the figures and the load average; nothing is asserted here (the tests do that on reduced
instances), but every disagreement is counted and listed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "games"))

from cardgen.engine.core import make_game  # noqa: E402
from cardgen.spec.load import load_spec  # noqa: E402


def _load(game_id: str, players: int):  # type: ignore[no-untyped-def]
    loaded = load_spec(ROOT / "specs" / game_id)
    assert loaded.spec is not None
    return make_game(loaded.spec, players)


def _loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def bench_ceratopsians(deals: int, start: int, tail: int) -> dict[str, object]:
    from ceratopsians_solver_reference import minimax

    from cardgen.games.ceratopsians.information import information_value
    from cardgen.games.ceratopsians.solver import DealSearch, gain_bound, solve_state

    game = _load("ceratopsians", 2)
    scorer = game.scorer
    total = 2 * game.drafts_per_player
    errors: list[str] = []
    times: list[float] = []
    nodes: list[int] = []
    bound_checks = 0
    tight = 0
    gaps: list[float] = []
    values: list[int] = []
    started = time.process_time()
    wall = time.perf_counter()
    for seed in range(start, start + deals):
        state = game.new_initial_state(seed)
        t0 = time.process_time()
        try:
            value, actions, searched = solve_state(state)
        except RuntimeError as error:
            errors.append(f"seed {seed}: {error}")
            continue
        times.append(time.process_time() - t0)
        nodes.append(searched)
        values.append(value)
        walk = state.clone()
        for ply, action in enumerate(actions):
            for f in DealSearch(walk).bone0:
                if f < 0:
                    continue
                mine = walk.collections[walk.drafts & 1]
                gain = scorer.search(mine + [f])[0] - scorer.search(mine)[0]
                bound = gain_bound(scorer, f, mine)
                bound_checks += 1
                tight += gain == bound
                if gain > bound:
                    errors.append(f"seed {seed} ply {ply}: gain {gain} above the bound {bound}")
            if ply == total - tail:
                exact = minimax(walk)
                found = solve_state(walk)[0]
                if exact != found:
                    errors.append(f"seed {seed}: {tail} drafts from the end, minimax {exact}, solver {found}")
                gaps.append(float(information_value(walk)) - found)
            walk.apply_action(action)
        first, second = walk.scores()
        if not walk.is_terminal() or first - second != value:
            errors.append(f"seed {seed}: the line reaches {first - second}, not {value}")
        done = seed - start + 1
        if done % 100 == 0:
            print(f"  ... {done} deals, {len(errors)} disagreements, {bound_checks} bound checks, {len(gaps)} endgames", flush=True)
    return {
        "game": "ceratopsians",
        "deals": deals,
        "disagreements": len(errors),
        "errors": errors[:20],
        "mean value (P1 margin, perfect information)": round(statistics.fmean(values), 3) if values else None,
        "median solve CPU s": round(statistics.median(times), 4) if times else None,
        "max solve CPU s": round(max(times), 3) if times else None,
        "median positions": statistics.median(nodes) if nodes else None,
        "gain-bound checks": bound_checks,
        "gain bound exact": tight,
        f"endgames ({tail} drafts) checked by minimax": len(gaps),
        "mean (players' information - perfect information) at that point": round(statistics.fmean(gaps), 3) if gaps else None,
        "CPU s": round(time.process_time() - started, 1),
        "wall s": round(time.perf_counter() - wall, 1),
        "loadavg": _loadavg(),
    }


def bench_ceramus(deals: int, start: int) -> dict[str, object]:
    from ceramus_solver_reference import exhaustive  # also puts tests/ on the path, for the reference engine
    from reference.ceramus import REVEAL, CeramusGame, dealt_like, solve_fast

    from cardgen.games.ceramus.solo_search import SoloSearch
    from cardgen.games.ceramus.solver import solve_state

    game = _load("ceramus", 1)
    reference_game = CeramusGame(game.spec, 1)
    errors: list[str] = []
    times: list[float] = []
    values: list[float] = []
    checked = 0
    started = time.process_time()
    wall = time.perf_counter()
    for seed in range(start, start + deals):
        state = game.new_initial_state(seed)
        t0 = time.process_time()
        try:
            solution = solve_state(state)  # the shipped game (rules data); replays its line and raises if it misses the value
        except RuntimeError as error:
            errors.append(f"seed {seed}: {error}")
            continue
        times.append(time.process_time() - t0)
        values.append(solution.value)
        reference = dealt_like(reference_game, state)  # the same deal on the former engine, for the enumerations below
        on_reference = solve_fast(reference)
        if on_reference.value != solution.value:
            errors.append(f"seed {seed}: {solution.value} on the data game, {on_reference.value} on the reference")
        search = SoloSearch(reference)
        if not search.is_over(search.root) and search.bound(search.root) < solution.value:
            errors.append(f"seed {seed}: root bound {search.bound(search.root)} below the value {solution.value}")
        walk = reference.clone()
        for action in on_reference.actions:
            if walk.phase == REVEAL and bin(walk.hands[0]).count("1") <= 2:
                late = SoloSearch(walk)
                if not late.is_over(late.root):
                    exact = exhaustive(walk)
                    checked += 1
                    for name, bound in (("bound", late.bound(late.root)), ("quick bound", late.quick_bound(late.root))):
                        if bound < exact:
                            errors.append(f"seed {seed}: {name} {bound} below enumeration {exact}")
            walk.apply_action(action)
    return {
        "game": "ceramus (solo)",
        "deals": deals,
        "disagreements": len(errors),
        "errors": errors[:20],
        "mean value": round(statistics.fmean(values), 3) if values else None,
        "median solve CPU s": round(statistics.median(times), 4) if times else None,
        "max solve CPU s": round(max(times), 3) if times else None,
        "late positions checked by enumeration": checked,
        "CPU s": round(time.process_time() - started, 1),
        "wall s": round(time.perf_counter() - wall, 1),
        "loadavg": _loadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=("ceratopsians", "ceramus", "all"), default="all")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--tail", type=int, default=5, help="Ceratopsians: drafts from the end checked by minimax")
    args = parser.parse_args()
    print(f"load average at start: {_loadavg()}")
    reports = []
    if args.game in ("ceratopsians", "all"):
        reports.append(bench_ceratopsians(args.deals, args.start, args.tail))
    if args.game in ("ceramus", "all"):
        reports.append(bench_ceramus(args.deals, args.start))
    for report in reports:
        print()
        for key, value in report.items():
            if key == "errors":
                for line in value:  # type: ignore[attr-defined]
                    print(f"  ! {line}")
            else:
                print(f"{key}: {value}")


if __name__ == "__main__":
    main()
