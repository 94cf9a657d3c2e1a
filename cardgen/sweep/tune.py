"""Tuning: search the varied numbers for the best objective with Optuna.

Optuna's TPE sampler proposes values inside the ``--vary`` ranges (whole
numbers on their steps), a batch at a time through its ask-and-tell
interface; the batch is checked on the sweep's executor like any other
variants, and the scores are told back in the order the trials were asked.
With a fixed seed and batch size, the trials, and so the answer, are the
same whatever the executor and the number of workers. The spec's own values
are the first trial (when they lie in the ranges), so the answer always shows
what it improves on. A variant the validator refuses is a failed trial.

Objectives (higher is better), averaged over the player counts checked:

* ``balance``: 1 minus the widest gap between two seats' win shares;
* ``decisiveness``: the share of games with a sole winner (1 minus the tie rate);
* ``length:MIN..MAX``: minus how far the mean game length (actions) lies
  outside MIN..MAX (0 when inside).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from cardgen.findings import InputError
from cardgen.progress import ProgressHook
from cardgen.sweep.executors import Executor
from cardgen.sweep.run import ResultsFile, SweepPlan, read_results
from cardgen.sweep.variants import Overrides, canonical, spec_patch, variant_label
from cardgen.sweep.work import Record, run_variant

_LENGTH = re.compile(r"^length:(\d+)\.\.(\d+)$")


@dataclass(frozen=True)
class Objective:
    """What ``cardgen tune`` maximises."""

    kind: str
    low: int = 0
    high: int = 0

    def as_text(self) -> str:
        """The option as written."""
        return f"length:{self.low}..{self.high}" if self.kind == "length" else self.kind

    def score(self, record: Record) -> float | None:
        """The objective of one variant's record; None when it was refused, failed or has nothing to score."""
        if record["status"] != "played":
            return None
        values: list[float] = []
        for count in record["counts"]:
            if count["completed"] == 0:
                continue
            if self.kind == "balance":
                if count["balance"] is not None:
                    values.append(count["balance"])
            elif self.kind == "decisiveness":
                values.append(1.0 - count["tie_rate"])
            else:
                mean = count["length_mean"]
                values.append(-max(0.0, self.low - mean, mean - self.high))
        return sum(values) / len(values) if values else None


def parse_objective(text: str) -> Objective:
    """Read ``--objective``: balance, decisiveness or length:MIN..MAX."""
    if text in ("balance", "decisiveness"):
        return Objective(text)
    match = _LENGTH.match(text)
    if match is None:
        raise InputError(f"--objective must be balance, decisiveness or length:MIN..MAX (actions per game), not {text!r}")
    low, high = int(match.group(1)), int(match.group(2))
    if high < low:
        raise InputError(f"--objective {text!r}: MAX is below MIN")
    return Objective("length", low, high)


@dataclass
class Trial:
    """One evaluated point of the search."""

    number: int
    overrides: Overrides
    score: float | None


@dataclass
class TuneResult:
    """The best values found, with their record, the spec's own values for comparison, and the patch."""

    objective: Objective
    best: Trial | None
    best_record: Record | None
    baseline: Trial | None
    baseline_record: Record | None
    trials: list[Trial] = field(default_factory=list)
    patch: str = ""

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        def trial(t: Trial | None) -> object:
            return None if t is None else {"number": t.number, "variant": dict(t.overrides), "score": t.score}

        return {
            "objective": self.objective.as_text(),
            "best": trial(self.best),
            "best_record": self.best_record,
            "baseline": trial(self.baseline),
            "baseline_record": self.baseline_record,
            "trials": [trial(t) for t in self.trials],
            "patch": self.patch,
        }


def tune_header(plan: SweepPlan, objective: Objective, trials: int, batch: int) -> dict[str, object]:
    """The tuning results file's header: the sweep's, plus what the search depends on."""
    return {**plan.header(), "kind": "cardgen-tune-results", "objective": objective.as_text(), "trials": trials, "batch": batch}


