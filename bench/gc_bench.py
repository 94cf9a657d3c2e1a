"""What the command line's garbage-collector tuning buys: each command with it and without it.

``cardgen.cli.app.main`` raises the cyclic collector's thresholds
(``GC_THRESHOLDS``) and freezes the heap when the command is done. This runs
a few commands as fresh processes both ways, alternating, and prints the
median CPU time (user + system, of the child: less sensitive to other load
than wall time) and wall time of each, with the load average around the run::

    PYTHONPATH=. python bench/gc_bench.py [--reps 5]

"without" runs the same entry point with Python's default thresholds
(700, 10, 10) and no freeze. The figures belong in docs/decisions.md
("Garbage collection").
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUNNER = """
import gc, sys
import cardgen.cli.app as app
if sys.argv[1] == "without":
    app.GC_THRESHOLDS = gc.get_threshold()
    gc.freeze = lambda: None
sys.argv = ["cardgen", *sys.argv[2:]]
app.main()
"""


def commands(work: Path) -> dict[str, list[str]]:
    """The runs measured: (name, cardgen arguments)."""
    return {
        "validate ceramus --no-sim": ["validate", "ceramus", "--no-sim"],
        "build ceramus (cold, faces and print)": ["build", "ceramus", "--no-cache", "--only", "faces,print", "--out", str(work / "cold"), "--quiet"],
        "build ceramus (rebuild, cached)": ["build", "ceramus", "--only", "faces,print", "--out", str(work / "warm"), "--quiet"],
        "check ceramus --playouts 200 --jobs 1": ["check", "ceramus", "--playouts", "200", "--jobs", "1", "--skill-games", "0", "--quiet"],
    }


def run(mode: str, args: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", RUNNER, mode, *args], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"cardgen {' '.join(args)} exited {done.returncode}: {done.stderr[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="Runs of each command each way (alternating).")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="gc-bench-"))
    try:
        print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
        for name, argv in commands(work).items():
            if "rebuild" in name:
                run("with", argv)  # fill the cache once
            samples: dict[str, list[tuple[float, float]]] = {"with": [], "without": []}
            for _ in range(args.reps):
                for mode in ("with", "without"):
                    samples[mode].append(run(mode, argv))
            cpu = {m: statistics.median(c for c, _ in s) for m, s in samples.items()}
            wall = {m: statistics.median(w for _, w in s) for m, s in samples.items()}
            saved = 1 - cpu["with"] / cpu["without"] if cpu["without"] else 0.0
            print(
                f"{name}: CPU {cpu['with']:.2f} s tuned, {cpu['without']:.2f} s default ({saved:+.0%} saved); "
                f"wall {wall['with']:.2f} s / {wall['without']:.2f} s (medians of {args.reps})"
            )
        print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
