"""Mausoleum Guardians' hand-written engine, the reference of its rules data: the spec's facts and the rules,
clarification by clarification.

The shipped game is played from its rules data by the interpreter; these tests keep the reference honest,
and tests/engine/test_lockstep_mausoleum_guardians.py proves that the two agree move for move."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest

from cardgen.engine.agents import RandomAgent
from cardgen.engine.core import CHANCE, TERMINAL, Termination
from cardgen.spec.load import load_spec
from cardgen.engine.playout import play_game
from reference.mausoleum_guardians import DEFEND, PASS, PLAY, MausoleumGame, MausoleumState
from cardgen.spec.models import Spec

SPEC_DIR = Path(__file__).resolve().parents[2] / "specs" / "mausoleum-guardians"


def make_game(spec: Spec, players: int) -> MausoleumGame:
    """The reference engine for ``spec`` (the shipped spec is played by the interpreter)."""
    return MausoleumGame(spec, players)


@pytest.fixture(scope="module")
def spec() -> Spec:
    loaded = load_spec(SPEC_DIR)
    assert loaded.findings == [], [f.render() for f in loaded.findings]
    assert loaded.spec is not None
    return loaded.spec


@pytest.fixture(scope="module")
def g2(spec: Spec) -> MausoleumGame:
    game = make_game(spec, 2)
    assert isinstance(game, MausoleumGame)
    return game


@pytest.fixture(scope="module")
def g3(spec: Spec) -> MausoleumGame:
    game = make_game(spec, 3)
    assert isinstance(game, MausoleumGame)
    return game


def with_options(spec: Spec, players: int = 2, **options: str) -> MausoleumGame:
    """The shipped game with some rule options set (the others keep their defaults)."""
    game = make_game(spec.model_copy(update={"options": {**spec.options, **options}}), players)
    assert isinstance(game, MausoleumGame)
    return game


FIRST_EDITION = {"protection": "in_advance", "sculptors": "theft", "mausolo": "at_end"}
"""The readings this edition shipped with before issue 20, kept as rule options."""


# --- helpers: every move goes through legal_actions, so an illegal one fails the test ---


def _do(state: MausoleumState, action: int) -> None:
    assert action in state.legal_actions(), state.action_to_string(action)
    state.apply_action(action)
    assert state.conservation_errors() == []


def play(state: MausoleumState, card: str) -> None:
    _do(state, state.g.play_base + state.g.kind_of[card])


def attack(state: MausoleumState, card: str, target: int) -> None:
    _do(state, state.g.target_base + state.g.kind_of[card] * state.g.max_seats + target)


def pick(state: MausoleumState, card: str) -> None:
    _do(state, state.g.pick_base + state.g.kind_of[card])


def hand(state: MausoleumState, seat: int) -> dict[str, int]:
    g = state.g
    return {g.card_ids[k]: n for k, n in enumerate(state.hands[seat * g.kinds : (seat + 1) * g.kinds]) if n}


def area(state: MausoleumState, seat: int) -> dict[str, int]:
    g = state.g
    return {g.card_ids[k]: n for k, n in enumerate(state.area[seat * g.kinds : (seat + 1) * g.kinds]) if n}


def discard_pile(state: MausoleumState) -> dict[str, int]:
    return {state.g.card_ids[k]: n for k, n in enumerate(state.discard) if n}


SET = ["base", "columns", "pyramid", "statues"]


# --- the spec -------------------------------------------------------------------


def test_spec_counts_match_the_source(spec: Spec) -> None:
    deck = spec.decks[0]
    by_type: dict[str, int] = {}
    for card in deck.cards:
        by_type[card.type or ""] = by_type.get(card.type or "", 0) + card.copies
    assert by_type == {"construction": 24, "character": 12, "event": 8, "action": 8}
    copies = {card.id: card.copies for card in deck.cards}
    assert copies == {
        "base": 6, "columns": 6, "pyramid": 6, "statues": 6,
        "mausolo": 3, "artemisia": 3, "architects": 3, "sculptors": 3,
        "earthquake": 2, "invasion": 3, "discovery": 3,
        "exchange": 3, "theft": 3, "protection": 2,
    }
    assert all(s.deal["cards"] == 5 for s in spec.setups) and spec.numbers["hand_limit"] == 5
    assert spec.numbers["set_points"] == 8 and spec.numbers["multi_set_bonus"] == 4
    assert [c.number for c in spec.clarifications] == list(range(1, len(spec.clarifications) + 1))
    assert all(set(c.text) == {"en", "pt_BR"} for c in spec.clarifications)


def test_set_composition_comes_from_the_spec(spec: Spec, g2: MausoleumGame) -> None:
    assert [g2.card_ids[k] for k in g2.construction_kinds] == SET
    deck = spec.decks[0]
    mutated = spec.model_copy(
        update={"decks": [deck.model_copy(update={"cards": [c for c in deck.cards if c.id != "statues"]})]}
    )
    game = MausoleumGame(mutated, 2)
    assert [game.card_ids[k] for k in game.construction_kinds] == ["base", "columns", "pyramid"]
    state = game.custom_state(areas=[["base", "columns", "pyramid"], []], draw=False)
    assert state.scores() == [8, 0]
    # The source's stated counts no longer add up: the validator's count check catches it.
    stated = {s.of: s.count for s in mutated.stated_counts}
    actual = sum(c.copies for c in mutated.decks[0].cards if c.type == "construction")
    assert stated["cards/construction"] == 24 != actual


def test_removing_a_construction_type_is_a_validation_error(tmp_path: Path) -> None:
    from cardgen.catalogue import validate_folder

    text = (SPEC_DIR / "game.yaml").read_text(encoding="utf-8")
    start = text.index("      - id: statues")
    end = text.index("      # --- characters")
    (tmp_path / "game.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    result = validate_folder(tmp_path, kinds=("static",))
    assert "CG105" in {f.code for f in result.findings}


# --- turn structure -------------------------------------------------------------


def test_deal_then_draw_then_play(g2: MausoleumGame) -> None:
    state = g2.new_initial_state(7)
    assert state.current_player() == 0
    assert state.hsize == [6, 5]  # P1 has already drawn
    assert len(state.pile) - state.top == 52 - 10 - 1
    assert state.conservation_errors() == []
    builds = [card for card in SET if hand(state, 0).get(card)]
    assert builds, "seed 7 deals P1 a construction card"
    play(state, builds[0])
    assert area(state, 0) == {builds[0]: 1}
    assert state.current_player() == 1
    assert state.hsize == [5, 6]  # P2 drew at the start of the turn
    assert len(state.pile) - state.top == 40


def test_play_at_most_one_card_then_the_turn_passes(g2: MausoleumGame) -> None:
    state = g2.custom_state(pile=["pyramid", "statues"], hands=[["base", "columns"], ["theft"]])
    play(state, "base")
    assert state.current_player() == 1
    assert hand(state, 0) == {"columns": 1, "pyramid": 1}
    assert hand(state, 1) == {"theft": 1, "statues": 1}


def test_hand_limit_discards_are_actions(g2: MausoleumGame) -> None:
    state = g2.custom_state(
        pile=["theft", "base"], hands=[["base", "columns", "pyramid", "statues", "mausolo"], ["exchange"]]
    )
    assert state.hsize[0] == 6
    _do(state, PASS)
    assert state.current_player() == 0  # still P1: six cards, over the limit of five
    assert state.legal_actions() == sorted(g2.pick_base + g2.kind_of[c] for c in ["theft", *SET, "mausolo"])
    pick(state, "mausolo")
    assert state.hsize[0] == 5
    assert discard_pile(state).get("mausolo") == 3  # two unused copies were out of play already
    assert state.current_player() == 1


def test_artemisia_draws_three_this_turn(g2: MausoleumGame) -> None:
    state = g2.custom_state(
        pile=["base", "columns", "pyramid", "statues"], hands=[["artemisia", "theft", "theft", "exchange", "exchange"], ["protection"]]
    )
    assert state.hsize[0] == 6  # drew Base
    play(state, "artemisia")
    assert state.hsize[0] == 7  # two more cards: three drawn this turn in all
    assert hand(state, 0)["columns"] == 1 and hand(state, 0)["pyramid"] == 1
    pick(state, "theft")
    assert state.current_player() == 0
    pick(state, "exchange")
    assert state.current_player() == 1 and state.hsize[0] == 5
    assert state.different_characters(0) == 1


# --- scoring --------------------------------------------------------------------


def test_one_set_scores_eight_two_sets_twenty(g2: MausoleumGame) -> None:
    state = g2.custom_state(areas=[SET, SET + SET], draw=False)
    assert state.scores() == [8, 8 + 8 + 4]
    state = g2.custom_state(areas=[SET + SET + SET, ["base", "base", "columns", "pyramid"]], draw=False)
    assert state.scores() == [8 * 3 + 4, 0]  # the bonus is paid once (C5); spare cards score nothing


def test_mausolo_doubles_one_set_once(g2: MausoleumGame) -> None:
    one = g2.custom_state(areas=[SET, []], characters=[["mausolo"], []], draw=False)
    assert one.scores() == [16, 0]
    # The rulebook's scoring example: two sets, a spare Base and Mausolo make 28; Bruno's single set 8.
    ana = g2.custom_state(areas=[SET + SET + ["base"], SET], characters=[["mausolo"], []], draw=False)
    assert ana.scores() == [28, 8]
    twice = g2.custom_state(areas=[SET + SET, []], characters=[["mausolo", "mausolo"], []], draw=False)
    assert twice.scores() == [28, 0]
    no_set = g2.custom_state(areas=[["base"], []], characters=[["mausolo"], []], draw=False)
    assert no_set.scores() == [0, 0]


def test_mausolo_doubles_when_played_and_keeps_it(g2: MausoleumGame) -> None:
    """"Mausolo: When played, this card doubles the points of a complete set (valid once per game)."
    The doubling is scored as Mausolo is played: an Earthquake that later breaks the set does not undo it."""
    state = g2.custom_state(pile=["base", "base", "base"], hands=[["mausolo", "mausolo"], ["earthquake"]], areas=[SET, []])
    play(state, "mausolo")
    assert state.scores() == [16, 0]
    attack(state, "earthquake", 0)
    pick(state, "statues")  # P1 discards a Statues: the set is broken
    assert state.sets == [0, 0] and state.scores() == [8, 0]
    state = g2.custom_state(pile=["base"], hands=[["mausolo"], []], areas=[SET * 2, []], characters=[["mausolo"], []])
    assert state.scores() == [8 + 8 + 8 + 4, 0]
    play(state, "mausolo")  # once per game: a second copy doubles nothing more
    assert state.scores() == [28, 0]


def test_mausolo_counted_at_the_end_under_the_first_edition(spec: Spec) -> None:
    """``options.mausolo: at_end``: the doubling counts only if a complete set stands at the end."""
    game = with_options(spec, mausolo="at_end")
    state = game.custom_state(pile=["base", "base"], hands=[["mausolo"], ["earthquake"]], areas=[SET, []])
    play(state, "mausolo")
    assert state.scores() == [16, 0]
    attack(state, "earthquake", 0)
    pick(state, "statues")
    assert state.scores() == [0, 0]


def test_mausolo_needs_a_complete_set_to_be_played(g2: MausoleumGame) -> None:
    state = g2.custom_state(pile=["statues"], hands=[["mausolo"], ["base"]], areas=[["base", "columns", "pyramid"], []])
    play_mausolo = g2.play_base + g2.kind_of["mausolo"]
    assert play_mausolo not in state.legal_actions()
    play(state, "statues")
    assert state.sets[0] == 1 and state.usage()["set:complete"] == 1
    _do(state, PASS)  # P2
    assert play_mausolo in state.legal_actions()
    play(state, "mausolo")
    assert state.scores()[0] == 16


# --- attacks and defences ----------------------------------------------------------


def test_earthquake_target_chooses_the_card(g2: MausoleumGame) -> None:
    state = g2.custom_state(pile=["theft", "theft"], hands=[["earthquake"], []], areas=[[], ["base", "columns"]])
    attack(state, "earthquake", 1)
    assert state.current_player() == 1  # the target answers
    assert state.legal_actions() == sorted([g2.pick_base + g2.kind_of["base"], g2.pick_base + g2.kind_of["columns"]])
    pick(state, "columns")
    assert area(state, 1) == {"base": 1}
    assert discard_pile(state)["earthquake"] == 2 and discard_pile(state)["columns"] == 6


def test_earthquake_is_blocked_by_architects(g2: MausoleumGame) -> None:
    # "Architects: protects the player against event cards that destroy parts of the construction."
    state = g2.custom_state(
        pile=["theft"], hands=[["earthquake"], ["protection"]], areas=[[], SET], characters=[[], ["architects"]]
    )
    attack(state, "earthquake", 1)
    assert area(state, 1) == {card: 1 for card in SET}
    assert hand(state, 1) == {"protection": 1}  # the Protection is not spent (C12)
    assert state.current_player() == 1


# --- Protection (C11): "the target must respond if they can defend" --------------------------------


def test_protection_is_played_in_answer_to_an_attack(g2: MausoleumGame) -> None:
    """The source's reading (the default): a target holding Protection must answer, on the attacker's turn."""
    state = g2.custom_state(
        pile=["base", "base", "base"],
        hands=[["invasion", "invasion"], ["protection", "statues"]],
        areas=[[], ["columns"]],
    )
    _do(state, PASS)
    assert g2.play_base + g2.kind_of["protection"] not in state.legal_actions()  # never laid on one's own turn
    play(state, "statues")
    attack(state, "invasion", 1)  # P2 can defend, so P2 must: both cards are discarded
    assert area(state, 1) == {"columns": 1, "statues": 1} and area(state, 0) == {}
    assert hand(state, 1) == {"base": 1}
    assert discard_pile(state)["protection"] == 2 and discard_pile(state)["invasion"] == 2
    assert state.usage()["card:protection"] == 1
    _do(state, PASS)  # P2
    attack(state, "invasion", 1)  # P2 holds no Protection now: the attack gets through
    assert state.current_player() == 0 and state.phase != DEFEND
    pick(state, "statues")
    assert area(state, 1) == {"columns": 1} and area(state, 0) == {"statues": 1}


def test_protection_may_be_kept_back_when_answering_is_a_choice(spec: Spec) -> None:
    """``options.protection: may_answer``: the target decides, on the attacker's turn, to answer or not."""
    game = with_options(spec, protection="may_answer")
    state = game.custom_state(pile=["base", "base"], hands=[["theft", "theft"], ["protection", "statues"]])
    attack(state, "theft", 1)
    assert state.current_player() == 1  # the decision is the target's
    answer = game.pick_base + game.kind_of["protection"]
    assert state.legal_actions() == [PASS, answer]
    assert state.action_to_string(PASS) == "P2 lets P1's Theft through"
    assert state.action_to_string(answer) == "P2 answers P1's Theft with Protection"
    copy = state.clone()
    assert copy.fingerprint() == state.fingerprint()
    _do(copy, answer)
    assert hand(copy, 1) == {"statues": 1, "base": 1} and hand(copy, 0) == {"theft": 1, "base": 1}
    assert copy.current_player() == 1 and copy.phase == PLAY  # P1's turn is over, P2 draws and plays
    assert state.current_player() == 1 and state.phase == DEFEND  # the clone was independent
    _do(state, PASS)  # kept back: the Theft goes on to its random take
    assert state.current_player() == CHANCE
    pick(state, "protection")
    assert hand(state, 0) == {"theft": 1, "base": 1, "protection": 1} and hand(state, 1) == {"statues": 1, "base": 1}


