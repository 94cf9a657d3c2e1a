"""The toy's own rules, checked on positions worked out by hand (its 'rulebook examples')."""

from __future__ import annotations

from cardgen.engine.core import CHANCE, TERMINAL, Termination, make_game, play_actions
from cardgen.spec.load import LoadedSpec

from .toy_rules import PASS, ROLL_BASE, ToyState


def _state(toy: LoadedSpec, players: int = 2) -> ToyState:
    assert toy.spec is not None
    game = make_game(toy.spec, players)
    state = game.new_initial_state(0)
    assert isinstance(state, ToyState)
    return state


def test_roll_four_allows_small_pebbles_and_the_wild(toy: LoadedSpec) -> None:
    state = _state(toy)
    game = state.game
    # Lay out a known row: Three, Five, Wild.
    ids = game.card_ids
    three = next(p for p, d in enumerate(game.card_of) if ids[d] == "three")
    five = next(p for p, d in enumerate(game.card_of) if ids[d] == "five")
    wild = next(p for p, d in enumerate(game.card_of) if ids[d] == "wild")
    pool = [p for p in range(len(game.card_of)) if p not in (three, five, wild)]
    state.row, state.bag = [three, five, wild], pool[:]
    top = pool[-1]
    assert state.current_player() == CHANCE
    assert state.legal_actions() == [ROLL_BASE + f for f in range(1, 7)]
    state.apply_action(ROLL_BASE + 4)
    assert state.current_player() == 0
    assert state.legal_actions() == [0, 2, PASS]  # Three and the Wild, not the Five
    assert state.action_to_string(2) == "P1 takes Wild Pebble (4) from slot 3"
    state.apply_action(2)
    assert state.scores() == [4, 0]  # the Wild is worth wild_points = 4
    assert state.row[2] == top  # refilled from the top of the bag
    assert state.current_player() == CHANCE and state.seat == 1
    assert state.conservation_errors() == []


def test_game_ends_after_max_turns(toy: LoadedSpec) -> None:
    state = _state(toy, 1)
    for _ in range(16):
        state.apply_action(ROLL_BASE + 1)
        state.apply_action(PASS)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert state.termination() is Termination.TURN_LIMIT
    assert state.scores() == [0]


def test_play_actions_rejects_an_illegal_move(toy: LoadedSpec) -> None:
    assert toy.spec is not None
    game = make_game(toy.spec, 2)
    try:
        play_actions(game, 0, [ROLL_BASE + 1, 40])
    except ValueError as error:
        assert "ply 1" in str(error)
    else:
        raise AssertionError("an illegal action was accepted")
