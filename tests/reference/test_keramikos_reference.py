"""Keramikos' hand-written engine, the reference of its rules data: spec, rules and every special card, checked
against the spec's clarifications.

The shipped game is played from its rules data by the interpreter; these tests keep the reference honest, and
tests/engine/test_lockstep_keramikos.py proves that the two agree move for move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardgen.engine.core import CHANCE
from reference.keramikos import (
    A_BURN,
    A_BURN_DECLARE,
    A_DEEPEN,
    A_DEEPEN_EXTRA,
    A_DICE,
    A_MARK,
    A_MARK_EXTRA,
    A_PASS,
    A_REROLL,
    A_ROLL,
    A_SABOTAGE,
    A_SORT,
    A_SORT_PICK,
    A_STEAL,
    A_STOP,
    A_TAKE,
    A_TRASH,
    BURN,
    DECIDE,
    RESOLVE,
    ROLLING,
    SABOTAGE_WINDOW,
    SORTING,
    STEAL,
    TAKE,
    KeramikosGame,
    KeramikosState,
)
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec

SPEC_DIR = Path(__file__).resolve().parents[2] / "specs" / "keramikos"


def shipped_spec(game_id: str = "keramikos") -> Spec:
    """The shipped spec (the reference engine reads its decks, numbers and rule options); it loads clean."""
    loaded = load_spec(SPEC_DIR.parent / game_id)
    assert loaded.findings == [], [f.render() for f in loaded.findings]
    assert loaded.spec is not None
    return loaded.spec


@pytest.fixture(scope="module")
def spec() -> Spec:
    return shipped_spec("keramikos")


@pytest.fixture(scope="module")
def game2(spec: Spec) -> KeramikosGame:
    game = KeramikosGame(spec, 2)
    assert isinstance(game, KeramikosGame)
    return game


@pytest.fixture(scope="module")
def game3(spec: Spec) -> KeramikosGame:
    game = KeramikosGame(spec, 3)
    assert isinstance(game, KeramikosGame)
    return game


def dice(d1: int, d2: int) -> int:
    """The chance action for an ordered pair of four-sided dice."""
    return A_DICE + (d1 - 1) * 4 + (d2 - 1)


def kind(game: KeramikosGame, card_id: str) -> int:
    return game.kind_ids.index(card_id)


def site(game: KeramikosGame, total: int) -> int:
    return game.site_ids.index(f"site-{total}")


def blank(game: KeramikosGame, deck: list[str] | None = None, stacks: dict[int, list[str]] | None = None) -> KeramikosState:
    """A position at the start of P1's turn with exactly the given deck (top first) and stacks (by total).

    Every card not placed is put in the discard pile so that conservation holds.
    """
    state = game.new_initial_state(0)
    state.deck = [kind(game, c) for c in reversed(deck or [])]
    state.stacks = [[] for _ in range(game.num_sites)]
    for total, cards in (stacks or {}).items():
        state.stacks[site(game, total)] = [kind(game, c) for c in cards]
    _balance(state)
    return state


def _balance(state: KeramikosState) -> None:
    """Put every card that is nowhere else into the discard pile."""
    g = state.g
    counts = [0] * g.num_kinds
    for card in state.deck:
        counts[card] += 1
    for st in state.stacks:
        for card in st:
            counts[card] += 1
    for p in range(g.num_players):
        for k in range(g.num_pottery):
            counts[k] += state.coll[p][k]
        for j in range(g.num_special):
            counts[g.num_pottery + j] += state.hand[p][j]
    state.discard = [g.copies[k] - counts[k] for k in range(g.num_kinds)]
    assert min(state.discard) >= 0


def give(state: KeramikosState, seat: int, card_id: str, n: int = 1) -> None:
    """Move ``n`` cards of ``card_id`` from the discard pile to a seat's collection or hand."""
    g = state.g
    k = kind(g, card_id)
    if k < g.num_pottery:
        state.coll[seat][k] += n
    else:
        state.hand[seat][k - g.num_pottery] += n
    _balance(state)