def tune(
    plan: SweepPlan,
    objective: Objective,
    executor: Executor,
    trials: int = 32,
    batch: int = 8,
    results: Path | None = None,
    *,
    resume: bool = False,
    progress: ProgressHook | None = None,
) -> TuneResult:
    """Search ``plan``'s ranges for the best ``objective`` in ``trials`` trials, ``batch`` at a time.

    Variants already checked (earlier in this search, or in ``results`` when
    resuming) are not played again; their records are reused, so a resumed
    search proposes exactly the trials the first run would have.
    """
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    header = tune_header(plan, objective, trials, batch)
    earlier = read_results(results, header) if results is not None and resume else {}
    cache: dict[Overrides, Record] = {canonical(r["variant"]): r for r in earlier.values()}
    out = ResultsFile(results, header, earlier) if results is not None else None
    written = len(earlier)
    sampler = optuna.samplers.TPESampler(seed=plan.settings.seed, n_startup_trials=min(10, max(1, trials // 3)))
    study = optuna.create_study(direction="maximize", sampler=sampler)
    names = [v.name for v in plan.varies]
    current = plan.source.numbers()
    if all(current.get(v.name) in v.values for v in plan.varies):
        study.enqueue_trial({v.name: current[v.name] for v in plan.varies})
    if progress is not None:
        progress.start(trials, f"{plan.source.folder_name}: trials")
    done: list[Trial] = []
    try:
        while len(done) < trials:
            asked = [study.ask() for _ in range(min(batch, trials - len(done)))]
            points = [canonical({v.name: t.suggest_int(v.name, v.low, v.high, step=v.step) for v in plan.varies}) for t in asked]
            missing = sorted({p for p in points if p not in cache}, key=points.index)
            for position, record in executor.run(run_variant, [plan.job(p) for p in missing]):
                cache[missing[position]] = record
                if out is not None:
                    out.add(written, record)
                    written += 1
            for trial, point in zip(asked, points):
                score = objective.score(cache[point])
                if score is None:
                    study.tell(trial, state=optuna.trial.TrialState.FAIL)
                else:
                    study.tell(trial, score)
                done.append(Trial(trial.number, point, score))
                if progress is not None:
                    progress.advance(1)
    finally:
        if out is not None:
            out.close()
    return _result(plan, objective, done, cache, names)


def _result(plan: SweepPlan, objective: Objective, done: Sequence[Trial], cache: dict[Overrides, Record], names: list[str]) -> TuneResult:
    scored = [t for t in done if t.score is not None]
    # the best score; ties go to the earliest trial (the spec's own values come first)
    best = max(scored, key=lambda t: (t.score, -t.number)) if scored else None
    current = plan.source.numbers()
    base_point = canonical({n: current[n] for n in names}) if all(n in current for n in names) else None
    baseline = next((t for t in done if t.overrides == base_point), None)
    return TuneResult(
        objective,
        best,
        cache[best.overrides] if best else None,
        baseline,
        cache[baseline.overrides] if baseline else None,
        list(done),
        spec_patch(plan.source, best.overrides) if best else "",
    )


def _rate(rate: float, games: int) -> str:
    """A rate with its 95% Wilson interval."""
    from cardgen.engine.balance import wilson_interval

    low, high = wilson_interval(rate * games, games)
    return f"{rate:.3f} [{low:.3f}, {high:.3f}]"


def render_tune(result: TuneResult) -> str:
    """The answer in words: best values, their score against the spec's own, the evidence and the patch."""
    lines: list[str] = []
    failed = sum(1 for t in result.trials if t.score is None)
    lines.append(f"objective {result.objective.as_text()}: {len(result.trials)} trials, {len({t.overrides for t in result.trials})} distinct variants, {failed} refused or failed")
    if result.best is None or result.best_record is None:
        lines.append("no variant could be scored")
        return "\n".join(lines)
    lines.append(f"best: {variant_label(result.best.overrides)} scores {result.best.score:.4f} (trial {result.best.number})")
    if result.baseline is not None and result.baseline.score is not None:
        lines.append(f"the spec as written: {variant_label(result.baseline.overrides)} scores {result.baseline.score:.4f}")
    lines.append("evidence:")
    for label, record in (("best", result.best_record), ("as written", result.baseline_record)):
        if record is None:
            continue
        for count in record["counts"]:
            seats = ", ".join(f"P{s['seat'] + 1} {s['win_share']:.3f} [{s['low']:.3f}, {s['high']:.3f}]" for s in count["seats"])
            lines.append(
                f"  {label}, {count['players']} player(s), {count['playouts']} playouts ({count['agents']}): {seats}; "
                f"balance {count['balance'] if count['balance'] is None else format(count['balance'], '.3f')}, ties {_rate(count['tie_rate'], count['completed'])}, "
                f"length {count['length_mean']:.1f}"
            )
    widest = max((max(s["high"] - s["low"] for s in c["seats"]) / 2 for c in result.best_record["counts"] if c["seats"]), default=0.0)
    if widest:
        lines.append(
            f"noise: at this many playouts a seat's win share is known to about +/-{widest:.3f} (95%), and the best of many noisy trials "
            "flatters itself: confirm it with a sweep of the two at more --playouts and another --seed"
        )
    if result.patch:
        lines.append("patch (apply with `patch -p0 < FILE`; the spec was not changed):")
        lines.append(result.patch.rstrip("\n"))
    else:
        lines.append("the spec's own values are the best found: no patch")
    return "\n".join(lines)
