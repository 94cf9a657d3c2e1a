"""A data game's position summary (``DataState.summary``) reads the rules data's zones, counters and variables."""

from __future__ import annotations

import random

import pytest

from cardgen.api import every_spec, load_spec, make_game
from cardgen.engine.core import State
from cardgen.engine.interpreter import DataState
from cardgen.spec.models import Spec


def _spec(game_id: str) -> Spec:
    spec = load_spec(game_id).spec
    assert spec is not None
    return spec


def _data_specs() -> list[str]:
    return [path.name for path in every_spec() if _spec(path.name).rules_data is not None]


def test_crazy_eights_deal_is_summarised_from_the_spec() -> None:
    loaded = load_spec("crazy-eights")
    spec = _spec("crazy-eights")
    setup = next(s for s in spec.setups if s.players == 2)
    dealt = setup.deal["standard"]
    deck = sum(int(card.copies) for deck in spec.decks for card in deck.cards)
    state = make_game(loaded, 2).new_initial_state(4)
    assert isinstance(state, DataState)
    top = state.g.card_names[state.z[state.g.slot("discard")][-1]]
    suit = state.v[0]
    assert state.summary() == (
        f"stock {deck - 2 * dealt - 1}; discard 1 (top {top}); hand P1 {dealt}, P2 {dealt}; draws P1 0, P2 0; suit {suit}"
    )


@pytest.mark.parametrize("game_id", _data_specs())
def test_every_zone_and_counter_is_named_along_a_playout(game_id: str) -> None:
    loaded = load_spec(game_id)
    rules = _spec(game_id).rules_data
    assert rules is not None
    players = _spec(game_id).setups[0].players
    state: State = make_game(loaded, players).new_initial_state(0)
    rng = random.Random(0)
    for _ in range(40):
        words = state.summary()
        for name in [*rules.zones, *rules.counters]:
            assert f"{name} " in words, (name, words)
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_a_mechanic_adds_its_own_words() -> None:
    loaded = load_spec("ceratopsians")
    state = make_game(loaded, 2).new_initial_state(0)
    assert "; boneyard " in state.summary()
