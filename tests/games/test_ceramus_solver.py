"""The exact solo solvers (fast and reference): equal to plain enumeration on tiny positions, and their lines replay."""

from __future__ import annotations

import pytest
from ceramus_solver_reference import exhaustive, solve_state_reference, upper_bound
from game_helpers import play_to_end, shipped_spec

from cardgen.engine.core import make_game, play_actions, solver_for
from cardgen.games.ceramus.rules import CeramusGame
from cardgen.games.ceramus.solver import solve_state


@pytest.fixture(scope="module")
def solo() -> CeramusGame:
    spec = shipped_spec("ceramus")
    g = make_game(spec, 1)
    assert isinstance(g, CeramusGame)
    return g


TINY = [
    (["MIPN", "NPMI", "IMNP", "PNIM"], ["s03", "s05"], []),
    (["MIPN", "NPMI", "IMNP", "PNIM"], ["s08", "s01"], ["c2"]),
    (["IMPN", "PNMI", "MINP", "NPIM"], ["s02", "s13"], ["c5", "c1"]),
    (["MI", "NP", "PN", "IM"], ["s04", "s02"], ["c3"]),
]


@pytest.mark.parametrize("mural,hand,cards", TINY)
def test_solver_equals_exhaustive_enumeration(solo: CeramusGame, mural: list[str], hand: list[str], cards: list[str]) -> None:
    state = solo.custom_state(mural, [hand])
    for card in cards:
        state.give_ceramas(card, 0)
    best = exhaustive(state)
    for solver in (solve_state, solve_state_reference):
        solution = solver(state)
        assert solution.proved and solution.value == best
        assert play_to_end(state, solution.actions).scores()[0] == best
    assert upper_bound(state) >= best


def test_tiny_example_value(solo: CeramusGame) -> None:
    # bar (2 tiles) and heel (2 tiles) both fit: 4 tiles on the Mural, 12 in reserve
    state = solo.custom_state(["MIPN", "NPMI", "IMNP", "PNIM"], [["s03", "s05"]])
    assert solve_state(state).value == 4 - 12


@pytest.mark.parametrize("seed,value", [(2, 14), (3, 12)])
def test_solver_on_dealt_hands_replays_to_its_value(solo: CeramusGame, seed: int, value: int) -> None:
    solver = solver_for("ceramus")
    assert solver is not None
    solution = solver(solo, seed)
    assert solution.proved and solution.value == value
    end = play_actions(solo, seed, solution.actions)
    assert end.is_terminal() and end.scores()[0] == value
    assert upper_bound(solo.new_initial_state(seed)) >= value


def test_solver_refuses_multiplayer(solo: CeramusGame) -> None:
    g = make_game(solo.spec, 2)
    assert isinstance(g, CeramusGame)
    with pytest.raises(ValueError):
        solve_state(g.new_initial_state(0))