def roll(state: KeramikosState, d1: int, d2: int) -> None:
    """Roll (from a decision) and settle the dice on ``d1, d2``."""
    if state.phase == DECIDE:
        state.apply_action(A_ROLL)
    assert state.phase == ROLLING
    state.apply_action(dice(d1, d2))


def assert_sound(state: KeramikosState) -> None:
    assert state.conservation_errors() == []


# --- spec and setup ----------------------------------------------------------------------


def test_spec_counts(spec: Spec, game2: KeramikosGame) -> None:
    assert game2.site_ids == [f"site-{t}" for t in range(2, 9)]
    assert game2.site_level == [4, 3, 2, 1, 2, 3, 4]
    assert game2.num_pottery == 16 and game2.num_special == 8
    assert sum(game2.copies[: game2.num_pottery]) == 42
    assert sum(game2.copies) == 57
    assert max(game2.set_size) == 3 and sum(game2.points) == game2.info().max_score == 108
    assert game2.copies[kind(game2, "complete")] == 1
    assert game2.points[kind(game2, "kylix")] == 8 and game2.set_size[kind(game2, "kylix")] == 3
    assert game2.markers == next(c for c in spec.components if c.id == "marker").count == 10


def test_dice_map_every_total_to_one_site(game2: KeramikosGame) -> None:
    outcomes = game2.new_initial_state(1).clone()
    outcomes.phase = ROLLING
    chance = outcomes.chance_outcomes()
    assert len(chance) == 16 and abs(sum(p for _, p in chance) - 1.0) < 1e-12
    hits = [0] * 7
    for idx, s in enumerate(game2.outcome_site):
        hits[s] += 1
        d1, d2 = game2.outcome_dice[idx]
        assert game2.site_ids[s] == f"site-{d1 + d2}"
    assert hits == [1, 2, 3, 4, 3, 2, 1]  # rarer totals, higher levels
    assert sum(game2.outcome_double) == 4


def test_setup_follows_clarification_3(game3: KeramikosGame) -> None:
    for seed in range(50):
        state = game3.new_initial_state(seed)
        sizes = [len(st) for st in state.stacks]
        assert sizes.count(2) == 1 and max(sizes) == 2  # exactly one card did not find an empty site
        double = sizes.index(2)
        level = game3.site_level[double]
        same_level = game3.sites_of_level[level]
        assert double == same_level[0] and all(sizes[s] >= 1 for s in same_level)
        for s, st in enumerate(state.stacks):
            for card in st:
                assert card < game3.num_pottery and game3.level[card] == game3.site_level[s]
        assert len(state.deck) == 57 - sum(sizes)
        assert_sound(state)


def test_setup_is_deterministic_and_fingerprint_sees_deck_order(game2: KeramikosGame) -> None:
    a, b = game2.new_initial_state(7), game2.new_initial_state(7)
    assert a.fingerprint() == b.fingerprint()
    c = a.clone()
    c.deck[0], c.deck[-1] = c.deck[-1], c.deck[0]
    if c.deck[0] != a.deck[0]:
        assert c.fingerprint() != a.fingerprint()
    assert game2.new_initial_state(8).fingerprint() != a.fingerprint()


# --- the turn ----------------------------------------------------------------------------


def test_first_roll_marks_top_card_and_roll_or_stop(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["skyphos", "aryballos", "alabastron"], stacks={5: ["kyathos", "skyphos"], 7: ["kylix"]})
    assert state.legal_actions() == [A_ROLL]
    roll(state, 2, 3)
    assert state.phase == RESOLVE and state.current_player() == 0
    state.apply_action(A_MARK)
    assert state.marks[site(game2, 5)] == 1 and state.supply[0] == 9
    assert state.legal_actions() == [A_ROLL, A_STOP]
    state.apply_action(A_STOP)
    assert state.coll[0][kind(game2, "kyathos")] == 1
    # sites 2, 3, 4, 6 and 8 are empty, so the stop refills one card (one marker placed): a skyphos to site 5
    assert state.stacks[site(game2, 5)] == [kind(game2, "skyphos"), kind(game2, "skyphos")]
    assert state.current_player() == 1 and state.supply[0] == 10
    assert len(state.deck) == 2
    assert_sound(state)


