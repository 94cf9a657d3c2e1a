"""Keramikos: the readings where the source speaks, each pinned with the source's own words (issue 20).

The shipped spec follows the source by default; where the narrower reading is kept as a rule option
(``options.complete_card``, ``options.trash_takes``, ``options.site_cards``) the test plays both and shows
what the option changes. Sort has one reading, the source's: a stack is rearranged in any order.
"""

from __future__ import annotations

import itertools

import pytest
from reference.test_keramikos_reference import assert_sound, blank, give, kind, roll, shipped_spec, site

from reference.keramikos import (
    A_DEEPEN,
    A_MARK,
    A_MARK_EXTRA,
    A_SORT,
    A_STEAL,
    A_STOP,
    A_TAKE,
    A_TRASH,
    DECIDE,
    SORTING,
    STEAL,
    TAKE,
    KeramikosGame,
)


def game_with(**options: str) -> KeramikosGame:
    """The shipped spec at two players with the given rule options."""
    spec = shipped_spec("keramikos")
    spec = spec.model_copy(update={"options": dict(spec.options) | options})
    game = KeramikosGame(spec, 2)
    assert isinstance(game, KeramikosGame)
    return game


@pytest.fixture(scope="module")
def source() -> KeramikosGame:
    return game_with()


# --- Complete: "Use this card to complete a pottery set at the end of the game." ----------------


def test_complete_completes_a_whole_set_and_the_option_keeps_one_piece(source: KeramikosGame) -> None:
    piece = game_with(complete_card="piece")
    coll = [0] * source.num_pottery
    coll[kind(source, "krater")] = 1  # a set of three with two pieces missing: 0 points alone
    assert source.fast_score(coll, 0) == 0
    assert source.fast_score(coll, 1) == 13  # the source: the set is completed
    assert piece.fast_score(coll, 1) == 0  # one piece is not enough
    coll[kind(source, "krater")] = 2
    assert source.fast_score(coll, 1) == piece.fast_score(coll, 1) == 13  # one missing piece: both agree
    assert source.fast_score([0] * source.num_pottery, 1) == 0  # no started set: nothing to complete


# --- Trash: "Take a card from the discard pile at any time." -----------------------------------


def test_trash_takes_a_special_card_to_keep(source: KeramikosGame) -> None:
    state = blank(source, deck=["krater"], stacks={5: ["skyphos"]})
    give(state, 0, "trash")
    legal = state.legal_actions()
    assert A_TRASH + kind(source, "reroll") in legal  # both Reroll cards lie in the discard pile
    assert A_TRASH + kind(source, "trash") not in legal  # a Trash for a Trash would change nothing
    state.apply_action(A_TRASH + kind(source, "reroll"))
    assert state.hand[0][source.sp_reroll] == 1 and state.hand[0][source.sp_trash] == 0
    assert state.discard[kind(source, "trash")] == source.copies[kind(source, "trash")]
    assert_sound(state)


def test_trash_uses_a_steal_at_once_and_the_turn_goes_on(source: KeramikosGame) -> None:
    state = blank(source, deck=["krater"], stacks={5: ["skyphos"]})
    give(state, 0, "trash")
    give(state, 1, "hydria", 2)
    state.apply_action(A_TRASH + kind(source, "steal"))
    assert state.phase == STEAL and state.legal_actions() == [A_STEAL + 100 + kind(source, "hydria")]
    state.apply_action(A_STEAL + 100 + kind(source, "hydria"))
    assert state.phase == DECIDE and state.current_player() == 0
    assert state.coll[0][kind(source, "hydria")] == 1 and state.coll[1][kind(source, "hydria")] == 1
    assert_sound(state)


def test_trash_uses_an_excavation_at_once(source: KeramikosGame) -> None:
    state = blank(source, deck=["sort", "amphora", "krater", "dinos"], stacks={5: ["skyphos"]})
    give(state, 0, "trash")
    state.apply_action(A_TRASH + kind(source, "excavation"))
    assert state.coll[0][kind(source, "amphora")] == 1 and state.coll[0][kind(source, "krater")] == 1
    assert state.phase == DECIDE
    assert_sound(state)


def test_trash_takes_pottery_only_under_the_option() -> None:
    game = game_with(trash_takes="pottery")
    state = blank(game, deck=["krater"], stacks={5: ["skyphos"]})
    give(state, 0, "trash")
    trash = [a - A_TRASH for a in state.legal_actions() if A_TRASH <= a < A_TRASH + game.num_kinds]
    assert trash and all(k < game.num_pottery for k in trash)


# --- Empty dig site: "If there are no pottery cards on that dig site ..." ----------------------


def test_a_site_with_only_special_cards_is_empty(source: KeramikosGame) -> None:
    state = blank(source, deck=["krater"], stacks={3: ["reroll"], 5: ["skyphos"]})
    roll(state, 1, 2)  # total 3: only a Reroll card lies there
    state.apply_action(A_MARK)
    assert state.site_mark[site(source, 3)] == 1 and state.marks[site(source, 3)] == 0
    assert state.phase == TAKE and state.legal_actions() == [A_TAKE + kind(source, "skyphos")]
    state.apply_action(A_TAKE + kind(source, "skyphos"))
    assert state.stacks[site(source, 3)] == [kind(source, "reroll")]  # the special card stays buried
    assert_sound(state)


def test_a_site_with_only_special_cards_is_marked_under_the_option() -> None:
    game = game_with(site_cards="any")
    state = blank(game, deck=["krater"], stacks={3: ["reroll"], 5: ["skyphos"]})
    roll(state, 1, 2)
    state.apply_action(A_MARK)
    assert state.marks[site(game, 3)] == 1 and state.site_mark[site(game, 3)] == 0 and state.phase == DECIDE


