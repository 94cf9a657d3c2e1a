"""Mutations for the verdict families of issue 13: facts stated twice, values the rules cannot play or never
read, counts typed into prose, translations that disagree, and the rulebook following the one place.

Each test breaks one shipped spec the way a designer would and asserts the finding that names it, at the
line where the mistake was made. Together with ``test_one_fact_one_place`` (every value obeyed or refused)
these are the tests behind CG140, CG145-CG147 and CG170-CG173 in docs/findings.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardgen.rulebook.build import make_rulebook
from cardgen.spec.load import load_spec

from .helpers import card, copy_spec, deck, edit_yaml, errors, line_of, rendered, static


def _only(folder: Path, code: str, also: set[str] | None = None) -> list[Any]:
    """The errors of ``code``; no other error code but those in ``also`` (findings the same edit rightly causes)."""
    result = static(folder)
    found = errors(result.findings, code)
    assert found, rendered(result.findings)
    assert {f.code for f in errors(result.findings)} <= {code} | (also or set()), rendered(result.findings)
    return found


def test_a_number_the_rules_read_is_missing(tmp_path: Path) -> None:
    """Ceramus' rules module reads add_tile_count; without it the contract names the number (CG170)."""
    folder = copy_spec("ceramus", tmp_path)
    edit_yaml(folder, lambda data: data["numbers"].pop("add_tile_count"))
    found = _only(folder, "CG170", also={"CG140"})  # the prose naming it is reported too
    assert "numbers.add_tile_count" in found[0].message and found[0].path == "numbers"


def test_a_number_the_rules_data_read_is_missing(tmp_path: Path) -> None:
    """Mausoleum Guardians' rules data read set_points; without it the expression reading it is the finding (CG175)."""
    folder = copy_spec("mausoleum-guardians", tmp_path)
    edit_yaml(folder, lambda data: data["numbers"].pop("set_points"))
    found = _only(folder, "CG175", also={"CG140"})  # the prose naming it is reported too
    assert found[0].path == "rules.scoring[0].one_of_each.points" and "set_points" in found[0].message


def test_an_effect_the_rules_data_do_not_define_is_one_finding(tmp_path: Path) -> None:
    """A card of a data game carrying an effect its rules data lack is refused once, by the rules-data check (CG175),
    not a second time by the contract derived from the same rules data (CG171)."""
    from .helpers import edit_csv_row

    folder = copy_spec("crazy-eights", tmp_path)
    edit_csv_row(folder / "cards.csv", "a-spades", effect="teleport")
    found = _only(folder, "CG175")
    assert [(f.path, "'teleport'" in f.message) for f in found] == [("decks[0].cards[0].effect", True)]


def test_a_number_set_into_a_variable_over_card_ids_is_refused(tmp_path: Path) -> None:
    """Keramikos' `site` holds a card's id (values: id); a `set` giving it a number is the wrong kind (CG175), as for a
    variable over a declared text field."""
    folder = copy_spec("keramikos", tmp_path)

    def set_number(data: Any) -> None:
        option = data["rules"]["turn"][0]["options"][0]
        option["do"].insert(0, {"set": {"var": "site", "value": 3}})

    edit_yaml(folder, set_number)
    found = _only(folder, "CG175", also={"CG182"})
    assert any(f.path.endswith("set.value") and "variable 'site' takes text values" in f.message for f in found), [f.render() for f in found]


def test_a_second_hand_size_is_a_number_nobody_reads(tmp_path: Path) -> None:
    """Mausoleum Guardians deals the setup table's count; a hand_size number beside it is refused."""
    folder = copy_spec("mausoleum-guardians", tmp_path)
    edit_yaml(folder, lambda data: data["numbers"].__setitem__("hand_size", 7))
    found = _only(folder, "CG172")
    assert found[0].path == "numbers.hand_size" and "hand_size: 7" in line_of(found[0])


