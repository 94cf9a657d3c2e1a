"""Balance metrics over many playouts, named as game researchers name them.

The names follow the Ludii game metrics (AdvantageP1, Balance, Completion,
Drawishness, Timeouts, DecisionMoves, BranchingFactor, Duration) and the skill
ladder of the TAG framework (a planning agent against greedy and random, seats
rotated). Win rates carry a 95% Wilson score interval, which behaves well near
0 and 1 where the normal approximation does not.

Definitions used here:

* a *win* is sole first place; a shared first place is a tie, and a seat's win
  share counts a tie among k seats as 1/k;
* *AdvantageP1* is the first seat's win share over completed games;
* *Balance* is 1 minus the largest gap between two seats' win shares;
* *Completion* is the share of playouts that ended by the rules (no timeout,
  dead end or engine error); *Timeouts* is the share that hit the length bound;
* *Drawishness* is the share of games where every seat tied; *tie rate* the
  share where first place was shared;
* *DecisionMoves* is the share of decision points with more than one legal action;
* a *skill edge* is the share of pairwise comparisons (rank in one game, or
  score on the same deal in solo) the stronger agent wins, ties counting half:
  0.5 means skill does not matter.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass, field
from typing import Sequence

from cardgen.engine.playout import PlayoutResult

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``successes`` in ``trials``.

    ``successes`` may be fractional (shared wins). With no trials the interval is [0, 1].
    """
    if trials <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, successes / trials))
    z2 = z * z
    denominator = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson_half_width(successes: float, trials: int, z: float = Z95) -> float:
    """Half the width of :func:`wilson_interval`."""
    low, high = wilson_interval(successes, trials, z)
    return (high - low) / 2.0


def trials_for_half_width(half_width: float, p: float = 0.5, z: float = Z95, cap: int = 10_000_000) -> int:
    """The fewest trials whose Wilson interval around rate ``p`` is at most ``half_width`` wide on each side."""
    if half_width <= 0:
        return cap
    low, high = 1, 1
    while wilson_half_width(p * high, high, z) > half_width:
        high *= 2
        if high >= cap:
            return cap
    while low < high:
        middle = (low + high) // 2
        if wilson_half_width(p * middle, middle, z) <= half_width:
            high = middle
        else:
            low = middle + 1
    return low


def histogram(values: Sequence[int], bins: int = 10) -> list[tuple[int, int, int]]:
    """Equal-width bins over whole numbers: (low, high inclusive, count) for each bin."""
    if not values:
        return []
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    out = []
    start = lo
    while start <= hi:
        end = start + width - 1
        out.append((start, end, sum(1 for v in values if start <= v <= end)))
        start = end + 1
    return out


@dataclass
class SeatStats:
    """One seat's results over completed games."""

    seat: int
    wins: int
    """Games won outright (sole first place)."""
    win_share: float
    """Wins plus shared first places counted 1/k, divided by completed games."""
    interval: tuple[float, float]
    """95% Wilson interval on ``win_share``."""
    score_mean: float
    score_sd: float
    score_min: int
    score_max: int


@dataclass
class BalanceMetrics:
    """Ludii-style metrics for one player count."""

    players: int
    playouts: int
    completed: int
    seats: list[SeatStats]
    advantage_p1: float | None
    balance: float | None
    completion: float
    drawishness: float
    tie_rate: float
    timeouts: int
    dead_ends: int
    errors: int
    decision_moves: float
    branching_mean: float
    branching_max: int
    duration_mean: float
    duration_min: int
    duration_max: int
    duration_histogram: list[tuple[int, int, int]]
    decisions_mean: float
    margin_mean: float | None
    """Mean gap between first and second place score (several seats only)."""
    margin_histogram: list[tuple[int, int, int]]
    score_histogram: list[list[tuple[int, int, int]]]
    """Per seat, the distribution of final scores."""
    longest_seed: int
    longest_length: int
    coverage: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Per usage key: (playouts where it was used, total uses)."""

    @property
    def max_half_width(self) -> float:
        """The widest seat interval's half-width (0 for solo games)."""
        if self.players < 2:
            return 0.0
        return max(((s.interval[1] - s.interval[0]) / 2 for s in self.seats), default=1.0)

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return asdict(self)


def first_place_shares(result: PlayoutResult) -> list[float]:
    """Each seat's share of first place in one game: 1 for a sole winner, 1/k for a k-way tie."""
    shares = [0.0] * result.num_players
    if result.ranking:
        first = result.ranking[0]
        for seat in first:
            shares[seat] = 1.0 / len(first)
    return shares


