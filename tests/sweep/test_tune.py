"""Tuning: objectives, a reproducible search, the spec's own values as the first trial, and the patch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardgen.findings import InputError
from cardgen.sweep.executors import LocalExecutor
from cardgen.sweep.run import plan_sweep
from cardgen.sweep.tune import Objective, parse_objective, render_tune, tune
from cardgen.sweep.variants import parse_varies
from cardgen.sweep.work import CheckSettings

from .conftest import TOY
from .test_sweep import Reversed


def record(balance: float | None, ties: float, length: float, status: str = "played") -> dict[str, Any]:
    count = {"completed": 10, "balance": balance, "tie_rate": ties, "length_mean": length}
    return {"status": status, "counts": [count]}


def test_objectives_are_read_and_scored() -> None:
    assert parse_objective("balance") == Objective("balance")
    assert parse_objective("length:20..30") == Objective("length", 20, 30)
    for bad in ("fun", "length:30..20", "length:1-2"):
        with pytest.raises(InputError, match="--objective"):
            parse_objective(bad)
    assert Objective("balance").score(record(0.9, 0.1, 25)) == 0.9
    assert Objective("decisiveness").score(record(0.9, 0.25, 25)) == 0.75
    assert Objective("length", 20, 30).score(record(0.9, 0.1, 25)) == 0.0
    assert Objective("length", 20, 30).score(record(0.9, 0.1, 34.5)) == -4.5
    assert Objective("balance").score(record(None, 0.0, 25)) is None  # solo: no seats to balance
    assert Objective("balance").score(record(0.9, 0.1, 25, status="refused")) is None


def test_a_search_is_reproducible_and_starts_from_the_spec() -> None:
    plan = plan_sweep(TOY, parse_varies(["numbers.first_seat_bonus=0..6", "numbers.wild_points=2..6"]), CheckSettings((2,), 30, "random", 0, 4, 0))
    first = tune(plan, Objective("balance"), LocalExecutor(1), trials=6, batch=3)
    second = tune(plan, Objective("balance"), Reversed(), trials=6, batch=3)
    assert [(t.overrides, t.score) for t in first.trials] == [(t.overrides, t.score) for t in second.trials]
    assert first.trials[0].overrides == (("first_seat_bonus", 0), ("wild_points", 4))  # the spec as written
    assert first.baseline is not None and first.baseline.number == 0
    assert first.best is not None and first.best_record is not None
    assert first.best.score == max(t.score for t in first.trials if t.score is not None)
    text = render_tune(first)
    assert "best:" in text and "noise:" in text
    if first.best.overrides != first.baseline.overrides:
        changed = [name for name, value in first.best.overrides if dict(first.baseline.overrides)[name] != value]
        assert all(f"+  {name}: {dict(first.best.overrides)[name]}" in first.patch for name in changed)
    else:
        assert first.patch == "" and "no patch" in text


def test_the_search_prefers_an_even_start_to_a_big_head_start() -> None:
    plan = plan_sweep(TOY, parse_varies(["numbers.first_seat_bonus=0..12:12"]), CheckSettings((2,), 120, "random", 0, 4, 0))
    result = tune(plan, Objective("balance"), LocalExecutor(1), trials=4, batch=2)
    assert result.best is not None and result.best.overrides == (("first_seat_bonus", 0),)
    assert {t.overrides for t in result.trials} == {(("first_seat_bonus", 0),), (("first_seat_bonus", 12),)}


def test_a_resumed_search_replays_its_trials_without_playing_them_again(tmp_path: Path) -> None:
    plan = plan_sweep(TOY, parse_varies(["numbers.wild_points=1..8"]), CheckSettings((2,), 10, "random", 0, 4, 0))
    results = tmp_path / "tune.jsonl"
    first = tune(plan, Objective("decisiveness"), LocalExecutor(1), trials=5, batch=2, results=results)
    again = Reversed()
    resumed = tune(plan, Objective("decisiveness"), again, trials=5, batch=2, results=results, resume=True)
    assert again.ran == 0
    assert [(t.overrides, t.score) for t in resumed.trials] == [(t.overrides, t.score) for t in first.trials]