@pytest.mark.parametrize("name", ["add_tile_count", "remove_tile_count", "move_one_max_tiles", "move_two_max_tiles"])
def test_a_bonus_of_zero_is_refused_not_played_once(tmp_path: Path, name: str) -> None:
    folder = copy_spec("ceramus", tmp_path)
    edit_yaml(folder, lambda data: data["numbers"].__setitem__(name, 0))
    found = _only(folder, "CG171")
    assert found[0].path == f"numbers.{name}" and f"{name}: 0" in line_of(found[0])


def test_doubled_shapes_are_refused_where_the_copies_are(tmp_path: Path) -> None:
    """The Ceramus engine plays each Shape once; two doubled Shapes used to validate and deal 4, 4, 4, 2."""
    folder = copy_spec("ceramus", tmp_path)

    def double(data: Any) -> None:
        card(data, "shapes", "s01")["copies"] = 2
        card(data, "shapes", "s02")["copies"] = 2

    edit_yaml(folder, double)
    found = _only(folder, "CG171", also={"CG105"})  # and the source's 14 Shape cards no longer add up
    assert sorted(f.path for f in found) == ["decks[1].cards[0].copies", "decks[1].cards[1].copies"]


def test_a_partial_ceramas_row_is_refused(tmp_path: Path) -> None:
    folder = copy_spec("ceramus", tmp_path)
    edit_yaml(folder, lambda data: data["setups"][1]["display"].__setitem__("ceramas", 5))
    found = _only(folder, "CG171")
    assert found[0].path == "setups[1].display.ceramas" and "every card of deck 'ceramas' (6)" in found[0].message


def test_a_dig_row_beside_the_rules_row_is_unread(tmp_path: Path) -> None:
    """Keramikos' rules data lay the dig sites out as a row of piles (``stacks: {under: dig-sites}``); a grid of the
    same cards in the setup is a second statement of the row that nothing plays (CG172)."""
    folder = copy_spec("keramikos", tmp_path)
    edit_yaml(folder, lambda data: data["setups"][0].__setitem__("grids", {"dig-row": {"deck": "dig-sites", "columns": 7, "rows": 1}}))
    found = _only(folder, "CG172")
    assert found[0].path == "setups[0].grids.dig-row" and "dig-row:" in line_of(found[0])


def test_a_display_the_rules_never_lay_out_is_unread(tmp_path: Path) -> None:
    folder = copy_spec("mausoleum-guardians", tmp_path)
    edit_yaml(folder, lambda data: data["setups"][0].__setitem__("display", {"cards": 2}))
    found = _only(folder, "CG172")
    assert found[0].path == "setups[0].display.cards"


def test_a_number_the_rules_data_never_read_is_unread(tmp_path: Path) -> None:
    """Keramikos' rules data read five numbers; a sixth describes nothing that is played (CG172). (A card field no rule
    reads is not a finding for rules data: it is what the card face prints, e.g. a pottery card's set size.)"""
    folder = copy_spec("keramikos", tmp_path)
    edit_yaml(folder, lambda data: data["numbers"].__setitem__("excavation_bonus", 3))
    found = _only(folder, "CG172")
    assert found[0].path == "numbers.excavation_bonus" and "excavation_bonus: 3" in line_of(found[0])
    with_field = copy_spec("keramikos", tmp_path / "field")
    edit_yaml(with_field, lambda data: deck(data, "excavation")["fields"].__setitem__("bonus", {"type": "int", "required": False, "description": "Extra points."}))
    assert errors(static(with_field).findings) == []


def test_a_number_for_an_effect_no_card_carries_is_unread(tmp_path: Path) -> None:
    """Frieze is the only add-tile card; give it another effect and add_tile_count describes nothing."""
    folder = copy_spec("ceramus", tmp_path)
    edit_yaml(folder, lambda data: card(data, "ceramas", "c1").__setitem__("effect", "move_one"))
    found = errors(static(folder).findings, "CG172")
    assert [f.path for f in found] == ["numbers.add_tile_count"], rendered(found)
    assert "no card carries effect 'add_tile'" in found[0].message


