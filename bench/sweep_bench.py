"""Sweep benchmark: one sweep on one process, two processes and a two-worker Dask LocalCluster.

Run from the project root::

    python bench/sweep_bench.py [--game mausoleum-guardians] [--vary numbers.set_points=5..12 --vary numbers.multi_set_bonus=1..8]
                                [--playouts 381] [--skill-games 2] [--players N] [--out bench/sweep_results.json]

By default it sweeps 64 variants of Mausoleum Guardians (set_points 5..12 times
multi_set_bonus 1..8) at 381 playouts per variant and player count, every
supported player count, with a skill ladder of 2 games per rung. It runs the
same sweep with ``--executor local --jobs 1``, ``--executor local --jobs 2``
and ``--executor dask`` on a LocalCluster of two workers, checks that the
three give the same records bit for bit (the sha256 of their canonical JSON),
and prints wall and CPU time of each and the speed-up of two workers over one.

The speed-up is a wall-clock figure (it is about using a second core), printed
with the load average before and after: on a shared machine it means little
when the load is above about 1. The Dask figure includes starting the
LocalCluster (about two seconds), as a designer's run would.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cardgen.spec.load import find_spec_folder  # noqa: E402
from cardgen.sweep.executors import DaskExecutor, Executor, LocalExecutor  # noqa: E402
from cardgen.sweep.run import SweepPlan, canonical_json, plan_sweep, run_sweep  # noqa: E402
from cardgen.sweep.variants import parse_varies  # noqa: E402
from cardgen.sweep.work import CheckSettings  # noqa: E402

DEFAULT_VARY = ("numbers.set_points=5..12", "numbers.multi_set_bonus=1..8")


def loadavg() -> str:
    """The 1-, 5- and 15-minute load averages."""
    try:
        return " ".join(Path("/proc/loadavg").read_text(encoding="utf-8").split()[:3])
    except OSError:
        return "n/a"


def _cpu() -> float:
    """CPU seconds of this process and its finished children."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(plan: SweepPlan, make: Callable[[], Executor]) -> dict[str, object]:
    """Run the sweep once on a fresh executor: wall and CPU seconds, the records' digest."""
    load_before = loadavg()
    wall, cpu = time.perf_counter(), _cpu()
    executor = make()
    try:
        records = run_sweep(plan, executor)
    finally:
        executor.close()
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    digest = hashlib.sha256(canonical_json(records).encode("utf-8")).hexdigest()
    refused = sum(1 for r in records if r["status"] != "played")
    return {
        "executor": executor.name, "workers": executor.workers, "wall_s": round(wall, 2), "cpu_s_here": round(cpu, 2),
        "variants": len(records), "refused": refused, "sha256": digest, "load_before": load_before, "load_after": loadavg(),
    }


def main() -> None:
    """Parse the options, run the three sweeps, print and optionally save the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="mausoleum-guardians")
    parser.add_argument("--vary", action="append", default=None)
    parser.add_argument("--playouts", type=int, default=381)
    parser.add_argument("--skill-games", type=int, default=2)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    settings = CheckSettings((args.players,) if args.players else (), args.playouts, "random", args.skill_games, 48, 0)
    plan = plan_sweep(find_spec_folder(args.game), parse_varies(args.vary or list(DEFAULT_VARY)), settings)
    print(f"{args.game}: {len(plan.grid)} variants x {args.playouts} playouts per player count, skill ladder {args.skill_games} game(s) per rung; cores: {os.cpu_count()}")
    runs = []
    for label, make in (
        ("local, 1 process", lambda: LocalExecutor(1)),
        ("local, 2 processes", lambda: LocalExecutor(2)),
        ("dask LocalCluster, 2 workers", lambda: DaskExecutor(None, 2)),
    ):
        run = timed(plan, make)
        run["label"] = label
        runs.append(run)
        print(f"  {label:<30} wall {run['wall_s']:>7.2f} s  (load {run['load_before']} -> {run['load_after']})  records sha256 {str(run['sha256'])[:16]}")
    same = len({r["sha256"] for r in runs}) == 1
    one = float(str(runs[0]["wall_s"]))
    speedups = {str(r["label"]): round(one / float(str(r["wall_s"])), 2) for r in runs[1:]}
    print(f"  identical records on every executor: {'yes' if same else 'NO'}")
    for label, value in speedups.items():
        print(f"  speed-up of {label} over one process: {value:.2f}x")
    if args.out:
        args.out.write_text(json.dumps({"game": args.game, "vary": args.vary or list(DEFAULT_VARY), "settings": settings.as_json(), "runs": runs, "identical": same, "speedups": speedups}, indent=1) + "\n", encoding="utf-8")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