def test_bust_collects_nothing_and_refills(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["hydria", "pyxis", "kantharos"], stacks={5: ["kyathos", "skyphos"], 7: ["kylix"]})
    roll(state, 2, 3)
    state.apply_action(A_MARK)
    roll(state, 3, 4)
    state.apply_action(A_MARK)
    before = [row[:] for row in state.coll]
    roll(state, 1, 4)  # 5 again: site 5 already carries a marker
    assert state.action_to_string(A_MARK).startswith("P1 busts")
    state.apply_action(A_MARK)
    assert state.coll == before
    assert state.current_player() == 1 and state.phase == DECIDE
    assert state.marks == [0] * 7 and state.supply == [10, 10]
    # the two marked cards stay; two cards (one per marker) were drawn
    assert state.stacks[site(game2, 5)] == [kind(game2, "kyathos"), kind(game2, "skyphos")]
    assert state.stacks[site(game2, 7)] == [kind(game2, "kylix")]
    assert state.stacks[site(game2, 3)] == [kind(game2, "hydria")]  # level 3: site 3 holds fewer than site 7
    assert state.stacks[site(game2, 4)] == [kind(game2, "pyxis")]  # level 2: both empty, leftmost
    assert state.deck == [kind(game2, "kantharos")]
    assert_sound(state)


def test_doubles_mark_below_own_marker_and_save_a_bust(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["skyphos"], stacks={4: ["pyxis", "lekythos", "oinochoe"], 6: ["kantharos"]})
    roll(state, 1, 3)  # total 4, not doubles
    assert A_DEEPEN + site(game2, 4) not in state.legal_actions()
    state.apply_action(A_MARK)
    roll(state, 2, 2)  # total 4 again, but doubles
    legal = state.legal_actions()
    assert A_MARK in legal and A_DEEPEN + site(game2, 4) in legal
    state.apply_action(A_DEEPEN + site(game2, 4))
    assert state.marks[site(game2, 4)] == 2 and state.phase == DECIDE
    roll(state, 3, 3)  # total 6 doubles: may mark site 6 or go deeper in site 4
    assert set(state.legal_actions()) >= {A_MARK, A_DEEPEN + site(game2, 4)}
    state.apply_action(A_DEEPEN + site(game2, 4))
    assert state.marks[site(game2, 4)] == 3
    roll(state, 1, 1)  # doubles, but no marked stack has a card left below
    assert not any(A_DEEPEN <= a < A_DEEPEN + 7 for a in state.legal_actions())
    state.apply_action(A_MARK)  # site 2 is empty: marker on the site, no level-1 card on the table
    state.apply_action(A_STOP)
    assert state.coll[0][kind(game2, "pyxis")] == 1 and state.coll[0][kind(game2, "lekythos")] == 1
    assert state.coll[0][kind(game2, "oinochoe")] == 1
    assert_sound(state)


def test_empty_site_marks_the_site_and_takes_a_level_one_card(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={5: ["skyphos", "aryballos"], 7: ["kyathos", "kylix"]})
    roll(state, 1, 2)  # total 3: site 3 is empty
    state.apply_action(A_MARK)
    assert state.site_mark[site(game2, 3)] == 1
    assert state.phase == TAKE
    assert state.legal_actions() == sorted(A_TAKE + kind(game2, c) for c in ("skyphos", "aryballos", "kyathos"))
    state.apply_action(A_TAKE + kind(game2, "kyathos"))
    assert state.coll[0][kind(game2, "kyathos")] == 1
    assert state.stacks[site(game2, 7)] == [kind(game2, "kylix")]
    assert state.phase == DECIDE
    roll(state, 2, 1)  # site 3 again: the marker on the empty site makes it a bust
    state.apply_action(A_MARK)
    assert state.coll[0][kind(game2, "kyathos")] == 1  # the taken card is kept after the bust
    assert_sound(state)


def test_empty_site_without_level_one_cards_continues(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={7: ["kylix"]})
    roll(state, 4, 4)
    state.apply_action(A_MARK)
    assert state.phase == DECIDE and state.site_mark[site(game2, 8)] == 1
    assert state.legal_actions() == [A_ROLL, A_STOP]


