"""Card effects used by the rules that name them (engine/interpreter/named_uses.py): an option whose condition asks
for a card uses the card's effect when taken, and a wild card of a ``sets`` scoring uses its effect when it raised
its holder's final score. Keramikos plays Trash and Sort by such options and scores Complete as a wild card."""

from __future__ import annotations

import random
from pathlib import Path

from cardgen.engine.core import CHANCE, make_game
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.engine.interpreter.named_uses import named_effects
from cardgen.spec.load import load_spec

KERAMIKOS = Path(__file__).resolve().parents[2] / "specs" / "keramikos"
CARDS = {"trash": "trash", "extra-mark": "extra_mark", "sort": "sort"}


def test_only_the_top_level_requests_for_a_card_are_read() -> None:
    assert named_effects("holds(hand, 'trash') and options.trash_takes == 'any'", CARDS) == {"trash"}
    assert named_effects("double == 1 and holds(hand, 'extra-mark') and markers > 1", CARDS) == {"extra_mark"}
    assert named_effects("card.effect in ['steal', 'excavation']", CARDS) == {"steal", "excavation"}
    assert named_effects("top(discard).effect == 'sort'", CARDS) == {"sort"}
    assert named_effects("not holds(hand, 'trash')", CARDS) == set()
    assert named_effects("holds(hand, 'trash') or holds(hand, 'sort')", CARDS) == set()
    assert named_effects("card.effect != 'trash'", CARDS) == set()
    assert named_effects("holds(hand, 'nothing-such')", CARDS) == set()
    assert named_effects(None, CARDS) == set()


def _game(players: int) -> DataGame:
    loaded = load_spec(KERAMIKOS)
    assert loaded.spec is not None
    game = make_game(loaded.spec, players)
    assert isinstance(game, DataGame)
    return game


def _play(game: DataGame, seed: int) -> DataState:
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(state.sample_chance(rng) if state.current_player() == CHANCE else rng.choice(state.legal_actions()))
    return state


def test_trash_and_sort_are_used_as_often_as_their_options_are_taken() -> None:
    game = _game(2)
    for seed in range(10):
        usage = _play(game, seed).usage()
        trash = sum(n for key, n in usage.items() if key.startswith("option:decide.trash_"))
        assert usage["effect:trash"] == trash
        assert usage["effect:sort"] == usage["option:decide.sort"]
        # Extra Mark: carried out when chosen by `mark_extra`, asked for by `deepen_extra`
        assert usage["effect:extra_mark"] == usage["option:resolve.mark_extra"] + usage["option:resolve.deepen_extra"]


def test_a_complete_card_is_used_when_it_raised_a_final_score() -> None:
    game = _game(2)
    hand, collection = game.slot("hand", 0), game.slot("collection", 0)
    state = _play(game, 0)
    state.z[hand][:] = []
    assert state.usage()["effect:complete"] == 0 or any(game.card_ids[d] == "complete" for d in state.z[game.slot("hand", 1)])
    state.z[game.slot("hand", 1)][:] = []
    state.z[collection][:] = [game.design("krater")]  # a started set
    assert state.usage()["effect:complete"] == 0
    state.z[hand][:] = [game.design("complete")]
    assert state.usage()["effect:complete"] == 1
    state.z[collection][:] = []  # nothing to complete: the card raised nothing
    assert state.usage()["effect:complete"] == 0
