"""Wilson intervals and balance metrics against answers known in advance."""

from __future__ import annotations

import pytest

from cardgen.engine.balance import (
    compute_metrics,
    histogram,
    skill_edge_multi,
    skill_edge_solo,
    trials_for_half_width,
    wilson_half_width,
    wilson_interval,
)
from cardgen.engine.checks import run_checks
from cardgen.engine.playout import PlayoutResult


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (5, 10, 0.236593, 0.763407),  # textbook values (statsmodels proportion_confint method="wilson")
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (50, 100, 0.403830, 0.596170),
        (1, 1, 0.206549, 1.0),
    ],
)
def test_wilson_interval_known_values(successes: int, trials: int, low: float, high: float) -> None:
    got = wilson_interval(successes, trials)
    assert got[0] == pytest.approx(low, abs=1e-5)
    assert got[1] == pytest.approx(high, abs=1e-5)


def test_wilson_without_trials_is_uninformative() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_trials_for_half_width_is_the_smallest_sufficient_count() -> None:
    n = trials_for_half_width(0.05)
    assert wilson_half_width(0.5 * n, n) <= 0.05 < wilson_half_width(0.5 * (n - 1), n - 1)
    assert 375 <= n <= 390  # close to the normal-approximation 1.96^2 / (4 * 0.05^2) = 384.2
    assert trials_for_half_width(0.05, p=0.1) < n


def test_histogram_bins_cover_every_value() -> None:
    bins = histogram([1, 2, 2, 3, 10], bins=3)
    assert bins == [(1, 4, 4), (5, 8, 0), (9, 12, 1)]
    assert histogram([]) == []


def _result(seed: int, scores: list[int], ranking: list[list[int]], **extra: object) -> PlayoutResult:
    r = PlayoutResult(seed=seed, num_players=len(scores), agents=("random",) * len(scores), actions=[0] * 4)
    r.scores, r.ranking = scores, ranking
    r.decisions, r.branching_total, r.forced = 4, 10, 1
    for key, value in extra.items():
        setattr(r, key, value)
    return r


def test_metrics_by_hand() -> None:
    results = [
        _result(0, [5, 3], [[0], [1]]),
        _result(1, [2, 6], [[1], [0]]),
        _result(2, [4, 4], [[0, 1]]),
        _result(3, [7, 1], [[0], [1]]),
        _result(4, [0, 0], [[0, 1]], timed_out=True),
    ]
    m = compute_metrics(results, 2, ["card:a"])
    assert m.playouts == 5 and m.completed == 4
    assert m.seats[0].wins == 2 and m.seats[1].wins == 1
    assert m.advantage_p1 == pytest.approx(2.5 / 4)
    assert m.balance == pytest.approx(1 - (2.5 - 1.5) / 4)
    assert m.completion == pytest.approx(0.8)
    assert m.timeouts == 1
    assert m.tie_rate == pytest.approx(0.25) and m.drawishness == pytest.approx(0.25)
    assert m.decision_moves == pytest.approx(0.75)
    assert m.branching_mean == pytest.approx(2.5)
    assert m.margin_mean == pytest.approx((2 + 4 + 0 + 6) / 4)
    assert m.coverage == {"card:a": (0, 0)}


def test_seat_zero_always_wins_gives_advantage_one(variant) -> None:  # type: ignore[no-untyped-def]
    loaded = variant({"first_seat_bonus": 1000})
    report = run_checks(loaded, playouts=60, jobs=1, players=[2], skill_games=0)
    m = report.counts[0].metrics
    assert m is not None
    assert m.advantage_p1 == 1.0
    assert m.balance == 0.0
    assert m.seats[0].wins == 60 and m.seats[1].wins == 0
    assert m.seats[0].interval[0] > 0.93
    codes = {f.code for f in report.findings}
    assert "CG509" in codes  # the seat gap warning
    assert not report.has_errors()


def test_skill_edges() -> None:
    a = _result(0, [9, 1], [[0], [1]])
    b = _result(1, [1, 9], [[1], [0]])
    c = _result(2, [5, 5], [[0, 1]])
    edge = skill_edge_multi("mcts", "random", [(0, a), (0, b), (1, b), (0, c)])
    assert edge.comparisons == 4 and edge.edge == pytest.approx((1 + 0 + 1 + 0.5) / 4)
    solo = skill_edge_solo("greedy", "random", [(_result(0, [7], [[0]]), _result(0, [3], [[0]])), (_result(1, [2], [[0]]), _result(1, [2], [[0]]))])
    assert solo.edge == pytest.approx(0.75)