# --- Mark: "Place a marker on the top-most pottery card (nearest to the dig site)" ------------------


def test_a_mark_lands_on_the_top_card_even_a_special_one(source: KeramikosGame) -> None:
    """The source's refill calls the drawn cards, special ones included, "pottery cards", and no other rule hands
    a special card to a player: the top card is marked whatever it is, and a special card is dug up like
    pottery (clarification 11). Skipping it for the pottery below would leave every special card in the
    stacks for good."""
    state = blank(source, deck=["krater"], stacks={3: ["reroll", "skyphos"]})
    roll(state, 1, 2)  # total 3: a Reroll card above a skyphos
    state.apply_action(A_MARK)
    assert state.marks[site(source, 3)] == 1 and state.phase == DECIDE
    state.apply_action(A_STOP)
    assert state.hand[0][source.sp_reroll] == 1  # the Reroll card is dug up and kept
    assert state.stacks[site(source, 3)][0] == kind(source, "skyphos")
    assert_sound(state)


# --- Doubles: "... place the marker on a pottery card below a card that already has one of your markers"


@pytest.mark.parametrize(("cards", "allowed"), [("pottery", False), ("any", True)])
def test_doubles_mark_a_pottery_card_below(cards: str, allowed: bool) -> None:
    game = game_with(site_cards=cards)
    state = blank(game, deck=["krater"], stacks={4: ["pyxis", "sort", "lekythos"], 6: ["oinochoe", "kantharos"]})
    roll(state, 1, 3)
    state.apply_action(A_MARK)  # pyxis on site 4; a Sort card lies below it
    roll(state, 3, 3)  # doubles on site 6
    legal = state.legal_actions()
    assert (A_DEEPEN + site(game, 4) in legal) is allowed
    assert A_DEEPEN + site(game, 6) not in legal  # nothing marked on site 6 yet


# --- Sort: "Rearrange the order of cards in one stack." -------------------------------------------


def test_sort_reaches_every_order_of_a_stack_exactly_once(source: KeramikosGame) -> None:
    cards = ["pyxis", "lekythos", "pyxis", "oinochoe"]
    start = blank(source, deck=["krater"], stacks={4: cards})
    give(start, 0, "sort")
    start.apply_action(A_SORT + site(source, 4))
    reached: list[tuple[int, ...]] = []
    widest = 0
    frontier = [start]
    while frontier:
        state = frontier.pop()
        if state.phase != SORTING:
            reached.append(tuple(state.stacks[site(source, 4)]))
            continue
        legal = state.legal_actions()
        widest = max(widest, len(legal))
        for action in legal:
            child = state.clone()
            child.apply_action(action)
            frontier.append(child)
    orders = {tuple(kind(source, c) for c in p) for p in itertools.permutations(cards)}
    assert len(orders) == 12  # 4! / 2! orders of a stack with two pyxis
    assert sorted(reached) == sorted(orders)  # every order, each by one series of choices
    assert widest == len(set(cards))  # a choice offers at most one action per kind of card


# --- Scoring: "if you have three (3) matching pottery cards that complete the set, that set of cards is
# worth a total of 8 points (it is not worth 24 points)"; "1 point for every two pieces" -----------------


def test_the_source_scoring_example_is_in_the_pottery_list(source: KeramikosGame) -> None:
    kylix = kind(source, "kylix")
    assert source.set_size[kylix] == source.copies[kylix] == 3 and source.points[kylix] == 8
    coll = [0] * source.num_pottery
    coll[kylix] = 3
    assert source.fast_score(coll, 0) == 8  # once for the set, not once per card
    coll[kylix] = 2
    assert source.fast_score(coll, 0) == 1  # incomplete: one point for two pieces
    assert source.pieces_per_point == 2


def test_the_readings_refuse_what_they_do_not_offer(source: KeramikosGame) -> None:
    state = blank(source, deck=["krater"], stacks={3: ["reroll", "sort"], 4: ["pyxis", "steal"], 5: ["skyphos"]})
    give(state, 0, "extra-mark")
    give(state, 0, "trash")
    with pytest.raises(ValueError):
        state.apply_action(A_TRASH + kind(source, "trash"))  # never a Trash for a Trash
    roll(state, 1, 2)  # site 3 holds special cards only: it is empty, Extra Mark has nothing to mark
    assert A_MARK_EXTRA not in state.legal_actions()
    with pytest.raises(ValueError):
        state.apply_action(A_MARK_EXTRA)
    state.apply_action(A_MARK)
    state.apply_action(A_TAKE + kind(source, "skyphos"))
    roll(state, 1, 3)
    state.apply_action(A_MARK)  # pyxis on site 4, a Steal below it
    roll(state, 2, 2)
    with pytest.raises(ValueError):
        state.apply_action(A_DEEPEN + site(source, 4))  # doubles mark a pottery card only
    assert_sound(state)


def test_a_stop_refills_when_a_site_holds_no_pottery(source: KeramikosGame) -> None:
    """Otherwise a turn that marks only such a site and stops would change nothing (a game without end)."""
    stacks = {2: ["amphora"], 3: ["reroll"], 4: ["pyxis"], 5: ["sort"], 6: ["oinochoe"], 7: ["kylix"], 8: ["krater"]}
    state = blank(source, deck=["dinos", "hydria"], stacks=stacks)  # every stack holds a card, none a level-1 one
    roll(state, 1, 2)
    state.apply_action(A_MARK)  # site 3: marker on the site, nothing to take
    assert state.phase == DECIDE and state.site_mark[site(source, 3)] == 1
    deck_before = len(state.deck)
    state.apply_action(A_STOP)
    assert len(state.deck) == deck_before - 1  # one card per marker placed
    assert_sound(state)
