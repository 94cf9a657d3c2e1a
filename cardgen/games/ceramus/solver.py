"""Exact solver for solo Ceramus: the best score for a dealt Mural and hand of Shape cards.

:func:`solve` and :func:`solve_state` use the dedicated bit-board search of
:mod:`cardgen.games.ceramus.solo_search` (one node per whole turn, compact
keys, a sound upper bound whose argument is in :meth:`SoloSearch.bound`) and
translate its line into engine actions, which are replayed through the engine
before the answer is returned.

What the solver knows: in solo Ceramus the player sees the Mural, their hand
of Shape cards and the Ceramas cards in the row, and nothing is drawn after the
deal, so the solver knows exactly what the player knows.

The tests check the search against an engine-based reference search and plain
enumeration (``tests/games/ceramus_solver_reference.py``).
"""

from __future__ import annotations

from cardgen.engine.core import Game, Solution, State
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.games.ceramus.geometry import OVER, REVEAL
from cardgen.games.ceramus.mechanic import NAME
from cardgen.games.ceramus.position import MoveNamer, MuralPosition, move_name, view
from cardgen.games.ceramus.solo_search import SoloSearch, engine_actions

INFORMATION = "the player's own information: the Mural, the hand and the row are open and nothing is drawn after the deal"

def solve_state(state: DataState, node_budget: int | None = None) -> Solution:
    """Solve a solo position of the data game exactly: its best final score and one line of play reaching it.

    The position must be at the start of a round (or over): the bit-board search keeps whole
    turns. With ``node_budget`` (turn expansions)
    the search may stop early: the answer is then the best line found, ``proved=False``.
    """
    return solve_position(state, view(state), move_name, node_budget)


def solve_position(state: State, position: MuralPosition, name_of: MoveNamer, node_budget: int | None = None) -> Solution:
    """:func:`solve_state` for any engine: ``position`` is ``state``'s facts and ``name_of`` names its actions
    (the tests' reference engine is solved this way)."""
    if position.n != 1:
        raise ValueError("the exact Ceramus solver plays solo games only")
    if position.phase not in (REVEAL, OVER):
        raise ValueError("the exact Ceramus solver starts at the beginning of a round, not in the middle of a turn")
    search = SoloSearch(position, node_budget)
    value = search.solve()
    proved = not search.out_of_budget
    turns = search.line() if proved else search.greedy_line()
    actions = tuple(engine_actions(state, position, turns, name_of))
    end = state.clone()
    for action in actions:
        end.apply_action(action)
    reached = end.scores()[0]
    if proved and reached != value:
        raise RuntimeError(f"the solo line reaches {reached}, not the value {value}")
    return Solution(
        value=float(reached), actions=actions, proved=proved, nodes=search.nodes,
        detail="solo score" if proved else f"solo score (best found; upper bound {value})",
        information=INFORMATION,
    )


def solve(game: Game, seed: int) -> Solution:
    """The best solo score for the deal of ``seed`` (Mural and six Shape cards), proved."""
    if not isinstance(game, DataGame) or not any(m.declaration.name == NAME for m in game.mechanics):
        raise TypeError("not a Ceramus game")
    return solve_state(game.new_initial_state(seed))
