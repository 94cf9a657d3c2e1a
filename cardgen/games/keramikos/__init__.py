"""Keramikos (Gearlock Games): rules module ``keramikos`` and its expectimax planner."""

from __future__ import annotations

from cardgen.engine.agents import register_agent
from cardgen.engine.core import register_game
from cardgen.games.keramikos.expectimax import expectimax_action, make_expectimax_agent
from cardgen.games.keramikos.rules import KeramikosGame, KeramikosState
from cardgen.spec.models import Spec

__all__ = ["KeramikosGame", "KeramikosState", "expectimax_action", "make_keramikos"]


def make_keramikos(spec: Spec, num_players: int) -> KeramikosGame:
    """Build the Keramikos game for ``spec`` at ``num_players`` seats."""
    return KeramikosGame(spec, num_players)


register_game("keramikos", make_keramikos, KeramikosGame.contract)
register_agent("keramikos-expectimax", make_expectimax_agent)