def test_protection_laid_in_advance_blocks_exactly_the_next_attack(spec: Spec) -> None:
    """``options.protection: in_advance`` (the first edition): laid face up on the owner's turn."""
    game = with_options(spec, protection="in_advance")
    state = game.custom_state(
        pile=["base", "base", "base"],
        hands=[["invasion", "invasion"], ["protection", "statues"]],
        areas=[[], ["columns"]],
    )
    _do(state, PASS)
    play(state, "protection")  # P2 lays it face up in advance
    assert state.shields[1 * game.kinds + game.kind_of["protection"]] == 1
    attack(state, "invasion", 1)  # cancelled
    assert area(state, 1) == {"columns": 1} and area(state, 0) == {}
    assert discard_pile(state)["protection"] == 2 and discard_pile(state)["invasion"] == 2
    _do(state, PASS)  # P2
    attack(state, "invasion", 1)  # the next attack gets through
    assert area(state, 1) == {} and area(state, 0) == {"columns": 1}


def test_a_face_up_protection_is_refused_when_it_is_a_reaction(g2: MausoleumGame) -> None:
    with pytest.raises(ValueError, match="only in answer to an attack"):
        g2.custom_state(shields=[[], ["protection"]])


def test_invasion_moves_a_construction_card_and_can_complete_a_set(g2: MausoleumGame) -> None:
    state = g2.custom_state(
        pile=["theft"], hands=[["invasion"], []], areas=[["base", "columns", "pyramid"], ["statues", "base"]]
    )
    attack(state, "invasion", 1)
    assert state.current_player() == 0  # the attacker chooses (C14)
    pick(state, "statues")
    assert area(state, 1) == {"base": 1}
    assert state.sets == [1, 0] and state.scores() == [8, 0]
    assert state.usage()["set:complete"] == 1


