"""One variant's check, as a self-contained job a worker on any machine can run.

A :class:`VariantJob` carries the spec folder's bytes, the variant's numbers
and the check's settings; :func:`run_variant` writes the variant into a
private temporary folder, validates it as ``cardgen check`` does, and, when
the validator accepts it, runs the engine's own checks
(:func:`cardgen.engine.checks.run_checks`) one player count at a time in the
worker's process. It returns a small JSON-ready record (:data:`Record`).

Seeds derive from (base spec digest, the variant's numbers, player count,
the sweep's seed) and a playout's index, never from the worker or the order
jobs run in, so every executor and any number of workers give the same
records, bit for bit. Records hold no wall time and no temporary path.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.findings import Finding, InputError, Severity
from cardgen.sweep.variants import Overrides, SpecSource, variant_label, write_variant

Record = dict[str, Any]
"""A variant's result: JSON-ready, deterministic."""

AGENT_CHOICES = ("random", "greedy", "mcts")
"""Who plays the balance playouts at every seat."""

AGENT_SEED_OFFSET = 2_000_000
"""Playouts with skilled agents use seeds base + offset + index, apart from the checks' own."""

SEED_SPACE = 2**40
"""Base seeds fall in [0, SEED_SPACE), far from one another's playout indexes."""


@dataclass(frozen=True)
class CheckSettings:
    """How each variant is checked (the same for every variant of a sweep)."""

    players: tuple[int, ...] = ()
    """Player counts to check; empty: every count the variant supports."""
    playouts: int = 381
    agents: str = "random"
    skill_games: int = 12
    mcts_budget: int = 48
    seed: int = 0

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict (part of a results file's header)."""
        return {
            "players": list(self.players), "playouts": self.playouts, "agents": self.agents,
            "skill_games": self.skill_games, "mcts_budget": self.mcts_budget, "seed": self.seed,
        }


@dataclass(frozen=True)
class VariantJob:
    """Everything a worker needs to check one variant: spec bytes in, a :data:`Record` out."""

    source: SpecSource
    overrides: Overrides
    settings: CheckSettings
    modules: tuple[str, ...] = field(default=())
    """Modules to import so the spec's rules module is registered (games outside ``cardgen.games``)."""


def variant_seed(digest: str, overrides: Overrides, players: int, seed: int = 0) -> int:
    """The base seed of one (spec, variant, player count): playout ``i`` uses base + i."""
    key = json.dumps([digest, [list(pair) for pair in overrides], players, seed], separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big") % SEED_SPACE


def _finding_record(finding: Finding, folder: Path, shown: str) -> dict[str, object]:
    """A finding as JSON, its file named as in the spec's own folder rather than the temporary copy."""
    record = finding.as_json()
    try:
        relative = Path(str(record.get("file", ""))).resolve().relative_to(folder.resolve())
        record["file"] = str(Path(shown).parent / relative)
    except ValueError:
        pass
    return record


def _seats(metrics: Any) -> list[dict[str, object]]:
    return [
        {"seat": s.seat, "win_share": s.win_share, "low": s.interval[0], "high": s.interval[1], "wins": s.wins, "score_mean": s.score_mean}
        for s in metrics.seats
    ]


def _count_record(players: int, base_seed: int, agents: str, metrics: Any, skill: list[Any]) -> dict[str, object]:
    """The figures of one player count: seats with intervals, ties, length, skill ladder, coverage."""
    gradient = next((e for e in skill if e.strong.startswith("mcts") and e.weak == "random"), None)
    return {
        "players": players,
        "seed": base_seed,
        "agents": agents,
        "playouts": metrics.playouts,
        "completed": metrics.completed,
        "seats": _seats(metrics),
        "balance": metrics.balance,
        "advantage_p1": metrics.advantage_p1,
        "tie_rate": metrics.tie_rate,
        "drawishness": metrics.drawishness,
        "length_mean": metrics.duration_mean,
        "length_min": metrics.duration_min,
        "length_max": metrics.duration_max,
        "skill": [{"strong": e.strong, "weak": e.weak, "edge": e.edge, "low": e.interval[0], "high": e.interval[1], "games": e.games} for e in skill],
        "skill_gradient": gradient.edge if gradient is not None else None,
        "coverage": {key: used for key, (used, _) in metrics.coverage.items()},
        "coverage_share": (sum(1 for used, _ in metrics.coverage.values() if used) / len(metrics.coverage)) if metrics.coverage else None,
    }


def _agent_name(agents: str, mcts_budget: int) -> str:
    return f"mcts:{mcts_budget}" if agents == "mcts" else agents


def run_variant(job: VariantJob) -> Record:
    """Validate and check one variant; the record says ``played``, ``refused`` (validator errors) or ``failed``."""
    for name in job.modules:
        importlib.import_module(name)
    source = job.source
    record: Record = {"variant": dict(job.overrides), "label": variant_label(job.overrides), "status": "played", "findings": [], "counts": []}
    with tempfile.TemporaryDirectory(prefix="cardgen-variant-") as tmp:
        folder = write_variant(source, job.overrides, Path(tmp))
        try:
            return _check_folder(folder, job, record)
        except InputError as error:  # the loader refuses the file outright (a number too large, say)
            from cardgen.validate.runner import input_error_finding

            record["status"] = "refused"
            record["findings"] = [_finding_record(input_error_finding(error), folder, source.shown)]
            return record
        except Exception as error:  # a crash of one variant is its result, not the sweep's end
            record["status"] = "failed"
            record["error"] = f"{type(error).__name__}: {error}"
            return record


def _check_folder(folder: Path, job: VariantJob, record: Record) -> Record:
    from cardgen.engine.balance import compute_metrics
    from cardgen.engine.checks import run_checks
    from cardgen.engine.parallel import Runner, Task
    from cardgen.catalogue import validate_folder

    source, settings = job.source, job.settings
    result = validate_folder(folder, ["static"])
    errors = [f for f in result.findings if f.severity is Severity.ERROR]
    loaded = result.loaded
    if errors or loaded is None or loaded.spec is None:
        record["status"] = "refused"
        record["findings"] = [_finding_record(f, folder, source.shown) for f in sorted(errors, key=lambda f: (f.line, f.column, f.code, f.message))]
        return record
    spec = loaded.spec
    counts = [n for n in (settings.players or range(spec.players.min, spec.players.max + 1)) if spec.players.min <= n <= spec.players.max]
    findings: list[Finding] = []
    for n in counts:
        base = variant_seed(source.digest, job.overrides, n, settings.seed)
        report = run_checks(
            loaded, playouts=settings.playouts, seed=base, jobs=1, players=[n], skill_games=settings.skill_games, mcts_budget=settings.mcts_budget,
        )
        findings.extend(f for f in report.findings if f.severity in (Severity.ERROR, Severity.WARNING))
        count = report.counts[0] if report.counts else None
        if count is None or count.metrics is None:
            continue
        metrics = count.metrics
        if settings.agents != "random":
            agent = _agent_name(settings.agents, settings.mcts_budget)
            with Runner(spec, folder, 1) as runner:
                tasks = [Task(n, (agent,) * n, base + AGENT_SEED_OFFSET + i) for i in range(settings.playouts)]
                keys = runner.game(n).usage_keys()
                metrics = compute_metrics(runner.run(tasks), n, keys)
        record["counts"].append(_count_record(n, base, _agent_name(settings.agents, settings.mcts_budget), metrics, count.skill))
    shown = [_finding_record(f, folder, source.shown) for f in findings]
    unique = {json.dumps(item, sort_keys=True): item for item in shown}
    record["findings"] = [unique[k] for k in sorted(unique)]
    return record
