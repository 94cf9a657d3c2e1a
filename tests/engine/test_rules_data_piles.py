"""Playing with rows of piles: moves out of a pile (pile by pile between rows under one deck), options choosing a pile,
card choices across a row, counters kept per pile, arranging one pile, and ``component.ID.count``. Keramikos written as
rules data (specs/keramikos) played by the generic interpreter on hand-made positions, and one broken
copy for every problem the validator reports about these constructs (CG175 at its place). The whole game agrees with
the hand-written engine in tests/engine/test_lockstep_keramikos.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from cardgen.catalogue import validate_folder
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.findings import Severity

from engine.spec_copies import data_game, edited_copy, option_of

FIXTURE = Path(__file__).resolve().parents[2] / "specs" / "keramikos"
SITES = ["site-2", "site-3", "site-4", "site-5", "site-6", "site-7", "site-8"]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> DataGame:
    return data_game(edited_copy(FIXTURE, tmp_path_factory.mktemp("piles")), 2)


def _table(game: DataGame, stacks: dict[str, list[str]], marked: dict[str, list[str]] | None = None) -> DataState:
    """A position at the start of seat 1's turn with only these piles on the table (lists bottom first)."""
    s = game.new_initial_state(0)
    for zone in s.z:
        zone.clear()
    for site, cards in stacks.items():
        s.z[game.tables.zone_index["stacks"] + SITES.index(site)][:] = [game.design(c) for c in cards]
    for site, cards in (marked or {}).items():
        s.z[game.tables.zone_index["marked"] + SITES.index(site)][:] = [game.design(c) for c in cards]
    return s


def _pile(game: DataGame, s: DataState, row: str, site: str) -> list[str]:
    return [game.card_ids[d] for d in s.z[game.tables.zone_index[row] + SITES.index(site)]]


def _action(game: DataGame, key: str, parameter: int = 0) -> int:
    option = next(o for o in game.options if o.key == key)
    return option.index * game.width + parameter


def test_a_mark_moves_the_top_card_of_the_rolled_pile_and_a_bust_puts_it_back_on_top(game: DataGame) -> None:
    s = _table(game, {"site-4": ["kantharos", "oinochoe", "lekythos"]})  # lekythos on top
    s.v[game.tables.variable_index["rolled"]] = 4
    s.step = 2  # the roll's resolution
    s.apply_action(_action(game, "resolve.mark"))
    assert _pile(game, s, "marked", "site-4") == ["lekythos"]
    assert _pile(game, s, "stacks", "site-4") == ["kantharos", "oinochoe"]
    s.step, s.v[game.tables.variable_index["double"]] = 2, 1
    s.apply_action(_action(game, "resolve.deepen", SITES.index("site-4")))  # doubles: the card below the lowest mark
    assert _pile(game, s, "marked", "site-4") == ["lekythos", "oinochoe"]
    s.step = 2
    s.apply_action(_action(game, "resolve.bust"))
    assert _pile(game, s, "marked", "site-4") == []
    assert _pile(game, s, "stacks", "site-4")[-3:] == ["kantharos", "oinochoe", "lekythos"]  # the marked cards back on top, in order


def test_a_pile_option_offers_the_piles_its_condition_accepts_and_names_the_chosen_one(game: DataGame) -> None:
    s = _table(game, {"site-2": ["amphora", "krater"], "site-3": ["hydria", "hydria"], "site-6": ["oinochoe", "reroll"]})
    s.z[game.slot("hand", 0)].append(game.design("sort"))
    sort = next(o for o in game.options if o.key == "decide.sort")
    offered = sorted(a - sort.index * game.width for a in s.legal_actions() if divmod(a, game.width)[0] == sort.index)
    assert [SITES[p] for p in offered] == ["site-2", "site-6"]  # site-3 holds one kind only: one order
    s.apply_action(_action(game, "decide.sort", SITES.index("site-6")))
    assert s.v[game.tables.variable_index["site"]] == "site-6"
    assert s.arranging == game.tables.zone_index["stacks"] + SITES.index("site-6")  # Sort arranges that pile


def test_a_card_choice_across_the_row_takes_the_copy_in_the_leftmost_pile_nearest_the_top(game: DataGame) -> None:
    s = _table(game, {"site-3": ["skyphos", "hydria"], "site-5": ["kyathos"], "site-6": ["skyphos", "oinochoe", "skyphos", "kylix"]})
    s.step = 3  # the take after marking an empty site
    take = next(o for o in game.options if o.key == "take.take")
    offered = sorted(game.card_ids[a - take.index * game.width] for a in s.legal_actions())
    assert offered == ["kyathos", "skyphos"]  # level 1 pottery, one choice per design
    s.apply_action(_action(game, "take.take", game.design("skyphos")))
    assert _pile(game, s, "stacks", "site-3") == ["hydria"]
    assert _pile(game, s, "stacks", "site-6") == ["skyphos", "oinochoe", "skyphos", "kylix"]
    assert [game.card_ids[d] for d in s.z[game.slot("collection", 0)]] == ["skyphos"]


def test_a_counter_kept_per_pile_is_read_and_changed_pile_by_pile(game: DataGame) -> None:
    from cardgen.engine.interpreter.compile import compile_expression

    s = _table(game, {"site-4": ["kantharos"]})
    index = game.tables.counter_index["site_mark"]
    s.v[game.tables.variable_index["rolled"]] = 5  # site-5 has no pottery: the marker goes on the site card
    s.step = 2
    s.apply_action(_action(game, "resolve.mark_site"))
    assert s.c[index : index + len(SITES)] == [0, 0, 0, 1, 0, 0, 0]
    marked = compile_expression("piles(stacks, site_mark > 0)", game.tables)
    assert marked(s, 0, 0) == 1
    s.step = 2
    s.apply_action(_action(game, "resolve.bust"))  # rolled 5 again: bust, and every marker comes off
    assert s.c[index : index + len(SITES)] == [0] * len(SITES)


