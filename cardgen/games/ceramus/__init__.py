"""Ceramus: the named mechanic ``ceramus_mural`` (the Mural's cells and tiles) and the exact solo solver, registered on import.

The game's setup, rounds, bonus steps, end and first player are rules data in its spec; this package registers
what the vocabulary cannot say (:mod:`.mechanic`), the solver of a solo deal, its layouts and figures.
"""

from __future__ import annotations

from cardgen.engine.core import register_solver
from cardgen.engine.mechanics import register_mechanic
from cardgen.games.ceramus.mechanic import CeramusMural
from cardgen.games.ceramus.solver import solve, solve_state

register_mechanic(CeramusMural)
register_solver(CeramusMural.declaration.package, solve)

__all__ = ["CeramusMural", "solve", "solve_state"]