def compute_metrics(results: Sequence[PlayoutResult], num_players: int, keys: Sequence[str] = ()) -> BalanceMetrics:
    """Every balance metric over ``results`` (playouts at one player count, random agents)."""
    done = [r for r in results if r.completed]
    n_done = len(done)
    shares = [0.0] * num_players
    wins = [0] * num_players
    ties = everyone_tied = 0
    margins: list[int] = []
    for r in done:
        for seat, share in enumerate(first_place_shares(r)):
            shares[seat] += share
        if r.ranking and len(r.ranking[0]) == 1:
            wins[r.ranking[0][0]] += 1
        elif r.ranking:
            ties += 1
            if len(r.ranking[0]) == num_players and num_players > 1:
                everyone_tied += 1
        if num_players > 1 and r.scores:
            ordered = sorted(r.scores, reverse=True)
            margins.append(ordered[0] - ordered[1])
    seats = []
    for seat in range(num_players):
        seat_scores = [r.scores[seat] for r in done if len(r.scores) > seat]
        seats.append(
            SeatStats(
                seat=seat,
                wins=wins[seat],
                win_share=shares[seat] / n_done if n_done else 0.0,
                interval=wilson_interval(shares[seat], n_done),
                score_mean=statistics.fmean(seat_scores) if seat_scores else 0.0,
                score_sd=statistics.pstdev(seat_scores) if len(seat_scores) > 1 else 0.0,
                score_min=min(seat_scores, default=0),
                score_max=max(seat_scores, default=0),
            )
        )
    rates = [s.win_share for s in seats]
    decisions = sum(r.decisions for r in results)
    lengths = [r.length for r in results]
    longest = max(results, key=lambda r: (r.length, -r.seed)) if results else None
    coverage: dict[str, tuple[int, int]] = {key: (0, 0) for key in keys}
    for r in results:
        for key, count in r.usage.items():
            if count:
                games, total = coverage.get(key, (0, 0))
                coverage[key] = (games + 1, total + count)
    total = len(results)
    return BalanceMetrics(
        players=num_players,
        playouts=total,
        completed=n_done,
        seats=seats,
        advantage_p1=rates[0] if num_players > 1 and n_done else None,
        balance=1.0 - (max(rates) - min(rates)) if num_players > 1 and n_done else None,
        completion=n_done / total if total else 0.0,
        drawishness=everyone_tied / n_done if n_done else 0.0,
        tie_rate=ties / n_done if n_done and num_players > 1 else 0.0,
        timeouts=sum(1 for r in results if r.timed_out),
        dead_ends=sum(1 for r in results if r.dead_end),
        errors=sum(1 for r in results if r.error),
        decision_moves=(decisions - sum(r.forced for r in results)) / decisions if decisions else 0.0,
        branching_mean=sum(r.branching_total for r in results) / decisions if decisions else 0.0,
        branching_max=max((r.branching_max for r in results), default=0),
        duration_mean=statistics.fmean(lengths) if lengths else 0.0,
        duration_min=min(lengths, default=0),
        duration_max=max(lengths, default=0),
        duration_histogram=histogram(lengths),
        decisions_mean=decisions / total if total else 0.0,
        margin_mean=statistics.fmean(margins) if margins else None,
        margin_histogram=histogram(margins),
        score_histogram=[histogram([r.scores[s] for r in done if len(r.scores) > s]) for s in range(num_players)],
        longest_seed=longest.seed if longest else 0,
        longest_length=longest.length if longest else 0,
        coverage=dict(sorted(coverage.items())),
    )


@dataclass
class SkillEdge:
    """How often a stronger agent beats a weaker one (0.5: skill does not matter)."""

    strong: str
    weak: str
    games: int
    comparisons: int
    edge: float
    interval: tuple[float, float]

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return asdict(self)


def _position(ranking: list[list[int]], seat: int) -> int:
    for place, group in enumerate(ranking):
        if seat in group:
            return place
    return len(ranking)


def skill_edge_multi(strong: str, weak: str, games: Sequence[tuple[int, PlayoutResult]]) -> SkillEdge:
    """Edge of ``strong`` from games where it sat at the given seat against ``weak`` everywhere else."""
    points = 0.0
    comparisons = 0
    counted = 0
    for strong_seat, result in games:
        if not result.completed:
            continue
        counted += 1
        mine = _position(result.ranking, strong_seat)
        for seat in range(result.num_players):
            if seat == strong_seat:
                continue
            theirs = _position(result.ranking, seat)
            points += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
            comparisons += 1
    edge = points / comparisons if comparisons else 0.5
    return SkillEdge(strong, weak, counted, comparisons, edge, wilson_interval(points, comparisons))


def skill_edge_solo(strong: str, weak: str, pairs: Sequence[tuple[PlayoutResult, PlayoutResult]]) -> SkillEdge:
    """Edge of ``strong`` in solo play: its score against ``weak``'s on the same deal."""
    points = 0.0
    comparisons = 0
    for mine, theirs in pairs:
        if not (mine.completed and theirs.completed):
            continue
        comparisons += 1
        points += 1.0 if mine.scores[0] > theirs.scores[0] else 0.5 if mine.scores[0] == theirs.scores[0] else 0.0
    edge = points / comparisons if comparisons else 0.5
    return SkillEdge(strong, weak, comparisons, comparisons, edge, wilson_interval(points, comparisons))