def test_an_effect_the_rules_do_not_know_is_refused_statically(tmp_path: Path) -> None:
    """An effect Keramikos' rules data do not define is refused at the card (CG175; the contract the data imply says
    the same as CG171), and the clarifications naming {effect:sort} lose their card (CG141)."""
    folder = copy_spec("keramikos", tmp_path)
    edit_yaml(folder, lambda data: card(data, "excavation", "sort").__setitem__("effect", "shuffle"))
    found = _only(folder, "CG175", also={"CG141", "CG171"})
    assert found[0].path.endswith(".effect") and "shuffle" in found[0].message


def test_a_count_typed_into_prose_is_reported_in_both_locales(tmp_path: Path) -> None:
    folder = copy_spec("mausoleum-guardians", tmp_path)

    def typed(data: Any) -> None:
        description = deck(data, "cards")["description"]
        description["en"] = description["en"].replace("{deck.cards}", "52")
        description["pt_BR"] = description["pt_BR"].replace("{deck.cards}", "cinquenta e duas")

    edit_yaml(folder, typed)
    found = _only(folder, "CG147")
    assert sorted(f.path for f in found) == ["decks[0].description.en", "decks[0].description.pt_BR"]
    assert all("52" in f.message for f in found)


def test_a_translation_with_another_number_is_reported(tmp_path: Path) -> None:
    """The worked example may carry numbers, but the Portuguese must carry the same ones."""
    folder = copy_spec("mausoleum-guardians", tmp_path)

    def drift(data: Any) -> None:
        example = next(s for s in data["rules_text"]["extra"] if s["id"] == "example")
        assert "28" in example["text"]["pt_BR"]
        example["text"]["pt_BR"] = example["text"]["pt_BR"].replace("28", "30")

    edit_yaml(folder, drift)
    found = _only(folder, "CG146")
    assert found[0].path.endswith(".pt_BR") and "[30]" in found[0].message and "[28]" in found[0].message


def test_a_translation_with_another_reference_is_reported(tmp_path: Path) -> None:
    folder = copy_spec("keramikos", tmp_path)

    def drift(data: Any) -> None:
        goal = data["rules_text"]["goal"]
        goal["pt_BR"] = goal["pt_BR"] + " {numbers.excavation_draw}"

    edit_yaml(folder, drift)
    found = _only(folder, "CG146")
    assert "{numbers.excavation_draw}" in found[0].message


def test_a_setup_count_that_varies_cannot_be_one_number_in_prose(tmp_path: Path) -> None:
    folder = copy_spec("ceramus", tmp_path)

    def mention(data: Any) -> None:
        for locale in ("en", "pt_BR"):
            data["rules_text"]["goal"][locale] += " {setup.deal.shapes}"

    edit_yaml(folder, mention)
    found = _only(folder, "CG140")
    assert "changes with the player count" in found[0].message and "6 for 1" in found[0].message


def test_the_rulebooks_follow_the_one_place(tmp_path: Path) -> None:
    """Edit the hand dealt and the deck once; both rulebooks' prose and tables follow."""
    folder = copy_spec("mausoleum-guardians", tmp_path)

    def change(data: Any) -> None:
        for setup in data["setups"]:
            setup["deal"]["cards"] = 6
        card(data, "cards", "base")["copies"] = 7

    edit_yaml(folder, change)
    loaded = load_spec(folder)
    assert loaded.spec is not None
    en = make_rulebook(loaded.spec, "en", folder).markdown
    pt = make_rulebook(loaded.spec, "pt_BR", folder).markdown
    assert "Shuffle all 53 cards and deal 6 to each player." in " ".join(en.split())
    assert "Embaralhe as 53 cartas e dê 6 a cada jogador." in " ".join(pt.split())
    assert "52" not in en and "52" not in pt


def test_a_marker_of_a_colour_not_its_own_is_reported(tmp_path: Path) -> None:
    """Ceratopsians states that every marker is drawn from its face's own colours (drawn_from)."""
    folder = copy_spec("ceratopsians", tmp_path)

    def stray(data: Any) -> None:
        face = card(data, "skulls", "cf-ry")["faces"][0]["data"]
        colours = face["colours"]
        other = next(c for c in ("red", "yellow", "green", "blue") if c not in colours)
        face["top"] = [other]

    edit_yaml(folder, stray)
    found = _only(folder, "CG117")
    assert found[0].path == "decks[0].cards[0].faces[0].data.top" and "colours" in found[0].message