def test_burn_a_card_to_reroll(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={5: ["skyphos"]})
    give(state, 0, "hydria", 2)
    roll(state, 2, 3)
    assert A_BURN_DECLARE in state.legal_actions()
    state.apply_action(A_BURN_DECLARE)
    assert state.phase == BURN and state.legal_actions() == [A_BURN + kind(game2, "hydria")]
    discard_before = state.discard[kind(game2, "hydria")]
    state.apply_action(A_BURN + kind(game2, "hydria"))
    assert state.coll[0][kind(game2, "hydria")] == 1
    assert state.discard[kind(game2, "hydria")] == discard_before + 1
    assert state.phase == ROLLING and state.marks == [0] * 7
    assert_sound(state)


def test_no_burn_without_pottery(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={5: ["skyphos"]})
    roll(state, 2, 3)
    assert state.legal_actions() == [A_MARK]


def test_refill_as_evenly_as_possible(game2: KeramikosGame) -> None:
    deck = ["amphora", "krater", "dinos", "steal", "skyphos", "hydria"]
    state = blank(game2, deck=deck, stacks={2: ["amphora"], 3: ["kylix"], 4: ["pyxis"], 5: ["skyphos"], 6: ["lekythos"], 7: ["pelike"], 8: []})
    state._refill(6)  # the refill step itself (clar. 10)
    by_total = {t: [game2.kind_ids[c] for c in state.stacks[site(game2, t)]] for t in range(2, 9)}
    assert by_total[8] == ["amphora", "dinos"]  # empty site 8 first, then the tie goes left
    assert by_total[2] == ["amphora", "krater"]
    assert by_total[3] == ["kylix", "steal"]  # special: smallest of all seven stacks, leftmost
    assert by_total[4] == ["pyxis"]
    assert by_total[5] == ["skyphos", "skyphos"]  # the only level-1 site
    assert by_total[7] == ["pelike", "hydria"]  # site 3 now holds two cards, site 7 one
    assert state.deck == []


def test_marker_supply_limits_rolling(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={5: ["skyphos", "skyphos", "skyphos", "kyathos", "kyathos"]})
    state.marks[site(game2, 5)] = 1
    state.supply[0] = game2.markers - 1
    assert state.legal_actions() == [A_ROLL, A_STOP]
    # all ten markers out: five on site 5's cards and five on the empty sites
    state.marks[site(game2, 5)] = 5
    for total in (2, 3, 4, 6, 8):
        state.site_mark[site(game2, total)] = 1
    state.supply[0] = 0
    assert_sound(state)
    assert state.legal_actions() == [A_STOP]


# --- end of the game ---------------------------------------------------------------------


def test_final_round_gives_everyone_one_more_turn(game3: KeramikosGame) -> None:
    state = blank(game3, deck=["krater"], stacks={5: ["skyphos", "skyphos"], 6: ["pyxis"]})
    roll(state, 2, 3)
    state.apply_action(A_MARK)
    roll(state, 1, 4)
    state.apply_action(A_MARK)  # bust: the refill draws the last card
    assert state.deck == [] and state.final_left == 3 and state.current_player() == 1
    for seat in (1, 2, 0):
        assert not state.is_terminal() and state.current_player() == seat
        roll(state, 2, 3)
        state.apply_action(A_MARK)
        state.apply_action(A_STOP)
    assert state.is_terminal() and state.legal_actions() == []
    assert state.coll[1][kind(game3, "skyphos")] == 1 and state.coll[2][kind(game3, "skyphos")] == 1
    assert state.coll[0][kind(game3, "skyphos")] == 0  # P1's final turn hit an empty site 5
    assert_sound(state)


# --- scoring -----------------------------------------------------------------------------


