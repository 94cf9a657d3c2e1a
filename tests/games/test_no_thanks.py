"""Rather Not (specs/no-thanks), a game written only as rules data: its rulebook's rules, played by the interpreter."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.engine.agents import RandomAgent
from cardgen.engine.core import make_game
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.engine.playout import play_game
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec
from cardgen.catalogue import validate_folder

SPEC = Path(__file__).resolve().parents[2] / "specs" / "no-thanks"


@pytest.fixture(scope="module")
def spec() -> Spec:
    loaded = load_spec(SPEC)
    assert loaded.spec is not None, loaded.findings
    return loaded.spec


def game(spec: Spec, players: int) -> DataGame:
    made = make_game(spec, players)
    assert isinstance(made, DataGame)
    return made


def zone(s: DataState, name: str, seat: int = 0) -> list[int]:
    g = s.g
    return s.z[g.tables.zone_index[name] + (seat if g.zone_per_seat[name] else 0)]


def counter(s: DataState, name: str, seat: int = 0) -> int:
    t = s.g.tables
    return s.c[t.counter_index[name] + (seat if t.names.counters[name] else 0)]


def action(s: DataState, key: str) -> int:
    """The one legal action of option ``decide.<key>``; fails when it is not offered."""
    g = s.g
    (found,) = [a for a in s.legal_actions() if g.options[a // g.width].key == f"decide.{key}"]
    return found


def value_of(s: DataState, design: int) -> int:
    return int(s.g.tables.field_values["value"][design])


def design(g: DataGame, number: int) -> int:
    return g.card_ids.index(f"card-{number}")


def chips_each(spec: Spec, players: int) -> int:
    """The setup table's chips for ``players``."""
    return next(s.pieces["chips"] for s in spec.setups if s.players == players)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_setup(spec: Spec, players: int) -> None:
    g = game(spec, players)
    s = g.new_initial_state(7)
    assert len(zone(s, "removed")) == spec.numbers["removed"]
    assert len(zone(s, "offer")) == 1
    assert len(zone(s, "deck")) == 33 - spec.numbers["removed"] - 1
    assert [counter(s, "chips", seat) for seat in range(players)] == [chips_each(spec, players)] * players
    assert counter(s, "pot") == 0 and s.current_player() == 0


def test_fewer_chips_for_more_players(spec: Spec) -> None:
    """The original's counts: the same chips up to five players, fewer at six and seven."""
    assert [chips_each(spec, n) for n in range(3, 8)] == [11, 11, 11, 9, 7]


def test_refusing_pays_a_chip_onto_the_card_and_passes_the_turn(spec: Spec) -> None:
    s = game(spec, 3).new_initial_state(1)
    offered = list(zone(s, "offer"))
    s.apply_action(action(s, "pay"))
    assert counter(s, "chips", 0) == chips_each(spec, 3) - 1 and counter(s, "pot") == 1
    assert zone(s, "offer") == offered and s.current_player() == 1


def test_taking_collects_the_chips_and_turns_up_the_next_card(spec: Spec) -> None:
    """The rulebook's example: the card went round the table gathering chips; the taker gets them and decides again."""
    s = game(spec, 3).new_initial_state(2)
    chips = chips_each(spec, 3)
    (card,) = zone(s, "offer")
    next_card = zone(s, "deck")[-1]
    s.apply_action(action(s, "pay"))  # P1
    s.apply_action(action(s, "pay"))  # P2
    s.apply_action(action(s, "pay"))  # P3
    s.apply_action(action(s, "pay"))  # P1 again
    assert counter(s, "pot") == 4 and s.current_player() == 1
    s.apply_action(action(s, "take"))  # P2 takes the card and its 4 chips
    assert zone(s, "taken", 1) == [card]
    assert counter(s, "chips", 1) == chips - 1 + 4 and counter(s, "pot") == 0
    assert zone(s, "offer") == [next_card]
    assert s.current_player() == 1, "the taker decides about the next card"
    assert sorted(s.g.options[a // s.g.width].key for a in s.legal_actions()) == ["decide.pay", "decide.take"]


def test_no_chips_means_taking(spec: Spec) -> None:
    s = game(spec, 3).new_initial_state(3)
    s.c[s.g.tables.counter_index["chips"] + 0] = 0
    assert [s.g.options[a // s.g.width].key for a in s.legal_actions()] == ["decide.take"]


def test_runs_score_only_their_lowest_card(spec: Spec) -> None:
    """The rulebook's example: 8, 21, 22, 23 and 30 with 6 chips score 6 - (8 + 21 + 30) = -53."""
    g = game(spec, 3)
    s = g.new_initial_state(4)
    for seat in range(3):
        zone(s, "taken", seat).clear()
        s.c[g.tables.counter_index["chips"] + seat] = 0
    zone(s, "taken", 0).extend(design(g, n) for n in (23, 8, 30, 21, 22))
    s.c[g.tables.counter_index["chips"] + 0] = 6
    zone(s, "taken", 1).extend(design(g, n) for n in (8, 10))  # no run: both count
    zone(s, "taken", 2).extend(design(g, n) for n in range(3, 36))  # one run of everything: only the 3
    assert s.scores() == [6 - (8 + 21 + 30), -18, -3]


def test_the_game_ends_when_the_last_card_is_taken(spec: Spec) -> None:
    g = game(spec, 4)
    for seed in range(20):
        result = play_game(g, [RandomAgent() for _ in range(4)], seed)
        assert not result.error and not result.timed_out and not result.dead_end and not result.conservation
    s = g.new_initial_state(5)
    while not s.is_terminal():
        s.apply_action(action(s, "take"))
    assert zone(s, "offer") == [] and zone(s, "deck") == []
    assert len(zone(s, "taken", 0)) + len(zone(s, "taken", 1)) + len(zone(s, "taken", 2)) + len(zone(s, "taken", 3)) == 33 - spec.numbers["removed"]
    assert len(zone(s, "taken", 0)) == 33 - spec.numbers["removed"], "the first player took every card, deciding again each time"
    assert s.conservation_errors() == []
    assert sum(value_of(s, d) for d in zone(s, "removed")) + sum(value_of(s, d) for d in zone(s, "taken", 0)) == sum(range(3, 36))


def test_a_setup_without_the_chips_the_rules_read_is_refused(tmp_path: Path) -> None:
    """The counter starts at `setup.pieces.chips`: a player count whose setup gives no chips is a finding at its line."""
    folder = tmp_path / "no-thanks"
    shutil.copytree(SPEC, folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert "  - {players: 7, pieces: {chips: 7}}\n" in text
    game_yaml.write_text(text.replace("  - {players: 7, pieces: {chips: 7}}\n", "  - {players: 7}\n"), encoding="utf-8")
    result = validate_folder(folder, kinds=("static",))
    found = [f for f in result.findings if f.code == "CG170"]
    assert len(found) == 1 and "pieces.chips" in found[0].message and "7 players" in found[0].message
    line = text.splitlines().index("  - {players: 7, pieces: {chips: 7}}") + 1
    assert found[0].line == line
