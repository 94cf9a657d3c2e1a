"""Helpers shared by the game tests: the shipped specs, loaded once and checked clean."""

from __future__ import annotations

from functools import cache
from pathlib import Path

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