def test_sculptors_stop_the_event_that_steals(g2: MausoleumGame) -> None:
    """"Sculptors: protects the player against event cards that steal": Invasion is the event that steals."""
    state = g2.custom_state(pile=["base"], hands=[["invasion", "theft"], ["columns"]], areas=[[], ["statues"]],
                            characters=[[], ["sculptors"]])
    attack(state, "invasion", 1)
    assert area(state, 1) == {"statues": 1} and area(state, 0) == {}
    assert discard_pile(state)["invasion"] == 3 and state.current_player() == 1
    state = g2.custom_state(pile=["base"], hands=[["theft"], ["columns"]], characters=[[], ["sculptors"]])
    attack(state, "theft", 1)  # an action: Sculptors let it through
    assert hand(state, 0) == {"base": 1, "columns": 1} and hand(state, 1) == {}


def test_sculptors_stop_theft_under_the_first_edition(spec: Spec) -> None:
    """``options.sculptors: theft``: the first edition's reading, a guard of the hand against the action."""
    game = with_options(spec, sculptors="theft")
    guarded = game.custom_state(pile=["base"], hands=[["theft"], ["base", "mausolo"]], characters=[[], ["sculptors"]])
    attack(guarded, "theft", 1)
    assert hand(guarded, 1) == {"base": 1, "mausolo": 1} and guarded.current_player() == 1
    state = game.custom_state(pile=["base"], hands=[["invasion"], []], areas=[[], ["statues"]], characters=[[], ["sculptors"]])
    attack(state, "invasion", 1)
    assert area(state, 0) == {"statues": 1}


