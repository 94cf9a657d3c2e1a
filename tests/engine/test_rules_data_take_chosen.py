"""A card of one's choice taken from another seat's zone (``card: {whose: target}``) and the ``matching`` function:
Potsherds (tests/fixtures/potsherds) with one more option, "snatch a shard of a set another player has not
completed", played by the generic interpreter.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable

import pytest

from cardgen.catalogue import validate_folder
from cardgen.engine.interpreter import DataGame
from cardgen.findings import Severity
from cardgen.rulebook.rules_summary import rules_summary
from cardgen.spec.load import load_spec

from engine.spec_copies import Change, data_game, edited_copy

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "potsherds"
SNATCH = {
    "id": "snatch",
    "name": {"en": "snatch a shard", "pt_BR": "surrupiar um caco"},
    "target": {"where": "target != seat"},
    "card": {"from": "shelf", "whose": "target", "to": "shelf", "where": "matching(shelf, set, card.set, target) < card.size"},
}


def _copy(tmp_path: Path, change: Change = lambda data: None) -> Path:
    return edited_copy(FIXTURE, tmp_path, lambda data: data["rules"]["turn"][0]["options"].append(dict(SNATCH)), change)


def _game(tmp_path: Path, players: int = 3) -> DataGame:
    return data_game(_copy(tmp_path), players)


def test_only_shards_of_sets_the_other_player_has_not_completed_are_offered(tmp_path: Path) -> None:
    game = _game(tmp_path)
    s = game.new_initial_state(0)
    for zone in s.z:
        zone.clear()
    cup, jug, bowl, vase = (game.design(c) for c in ("cup", "jug", "bowl", "vase"))
    s.z[game.slot("heap")][:] = [cup]
    s.z[game.slot("shelf", 1)][:] = [cup, cup, cup, jug]  # cups complete: only the jug may be taken
    s.z[game.slot("shelf", 2)][:] = [bowl, vase, vase]
    s.z[game.slot("shelf", 0)][:] = [jug]  # the seat's own shelf is never offered
    snatch = next(o for o in game.options if o.key == "pick.snatch")
    offered = sorted(divmod(a - snatch.index * game.width, game.card_width) for a in s.legal_actions() if a // game.width == snatch.index)
    assert offered == [(1, jug), (2, bowl), (2, vase)]
    action = snatch.index * game.width + 2 * game.card_width + vase
    assert "at P3" in s.action_to_string(action)
    s.apply_action(action)
    assert sorted(s.z[game.slot("shelf", 0)]) == sorted([jug, vase])
    assert sorted(s.z[game.slot("shelf", 2)]) == sorted([bowl, vase])


def test_random_playouts_keep_every_card(tmp_path: Path) -> None:
    rng = random.Random(8)
    for players in (2, 3, 4):
        game = _game(tmp_path / str(players), players)
        for seed in range(15):
            s = game.new_initial_state(seed)
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
                assert s.conservation_errors() == []


def test_the_rulebook_says_whose_card_and_which(tmp_path: Path) -> None:
    from cardgen.rulebook.i18n import translations

    loaded = load_spec(_copy(tmp_path))
    assert loaded.spec is not None
    for locale, words in (("en", ["the chosen player's shelf", "the number of cards in"]), ("pt_BR", ["o número de cartas n"])):
        summary = rules_summary(loaded.spec, locale, translations(locale))
        assert summary is not None
        for word in words:
            assert word in str(summary["turn"]), summary["turn"]


def test_the_copy_is_clean(tmp_path: Path) -> None:
    result = validate_folder(_copy(tmp_path), kinds=("static",))
    assert [f.render() for f in result.findings if f.severity is Severity.ERROR] == []


def _snatch(data: dict[str, Any]) -> dict[str, Any]:
    option: dict[str, Any] = data["rules"]["turn"][0]["options"][-1]
    return option


MUTANTS: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("no target", lambda d: _snatch(d).pop("target") and _snatch(d)["card"].__setitem__("where", "card.size > 1"), "rules.turn[0].options[2].card.whose"),
    ("a shared zone", lambda d: _snatch(d)["card"].update({"from": "row", "where": "card.size > 1"}), "rules.turn[0].options[2].card.whose"),
    ("matching an unknown field", lambda d: _snatch(d)["card"].__setitem__("where", "matching(shelf, family, card.set, target) < 3"), "rules.turn[0].options[2].card.where"),
    ("matching without a value", lambda d: _snatch(d)["card"].__setitem__("where", "matching(shelf, set) < 3"), "rules.turn[0].options[2].card.where"),
    ("target read from one's own zone", lambda d: _snatch(d)["card"].__setitem__("whose", "me"), "rules.turn[0].options[2].card.where"),
]


@pytest.mark.parametrize(("name", "change", "path"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_each_broken_copy_is_refused_at_its_place(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], object], path: str) -> None:
    result = validate_folder(_copy(tmp_path, change), kinds=("static",))
    found = [(f.code, f.path) for f in result.findings if f.severity is Severity.ERROR]
    assert ("CG175", path) in found, found
