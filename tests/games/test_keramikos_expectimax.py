"""The Keramikos expectimax planner: stop when a bust is likely, roll when it is not."""

from __future__ import annotations

import random

import pytest
from game_helpers import shipped_spec

from cardgen.engine.agents import make_agent
from cardgen.engine.core import CHANCE, make_game
from cardgen.games.keramikos.expectimax import (
    _classes,
    expectimax_action,
    roll_or_stop_values,
)
from cardgen.games.keramikos.rules import (
    A_DEEPEN,
    A_DICE,
    A_MARK,
    A_ROLL,
    A_STOP,
    DECIDE,
    KeramikosGame,
    KeramikosState,
)


@pytest.fixture(scope="module")
def game() -> KeramikosGame:
    spec = shipped_spec("keramikos")
    built = make_game(spec, 2)
    assert isinstance(built, KeramikosGame)
    return built


def position(game: KeramikosGame, stacks: dict[int, list[str]], marked: dict[int, int], owned: dict[str, int]) -> KeramikosState:
    """P1 deciding whether to roll again, with ``marked[total]`` cards marked on each site."""
    state = game.new_initial_state(0)
    state.deck = [game.kind_ids.index("krater")]
    state.stacks = [[] for _ in range(game.num_sites)]
    for total, cards in stacks.items():
        state.stacks[game.site_ids.index(f"site-{total}")] = [game.kind_ids.index(c) for c in cards]
    for total, m in marked.items():
        state.marks[game.site_ids.index(f"site-{total}")] = m
    for card, n in owned.items():
        state.coll[0][game.kind_ids.index(card)] = n
    state.supply[0] = game.markers - sum(marked.values())
    counts = [0] * game.num_kinds
    for kind in state.deck + [c for st in state.stacks for c in st]:
        counts[kind] += 1
    for k in range(game.num_pottery):
        counts[k] += state.coll[0][k]
    state.discard = [game.copies[k] - counts[k] for k in range(game.num_kinds)]
    state.phase = DECIDE
    assert state.conservation_errors() == []
    return state


def test_dice_classes_are_exact(game: KeramikosGame) -> None:
    classes = _classes(game)
    assert len(classes) == 9  # totals 2..8, with 4 and 6 split into doubles and not
    assert abs(sum(p for _, p in classes) - 1.0) < 1e-12
    by_total: dict[int, float] = {}
    for outcome, p in classes:
        d1, d2 = game.outcome_dice[outcome]
        by_total[d1 + d2] = by_total.get(d1 + d2, 0.0) + p
    assert by_total == pytest.approx({2: 1 / 16, 3: 2 / 16, 4: 3 / 16, 5: 4 / 16, 6: 3 / 16, 7: 2 / 16, 8: 1 / 16})


def test_stops_when_a_bust_is_almost_certain(game: KeramikosGame) -> None:
    # six of seven sites marked, each stack a single card: only a 5 (4 in 16) avoids the bust
    stacks = {2: ["amphora"], 3: ["kylix"], 4: ["pyxis"], 5: ["skyphos"], 6: ["lekythos"], 7: ["pelike"], 8: ["krater"]}
    marked = {2: 1, 3: 1, 4: 1, 6: 1, 7: 1, 8: 1}
    state = position(game, stacks, marked, {"amphora": 2, "kylix": 2})
    stop, roll = roll_or_stop_values(state, 3)
    assert stop > roll
    for depth in (1, 2, 3):
        assert expectimax_action(state, depth) == A_STOP


def test_rolls_when_nothing_is_marked(game: KeramikosGame) -> None:
    stacks = {2: ["amphora"], 3: ["kylix"], 4: ["pyxis"], 5: ["skyphos"], 6: ["lekythos"], 7: ["pelike"], 8: ["krater"]}
    state = position(game, stacks, {}, {})
    assert state.legal_actions() == [A_ROLL]
    assert expectimax_action(state, 2) == A_ROLL


def test_rolls_when_little_is_at_risk(game: KeramikosGame) -> None:
    # one skyphos marked (worth nothing alone); every other site holds a card that completes a set
    stacks = {2: ["amphora"], 3: ["kylix"], 4: ["pyxis"], 5: ["skyphos", "skyphos"], 6: ["lekythos"], 7: ["pelike"], 8: ["dinos"]}
    owned = {"amphora": 2, "kylix": 2, "pyxis": 2, "lekythos": 2, "pelike": 2, "dinos": 1}
    state = position(game, stacks, {5: 1}, owned)
    stop, roll = roll_or_stop_values(state, 2)
    assert roll > stop
    assert expectimax_action(state, 2) == A_ROLL


def test_doubles_option_beats_a_bust(game: KeramikosGame) -> None:
    stacks = {4: ["pyxis", "pyxis", "pyxis"], 6: ["lekythos"]}
    state = position(game, stacks, {4: 1}, {})
    state.apply_action(A_ROLL)
    state.apply_action(A_DICE + 1 * 4 + 1)  # 2 + 2: site 4 again, but doubles
    assert expectimax_action(state, 2) == A_DEEPEN + game.site_ids.index("site-4")
    state2 = position(game, stacks, {4: 1}, {})
    state2.apply_action(A_ROLL)
    state2.apply_action(A_DICE + 0 * 4 + 2)  # 1 + 3: no choice but to bust
    assert expectimax_action(state2, 2) == A_MARK


def test_planner_beats_random(game: KeramikosGame) -> None:
    planner = make_agent("keramikos-expectimax:1", game)
    wins = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        seat = seed % 2
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = state.sample_chance(rng)
            elif state.current_player() == seat:
                legal = state.legal_actions()
                action = planner.choose(state, legal, rng)
                assert action in legal
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        wins += state.ranking()[0] == [seat]
    assert wins >= 5
