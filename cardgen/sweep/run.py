"""A sweep: every variant of a grid checked on an executor, its records kept in a results file as they arrive.

The results file is JSON lines: a header naming the spec (its digest), the
varied numbers and the check's settings, then one line per finished variant
(``{"index": i, "record": {...}}``), flushed as each arrives. An interrupted
sweep keeps every finished variant; :func:`run_sweep` with ``resume`` reads
the file back (a line cut short by the interruption is dropped), refuses a
file made by another sweep, and plays only what is missing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from cardgen.findings import InputError, display_path
from cardgen.progress import ProgressHook
from cardgen.sweep.executors import Executor
from cardgen.sweep.variants import Overrides, SpecSource, Vary, apply_overrides, read_source, variant_grid
from cardgen.sweep.work import CheckSettings, Record, VariantJob, run_variant

RESULTS_KIND = "cardgen-sweep-results"
RESULTS_VERSION = 1


@dataclass(frozen=True)
class SweepPlan:
    """What to check: the spec's bytes, the varied numbers, every combination, the settings."""

    source: SpecSource
    varies: tuple[Vary, ...]
    grid: tuple[Overrides, ...]
    settings: CheckSettings
    modules: tuple[str, ...] = ()

    def header(self) -> dict[str, object]:
        """The results file's first line: what makes its records comparable."""
        return {
            "kind": RESULTS_KIND,
            "version": RESULTS_VERSION,
            "game": self.source.folder_name,
            "spec_digest": self.source.digest,
            "vary": [v.as_text() for v in self.varies],
            "settings": self.settings.as_json(),
        }

    def job(self, overrides: Overrides) -> VariantJob:
        """The job checking one variant."""
        return VariantJob(self.source, overrides, self.settings, self.modules)


def rules_modules_of(folder: Path) -> tuple[str, ...]:
    """Modules a worker must import for the spec's rules to be registered (empty for the shipped games)."""
    from cardgen.engine.parallel import rules_modules
    from cardgen.spec.load import load_spec

    loaded = load_spec(folder)
    rules = loaded.spec.rules_module if loaded.spec is not None else None
    return tuple(rules_modules(rules)) if rules else ()


def plan_sweep(folder: Path, varies: Sequence[Vary], settings: CheckSettings) -> SweepPlan:
    """Read the spec folder and lay out the grid; an unknown number is an :class:`InputError`."""
    source = read_source(folder)
    grid = variant_grid(varies)
    if grid:
        apply_overrides(source, grid[0])  # names every number the spec lacks before anything runs
    return SweepPlan(source, tuple(varies), tuple(grid), settings, rules_modules_of(folder))


def read_results(path: Path, header: dict[str, object]) -> dict[int, Record]:
    """Finished records of an earlier run of the same sweep (by index); an unfinished last line is dropped."""
    shown = display_path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read the results file: {error}", shown) from error
    if not lines:
        return {}
    try:
        found = json.loads(lines[0])
    except json.JSONDecodeError as error:
        raise InputError(f"not a sweep results file: {error}", shown, 1, 1) from error
    if found != header:
        raise InputError("the results file was written by another sweep (other spec, --vary or settings); name a new --results file", shown, 1, 1)
    done: dict[int, Record] = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            item = json.loads(line)
            done[int(item["index"])] = item["record"]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            if number == len(lines):
                break  # cut short by an interruption: played again
            raise InputError("damaged line in the results file", shown, number, 1) from None
    return done


class ResultsFile:
    """The results file, appended one flushed line per finished variant."""

    def __init__(self, path: Path, header: dict[str, object], keep: dict[int, Record]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        with tmp.open("w", encoding="utf-8") as handle:  # rewritten whole, so a torn last line is gone
            handle.write(json.dumps(header, sort_keys=True) + "\n")
            for index in sorted(keep):
                handle.write(_line(index, keep[index]))
        os.replace(tmp, path)
        self._handle = path.open("a", encoding="utf-8")

    def add(self, index: int, record: Record) -> None:
        """Append one record and push it to the disk."""
        self._handle.write(_line(index, record))
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        """Close the file."""
        self._handle.close()


def _line(index: int, record: Record) -> str:
    return json.dumps({"index": index, "record": record}, sort_keys=True, ensure_ascii=False) + "\n"


def run_sweep(
    plan: SweepPlan,
    executor: Executor,
    results: Path | None = None,
    *,
    resume: bool = False,
    progress: ProgressHook | None = None,
    on_record: Callable[[int, Record], None] | None = None,
) -> list[Record]:
    """Check every variant of ``plan`` on ``executor``; records in grid order.

    With ``results``, each record is appended to that file as it arrives; with
    ``resume``, the variants already in it are not played again. Without
    ``resume`` an existing file is replaced.
    """
    header = plan.header()
    done = read_results(results, header) if results is not None and resume else {}
    missing = [i for i in range(len(plan.grid)) if i not in done]
    if progress is not None:
        progress.start(len(plan.grid), f"{plan.source.folder_name}: variants")
        if done:
            progress.advance(len(done))
    out = ResultsFile(results, header, done) if results is not None else None
    try:
        jobs = [plan.job(plan.grid[i]) for i in missing]
        for position, record in executor.run(run_variant, jobs):
            index = missing[position]
            done[index] = record
            if out is not None:
                out.add(index, record)
            if on_record is not None:
                on_record(index, record)
            if progress is not None:
                progress.advance(1)
    finally:
        if out is not None:
            out.close()
    return [done[i] for i in range(len(plan.grid))]


def canonical_json(records: Sequence[Record]) -> str:
    """Records as canonical JSON: two sweeps agree bit for bit exactly when these strings are equal."""
    return json.dumps(list(records), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