def test_scoring_examples(game2: KeramikosGame) -> None:
    coll = [0] * game2.num_pottery
    coll[kind(game2, "kylix")] = 3
    assert game2.fast_score(coll, 0) == 8  # a complete 3-card set worth 8 scores 8, not 24
    coll[kind(game2, "pyxis")] = 2  # incomplete (3 make the set): 1 point per two pieces
    assert game2.fast_score(coll, 0) == 9
    coll[kind(game2, "hydria")] = 1  # a single piece scores nothing
    assert game2.fast_score(coll, 0) == 9
    coll[kind(game2, "hydria")] = 2
    assert game2.fast_score(coll, 0) == 10
    coll[kind(game2, "hydria")] = 3  # complete: 9 points replace the 1 point of the pair
    assert game2.fast_score(coll, 0) == 8 + 1 + 9


def test_complete_card_completes_one_started_set_where_it_scores_most(game2: KeramikosGame) -> None:
    coll = [0] * game2.num_pottery
    coll[kind(game2, "amphora")] = 2  # 1 point now, 12 when complete
    coll[kind(game2, "stamnos")] = 1  # 0 now, 6 when complete
    coll[kind(game2, "krater")] = 1  # missing 2 pieces, 13 when complete: the source's Complete finishes it too
    assert game2.fast_score(coll, 0) == 1
    detail = game2.score_detail(coll, 1)
    assert detail.score == 1 + 13  # the amphora pair keeps its point, the krater is completed
    assert detail.completed_sets == (kind(game2, "krater"),)
    assert detail.cards_in_complete_sets == 1  # the Complete card is not a pottery card
    assert game2.score_detail(coll, 2).score == 12 + 13  # two Complete cards: amphora and krater


