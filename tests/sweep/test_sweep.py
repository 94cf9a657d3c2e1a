"""Sweeps: seeds, records, refused variants, the results file and --resume, and executors agreeing bit for bit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Iterator, Sequence, TypeVar

import pytest

from cardgen.findings import InputError
from cardgen.sweep.executors import DaskExecutor, LocalExecutor, make_executor
from cardgen.sweep.run import SweepPlan, canonical_json, plan_sweep, read_results, run_sweep
from cardgen.sweep.variants import canonical, parse_varies
from cardgen.sweep.work import CheckSettings, variant_seed

from .conftest import MAUSOLEUM, TOY

J = TypeVar("J")
R = TypeVar("R")


class Reversed:
    """An executor that runs jobs last first and counts them: results must not depend on order."""

    name = "reversed"
    workers = 1

    def __init__(self) -> None:
        self.ran = 0

    def run(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[tuple[int, R]]:
        for index in reversed(range(len(jobs))):
            self.ran += 1
            yield index, fn(jobs[index])

    def close(self) -> None:
        pass


def toy_plan(vary: Sequence[str], playouts: int = 40, players: tuple[int, ...] = (2,)) -> SweepPlan:
    return plan_sweep(TOY, parse_varies(vary), CheckSettings(players, playouts, "random", 0, 4, 0))


def test_seeds_follow_spec_variant_and_player_count_only() -> None:
    base = variant_seed("abc", canonical({"a": 1}), 2)
    assert base == variant_seed("abc", canonical({"a": 1}), 2)
    assert len({base, variant_seed("abd", canonical({"a": 1}), 2), variant_seed("abc", canonical({"a": 2}), 2), variant_seed("abc", canonical({"a": 1}), 3), variant_seed("abc", canonical({"a": 1}), 2, seed=1)}) == 5


def test_records_show_the_varied_number_at_work() -> None:
    plan = toy_plan(["numbers.first_seat_bonus=0..8:8"], playouts=150)
    low, high = run_sweep(plan, LocalExecutor(1))
    assert low["variant"] == {"first_seat_bonus": 0} and high["variant"] == {"first_seat_bonus": 8}
    assert low["status"] == high["status"] == "played"
    p1_low, p1_high = low["counts"][0]["seats"][0], high["counts"][0]["seats"][0]
    assert p1_high["win_share"] > p1_low["win_share"] + 0.1  # a head start of 8 points helps the first seat
    assert p1_low["low"] <= p1_low["win_share"] <= p1_low["high"]
    assert low["counts"][0]["playouts"] == 150 and low["counts"][0]["coverage"]
    assert any(f["code"] == "CG509" for f in high["findings"])


def test_a_variant_the_validator_refuses_is_reported_not_played() -> None:
    plan = toy_plan(["numbers.wild_points=9007199254740992"])
    (record,) = run_sweep(plan, LocalExecutor(1))
    assert record["status"] == "refused" and record["counts"] == []
    assert record["findings"][0]["file"] == plan.source.shown
    assert "too large" in record["findings"][0]["message"]


def test_a_variant_whose_games_never_end_is_played_with_its_errors() -> None:
    (record,) = run_sweep(toy_plan(["numbers.test_never_ends=1"], playouts=3, players=(1,)), LocalExecutor(1))
    assert record["status"] == "played"
    assert any(f["code"] == "CG504" and f["severity"] == "error" for f in record["findings"])


def test_results_do_not_depend_on_the_order_jobs_finish() -> None:
    plan = toy_plan(["numbers.wild_points=2..4", "numbers.max_turns=10..12:2"], playouts=20)
    assert canonical_json(run_sweep(plan, LocalExecutor(1))) == canonical_json(run_sweep(plan, Reversed()))


def test_an_interrupted_sweep_resumes_from_its_results_file(tmp_path: Path) -> None:
    plan = toy_plan(["numbers.wild_points=1..5"], playouts=20)
    results = tmp_path / "sweep" / "results.jsonl"
    fresh = run_sweep(plan, LocalExecutor(1), results)
    lines = results.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == plan.header() and len(lines) == 6
    # as if interrupted: two variants finished, the third cut off mid-line
    results.write_text("\n".join(lines[:3]) + "\n" + lines[3][:40], encoding="utf-8")
    again = Reversed()
    resumed = run_sweep(plan, again, results, resume=True)
    assert again.ran == 3
    assert canonical_json(resumed) == canonical_json(fresh)
    assert len(read_results(results, plan.header())) == 5


def test_resume_refuses_another_sweeps_file(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    run_sweep(toy_plan(["numbers.wild_points=1..2"], playouts=5), LocalExecutor(1), results)
    with pytest.raises(InputError, match="another sweep"):
        run_sweep(toy_plan(["numbers.wild_points=1..3"], playouts=5), LocalExecutor(1), results, resume=True)


def test_executor_options_are_checked() -> None:
    with pytest.raises(InputError, match="--executor"):
        make_executor("slurm")
    with pytest.raises(InputError, match="--scheduler"):
        make_executor("local", scheduler="tcp://127.0.0.1:8786")


def test_local_processes_and_a_dask_local_cluster_agree_bit_for_bit() -> None:
    """The issue's check at a small size: Mausoleum Guardians variants on one process, two processes and Dask."""
    plan = plan_sweep(
        MAUSOLEUM, parse_varies(["numbers.set_points=6..8:2", "numbers.multi_set_bonus=2..4:2"]), CheckSettings((2,), 8, "random", 1, 4, 0)
    )
    one = canonical_json(run_sweep(plan, LocalExecutor(1)))
    two = canonical_json(run_sweep(plan, LocalExecutor(2)))
    dask = DaskExecutor(None, 2)
    try:
        assert dask.workers == 2
        on_dask = canonical_json(run_sweep(plan, dask))
    finally:
        dask.close()
    assert json.loads(one)[0]["counts"][0]["playouts"] == 8
    assert one == two == on_dask


def test_stopping_early_keeps_what_finished_and_stops_the_workers(tmp_path: Path) -> None:
    """What an interruption does: the records that arrived are in the results file; the pool is shut without waiting."""
    plan = toy_plan(["numbers.wild_points=1..6"], playouts=10)
    results = tmp_path / "results.jsonl"

    class Interrupt(Exception):
        pass

    def stop_after_two(index: int, record: dict[str, object]) -> None:
        if len(results.read_text(encoding="utf-8").splitlines()) >= 3:
            raise Interrupt

    with pytest.raises(Interrupt):
        run_sweep(plan, LocalExecutor(2), results, on_record=stop_after_two)
    kept = read_results(results, plan.header())
    assert len(kept) == 2
    resumed = run_sweep(plan, LocalExecutor(1), results, resume=True)
    assert canonical_json(resumed) == canonical_json(run_sweep(plan, LocalExecutor(1)))


def test_skilled_agents_play_the_balance_playouts() -> None:
    settings = CheckSettings((2,), 6, "mcts", 0, 4, 0)
    plan = plan_sweep(TOY, parse_varies(["numbers.wild_points=4"]), settings)
    (record,) = run_sweep(plan, LocalExecutor(1))
    count = record["counts"][0]
    assert count["agents"] == "mcts:4" and count["playouts"] == 6
    (random_record,) = run_sweep(toy_plan(["numbers.wild_points=4"], playouts=6), LocalExecutor(1))
    assert random_record["counts"][0]["agents"] == "random"
    assert count["seed"] == random_record["counts"][0]["seed"]  # the same base seed; the skilled games are their own
