"""Ceramus: rules (``ceramus``) and the exact solo solver, registered on import."""

from __future__ import annotations

from cardgen.engine.core import register_game, register_solver
from cardgen.engine.mechanics import register_mechanic
from cardgen.games.ceramus.mechanic import CeramusMural
from cardgen.games.ceramus.rules import CeramusGame, CeramusState
from cardgen.games.ceramus.solver import solve, solve_state

register_game("ceramus", CeramusGame)
register_mechanic(CeramusMural)
register_solver("ceramus", solve)

__all__ = ["CeramusGame", "CeramusMural", "CeramusState", "solve", "solve_state"]