def test_tiebreak_order(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"])
    give(state, 0, "kylix", 3)  # 8 points, 3 cards in complete sets
    give(state, 1, "stamnos", 2)  # 6 points, 2 cards in complete sets
    give(state, 1, "skyphos", 2)  # +1, incomplete: not counted in the tiebreak
    give(state, 1, "pyxis", 2)  # +1
    assert state.scores() == [8, 8]
    assert state.ranking() == [[0], [1]]  # 3 cards in complete sets beat 2
    # same score and same card count: the complete level-4 set wins over the level-3 one
    state2 = blank(game2, deck=["krater"])
    give(state2, 0, "dinos", 2)  # level 4, 9 points, 2 cards
    give(state2, 1, "stamnos", 2)  # level 3, 6 points, 2 cards
    give(state2, 1, "pyxis", 2)
    give(state2, 1, "skyphos", 2)
    give(state2, 1, "lekythos", 2)
    assert state2.scores() == [9, 9]
    assert state2.ranking() == [[0], [1]]
    state2b = blank(game2, deck=["krater"])
    give(state2b, 1, "dinos", 2)
    give(state2b, 0, "stamnos", 2)
    give(state2b, 0, "pyxis", 2)
    give(state2b, 0, "skyphos", 2)
    give(state2b, 0, "lekythos", 2)
    assert state2b.ranking() == [[1], [0]]
    # all equal: shared win
    state3 = blank(game2, deck=["krater"])
    give(state3, 0, "pyxis", 2)
    give(state3, 1, "lekythos", 2)
    assert state3.scores() == [1, 1]
    assert state3.ranking() == [[0, 1]]


# --- special cards -----------------------------------------------------------------------


def test_reroll_card(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={5: ["skyphos"]})
    give(state, 0, "reroll")
    roll(state, 2, 3)
    assert A_REROLL in state.legal_actions()
    state.apply_action(A_REROLL)
    assert state.phase == ROLLING and state.hand[0][game2.sp_reroll] == 0
    assert state.discard[kind(game2, "reroll")] == 2
    assert_sound(state)


def test_sabotage_forces_a_reroll(game3: KeramikosGame) -> None:
    state = blank(game3, deck=["krater"], stacks={5: ["skyphos"]})
    give(state, 2, "sabotage")
    roll(state, 2, 3)
    assert state.phase == SABOTAGE_WINDOW and state.current_player() == 2
    assert state.legal_actions() == [A_SABOTAGE, A_PASS]
    state.apply_action(A_SABOTAGE)
    assert state.phase == ROLLING and state.current_player() == CHANCE
    state.apply_action(dice(2, 3))
    assert state.phase == RESOLVE and state.current_player() == 0  # no Sabotage left to play
    assert_sound(state)
    # passing lets the roll stand
    state = blank(game3, deck=["krater"], stacks={5: ["skyphos"]})
    give(state, 1, "sabotage")
    roll(state, 2, 3)
    assert state.current_player() == 1
    state.apply_action(A_PASS)
    assert state.phase == RESOLVE and state.current_player() == 0


def test_steal_takes_from_an_incomplete_set_only(game3: KeramikosGame) -> None:
    state = blank(game3, deck=["krater"], stacks={5: ["steal", "skyphos"], 7: ["kylix"]})
    give(state, 1, "stamnos", 2)  # complete: protected
    give(state, 2, "hydria", 2)
    roll(state, 2, 3)
    state.apply_action(A_MARK)
    state.apply_action(A_STOP)
    assert state.phase == STEAL and state.current_player() == 0
    assert state.legal_actions() == [A_STEAL + 2 * 100 + kind(game3, "hydria")]
    state.apply_action(state.legal_actions()[0])
    assert state.coll[0][kind(game3, "hydria")] == 1 and state.coll[2][kind(game3, "hydria")] == 1
    assert state.current_player() == 1
    assert_sound(state)


def test_steal_without_target_is_discarded(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={5: ["steal", "skyphos"]})
    roll(state, 2, 3)
    state.apply_action(A_MARK)
    state.apply_action(A_STOP)
    assert state.current_player() == 1 and state.phase == DECIDE
    assert state.discard[kind(game2, "steal")] == 2
    assert_sound(state)


def test_trash_takes_pottery_from_the_discard_pile(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={5: ["skyphos"]})
    give(state, 0, "trash")
    assert A_TRASH + kind(game2, "amphora") in state.legal_actions()  # every amphora is in the discard pile
    state.apply_action(A_TRASH + kind(game2, "amphora"))
    assert state.coll[0][kind(game2, "amphora")] == 1 and state.hand[0][game2.sp_trash] == 0
    assert state.legal_actions() == [A_ROLL]
    assert_sound(state)


def test_excavation_takes_the_first_two_pottery_cards(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["sort", "amphora", "reroll", "krater", "dinos"], stacks={5: ["excavation", "skyphos"], 6: ["pyxis"]})
    roll(state, 2, 3)
    state.apply_action(A_MARK)
    state.apply_action(A_STOP)
    assert state.coll[0][kind(game2, "amphora")] == 1 and state.coll[0][kind(game2, "krater")] == 1
    # specials passed over stay in place; then sites were empty, so one card (one marker) was refilled
    remaining = [game2.kind_ids[c] for c in reversed(state.deck)]
    assert remaining == ["reroll", "dinos"]
    assert state.stacks[site(game2, 2)] == [kind(game2, "sort")]  # a special refills the leftmost empty site
    assert_sound(state)


def test_keep_cards_go_to_hand_when_collected(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={5: ["extra-mark", "skyphos"], 7: ["complete", "kylix"]})
    roll(state, 2, 3)
    state.apply_action(A_MARK)
    roll(state, 3, 4)
    state.apply_action(A_MARK)
    state.apply_action(A_STOP)
    assert state.hand[0][game2.sp_extra] == 1 and state.hand[0][game2.sp_complete] == 1


def test_sort_rearranges_a_stack_card_by_card(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={4: ["pyxis", "lekythos", "oinochoe"]})
    give(state, 0, "sort")
    assert A_SORT + site(game2, 4) in state.legal_actions()
    state.apply_action(A_SORT + site(game2, 4))
    assert state.phase == SORTING and state.hand[0][game2.sp_sort] == 0
    assert state.legal_actions() == sorted(A_SORT_PICK + kind(game2, c) for c in ("pyxis", "lekythos", "oinochoe"))
    state.apply_action(A_SORT_PICK + kind(game2, "oinochoe"))  # the new top card
    state.apply_action(A_SORT_PICK + kind(game2, "lekythos"))  # the last card has one place left: done
    assert [game2.kind_ids[c] for c in state.stacks[site(game2, 4)]] == ["oinochoe", "lekythos", "pyxis"]
    assert state.phase == DECIDE
    assert_sound(state)


def test_sort_reorders_only_the_cards_below_the_markers(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={4: ["pyxis", "lekythos"], 5: ["skyphos", "kyathos"], 6: ["oinochoe", "pyxis", "kantharos"]})
    give(state, 0, "sort")
    roll(state, 1, 3)
    state.apply_action(A_MARK)  # site 4: pyxis marked, one card below has a single order
    roll(state, 3, 3)
    state.apply_action(A_MARK)  # site 6: oinochoe marked, pyxis and kantharos below
    sorts = [a for a in state.legal_actions() if A_SORT <= a < A_SORT + game2.num_sites]
    assert sorts == [A_SORT + site(game2, 5), A_SORT + site(game2, 6)]
    state.apply_action(A_SORT + site(game2, 6))
    assert state.legal_actions() == sorted(A_SORT_PICK + kind(game2, c) for c in ("pyxis", "kantharos"))
    state.apply_action(A_SORT_PICK + kind(game2, "kantharos"))
    assert [game2.kind_ids[c] for c in state.stacks[site(game2, 6)]] == ["oinochoe", "kantharos", "pyxis"]
    assert state.marks[site(game2, 6)] == 1
    assert_sound(state)


def test_extra_mark_marks_the_card_below(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={4: ["pyxis", "lekythos", "oinochoe"], 6: ["kantharos"]})
    give(state, 0, "extra-mark", 2)
    roll(state, 3, 3)  # total 6, doubles, nothing marked yet
    legal = state.legal_actions()
    assert A_MARK_EXTRA not in legal  # site 6 has one card: nothing below it
    state.apply_action(A_MARK)
    roll(state, 1, 3)
    assert A_MARK_EXTRA in state.legal_actions()
    state.apply_action(A_MARK_EXTRA)
    assert state.marks[site(game2, 4)] == 2 and state.supply[0] == 7
    assert state.hand[0][game2.sp_extra] == 1
    roll(state, 2, 2)
    assert A_DEEPEN_EXTRA + site(game2, 4) not in state.legal_actions()  # only one card left below
    assert A_DEEPEN + site(game2, 4) in state.legal_actions()
    state.apply_action(A_DEEPEN + site(game2, 4))
    state.apply_action(A_STOP)
    assert state.coll[0][kind(game2, "oinochoe")] == 1 and state.coll[0][kind(game2, "kantharos")] == 1
    assert_sound(state)


# --- whole games -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_conserve_and_terminate(spec: Spec, players: int) -> None:
    game = KeramikosGame(spec, players)
    bound = game.info().max_game_length
    seen: set[str] = set()
    for seed in range(200):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = state.sample_chance(rng)
            else:
                legal = state.legal_actions()
                assert legal and legal == sorted(legal)
                action = legal[int(rng.random() * len(legal))]
            state.apply_action(action)
            steps += 1
            assert steps <= bound
            if steps % 97 == 0:
                assert state.conservation_errors() == []
        assert state.conservation_errors() == []
        assert state.legal_actions() == []
        assert 0 <= min(state.scores()) and max(state.scores()) <= game.info().max_score
        seen.update(state.usage())
    assert all(f"card:{c}" in seen for c in ("reroll", "steal", "trash", "excavation", "sort", "extra-mark", "sabotage"))
    assert all(f"card:site-{t}" in seen for t in range(2, 9))


def test_replay_is_deterministic(game2: KeramikosGame) -> None:
    rng = random.Random(3)
    state = game2.new_initial_state(11)
    actions = []
    while not state.is_terminal():
        action = state.sample_chance(rng) if state.current_player() == CHANCE else rng.choice(state.legal_actions())
        state.action_to_string(action)
        actions.append(action)
        state.apply_action(action)
    again = game2.new_initial_state(11)
    for action in actions:
        again.apply_action(action)
    assert again.fingerprint() == state.fingerprint()


def test_illegal_actions_are_refused(game2: KeramikosGame) -> None:
    state = blank(game2, deck=["krater"], stacks={5: ["skyphos"]})
    with pytest.raises(ValueError):
        state.apply_action(A_STOP)
    roll(state, 2, 3)
    with pytest.raises(ValueError):
        state.apply_action(A_REROLL)
