"""Ceramus readings of the source (issue 20), each pinned with the source's own words.

* "Turns continue until no one can add tiles to the Mural or the Shape cards run out": a held Remove or
  Move card with a target keeps the game going (clarification 13).
* "... the player can take the card for themselves and discard it when they want to use its bonus action":
  any number of cards, before and after the build, a card claimed in that build included
  (``options.bonus_timing: when_wanted``, the default; ``start_of_turn`` is the first edition's reading).
* "When this book mentions "Tiles," it is always referring to the Markers": a pattern "formed ... from the
  placed tiles" is made of tiles, never of Originals (clarification 6), so the Chequer needs four tiles.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from cardgen.engine.agents import RandomAgent
from cardgen.engine.core import Termination
from cardgen.engine.playout import play_game
from reference.ceramus import BONUS, BUILD, REMOVE, REVEAL, SKIP, USED, CeramusGame, CeramusState
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec


@pytest.fixture(scope="module")
def spec() -> Spec:
    loaded = load_spec(Path(__file__).resolve().parents[2] / "specs" / "ceramus")
    assert loaded.spec is not None
    return loaded.spec


def game(spec: Spec, players: int, **options: str) -> CeramusGame:
    return CeramusGame(spec.model_copy(update={"options": {**spec.options, **options}}), players)


def card(g: CeramusGame, card_id: str) -> int:
    return g.card_ids.index(card_id)


def build_action(state: CeramusState, symbol: str, column: int, row: int) -> int:
    g = state.game
    return g.build_base + g.style_symbols.index(symbol) * state.geo.cells + row * state.geo.width + column


# --- the end: "until no one can add tiles to the Mural" ----------------------------------------------


def _blocked(g: CeramusGame, holds: str | None) -> CeramusState:
    """Two players on a Mural of two cells, M and I. P1's Medieval tile sits on the I cell, so nobody can
    build the Short bar (P1 may not cover their own tile, and the cell shows the only style with an Original);
    the game goes on only if P2 holds a card that opens the cell."""
    s = g.custom_state(["MI"], [["s01"], ["s02"]])
    s.put_tile(1, 0, 0, "M")
    if holds is not None:
        s.give_ceramas(holds, 1)
    s._start_round()  # the end is checked at the start of the round, with the cards where they are now
    return s


def test_a_held_remove_card_means_someone_can_still_add_tiles(spec: Spec) -> None:
    g = game(spec, 2)
    over = _blocked(g, None)
    assert over.is_terminal() and over.termination() == Termination.NO_LEGAL_MOVES
    s = _blocked(g, "c4")  # Chequer: remove a tile
    assert not s.is_terminal() and s.phase == REVEAL
    s.apply_action(g.reveal_base + g.shape_ids.index("s01"))
    assert s.current_player() == 0 and s.phase == BUILD and len(s.legal_actions()) == 1  # P1 passes
    s.apply_action(s.legal_actions()[0])
    assert s.current_player() == 1 and s.phase == BONUS
    s.apply_action(g.use_base + card(g, "c4"))
    assert s.phase == REMOVE
    s.apply_action(g.remove_base + 1)  # P1's tile goes home
    assert s.phase == BUILD
    s.apply_action(build_action(s, "M", 0, 0))  # and P2 adds a tile to the Mural
    assert s.on_mural == [0, 1]


def test_a_held_move_card_means_someone_can_still_add_tiles(spec: Spec) -> None:
    g = game(spec, 1)
    s = g.custom_state(["MIP"], [["s01", "s02"]])
    s.put_tile(1, 0, 0, "M")
    s._start_round()
    assert s.is_terminal()  # no Short bar fits: the M cell and the own tile block both places
    s = g.custom_state(["MIP"], [["s01", "s02"]])
    s.put_tile(1, 0, 0, "M")
    s.give_ceramas("c2", 0)  # Hook: move one tile one space
    s._start_round()
    assert not s.is_terminal()
    s.apply_action(g.reveal_base + g.shape_ids.index("s01"))
    s.apply_action(g.use_base + card(g, "c2"))
    s.apply_action(g.move_base + 1 * 4 + 1)  # the tile slides right, onto the Portuguese Original
    s.apply_action(build_action(s, "M", 0, 0))
    assert s.on_mural == [2]


def test_the_end_reading_holds_in_both_bonus_timings(spec: Spec) -> None:
    for timing in ("when_wanted", "start_of_turn"):
        assert not _blocked(game(spec, 2, bonus_timing=timing), "c4").is_terminal()


# --- the bonus: "discard it when they want to use its bonus action" ------------------------------------


def _frieze_position(g: CeramusGame) -> CeramusState:
    """Three different tiles on the top row; a Short post at column 3 lays the fourth, forming the Frieze."""
    s = g.custom_state(["MIPN", "NPMI", "IMNP", "PNIM"], [["s02", "s01"]])
    for column, symbol in ((0, "N"), (1, "P"), (2, "M")):
        s.put_tile(column, 0, 0, symbol)
    s.apply_action(g.reveal_base + g.shape_ids.index("s02"))
    return s


def test_a_card_claimed_in_a_build_can_be_used_at_once(spec: Spec) -> None:
    g = game(spec, 1)
    s = _frieze_position(g)
    s.apply_action(build_action(s, "I", 3, 0))
    assert s.holder[card(g, "c1")] == 0
    assert s.phase == BONUS and s.built  # after the build, the same turn
    assert s.legal_actions() == [SKIP, g.use_base + card(g, "c1")]
    s.apply_action(g.use_base + card(g, "c1"))
    s.apply_action(s.legal_actions()[0])  # the Add lays a tile
    assert s.holder[card(g, "c1")] == USED and s.on_mural == [5]  # three, one built, one added
    assert s.phase == REVEAL  # no usable card left: the turn is over


def test_under_the_first_reading_a_claimed_card_waits_for_the_next_turn(spec: Spec) -> None:
    g = game(spec, 1, bonus_timing="start_of_turn")
    s = _frieze_position(g)
    s.apply_action(build_action(s, "I", 3, 0))
    assert s.holder[card(g, "c1")] == 0 and s.phase == REVEAL


def test_any_number_of_cards_before_the_build(spec: Spec) -> None:
    g = game(spec, 2)
    s = g.custom_state(["PMNI", "IPMN"], [["s01"], ["s02"]])
    s.put_tile(1, 1, 1, "I")  # a P2 tile
    s.give_ceramas("c1", 0)
    s.give_ceramas("c4", 0)
    s.give_ceramas("c5", 0)
    s.apply_action(g.reveal_base + g.shape_ids.index("s01"))
    s.apply_action(g.use_base + card(g, "c4"))
    s.apply_action(g.remove_base + 5)
    assert s.phase == BONUS  # more cards may follow
    assert s.legal_actions() == [SKIP, g.use_base + card(g, "c1"), g.use_base + card(g, "c5")]
    s.apply_action(g.use_base + card(g, "c5"))
    assert s.mirror and s.phase == BONUS
    assert s.legal_actions() == [SKIP, g.use_base + card(g, "c1")]  # a second mirror would change nothing
    s.apply_action(SKIP)
    assert s.phase == BUILD
    s.apply_action(s.legal_actions()[0])
    # after the build: the Add is still offered, a Mirror never is (there is no build left to mirror)
    assert s.phase == BONUS and s.built and s.legal_actions() == [SKIP, g.use_base + card(g, "c1")]
    first = game(spec, 2, bonus_timing="start_of_turn")
    t = first.custom_state(["PMNI", "IPMN"], [["s01"], ["s02"]])
    t.put_tile(1, 1, 1, "I")
    t.give_ceramas("c1", 0)
    t.give_ceramas("c4", 0)
    t.apply_action(first.reveal_base + first.shape_ids.index("s01"))
    t.apply_action(first.use_base + card(first, "c4"))
    t.apply_action(first.remove_base + 5)
    assert t.phase == BUILD  # one card a turn: the Add waits


def test_a_mirror_is_not_offered_after_the_build(spec: Spec) -> None:
    g = game(spec, 1)
    s = g.custom_state(["IM", "NP"], [["s05", "s01"]])
    s.give_ceramas("c5", 0)
    s.apply_action(g.reveal_base + g.shape_ids.index("s05"))
    assert s.legal_actions() == [SKIP, g.use_base + card(g, "c5")]
    s.apply_action(SKIP)
    s.apply_action(s.legal_actions()[0])
    assert s.phase == REVEAL and s.holder[card(g, "c5")] == 0  # kept for a later build


# --- patterns: "formed on the table, from the placed tiles" -------------------------------------------


def _chequer_state(g: CeramusGame) -> CeramusState:
    s = g.custom_state(["MIPN", "NPMI", "IMNP", "PNIM"], [["s02", "s01"]])
    s.apply_action(g.reveal_base + g.shape_ids.index("s02"))
    return s


def test_a_chequer_of_tiles_is_claimed(spec: Spec) -> None:
    g = game(spec, 1)
    s = _chequer_state(g)
    # A B / B A at columns 1-2, rows 0-1: N and M tiles, the last M laid by the build (a Short post from
    # the Medieval Original at (1,2) up to (1,1))
    s.put_tile(1, 0, 0, "N")
    s.put_tile(2, 0, 0, "M")
    s.put_tile(2, 1, 0, "N")
    s.apply_action(build_action(s, "M", 1, 1))
    assert s.render().splitlines()[:2] == ["M. n1 m1 N.", "N. m1 n1 I."]
    assert s.holder[card(g, "c4")] == 0


def test_a_chequer_with_an_original_in_it_is_not(spec: Spec) -> None:
    g = game(spec, 1)
    s = _chequer_state(g)
    # the styles make a chequer at columns 0-1, rows 0-1 (M P / P M), but its top-left square is the
    # Medieval Original, not a tile
    s.put_tile(1, 0, 0, "P")
    s.put_tile(0, 1, 0, "P")
    s.apply_action(build_action(s, "M", 1, 1))
    assert s.render().splitlines()[:2] == ["M. p1 P. N.", "p1 m1 M. I."]
    assert s.holder[card(g, "c4")] != 0


# --- the design choice written down -------------------------------------------------------------------


def test_the_bonus_printed_twice_is_the_one_the_clarification_names(spec: Spec) -> None:
    effects = [c.effect for d in spec.decks if d.id == "ceramas" for c in d.cards]
    twice = {e for e in effects if effects.count(e) == 2}
    assert len(twice) == 1 and all(effects.count(e) == 1 for e in set(effects) - twice)
    clarification = next(c for c in spec.clarifications if c.topic.startswith("Which bonus"))
    for locale in ("en", "pt_BR"):
        named = set(re.findall(r"\{effect:([a-z_]+)\}", clarification.text[locale]))
        assert twice <= named, locale


# --- the first edition's reading still plays the first edition's games ---------------------------------

# the fixed random playouts of tests/engine/test_fixed_playouts.py before issue 20:
# (players, seed, scores, actions played, digest of the actions, digest of the usage counters)
FIRST_EDITION_GAMES = [
    (1, 0, [8], 12, "72e08b3d4f004b99", "fe7804a25196"),
    (1, 1, [-4], 4, "7aa48720d018cab8", "6000591373f3"),
    (2, 2, [10, 2], 37, "b624f85861899cfb", "8f488eff0792"),
    (3, 2, [0, -2, 6], 58, "2e4f602e6fc83a1e", "c06efd76b91a"),
    (4, 0, [6, 0, -2, 10], 71, "ede8b1bcd56ee6e4", "c59b3f5cb64b"),
    (4, 2, [10, 4, 6, -6], 72, "2043a486029431a8", "4b74297fa3fd"),
]


def _digest(text: str, size: int) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:size]


@pytest.mark.parametrize(("players", "seed", "scores", "length", "actions", "usage"), FIRST_EDITION_GAMES)
def test_one_card_at_the_start_of_the_turn_replays_the_former_games(
    spec: Spec, players: int, seed: int, scores: list[int], length: int, actions: str, usage: str
) -> None:
    """None of these games ended while a player held a Remove or Move card, so the end reading leaves them be."""
    result = play_game(game(spec, players, bonus_timing="start_of_turn"), [RandomAgent() for _ in range(players)], seed)
    assert result.scores == scores and result.length == length
    assert _digest(repr(result.actions), 16) == actions
    assert _digest(repr(sorted(result.usage.items())), 12) == usage