def test_theft_takes_a_random_card(g2: MausoleumGame) -> None:
    state = g2.custom_state(pile=["columns"], hands=[["theft"], ["base", "base", "mausolo"]])
    attack(state, "theft", 1)
    assert state.current_player() == CHANCE
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {g2.pick_base + g2.kind_of["base"]: pytest.approx(2 / 3), g2.pick_base + g2.kind_of["mausolo"]: pytest.approx(1 / 3)}
    pick(state, "mausolo")
    assert hand(state, 0) == {"columns": 1, "mausolo": 1} and hand(state, 1) == {"base": 2}


def test_sculptors_do_not_stop_exchange(g2: MausoleumGame) -> None:
    state = g2.custom_state(
        pile=["theft"], hands=[["exchange", "base", "columns"], ["pyramid", "statues"]], characters=[[], ["sculptors"]]
    )
    attack(state, "exchange", 1)
    assert state.current_player() == 0
    pick(state, "columns")  # the card to give
    assert state.current_player() == CHANCE
    pick(state, "statues")  # taken at random
    assert hand(state, 0) == {"base": 1, "theft": 1, "statues": 1}
    assert hand(state, 1) == {"pyramid": 1, "columns": 1}


def test_attacks_need_something_to_take(g3: MausoleumGame) -> None:
    state = g3.custom_state(
        pile=["base"], hands=[["earthquake", "theft", "exchange"], [], ["base"]], areas=[[], ["base"], []]
    )
    legal = set(state.legal_actions())

    def at(card: str, seat: int) -> int:
        return g3.target_base + g3.kind_of[card] * g3.max_seats + seat

    assert at("earthquake", 1) in legal and at("earthquake", 2) not in legal
    assert at("theft", 2) in legal and at("theft", 1) not in legal
    assert at("exchange", 2) in legal and at("exchange", 1) not in legal
    assert all(at(card, 0) not in legal for card in ["earthquake", "theft", "exchange"])


