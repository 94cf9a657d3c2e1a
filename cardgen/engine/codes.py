"""The engine's finding codes (CG500-CG599) and what each means.

Kept apart from :mod:`cardgen.engine.checks` so that registering them with the
validator (``cardgen validate``, ``--list-codes``) does not import the
simulation itself; that is imported when a spec with a rules module is checked.
"""

from __future__ import annotations

CHECK_CODES: dict[str, str] = {
    "CG500": "the spec names no rules module, so it is not simulated (info)",
    "CG501": "the spec names a rules module that is not registered",
    "CG502": "the game cannot be built or dealt at a supported player count",
    "CG503": "dead end: a position that is not over offers no legal action",
    "CG504": "timeout: a playout passed the game's own bound on its length (info().max_game_length)",
    "CG505": "never used: a card, pattern, bonus or set listed in usage_keys() was not used at some player count; an error when the rules module proves it unusable there, a warning (with the games it rests on) when no random, skill or targeted game happened to use it",
    "CG506": "the rules module raised an exception during play",
    "CG507": "a final score lies outside the bounds info() states",
    "CG508": "conservation broken at the end of a playout (a piece in two places or none, scores not matching)",
    "CG509": "seat imbalance: two seats' win rates differ by more than balance.max_seat_gap",
    "CG510": "skill barely matters: the planning agent's edge over random is below balance.min_skill_edge",
    "CG511": "the win-rate interval is wider than balance.interval_half_width after balance.max_playouts playouts",
    "CG513": "degenerate: every game at a player count ends with all seats tied for first place",
    "CG514": "degenerate: every seat's final score is the same in every game at a player count, whatever is played",
    "CG515": "degenerate: no seat ever has a choice (every decision offers one legal action)",
}
