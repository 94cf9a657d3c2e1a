"""Mausoleum Guardians: registers the rules module ``mausoleum-guardians``."""

from __future__ import annotations

from cardgen.engine.core import register_game
from cardgen.games.mausoleum_guardians.rules import (
    RULES_ID,
    MausoleumGame,
    MausoleumState,
)

register_game(RULES_ID, MausoleumGame)

__all__ = ["RULES_ID", "MausoleumGame", "MausoleumState"]
