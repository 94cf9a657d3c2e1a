"""The Keramikos expectimax planner on the data game: stop when a bust is likely, roll when it is not, and beat
random play."""

from __future__ import annotations

import random

import pytest
from game_helpers import shipped_spec

from cardgen.engine.agents import make_agent
from cardgen.engine.core import CHANCE, make_game
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.games.keramikos.expectimax import expectimax_action, roll_or_stop_values
from cardgen.games.keramikos.position import facts, key_of, position

SITES = ["site-2", "site-3", "site-4", "site-5", "site-6", "site-7", "site-8"]


@pytest.fixture(scope="module")
def game() -> DataGame:
    built = make_game(shipped_spec("keramikos"), 2)
    assert isinstance(built, DataGame)
    return built


def table(game: DataGame, stacks: dict[int, list[str]], marked: dict[int, int], owned: dict[str, int]) -> DataState:
    """P1 deciding whether to roll again; ``stacks[total]`` lists a site's cards from the top down, of which the top
    ``marked[total]`` are marked; P1's collection holds ``owned``; the rest of the deck lies in the discard pile."""
    state = game.new_initial_state(0)
    t = game.tables
    for zone in state.z:
        zone.clear()
    state.c[:] = [0] * len(state.c)
    stacks_at, marked_at = t.zone_index["stacks"], t.zone_index["marked"]
    used: list[int] = []
    for total, cards in stacks.items():
        pile = SITES.index(f"site-{total}")
        designs = [game.design(c) for c in cards]
        m = marked.get(total, 0)
        state.z[marked_at + pile][:] = designs[:m]
        state.z[stacks_at + pile][:] = list(reversed(designs[m:]))
        used += designs
    state.c[t.counter_index["markers"]] = facts(game).markers - sum(marked.values())
    for card, n in owned.items():
        state.z[game.slot("collection", 0)].extend([game.design(card)] * n)
        used += [game.design(card)] * n
    state.z[game.slot("deck")].append(game.design("krater"))
    used.append(game.design("krater"))
    left = [d for d, copies in enumerate(game.copies) for _ in range(copies) if d not in game.laid_out]
    for d in used:
        left.remove(d)
    state.z[game.slot("discard")].extend(left)
    assert state.seat == 0 and state.current_player() == 0
    assert state.conservation_errors() == []
    return state


def keys(game: DataGame, state: DataState) -> list[str]:
    return [key_of(game, a)[0] for a in state.legal_actions()]


def test_the_position_reads_the_rows(game: DataGame) -> None:
    state = table(game, {4: ["pyxis", "lekythos"], 5: ["skyphos"]}, {4: 1}, {"amphora": 2})
    dig = position(state)
    design = game.design
    assert dig.marked[SITES.index("site-4")] == [design("pyxis")]
    assert dig.stacks[SITES.index("site-4")] == [design("lekythos")]
    assert dig.stacks[SITES.index("site-5")] == [design("skyphos")]
    assert dig.placed == 1 and dig.step == "decide" and dig.collections[0] == [design("amphora")] * 2
    assert facts(game).markers == 10


def test_the_dice_outcomes_are_exact(game: DataGame) -> None:
    state = table(game, {5: ["skyphos"]}, {}, {})
    state.apply_action(facts(game).action("decide.roll"))
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
    by_total: dict[int, float] = {}
    for outcome, p in outcomes:
        total, _double = divmod(key_of(game, outcome)[1], 2)
        by_total[total] = by_total.get(total, 0.0) + p
    assert by_total == pytest.approx({2: 1 / 16, 3: 2 / 16, 4: 3 / 16, 5: 4 / 16, 6: 3 / 16, 7: 2 / 16, 8: 1 / 16})


def test_stops_when_a_bust_is_almost_certain(game: DataGame) -> None:
    # six of seven sites marked, each stack a single card: only a 5 (4 in 16) avoids the bust
    stacks = {2: ["amphora"], 3: ["kylix"], 4: ["pyxis"], 5: ["skyphos"], 6: ["lekythos"], 7: ["pelike"], 8: ["krater"]}
    marked = {2: 1, 3: 1, 4: 1, 6: 1, 7: 1, 8: 1}
    state = table(game, stacks, marked, {"amphora": 2, "kylix": 2})
    stop, roll = roll_or_stop_values(state, 3)
    assert stop > roll
    for depth in (1, 2, 3):
        assert key_of(game, expectimax_action(state, depth))[0] == "decide.stop"


def test_rolls_when_nothing_is_marked(game: DataGame) -> None:
    stacks = {2: ["amphora"], 3: ["kylix"], 4: ["pyxis"], 5: ["skyphos"], 6: ["lekythos"], 7: ["pelike"], 8: ["krater"]}
    state = table(game, stacks, {}, {})
    assert keys(game, state) == ["decide.roll"]
    assert key_of(game, expectimax_action(state, 2))[0] == "decide.roll"


def test_rolls_when_little_is_at_risk(game: DataGame) -> None:
    # one skyphos marked (worth nothing alone); every other site holds a card that completes a set
    stacks = {2: ["amphora"], 3: ["kylix"], 4: ["pyxis"], 5: ["skyphos", "skyphos"], 6: ["lekythos"], 7: ["pelike"], 8: ["dinos"]}
    owned = {"amphora": 2, "kylix": 2, "pyxis": 2, "lekythos": 2, "pelike": 2, "dinos": 1}
    state = table(game, stacks, {5: 1}, owned)
    stop, roll = roll_or_stop_values(state, 2)
    assert roll > stop
    assert key_of(game, expectimax_action(state, 2))[0] == "decide.roll"


def _rolled(game: DataGame, state: DataState, total: int, double: bool) -> DataState:
    state.apply_action(facts(game).action("decide.roll"))
    outcome = next(a for a, _ in state.chance_outcomes() if key_of(game, a)[1] == 2 * total + int(double))
    state.apply_action(outcome)
    assert position(state).step == "resolve"
    return state


def test_doubles_option_beats_a_bust(game: DataGame) -> None:
    stacks = {4: ["pyxis", "pyxis", "pyxis"], 6: ["lekythos"]}
    state = _rolled(game, table(game, stacks, {4: 1}, {}), 4, True)  # 2 + 2: site 4 again, but doubles
    assert key_of(game, expectimax_action(state, 2)) == ("resolve.deepen", SITES.index("site-4"))
    other = _rolled(game, table(game, stacks, {4: 1}, {}), 4, False)  # 1 + 3: no choice but to bust
    assert keys(game, other) == ["resolve.bust"]
    assert key_of(game, expectimax_action(other, 2))[0] == "resolve.bust"


def test_the_agent_is_refused_for_another_game() -> None:
    other = make_game(shipped_spec("no-thanks"), 3)
    with pytest.raises(ValueError, match="only plays Keramikos"):
        make_agent("keramikos-expectimax", other)


def test_planner_beats_random(game: DataGame) -> None:
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
