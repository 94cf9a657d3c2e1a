"""The reference engine of Ceramus (tests/reference/ceramus.py, the rules module the game shipped with): the rulebook's examples, each bonus, and random playouts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from reference.ceramus import (
    BONUS,
    BUILD,
    MOVE,
    ON_TABLE,
    OVER,
    PASS,
    REVEAL,
    SKIP,
    STOP,
    USED,
    CeramusGame,
    CeramusState,
)
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec


@pytest.fixture(scope="module")
def spec() -> Spec:
    loaded = load_spec(Path(__file__).resolve().parents[2] / "specs" / "ceramus")
    assert loaded.spec is not None
    return loaded.spec


def game(spec: Spec, players: int) -> CeramusGame:
    return CeramusGame(spec, players)


def style(g: CeramusGame, symbol: str) -> int:
    return g.style_symbols.index(symbol)


def build_action(state: CeramusState, symbol: str, column: int, row: int) -> int:
    """The build action laying the revealed shape with its top-left corner at (column,row)."""
    g = state.game
    return g.build_base + style(g, symbol) * state.geo.cells + row * state.geo.width + column


def reveal(state: CeramusState, shape_id: str) -> None:
    g = state.game
    assert state.phase == REVEAL
    state.apply_action(g.reveal_base + g.shape_ids.index(shape_id))


def test_setup_follows_the_spec(spec: Spec) -> None:
    for players, hand, (w, h) in ((1, 6, (4, 4)), (2, 5, (8, 4)), (3, 4, (8, 4)), (4, 3, (8, 6))):
        g = game(spec, players)
        s = g.new_initial_state(7)
        assert (s.geo.width, s.geo.height) == (w, h)
        assert [bin(x).count("1") for x in s.hands] == [hand] * players
        assert s.pool == [4] * (4 * players)
        assert s.scores() == [-16] * players
        # every 2x2 card block holds the four styles once (cards are only turned, never re-drawn)
        for cy in range(h // 2):
            for cx in range(w // 2):
                block = {s.orig[(2 * cy + r) * w + 2 * cx + c] for r in range(2) for c in range(2)}
                assert block == {0, 1, 2, 3}
        assert s.fingerprint() == g.new_initial_state(7).fingerprint()
        assert s.current_player() == 0 and s.phase == REVEAL


def test_four_square_build_from_an_original_covers_three_tiles(spec: Spec) -> None:
    g = game(spec, 2)
    s = g.custom_state(["PMNI", "IPMN"], [["s07"], ["s01"]])
    reveal(s, "s07")
    legal = s.legal_actions()
    # the long bar fits only on a row; on row 0 it can start from the Portuguese, Medieval,
    # Art Nouveau or Islamic Original, because each style shows exactly once there
    assert legal == sorted(build_action(s, sym, 0, row) for sym in "MINP" for row in (0, 1))
    s.apply_action(build_action(s, "P", 0, 0))
    assert s.render().splitlines()[0] == "P. p1 p1 p1"
    assert s.pool[0 * 4 + style(g, "P")] == 1
    # scoring: +1 per tile on the Mural, -1 per tile in reserve
    assert s.scores() == [3 - 13, -16]
    assert s.current_player() == 1 and s.phase == BUILD
    assert s.conservation_errors() == []


def test_breaking_a_rival_tile_returns_it_to_its_owner(spec: Spec) -> None:
    g = game(spec, 2)
    s = g.custom_state(["PI", "MN", "IM"], [["s01"], ["s04"]], first=1)
    s.put_tile(0, 1, 0, "N")  # P1's Art Nouveau tile on the Medieval Original
    assert s.pool[style(g, "N")] == 3 and s.scores()[0] == -14
    reveal(s, "s04")
    assert s.current_player() == 1
    action = build_action(s, "P", 0, 0)
    assert action in s.legal_actions()
    assert "breaking P1's tile at (0,1)" in s.action_to_string(action)
    s.apply_action(action)
    assert s.pool[style(g, "N")] == 4  # back in P1's reserve
    assert s.owner[1 * 2 + 0] == 1 and s.owner[2 * 2 + 0] == 1
    assert s.scores() == [-16, 2 - 14]
    assert s.conservation_errors() == []


def test_cannot_cover_own_tile_or_the_chosen_style(spec: Spec) -> None:
    g = game(spec, 2)
    s = g.custom_state(["PMN", "IIN"], [["s03"], ["s01"]])
    s.put_tile(1, 0, 0, "I")  # P1's own Islamic tile in the middle of row 0
    s.put_tile(0, 1, 1, "P")  # P2's Portuguese tile on row 1
    reveal(s, "s03")
    legal = s.legal_actions()
    # row 0: P1's own tile blocks every style; row 1 shows P2's Portuguese tile, then I and N Originals
    assert build_action(s, "P", 0, 0) not in legal
    # Portuguese on row 1 would have no Original of its own to start from (a tile shows P)
    assert build_action(s, "P", 0, 1) not in legal
    # Islamic on row 1 starts from the Original at (1,1) and covers P2's tile and the N Original
    assert build_action(s, "I", 0, 1) in legal
    # Art Nouveau on row 1: the N Original at (2,1) starts it, but nothing else shows N
    assert build_action(s, "N", 0, 1) in legal
    assert legal == sorted([build_action(s, "I", 0, 1), build_action(s, "N", 0, 1)])
    # a row with two Originals of the chosen style cannot be built in that style
    t = g.custom_state(["MPM"], [["s03"], ["s01"]])
    reveal(t, "s03")
    assert t.legal_actions() == [build_action(t, "P", 0, 0)]


def test_a_player_who_cannot_build_passes(spec: Spec) -> None:
    g = game(spec, 2)
    s = g.custom_state(["MI", "PN"], [["s01", "s02"], ["s03"]])
    s.put_tile(1, 0, 0, "M")
    s.put_tile(1, 1, 0, "M")
    reveal(s, "s01")
    # P1's own tiles sit in both rows: no domino across is possible for them
    assert s.legal_actions() == [PASS]
    assert "passes" in s.action_to_string(PASS)
    s.apply_action(PASS)
    # P2 may start from the Portuguese Original and break P1's tile beside it
    assert s.current_player() == 1 and s.legal_actions() == [build_action(s, "P", 0, 1)]


def test_game_ends_when_nobody_can_add_a_tile(spec: Spec) -> None:
    g = game(spec, 2)
    s = g.custom_state(["MM", "MM"], [["s01", "s02"], ["s03"]])
    assert s.is_terminal() and s.legal_actions() == []
    ended = s.termination()
    assert ended is not None and ended.value == "no player can move"
    assert s.scores() == [-16, -16]


def _pattern_state(spec: Spec) -> CeramusState:
    g = game(spec, 1)
    return g.custom_state(["MIPN", "NPMI", "IMNP", "PNIM"], [["s01", "s02", "s03"]])


def test_patterns_are_never_rotated(spec: Spec) -> None:
    g = game(spec, 1)
    c1, c5 = g.card_ids.index("c1"), g.card_ids.index("c5")
    # horizontal: three tiles on row 0, the build lays the fourth -> "four different side by side"
    s = _pattern_state(spec)
    for col, sym in ((0, "N"), (1, "P"), (2, "M")):
        s.put_tile(col, 0, 0, sym)
    reveal(s, "s02")
    s.apply_action(build_action(s, "I", 3, 0))  # post on column 3, starting from the Islamic Original at (3,1)
    assert s.holder[c1] == 0
    assert s.usage()["pattern:c1"] == 1
    # the same four different styles in a column do not match the horizontal card
    t = _pattern_state(spec)
    for row, sym in ((0, "I"), (1, "P"), (2, "M")):
        t.put_tile(0, row, 0, sym)
    reveal(t, "s01")
    t.apply_action(build_action(t, "N", 0, 3))  # bar on row 3, starting from the N Original at (1,3)
    assert t.render().splitlines()[3].startswith("n1 N.")
    assert t.holder[c1] == ON_TABLE
    assert t.holder[c5] == 0  # the vertical "three different" card does match
    # a pattern must include a tile just laid: the old column alone never claims anything
    u = _pattern_state(spec)
    for row, sym in ((0, "I"), (1, "P"), (2, "M")):
        u.put_tile(0, row, 0, sym)
    reveal(u, "s02")
    u.apply_action(build_action(u, "P", 3, 2))  # far away: post at column 3 from the P Original at (3,2)
    assert u.holder[c5] == ON_TABLE


def test_second_player_becomes_first(spec: Spec) -> None:
    g = game(spec, 3)
    s = g.new_initial_state(3)
    rng = random.Random(1)
    firsts: list[int] = []
    while not s.is_terminal() and len(firsts) < 4:
        if s.phase == REVEAL:
            firsts.append(s.current_player())
        s.apply_action(rng.choice(s.legal_actions()))
    assert firsts == [0, 1, 2, 0]


def test_bonus_add_and_remove(spec: Spec) -> None:
    g = game(spec, 2)
    s = g.custom_state(["PMNI", "IPMN"], [["s01"], ["s02"]])
    s.put_tile(1, 1, 1, "I")  # a P2 tile
    s.give_ceramas("c1", 0)
    s.give_ceramas("c4", 0)
    reveal(s, "s01")
    assert s.phase == BONUS
    assert s.legal_actions() == [SKIP, g.use_base + g.card_ids.index("c1"), g.use_base + g.card_ids.index("c4")]
    s.apply_action(g.use_base + g.card_ids.index("c4"))
    assert s.legal_actions() == [g.remove_base + 1 * 4 + 1]
    s.apply_action(g.remove_base + 5)
    assert s.pool[1 * 4 + style(g, "I")] == 4 and s.scores()[1] == -16
    assert s.holder[g.card_ids.index("c4")] == USED
    assert s.phase == BONUS  # cards are used when wanted: c1 may follow (clarification 8)
    assert s.legal_actions() == [SKIP, g.use_base + g.card_ids.index("c1")]
    assert s.usage()["bonus:remove_tile"] == 1
    t = g.custom_state(["PM"], [["s01"], ["s02"]])
    t.give_ceramas("c1", 0)
    reveal(t, "s01")
    t.apply_action(g.use_base + g.card_ids.index("c1"))
    # any style but the one shown: Medieval, Islamic, Art Nouveau on (0,0); M is shown at (1,0)
    adds = t.legal_actions()
    assert len(adds) == 3 + 3
    t.apply_action(g.add_base + 0 * 4 + style(g, "N"))
    assert t.scores()[0] == -14 and t.phase == BUILD
    assert t.legal_actions() == [PASS]  # the Portuguese Original is covered now


def test_bonus_mirror(spec: Spec) -> None:
    g = game(spec, 1)
    # the heel (s05) covers (0,0),(0,1),(1,1); mirrored it covers (1,0),(0,1),(1,1)
    s = g.custom_state(["IM", "NP"], [["s05"]])
    s.give_ceramas("c5", 0)
    reveal(s, "s05")
    plain = s.clone()
    plain.apply_action(SKIP)
    assert plain.legal_actions() == sorted(build_action(plain, sym, 0, 0) for sym in "MINP" if sym != "M")
    s.apply_action(g.use_base + g.card_ids.index("c5"))
    assert s.mirror and s.phase == BUILD
    assert s.legal_actions() == sorted(build_action(s, sym, 0, 0) for sym in "MINP" if sym != "I")
    s.apply_action(build_action(s, "M", 0, 0))
    assert s.render().splitlines() == ["I. M.", "m1 m1"]


def test_bonus_moves(spec: Spec) -> None:
    g = game(spec, 1)
    s = g.custom_state(["MIPN", "NPMI"], [["s01", "s02"]])
    s.put_tile(0, 0, 0, "I")
    s.put_tile(3, 1, 0, "P")
    s.give_ceramas("c3", 0)
    reveal(s, "s01")
    s.apply_action(g.use_base + g.card_ids.index("c3"))
    assert s.phase == MOVE
    first = s.legal_actions()
    # the Islamic tile at (0,0) may go down to (0,1) (N Original) but not right onto the I Original;
    # the Portuguese tile at (3,1) may go up to (3,0) (N) or left to (2,1) (M)
    assert first == sorted([g.move_base + 0 * 4 + 2, g.move_base + 7 * 4 + 0, g.move_base + 7 * 4 + 3])
    s.apply_action(g.move_base + 0 * 4 + 2)
    second = s.legal_actions()
    assert second[0] == STOP
    assert all(a // 4 != (g.move_base + 4 * 4) // 4 for a in second[1:])  # the moved tile stays put
    s.apply_action(g.move_base + 7 * 4 + 3)
    assert s.phase == BUILD
    assert s.render().splitlines() == ["M. I. P. N.", "i1 P. p1 I."]
    assert s.scores()[0] == 2 - 14 and s.conservation_errors() == []


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_playouts_conserve_and_end(spec: Spec, players: int) -> None:
    g = game(spec, players)
    info = g.info()
    used: dict[str, int] = {}
    for seed in range(200):
        s = g.new_initial_state(seed)
        rng = random.Random(seed)
        steps = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal and legal == sorted(legal)
            if steps % 7 == 0:
                copy = s.clone()
                assert copy.fingerprint() == s.fingerprint()
            s.apply_action(rng.choice(legal))
            steps += 1
            assert steps <= info.max_game_length
            if steps % 5 == 0:
                assert s.conservation_errors() == []
        assert s.conservation_errors() == []
        assert s.legal_actions() == [] and s.phase == OVER and s.termination() is not None
        assert all(info.min_score <= x <= info.max_score for x in s.scores())
        for key, value in s.usage().items():
            used[key] = used.get(key, 0) + value
    assert set(used) <= set(g.usage_keys())
    if players > 1:
        assert set(used) == set(g.usage_keys())


def test_a_mirror_on_a_symmetric_shape_is_played_but_not_counted_as_used(spec: Spec) -> None:
    """Coverage counts a bonus when it changes something (issue 13): a mirror on a Shape that is its own mirror
    image changes nothing, so random games count exactly the mirrors played on asymmetric Shapes."""
    from reference.ceramus import mirror_symmetric

    assert mirror_symmetric([(0, 0), (1, 0)]) and not mirror_symmetric([(0, 0), (1, 0), (1, 1)])
    g = game(spec, 2)
    mirror_cards = {c for c, effect in enumerate(g.card_effect) if effect == "mirror_shape"}
    played_on = {"symmetric": 0, "asymmetric": 0}
    for seed in range(60):
        rng = random.Random(seed)
        state = g.new_initial_state(seed)
        expected = 0
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            if state.phase == BONUS and action - g.use_base in mirror_cards:
                kind = "symmetric" if g.shape_symmetric[state.shape] else "asymmetric"
                played_on[kind] += 1
                expected += kind == "asymmetric"
            state.apply_action(action)
        assert state.usage().get("bonus:mirror_shape", 0) == expected, seed
    assert played_on["symmetric"] and played_on["asymmetric"], played_on  # both cases were met
