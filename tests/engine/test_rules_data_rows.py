"""Rows of piles (a zone with ``under``), ``piles(ROW, CONDITION)``, a move's pile choice and ``place: bottom``, the
setup loop (``repeat ... until``) and ``shuffle_back``: tests/fixtures/dig-rows played by the generic interpreter, and
one broken copy for every problem the validator reports about them (CG175 at its place).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from cardgen.catalogue import validate_folder
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.findings import Severity

from engine.spec_copies import data_game, edited_copy

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "dig-rows"
SITES = ["site-2", "site-3", "site-4", "site-5", "site-6", "site-7", "site-8"]


def _rules(data: dict[str, Any]) -> dict[str, Any]:
    rules: dict[str, Any] = data["rules"]
    return rules


def _draw(data: dict[str, Any]) -> dict[str, Any]:
    move: dict[str, Any] = _rules(data)["turn"][0]["options"][0]["do"][0]["move"]
    return move


def _loop(data: dict[str, Any]) -> dict[str, Any]:
    loop: dict[str, Any] = _rules(data)["setup"][1]["repeat"]
    return loop


def _emptied(game: DataGame, deck: list[str]) -> DataState:
    """A position with empty piles and ``deck`` (top last) as the deck."""
    s = game.new_initial_state(0)
    for zone in s.z:
        zone.clear()
    s.z[game.slot("deck")][:] = [game.design(c) for c in deck]
    return s


def _piles(game: DataGame, s: DataState) -> list[list[str]]:
    base, size = game.tables.zone_index["stacks"], game.tables.rows["stacks"][1]
    return [[game.card_ids[d] for d in s.z[base + pile]] for pile in range(size)]


def test_a_row_has_one_pile_under_each_card_and_its_cards_are_on_the_table(tmp_path: Path) -> None:
    game = data_game(edited_copy(FIXTURE, tmp_path), 2)
    assert game.tables.rows["stacks"][1] == len(SITES)
    assert [game.card_ids[d] for d in game.laid_out] == SITES
    s = game.new_initial_state(3)
    assert s.conservation_errors() == []
    s.z[game.slot("deck")].pop()
    assert s.conservation_errors() != []  # a card lost is seen


def test_a_card_goes_beneath_the_smallest_pile_it_fits_leftmost_on_a_tie(tmp_path: Path) -> None:
    game = data_game(edited_copy(FIXTURE, tmp_path), 2)
    # skyphos is level 1 (site-5 only), oinochoe level 2 (site-4, site-6); a special fits every pile
    deck = ["reroll", "oinochoe", "oinochoe", "oinochoe", "skyphos"]
    s = _emptied(game, deck)
    draw = game.options[0].index * game.width
    for _ in deck:
        s.apply_action(draw)
    piles = _piles(game, s)
    assert piles[SITES.index("site-5")] == ["skyphos"]
    assert piles[SITES.index("site-4")] == ["oinochoe", "oinochoe"]  # the second lies beneath the first (the bottom is the start)
    assert piles[SITES.index("site-6")] == ["oinochoe"]
    assert piles[SITES.index("site-2")] == ["reroll"]  # the leftmost of the smallest piles


def test_pick_first_and_place_top(tmp_path: Path) -> None:
    def first(data: dict[str, Any]) -> None:
        _draw(data)["pile"]["pick"] = "first"
        _draw(data)["place"] = "top"

    game = data_game(edited_copy(FIXTURE, tmp_path, first), 2)
    s = _emptied(game, ["oinochoe", "krater", "oinochoe"])
    draw = game.options[0].index * game.width
    for _ in range(3):
        s.apply_action(draw)
    piles = _piles(game, s)
    level = game.tables.field_values["level"]
    krater = game.design("krater")
    assert piles[SITES.index("site-4")] == ["oinochoe", "oinochoe"]
    assert [SITES[p] for p, pile in enumerate(piles) if game.design("krater") in [game.design(c) for c in pile]] == [
        next(site for site in SITES if level[game.design(site)] == level[krater])
    ]


def test_a_card_no_pile_takes_stays_and_the_move_stops(tmp_path: Path) -> None:
    def level_five(data: dict[str, Any]) -> None:
        _draw(data)["pile"]["where"] = "pile.level == 5"

    game = data_game(edited_copy(FIXTURE, tmp_path, level_five), 2)
    s = _emptied(game, ["skyphos", "oinochoe"])
    s.apply_action(game.options[0].index * game.width)
    assert [game.card_ids[d] for d in s.z[game.slot("deck")]] == ["skyphos", "oinochoe"]
    assert _piles(game, s) == [[] for _ in SITES]


def test_piles_counts_the_piles_that_satisfy_a_condition(tmp_path: Path) -> None:
    from cardgen.engine.interpreter.compile import compile_expression

    game = data_game(edited_copy(FIXTURE, tmp_path), 2)
    s = _emptied(game, ["oinochoe"])
    count = compile_expression("piles(stacks, count(stacks) == 0 and pile.level == 2)", game.tables)
    assert count(s, 0, 0) == 2
    s.apply_action(game.options[0].index * game.width)
    assert count(s, 0, 0) == 1
    assert compile_expression("piles(stacks, pile.level >= 3)", game.tables)(s, 0, 0) == 4


def test_the_setup_loop_stops_at_its_condition_or_when_a_round_changes_nothing(tmp_path: Path) -> None:
    def stuck(data: dict[str, Any]) -> None:
        _loop(data)["until"] = "count(deck) == 1000"
        _loop(data)["do"] = [{"move": {"from": "deck", "to": "aside", "count": 0}}]

    game = data_game(edited_copy(FIXTURE, tmp_path, stuck), 2)
    s = game.new_initial_state(1)  # does not hang: the first round changes nothing
    assert len(s.z[game.slot("deck")]) == game.total_cards - len(SITES)

    def three(data: dict[str, Any]) -> None:
        data["rules"]["counters"]["rounds"] = {"per_seat": False, "name": {"en": "rounds", "pt_BR": "rodadas"}}
        _loop(data)["until"] = "rounds == 3"
        _loop(data)["do"] = [{"add": {"counter": "rounds", "amount": 1}}, {"move": {"from": "deck", "to": "aside"}}]

    game = data_game(edited_copy(FIXTURE, tmp_path / "three", three), 2)
    s = game.new_initial_state(1)
    assert s.c[game.tables.counter_index["rounds"]] == 3


def test_the_fixture_is_clean(tmp_path: Path) -> None:
    result = validate_folder(edited_copy(FIXTURE, tmp_path), kinds=("static",))
    assert [f.render() for f in result.findings if f.severity is Severity.ERROR] == []


def _zone(name: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda data: _rules(data)["zones"][name]


def _bottom_of_unordered(data: dict[str, Any]) -> None:
    _zone("aside")(data)["ordered"] = False
    _loop(data)["do"][2]["move"]["place"] = "bottom"


MUTANTS: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("a row under no deck", lambda d: _zone("stacks")(d).__setitem__("under", "tents"), "rules.zones.stacks.under"),
    ("a row under a deck with copies", lambda d: _zone("stacks")(d).__setitem__("under", "excavation"), "rules.zones.stacks.under"),
    ("a row per seat", lambda d: _zone("stacks")(d).__setitem__("per_seat", True), "rules.zones.stacks.per_seat"),
    ("a row without order", lambda d: _zone("stacks")(d).__setitem__("ordered", False), "rules.zones.stacks.ordered"),
    ("a row shuffled into", lambda d: _rules(d)["setup"][0]["shuffle"].__setitem__("to", "stacks"), "rules.setup[0].shuffle.to"),
    ("a row scored", lambda d: _rules(d)["scoring"].append({"sum": {"zone": "stacks", "field": "level"}}), "rules.scoring[1].sum.zone"),
    ("a pile choice into a plain zone", lambda d: _draw(d).__setitem__("to", "aside"), "rules.turn[0].options[0].do[0].move.pile"),
    ("the bottom of an unordered zone", lambda d: _bottom_of_unordered(d), "rules.setup[1].repeat.do[2].move.place"),
    ("a pile read outside a pile's condition", lambda d: _loop(d).__setitem__("until", "pile.level == 1"), "rules.setup[1].repeat.until"),
    ("a row read as one zone", lambda d: _loop(d).__setitem__("until", "count(stacks) == 0"), "rules.setup[1].repeat.until"),
    ("piles of a plain zone", lambda d: _loop(d).__setitem__("until", "piles(deck, 1 == 1) == 0"), "rules.setup[1].repeat.until"),
    ("piles inside piles", lambda d: _loop(d).__setitem__("until", "piles(stacks, piles(stacks, 1 == 1) > 0) == 0"), "rules.setup[1].repeat.until"),
    ("a pile condition of an unknown field", lambda d: _draw(d)["pile"].__setitem__("where", "pile.depth == 1"), "rules.turn[0].options[0].do[0].move.pile.where"),
    ("a loop with a roll", lambda d: _loop(d)["do"].append({"roll": {"dice": "dice", "var": "full"}}), "rules.setup[1].repeat.do[3]"),
    ("a loop into no zone", lambda d: _loop(d)["do"][2]["move"].__setitem__("to", "tent"), "rules.setup[1].repeat.do[2].move.to"),
    ("a loop setting no variable", lambda d: _loop(d)["do"][0]["set"].__setitem__("var", "done"), "rules.setup[1].repeat.do[0].set.var"),
    ("a loop adding to no counter", lambda d: _loop(d)["do"].append({"add": {"counter": "rounds", "amount": 1}}), "rules.setup[1].repeat.do[3].add.counter"),
    ("a loop's amount of a wrong name", lambda d: _loop(d)["do"][1]["move"].__setitem__("count", "cards_left"), "rules.setup[1].repeat.do[1].move.count"),
    ("a shuffle back from no zone", lambda d: _rules(d)["setup"][2]["shuffle_back"].__setitem__("from", "tent"), "rules.setup[2].shuffle_back.from"),
    ("a shuffle back into an unordered zone", lambda d: _zone("deck")(d).__setitem__("ordered", False), "rules.setup[2].shuffle_back.to"),
    ("a shuffle back from a seat's zone", lambda d: _zone("aside")(d).__setitem__("per_seat", True), "rules.setup[2].shuffle_back.from"),
]


@pytest.mark.parametrize(("name", "change", "path"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_each_broken_copy_is_refused_at_its_place(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], object], path: str) -> None:
    result = validate_folder(edited_copy(FIXTURE, tmp_path, change), kinds=("static",))
    found = [(f.code, f.path) for f in result.findings if f.severity is Severity.ERROR]
    assert ("CG175", path) in found, found


def test_the_rulebook_says_the_rows_the_loop_and_the_shuffle_back(tmp_path: Path) -> None:
    from cardgen.rulebook.i18n import translations
    from cardgen.rulebook.rules_summary import rules_summary
    from cardgen.spec.load import load_spec

    loaded = load_spec(edited_copy(FIXTURE, tmp_path))
    assert loaded.spec is not None
    expected = {
        "en": (
            "Repeat until the deck is empty",
            "there is no pile of the stacks for which the level of the pile's card is the level of the top card of the deck and the pile is empty",
            "beneath the pile of the stacks holding the fewest cards (the leftmost on a tie) among those for which",
            "Put the cards of the cards set aside onto the deck and shuffle the deck.",
        ),
        "pt_BR": (
            "Repita, parando quando o baralho está vazio",
            "não há pilha das pilhas para a qual o nível da carta da pilha é o nível da carta do topo do baralho e a pilha está vazia",
            "para baixo da pilha das pilhas com menos cartas (a mais à esquerda no empate) entre aquelas para as quais",
            "Ponha as cartas das cartas deixadas de lado sobre o baralho e embaralhe o baralho.",
        ),
    }
    for locale, phrases in expected.items():
        summary = rules_summary(loaded.spec, locale, translations(locale))
        assert summary is not None
        text = str(summary["setup"]) + str(summary["turn"])
        for phrase in phrases:
            assert phrase in text, (locale, phrase, text)


def test_a_zone_may_be_called_pile(tmp_path: Path) -> None:
    """``pile.FIELD`` is an attribute, so a zone named ``pile`` (as Mausoleum Guardians has) keeps its name beside rows of piles."""

    def rename(data: dict[str, Any]) -> None:
        rules = _rules(data)
        rules["zones"]["pile"] = rules["zones"].pop("aside")
        _loop(data)["do"][2]["move"]["to"] = "pile"
        rules["setup"][2]["shuffle_back"]["from"] = "pile"

    folder = edited_copy(FIXTURE, tmp_path, rename)
    result = validate_folder(folder, kinds=("static",))
    assert [f.render() for f in result.findings if f.severity is Severity.ERROR] == []
    assert data_game(folder, 2).new_initial_state(5).conservation_errors() == []
