"""Ceratopsians (Michael Purcell): rules module ``ceratopsians`` and its exact solver."""

from __future__ import annotations

from cardgen.engine.core import register_game, register_solver
from cardgen.games.ceratopsians.rules import CeratopsiansGame, CeratopsiansState
from cardgen.games.ceratopsians.solver import solve
from cardgen.engine.mechanics import register_mechanic
from cardgen.games.ceratopsians.mechanic import Boneyard
from cardgen.spec.models import Spec

__all__ = ["CeratopsiansGame", "CeratopsiansState", "make_ceratopsians", "solve"]


def make_ceratopsians(spec: Spec, num_players: int) -> CeratopsiansGame:
    """Build the Ceratopsians game for ``spec`` (two players only)."""
    return CeratopsiansGame(spec, num_players)


register_game("ceratopsians", make_ceratopsians, CeratopsiansGame.contract)
register_solver("ceratopsians", solve)
register_mechanic(Boneyard)
