"""The rules-data interpreter, on Crazy Eights (a shipped game written only as data).

Each rule is checked from the rulebook's own words: the deal, matching the suit
or the rank, eights on anything with a suit to name, the draw limit, passing only
when stuck, the end when a hand is empty or everyone passes, penalty points.
Positions are set up by hand from a real deal, so the test names the cards.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardgen.engine.core import make_game
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.engine.core import Termination
from cardgen.spec.load import load_spec

SPEC = Path(__file__).resolve().parents[2] / "specs" / "crazy-eights"


@pytest.fixture(scope="module")
def games() -> dict[int, DataGame]:
    loaded = load_spec(SPEC)
    assert loaded.spec is not None, [f.render() for f in loaded.findings]
    out = {}
    for players in range(loaded.spec.players.min, loaded.spec.players.max + 1):
        game = make_game(loaded.spec, players)
        assert isinstance(game, DataGame)
        out[players] = game
    return out


def design(game: DataGame, card_id: str) -> int:
    return game.design(card_id)


def zone(state: DataState, name: str, seat: int = 0) -> list[int]:
    return state.z[state.g.slot(name, seat)]


def arrange(game: DataGame, hands: list[list[str]], top: str, stock: list[str]) -> DataState:
    """A position with these hands, this card on the discard pile and this stock (its top last); the rest set aside."""
    state = game.new_initial_state(0)
    for index in range(len(state.z)):
        state.z[index] = []
    for seat, hand in enumerate(hands):
        zone(state, "hand", seat).extend(design(game, c) for c in hand)
    zone(state, "discard").append(design(game, top))
    zone(state, "stock").extend(design(game, c) for c in stock)
    state.v[game.tables.variable_index["suit"]] = game.tables.field_values["suit"][design(game, top)]
    return state


def described(state: DataState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_the_deal_follows_the_setup_table(games: dict[int, DataGame]) -> None:
    spec = games[2].spec
    for players, game in games.items():
        deal = next(s for s in spec.setups if s.players == players).deal["standard"]
        state = game.new_initial_state(7)
        assert [len(zone(state, "hand", seat)) for seat in range(players)] == [deal] * players
        assert len(zone(state, "discard")) == 1
        assert len(zone(state, "stock")) == 52 - deal * players - 1
        top = zone(state, "discard")[-1]
        assert state.v[0] == game.tables.field_values["suit"][top], "the turned-up card's suit is the suit to follow"
        assert not state.conservation_errors()


def test_a_card_matches_the_suit_or_the_rank_and_an_eight_goes_on_anything(games: dict[int, DataGame]) -> None:
    game = games[2]
    state = arrange(game, [["5-hearts", "9-spades", "9-clubs", "8-diamonds", "k-diamonds"], ["2-clubs"]], top="9-hearts", stock=["3-clubs"])
    assert sorted(described(state)) == [
        "P1 draw a card",
        "P1 play a card: Eight of Diamonds",
        "P1 play a card: Five of Hearts",
        "P1 play a card: Nine of Clubs",
        "P1 play a card: Nine of Spades",
    ], "the king of diamonds matches neither the hearts to follow nor the nine on top"


def test_after_an_eight_its_player_names_the_suit_to_follow(games: dict[int, DataGame]) -> None:
    game = games[2]
    state = arrange(game, [["8-diamonds", "k-diamonds"], ["2-clubs", "5-spades"]], top="9-hearts", stock=["3-clubs"])
    eight = next(a for a in state.legal_actions() if state.action_to_string(a).endswith("Eight of Diamonds"))
    state.apply_action(eight)
    assert state.current_player() == 0, "naming the suit is still the eight's player's decision"
    assert described(state) == ["P1 chooses suit spades", "P1 chooses suit hearts", "P1 chooses suit diamonds", "P1 chooses suit clubs"]
    state.apply_action(state.legal_actions()[3])
    assert state.current_player() == 1
    assert described(state) == ["P2 play a card: Two of Clubs", "P2 draw a card"], "clubs named, so the two of clubs goes down on an eight of diamonds"


def test_drawing_stops_at_the_limit_and_a_pass_comes_only_when_stuck(games: dict[int, DataGame]) -> None:
    game = games[2]
    limit = game.spec.numbers["max_draws"]
    state = arrange(game, [["k-clubs"], ["2-clubs"]], top="9-hearts", stock=["2-spades", "3-spades", "4-spades", "5-spades", "6-spades"])
    for drawn in range(limit):
        assert described(state) == ["P1 draw a card"], f"after {drawn} draws"
        state.apply_action(state.legal_actions()[0])
    assert described(state) == ["P1 pass"], "no match, the draw limit reached: the only move is to pass"
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 1
    assert len(zone(state, "hand", 0)) == 1 + limit


def test_the_game_ends_when_a_hand_is_empty_and_left_cards_cost_their_points(games: dict[int, DataGame]) -> None:
    game = games[3]
    state = arrange(game, [["9-clubs"], ["8-spades", "k-hearts"], ["a-diamonds", "7-clubs"]], top="9-hearts", stock=["2-spades"])
    state.apply_action(next(a for a in state.legal_actions() if "Nine of Clubs" in state.action_to_string(a)))
    assert state.is_terminal() and state.termination() is Termination.NORMAL
    assert state.scores() == [0, -(50 + 10), -(1 + 7)]
    assert state.ranking() == [[0], [2], [1]]


def test_when_the_stock_is_empty_and_nobody_can_play_every_player_passes_and_play_stops(games: dict[int, DataGame]) -> None:
    game = games[2]
    state = arrange(game, [["k-clubs"], ["2-clubs", "3-spades"]], top="9-hearts", stock=[])
    state.apply_action(state.legal_actions()[0])
    assert not state.is_terminal(), "one pass is not yet the end"
    assert described(state) == ["P2 pass"]
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.termination() is Termination.NO_LEGAL_MOVES
    assert state.scores() == [-10, -5]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_keep_every_card_and_end_within_the_bound(games: dict[int, DataGame], players: int) -> None:
    game = games[players]
    for seed in range(40):
        state, rng, length = game.new_initial_state(seed), random.Random(seed), 0
        while not state.is_terminal():
            actions = state.legal_actions()
            assert actions, f"dead end at seed {seed}"
            copy = state.clone()
            state.apply_action(rng.choice(actions))
            assert copy.fingerprint() != state.fingerprint()
            length += 1
        assert length <= game.info().max_game_length
        assert state.conservation_errors() == []
        assert all(game.info().min_score <= s <= 0 for s in state.scores())
