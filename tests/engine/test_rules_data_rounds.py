"""Rounds and a mechanic's conditions in rules data: ``rounds`` (every seat one turn a round, the first player moving
on), ``round`` and ``round_turn`` in expressions, ``mechanic(NAME, CONDITION)``, and zones a mechanic fills.

Ceramus' rules data (mechanic ``ceramus_mural``) is the game these use: it plays in rounds, reveals a Shape on a
round's first turn, and asks its mechanic whether a bonus waits, whether a card is usable and whether anyone can
still add a tile.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from cardgen.catalogue import validate_folder
from cardgen.spec.mechanic_declaration import mechanic_fills
from cardgen.engine.mechanics import mechanic_declaration
from cardgen.spec.load import load_spec

from engine.spec_copies import data_game

SPEC = Path(__file__).resolve().parents[2] / "specs" / "ceramus"


def _copy(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    folder = tmp_path / "ceramus"
    shutil.copytree(SPEC, folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return folder


def _line(folder: Path, needle: str) -> int:
    return next(i for i, line in enumerate((folder / "game.yaml").read_text(encoding="utf-8").splitlines(), start=1) if needle in line)


def _findings(folder: Path, code: str) -> list[Any]:
    return [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == code]


def _seats_by_turn(folder: Path, players: int, seed: int) -> dict[int, int]:
    """The seat of every turn of one random game (by the interpreter's turn number)."""
    game = data_game(folder, players)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    seats = {state.turn: state.seat}
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        seats.setdefault(state.turn, state.seat)
    return seats


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_seat_plays_once_a_round_from_a_first_player_who_moves_on(players: int) -> None:
    for seed in range(5):
        seats = _seats_by_turn(SPEC, players, seed)
        assert len(seats) > players  # more than one round
        for turn, seat in seats.items():
            round_, place = divmod(turn - 1, players)
            assert seat == (round_ + place) % players, (seed, turn)


def test_rounds_with_the_same_first_player_go_round_the_table(tmp_path: Path) -> None:
    folder = _copy(tmp_path, ("rounds: {first: next}", "rounds: {first: same}"))
    seats = _seats_by_turn(folder, 3, 0)
    assert all(seat == (turn - 1) % 3 for turn, seat in seats.items())
    # the first player reveals every round, so their hand (4 Shapes at 3 players) runs out first and ends the game
    # when the fifth round would begin
    assert max(seats) <= 3 * 4 + 1


def test_round_names_need_rounds_and_nothing_may_change_the_turn_order(tmp_path: Path) -> None:
    folder = _copy(tmp_path, ("  rounds: {first: next}\n", ""))
    found = _findings(folder, "CG175")
    assert any("`round_turn` is only known when the rules data plays in `rounds`" in f.message and f.line == _line(folder, 'when: "round_turn == 1"') for f in found)
    folder = _copy(tmp_path / "b", ("mirror_shape: [{add: {counter: mirrored, amount: 1}}]", "mirror_shape: [{add: {counter: mirrored, amount: 1}}, extra_turn]"))
    found = _findings(folder, "CG175")
    assert [f.line for f in found if "`extra_turn` changes the turn order" in f.message] == [_line(folder, "mirror_shape: [")]


def test_a_condition_of_an_unlisted_or_silent_mechanic_is_cg175_at_its_line(tmp_path: Path) -> None:
    assert _findings(SPEC, "CG175") == []
    folder = _copy(tmp_path, ('when: "mechanic(ceramus_mural, waiting)"', 'when: "mechanic(ceramus_mural, waitin)"'))
    found = _findings(folder, "CG175")
    assert len(found) == 1 and "mechanic 'ceramus_mural' has no condition 'waitin' (its conditions: waiting, usable, can_add)" in found[0].message
    assert found[0].line == _line(folder, "mechanic(ceramus_mural, waitin)")
    folder = _copy(tmp_path / "b", ('when: "mechanic(ceramus_mural, waiting)"', 'when: "mechanic(boneyard, waiting)"'))
    found = _findings(folder, "CG175")
    assert any("mechanic 'boneyard' is not listed under rules.mechanics (ceramus_mural)" in f.message and f.line == _line(folder, "mechanic(boneyard") for f in found)


def test_a_zone_only_a_mechanic_fills_is_no_cg180(tmp_path: Path) -> None:
    loaded = load_spec(SPEC)
    assert loaded.spec is not None and loaded.spec.rules_data is not None
    rules = loaded.spec.rules_data
    assert mechanic_fills(rules, {"ceramus_mural": mechanic_declaration("ceramus_mural")}) == frozenset({"won"})
    assert _findings(SPEC, "CG180") == []
    # without the mechanic's word that it fills `won`, the choice of a held card is never offered (CG180)
    assert mechanic_fills(rules, {"ceramus_mural": None}) == frozenset()


def test_the_rulebook_says_rounds_and_conditions_in_both_languages() -> None:
    from cardgen.rulebook.i18n import translations
    from cardgen.rulebook.rules_summary import rules_summary

    loaded = load_spec(SPEC)
    assert loaded.spec is not None
    english = rules_summary(loaded.spec, "en", translations("en"))
    portuguese = rules_summary(loaded.spec, "pt_BR", translations("pt_BR"))
    assert english is not None and portuguese is not None
    assert "Play goes in rounds" in " ".join(english["setup"]) and "O jogo é dividido em rodadas" in " ".join(portuguese["setup"])
    notes = " ".join(note for step in english["turn"] for note in step["notes"])
    assert "the number of the turn in its round is 1" in notes and "a bonus of yours is waiting for its tiles" in notes
    assert "um bônus seu está esperando" in " ".join(note for step in portuguese["turn"] for note in step["notes"])
    assert "mechanic(" not in str(english) + str(portuguese)


def test_rounds_with_tricks_are_cg175_at_the_rounds_line(tmp_path: Path) -> None:
    """A trick's winner leads the next trick, so a round of one turn per seat in turn order cannot hold."""
    folder = tmp_path / "hearts"
    shutil.copytree(SPEC.parent / "hearts", folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    assert "\n  turn:\n" in text
    (folder / "game.yaml").write_text(text.replace("\n  turn:\n", "\n  rounds: {first: next}\n  turn:\n", 1), encoding="utf-8")
    found = [f for f in _findings(folder, "CG175") if "a trick's winner leads next" in f.message]
    assert [f.line for f in found] == [_line(folder, "rounds: {first: next}")]