def test_points_that_do_not_follow_the_level_are_reported(tmp_path: Path) -> None:
    """The monotone kind, stated on Keramikos' pottery: the designed list gives a level-2 set fewer points
    than a level-1 set of more pieces, which the constraint names card by card."""
    folder = copy_spec("keramikos", tmp_path)
    edit_yaml(folder, lambda data: deck(data, "excavation").setdefault("constraints", []).append({"kind": "monotone", "field": "points", "by": "level", "strict": True}))
    found = _only(folder, "CG118")
    assert all(f.path.endswith(".data.points") for f in found)
    assert any("must grow strictly with level" in f.message for f in found)


def test_points_that_follow_the_level_pass(tmp_path: Path) -> None:
    folder = copy_spec("keramikos", tmp_path)
    edit_yaml(folder, lambda data: deck(data, "excavation").setdefault("constraints", []).append({"kind": "monotone", "field": "points", "by": "level"}))
    result = static(folder)
    assert not errors(result.findings, "CG118")


def test_a_defence_against_a_card_no_longer_in_the_deck_does_nothing(tmp_path: Path) -> None:
    """Remove the Earthquake cards: the rules data's Earthquake effect can never happen (CG177), so the Architects'
    guard, written in the rules data against Earthquakes, guards against nothing."""
    folder = copy_spec("mausoleum-guardians", tmp_path)

    def no_quakes(data: Any) -> None:
        cards = deck(data, "cards")["cards"]
        cards[:] = [c for c in cards if c["id"] != "earthquake"]

    edit_yaml(folder, no_quakes)
    result = static(folder)
    found = [f for f in result.findings if f.code == "CG177"]
    assert [f.path for f in found] == ["rules.effects.earthquake"], rendered(result.findings)
    assert "earthquake" in found[0].message


def test_a_mirror_of_symmetric_shapes_does_nothing(tmp_path: Path) -> None:
    folder = copy_spec("ceramus", tmp_path)

    def symmetric(data: Any) -> None:
        for shape in deck(data, "shapes")["cards"]:
            shape["data"]["cells"] = [[0, 0], [1, 0]] if shape["id"] == "s01" else [[0, 0]] + [[0, i] for i in range(1, int(shape["id"][1:]) % 4 + 1)]

    edit_yaml(folder, symmetric)
    result = static(folder)
    found = errors(result.findings, "CG174")
    assert [f.path for f in found] == ["decks[2].cards[4].effect"], rendered(result.findings)


def test_an_option_the_rules_do_not_offer_is_unread(tmp_path: Path) -> None:
    folder = copy_spec("keramikos", tmp_path)
    edit_yaml(folder, lambda data: data.__setitem__("options", {"house_rule": "on"}))
    found = _only(folder, "CG172")
    assert found[0].path == "options.house_rule"


def test_rulebooks_use_the_specs_own_names_and_counts(tmp_path: Path) -> None:
    """Issue 16's reader errors, by family: card names, tiles per player and the setup sentence all come from
    the spec, so renaming a card or changing a count changes both rulebooks and leaves no second copy behind."""
    folder = copy_spec("ceramus", tmp_path)

    def change(data: Any) -> None:
        card(data, "ceramas", "c5")["name"] = {"en": "Looking Glass", "pt_BR": "Espelho"}
        data["components"][0]["count"] = 5

    edit_yaml(folder, change)
    loaded = load_spec(folder)
    assert loaded.spec is not None
    en = " ".join(make_rulebook(loaded.spec, "en", folder).markdown.split())
    pt = " ".join(make_rulebook(loaded.spec, "pt_BR", folder).markdown.split())
    assert "Only the bonus of Looking Glass flips a shape" in en and "Só o bônus de Espelho vira uma forma" in pt
    assert "Column" not in en and "Coluna" not in pt
    assert "| Tile markers: given to each player | 20 | 20 | 20 | 20 |" in en
    assert "takes the 20 tiles bearing their corner mark, 5 of each style" in en


