"""The whole job a user waits for: the bench job built as a process, against a bare reportlab script.

* Whole-job rows: ``bench/job`` (54 distinct poker cards, coloured frame, title,
  wrapped body text) built cold (fresh process, empty output folder, so no
  build cache; Python's bytecode and cardgen's per-user store of its own
  compiled templates are as a designer's machine has them after one run) with ``cardgen build --paper a4`` (every artefact: SVG faces, print
  sheets with sidecar and duplex test, the one-card-per-page bleed PDF, the
  rulebook, the gallery) and with ``cardgen build --only print --paper a4``
  (the print sheets alone), each against ``bench/job_floor.py``, a bare
  reportlab script printing the same cards 3x3 on A4 with crop marks from the
  same files (its docstring lists what it does not do). The three run
  interleaved, whole processes, interpreter start and imports included; each
  round gives a wall-time ratio and the figure is their median.
* Deck-size rows: the same job scaled to 54, 540 and 5,400 distinct cards
  (``bench/job_spec.py``; decks of at most 1,800 cards), each built cold with
  every artefact on A4: wall time, the child's CPU time and peak memory (max
  RSS), and for each the cost per added card between consecutive sizes.
"""

from __future__ import annotations

import itertools
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from bench_common import ROOT, Figure, Load, ProcessRun, Settings, interleaved, measured, run_cardgen, run_process
from job_spec import DECK_LIMIT, JOB, write_job

FLOOR = ROOT / "bench" / "job_floor.py"
WHOLE_JOB_TARGET = 3.0
"""Every artefact, cold, at most this many times the floor's wall time."""
PRINT_ONLY_TARGET = 2.0
"""The print sheets alone, cold, at most this many times the floor's wall time."""
DECK_TARGET_S, DECK_TARGET_MB, DECK_TARGET_CARDS = 4.0, 150.0, 5400


def _check(run: ProcessRun, what: str) -> ProcessRun:
    if run.code:
        raise RuntimeError(f"{what} exited {run.code}: {run.output[-400:]}")
    return run


