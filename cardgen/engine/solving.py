"""Solving deals with a game's registered exact solver: verification of each line of play and the statistics of many deals."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from cardgen.engine.core import Game, Solution, Solver


@dataclass(frozen=True)
class Verification:
    """A solver's line of play replayed from the deal: whether it reaches the claimed value."""

    ok: bool
    """The line is legal, ends the game, and reaches the solution's value."""
    reached: float
    """The value the replayed line reaches (NaN when an action was illegal)."""
    lines: tuple[str, ...]
    """One readable line per action played (``ply  action``), and the illegal action's line if any."""


def line_value(game: Game, scores: Sequence[float]) -> float:
    """What a solver's value measures for ``game``: the solo score, or the first seat's margin over the best other."""
    return float(scores[0]) if game.num_players == 1 else float(scores[0] - max(scores[1:]))


def verify_solution(game: Game, seed: int, solution: Solution) -> Verification:
    """Replay ``solution.actions`` from the deal of ``seed`` and compare the value reached with ``solution.value``."""
    state = game.new_initial_state(seed)
    lines: list[str] = []
    for ply, action in enumerate(solution.actions):
        if action not in state.legal_actions():
            return Verification(False, float("nan"), tuple(lines + [f"{ply:>4}  action {action} is not legal here"]))
        lines.append(f"{ply:>4}  {state.action_to_string(action)}")
        state.apply_action(action)
    reached = line_value(game, state.scores())
    return Verification(state.is_terminal() and abs(reached - solution.value) < 1e-9, reached, tuple(lines))


@dataclass(frozen=True)
class SolvedDeal:
    """One deal solved and verified."""

    seed: int
    solution: Solution
    verification: Verification
    seconds: float
    """Wall time of the solver on this deal."""


def solve_deal(game: Game, solver: Solver, seed: int) -> SolvedDeal:
    """Solve the deal of ``seed`` with ``solver`` and verify its line (a ValueError from the solver propagates)."""
    started = time.perf_counter()
    solution = solver(game, seed)
    seconds = time.perf_counter() - started
    return SolvedDeal(seed, solution, verify_solution(game, seed, solution), seconds)


@dataclass
class SolveSummary:
    """The statistics of many solved deals."""

    deals: list[SolvedDeal] = field(default_factory=list)

    def add(self, deal: SolvedDeal) -> None:
        """Count one more solved deal."""
        self.deals.append(deal)

    @property
    def values(self) -> list[float]:
        """Each deal's value, in order."""
        return [d.solution.value for d in self.deals]

    @property
    def proved(self) -> int:
        """How many values were proved optimal."""
        return sum(d.solution.proved for d in self.deals)

    @property
    def failed(self) -> int:
        """How many lines did not replay to their value."""
        return sum(not d.verification.ok for d in self.deals)

    def distribution(self) -> dict[float, int]:
        """Value -> number of deals with it, sorted by value."""
        counts: dict[float, int] = {}
        for value in self.values:
            counts[value] = counts.get(value, 0) + 1
        return dict(sorted(counts.items()))

    def text(self) -> list[str]:
        """Two lines: mean, median, extremes, proofs and median time; then the distribution."""
        values = self.values
        times = [d.seconds for d in self.deals]
        return [
            f"{len(values)} deals: mean {statistics.fmean(values):.2f}, median {statistics.median(values):g}, "
            f"min {min(values):g}, max {max(values):g}; {self.proved} proved; median time {statistics.median(times):.3f} s",
            "distribution: " + ", ".join(f"{v:g}: {n}" for v, n in self.distribution().items()),
        ]