def test_a_components_count_is_a_number_of_the_expressions(game: DataGame) -> None:
    from cardgen.engine.interpreter.compile import compile_expression

    assert compile_expression("component.marker.count", game.tables)(None, 0, 0) == 10


def test_the_fixture_is_clean(tmp_path: Path) -> None:
    result = validate_folder(edited_copy(FIXTURE, tmp_path), kinds=("static",))
    assert [f.render() for f in result.findings if f.severity is Severity.ERROR] == []


def _rules(data: dict[str, Any]) -> dict[str, Any]:
    rules: dict[str, Any] = data["rules"]
    return rules


def _set(getter: Callable[[dict[str, Any]], dict[str, Any]], key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        getter(data)[key] = value
    return change


SORT = "rules.turn[0].options[6]"
MUTANTS: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("a counter per pile of no row", _set(lambda d: _rules(d)["counters"]["site_mark"], "per_pile", "deck"), "rules.counters.site_mark.per_pile"),
    ("a counter per pile and per seat", _set(lambda d: _rules(d)["counters"]["site_mark"], "per_seat", True), "rules.counters.site_mark.per_seat"),
    ("a counter per pile read outside a pile", _set(lambda d: option_of(d, "roll"), "when", "site_mark == 0"), "rules.turn[0].options[0].when"),
    ("a pile chosen for a plain counter", _set(lambda d: option_of(d, "mark")["do"][1]["add"], "pile", {"where": "1 == 1"}), "rules.turn[2].options[1].do[1].add.pile"),
    ("a pile option of no row", _set(lambda d: option_of(d, "sort")["pile"], "row", "deck"), f"{SORT}.pile.row"),
    ("a pile option into no variable", _set(lambda d: option_of(d, "sort")["pile"], "var", "where"), f"{SORT}.pile.var"),
    ("a pile option into a number", _set(lambda d: option_of(d, "sort")["pile"], "var", "rolled"), f"{SORT}.pile.var"),
    ("a pile option's condition of a wrong name", _set(lambda d: option_of(d, "sort")["pile"], "where", "count(hand) > pile.depth"), f"{SORT}.pile.where"),
    ("a pile option aimed at a seat", _set(lambda d: option_of(d, "sort"), "target", {"where": "target != seat"}), SORT),
    ("a card across a row aimed at a seat", _set(lambda d: option_of(d, "take"), "target", {"where": "target != seat"}), "rules.turn[3].options[0]"),
    ("a card choice into a row", _set(lambda d: option_of(d, "take")["card"], "to", "marked"), "rules.turn[3].options[0].card.to"),
    ("an arrangement's pile in a plain zone", _set(lambda d: option_of(d, "sort")["do"][1]["arrange"], "zone", "deck"), f"{SORT}.do[1].arrange.pile"),
    ("a pile between rows of two decks", lambda d: _two_decks(d), "rules.turn[2].options[1].do[0].move.to"),
    ("a component that has no count", _set(lambda d: option_of(d, "roll"), "when", "placed < component.marker.size"), "rules.turn[0].options[0].when"),
]


def _two_decks(data: dict[str, Any]) -> None:
    _rules(data)["zones"]["marked"]["under"] = "excavation"


@pytest.mark.parametrize(("name", "change", "path"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_each_broken_copy_is_refused_at_its_place(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], object], path: str) -> None:
    result = validate_folder(edited_copy(FIXTURE, tmp_path, change), kinds=("static",))
    found = [(f.code, f.path) for f in result.findings if f.severity is Severity.ERROR]
    assert ("CG175", path) in found, found


def test_the_rulebook_says_the_piles(tmp_path: Path) -> None:
    from cardgen.rulebook.i18n import translations
    from cardgen.rulebook.rules_summary import rules_summary
    from cardgen.spec.load import load_spec

    loaded = load_spec(edited_copy(FIXTURE, tmp_path))
    assert loaded.spec is not None
    expected = {
        "en": (
            "Move the top card of the leftmost pile of the stacks for which the dice total is one of the totals of the pile's card "
            "to the pile of the marked cards in the same place.",
            "Move every card of every pile of the marked cards to the pile of the stacks in the same place.",
            "Set the number of markers on the site of every pile of the stacks back to 0.",
            "there is a pile of the stacks for which the dice total is one of the totals of the pile's card",
            "the pile of the stacks holds no card whose card type is Pottery",
            "Choose a pile of the stacks for which",
            "The card is taken from the leftmost pile that holds one, the copy nearest its top.",
            "the number of Marker pieces each player owns",
        ),
        "pt_BR": (
            "Passe a carta do topo da pilha mais à esquerda das pilhas para a qual o total dos dados",
            "para a pilha das cartas marcadas no mesmo lugar.",
            "O número de marcadores no sítio de cada pilha das pilhas volta a 0.",
            "há uma pilha das pilhas para a qual o total dos dados é um dos totais da carta da pilha",
            "Passe todas as cartas das pilhas das cartas marcadas para a sua coleção",
            "Escolha uma pilha das pilhas para a qual",
            "A carta sai da pilha mais à esquerda que tiver uma, a cópia mais perto do topo.",
        ),
    }
    for locale, phrases in expected.items():
        summary = rules_summary(loaded.spec, locale, translations(locale))
        assert summary is not None
        text = str(summary["turn"])
        for phrase in phrases:
            assert phrase in text, (locale, phrase)
