"""Helpers shared by the game tests: the shipped specs, loaded once and checked clean."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from cardgen.engine.core import State
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec

SPECS = Path(__file__).resolve().parents[2] / "specs"


@cache
def shipped_spec(game_id: str) -> Spec:
    """The spec of a shipped game; it must load with no finding at all."""
    loaded = load_spec(SPECS / game_id)
    assert loaded.findings == [], [f.render() for f in loaded.findings]
    assert loaded.spec is not None
    return loaded.spec


def play_to_end(state: State, actions: Sequence[int]) -> State:
    """A copy of ``state`` after ``actions``, each checked legal; the line must end the game."""
    played = state.clone()
    for action in actions:
        assert action in played.legal_actions()
        played.apply_action(action)
    assert played.is_terminal()
    return played