def test_archaeological_discovery_takes_from_the_discard(g2: MausoleumGame) -> None:
    state = g2.custom_state(
        pile=["base", "columns", "pyramid", "statues", "mausolo", "artemisia", "architects", "sculptors", "earthquake",
              "invasion", "exchange", "theft", "protection"],
        hands=[["discovery", "discovery"], []],
        discard=["statues", "discovery"],
        rest="pile",
    )
    assert discard_pile(state) == {"statues": 1, "discovery": 1}
    play(state, "discovery")  # a single card it may take: taken at once
    assert hand(state, 0) == {"discovery": 1, "base": 1, "statues": 1}
    assert discard_pile(state) == {"discovery": 2}
    _do(state, PASS)
    play(state, "discovery")  # nothing but Discovery cards to take: no effect (C15)
    assert hand(state, 0) == {"base": 1, "statues": 1, "pyramid": 1}
    assert discard_pile(state) == {"discovery": 3}


class _LiteralDiscovery(MausoleumState):
    """The source's words alone: "draw a card from the discard pile", another Discovery included."""

    __slots__ = ()

    def _dig_options(self) -> list[int]:
        return [k for k, n in enumerate(self.discard) if n]


def test_discovery_taking_discovery_never_has_to_end(g2: MausoleumGame) -> None:
    """Why C15 narrows the source: read literally, a Discovery may take back another Discovery, and a
    position can then repeat for ever. P1 holds a Discovery with another on the discard pile and the draw
    pile empty; each turn P1 plays it and takes the other back, P2 passes: P1's plays keep resetting the
    passes, and every round ends in the same position, so no game length bounds play."""
    state = g2.custom_state(hands=[["discovery"], []], discard=["discovery"], rest="discard", draw=False)
    state.__class__ = _LiteralDiscovery
    seen = []
    for _ in range(4):
        play(state, "discovery")
        if state.current_player() == 0:  # a choice among the discard pile: take the other Discovery
            pick(state, "discovery")
        assert hand(state, 0) == {"discovery": 1}
        _do(state, PASS)  # P2
        assert not state.is_terminal() and state.passes == 1
        seen.append(state.fingerprint())
    assert seen[1:] == seen[:-1]  # the same position after every round: a cycle with no way out forced
    # The edition's own reading (C15) ends the same position: the Discovery takes something else or nothing.
    ours = g2.custom_state(hands=[["discovery"], []], discard=["discovery"], rest="discard", draw=False)
    play(ours, "discovery")
    assert "discovery" not in {g2.card_ids[a - g2.pick_base] for a in ours.legal_actions()}


