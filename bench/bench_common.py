"""What every benchmark module shares: the figure record, settings, whole-process runs, the load on the machine.

The machine may be shared, so every whole-process run records the load around
it (:class:`Load`): the 1-minute load average read just before and just after,
and how many *other* processes were runnable at those moments (the count in
``/proc/loadavg`` minus this reader, sampled a few times). A figure with a run
taken while the machine was busy (:func:`busy`) is marked unreliable in its
name's note and in the JSON (``"reliable": false``).

Comparisons (cardgen against a floor, ``--jobs 1`` against ``--jobs 2``) are
*interleaved* (:func:`interleaved`): each round runs every contender once, in
an order that rotates from round to round, so a burst of load from someone
else hits all of them alike; each round gives one ratio, and the figure is the
median of those ratios.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
BUSY_LOAD_PER_CPU = 0.75
"""A 1-minute load average above this many per CPU, read before or after a run, marks the run busy."""
BUSY_OTHERS = 0.5
"""Other runnable processes (averaged over the samples before and after a run) above this mark the run busy."""


@dataclass
class Load:
    """The machine's load around one run."""

    before: float
    after: float
    others_before: float
    others_after: float

    def as_json(self) -> dict[str, float]:
        """The JSON record (rounded)."""
        return {k: round(v, 2) for k, v in vars(self).items()}

    def text(self) -> str:
        """``load 0.41->0.88 (others 0.0/0.2)``."""
        return f"load {self.before:.2f}->{self.after:.2f} (others runnable {self.others_before:.1f}/{self.others_after:.1f})"


def load_average() -> float:
    """The 1-minute load average (0 where the system does not give one)."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def others_runnable(samples: int = 5, gap: float = 0.02) -> float:
    """Mean number of runnable processes besides this one, from ``/proc/loadavg`` (0 where it does not exist)."""
    counts = []
    for index in range(samples):
        try:
            with open("/proc/loadavg", encoding="ascii") as handle:
                running = int(handle.read().split()[3].split("/")[0])
        except (OSError, ValueError, IndexError):
            return 0.0
        counts.append(max(0, running - 1))
        if index + 1 < samples:
            time.sleep(gap)
    return statistics.mean(counts)


def busy(loads: list[Load]) -> bool:
    """Whether any of these runs happened on a busy machine (see :data:`BUSY_LOAD_PER_CPU`, :data:`BUSY_OTHERS`)."""
    limit = BUSY_LOAD_PER_CPU * (os.cpu_count() or 1)
    return any(
        max(load.before, load.after) > limit or (load.others_before + load.others_after) / 2 > BUSY_OTHERS for load in loads
    )


def measured(run: Callable[[], Any]) -> tuple[Any, Load]:
    """``run()``'s result with the load read just before and just after it."""
    before, others_before = load_average(), others_runnable()
    result = run()
    return result, Load(before, load_average(), others_before, others_runnable())


@dataclass
class Figure:
    """One row of the table."""

    name: str
    unit: str
    target: float | None
    better: str  # "lower" or "higher"
    samples: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    """CPU seconds per sample, where that means something."""
    note: str = ""
    error: str = ""
    loads: list[Load] = field(default_factory=list)
    """The load around each run behind the samples, where recorded."""

    @property
    def median(self) -> float | None:
        """Median of the samples."""
        return statistics.median(self.samples) if self.samples else None

    @property
    def reliable(self) -> bool | None:
        """False when a run behind it happened on a busy machine; None when no load was recorded."""
        return None if not self.loads else not busy(self.loads)

    @property
    def met(self) -> bool | None:
        """Whether the median meets the target (None without target or samples)."""
        if self.target is None or self.median is None:
            return None
        return self.median <= self.target if self.better == "lower" else self.median >= self.target

    def load_note(self) -> str:
        """The range of load averages seen around the runs, and the verdict."""
        if not self.loads:
            return ""
        low = min(min(x.before, x.after) for x in self.loads)
        high = max(max(x.before, x.after) for x in self.loads)
        others = max(max(x.others_before, x.others_after) for x in self.loads)
        verdict = "UNRELIABLE: machine busy" if busy(self.loads) else "machine quiet"
        return f"load average {low:.2f}-{high:.2f}, others runnable up to {others:.1f} ({verdict})"

    def as_json(self) -> dict[str, Any]:
        """The JSON record."""
        return {
            "figure": self.name,
            "unit": self.unit,
            "median": self.median,
            "min": min(self.samples) if self.samples else None,
            "max": max(self.samples) if self.samples else None,
            "samples": self.samples,
            "cpu_s": self.cpu,
            "target": self.target,
            "target_is": "max" if self.better == "lower" else "min",
            "met": self.met,
            "reliable": self.reliable,
            "loads": [load.as_json() for load in self.loads],
            "note": self.note,
            "error": self.error,
        }


@dataclass
class Settings:
    """How hard to measure."""

    reps: int
    warmup: int
    playout_seconds: float
    check_playouts: int
    check_skill_games: int
    check_full: bool
    deals: int
    deck_sizes: tuple[int, ...] = (54, 540, 5400)


def repeat(settings: Settings, once: Callable[[], Any]) -> list[Any]:
    """Run ``once`` warm-up times (discarded), then ``reps`` times; return the kept results."""
    for _ in range(settings.warmup):
        once()
    return [once() for _ in range(settings.reps)]


def interleaved(settings: Settings, contenders: dict[str, Callable[[], Any]]) -> dict[str, list[tuple[Any, Load]]]:
    """Run every contender once per round, the order rotating each round; warm-up rounds first (discarded).

    Returns, per contender, each kept round's result with the load around it.
    """
    names = list(contenders)
    kept: dict[str, list[tuple[Any, Load]]] = {name: [] for name in names}
    for round_index in range(settings.warmup + settings.reps):
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            outcome = measured(contenders[name])
            if round_index >= settings.warmup:
                kept[name].append(outcome)
    return kept


@dataclass
class ProcessRun:
    """A finished child process: wall and CPU seconds, peak resident memory in MB, exit code."""

    wall: float
    cpu: float
    max_rss_mb: float
    code: int
    output: str
    system: float = 0.0
    """The part of ``cpu`` spent in the kernel on the child's behalf (creating files, mostly)."""


def child_env() -> dict[str, str]:
    """The environment of a measured child: this checkout first on the path, Python's default bytecode caching."""
    env = dict(os.environ)
    # Python's default: a module's compiled bytecode is written on first import and read afterwards, as on a
    # designer's machine. (Some shells set PYTHONDONTWRITEBYTECODE; under it every run would compile cardgen anew.)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def run_process(argv: list[str], cwd: Path = ROOT) -> ProcessRun:
    """Run ``argv`` in a fresh process, measured through os.wait4."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(argv, cwd=cwd, env=child_env(), stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        output = log.read().decode("utf-8", "replace")
    return ProcessRun(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, process.returncode, output, usage.ru_stime)


def run_cardgen(args: list[str], cwd: Path = ROOT) -> ProcessRun:
    """``python -m cardgen ARGS`` in a fresh process, measured through os.wait4."""
    return run_process([sys.executable, "-m", "cardgen", *args], cwd)
