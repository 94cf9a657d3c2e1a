"""Keramikos (Gearlock Games): the card widgets, layouts, rulebook figures and expectimax planner of a game written
as rules data.

The game is played by the generic interpreter from the ``rules:`` mapping of ``specs/keramikos/game.yaml``; the
engine it shipped with is kept as the reference in ``tests/reference/keramikos.py``, and the two agree move for move
(``tests/engine/test_lockstep_keramikos.py``). The widgets and layouts register themselves from ``widgets.py``, the
figures from ``figures.py``, when the generic layers import the game packages' parts.
"""

from __future__ import annotations

from cardgen.engine.agents import register_agent
from cardgen.games.keramikos.expectimax import expectimax_action, make_expectimax_agent

__all__ = ["expectimax_action", "make_expectimax_agent"]

register_agent("keramikos-expectimax", make_expectimax_agent)