def measure_job(settings: Settings, figures: list[Figure]) -> None:
    """The whole-job and print-only ratios against the floor, interleaved whole processes."""
    work = Path(tempfile.mkdtemp(prefix="cardgen-bench-job-"))
    try:

        def floor() -> ProcessRun:
            return _check(run_process([sys.executable, str(FLOOR), str(JOB), str(work / "floor.pdf")]), "the floor")

        def build(*extra: str) -> ProcessRun:
            out = work / "out"
            shutil.rmtree(out, ignore_errors=True)  # cold: no build cache
            return _check(run_cardgen(["build", str(JOB), "--out", str(out), "--paper", "a4", "--quiet", *extra]), "cardgen build")

        def stack_floor(stack: str) -> ProcessRun:
            command = [sys.executable, str(FLOOR), str(JOB), str(work / f"floor-{stack}.pdf"), "--import-stack", stack]
            return _check(run_process(command), f"the floor importing the {stack} stack")

        kept = interleaved(
            settings,
            {
                "floor": floor,
                "all": build,
                "all-one": lambda: build("--jobs", "1"),
                "print": lambda: build("--only", "print"),
                "stack-print": lambda: stack_floor("print"),
                "stack-all": lambda: stack_floor("all"),
            },
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    floors: list[tuple[ProcessRun, Load]] = kept["floor"]
    for key, name, target in (
        ("all", "whole job, 54 cards: cold `cardgen build --paper a4`, every artefact, vs bare reportlab floor printing the sheets only (wall ratio)", WHOLE_JOB_TARGET),
        ("all-one", "whole job, 54 cards: the same in one process (`--jobs 1`), vs bare reportlab floor (wall ratio)", None),
        ("print", "whole job, 54 cards: cold `cardgen build --only print --paper a4` vs bare reportlab floor (wall ratio)", PRINT_ONLY_TARGET),
    ):
        runs = kept[key]
        figure = Figure(name, "x", target, "lower")
        figure.samples = [run.wall / base.wall for (run, _), (base, _) in zip(runs, floors)]
        figure.cpu = [run.cpu for run, _ in runs]
        figure.loads = [load for _, load in runs] + [load for _, load in floors]
        cpu_ratio = statistics.median(run.cpu / base.cpu for (run, _), (base, _) in zip(runs, floors))
        figure.note = (
            f"cardgen wall median {statistics.median(r.wall for r, _ in runs):.3f} s, floor {statistics.median(b.wall for b, _ in floors):.3f} s;"
            f" CPU ratio {cpu_ratio:.2f}x; peak memory {statistics.median(r.max_rss_mb for r, _ in runs):.0f} MB"
            f" (floor {statistics.median(b.max_rss_mb for b, _ in floors):.0f} MB); {figure.load_note()}"
        )
        figures.append(figure)
    # The same job with the libraries cardgen loads imported first: what any program on cardgen's stack pays at least.
    # Against the bare floor it tells how much of each target the imports alone take; cardgen against it, what
    # cardgen's own code (its modules, validation, layout, the other artefacts) adds.
    for key, build_key, stack_name, target in (
        ("stack-print", "print", "typer, pydantic, Babel's numbers", PRINT_ONLY_TARGET),
        ("stack-all", "all", "typer, pydantic, Babel, Jinja2, reportlab's page layout", WHOLE_JOB_TARGET),
    ):
        stacks = kept[key]
        figure = Figure(
            f"whole job, 54 cards: bare floor that first imports the libraries `cardgen build{' --only print' if build_key == 'print' else ''}` loads ({stack_name}), vs bare floor (wall ratio)",
            "x", None, "lower",
        )
        figure.samples = [run.wall / base.wall for (run, _), (base, _) in zip(stacks, floors)]
        figure.cpu = [run.cpu for run, _ in stacks]
        figure.loads = [load for _, load in stacks] + [load for _, load in floors]
        own = [run.wall / stack.wall for (run, _), (stack, _) in zip(kept[build_key], stacks)]
        figure.note = (
            f"stack floor wall median {statistics.median(r.wall for r, _ in stacks):.3f} s; the imports alone take"
            f" {statistics.median(figure.samples) - 1:.2f}x of the {target - 1:.2f}x the target allows above the bare floor;"
            f" cardgen {'--only print' if build_key == 'print' else 'every artefact'} is {statistics.median(own):.2f}x this stack floor; {figure.load_note()}"
        )
        figures.append(figure)
    floor_figure = Figure("whole job, 54 cards: bare reportlab floor, whole process (wall)", "s", None, "lower")
    floor_figure.samples = [b.wall for b, _ in floors]
    floor_figure.cpu = [b.cpu for b, _ in floors]
    floor_figure.loads = [load for _, load in floors]
    floor_figure.note = floor_figure.load_note()
    figures.append(floor_figure)


def per_card_slopes(points: dict[int, float], scale: float = 1.0) -> list[tuple[int, int, float]]:
    """(smaller deck, larger deck, cost of each added card) between consecutive deck sizes, times ``scale``.

    ``points`` maps a deck size to a median (seconds, or MB); the slope is the
    difference of the medians over the difference of the sizes, so a build
    growing linearly with the deck has the same slope between every pair.
    """
    sizes = sorted(points)
    return [(a, b, (points[b] - points[a]) / (b - a) * scale) for a, b in zip(sizes, sizes[1:])]


def slope_text(slopes: list[tuple[int, int, float]], unit: str) -> str:
    """``54->540: 1.23 ms/card, 540->5,400: 1.40 ms/card (1.14x the first step)``: the slopes and how far they drift."""
    parts = [f"{a:,}->{b:,}: {slope:.2f} {unit}/card" for a, b, slope in slopes]
    text = ", ".join(parts)
    if len(slopes) >= 2 and slopes[0][2] > 0:
        text += f" (last step {slopes[-1][2] / slopes[0][2]:.2f}x the first: 1.00x is linear)"
    return text


def measure_deck_sizes(settings: Settings, figures: list[Figure]) -> None:
    """Cold builds of the job at each deck size: wall time, CPU time and peak memory, and the cost of each added card.

    Three rows per size: wall time (the issue's target at 5,400 cards), CPU
    time of the child (what the machine's other users do not change much) and
    peak memory (max RSS). The last size's rows note the slope per added card
    between consecutive sizes for each of the three, and how far the last
    step's slope is from the first (linear growth keeps it near 1).
    """
    work = Path(tempfile.mkdtemp(prefix="cardgen-bench-decks-"))
    walls: dict[int, float] = {}
    cpus: dict[int, float] = {}
    peaks: dict[int, float] = {}
    rows: dict[str, Figure] = {}
    try:
        for size in settings.deck_sizes:
            folder = write_job(work / f"spec{size}", size)
            runs = itertools.count()

            def once(*extra: str) -> tuple[ProcessRun, Load]:
                # Cold: a new, empty output folder each run. The earlier runs' folders are removed only at the end:
                # removing thousands of files just before a run made the run's own file creation cost up to 3 s of
                # kernel time on ext4 without a journal (its allocator skips recently freed inodes one by one).
                out = work / f"out{size}-{next(runs)}"
                command = ["build", str(folder), "--out", str(out), "--paper", "a4", "--quiet", *extra]
                run, load = measured(lambda: run_cardgen(command))
                return _check(run, f"cardgen build of {size} cards"), load

            for _ in range(settings.warmup if size < 1000 else 0):  # the big decks take seconds: no warm-up run
                once()
            target = size == DECK_TARGET_CARDS
            results: list[tuple[ProcessRun, Load]] = []
            one_process: list[tuple[ProcessRun, Load]] = []
            for _ in range(settings.reps):  # at the target size, interleaved with the same build in one process
                results.append(once())
                if target:
                    one_process.append(once("--jobs", "1"))
            wall = Figure(f"deck size: {size:,} distinct cards, cold `cardgen build --paper a4`, every artefact (wall)", "s", DECK_TARGET_S if target else None, "lower")
            cpu = Figure(f"deck size: {size:,} distinct cards, CPU time of the build process and its workers", "s", None, "lower")
            memory = Figure(f"deck size: {size:,} distinct cards, peak memory (max RSS of the largest process)", "MB", DECK_TARGET_MB if target else None, "lower")
            wall.samples = [r.wall for r, _ in results]
            wall.cpu = cpu.cpu = cpu.samples = [r.cpu for r, _ in results]
            wall.loads = cpu.loads = memory.loads = [load for _, load in results]
            memory.samples = [r.max_rss_mb for r, _ in results]
            walls[size] = statistics.median(wall.samples)
            cpus[size] = statistics.median(cpu.samples)
            peaks[size] = statistics.median(memory.samples)
            wall.note = cpu.note = memory.note = wall.load_note()
            # The kernel's share: creating a deck's thousands of files costs from 0.1 s to 3 s of system time on
            # the same machine (see docs/decisions.md, "Deck size": ext4 without a journal after many deletions).
            cpu.note += f"; of which system (kernel) time median {statistics.median(r.system for r, _ in results):.2f} s"
            decks = (size + DECK_LIMIT - 1) // DECK_LIMIT
            if decks > 1:
                wall.note += f"; {decks} decks of at most {DECK_LIMIT:,} cards (the split the first figures used; a deck may hold 20,000)"
            figures += [wall, cpu, memory]
            rows = {"wall": wall, "cpu": cpu, "memory": memory}
            if one_process:
                alone = Figure(f"deck size: {size:,} distinct cards, the same build in one process (`--jobs 1`) (wall)", "s", None, "lower")
                alone.samples = [r.wall for r, _ in one_process]
                alone.cpu = [r.cpu for r, _ in one_process]
                alone.loads = [load for _, load in one_process]
                alone.note = f"peak memory {statistics.median(r.max_rss_mb for r, _ in one_process):.0f} MB; {alone.load_note()}"
                figures.append(alone)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if len(walls) >= 2:
        rows["wall"].note += "; wall time per added card " + slope_text(per_card_slopes(walls, 1000.0), "ms")
        rows["cpu"].note += "; CPU time per added card " + slope_text(per_card_slopes(cpus, 1000.0), "ms")
        rows["memory"].note += "; peak memory per added card " + slope_text(per_card_slopes(peaks, 1024.0), "KB")


def measure_startup(settings: Settings, figures: list[Figure]) -> None:
    """``cardgen --help`` and ``cardgen validate bench/job`` (a small spec, no rules: nothing to simulate), whole processes.

    No targets: the issue's start-up target is about what these import, which
    ``tests/test_imports.py`` checks; the times are printed for information.
    """
    for name, args in (
        ("start-up: `cardgen --help`, whole process (wall)", ["--help"]),
        ("start-up: `cardgen validate bench/job` (54 cards, no rules), whole process (wall)", ["validate", str(JOB)]),
    ):
        figure = Figure(name, "s", None, "lower")
        results: list[tuple[ProcessRun, Load]] = []
        for index in range(settings.warmup + settings.reps):
            run, load = measured(lambda: run_cardgen(args))
            if run.code not in (0, 1):
                figure.error = f"exit code {run.code}: {run.output[-300:]}"
                break
            if index >= settings.warmup:
                results.append((run, load))
        figure.samples = [r.wall for r, _ in results]
        figure.cpu = [r.cpu for r, _ in results]
        figure.loads = [load for _, load in results]
        if results:
            figure.note = f"peak memory {statistics.median(r.max_rss_mb for r, _ in results):.0f} MB; {figure.load_note()}"
        figures.append(figure)
