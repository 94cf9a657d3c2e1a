"""Lockstep: the rules-data interpreter and a hand-written Crazy Eights agree move for move.

At every step of thousands of seeded random games, at every player count, both
engines must offer the same moves, show the same position (stock order, discard
pile, hands, suit to follow, seat to move, scores) and end at the same moment with
the same ranking. The reference (tests/reference/crazy_eights.py) is written from the
rulebook, not from the interpreter, so a disagreement is a bug in one of them, or a
rulebook that says two things.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardgen.engine.core import make_game
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.spec.load import load_spec

from reference.crazy_eights import CrazyEights

SPEC = Path(__file__).resolve().parents[2] / "specs" / "crazy-eights"
GAMES_PER_COUNT = 400


def move_name(state: DataState, action: int) -> str:
    """An interpreter action as the reference names it: the option id (and card id), or the variable and its value."""
    game = state.g
    index, parameter = divmod(action, game.width)
    if index >= game.choice_base:
        var = index - game.choice_base
        return f"{list(game.rules.variables)[var]} {game.variable_values[var][parameter]}"
    option = game.options[index]
    verb = option.key.split(".")[1]
    return f"{verb} {game.card_ids[parameter]}" if option.chooses_card else verb


def position(state: DataState) -> dict[str, object]:
    game = state.g
    ids = game.card_ids

    def zone(name: str, seat: int = 0) -> list[int]:
        return state.z[game.slot(name, seat)]

    return {
        "stock": [ids[d] for d in zone("stock")],
        "discard": [ids[d] for d in zone("discard")],
        "hands": [sorted(ids[d] for d in zone("hand", seat)) for seat in range(game.num_players)],
        "suit": state.v[game.tables.variable_index["suit"]],
        "to_move": None if state.is_terminal() else state.current_player(),
        "scores": state.scores(),
    }


@pytest.fixture(scope="module")
def spec():  # type: ignore[no-untyped-def]
    loaded = load_spec(SPEC)
    assert loaded.spec is not None
    return loaded.spec


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_interpreter_and_reference_agree_at_every_step(spec, players: int) -> None:  # type: ignore[no-untyped-def]
    game = make_game(spec, players)
    assert isinstance(game, DataGame)
    for seed in range(GAMES_PER_COUNT):
        data, reference, rng, ply = game.new_initial_state(seed), CrazyEights(spec, players, seed), random.Random(seed), 0
        while True:
            assert position(data) == reference.position(), f"{players} players, seed {seed}, ply {ply}: positions differ"
            actions = {move_name(data, a): a for a in data.legal_actions()}
            assert sorted(actions) == sorted(reference.legal()), f"{players} players, seed {seed}, ply {ply}: moves differ"
            if not actions:
                break
            move = rng.choice(sorted(actions))
            data.apply_action(actions[move])
            reference.apply(move)
            ply += 1
        assert data.is_terminal() and reference.over
        order = sorted(set(reference.scores()), reverse=True)
        assert data.ranking() == [[s for s, v in enumerate(reference.scores()) if v == value] for value in order]
