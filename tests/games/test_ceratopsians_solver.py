"""Ceratopsians exact solver: agrees with plain minimax and its line replays to its value."""

from __future__ import annotations

from functools import lru_cache

from game_helpers import shipped_spec

from cardgen.engine.core import State, play_actions, solver_for
from cardgen.games.ceratopsians.rules import CeratopsiansGame
from cardgen.games.ceratopsians.solver import (
    first_player_edge,
    optimal_first_move,
    solve,
)


@lru_cache(maxsize=None)
def game(drafts: int | None = None) -> CeratopsiansGame:
    spec = shipped_spec("ceratopsians")
    return CeratopsiansGame(spec, 2, drafts_per_player=drafts)


def minimax(state: State) -> int:
    """Plain minimax on P1's margin through the engine's own State API (no pruning, no table)."""
    if state.is_terminal():
        first, second = state.scores()
        return first - second
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(minimax(child))
    return max(values) if state.current_player() == 0 else min(values)


def test_solver_is_registered() -> None:
    assert solver_for("ceratopsians") is solve


def test_alpha_beta_equals_minimax_on_short_deals() -> None:
    for drafts in (2, 3):
        g = game(drafts)
        for seed in range(8):
            solution = solve(g, seed)
            assert solution.proved
            assert solution.value == minimax(g.new_initial_state(seed)), (drafts, seed)


def replay_margin(g: CeratopsiansGame, seed: int, actions: tuple[int, ...]) -> int:
    state = play_actions(g, seed, actions)
    assert state.is_terminal()
    first, second = state.scores()
    return first - second


def test_optimal_line_replays_to_its_value() -> None:
    for drafts, seeds in ((4, range(6)), (5, range(3))):
        g = game(drafts)
        for seed in seeds:
            solution = solve(g, seed)
            assert len(solution.actions) == 2 * drafts
            assert replay_margin(g, seed, solution.actions) == solution.value


def test_full_deal_line_replays_to_its_value() -> None:
    g = game()
    solution = solve(g, 1)
    assert len(solution.actions) == 16
    assert replay_margin(g, 1, solution.actions) == solution.value
    assert optimal_first_move(g, 1) == solution.actions[0]


def test_first_player_edge_is_the_mean_of_deal_values() -> None:
    g = game(3)
    edge, margins = first_player_edge(g, range(6))
    assert margins == [minimax(g.new_initial_state(seed)) for seed in range(6)]
    assert edge == sum(margins) / 6
