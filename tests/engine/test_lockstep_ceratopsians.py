"""Lockstep: Ceratopsians as rules data with its named mechanic, and the hand-written engine, agree move for move.

At every step of thousands of seeded random games (Ceratopsians has one player count, two),
both engines must offer the same drafts (by slot), show the same position (the deck from its
top, every card's side, the boneyard's slots, both collections as faces, the seat to move,
the scores) and end at the same moment with the same ranking. The reference
(tests/reference/ceratopsians.py) was the shipped rules module; the data side is the spec's
rules data played by the interpreter, whose slide and flip are the mechanic's own code.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardgen.engine.core import make_game
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.games.ceratopsians.mechanic import Boneyard
from cardgen.spec.load import load_spec

from reference.ceratopsians import CeratopsiansGame, CeratopsiansState

SPEC = Path(__file__).resolve().parents[2] / "specs" / "ceratopsians"
GAMES = 2000
"""Games per number of drafts: the shipped 8 each, and 3 (a short game ending with most of the deck unseen)."""


def position(state: DataState) -> dict[str, object]:
    game = state.g
    boneyard = game.mechanics[0]
    assert isinstance(boneyard, Boneyard)
    sides, bone, _ = state.m[boneyard.index]
    first = boneyard.first
    return {
        "deck": [d - first for d in reversed(state.z[game.slot("deck")])],
        "sides": list(sides),
        "bone": list(bone),
        "collections": [sorted(boneyard.collection_faces(state, seat)) for seat in range(2)],
        "to_move": None if state.is_terminal() else state.current_player(),
        "scores": state.scores(),
    }


def reference_position(state: CeratopsiansState) -> dict[str, object]:
    return {
        "deck": list(state.order[state.top :]),
        "sides": list(state.sides),
        "bone": list(state.bone),
        "collections": [sorted(c) for c in state.collections],
        "to_move": None if state.is_terminal() else state.current_player(),
        "scores": state.scores(),
    }


@pytest.fixture(scope="module")
def spec():  # type: ignore[no-untyped-def]
    loaded = load_spec(SPEC)
    assert loaded.spec is not None
    return loaded.spec


def test_the_spec_is_rules_data_with_the_mechanic(spec) -> None:  # type: ignore[no-untyped-def]
    assert spec.rules_data is not None and spec.rules_data.mechanics == ["ceratopsians"]


@pytest.mark.parametrize("drafts", [8, 3])
def test_interpreter_and_reference_agree_at_every_step(spec, drafts: int) -> None:  # type: ignore[no-untyped-def]
    spec = spec.model_copy(update={"numbers": {**spec.numbers, "drafts_per_player": drafts}})
    game = make_game(spec, 2)  # Ceratopsians is played by two, its only player count
    assert isinstance(game, DataGame)
    reference_game = CeratopsiansGame(spec, 2)
    base = game.options[0].index * game.width
    plies = 0
    for seed in range(GAMES):
        data, reference, rng, ply = game.new_initial_state(seed), reference_game.new_initial_state(seed), random.Random(seed), 0
        while True:
            assert position(data) == reference_position(reference), f"seed {seed}, ply {ply}: positions differ"
            slots = [a - base for a in data.legal_actions()]
            assert slots == reference.legal_actions(), f"seed {seed}, ply {ply}: moves differ"
            if not slots:
                break
            slot = rng.choice(slots)
            data.apply_action(base + slot)
            reference.apply_action(slot)
            ply += 1
        plies += ply
        assert data.is_terminal() and reference.is_terminal()
        assert data.conservation_errors() == [] and reference.conservation_errors() == []
        assert data.usage() | {"option:draft.draft": 0} == reference.usage() | {"option:draft.draft": 0}
        assert data.ranking() == reference.ranking()
    assert plies == GAMES * 2 * drafts
