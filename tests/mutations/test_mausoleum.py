"""Mausoleum Guardians mutants: a construction type deleted, hands larger than the deck can deal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardgen.engine.core import make_game
from cardgen.engine.interpreter import DataGame

from .helpers import card, copy_spec, deck, edit_yaml, engine, errors, line_of, rendered, static


def _without_statues(tmp_path: Path) -> Path:
    folder = copy_spec("mausoleum-guardians", tmp_path)

    def change(data: Any) -> None:
        deck(data, "cards")["cards"].remove(card(data, "cards", "statues"))

    edit_yaml(folder, change)
    return folder


def test_deleted_construction_type_breaks_the_stated_counts(tmp_path: Path) -> None:
    """The source states 52 cards, 24 of them constructions: without the 6 Statues the spec has 46 and 18."""
    folder = _without_statues(tmp_path)
    result = static(folder)
    found = sorted(errors(result.findings, "CG105"), key=lambda f: f.path)
    assert [f.path for f in found] == ["stated_counts[0].count", "stated_counts[1].count"], rendered(result.findings)
    total, construction = found
    assert "52 for 'cards'" in total.message and "has 46" in total.message
    assert "24 for 'cards/construction'" in construction.message and "has 18" in construction.message
    assert "count: 52" in line_of(total) and "count: 24" in line_of(construction)
    assert {f.code for f in errors(result.findings)} == {"CG105"}, rendered(result.findings)


def test_engine_accepts_a_three_type_mausoleum(tmp_path: Path) -> None:
    """Decision: CG105 is the right and only error. The rules data count a set as one card of each design of
    type construction, so without Statues a set is Base + Columns + Pyramid: a smaller but coherent game, which
    the engine must play without error (it has no source to compare with; the stated counts do)."""
    folder = _without_statues(tmp_path)
    result = static(folder)
    assert result.loaded is not None and result.loaded.spec is not None
    game = make_game(result.loaded.spec, 2)
    assert isinstance(game, DataGame)
    state = game.new_initial_state(0)
    for d in (game.design("base"), game.design("columns"), game.design("pyramid")):
        state.z[game.slot("area", 0)].append(d)
    assert state.scores()[0] == result.loaded.spec.numbers["set_points"]
    report = engine(result.loaded, 200)
    assert not errors(report.findings), rendered(report.findings)
    for count in report.counts:
        m = count.metrics
        assert m is not None and m.completion == 1.0, count.players


def test_hands_larger_than_the_deck(tmp_path: Path) -> None:
    """Hands of 20: two players can be dealt (40 of 52), three and four cannot. The static layer says
    CG106 for exactly those setups. The game is played from its rules data, whose deal stops when the
    pile is empty (docs/decisions.md, "Budgets of rules data"), so the engine plays the short deals
    without a finding of its own: the verdict is the static one."""
    folder = copy_spec("mausoleum-guardians", tmp_path)

    def change(data: Any) -> None:
        data["numbers"]["hand_size"] = 20
        data["numbers"]["hand_limit"] = 20
        for setup in data["setups"]:
            setup["deal"]["cards"] = 20

    edit_yaml(folder, change)
    result = static(folder)
    cg106 = sorted(errors(result.findings, "CG106"), key=lambda f: f.path)
    assert [f.path for f in cg106] == ["setups[1]", "setups[2]"], rendered(result.findings)
    assert "60 cards" in cg106[0].message and "80 cards" in cg106[1].message
    assert result.loaded is not None
    report = engine(result.loaded, 20)
    assert not errors(report.findings), rendered(report.findings)


def _without(tmp_path: Path, card_id: str, **options: str) -> Path:
    folder = copy_spec("mausoleum-guardians", tmp_path)

    def change(data: Any) -> None:
        cards = deck(data, "cards")["cards"]
        cards[:] = [c for c in cards if c["id"] != card_id]
        data.setdefault("options", {}).update(options)

    edit_yaml(folder, change)
    return folder


def test_an_attack_no_card_carries_is_reported(tmp_path: Path) -> None:
    """Without Invasion cards the rules data's Invasion can never happen (CG177), and nothing else is wrong."""
    result = static(_without(tmp_path, "invasion"))
    found = [f for f in result.findings if f.code == "CG177"]
    assert [f.path for f in found] == ["rules.effects.invasion"], rendered(result.findings)


def test_an_option_choice_the_rules_do_not_offer_is_refused(tmp_path: Path) -> None:
    folder = copy_spec("mausoleum-guardians", tmp_path)
    edit_yaml(folder, lambda data: data["options"].__setitem__("sculptors", "exchange"))
    result = static(folder)
    assert [f.path for f in errors(result.findings)] == ["options.sculptors"], rendered(result.findings)
    assert {f.code for f in errors(result.findings)} == {"CG171"}
