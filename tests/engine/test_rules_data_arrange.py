"""Arranging cards (``arrange: {zone, count}``): the seat puts the top cards of an ordered zone back in any order,
choosing card by card from the top down. Potsherds (tests/fixtures/potsherds) with one more option, "look at the
top three shards of the heap and put them back in any order", played by the generic interpreter.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any, Callable

import pytest

from cardgen.catalogue import validate_folder
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.findings import Severity
from cardgen.rulebook.rules_summary import rules_summary
from cardgen.spec.load import load_spec

from engine.spec_copies import Change, data_game, edited_copy

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "potsherds"
PEEK = {"id": "peek", "name": {"en": "peek", "pt_BR": "espiar"}, "when": "count(heap) > 1", "do": [{"arrange": {"zone": "heap", "count": 3}}]}


def _copy(tmp_path: Path, change: Change = lambda data: None) -> Path:
    return edited_copy(FIXTURE, tmp_path, lambda data: data["rules"]["turn"][0]["options"].append(dict(PEEK)), change)


def _game(tmp_path: Path, players: int = 2) -> DataGame:
    return data_game(_copy(tmp_path), players)


def _peeking(game: DataGame, heap: list[str]) -> DataState:
    s = game.new_initial_state(0)
    for zone in s.z:
        zone.clear()
    s.z[game.slot("heap")][:] = [game.design(c) for c in heap]
    s.z[game.slot("row")][:] = [game.design("cup")]
    peek = next(o for o in game.options if o.key == "pick.peek")
    s.apply_action(peek.index * game.width)
    return s


def _orders(game: DataGame, s: DataState, seat: int) -> list[tuple[int, ...]]:
    """Every heap reached by the arrangement's choices, one per series of choices (the seat's turn over)."""
    if s.seat != seat or s.arranging < 0:
        return [tuple(s.z[game.slot("heap")])]
    out: list[tuple[int, ...]] = []
    actions = s.legal_actions()
    assert len(actions) == len({a % game.width for a in actions}), "one choice per kind of card"
    for action in actions:
        after = s.clone()
        after.apply_action(action)
        out.extend(_orders(game, after, seat))
    return out


@pytest.mark.parametrize("top", [["cup", "jug", "bowl"], ["cup", "cup", "jug"], ["vase", "vase", "vase"]])
def test_every_order_of_the_top_cards_is_one_series_of_choices(tmp_path: Path, top: list[str]) -> None:
    game = _game(tmp_path)
    below = ["glue", "bowl"]
    s = _peeking(game, below + top)
    orders = _orders(game, s, 0)
    heap_below = tuple(game.design(c) for c in below)
    expected = {heap_below + order for order in itertools.permutations(game.design(c) for c in top)}
    assert len(orders) == len(set(orders)) == len(expected), "each order once"
    assert set(orders) == expected
    if len(set(top)) == 1:
        assert s.arranging < 0 and s.seat == 1  # one order only: no choice, the turn is over


def test_fewer_cards_than_the_count_are_all_arranged(tmp_path: Path) -> None:
    game = _game(tmp_path)
    s = _peeking(game, ["cup", "jug"])
    assert sorted(_orders(game, s, 0)) == sorted([(game.design("cup"), game.design("jug")), (game.design("jug"), game.design("cup"))])


def test_random_playouts_keep_every_card_and_clone_faithfully(tmp_path: Path) -> None:
    rng = random.Random(4)
    for players in (2, 4):
        game = _game(tmp_path / str(players), players)
        for seed in range(15):
            s = game.new_initial_state(seed)
            while not s.is_terminal():
                twin = s.clone()
                assert twin.fingerprint() == s.fingerprint()
                action = rng.choice(s.legal_actions())
                assert s.action_to_string(action)
                s.apply_action(action)
                twin.apply_action(action)
                assert twin.fingerprint() == s.fingerprint()
                assert s.conservation_errors() == []


def test_the_rulebook_says_the_arrangement(tmp_path: Path) -> None:
    from cardgen.rulebook.i18n import translations

    loaded = load_spec(_copy(tmp_path))
    assert loaded.spec is not None
    for locale, words in (("en", "Put the top 3 cards of the heap back in any order you like"), ("pt_BR", "Devolva as 3 cartas do topo do monte na ordem que quiser")):
        summary = rules_summary(loaded.spec, locale, translations(locale))
        assert summary is not None
        assert words in str(summary["turn"]), summary["turn"]


def test_the_copy_is_clean(tmp_path: Path) -> None:
    result = validate_folder(_copy(tmp_path), kinds=("static",))
    assert [f.render() for f in result.findings if f.severity is Severity.ERROR] == []


def _arrange(data: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = data["rules"]["turn"][0]["options"][-1]["do"][0]["arrange"]
    return spec


MUTANTS: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("an unordered zone", lambda d: _arrange(d).__setitem__("zone", "row"), "rules.turn[0].options[2].do[0].arrange.zone"),
    ("an unknown zone", lambda d: _arrange(d).__setitem__("zone", "cupboard"), "rules.turn[0].options[2].do[0].arrange.zone"),
    ("a count that is text", lambda d: _arrange(d).__setitem__("count", "'three'"), "rules.turn[0].options[2].do[0].arrange.count"),
    (
        "an effect after it",
        lambda d: d["rules"]["turn"][0]["options"][-1]["do"].append({"move": {"from": "heap", "to": "row"}}),
        "rules.turn[0].options[2].do[0]",
    ),
]


@pytest.mark.parametrize(("name", "change", "path"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_each_broken_copy_is_refused_at_its_place(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], object], path: str) -> None:
    result = validate_folder(_copy(tmp_path, change), kinds=("static",))
    found = [(f.code, f.path) for f in result.findings if f.severity is Severity.ERROR]
    assert ("CG175", path) in found, found
