"""A move that takes only some cards (``move: {from, to, count, where}``): the first ``count`` cards satisfying
``where`` from the top down, the others staying in place. Potsherds (tests/fixtures/potsherds) with its refill
changed to "turn up the first two shards of the heap, passing glue" is played by the generic interpreter.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from cardgen.catalogue import validate_folder
from cardgen.engine.interpreter import DataGame
from cardgen.findings import Severity
from cardgen.rulebook.rules_summary import rules_summary
from cardgen.spec.load import load_spec

from engine.spec_copies import Change, data_game, edited_copy

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "potsherds"
WHERE = "card.type == 'shard'"


def _refill_shards(data: dict[str, Any]) -> None:
    shard = data["rules"]["turn"][0]["options"][0]
    shard["do"] = [{"move": {"from": "heap", "to": "row", "count": 2, "where": WHERE}}]


def _copy(tmp_path: Path, change: Change = lambda data: None) -> Path:
    return edited_copy(FIXTURE, tmp_path, _refill_shards, change)


def _game(tmp_path: Path) -> DataGame:
    return data_game(_copy(tmp_path), 2)


def test_only_the_first_matching_cards_move_and_the_others_stay_in_order(tmp_path: Path) -> None:
    game = _game(tmp_path)
    s = game.new_initial_state(0)
    for zone in s.z:
        zone.clear()
    cup, jug, bowl, glue = (game.design(c) for c in ("cup", "jug", "bowl", "glue"))
    s.z[game.slot("row")][:] = [cup]
    heap = [bowl, glue, jug, glue, cup]  # the top is the end: cup, then glue, jug, glue, bowl
    s.z[game.slot("heap")][:] = list(heap)
    take = next(a for a in s.legal_actions() if a % game.width == cup)
    s.apply_action(take)
    assert sorted(s.z[game.slot("row")]) == sorted([cup, jug])
    assert s.z[game.slot("heap")] == [bowl, glue, glue]  # the passed glue cards stay, in their order
    # Fewer matching cards than the count: what there is moves.
    s.z[game.slot("heap")][:] = [glue, bowl, glue]
    take = next(a for a in s.legal_actions() if a // game.width == 0)
    s.apply_action(take)
    assert s.z[game.slot("heap")] == [glue, glue]


def test_random_playouts_keep_every_card(tmp_path: Path) -> None:
    game = _game(tmp_path)
    rng = random.Random(3)
    for seed in range(20):
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            assert s.conservation_errors() == []


def test_the_rulebook_says_which_cards_move(tmp_path: Path) -> None:
    from cardgen.rulebook.i18n import translations

    loaded = load_spec(_copy(tmp_path))
    assert loaded.spec is not None
    for locale, words in (("en", "counting from the top down only the cards for which"), ("pt_BR", "contando de cima para baixo só as cartas")):
        summary = rules_summary(loaded.spec, locale, translations(locale))
        assert summary is not None
        assert words in str(summary["turn"]), summary["turn"]


def test_the_copy_is_clean(tmp_path: Path) -> None:
    result = validate_folder(_copy(tmp_path), kinds=("static",))
    assert [f.render() for f in result.findings if f.severity is Severity.ERROR] == []


@pytest.mark.parametrize("where", ["card.colour == 'red'", "count(cupboard) > 0", "options.glue == 'paste'"])
def test_a_broken_condition_is_refused_at_its_place(tmp_path: Path, where: str) -> None:
    folder = _copy(tmp_path, lambda d: d["rules"]["turn"][0]["options"][0]["do"][0]["move"].__setitem__("where", where))
    result = validate_folder(folder, kinds=("static",))
    found = [(f.code, f.path) for f in result.findings if f.severity is Severity.ERROR]
    assert ("CG175", "rules.turn[0].options[0].do[0].move.where") in found, found
