"""Ceratopsians: the deck's pairing rules, the boneyard update, display scoring and random playouts.

The game is the spec's rules data with the named mechanic ``ceratopsians``; positions are read
through :func:`cardgen.games.ceratopsians.position.position`.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from ceratopsians_solver_reference import brute_force, greedy
from game_helpers import shipped_spec

from cardgen.engine.core import make_game, spec_contract
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.games.ceratopsians.mechanic import EMPTY
from cardgen.games.ceratopsians.position import Draft, Facts, boneyard_of, draft_action, facts, position
from cardgen.spec.models import Spec

MIRROR = {"left-frill": "right-frill", "right-frill": "left-frill", "center-frill": "center-frill", "left-cheek": "right-cheek", "right-cheek": "left-cheek", "mouth": "mouth"}


@lru_cache(maxsize=1)
def spec() -> Spec:
    return shipped_spec("ceratopsians")


@lru_cache(maxsize=1)
def game() -> DataGame:
    built = make_game(spec(), 2)
    assert isinstance(built, DataGame)
    return built


def skulls() -> Facts:
    return facts(game())


def face(name: str) -> int:
    """The face index of a face named like 'Red-Yellow Left Frill'."""
    return skulls().face_names.index(name)


# --- the deck ---------------------------------------------------------------------


def test_deck_counts_match_the_source() -> None:
    deck = spec().decks[0]
    assert len(deck.cards) == 18
    types = [c.type for c in deck.cards]
    assert (types.count("center-frill"), types.count("mouth"), types.count("frill-pair"), types.count("cheek-pair")) == (3, 3, 6, 6)
    faces = [(tuple(f.data["colours"]), f.data["part"]) for c in deck.cards for f in c.faces or []]  # type: ignore[arg-type]
    assert len(faces) == 36 and len(set(faces)) == 36  # every skull part exactly once


def test_faces_are_complementary_and_mirrored() -> None:
    for card in spec().decks[0].cards:
        assert card.faces is not None and len(card.faces) == 2
        one, two = (f.data for f in card.faces)
        assert not set(one["colours"]) & set(two["colours"]), card.id  # type: ignore[arg-type]
        assert MIRROR[str(one["part"])] == two["part"], card.id


def test_layout_is_two_rows_of_three_with_seven_joints() -> None:
    g = skulls()
    cells = dict(zip(g.part_ids, g.part_cell))
    assert cells == {"center-frill": (1, 0), "mouth": (1, 1), "left-frill": (0, 0), "right-frill": (2, 0), "left-cheek": (0, 1), "right-cheek": (2, 1)}
    pairs = {frozenset((g.part_ids[j.first], g.part_ids[j.second])) for j in g.joints}
    assert len(pairs) == 7
    assert frozenset(("center-frill", "mouth")) in pairs and frozenset(("left-frill", "mouth")) not in pairs


# --- the boneyard update (rulebook example, clarification 3) -----------------------------


class Fixed:
    """A data game's position set by hand, with the reference's names for what the tests read."""

    def __init__(self, drafts: int = 0) -> None:
        """Cards 0, 1, 2 (A, B, C) in slots 0, 1, 2 showing side 0; the deck continues 3, 4, ... from its top;
        ``drafts`` drafts made before (collections left empty), so seat ``drafts % 2`` is to move."""
        g = game()
        mechanic = boneyard_of(g)
        state = g.new_initial_state(0)
        size = mechanic.skulls.deck_size
        state.z[g.slot("deck")] = [mechanic.first + card for card in reversed(range(3, size))]
        state.m[mechanic.index] = [[0] * size, [0, 1, 2], EMPTY]
        state.seat, state.turn = drafts % 2, drafts + 1
        self.state: DataState = state
        self.index = mechanic.index

    def apply_action(self, slot: int) -> None:
        self.state.apply_action(draft_action(game(), slot))

    @property
    def seen(self) -> Draft:
        return position(self.state)

    @property
    def bone(self) -> list[int]:
        return self.seen.bone

    @property
    def sides(self) -> list[int]:
        return self.state.m[self.index][0]

    @property
    def collections(self) -> list[list[int]]:
        return self.seen.collections


def fixed_state(drafts: int = 0) -> Fixed:
    return Fixed(drafts)


def test_first_player_drafts_middle_card() -> None:
    state = fixed_state()
    state.apply_action(1)  # B
    assert state.bone == [3, 0, 2]  # refill nearest P1, A slid to the middle, C stayed
    assert state.sides[2] == 1 and state.sides[0] == 0  # C flipped, A did not
    assert state.collections[0] == [2 * 1 + 0]


def test_first_player_drafts_nearest_card_flips_both() -> None:
    state = fixed_state()
    state.apply_action(0)
    assert state.bone == [3, 1, 2]
    assert (state.sides[1], state.sides[2]) == (1, 1)


def test_first_player_drafts_furthest_card_flips_none() -> None:
    state = fixed_state()
    state.apply_action(2)
    assert state.bone == [3, 0, 1]
    assert (state.sides[0], state.sides[1]) == (0, 0)


def test_second_player_sees_the_column_from_the_other_end() -> None:
    state = fixed_state(drafts=1)  # seat 1 to move; slot 2 is nearest them
    state.apply_action(1)
    assert state.bone == [0, 2, 3]  # A (furthest from P2) stays and flips; C slides to the middle
    assert (state.sides[0], state.sides[2]) == (1, 0)
    state2 = fixed_state(drafts=1)
    state2.apply_action(0)
    assert state2.bone == [1, 2, 3] and (state2.sides[1], state2.sides[2]) == (0, 0)


def test_drafted_side_is_kept() -> None:
    state = fixed_state()
    state.sides[1] = 1
    state.apply_action(1)
    assert state.collections[0] == [2 * 1 + 1]


def test_last_turn_has_no_refill_and_leaves_two_cards() -> None:
    g = game()
    state = g.new_initial_state(7)
    for _ in range(15):
        state.apply_action(state.legal_actions()[0])
    assert position(state).order == () and len(state.legal_actions()) == 3
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.legal_actions() == []
    assert sorted(c >= 0 for c in position(state).bone) == [False, True, True]
    assert not state.conservation_errors()


# --- display scoring (rulebook example) --------------------------------------------------


SKULL = ["Left Frill", "Center Frill", "Right Frill", "Left Cheek", "Mouth", "Right Cheek"]


def test_complete_single_skull_display_scores_eleven() -> None:
    scorer = skulls().scorer
    display = [face(f"Red-Yellow {part}") for part in SKULL]
    assert scorer.display_score(display) == 8 + 3
    assert scorer.value(display) == 11
    assert scorer.display_score(display[:5]) == 8 - 2  # no bonus, and the Right Cheek takes its two pairs with it


def test_only_filled_markers_score() -> None:
    scorer = skulls().scorer
    assert scorer.display_score([face("Red-Yellow Left Frill"), face("Red-Green Center Frill")]) == 1
    assert scorer.display_score([face("Red-Yellow Left Frill"), face("Yellow-Green Center Frill")]) == 0
    # complementary skulls share no colour, so nothing ever aligns
    assert scorer.display_score([face("Red-Yellow Center Frill"), face("Green-Blue Mouth")]) == 0
    # Center Frill over Mouth fills both colours: a shared colour scores 1, the same skull 2
    assert scorer.display_score([face("Red-Yellow Center Frill"), face("Yellow-Green Mouth")]) == 1
    assert scorer.display_score([face("Red-Yellow Center Frill"), face("Red-Yellow Mouth")]) == 2


def test_diagonal_positions_do_not_score() -> None:
    scorer = skulls().scorer
    assert scorer.display_score([face("Red-Yellow Left Frill"), face("Red-Yellow Mouth")]) == 0


def test_two_sets_split_into_two_displays() -> None:
    scorer = skulls().scorer
    ry = [face(f"Red-Yellow {part}") for part in SKULL]
    yb = [face(f"Yellow-Blue {part}") for part in SKULL]
    assert scorer.value(ry + yb) == 22
    value, arrangement = scorer.search(ry + yb, want_arrangement=True)
    assert value == 22 and len(arrangement) == 2 and scorer.arrangement_score(arrangement) == 22


def random_collection(rng: random.Random, size: int) -> list[int]:
    cards = rng.sample(range(18), size)
    return [2 * c + rng.randrange(2) for c in cards]


def test_optimal_assembly_equals_brute_force_on_small_collections() -> None:
    scorer = skulls().scorer
    rng = random.Random(11)
    for _ in range(120):
        faces = random_collection(rng, rng.randint(2, 8))
        assert scorer.search(faces)[0] == brute_force(scorer, faces), faces


def test_optimal_assembly_is_at_least_greedy() -> None:
    scorer = skulls().scorer
    rng = random.Random(12)
    better = 0
    for _ in range(500):
        faces = random_collection(rng, 8)
        best, quick = scorer.search(faces)[0], greedy(scorer, faces)
        assert best >= quick
        assert best <= scorer.upper_bound(faces)
        better += best > quick
    assert better > 0  # the exact search matters


# --- whole games ---------------------------------------------------------------------------


def test_random_playouts_conserve_cards_and_end() -> None:
    g = game()
    info = g.info()
    assert info.max_game_length >= 16
    rng = random.Random(3)
    used: set[str] = set()
    for seed in range(300):
        state = g.new_initial_state(seed)
        steps = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            assert actions and actions == sorted(actions)
            if steps % 5 == 0:
                assert not state.conservation_errors()
            state.apply_action(rng.choice(actions))
            steps += 1
        assert steps == 16
        assert not state.conservation_errors(), seed
        assert all(info.min_score <= s <= info.max_score for s in state.scores())
        assert [len(c) for c in position(state).collections] == [8, 8]
        used.update(state.usage())
    assert used == set(g.usage_keys())


def test_same_seed_same_deal_and_clone_is_independent() -> None:
    g = game()
    a, b = g.new_initial_state(42), g.new_initial_state(42)
    assert a.fingerprint() == b.fingerprint()
    assert g.new_initial_state(43).fingerprint() != a.fingerprint()
    copy = a.clone()
    copy.apply_action(0)
    assert a.fingerprint() == b.fingerprint() and copy.fingerprint() != a.fingerprint()


def test_action_strings_read_like_the_rules() -> None:
    state = fixed_state().state
    text = state.action_to_string(draft_action(game(), 0))
    assert text.startswith("P1 Draft: ") and "from slot 0, nearest them" in text
    state.seat = 1
    assert "furthest from them" in state.action_to_string(draft_action(game(), 0))


def _played_length_and_scores(built: DataGame, seed: int) -> tuple[int, list[int]]:
    """One uniformly random game on ``built``: its number of actions and its final scores."""
    state = built.new_initial_state(seed)
    choose = random.Random(seed)
    length = 0
    while not state.is_terminal():
        state.apply_action(choose.choice(state.legal_actions()))
        length += 1
    return length, state.scores()


def test_spec_numbers_drive_the_rules() -> None:
    """Each of the spec's numbers, changed in the spec, changes what the game does."""
    shipped = game()
    assert (skulls().drafts_per_player, skulls().bonus, skulls().pair_points, len(position(shipped.new_initial_state(0)).bone)) == (8, 3, 1, 3)
    varied_spec = spec().model_copy(update={"numbers": {"drafts_per_player": 6, "pair_points": 2, "complete_display_bonus": 5}})
    varied = make_game(varied_spec, 2)
    assert isinstance(varied, DataGame)
    assert (facts(varied).drafts_per_player, facts(varied).bonus, facts(varied).pair_points) == (6, 5, 2)
    assert _played_length_and_scores(shipped, 3)[0] == 16 and _played_length_and_scores(varied, 3)[0] == 12
    # The same deal and choices score differently when only the points change.
    points_only = make_game(spec().model_copy(update={"numbers": {**spec().numbers, "pair_points": 2, "complete_display_bonus": 5}}), 2)
    assert isinstance(points_only, DataGame)
    scores = [(_played_length_and_scores(shipped, seed)[1], _played_length_and_scores(points_only, seed)[1]) for seed in range(20)]
    assert any(before != after for before, after in scores)
    assert all(a >= b for before, after in scores for a, b in zip(after, before))  # more points per pair never lower a score
    too_many = spec().model_copy(update={"numbers": {**spec().numbers, "drafts_per_player": 9}})
    contract = spec_contract(too_many)
    assert contract is not None
    assert [problem for check in contract.checks for problem in check(too_many)]  # more drafts than the deck allows: refused