def test_a_one_deck_game_without_pieces_is_not_told_about_other_decks(tmp_path: Path) -> None:
    folder = copy_spec("ceratopsians", tmp_path)
    loaded = load_spec(folder)
    assert loaded.spec is not None
    en = make_rulebook(loaded.spec, "en", folder).markdown
    pt = make_rulebook(loaded.spec, "pt_BR", folder).markdown
    assert "Shuffle the deck. Then deal and lay out the cards shown" in en
    assert "Shuffle each deck" not in en and "cards and pieces shown" not in en
    assert "Embaralhe o baralho." in pt and "Embaralhe cada baralho" not in pt
    assert "face up" not in en and "cards laid out in the middle, as they come" in en  # two-sided cards have no face-down side


def test_a_translation_that_leaves_the_glossary_is_reported(tmp_path: Path) -> None:
    """Ceramus keeps the terms of its own Portuguese rulebook: a Shape card is a 'carta de Forma'."""
    folder = copy_spec("ceramus", tmp_path)

    def drift(data: Any) -> None:
        solo = data["rules_text"]["solo"]
        assert "Shape card" in solo["en"] and "cartas de Forma" in solo["pt_BR"]
        solo["pt_BR"] = solo["pt_BR"].replace("cartas de Forma", "cartas de Figura")

    edit_yaml(folder, drift)
    found = _only(folder, "CG148")
    assert found[0].path == "rules_text.solo.pt_BR" and "'carta de Forma'" in found[0].message


def test_words_for_developers_are_reported_in_rules_prose(tmp_path: Path) -> None:
    """Issue 16: 'This spec plays with 2 to 4', 'The engine numbers the seats' reached players."""
    folder = copy_spec("keramikos", tmp_path)

    def developer(data: Any) -> None:
        first = data["clarifications"][0]["text"]
        first["en"] = "The engine seats " + first["en"]
        first["pt_BR"] = "O motor acomoda " + first["pt_BR"]

    edit_yaml(folder, developer)
    found = _only(folder, "CG149")
    assert sorted(f.path for f in found) == ["clarifications[0].text.en", "clarifications[0].text.pt_BR"]


def test_a_game_whose_scores_never_move_is_degenerate(tmp_path: Path) -> None:
    """Ceramus with every tile worth nothing, on the Mural or in reserve: every game ties at 0 (CG513, CG514)."""
    from .helpers import engine

    folder = copy_spec("ceramus", tmp_path)

    def worthless(data: Any) -> None:
        data["numbers"]["points_per_tile_on_mural"] = 0
        data["numbers"]["points_per_tile_in_reserve"] = 0

    edit_yaml(folder, worthless)
    result = static(folder)
    assert not errors(result.findings), rendered(result.findings)  # each value alone is playable
    assert result.loaded is not None
    report = engine(result.loaded, 20, players=[2, 3])
    for code in ("CG513", "CG514"):
        found = errors(report.findings, code)
        assert sorted(f.path for f in found) == ["setups[1]", "setups[2]"], rendered(report.findings)
        assert all("20 completed random playouts" in f.message for f in found)
    assert not errors(report.findings, "CG515")


def test_a_game_without_a_choice_is_degenerate() -> None:
    """CG515 from the metrics of games whose every decision offered one action (and whose scores still vary)."""
    from cardgen.engine.balance import compute_metrics
    from cardgen.engine.checks import CountReport, _degenerate_findings
    from cardgen.engine.playout import PlayoutResult

    loaded = load_spec(copy_spec_path("ceramus"))
    results = [
        PlayoutResult(seed=i, num_players=2, agents=("random", "random"), actions=[0, 1], scores=[i % 3, 1], ranking=[[0], [1]] if i % 3 > 1 else [[1], [0]], termination="normal", decisions=2, forced=2)
        for i in range(12)
    ]
    count = CountReport(players=2, metrics=compute_metrics(results, 2))
    found: list[Any] = []
    _degenerate_findings(loaded, count, found)
    assert [f.code for f in found] == ["CG515"]
    choices = [PlayoutResult(seed=i, num_players=2, agents=("random", "random"), actions=[0, 1], scores=[i % 3, 1], ranking=[[0], [1]], termination="normal", decisions=2, forced=1) for i in range(12)]
    found = []
    _degenerate_findings(loaded, CountReport(players=2, metrics=compute_metrics(choices, 2)), found)
    assert found == []


