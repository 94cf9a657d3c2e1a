"""How busy this machine's processors are: what decides whether a run starts worker processes.

Both the playout runner (:mod:`cardgen.engine.parallel`) and the build's
worker pool (:mod:`cardgen.build_parts`) start a worker only on a processor
that stood idle, read from the kernel's counters (``/proc/stat``).
"""

from __future__ import annotations

import os


def usable_processors() -> int:
    """The processors this process may run on (its affinity where the system says, else every one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


CpuSample = tuple[int, int]
"""The idle and total time of every processor of the machine, in the kernel's clock ticks."""


def cpu_sample() -> CpuSample | None:
    """This machine's idle and total processor time so far (``/proc/stat``), None where the kernel does not say."""
    try:
        with open("/proc/stat", "rb") as handle:
            fields = handle.readline().split()
    except OSError:
        return None
    if len(fields) < 5 or fields[0] != b"cpu":
        return None
    try:
        ticks = [int(value) for value in fields[1:9]]  # user nice system idle iowait irq softirq steal
    except ValueError:
        return None
    return ticks[3] + ticks[4], sum(ticks)


def idle_processors(before: CpuSample | None, after: CpuSample | None, processors: int) -> float | None:
    """How many of ``processors`` stood idle, on average, between two samples (None: not known)."""
    if before is None or after is None or after[1] <= before[1]:
        return None
    return processors * (after[0] - before[0]) / (after[1] - before[1])


def workers_to_start(idle: float | None, allowed: int) -> int:
    """How many more workers to start when ``idle`` processors stand idle and ``allowed`` may still start.

    A worker runs only on a processor nobody else wants: on a machine already busy, a second process of
    the same session gets no more processor time (Linux shares it between sessions, not processes, when
    autogroup scheduling is on, as on most desktops), so starting one would only add its start-up and the
    results' transport to the run. Where the idle time is not known, every allowed worker starts.
    """
    if idle is None:
        return allowed
    return max(0, min(allowed, int(idle + 0.5)))