def test_discovery_choice_between_cards(g2: MausoleumGame) -> None:
    state = g2.custom_state(pile=["theft"], hands=[["discovery"], []], rest="discard")
    play(state, "discovery")
    options = {g2.card_ids[a - g2.pick_base] for a in state.legal_actions()}
    assert "discovery" not in options and {"base", "theft", "protection"} <= options
    pick(state, "protection")
    assert hand(state, 0) == {"theft": 1, "protection": 1}


# --- the end and the ranking ---------------------------------------------------------


def test_game_ends_when_everyone_passes_with_an_empty_pile(g2: MausoleumGame) -> None:
    state = g2.custom_state(pile=["base"], hands=[["columns"], ["pyramid"]])
    _do(state, PASS)  # P1 passes holding the last card drawn: the pile is now empty
    assert state.passes == 1 and not state.is_terminal()
    play(state, "pyramid")  # P2 plays: the count starts again
    assert state.passes == 0
    _do(state, PASS)  # P1
    _do(state, PASS)  # P2
    assert state.is_terminal() and state.termination() is Termination.DECK_EXHAUSTED
    assert state.current_player() == TERMINAL and state.legal_actions() == []


def test_passes_before_the_pile_is_empty_do_not_count(g2: MausoleumGame) -> None:
    state = g2.custom_state(pile=["base", "base", "base"], hands=[[], []])
    _do(state, PASS)
    _do(state, PASS)
    assert not state.is_terminal() and state.passes == 0
    _do(state, PASS)  # P1 draws the last card and passes
    assert state.passes == 1


def test_game_ends_when_pile_and_hands_are_empty(g2: MausoleumGame) -> None:
    state = g2.custom_state(pile=["base"], hands=[[], ["columns"]])
    play(state, "base")
    play(state, "columns")
    assert state.is_terminal() and state.termination() is Termination.HANDS_EMPTY