def copy_spec_path(spec_id: str) -> Path:
    """The shipped folder of ``spec_id`` (read only)."""
    from .helpers import SPECS

    return SPECS / spec_id


def test_a_palette_named_like_a_reference_is_refused(tmp_path: Path) -> None:
    """A palette called 'deck' would make its icons {deck.ENTRY} read as deck counts (CG144)."""
    folder = copy_spec("ceratopsians", tmp_path)

    def rename(data: Any) -> None:
        palette = next(p for p in data["palettes"] if p["id"] == "parts")
        palette["id"] = "deck"
        for field in deck(data, "skulls")["fields"].values():
            if field.get("palette") == "parts":
                field["palette"] = "deck"

    edit_yaml(folder, rename)
    result = static(folder)
    found = errors(result.findings, "CG144")
    assert [f.path for f in found] == ["palettes[1].id"], rendered(result.findings)


def test_a_number_named_as_a_plural_noun_counts_in_both_languages() -> None:
    """'Crazy Eights' says 8 as 'Oito Maluco' does; 'a pair of sixes' says 6."""
    from cardgen.validate.prose import numbers_in

    assert [v for v, _, _ in numbers_in("Crazy Eights", "en")] == [8]
    assert [v for v, _, _ in numbers_in("Oito Maluco", "pt_BR")] == [8]
    assert [v for v, _, _ in numbers_in("a pair of sixes", "en")] == [6]
    assert numbers_in("Nothing here counts", "en") == []


def test_the_number_screen_never_hides_a_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """numbers_in with its cheap screen finds exactly what the number pattern alone finds.

    Every localised text of every shipped game in each of its locales, the bench
    job's card texts, and texts at the screen's edges (case, plurals, hyphenated
    and multi-word numbers, a number word glued to a longer word, digits, accents,
    the characters that fold to ASCII letters); the screen must also turn away
    the plain texts it is there for.
    """
    from cardgen.spec.load import find_spec_folder, load_spec
    from cardgen.validate import prose
    from cardgen.validate.static import all_texts

    corpus: list[tuple[str, str]] = []
    for game in ("ceramus", "ceratopsians", "crazy-eights", "hearts", "keramikos", "mausoleum-guardians", "no-thanks"):
        spec = load_spec(find_spec_folder(game)).spec
        assert spec is not None
        corpus += [(text, locale) for _, texts in all_texts(spec) for locale, text in texts.items()]
    bench = Path(__file__).resolve().parents[2] / "bench" / "job" / "cards.csv"
    corpus += [(line, "en") for line in bench.read_text(encoding="utf-8").splitlines()]
    edges = [
        "THREE cards", "Three's turn", "threefold", "twenty-one points", "twenty one", "one hundred cards", "a pair of SIXES",
        "x3", "3.5", "take 12", "Crazy Eights", "eightfold", "seventy-seven", "ſix", "\u212aeep", "três cartas", "vinte e duas",
        "dezesseis peças", "Quatorze", "catorze", "cinco-marias", "nothing here", "", "one two", "ones", "tens of cards",
    ]
    corpus += [(text, locale) for text in edges for locale in ("en", "pt_BR")]
    assert len(corpus) > 1500
    screened = [prose.numbers_in(text, locale) for text, locale in corpus]
    turned_away = sum(not prose.could_hold_numbers(text, locale) for text, locale in corpus)
    monkeypatch.setattr(prose, "could_hold_numbers", lambda text, locale: True)
    assert screened == [prose.numbers_in(text, locale) for text, locale in corpus]
    assert turned_away > len(corpus) // 4
    assert prose.numbers_in("seventy-seven", "en") == [(77, 0, 13)] and prose.numbers_in("threefold", "en") == []
