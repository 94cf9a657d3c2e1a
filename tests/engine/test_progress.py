"""The progress hook hears the true amount of work, whether playouts run here or in workers."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.engine.checks import run_checks
from cardgen.spec.load import load_spec

SPECS = Path(__file__).resolve().parents[2] / "specs"


class Recorder:
    def __init__(self) -> None:
        self.total = 0
        self.done = 0

    def start(self, total: int, description: str = "") -> None:
        self.total = total

    def advance(self, done: int = 1) -> None:
        self.done += done


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_counts_every_playout(jobs: int) -> None:
    loaded = load_spec(SPECS / "ceratopsians")
    recorder = Recorder()
    report = run_checks(loaded, playouts=30, seed=3, jobs=jobs, skill_games=2, mcts_budget=4, progress=recorder)
    played = sum(c.metrics.playouts for c in report.counts if c.metrics)
    assert recorder.total >= played == 30
    assert recorder.done == recorder.total
