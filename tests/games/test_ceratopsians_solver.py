"""Ceratopsians exact solvers, each checked against an exhaustive search on reduced instances.

Reduced instances are short deals (fewer drafts) and the last drafts of full
deals (a position after random drafts), where plain minimax and expectimax
through the engine are cheap. Thousands of full deals run in bench/solvers.py.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from ceratopsians_solver_reference import CeratopsiansGame, brute_force, expectimax, minimax, random_position
from game_helpers import shipped_spec

from cardgen.engine.core import Game, make_game, play_actions, solver_for
from cardgen.engine.interpreter import DataGame
from cardgen.games.ceratopsians.assembly import DisplayScorer, Joint
from cardgen.games.ceratopsians.information import endgame_note, information_value
from cardgen.games.ceratopsians.position import draft_slot, facts
from cardgen.games.ceratopsians.solver import INFORMATION, first_player_edge, gain_bound, optimal_first_move, solve, solve_state


@lru_cache(maxsize=None)
def game(drafts: int | None = None) -> DataGame:
    """The shipped game (rules data with the mechanic), with ``drafts`` drafts each when given."""
    spec = shipped_spec("ceratopsians")
    if drafts is not None:
        spec = spec.model_copy(update={"numbers": {**spec.numbers, "drafts_per_player": drafts}})
    built = make_game(spec, 2)
    assert isinstance(built, DataGame)
    return built


@lru_cache(maxsize=None)
def reference(drafts: int | None = None) -> CeratopsiansGame:
    """The hand-written reference engine (tests/reference), dealing the same cards for a seed (the lockstep test checks they agree)."""
    return CeratopsiansGame(shipped_spec("ceratopsians"), 2, drafts_per_player=drafts)


def slots(g: Game, actions: tuple[int, ...]) -> list[int]:
    return [draft_slot(g, action) for action in actions]


def replay_margin(g: Game, seed: int, actions: tuple[int, ...]) -> int:
    state = play_actions(g, seed, actions)
    assert state.is_terminal()
    first, second = state.scores()
    return first - second


def test_solver_is_registered_and_says_what_it_knows() -> None:
    assert solver_for("ceratopsians") is solve
    solution = solve(game(3), 0)
    assert solution.information == INFORMATION
    assert "deck order" in solution.information and "players do not" in solution.information


# --- the gain bound ------------------------------------------------------------------------


def test_gain_bound_is_admissible_against_brute_force() -> None:
    """value(C + f) - value(C) <= gain_bound(f, C), both values by brute force over set partitions."""
    scorer = facts(game()).scorer
    rng = random.Random(2024)
    tight = 0
    for _ in range(400):
        size = rng.randint(0, 6)
        cards = rng.sample(range(18), size + 1)
        faces = [2 * c + rng.randrange(2) for c in cards]
        collection, face = faces[:-1], faces[-1]
        gain = brute_force(scorer, faces) - brute_force(scorer, collection)
        bound = gain_bound(scorer, face, collection)
        assert gain <= bound, (collection, face, gain, bound)
        tight += gain == bound
    assert tight > 0


def test_gain_bound_is_admissible_on_large_collections() -> None:
    """The same on collections of 7 to 15 faces, valued by the display search (itself checked by brute force)."""
    scorer = facts(game()).scorer
    rng = random.Random(13)
    for _ in range(1500):
        cards = rng.sample(range(18), rng.randint(8, 16))
        faces = [2 * c + rng.randrange(2) for c in cards]
        collection, face = faces[:-1], faces[-1]
        gain = scorer.search(faces)[0] - scorer.search(collection)[0]
        assert gain <= gain_bound(scorer, face, collection), (collection, face, gain)


def _scorer_for_regrouping() -> DisplayScorer:
    """Three parts in a row (0-1-2). Faces: a0 (part 0), b0 and b1 (part 1), c0 and c1 (part 2).

    b1 joins c1 with weight 5 and nothing else; b0 joins a0 and c0 with weight 1.
    """
    part_of = [0, 1, 1, 2, 2]
    a0, b0, b1, c0, c1 = range(5)
    weight = [[0] * 5 for _ in range(5)]

    def join(f: int, g: int, w: int) -> None:
        weight[f][g] = weight[g][f] = w

    join(a0, b0, 1)
    join(b0, c0, 1)
    join(b1, c1, 5)
    return DisplayScorer(part_of, weight, [Joint(0, 1), Joint(1, 2)], 3, 3)


def test_one_card_can_regroup_a_collection_around_a_complete_display() -> None:
    """Issue 13's family: one card gains more than its own edges although the rarest part stays as rare.

    {a0, b0, b1, c1} scores 8 (a0 b1 c1 complete, b0 alone). Adding c0 leaves part 0 the rarest,
    with one card, yet the best arrangement regroups: a0 b0 c0 complete (5) and b1 c1 (5) make 10.
    The gain, 2, exceeds c0's best edge (1): the bonus has to stay in the bound.
    """
    scorer = _scorer_for_regrouping()
    a0, b0, b1, c0, c1 = range(5)
    collection = [a0, b0, b1, c1]
    assert brute_force(scorer, collection) == 8
    assert brute_force(scorer, collection + [c0]) == 10
    best_edge = max(scorer.weight[c0][g] for g in collection)
    assert 10 - 8 > best_edge
    assert 10 - 8 <= gain_bound(scorer, c0, collection)
    assert scorer.search(collection + [c0])[0] == 10


def test_scorer_refuses_negative_weights() -> None:
    with pytest.raises(ValueError, match="must not be negative"):
        DisplayScorer([0, 1], [[0, -1], [-1, 0]], [Joint(0, 1)], 2, 3)


# --- the perfect-information search ----------------------------------------------------------


def test_alpha_beta_equals_minimax_on_short_deals() -> None:
    for drafts in (2, 3, 4):
        g = game(drafts)
        for seed in range(8 if drafts < 4 else 3):
            solution = solve(g, seed)
            assert solution.proved
            assert solution.value == minimax(reference(drafts).new_initial_state(seed)), (drafts, seed)
            assert replay_margin(g, seed, solution.actions) == solution.value


def test_alpha_beta_equals_minimax_on_the_last_drafts_of_full_deals() -> None:
    """Late positions hold the large collections where the gain bound is tested hardest."""
    g = reference()
    for seed in range(40):
        drafts = 9 + seed % 3  # 7, 6 or 5 drafts left
        state = random_position(g, seed, drafts)
        value, actions, _ = solve_state(state)
        assert value == minimax(state), seed
        end = state.clone()
        for action in actions:
            end.apply_action(action)
        first, second = end.scores()
        assert end.is_terminal() and first - second == value


@pytest.mark.parametrize("seed", [144, 238])
def test_deals_that_made_the_search_inconsistent(seed: int) -> None:
    """Issue 13: these deals ended in 'the search is inconsistent' with the old gain bound."""
    g = game()
    solution = solve(g, seed)
    assert replay_margin(g, seed, solution.actions) == solution.value
    # Every late position on the line: the solver (on the data game) agrees with plain minimax (on the reference).
    state, same = g.new_initial_state(seed), reference().new_initial_state(seed)
    for ply, action in enumerate(solution.actions):
        if ply >= 11:
            assert solve_state(state)[0] == minimax(same), ply
        state.apply_action(action)
        same.apply_action(draft_slot(g, action))


def test_full_deal_line_replays_to_its_value() -> None:
    g = game()
    solution = solve(g, 1)
    assert len(solution.actions) == 16
    assert replay_margin(g, 1, solution.actions) == solution.value
    assert optimal_first_move(g, 1) == draft_slot(g, solution.actions[0])


def test_first_player_edge_is_the_mean_of_deal_values() -> None:
    g = game(3)
    edge, margins = first_player_edge(g, range(6))
    assert margins == [minimax(reference(3).new_initial_state(seed)) for seed in range(6)]
    assert edge == sum(margins) / 6


# --- the players' information ------------------------------------------------------------------


def test_information_value_equals_expectimax_through_the_engine() -> None:
    g = reference()
    for seed in range(16):
        drafts = 11 + seed % 2  # 5 or 4 drafts left, 3 or 2 cards unseen
        state = random_position(g, seed, drafts)
        assert information_value(state) == expectimax(state), seed


def test_information_value_on_short_deals() -> None:
    g = reference(2)
    for seed in range(3):
        state = random_position(g, seed, 2)  # two drafts left, twelve cards unseen
        assert information_value(state) == expectimax(state), seed


def test_information_value_ignores_the_hidden_order() -> None:
    """Two deals that differ only in cards nobody has seen have the same value under the players' information."""
    g = reference()
    state = random_position(g, 5, 11)
    hidden = list(state.order[state.top + 1 :])
    assert len(hidden) >= 2
    other = state.clone()
    other.order = state.order[: state.top + 1] + tuple(reversed(hidden))
    for card in hidden:
        other.sides[card] ^= 1
    assert information_value(other) == information_value(state)
    # while the perfect-information value may differ; it is computed from the order
    assert solve_state(other)[0] == minimax(other)


def test_solution_notes_both_information_models() -> None:
    g = game()
    solution = solve(g, 3)
    assert solution.notes == endgame_note(g.new_initial_state(3), slots(g, solution.actions))
    assert solution.notes == endgame_note(reference().new_initial_state(3), slots(g, solution.actions))  # the same on the reference
    assert "with the deck known" in solution.notes[0] and "players' information" in solution.notes[0]


def test_cli_solve_says_what_the_solver_knows() -> None:
    from typer.testing import CliRunner

    from cardgen.cli.app import app

    result = CliRunner().invoke(app, ["solve", "ceratopsians", "--seed", "144"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "proved optimal" in out and "verified: replaying the line reaches" in out
    assert "what the solver knows: perfect information" in out and "which the players do not" in out
    assert "expected under the players' information" in out
