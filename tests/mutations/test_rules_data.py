"""Mutations of rules data: every way of breaking it is a finding at its own line, before anything is played.

Each case edits a copy of Crazy Eights (a game written only as data) and expects
one finding code at the line it broke; the shipped spec is clean (the controls in
test_controls.py), so each finding comes from the edit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from cardgen.catalogue import validate_folder

from .helpers import copy_spec, edit_yaml, errors, line_of, rendered, static

SPEC = "crazy-eights"


def _turn(data: Any) -> Any:
    return data["rules"]["turn"][0]["options"]


def _option(data: Any, option_id: str) -> Any:
    return next(o for o in _turn(data) if o["id"] == option_id)


def _every_option_again(data: Any) -> None:
    for option in _turn(data):
        option["then"] = "again"


CASES: list[tuple[str, Callable[[Any], None], str, str]] = [
    ("a move names an unknown zone", lambda d: _option(d, "draw")["do"][0]["move"].__setitem__("from", "stok"), "CG175", "stok"),
    ("a card choice names an unknown zone", lambda d: _option(d, "play")["card"].__setitem__("to", "pile"), "CG175", "pile"),
    ("a condition names an unknown counter", lambda d: _option(d, "draw").__setitem__("when", "count(stock) > 0 and drawz < 3"), "CG175", "drawz"),
    ("a condition names an unknown number", lambda d: _option(d, "draw").__setitem__("when", "draws < numbers.max_draw"), "CG175", "max_draw"),
    ("a condition is not an expression", lambda d: _option(d, "draw").__setitem__("when", "count(stock) >"), "CG175", "count(stock) >"),
    ("a condition calls outside the language", lambda d: _option(d, "draw").__setitem__("when", "__import__('os').system('true')"), "CG175", "__import__"),
    ("a condition reads an attribute of something else", lambda d: _option(d, "draw").__setitem__("when", "draws.__class__ == 1"), "CG175", "__class__"),
    ("a card condition names an unknown field", lambda d: _option(d, "play")["card"].__setitem__("where", "card.colour == suit"), "CG175", "card.colour"),
    ("`card` outside a card choice", lambda d: _option(d, "draw").__setitem__("when", "card.rank == 8"), "CG175", "card.rank"),
    ("a deal count names a missing setup entry", lambda d: d["rules"]["setup"][1]["deal"].__setitem__("count", "setup.deal.jokers"), "CG175", "setup.deal.jokers"),
    ("the setup shuffles an unknown deck", lambda d: d["rules"]["setup"][0]["shuffle"].__setitem__("deck", "tarot"), "CG175", "tarot"),
    ("an option goes to an unknown step", lambda d: _option(d, "draw").__setitem__("then", "draw_again"), "CG175", "draw_again"),
    ("an effect adds to an unknown counter", lambda d: _option(d, "draw")["do"][1]["add"].__setitem__("counter", "drawn"), "CG175", "drawn"),
    ("a card effect has no rule", lambda d: d["rules"]["effects"].__setitem__("wild_card", d["rules"]["effects"].pop("wild")), "CG175", "wild"),
    ("a choice is not the last effect", lambda d: d["rules"]["effects"]["wild"].append({"skip": 1}), "CG175", "choose"),
    ("a score sums an unknown field", lambda d: d["rules"]["scoring"][0]["sum"].__setitem__("field", "value"), "CG175", "value"),
    ("no option ever ends the turn", lambda d: _every_option_again(d), "CG176", "- id: turn"),
]


@pytest.mark.parametrize("name,change,code,on_line", CASES, ids=[c[0] for c in CASES])
def test_broken_rules_data_is_a_finding_at_its_line(tmp_path: Path, name: str, change: Callable[[Any], None], code: str, on_line: str) -> None:
    folder = copy_spec(SPEC, tmp_path)
    edit_yaml(folder, change)
    result = validate_folder(folder, kinds=("static",))
    found = errors(result.findings, code)
    assert found, f"{name}: expected {code}, got:\n{rendered(result.findings)}"
    assert any(on_line in line_of(f) for f in found), f"{name}: no {code} on a line with {on_line!r}:\n{rendered(found)}"


def test_an_effect_no_card_carries_is_a_warning(tmp_path: Path) -> None:
    folder = copy_spec(SPEC, tmp_path)
    edit_yaml(folder, lambda d: d["rules"]["effects"].__setitem__("reverse_order", ["reverse"]))
    found = [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG177"]
    assert found and "reverse_order" in line_of(found[0])


def test_a_card_choice_from_a_zone_nothing_fills_is_reported(tmp_path: Path) -> None:
    folder = copy_spec(SPEC, tmp_path)

    def choose_from_an_empty_zone(data: Any) -> None:
        data["rules"]["zones"]["graveyard"] = {"visibility": "public"}
        _option(data, "play")["card"]["from"] = "graveyard"

    edit_yaml(folder, choose_from_an_empty_zone)
    found = [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG180"]
    assert found and "graveyard" in line_of(found[0])


def test_a_number_the_rules_data_never_reads_is_reported_as_unread(tmp_path: Path) -> None:
    folder = copy_spec(SPEC, tmp_path)
    edit_yaml(folder, lambda d: d["numbers"].__setitem__("hand_limit", 9))
    findings = static(folder).findings
    unread = errors(findings, "CG172")
    assert unread and "hand_limit" in line_of(unread[0]), rendered(findings)


def test_a_zone_or_option_without_a_name_is_reported_where_it_is(tmp_path: Path) -> None:
    """The generated rulebook would print the id in every language (CG181, a warning)."""
    folder = copy_spec(SPEC, tmp_path)

    def drop_names(data: Any) -> None:
        del data["rules"]["zones"]["stock"]["name"]
        del _option(data, "draw")["name"]

    edit_yaml(folder, drop_names)
    found = [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG181"]
    assert sorted(("stock" in f.message, "draw" in f.message) for f in found) == [(False, True), (True, False)]
    assert any("stock:" in line_of(f) for f in found)


def test_a_field_the_rules_read_without_a_name_or_a_name_without_its_gender_is_reported(tmp_path: Path) -> None:
    """The generated text prints a read field's name ('the total penalty points'), and pt_BR's articles agree with
    each name's gender: without them the rulebook prints the id, or 'o cartas' (CG181, a warning)."""
    folder = copy_spec(SPEC, tmp_path)

    def drop(data: Any) -> None:
        del data["decks"][0]["fields"]["points"]["name"]
        del data["rules"]["zones"]["stock"]["gender"]

    edit_yaml(folder, drop)
    found = [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG181"]
    messages = sorted(f.message for f in found)
    assert len(found) == 2, rendered(found)
    assert "card field 'points' has no name" in messages[0] and "zone 'stock' has no gender in pt_BR" in messages[1]
    assert any("points:" in line_of(f) for f in found) and any("stock:" in line_of(f) for f in found)