def test_tiebreakers_in_the_portuguese_order(g2: MausoleumGame, g3: MausoleumGame) -> None:
    # 3 sets (28) against 2 sets and Mausolo (28): more sets ranks first.
    state = g2.custom_state(areas=[SET * 2, SET * 3], characters=[["mausolo"], []], draw=False)
    assert state.scores() == [28, 28]
    assert state.ranking() == [[1], [0]]
    # Same points and sets: more different characters ranks first; a duplicate does not count.
    state = g3.custom_state(
        areas=[SET, SET, SET],
        characters=[["architects", "architects"], ["architects", "sculptors"], ["sculptors", "artemisia"]],
        draw=False,
    )
    assert state.scores() == [8, 8, 8]
    assert state.ranking() == [[1, 2], [0]]  # the last tie is a shared victory


# --- invariants over random games ------------------------------------------------------


OPTION_SETS = [{}, {"protection": "may_answer"}, FIRST_EDITION]


@pytest.mark.parametrize("options", OPTION_SETS, ids=["source", "may-answer", "first-edition"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_conserve_cards_and_end(spec: Spec, players: int, options: dict[str, str]) -> None:
    game = with_options(spec, players, **options)
    info = game.info()
    used: dict[str, int] = {}
    for seed in range(200):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        steps = 0
        trail = []
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and legal
            action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(legal)
            assert state.action_to_string(action)
            trail.append(action)
            state.apply_action(action)
            steps += 1
            assert steps <= info.max_game_length
            if steps % 7 == 0 or state.is_terminal():
                assert state.conservation_errors() == []
        scores = state.scores()
        assert all(info.min_score <= s <= info.max_score for s in scores)
        assert sorted(seat for group in state.ranking() for seat in group) == list(range(players))
        assert state.termination() in (Termination.DECK_EXHAUSTED, Termination.HANDS_EMPTY)
        for key, n in state.usage().items():
            used[key] = used.get(key, 0) + n
        if seed % 50 == 0:
            replay = game.new_initial_state(seed)
            for action in trail:
                replay.apply_action(action)
            assert replay.fingerprint() == state.fingerprint()
    assert all(used.get(key, 0) > 0 for key in game.usage_keys()), used


FIRST_EDITION_FORTY_SEEDS = {2: "d236f02f3b2bbf27", 3: "9bbd679ef8d45474", 4: "26877ba62c7425e7"}
"""tests/engine/test_fixed_playouts.py's digests of seeds 0-39 as they were before issue 20 changed the defaults."""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_edition_options_play_the_first_edition_games(spec: Spec, players: int) -> None:
    """The three former readings, chosen as options, replay the former random games move for move."""
    game = with_options(spec, players, **FIRST_EDITION)
    h = hashlib.sha256()
    for seed in range(40):
        r = play_game(game, [RandomAgent() for _ in range(players)], seed)
        actions = hashlib.sha256(repr(r.actions).encode()).hexdigest()[:16]
        h.update(repr((r.scores, r.length, actions, r.ranking, sorted(r.usage.items()), r.termination)).encode())
    assert h.hexdigest()[:16] == FIRST_EDITION_FORTY_SEEDS[players]


def test_clone_is_independent_and_fingerprint_complete(g2: MausoleumGame) -> None:
    state = g2.new_initial_state(3)
    copy = state.clone()
    assert copy == state and copy.fingerprint() == state.fingerprint()
    state.apply_action(state.legal_actions()[-1])
    assert copy != state
    assert copy.hsize == [6, 5]
    # Two deals differing only in the order of the remaining pile are different positions.
    a = g2.custom_state(pile=["base", "columns", "pyramid"], draw=False)
    b = g2.custom_state(pile=["base", "pyramid", "columns"], draw=False)
    assert a.fingerprint() != b.fingerprint()


def test_action_strings_read_like_the_rules(g2: MausoleumGame) -> None:
    state = g2.custom_state(pile=["base"], hands=[["invasion"], []], areas=[[], ["statues", "columns"]])
    invade = g2.target_base + g2.kind_of["invasion"] * g2.max_seats + 1
    assert state.action_to_string(invade) == "P1 plays Invasion against P2"
    assert state.action_to_string(PASS) == "P1 passes"
    state.apply_action(invade)
    assert state.action_to_string(g2.pick_base + g2.kind_of["statues"]) == "P1 takes Statues from P2's area (Invasion)"
