"""Ceratopsians (Michael Purcell): the named mechanic ``ceratopsians`` (boneyard and displays) and the exact solver.

The game's setup, turn, end and scoring are rules data in its spec; this package registers
what the vocabulary cannot say (:mod:`.mechanic`), the solver of a deal, its layouts and figures.
"""

from __future__ import annotations

from cardgen.engine.core import register_solver
from cardgen.engine.mechanics import register_mechanic
from cardgen.games.ceratopsians.mechanic import Boneyard
from cardgen.games.ceratopsians.solver import solve

__all__ = ["Boneyard", "solve"]

register_mechanic(Boneyard)
register_solver(Boneyard.declaration.package, solve)
