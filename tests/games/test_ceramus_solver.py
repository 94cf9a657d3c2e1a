"""The exact solo solvers (fast and reference): equal to plain enumeration on tiny positions, and their lines replay."""

from __future__ import annotations

import pytest
from ceramus_solver_reference import exhaustive, solve_state_reference, upper_bound
from game_helpers import play_to_end, shipped_spec

from cardgen.engine.core import make_game, play_actions, solver_for
from cardgen.engine.interpreter import DataGame
from cardgen.games.ceramus.solver import solve_state as solve_data_state
from reference.ceramus import CeramusGame, dealt_like
from reference.ceramus import solve_fast as solve_state


@pytest.fixture(scope="module")
def solo() -> CeramusGame:
    """The reference engine at one player: the solver's search is checked on its positions (any Mural, any hand)."""
    return CeramusGame(shipped_spec("ceramus"), 1)


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


@pytest.mark.parametrize("seed", [4, 5])  # deals the engine-based reference search solves in well under a second
def test_the_registered_solver_on_a_data_deal_replays_to_the_reference_value(solo: CeramusGame, seed: int) -> None:
    """The shipped game is the rules data: its solver solves the data game's deal, its line replays there to its
    value, and the engine-based reference search finds the same value on the reference dealt the same way."""
    data = make_game(solo.spec, 1)
    assert isinstance(data, DataGame)
    solver = solver_for("ceramus")
    assert solver is not None
    solution = solver(data, seed)
    reference = dealt_like(solo, data.new_initial_state(seed))
    value = solve_state_reference(reference).value
    assert solution.proved and solution.value == value
    end = play_actions(data, seed, solution.actions)
    assert end.is_terminal() and end.scores()[0] == value
    assert upper_bound(reference) >= value


def test_solver_refuses_multiplayer(solo: CeramusGame) -> None:
    with pytest.raises(ValueError):
        solve_state(CeramusGame(solo.spec, 2).new_initial_state(0))
    data = make_game(solo.spec, 2)
    assert isinstance(data, DataGame)
    with pytest.raises(ValueError):
        solve_data_state(data.new_initial_state(0))
