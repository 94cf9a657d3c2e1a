"""Agents: the registry, reproducibility from the seed, and choices with a known best answer."""

from __future__ import annotations

import itertools
import random

import pytest

from cardgen.engine.agents import Agent, GreedyAgent, MctsAgent, agent_names, make_agent, register_agent
from cardgen.engine.core import make_game
from cardgen.engine.playout import play_game
from cardgen.spec.load import LoadedSpec

from .toy_rules import PASS, ROLL_BASE, ToyGame, ToyState, solve_toy


def test_registry_names_and_parameters(toy: LoadedSpec) -> None:
    assert toy.spec is not None
    game = make_game(toy.spec, 2)
    assert {"random", "greedy", "mcts"} <= set(agent_names())
    agent = make_agent("mcts:30", game)
    assert isinstance(agent, MctsAgent) and agent.budget == 30 and agent.name == "mcts:30"
    with pytest.raises(ValueError, match="unknown agent 'genius'"):
        make_agent("genius", game)
    with pytest.raises(ValueError, match="whole number"):
        make_agent("mcts:lots", game)


def test_a_game_package_can_register_its_own_planner(toy: LoadedSpec) -> None:
    class PassAgent(Agent):
        def choose(self, state, legal, rng):  # type: ignore[no-untyped-def]
            return legal[-1]

    register_agent("always-last", lambda game, param: PassAgent())
    assert toy.spec is not None
    game = make_game(toy.spec, 1)
    result = play_game(game, [make_agent("always-last", game)], 0)
    assert result.scores == [0]  # passing every turn takes nothing
    assert result.agents == ("always-last",)


@pytest.mark.parametrize("name", ["random", "greedy", "mcts:20"])
def test_playouts_are_reproducible(toy: LoadedSpec, name: str) -> None:
    assert toy.spec is not None
    game = make_game(toy.spec, 2)
    first = play_game(game, [make_agent(name, game), make_agent("random", game)], 11)
    second = play_game(game, [make_agent(name, game), make_agent("random", game)], 11)
    assert first.actions == second.actions and first.scores == second.scores


def _known_row(toy: LoadedSpec) -> ToyState:
    assert toy.spec is not None
    game = make_game(toy.spec, 2)
    assert isinstance(game, ToyGame)
    state = game.new_initial_state(0)
    assert isinstance(state, ToyState)
    by_id = {game.card_ids[d]: p for p, d in enumerate(game.card_of)}
    state.row = [by_id["one"], by_id["four"], by_id["three"]]
    state.apply_action(ROLL_BASE + 6)
    return state


def test_greedy_takes_the_most_points(toy: LoadedSpec) -> None:
    state = _known_row(toy)
    agent = GreedyAgent(state.game)
    assert state.legal_actions() == [0, 1, 2, PASS]
    assert agent.choose(state, state.legal_actions(), random.Random(0)) == 1  # the Four


def test_mcts_finds_the_obvious_move(toy: LoadedSpec) -> None:
    state = _known_row(toy)
    agent = MctsAgent(state.game, budget=300)
    picks = [agent.choose(state, state.legal_actions(), random.Random(seed)) for seed in range(3)]
    assert picks.count(1) >= 2


def test_greedy_beats_random_in_solo(toy: LoadedSpec) -> None:
    assert toy.spec is not None
    game = make_game(toy.spec, 1)
    greedy = sum(play_game(game, [make_agent("greedy", game)], s).scores[0] for s in range(30))
    chance = sum(play_game(game, [make_agent("random", game)], s).scores[0] for s in range(30))
    assert greedy > chance


def test_toy_solver_matches_brute_force(variant) -> None:  # type: ignore[no-untyped-def]
    loaded = variant({"die_sides": 0, "max_turns": 5})
    game = make_game(loaded.spec, 1)
    for seed in range(3):
        best = -1
        for line in itertools.product([0, 1, 2, PASS], repeat=5):
            state = game.new_initial_state(seed)
            ok = True
            for action in line:
                if action not in state.legal_actions():
                    ok = False
                    break
                state.apply_action(action)
            if ok and state.is_terminal():
                best = max(best, state.scores()[0])
        solution = solve_toy(game, seed)
        assert solution.proved and solution.value == best
